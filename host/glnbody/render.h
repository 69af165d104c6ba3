/* glnbody/render.h - part of glnbody.h, the public C API of glnbody:
 * pictures, frames, movies and windows (struct nb_render, struct nb_frames): section 14.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_RENDER_H
#define GLNBODY_RENDER_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/render.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 14. pictures: frames, movies, windows ============= utility ======= */
/* Utility: what glnbody run --frames and glnbody view draw with; the
 * inspector's panels and titles may change with the engines. */

/* A renderer draws a system as point sprites with additive blending into
 * an off-screen framebuffer of its context: coloured by speed, potential
 * or type, sized by mass (gravity) or type (MD), with the edges of a
 * periodic box.  It draws straight from the particle streams the engine
 * already holds on the GPU (the compute pipeline's position buffer as the
 * vertex source, the fragment pipeline's position texture fetched in the
 * vertex shader); only the CPU engine's positions are uploaded.  A frame
 * sequence reads finished pictures back through a ring of pixel-buffer
 * objects and fences, so the simulation never waits for a read, and writes
 * them as PNG files (libpng) under temporary names renamed into place, and
 * optionally into an MP4 movie through ffmpeg. */

/* What the colour of a particle shows. */
enum nb_render_color {
    NB_COLOR_SPEED,         /* |v|, on a ramp from blue to white to red */
    NB_COLOR_POTENTIAL,     /* the potential energy of each particle */
    NB_COLOR_TYPE,          /* a fixed colour per type (gravity: type 1) */
    NB_COLOR_COUNT
};

/* A perspective camera orbiting a centre: it sits at distance from the
 * centre, turned by azimuth about +y and raised by elevation (degrees);
 * azimuth = elevation = 0 looks down -z with +x to the right and +y up. */
struct nb_camera {
    double center[3];
    double distance;        /* 0: fit the system: look at its box's centre
                               (without a box, the particles' centroid)
                               from where the box, or the sphere holding
                               90% of the particles, fills the view */
    double azimuth, elevation;
    double fov;             /* vertical field of view, degrees */
};

struct nb_render_options {
    int width, height;      /* pixels of the picture */
    enum nb_render_color color;
    struct nb_camera camera;
    double point_size;      /* radius of a particle of mean mass (or of
                               type 1) in length units; 0: automatic */
    double brightness;      /* of one sprite's centre, 0..1; 0: automatic
                               (dimmer for larger N so that cores do not
                               saturate) */
};
/* 640x480, colour by speed, the fitted camera at azimuth 30 and elevation
 * 20 degrees with a field of view of 45 degrees, automatic sizes. */
NB_API void nb_render_options_default(struct nb_render_options *opt);

struct nb_render;

/* A renderer on gl (which it borrows): NB_ERR_ARGS for a size outside
 * 1..the GL limit (GL_MAX_RENDERBUFFER_SIZE), NB_ERR_GL for a program. */
NB_API enum nb_status nb_render_create(struct nb_render **r, struct nb_gl *gl,
                                       const struct nb_render_options *opt,
                                       struct nb_error *err);
NB_API void nb_render_destroy(struct nb_render *r);
/* Replaces the options (a new size re-makes the framebuffer). */
NB_API enum nb_status nb_render_set_options(struct nb_render *r,
                                            const struct nb_render_options *opt,
                                            struct nb_error *err);
/* The options in use; a fitted camera's distance and centre as fitted
 * once a frame was drawn. */
NB_API void nb_render_get_options(const struct nb_render *r, struct nb_render_options *opt);

/* Draws a frame of a Hermite run at the time of its last block step, from
 * its engine's j-particle stream on the GPU (the CPU engine: uploaded).
 * NB_COLOR_POTENTIAL is refused (NB_ERR_ARGS): a block-step run keeps
 * potentials only for its last block. */
NB_API enum nb_status nb_render_draw_hermite(struct nb_render *r, struct nb_hermite *h,
                                             struct nb_error *err);
/* Draws a frame of an MD system from its engine's positions on the GPU
 * (velocities too when the engine integrates there), the box edges where
 * an axis is periodic. */
NB_API enum nb_status nb_render_draw_md(struct nb_render *r, struct nb_md *md,
                                        struct nb_error *err);
/* Draws n particles from host arrays: positions x (3n); v (3n), pot (n),
 * m (n) and type (n, from 1) may each be NULL (a missing colour or size
 * source counts as constant); box lo, hi (3 each) drawn when not NULL. */
NB_API enum nb_status nb_render_draw_arrays(struct nb_render *r, size_t n, const double *x,
                                            const double *v, const double *pot,
                                            const double *m, const int *type,
                                            const double *box_lo, const double *box_hi,
                                            struct nb_error *err);
/* The texture inspector, the stream model made visible: over the right
 * side of the last frame, the results of the engine's last force pass as
 * they lie on the GPU, texel for texel: the fragment pipeline's render
 * targets (one row each: the vector's magnitude beside the scalar's), or
 * the compute pipeline's output buffers, as false colour of log10 of the
 * magnitude from 1e-4 (black) to 1e4 (white), with a colour bar.  text
 * (size bytes; may be NULL) receives the variant's shape (i per
 * fragment, j per step, replicas, passes; or tiles and j-slices) and a
 * line naming each row.  The accumulation modes B..H finish their words on
 * the host: their shape is told, no panels.  Draw a frame first. */
NB_API enum nb_status nb_render_inspect_hermite(struct nb_render *r, struct nb_hermite *h,
                                                char *text, size_t size,
                                                struct nb_error *err);
NB_API enum nb_status nb_render_inspect_md(struct nb_render *r, struct nb_md *md, char *text,
                                           size_t size, struct nb_error *err);
/* Each panel's title from the last inspector drawing: its target, its
 * layout (texels or elements, and how they are shown) and the range of the
 * magnitudes it holds, in lines for the caller to draw with its own font
 * over the strip left free above the panel (x, y: the strip's top-left
 * pixel; height: the strip's). */
#define NB_INSPECT_PANELS 8
struct nb_inspect_titles {
    int count;
    struct {
        int x, y, height;
        char text[384];
    } panel[NB_INSPECT_PANELS];
};
NB_API void nb_render_inspect_titles(const struct nb_render *r, struct nb_inspect_titles *out);
/* Blends a w x h image of RGBA bytes (rows top first, straight alpha) over
 * the last frame with its top-left corner at pixel (x, y): captions,
 * colour bars. */
NB_API enum nb_status nb_render_overlay(struct nb_render *r, int x, int y, int w, int h,
                                        const unsigned char *rgba, struct nb_error *err);
/* Copies the last frame into the default framebuffer of the context's
 * current window surface, scaled to width x height (the window viewer). */
NB_API enum nb_status nb_render_present(struct nb_render *r, int width, int height,
                                        struct nb_error *err);

/* A numbered sequence of frames of r: dir/frame_NNNNN.png (dir NULL: no
 * PNG files; dir is made if missing, one level), and movie (NULL: none) an
 * MP4 file encoded by ffmpeg at fps frames per second.  NB_ERR_IO where
 * dir cannot be made or written, NB_ERR_UNSUPPORTED where ffmpeg is not
 * found in PATH.  The sequence borrows r. */
struct nb_frames;
NB_API enum nb_status nb_frames_create(struct nb_frames **fr, struct nb_render *r,
                                       const char *dir, const char *movie, double fps,
                                       struct nb_error *err);
/* Starts an asynchronous read of r's last frame; frames read earlier whose
 * fences have passed are written now (a PNG each, and to the movie). */
NB_API enum nb_status nb_frames_capture(struct nb_frames *fr, struct nb_error *err);
/* Waits for every pending frame, writes it, and finishes the movie (ffmpeg's
 * status checked; the file renamed into place). */
NB_API enum nb_status nb_frames_finish(struct nb_frames *fr, struct nb_error *err);
/* Frames captured so far. */
NB_API uint64_t nb_frames_count(const struct nb_frames *fr);
/* Destroys the sequence; an unfinished movie is removed (PNG files already
 * written stay: each is complete). */
NB_API void nb_frames_destroy(struct nb_frames *fr);
/* 1 where movies can be made: ffmpeg, which nb_frames_create runs to
 * encode them, is an executable found in PATH; 0 where it is not (a
 * program may refuse --movie before a run starts). */
NB_API int nb_frames_movie_available(void);
/* Writes r's last frame as one PNG file (read back at once, synchronously). */
NB_API enum nb_status nb_render_write_png(struct nb_render *r, const char *path,
                                          struct nb_error *err);

/* A context around the EGL context current on the calling thread (a GLFW
 * window made with GLFW_EGL_CONTEXT_API), so that the engines' buffers live
 * in the window's context; its surfaces are kept for nb_gl_make_current.
 * The context stays the window library's: nb_gl_destroy leaves it alive.
 * NB_ERR_GL where no EGL context is current or it is older than 4.3. */
NB_API enum nb_status nb_gl_create_from_current(struct nb_gl **gl,
                                                const struct nb_gl_options *opt,
                                                struct nb_error *err);

#ifdef __cplusplus
}
#endif

#endif
