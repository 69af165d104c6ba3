/* cmd_view.c - glnbody view [md]: a window on a running simulation.
 *
 * The window's context is an EGL context (GLFW_EGL_CONTEXT_API), the same
 * kind as the headless runs', and the engines are made in it
 * (nb_gl_create_from_current), so every frame is drawn straight from the
 * buffers and textures the engine holds on the GPU (nb_render_draw_hermite,
 * nb_render_draw_md): nothing is read back to draw.  Only the public API.
 * The command line, the simulation and the loop are here; the mouse and
 * keys in view_input.c, the captions in view_text.c. */
#define _GNU_SOURCE         /* dl_iterate_phdr */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "file_roles.h"
#include "frames.h"
#include "view_internal.h"

/* ---- the command line -------------------------------------------------- */

struct view_option {
    const char *name, *metavar, *help;
    const char **value;
    int *flag;
    int scope;          /* 0 both, 'g' gravity only, 'm' md only */
};

static enum nb_status parse_number(const char *option, const char *text, double min,
                                   double *out, struct nb_error *err)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(*out) || *out < min)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: '%s' is not a number >= %g", option, text,
                            min);
    return NB_OK;
}

static enum nb_status parse_count(const char *option, const char *text, long min, long max,
                                  long *out, struct nb_error *err)
{
    char *end;
    errno = 0;
    *out = strtol(text, &end, 10);
    if (end == text || *end || errno || *out < min || *out > max)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: '%s' is not a whole number in %ld..%ld",
                            option, text, min, max);
    return NB_OK;
}

/* The gravity form's options (the manual page's section lists the same). */
static void print_help(const struct view_option *table)
{
    printf("usage: glnbody view [--input FILE | --ic plummer --n N --seed S | --restart "
           "FILE] [run's integration options] [WINDOW OPTIONS]\n"
           "       glnbody view md [md's options] [WINDOW OPTIONS]   (see glnbody view md "
           "--help)\n\n"
           "Runs a simulation in a window (GLFW) and draws every frame straight from the "
           "engine's GPU buffers: Hermite block steps (Portegies Zwart et al. 2007), or "
           "with md any system of glnbody md stepped by velocity Verlet (Swope et al. "
           "1982).  Mouse: orbit, pan, zoom; press h in the window for the keys.  Without "
           "a display it stops (exit 1): write pictures with run --frames instead.\n\n"
           "options:\n");
    for (const struct view_option *o = table; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->metavar ? " " : "",
                 o->metavar ? o->metavar : "");
        printf("  %-28s %s\n", left, o->help);
    }
    printf("  %-28s %s\n", "--help", "print this help");
}

static enum nb_status parse_args(const struct view_option *table, int md, int argc, char **argv,
                                 int *help, struct nb_error *err)
{
    *help = 0;
    for (int k = 0; k < argc; k++) {
        const char *arg = argv[k];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            *help = 1;
            return NB_OK;
        }
        const struct view_option *o = table;
        if (strncmp(arg, "--", 2) == 0)
            while (o->name && strcmp(o->name, arg + 2) != 0)
                o++;
        if (strncmp(arg, "--", 2) != 0 || !o->name ||
            (o->scope == 'g' && md) || (o->scope == 'm' && !md))
            return nb_error_set(err, NB_ERR_ARGS, "view%s: unknown option '%s' (see glnbody view%s "
                                "--help)", md ? " md" : "", arg, md ? " md" : "");
        if (o->flag) {
            *o->flag = 1;
            continue;
        }
        if (*o->value)
            return nb_error_set(err, NB_ERR_ARGS, "--%s given twice", o->name);
        if (k + 1 >= argc)
            return nb_error_set(err, NB_ERR_ARGS, "--%s needs a value (%s)", o->name, o->metavar);
        *o->value = argv[++k];
    }
    return NB_OK;
}

struct view_args {
    const char *input, *ic, *n, *seed, *restart, *eta, *softening, *dt_max, *predict;
    const char *t_end, *dt_frame, *steps_per_frame;
    const char *backend, *variant, *precision, *shaders, *size, *color, *camera;
    const char *screenshot, *screenshot_after;
    int shared_dt, quiet, inspect, debug;
};

static enum nb_status parse_engine(const char *text, enum nb_engine *out, struct nb_error *err)
{
    static const char *const names[NB_ENGINE_COUNT] = { "cpu", "compute", "fragment" };
    for (int k = 0; k < NB_ENGINE_COUNT; k++)
        if (strcmp(text, names[k]) == 0) {
            *out = (enum nb_engine)k;
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "--backend: '%s' is not cpu, compute or fragment", text);
}

/* The gravity options into cfg (defaults: a Plummer sphere of 4096). */
static enum nb_status check_gravity(const struct view_args *a, struct view_config *c,
                                    struct nb_error *err)
{
    long n = 4096, seed = 1;
    nb_hermite_params_default(&c->hermite);
    c->hermite.shared_dt = a->shared_dt;
    c->dt_frame = 1.0 / 64;
    c->t_end = VIEW_T_MAX;
    if (a->input && (a->ic || a->n || a->seed))
        return nb_error_set(err, NB_ERR_ARGS, "view: --input excludes --ic, --n and --seed");
    if (a->restart && (a->input || a->ic || a->n || a->seed))
        return nb_error_set(err, NB_ERR_ARGS, "view: --restart excludes --input, --ic, --n and "
                            "--seed (the system comes from the checkpoint)");
    if (a->restart && (a->eta || a->softening || a->dt_max || a->shared_dt))
        return nb_error_set(err, NB_ERR_ARGS, "view: --restart continues with the checkpoint's "
                            "--eta, --softening, --dt-max and --shared-dt; they cannot change");
    if (a->ic && strcmp(a->ic, "plummer") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown initial conditions '%s' (known: "
                            "plummer)", a->ic);
    if ((a->n && parse_count("n", a->n, 2, (long)UINT32_MAX, &n, err) != NB_OK) ||
        (a->seed && parse_count("seed", a->seed, 0, LONG_MAX, &seed, err) != NB_OK) ||
        (a->eta && parse_number("eta", a->eta, 1e-12, &c->hermite.eta, err) != NB_OK) ||
        (a->softening && parse_number("softening", a->softening, 0, &c->hermite.eps, err)
         != NB_OK) ||
        (a->dt_max && parse_number("dt-max", a->dt_max, 1e-12, &c->hermite.dt_max, err)
         != NB_OK) ||
        (a->dt_frame && parse_number("dt-frame", a->dt_frame, 1e-9, &c->dt_frame, err)
         != NB_OK) ||
        (a->t_end && parse_number("t-end", a->t_end, 0, &c->t_end, err) != NB_OK))
        return err->status;
    if (c->t_end > VIEW_T_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "--t-end: %s is above %g (block times are exact "
                            "binary fractions only up to there)", a->t_end, VIEW_T_MAX);
    if (a->predict && strcmp(a->predict, "gpu") != 0 && strcmp(a->predict, "host") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--predict: '%s' is not host or gpu", a->predict);
    c->hermite.predict_on_device = a->predict && strcmp(a->predict, "gpu") == 0;
    c->input = a->input;
    c->restart = a->restart;
    c->n = (size_t)n;
    c->seed = (uint64_t)seed;
    return NB_OK;
}

/* view md: the window's steps per frame; md's own options were parsed and
 * checked by md's code (parse_md). */
static enum nb_status check_md(const struct view_args *a, struct view_config *c,
                               struct nb_error *err)
{
    long steps = 10;
    if (a->steps_per_frame && parse_count("steps-per-frame", a->steps_per_frame, 1, 1 << 20,
                                          &steps, err) != NB_OK)
        return err->status;
    c->steps_per_frame = (uint64_t)steps;
    c->gl.debug |= c->md_args.gl.debug;
    return NB_OK;
}

/* view md's command line (view_md.c); md's engine, GL and picture options
 * are then checked with gravity's (check_args). */
static enum nb_status parse_md(struct view_args *a, struct view_config *c, int argc,
                               char **argv, int *help, struct nb_error *err)
{
    struct view_window_args w = { 0 };
    const struct md_args *m = &c->md_args;
    if (view_md_parse(c, &w, argc, argv, help, err) != NB_OK)
        return err->status;
    a->size = w.size;
    a->steps_per_frame = w.steps_per_frame;
    a->screenshot = w.screenshot;
    a->screenshot_after = w.screenshot_after;
    a->inspect = w.inspect;
    a->backend = m->backend;
    a->precision = m->precision;
    a->shaders = m->gl.shaders;
    a->color = m->frames.color;
    a->camera = m->frames.camera;
    a->quiet = m->gl.quiet;
    return NB_OK;
}

static enum nb_status check_args(const struct view_args *a, struct view_config *c,
                                 struct nb_error *err)
{
    static const char *const modes = "ABCDEFGH";
    long after = 0;
    c->engine = NB_ENGINE_COMPUTE;
    c->variant = a->variant ? a->variant : "auto";
    c->precision = NB_PRECISION_A;
    c->quiet = a->quiet;
    c->inspect = a->inspect;
    nb_gl_options_default(&c->gl);
    c->gl.debug |= a->debug;
    nb_render_options_default(&c->picture);
    c->picture.width = 1024;
    c->picture.height = 768;
    if ((a->backend && parse_engine(a->backend, &c->engine, err) != NB_OK) ||
        (c->md ? check_md(a, c, err) : check_gravity(a, c, err)) != NB_OK ||
        nb_cli_picture_options("size", a->size, a->color, a->camera, &c->picture,
                               err) != NB_OK)
        return err->status;
    if (a->precision) {
        const char *p = a->precision[0] && !a->precision[1] ? strchr(modes, a->precision[0])
                                                            : NULL;
        if (!p)
            return nb_error_set(err, NB_ERR_ARGS, "--precision: '%s' is not one of A..H "
                                "(Narumi et al., Table 1)", a->precision);
        c->precision = (enum nb_precision)(p - modes);
    }
    if (a->shaders) {
        if (strcmp(a->shaders, "auto") == 0)
            c->gl.shaders = NB_SHADERS_AUTO;
        else if (strcmp(a->shaders, "spirv") == 0)
            c->gl.shaders = NB_SHADERS_SPIRV;
        else if (strcmp(a->shaders, "glsl") == 0)
            c->gl.shaders = NB_SHADERS_GLSL;
        else
            return nb_error_set(err, NB_ERR_ARGS, "--shaders: '%s' is not auto, spirv or glsl",
                                a->shaders);
    }
    if (!a->screenshot != !a->screenshot_after)
        return nb_error_set(err, NB_ERR_ARGS, "--screenshot FILE and --screenshot-after N go "
                            "together");
    if (a->screenshot_after &&
        parse_count("screenshot-after", a->screenshot_after, 1, 1L << 30, &after, err) != NB_OK)
        return err->status;
    if (!c->md && c->picture.color == NB_COLOR_POTENTIAL)
        return nb_error_set(err, NB_ERR_ARGS, "--color potential: a Hermite run keeps potentials "
                            "only for its last block (speed or type)");
    c->screenshot = a->screenshot;
    c->screenshot_after = (uint64_t)after;
    const struct nb_file_use uses[] = {
        { "input", a->input, NB_FILE_IN, NULL, NULL, 0 },
        { "restart", a->restart, NB_FILE_IN, NULL, NULL, 0 },
        { "screenshot", a->screenshot, NB_FILE_OUT, NULL, NULL, 0 },
    };
    return nb_check_file_uses("view", uses, sizeof uses / sizeof uses[0], err);
}

/* ---- the window ---------------------------------------------------------- */

static char g_glfw_error[512];

static void on_glfw_error(int code, const char *description)
{
    snprintf(g_glfw_error, sizeof g_glfw_error, "%s (GLFW error 0x%x)", description, code);
}

/* Takes one more reference on a loaded shared object, never released. */
static int keep_loaded(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* One clear message where there is no display to open a window on. */
static enum nb_status open_window(struct view *v, struct nb_error *err)
{
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    static const char *const hint = "; on a machine without a display, write pictures "
        "with `glnbody run --frames DIR --frame-every DT` (or md --frames)";
    if ((!x11 || !*x11) && (!wayland || !*wayland))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "view: no display: neither DISPLAY nor "
                            "WAYLAND_DISPLAY is set%s", hint);
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "view: GLFW cannot open the display: %s%s",
                            g_glfw_error, hint);
    v->glfw = 1;
    /* An EGL context, as the headless runs have, so the engines live in it. */
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    v->window = glfwCreateWindow(v->c->picture.width, v->c->picture.height,
                                 v->c->md ? "glnbody view md" : "glnbody view", NULL, NULL);
    if (!v->window)
        return nb_error_set(err, NB_ERR_GL, "view: no OpenGL 4.3 window through EGL: %s",
                            g_glfw_error);
    glfwMakeContextCurrent(v->window);
    glfwSwapInterval(0);        /* frames as fast as the simulation allows */
    /* The driver libraries the window's EGL display loaded stay mapped to
     * the end: glfwTerminate would unload them, and what they keep until
     * exit would then show as leaks of unknown modules in make sanitize
     * rather than under their names (tools/scripts/lsan.supp). */
    dl_iterate_phdr(keep_loaded, NULL);
    return nb_gl_create_from_current(&v->gl, &v->c->gl, err);
}

/* ---- the simulation ------------------------------------------------------ */

/* A snapshot run would refuse: one particle, or two at one place without
 * softening (their force would be NaN). */
static enum nb_status check_input(const struct view_config *c, const struct nb_particles *p,
                                  struct nb_error *err)
{
    if (p->n < 2)
        return nb_error_set(err, NB_ERR_PARSE, "%s: one particle: view needs at least 2 (as "
                            "--n does)", c->input);
    if (nb_check_range(c->input, p, c->hermite.eps, c->engine, err) != NB_OK)
        return err->status;
    return nb_check_no_coincident(c->input, p, c->hermite.eps, err);
}

static enum nb_status make_system(struct view *v, struct nb_error *err)
{
    const struct view_config *c = v->c;
    struct nb_gl *gl = c->engine == NB_ENGINE_CPU ? NULL : v->gl;
    if (c->md)
        return view_md_start(v, gl, err);
    if (nb_forces_create(&v->forces, gl, c->engine, err) != NB_OK ||
        nb_forces_set_variant(v->forces, c->variant, err) != NB_OK ||
        (c->precision != NB_PRECISION_A &&
         nb_forces_set_precision(v->forces, c->precision, err) != NB_OK))
        return err->status;
    if (c->restart) {
        if (nb_hermite_restore(&v->h, v->forces, c->restart, c->hermite.predict_on_device,
                               err) != NB_OK)
            return err->status;
    } else if (c->input) {
        struct nb_particles p = { 0 };
        enum nb_status st = nb_snapshot_read(c->input, &p, err);
        if (st == NB_OK)
            st = check_input(c, &p, err);
        if (st == NB_OK)
            st = nb_hermite_create_particles(&v->h, v->forces, &p, &c->hermite, err);
        nb_particles_free(&p);
        if (st != NB_OK)
            return st;
    } else if (nb_hermite_create_plummer(&v->h, v->forces, c->n, c->seed, &c->hermite,
                                         err) != NB_OK) {
        return err->status;
    }
    v->n = nb_hermite_particles(v->h)->n;
    return NB_OK;
}

static enum nb_status energy(struct view *v, double *e, struct nb_error *err)
{
    if (v->md) {
        struct nb_md_thermo th;
        if (nb_md_get_thermo(v->md, &th, err) != NB_OK)
            return err->status;
        *e = th.etotal;
        return NB_OK;
    }
    double k, w;
    if (nb_hermite_energy(v->h, &k, &w, err) != NB_OK)
        return err->status;
    *e = k + w;
    return NB_OK;
}

/* One frame's worth of simulation: dt_frame * speed of time, or
 * steps_per_frame * speed steps, but no more than keeps the window
 * interactive: where a frame's steps take longer than FRAME_BUDGET
 * seconds, the next frame takes half as much (the share is doubled back
 * while they are quick), so a slow engine runs slowly, not jerkily. */
#define FRAME_BUDGET 0.030

static enum nb_status advance(struct view *v, struct nb_error *err)
{
    double t0 = nb_clock_seconds(), wanted = v->md ? (double)v->c->steps_per_frame * v->speed
                                      : v->c->dt_frame * v->speed;
    double share = fmin(v->share, 1.0);
    enum nb_status st;
    if (v->md) {
        uint64_t left = v->c->md_cfg.steps - nb_md_step_count(v->md);
        double count = fmin(fmax(1.0, floor(wanted * share)), (double)left);
        st = nb_md_step(v->md, (uint64_t)count, err);
    } else {
        double t = fmin(nb_hermite_time(v->h) + wanted * share, v->c->t_end);
        st = nb_hermite_integrate(v->h, t, err);
    }
    double took = nb_clock_seconds() - t0;
    v->sim_seconds += took;
    if (took > FRAME_BUDGET)
        v->share = fmax(v->share / 2, 1e-9);
    else if (took < FRAME_BUDGET / 3)
        v->share = fmin(v->share * 2, 1.0);
    return st;
}

/* Work done so far: pair interactions (gravity) or atom-steps (MD). */
static double work_done(struct view *v)
{
    if (v->md)
        return (double)nb_md_step_count(v->md) * (double)v->n;
    uint64_t blocks, steps;
    nb_hermite_counts(v->h, &blocks, &steps);
    return (double)steps * (double)(v->n > 1 ? v->n - 1 : 1);
}

/* Every two seconds (the energy is an O(N^2) sum in double): the energy
 * error, the rates. */
static enum nb_status measure(struct view *v, struct nb_error *err)
{
    double t = nb_clock_seconds(), e;
    if (t - v->measured_at < 2.0 && v->measured_at > 0)
        return NB_OK;
    if (energy(v, &e, err) != NB_OK)
        return err->status;
    v->de_rel = v->e0 != 0 ? (e - v->e0) / fabs(v->e0) : 0;
    double work = work_done(v);
    if (v->measured_at > 0) {
        double sim = v->sim_seconds - v->sim_seconds_then;
        v->rate = sim > 0 ? (work - v->work_then) / sim : 0;
        v->fps = (double)(v->frames - v->frames_then) / (t - v->measured_at);
    }
    v->measured_at = t;
    v->work_then = work;
    v->sim_seconds_then = v->sim_seconds;
    v->frames_then = v->frames;
    return NB_OK;
}

static void caption(struct view *v, char *text, size_t size)
{
    static const char *const colors[NB_COLOR_COUNT] = { "speed", "potential", "type" };
    /* MD's time from its step count: a thermo call would fetch the state. */
    double t = v->md ? (double)nb_md_step_count(v->md) * v->c->md_cfg.dt
                     : nb_hermite_time(v->h);
    struct nb_render_options o;
    nb_render_get_options(v->render, &o);
    snprintf(text, size, "t = %.4f   (E - E0)/|E0| = %+.2e\n%.3g %s   %.1f frames/s\n"
             "N = %zu, %s, colour: %s%s\nh: keys",
             t, v->de_rel, v->rate, v->md ? "atom-steps/s" : "interactions/s", v->fps, v->n,
             v->md ? "md" : "hermite", colors[o.color], v->paused ? "   [paused]" : "");
}

static enum nb_status draw(struct view *v, struct nb_error *err)
{
    int w, h;
    glfwGetFramebufferSize(v->window, &w, &h);
    if (w < 1 || h < 1)
        return NB_OK;       /* minimised */
    struct nb_render_options o;
    nb_render_get_options(v->render, &o);
    if (o.width != w || o.height != h) {
        o.width = w;
        o.height = h;
        if (nb_render_set_options(v->render, &o, err) != NB_OK)
            return err->status;
    }
    if ((v->md ? nb_render_draw_md(v->render, v->md, err)
               : nb_render_draw_hermite(v->render, v->h, err)) != NB_OK)
        return err->status;
    char shape[1536] = "";
    if (v->inspect && (v->md ? nb_render_inspect_md(v->render, v->md, shape, sizeof shape, err)
                             : nb_render_inspect_hermite(v->render, v->h, shape, sizeof shape,
                                                         err)) != NB_OK)
        return err->status;
    if (v->text) {
        char text[512];
        int tw, th;
        caption(v, text, sizeof text);
        const unsigned char *img = view_text_render(v->text, text, &tw, &th);
        if (img && nb_render_overlay(v->render, 8, 8, tw, th, img, err) != NB_OK)
            return err->status;
        /* The inspector's legend: the shape and the scale, bottom left;
         * each panel's title in the strip above it. */
        if (v->inspect && (img = view_text_render(v->text, shape, &tw, &th)) != NULL &&
            nb_render_overlay(v->render, 8, h - th - 8 > 0 ? h - th - 8 : 0, tw, th, img,
                              err) != NB_OK)
            return err->status;
        struct nb_inspect_titles titles = { 0 };
        if (v->inspect)
            nb_render_inspect_titles(v->render, &titles);
        for (int k = 0; k < titles.count; k++)
            if ((img = view_text_render(v->text, titles.panel[k].text, &tw, &th)) != NULL &&
                nb_render_overlay(v->render, titles.panel[k].x, titles.panel[k].y, tw, th, img,
                                  err) != NB_OK)
                return err->status;
    }
    return nb_render_present(v->render, w, h, err);
}

static enum nb_status run_loop(struct view *v, struct nb_error *err)
{
    double start = 0;
    if (energy(v, &v->e0, err) != NB_OK)
        return err->status;
    while (!glfwWindowShouldClose(v->window)) {
        /* The energy first: the inspector then shows the steps' last pass. */
        if (measure(v, err) != NB_OK)
            return err->status;
        if ((!v->paused || v->step_once) && !v->at_end) {
            if (advance(v, err) != NB_OK)
                return err->status;
            v->at_end = v->md ? nb_md_step_count(v->md) >= v->c->md_cfg.steps
                              : nb_hermite_time(v->h) >= v->c->t_end;
        }
        v->step_once = 0;
        if (draw(v, err) != NB_OK)
            return err->status;
        if (v->frames++ == 0)
            start = nb_clock_seconds();      /* the rate from the first frame shown */
        if (v->c->screenshot && v->frames == v->c->screenshot_after) {
            if (nb_render_write_png(v->render, v->c->screenshot, err) != NB_OK)
                return err->status;
            break;
        }
        glfwSwapBuffers(v->window);
        if (v->paused)
            glfwWaitEventsTimeout(0.05);
        else
            glfwPollEvents();
    }
    double seconds = nb_clock_seconds() - start;
    if (!v->c->quiet && v->frames > 1)
        fprintf(stderr, "glnbody view: %llu frames, %.1f frames/s after the first, N = %zu\n",
                (unsigned long long)v->frames, (double)(v->frames - 1) / seconds, v->n);
    return NB_OK;
}

static void close_view(struct view *v)
{
    view_text_destroy(v->text);
    nb_render_destroy(v->render);
    nb_hermite_destroy(v->h);
    nb_forces_destroy(v->forces);
    nb_md_destroy(v->md);
    nb_gl_destroy(v->gl);
    if (v->window)
        glfwDestroyWindow(v->window);
    if (v->glfw)
        glfwTerminate();
}

static enum nb_status start_view(struct view *v, struct nb_error *err)
{
    char why[256];
    if ((v->c->md && view_md_prepare(v, err) != NB_OK) || open_window(v, err) != NB_OK ||
        make_system(v, err) != NB_OK)
        return err->status;
    glfwGetFramebufferSize(v->window, &v->c->picture.width, &v->c->picture.height);
    if (nb_render_create(&v->render, v->gl, &v->c->picture, err) != NB_OK)
        return err->status;
    v->home = v->c->picture;
    v->inspect = v->c->inspect;
    if (!(v->text = view_text_create(16, why, sizeof why)) && !v->c->quiet)
        fprintf(stderr, "glnbody view: no captions: %s\n", why);
    view_input_attach(v);
    if (!v->c->quiet)
        fprintf(stderr, "glnbody view: %s; press h in the window for the keys\n",
                nb_gl_renderer(v->gl));
    return NB_OK;
}

int nb_cmd_view(int argc, char **argv)
{
    struct view_args a = { 0 };
    struct view_config c = { 0 };
    struct nb_error err = { 0 };
    int help;
    c.md = argc > 0 && strcmp(argv[0], "md") == 0;
    /* view md takes md's options (md_options.c) and the window's */
    const struct view_option table[] = {
        { "input", "FILE", "initial snapshot `id m x y z vx vy vz` (G = 1)", &a.input, NULL, 'g' },
        { "ic", "plummer", "generated initial conditions (the default)", &a.ic, NULL, 'g' },
        { "n", "N", "particles of the Plummer sphere (default 4096)", &a.n, NULL, 'g' },
        { "seed", "S", "random seed (default 1)", &a.seed, NULL, 'g' },
        { "restart", "FILE", "continue the run saved by glnbody run --checkpoint (with "
          "this command's engine and options)", &a.restart, NULL, 'g' },
        { "t-end", "T", "stop stepping at T (default 8192)", &a.t_end, NULL, 'g' },
        { "eta", "E", "accuracy parameter of the steps (default 0.02)", &a.eta, NULL, 'g' },
        { "softening", "EPS", "Plummer softening (default 0.01)", &a.softening, NULL, 'g' },
        { "dt-max", "D", "largest step (default 0.125)", &a.dt_max, NULL, 'g' },
        { "shared-dt", NULL, "every particle takes the smallest step", NULL, &a.shared_dt, 'g' },
        { "predict", "host|gpu", "who predicts the j-particles (default host)", &a.predict,
          NULL, 'g' },
        { "dt-frame", "DT", "simulated time per frame (default 1/64; + and - double "
          "and halve it)", &a.dt_frame, NULL, 'g' },
        { "backend", "cpu|compute|fragment", "force engine (default compute)", &a.backend,
          NULL, 0 },
        { "variant", "NAME", "kernel variant (default auto)", &a.variant, NULL, 'g' },
        { "precision", "A..H", "accumulation mode (Narumi et al., Table 1; compute)",
          &a.precision, NULL, 0 },
        { "shaders", "auto|spirv|glsl", "shader source (default auto)", &a.shaders, NULL, 0 },
        { "debug", NULL, "print GL_KHR_debug messages (also GLNBODY_DEBUG=1)", NULL, &a.debug,
          'g' },
        { "size", "WxH", "window size in pixels (default 1024x768)", &a.size, NULL, 0 },
        { "color", "speed|potential|type", "what a colour shows (c cycles)", &a.color, NULL, 0 },
        { "camera", "D,AZ,EL[,CX,CY,CZ[,FOV]]", "the first camera (default: fitted, 30, 20)",
          &a.camera, NULL, 0 },
        { "inspect", NULL, "start with the texture inspector shown (i toggles it): the "
          "last force pass's render targets or output buffers", NULL, &a.inspect, 0 },
        { "quiet", NULL, "nothing on stderr but errors", NULL, &a.quiet, 0 },
        { "screenshot", "FILE", "write frame N (--screenshot-after) as a PNG file, then "
          "exit: scripted pictures and tests", &a.screenshot, NULL, 0 },
        { "screenshot-after", "N", "the frame --screenshot writes", &a.screenshot_after,
          NULL, 0 },
        { 0 } };

    if ((c.md ? parse_md(&a, &c, argc - 1, argv + 1, &help, &err)
              : parse_args(table, 0, argc, argv, &help, &err)) != NB_OK) {
        fprintf(stderr, "glnbody: %s\n", err.message);
        return err.status == NB_ERR_ARGS ? 2 : 1;   /* a bad checkpoint: 1 */
    }
    if (!help && check_args(&a, &c, &err) != NB_OK) {
        fprintf(stderr, "glnbody: %s\n", err.message);
        nb_md_restart_free(c.md_cfg.restart);
        return 2;
    }
    if (help) {
        if (!c.md)
            print_help(table);
        return 0;
    }
    struct view v = { .c = &c, .speed = 1.0, .share = 1.0 };
    enum nb_status st = start_view(&v, &err);
    if (st == NB_OK)
        st = run_loop(&v, &err);
    close_view(&v);
    nb_md_restart_free(c.md_cfg.restart);
    if (st != NB_OK) {
        fprintf(stderr, "glnbody: %s\n", err.message);
        return st == NB_ERR_ARGS ? 2 : 1;
    }
    return 0;
}
