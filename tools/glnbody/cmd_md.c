/* cmd_md.c - glnbody md: molecular dynamics with velocity Verlet (ETH Zürich HPCSE I 2013)
 * and the LJ, LJC and ionic force laws (seeds 000, 003): the system and
 * the run loop.  The command line is md_options.c's, the files md_outputs.c's.
 *
 * As in `glnbody run`, the whole command line is checked before anything
 * is read or created (exit 2), and every output file is written under a
 * temporary name and renamed only when the run succeeds, so a failed run
 * leaves no partial file. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "file_roles.h"
#include "interrupt.h"
#include "md_cli.h"

/* ---- the run ----------------------------------------------------------- */

#define PROGRESS_CHUNKS 100     /* the steps advance in at most this many calls
                                   between outputs, so that the bar moves; the
                                   steps are the same, one call or many */

static int thermo_on_stdout(const struct md_config *c)
{
    return !c->thermo || strcmp(c->thermo, "-") == 0;
}

/* A thermo row or a dump frame goes to stdout at this step. */
static int stdout_output_due(const struct md_config *c, uint64_t step, int thermo_row)
{
    int dump_row = c->dump && c->dump_every && step % c->dump_every == 0;
    return (thermo_row && thermo_on_stdout(c)) ||
           (dump_row && strcmp(c->dump, "-") == 0);
}

/* The bar (or one line per thermo row) of the run's steps. */
static void progress_start(struct nb_progress *bar, const struct md_config *c, int quiet)
{
    nb_progress_start(bar, "md", "step", "atom-steps/s", (double)c->steps,
                      (quiet ? NB_PROGRESS_QUIET : 0) |
                      (thermo_on_stdout(c) ? NB_PROGRESS_ROWS_ON_STDOUT : 0));
}

/* Steps to the next output, or PROGRESS_CHUNKS' share of the run if less. */
static enum nb_status advance(const struct md_config *c, struct nb_md *md,
                              struct nb_error *err)
{
    uint64_t step = nb_md_step_count(md);
    uint64_t next = nb_md_next_save(c, step, nb_md_next_output(c, step));
    uint64_t chunk = c->steps / PROGRESS_CHUNKS > 0 ? c->steps / PROGRESS_CHUNKS : 1;

    if (next - step > chunk)
        next = step + chunk;
    double frame = nb_cli_frames_next(c->frames);     /* a picture is due there */
    if (frame > (double)step && frame < (double)next)
        next = (uint64_t)frame;
    return nb_md_step(md, next - step, err);
}

/* A picture of the system at its current step (frames.c). */
static enum nb_status draw_frame(void *md, struct nb_render *r, struct nb_error *err)
{
    return nb_render_draw_md(r, md, err);
}

/* After a step: the outputs due there, the bar erased first where one is
 * about to go to the terminal, and the progress (a thermo row is a
 * checkpoint). */
static enum nb_status after_advance(struct nb_md_outputs *o, const struct md_config *c,
                                    struct nb_md *md, struct nb_particles *p,
                                    struct nb_progress *bar, struct nb_error *err)
{
    uint64_t step = nb_md_step_count(md);
    int thermo_row = step % c->thermo_every == 0 || step == c->steps;

    if (stdout_output_due(c, step, thermo_row))
        nb_progress_clear(bar);
    if (nb_md_write_due(o, c, md, p, err) != NB_OK ||
        nb_cli_frames_due(c->frames, (double)step + 0.5, (double)c->steps, draw_frame, md,
                          err) != NB_OK)
        return err->status;
    nb_progress_update(bar, (double)step, (double)c->steps,
                       (double)step * (double)nb_md_count(md), thermo_row);
    return NB_OK;
}

static enum nb_status simulate(struct md_config *c, const struct nb_gl_cli *g,
                               struct nb_md **md, struct nb_gl **gl, int *interrupted,
                               struct nb_error *err)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_outputs o;
    struct nb_progress bar = { 0 };
    enum nb_status st;
    size_t n_excluded = 0;

    memset(&o, 0, sizeof o);
    o.saved_step = -1;
    if (nb_md_cli_make_system(c, md, &p, &box, &n_excluded, err) != NB_OK ||
        nb_gl_cli_open(c->backend, g, gl, err) != NB_OK ||
        nb_gl_check_particles(*gl, c->backend, p.n, err) != NB_OK)
        goto done;
    if (nb_md_start(*md, *gl, c->backend, c->have_precision ? c->precision : NB_PRECISION_A,
                    err) != NB_OK ||
        nb_md_outputs_open(&o, c, err) != NB_OK ||
        nb_cli_frames_open(c->frames, *gl, err) != NB_OK)
        goto done;
    if (c->restart) {
        nb_md_restart_notes(c, nb_md_renderer(*md));
        /* the frames up to the checkpoint's step were drawn before it */
        double after = (double)nb_md_step_count(*md) + 0.5;
        while (c->frames->on && (double)c->frames->next * c->frames->interval < after)
            c->frames->next++;
        if (c->frames->on &&
            nb_frames_start_at(c->frames->frames, c->frames->next, err) != NB_OK)
            goto done;
    }
    o.box = box;
    o.n_excluded = n_excluded;
    if ((!c->restart && nb_md_write_due(&o, c, *md, &p, err) != NB_OK) ||
        (!c->restart &&
         nb_cli_frames_due(c->frames, 0.5, (double)c->steps, draw_frame, *md, err) != NB_OK) ||
        nb_md_outputs_publish(&o, err) != NB_OK)
        goto done;
    double wall0 = nb_clock_seconds();     /* the steps and their outputs */
    progress_start(&bar, c, g->quiet);
    while (nb_md_step_count(*md) < c->steps && !o.interrupted)
        if (advance(c, *md, err) != NB_OK ||
            after_advance(&o, c, *md, &p, &bar, err) != NB_OK ||
            nb_md_save_due(&o, c, *md, &p, err) != NB_OK)
            goto done;
    if (o.interrupted)
        goto done;
    double seconds = nb_clock_seconds() - wall0;
    nb_progress_finish(&bar);
    if (nb_cli_frames_finish(c->frames, g->quiet ? NULL : stderr, err) != NB_OK)
        goto done;
    if (nb_md_outputs_open_late(&o, c, err) != NB_OK)
        goto done;
    if (o.timing_open)
        nb_md_write_timing(&o, c, *md, seconds);
    if (nb_md_save_final(&o, c, *md, &p, err) == NB_OK &&
        nb_md_outputs_commit(&o, c, *md, &p, err) == NB_OK &&
        !(thermo_on_stdout(c) && g->quiet))     /* the summary would go to stderr */
        nb_md_print_summary(thermo_on_stdout(c) ? stderr : stdout, c, *md, &o, seconds);
done:
    nb_progress_finish(&bar);       /* after a failure: the error on a line of its own */
    st = err->status;
    if (o.interrupted && st == NB_OK) {
        nb_md_say_interrupted(&o, c, *md);
        *interrupted = o.interrupted;
    } else if (st == NB_ERR_NUMERIC || st == NB_ERR_IO) {
        nb_md_name_last_checkpoint(&o, c, err);
    }
    nb_md_outputs_abort(&o);
    nb_cli_frames_close(c->frames);
    nb_particles_free(&p);
    return st;
}

/* No two outputs, and no output and input, on one file (the inputs only
 * on a fresh run: a restart reads the checkpoint alone). */
static enum nb_status check_files(const struct md_args *a, const struct md_config *c,
                                  struct nb_error *err)
{
    int fresh = !c->restart;
    const struct nb_file_use uses[] = {
        { "input", fresh ? a->input : NULL, NB_FILE_IN, NULL, NULL, 0 },
        { "coeffs", fresh ? a->coeffs : NULL, NB_FILE_IN, NULL, NULL, 0 },
        { "exclude", fresh ? a->exclude : NULL, NB_FILE_IN, NULL, NULL, 0 },
        { "restart", a->restart, NB_FILE_IN, NULL, NULL, 1 },
        { "thermo", a->thermo, NB_FILE_OUT, NULL, NULL, 0 },
        { "integrals", a->integrals, NB_FILE_OUT, NULL, NULL, 0 },
        { "dump", a->dump, NB_FILE_OUT, NULL, NULL, 0 },
        { "output", a->output, NB_FILE_OUT, NULL, NULL, 0 },
        { "timing", a->timing, NB_FILE_OUT, NULL, NULL, 0 },
        { "checkpoint", a->checkpoint, NB_FILE_OUT, NULL, NULL, 1 },
        { "movie", a->frames.movie, NB_FILE_OUT, NULL, NULL, 0 },
        { "frames", a->frames.dir, NB_FILE_DIR, "frame_", ".png", 0 },
    };
    return nb_check_file_uses("md", uses, sizeof uses / sizeof uses[0], err);
}

int nb_cmd_md(int argc, char **argv)
{
    struct md_args a = { 0 };
    struct nb_error err = { 0 };
    struct md_config c;
    int help;

    int parsed = nb_md_options_parse(&a, &c, argc, argv, &help, &err) == NB_OK;
    if (!parsed || (!help && check_files(&a, &c, &err) != NB_OK)) {
        if (parsed)
            nb_md_restart_free(c.restart);
        fprintf(stderr, "glnbody md: %s\n", err.message);
        return err.status == NB_ERR_ARGS ? 2 : 1;    /* a bad checkpoint: 1 */
    }
    if (help)
        return 0;
    struct nb_md *md = NULL;
    struct nb_gl *gl = NULL;
    int interrupted = 0;
    nb_interrupt_catch();
    nb_outfile_remove_temporaries(c.checkpoint);   /* a killed writer's */
    if (c.restart)
        nb_ckpt_remove_numbered_temporaries(a.frames.on ? a.frames.dir : NULL, "frame");
    enum nb_status st = simulate(&c, &a.gl, &md, &gl, &interrupted, &err);
    nb_md_destroy(md);
    nb_gl_destroy(gl);
    nb_md_restart_free(c.restart);
    if (interrupted && st == NB_OK)
        return nb_interrupt_status(interrupted);
    if (st != NB_OK) {
        fprintf(stderr, "glnbody md: %s\n", err.message);
        return st == NB_ERR_ARGS ? 2 : 1;
    }
    return 0;
}
