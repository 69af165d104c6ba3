/* view_md.c - glnbody view md: md's command line (md_options.c, the same
 * table and checks) with the window's options after it, and md's system
 * (md_system.c), made before the window opens and started in its context.
 * Only the public API (glnbody.h) and md's parts (md_cli.h). */
#include <stdio.h>

#include "view_internal.h"

/* view md's: md's table (md_options.c) and the window's rows after it. */
static void print_md_help(const struct nb_option *table)
{
    nb_options_print(stdout, "glnbody view md [md's system, force and engine options: "
                     "--input FILE | --ic fcc|grid|ionic ..., --potential LAW, --coeffs "
                     "FILE, --exclude FILE, --box, --periodic, --cutoff RC --shift, --dt DT, "
                     "--backend, --precision, --restart FILE] [--steps N] [--size WxH] "
                     "[--color speed|potential|type] [--camera D,AZ,EL] "
                     "[--steps-per-frame K] [--inspect]",
                     "Runs any system of glnbody md in a window (GLFW), stepped by velocity "
                     "Verlet (Swope et al. 1982), and draws every frame straight from the "
                     "engine's GPU buffers; a periodic box shows its edges.  The system is "
                     "made exactly as glnbody md makes it, from the same options.  Without "
                     "--steps it steps until the window is closed.  The options that write "
                     "files (--thermo, --integrals, --dump, --output, --timing, "
                     "--checkpoint, --frames, --movie) or choose a headless context "
                     "(--gpu, --api, --gl-version) are refused: give them to glnbody md.  "
                     "Press h in the window for the keys.", table);
    printf("  %-28s %s\n", "--box XLO XHI YLO YHI ZLO ZHI", "box bounds (replace the "
           "source's)");
}

enum nb_status view_md_parse(struct view_config *c, struct view_window_args *w, int argc,
                             char **argv, int *help, struct nb_error *err)
{
    const struct nb_option window[] = {
        { "size", "WxH", "window size in pixels (default 1024x768)", &w->size, NULL },
        { "steps-per-frame", "K", "steps per frame (default 10; + and - double and halve)",
          &w->steps_per_frame, NULL },
        { "inspect", NULL, "start with the texture inspector shown (i toggles it): the "
          "last force pass's render targets or output buffers", NULL, &w->inspect },
        { "screenshot", "FILE", "write frame N (--screenshot-after) as a PNG file, then "
          "exit: scripted pictures and tests", &w->screenshot, NULL },
        { "screenshot-after", "N", "the frame --screenshot writes", &w->screenshot_after,
          NULL },
        { NULL, NULL, NULL, NULL, NULL } };
    return nb_md_options_parse_view(&c->md_args, &c->md_cfg, window, print_md_help, argc,
                                    argv, help, err);
}

/* view md's system, made and checked exactly as glnbody md makes it
 * (md_system.c), before the window opens: a bad file or box is the only
 * message. */
enum nb_status view_md_prepare(struct view *v, struct nb_error *err)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    size_t n_excluded = 0;
    enum nb_status st = nb_md_cli_make_system(&v->c->md_cfg, &v->md, &p, &box, &n_excluded,
                                              err);
    nb_particles_free(&p);
    return st;
}

enum nb_status view_md_start(struct view *v, struct nb_gl *gl, struct nb_error *err)
{
    const struct view_config *c = v->c;
    if (nb_gl_check_particles(gl, c->engine, nb_md_count(v->md), err) != NB_OK ||
        nb_md_start(v->md, gl, c->engine, c->precision, err) != NB_OK)
        return err->status;
    if (c->md_cfg.restart && !c->quiet)
        nb_md_restart_notes(&c->md_cfg, nb_md_renderer(v->md));
    v->n = nb_md_count(v->md);
    return NB_OK;
}
