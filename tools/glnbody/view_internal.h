/* view_internal.h - what the files of `glnbody view` share: the checked
 * command line and the viewer's state (cmd_view.c, view_input.c,
 * view_md.c). */
#ifndef NB_VIEW_INTERNAL_H
#define NB_VIEW_INTERNAL_H

#include <stdint.h>

#include "md_cli.h"
#include "view.h"

#define VIEW_T_MAX 8192.0       /* run's --t-end limit: block times stay exact */

struct view_config {
    int md;                             /* view md */
    enum nb_engine engine;
    const char *variant;
    enum nb_precision precision;
    struct nb_gl_options gl;
    struct nb_render_options picture;   /* the window's size, colour, camera */
    int quiet;
    int inspect;                        /* start with the texture inspector */
    const char *screenshot;             /* (tests) the PNG of frame screenshot_after */
    uint64_t screenshot_after;
    /* gravity */
    const char *input;
    size_t n;
    uint64_t seed;
    struct nb_hermite_params hermite;
    double dt_frame, t_end;
    const char *restart;                /* run's checkpoint to continue */
    /* md: md's own options and system (md_options.c, md_system.c) */
    struct md_args md_args;
    struct md_config md_cfg;
    uint64_t steps_per_frame;
};

struct GLFWwindow;

struct view {
    struct view_config *c;
    int glfw;
    struct GLFWwindow *window;
    struct nb_gl *gl;
    struct nb_forces *forces;
    struct nb_hermite *h;
    struct nb_md *md;
    size_t n;
    struct nb_render *render;
    struct nb_render_options home;      /* what r (reset camera) returns to */
    struct view_text *text;
    int paused, step_once, at_end;
    int inspect;                        /* the texture inspector is shown */
    double speed;                       /* times the time or steps per frame */
    double share;                       /* of that, what keeps frames quick */
    /* the mouse */
    int dragging;                       /* 0, 1 orbit, 2 pan */
    double last_x, last_y;
    /* the captions' numbers, measured every half second */
    double e0, de_rel, rate, fps;
    double sim_seconds, sim_seconds_then, work_then, measured_at;
    uint64_t frames, frames_then;
};

/* Mouse and keys (view_input.c): GLFW callbacks on v->window. */
void view_input_attach(struct view *v);

/* ---- view md (view_md.c) ---- */

/* The window's own options of view md, as typed. */
struct view_window_args {
    const char *size, *steps_per_frame, *screenshot, *screenshot_after;
    int inspect;
};
/* md's options (md_options.c) into c->md_args and c->md_cfg, the window's
 * into w; --help prints view md's help. */
enum nb_status view_md_parse(struct view_config *c, struct view_window_args *w, int argc,
                             char **argv, int *help, struct nb_error *err);
/* The system into v->md, made and checked as glnbody md makes it, before
 * the window opens. */
enum nb_status view_md_prepare(struct view *v, struct nb_error *err);
/* Starts v->md on the configured engine in gl (the window's; NULL: CPU). */
enum nb_status view_md_start(struct view *v, struct nb_gl *gl, struct nb_error *err);

#endif
