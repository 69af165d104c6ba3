/* render_internal.h - what the files of the picture renderer share (not
 * public): the renderer's state and one frame's particle source, which
 * render_sources.c builds from a Hermite run or an MD system and
 * render.c draws. */
#ifndef NB_RENDER_INTERNAL_H
#define NB_RENDER_INTERNAL_H

#include "gl_internal.h"

/* Host arrays the renderer uploads: positions, velocities, potentials,
 * types, the box's edges. */
enum { UP_POS, UP_VEL, UP_VALUE, UP_TYPE, UP_BOX, UP_COUNT };

struct nb_render {
    struct nb_gl *gl;
    struct nb_render_options opt;
    GLuint fbo, color_tex, image_tex, vao;
    int fb_width, fb_height, image_width, image_height;
    GLuint up[UP_COUNT];
    size_t up_bytes[UP_COUNT];
    float view_proj[16];
    float pixels_per_unit;      /* at a view depth of 1 */
    double fit_radius;          /* of the system, once measured; 0: not yet */
    double fit_center[3];       /* the box's centre, or the camera's */
    double speed_scale;         /* rms speed, once measured; 0: not yet */
    int drawn;                  /* a frame is in the framebuffer */
    void *scratch;
    size_t scratch_bytes;
    struct nb_inspect_titles titles;    /* the inspector's last panels */
};

/* One frame's particles: the engine's stream on the GPU where it has one
 * (gpu.n > 0), else the host arrays; the host arrays also give what the
 * stream lacks (potentials, types) and the camera's fit. */
struct nb_render_source {
    size_t n;
    struct nb_gl_particles gpu;
    const double *x, *v, *pot, *m;  /* 3n, 3n, n, n; any may be NULL but x
                                       where there is no stream */
    const int *type;                /* n, from 1, or NULL */
    const double *lo, *hi;          /* box edges to draw, or NULL */
    int size_by_type;               /* MD: sprites sized by type */
};

/* The bindings a picture changes in the engine's context, restored after
 * it: the engines may count on what they bound (texture units 0 and 1,
 * storage binding 0, the active unit). */
struct nb_render_saved {
    GLint texture0, texture1, storage0, active;
};
static inline void nb_render_save(struct nb_render_saved *s)
{
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s->active);
    glActiveTexture(GL_TEXTURE1);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &s->texture1);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &s->texture0);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &s->storage0);
}
static inline void nb_render_restore(const struct nb_render_saved *s)
{
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, (GLuint)s->texture1);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, (GLuint)s->texture0);
    glActiveTexture((GLenum)s->active);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, (GLuint)s->storage0);
}

/* The inspector's image of count elements of a target width x height
 * texels (a buffer: width x height as nb_gl_buffer_panel lays it out),
 * cols x rows (render_inspect.c): a 2-D target at most MAX_ASPECT times
 * wider than high (or higher than wide) keeps its layout; any other, a
 * 1-D one above all, is wrapped in row order into a near-square. */
#define NB_INSPECT_MAX_ASPECT 4
void nb_render_inspect_layout(size_t count, int width, int height, int *cols, int *rows);

/* Draws s into r's framebuffer (render.c). */
enum nb_status nb_render_draw_source(struct nb_render *r, const struct nb_render_source *s,
                                     struct nb_error *err);
/* Reads r's last frame into rgb (width * height * 3 bytes, top row first):
 * a synchronous read, for single pictures (render.c). */
enum nb_status nb_render_read_rgb(struct nb_render *r, unsigned char *rgb,
                                  struct nb_error *err);

/* A frame of a Hermite run or an MD system (render_sources.c): from the
 * engine's GPU stream where it has one, else the host state; what
 * nb_render_draw_hermite and nb_render_draw_md draw. */
enum nb_status nb_render_draw_sim(struct nb_render *r, struct nb_sim *s,
                                  struct nb_error *err);
enum nb_status nb_render_draw_md_sim(struct nb_render *r, struct nb_md_sim *s,
                                     struct nb_error *err);

/* The texture inspector (render_inspect.c): res drawn over r's last
 * frame, its description into text (size bytes). */
enum nb_status nb_render_inspect_results(struct nb_render *r, const struct nb_gl_results *res,
                                         char *text, size_t size, struct nb_error *err);
enum nb_status nb_render_inspect_sim(struct nb_render *r, struct nb_sim *s, char *text,
                                     size_t size, struct nb_error *err);
enum nb_status nb_render_inspect_md_sim(struct nb_render *r, struct nb_md_sim *s, char *text,
                                        size_t size, struct nb_error *err);

#endif
