/* view.h - `glnbody view`: a window on a running simulation (cmd_view.c,
 * view_input.c) and its captions (view_text.c).  Only the public API
 * (glnbody.h), GLFW, FreeType and fontconfig. */
#ifndef NB_VIEW_H
#define NB_VIEW_H

#include <stddef.h>

#include "glnbody.h"

/* Captions: lines of text (separated by '\n') as an RGBA image. */
struct view_text;
/* NULL with the reason in why where no font can be loaded. */
struct view_text *view_text_create(int pixel_size, char *why, size_t why_size);
void view_text_destroy(struct view_text *t);
/* The image of text (owned by t, valid until the next call), its size in
 * *width and *height; NULL when out of memory. */
const unsigned char *view_text_render(struct view_text *t, const char *text, int *width,
                                      int *height);

int nb_cmd_view(int argc, char **argv);

#endif
