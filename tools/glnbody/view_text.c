/* view_text.c - the viewer's captions: lines of text rasterised by
 * FreeType from a monospaced font that fontconfig finds (DejaVu Sans Mono
 * on Debian, fonts-dejavu-core), into an RGBA image that the renderer
 * blends over the picture (nb_render_overlay). */
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <stdlib.h>
#include <string.h>

#include "view.h"

struct view_text {
    FT_Library library;
    FT_Face face;
    int line_height, ascent;
    unsigned char *rgba;
    size_t capacity;
};

/* The file of the best match for a monospaced font, or NULL. */
static char *find_font(void)
{
    char *file = NULL;
    FcPattern *pattern = FcNameParse((const FcChar8 *)"monospace");
    if (!FcInit() || !pattern)
        return NULL;
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcChar8 *name = NULL;
    if (match && FcPatternGetString(match, FC_FILE, 0, &name) == FcResultMatch)
        file = strdup((const char *)name);
    if (match)
        FcPatternDestroy(match);
    FcPatternDestroy(pattern);
    return file;
}

struct view_text *view_text_create(int pixel_size, char *why, size_t why_size)
{
    struct view_text *t = calloc(1, sizeof *t);
    char *file = find_font();
    if (!t || !file) {
        snprintf(why, why_size, "fontconfig found no monospaced font (Debian: "
                 "fonts-dejavu-core)");
        free(t);
        free(file);
        FcFini();
        return NULL;
    }
    if (FT_Init_FreeType(&t->library) != 0 ||
        FT_New_Face(t->library, file, 0, &t->face) != 0 ||
        FT_Set_Pixel_Sizes(t->face, 0, (FT_UInt)pixel_size) != 0) {
        snprintf(why, why_size, "FreeType could not load the font %s", file);
        free(file);
        view_text_destroy(t);
        return NULL;
    }
    free(file);
    t->ascent = (int)(t->face->size->metrics.ascender >> 6);
    t->line_height = (int)(t->face->size->metrics.height >> 6);
    return t;
}

void view_text_destroy(struct view_text *t)
{
    if (!t)
        return;
    if (t->face)
        FT_Done_Face(t->face);
    if (t->library)
        FT_Done_FreeType(t->library);
    free(t->rgba);
    free(t);
    FcFini();       /* fontconfig's configuration, loaded by find_font's FcInit */
}

/* The advance of a line in pixels. */
static int line_width(struct view_text *t, const char *s, size_t len)
{
    int w = 0;
    for (size_t k = 0; k < len; k++)
        if (FT_Load_Char(t->face, (unsigned char)s[k], FT_LOAD_DEFAULT) == 0)
            w += (int)(t->face->glyph->advance.x >> 6);
    return w;
}

/* Glyph coverage as white over a translucent dark panel. */
static void blit_glyph(struct view_text *t, int width, int height, int x0, int y0)
{
    FT_Bitmap *bm = &t->face->glyph->bitmap;
    for (unsigned row = 0; row < bm->rows; row++)
        for (unsigned col = 0; col < bm->width; col++) {
            int x = x0 + (int)col, y = y0 + (int)row;
            if (x < 0 || y < 0 || x >= width || y >= height)
                continue;
            unsigned char a = bm->buffer[row * (unsigned)bm->pitch + col];
            unsigned char *p = &t->rgba[4 * ((size_t)y * width + x)];
            /* over the panel: colour toward white, alpha toward opaque */
            p[0] = p[1] = p[2] = (unsigned char)(p[0] + (255 - p[0]) * a / 255);
            p[3] = (unsigned char)(p[3] + (255 - p[3]) * a / 255);
        }
}

const unsigned char *view_text_render(struct view_text *t, const char *text, int *width,
                                      int *height)
{
    enum { PAD = 6 };
    int lines = 0, widest = 0;
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        int w = line_width(t, s, len);
        widest = w > widest ? w : widest;
        lines++;
        s += len + (s[len] == '\n');
    }
    *width = widest + 2 * PAD;
    *height = lines * t->line_height + 2 * PAD;
    size_t bytes = 4 * (size_t)*width * (size_t)*height;
    if (bytes > t->capacity) {
        unsigned char *p = realloc(t->rgba, bytes);
        if (!p)
            return NULL;
        t->rgba = p;
        t->capacity = bytes;
    }
    for (size_t k = 0; k < bytes; k += 4) {         /* the panel */
        t->rgba[k] = t->rgba[k + 1] = t->rgba[k + 2] = 0;
        t->rgba[k + 3] = 140;
    }
    int y = PAD;
    for (const char *s = text; *s; y += t->line_height) {
        size_t len = strcspn(s, "\n");
        int x = PAD;
        for (size_t k = 0; k < len; k++) {
            if (FT_Load_Char(t->face, (unsigned char)s[k], FT_LOAD_RENDER) != 0)
                continue;
            FT_GlyphSlot g = t->face->glyph;
            blit_glyph(t, *width, *height, x + g->bitmap_left, y + t->ascent - g->bitmap_top);
            x += (int)(g->advance.x >> 6);
        }
        s += len + (s[len] == '\n');
    }
    return t->rgba;
}
