/* frames.h - pictures of a run on the command line: run's and md's
 * --frames DIR --frame-every DT [--frame-size WxH] [--color ...]
 * [--camera ...] [--movie FILE.mp4] (frames.c), and the window of
 * `glnbody view` (cmd_view.c).  Only the public API (glnbody.h). */
#ifndef NB_CLI_FRAMES_H
#define NB_CLI_FRAMES_H

#include <stdint.h>
#include <stdio.h>

#include "glnbody.h"

/* The options as typed, then checked, and the sequence while it runs. */
struct nb_cli_frames {
    const char *dir, *every, *size, *color, *camera, *movie;
    int on;                         /* --frames or --movie given */
    double interval;                /* between frames, in the command's unit */
    struct nb_render_options opt;
    struct nb_gl *own_gl;           /* a context of its own (the CPU engine) */
    struct nb_render *render;
    struct nb_frames *frames;
    uint64_t next;                  /* index of the next frame */
    double seconds;                 /* wall time spent on frames */
};

/* The option table's rows (struct nb_option of cli.h). */
/* EVERY and EVERY_HELP: --frame-every's argument and help, a time (run)
 * or steps (md). */
#define NB_FRAMES_OPTIONS(f, EVERY, EVERY_HELP)                                     \
    { "frames", "DIR", "write a PNG picture every --frame-every into DIR "          \
      "(frame_NNNNN.png; made if missing)", &(f).dir, NULL },                        \
    { "frame-every", EVERY, EVERY_HELP " (needs --frames or --movie)",              \
      &(f).every, NULL },                                                            \
    { "frame-size", "WxH", "picture size in pixels (default 640x480)", &(f).size,   \
      NULL },                                                                        \
    { "color", "speed|potential|type", "what a particle's colour shows (default "   \
      "speed)", &(f).color, NULL },                                                  \
    { "camera", "D,AZ,EL[,CX,CY,CZ[,FOV]]", "camera distance (0: fit), azimuth "    \
      "and elevation in degrees, centre, field of view (default 0,30,20)",          \
      &(f).camera, NULL },                                                           \
    { "movie", "FILE.mp4", "also encode the pictures as a movie with ffmpeg",       \
      &(f).movie, NULL }

/* Checks the options (before anything is created): in_steps 0: the
 * command's clock is time and --frame-every a time (run); 1: it counts
 * steps and --frame-every is a whole number of steps (md).  t_end is the
 * end on that clock.
 * Colour and camera options alone (without --frames or --movie) are
 * refused.  err's message names the option. */
enum nb_status nb_cli_frames_check(struct nb_cli_frames *f, int in_steps, double t_end,
                        struct nb_error *err);
/* Parses the size (its option named size_option: "frame-size", view's
 * "size"), --color and --camera into opt (view shares them). */
enum nb_status nb_cli_picture_options(const char *size_option, const char *size,
                                      const char *color, const char *camera,
                                      struct nb_render_options *opt, struct nb_error *err);

/* The renderer and the sequence, on gl (NULL: a context of its own, for
 * the CPU engine). */
enum nb_status nb_cli_frames_open(struct nb_cli_frames *f, struct nb_gl *gl, struct nb_error *err);

/* Draws the frame of the current state into r. */
typedef enum nb_status (*nb_cli_draw)(void *state, struct nb_render *r, struct nb_error *err);

/* Every frame whose time (k * interval) is < before and <= end: drawn by
 * draw from the current state and captured.  The next frame's tick. */
enum nb_status nb_cli_frames_due(struct nb_cli_frames *f, double before, double end, nb_cli_draw draw,
                      void *state, struct nb_error *err);
double nb_cli_frames_next(const struct nb_cli_frames *f);
/* Writes what is pending and the movie; a line on fp (NULL: none). */
enum nb_status nb_cli_frames_finish(struct nb_cli_frames *f, FILE *fp, struct nb_error *err);
void nb_cli_frames_close(struct nb_cli_frames *f);

#endif
