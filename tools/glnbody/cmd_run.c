/* cmd_run.c - glnbody run: a Hermite block-step simulation (Portegies Zwart et al. 2007).
 *
 * Everything on the command line is checked before anything is read,
 * created or written, so a refused command line (exit 2) leaves no file.
 * Outputs between block times are predictions of every particle to the
 * output time in double (nb_hermite_predict): nobody is made to step for a log
 * line or a snapshot, so the trajectory does not depend on the outputs.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file_roles.h"
#include "frames.h"
#include "interrupt.h"
#include "mpi_world.h"
#include "run_cli.h"

#define DEFAULT_N 512          /* a few seconds on llvmpipe (2 cores) */
#define DEFAULT_SEED 1
#define DEFAULT_T_END 1.0
#define DEFAULT_LOG_EVERY 0.125
#define MAX_LOG_ROWS 1e7        /* a typo in --log-every, not a wish */
#define MAX_SNAPSHOTS 99999     /* snap_NNNNN.txt keeps five digits */
#define MAX_PROGRESS_LINES 64   /* without an energy log: lines a run prints
                                   at most when stderr is not a terminal */

/* ---- the command line -------------------------------------------------- */

static enum nb_status parse_positive(const char *option, const char *text,
                                     double *out, struct nb_error *err)
{
    if (nb_parse_double(option, text, 0.0, out, err) != NB_OK)
        return err->status;
    if (!(*out > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "--%s: %s must be > 0", option,
                            text);
    return NB_OK;
}

/* --input excludes --ic, --n and --seed; --ic knows only plummer. */
static enum nb_status check_source(const struct run_args *a,
                                   struct run_config *c, struct nb_error *err)
{
    long n = DEFAULT_N, seed = DEFAULT_SEED;

    if (a->input && (a->ic || a->n || a->seed))
        return nb_error_set(err, NB_ERR_ARGS, "run: --input excludes --ic, --n "
                            "and --seed (initial conditions come from the file)");
    if (a->ic && strcmp(a->ic, "plummer") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown initial conditions "
                            "'%s' (known: plummer)", a->ic);
    if ((a->n && nb_parse_long("n", a->n, 2, (long)UINT32_MAX, &n, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, LONG_MAX, &seed, err) != NB_OK))
        return err->status;
    c->input = a->input;
    c->n = (size_t)n;
    c->seed = (uint64_t)seed;
    return NB_OK;
}

/* eta, softening, dt-max, --shared-dt, --predict. */
static enum nb_status check_integration(const struct run_args *a,
                                        struct run_config *c,
                                        struct nb_error *err)
{
    struct nb_hermite_params *par = &c->par;

    nb_hermite_params_default(par);
    par->shared_dt = a->shared_dt;
    if ((a->eta && parse_positive("eta", a->eta, &par->eta, err) != NB_OK) ||
        (a->softening && nb_parse_double("softening", a->softening, 0.0,
                                         &par->eps, err) != NB_OK) ||
        (a->dt_max && parse_positive("dt-max", a->dt_max, &par->dt_max, err) != NB_OK))
        return err->status;
    if (par->dt_max < NB_HERMITE_DT_FLOOR || par->dt_max > NB_HERMITE_T_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "--dt-max: %s is outside 2^-40..%g",
                            a->dt_max, NB_HERMITE_T_MAX);
    if (a->predict && strcmp(a->predict, "gpu") == 0)
        par->predict_on_device = 1;
    else if (a->predict && strcmp(a->predict, "host") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--predict: '%s' is not host or gpu",
                            a->predict);
    if (a->correct && strcmp(a->correct, "gpu") == 0) {
        if (!par->predict_on_device)
            return nb_error_set(err, NB_ERR_ARGS, "--correct gpu needs --predict gpu: "
                                "the device corrects its own copy of the state");
        if (par->shared_dt)
            return nb_error_set(err, NB_ERR_ARGS, "--correct gpu takes individual "
                                "steps, not --shared-dt");
        par->predict_on_device = 2;
    } else if (a->correct && strcmp(a->correct, "host") != 0) {
        return nb_error_set(err, NB_ERR_ARGS, "--correct: '%s' is not host or gpu",
                            a->correct);
    }
    return NB_OK;
}

/* --t-end and the backend. */
static enum nb_status check_run(const struct run_args *a, struct run_config *c,
                                struct nb_error *err)
{
    c->t_end = DEFAULT_T_END;
    if (a->t_end && nb_parse_double("t-end", a->t_end, 0.0, &c->t_end, err) != NB_OK)
        return err->status;
    if (c->t_end > NB_HERMITE_T_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "--t-end: %s is above %g (block "
                            "times are exact binary fractions only up to there)",
                            a->t_end, NB_HERMITE_T_MAX);
    c->variant = a->variant ? a->variant : "auto";
    if (nb_engine_parse(a->backend ? a->backend : "compute", &c->backend,
                               err) != NB_OK ||
        nb_gl_cli_validate(&a->gl, err) != NB_OK)
        return err->status;
    if (c->backend != NB_ENGINE_COMPUTE && c->par.predict_on_device == 2)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu: backend %s has no "
                            "corrector on the device (the compute backend has one)",
                            nb_engine_name(c->backend));
    /* --predict gpu on a backend without device state: nb_hermite_create_particles
     * refuses. */
    return NB_OK;
}

/* --precision: how the GAJ kernel sums its pair terms (Narumi et al. Table 1
 * and H); B..H only where the backend has them (checked once it is open:
 * gaj_precision), G only with host prediction. */
static enum nb_status check_precision(const struct run_args *a, struct run_config *c,
                                      struct nb_error *err)
{
    c->precision = NB_PRECISION_A;
    if (!a->precision)
        return NB_OK;
    if (nb_precision_parse("--precision", a->precision, &c->precision, err) != NB_OK)
        return err->status;
    if (c->precision == NB_PRECISION_G && c->par.predict_on_device)
        return nb_error_set(err, NB_ERR_ARGS, "--precision G needs --predict host: "
                            "the device-resident state predicts the j-particles in "
                            "float, and G's pair terms are double");
    if (c->precision != NB_PRECISION_A && c->par.predict_on_device == 2)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu needs --precision A: the "
                            "corrector on the device reads the float kernel's sums");
    return NB_OK;
}

/* --positions: how the GAJ kernel keeps x and v (float by default: ds
 * costs the kernels extra loads and adds a pair); ds in precision A only. */
static enum nb_status check_positions(const struct run_args *a, struct run_config *c,
                                      struct nb_error *err)
{
    c->par.positions = NB_POSITIONS_FLOAT;
    if (!a->positions)
        return NB_OK;
    if (nb_positions_parse("--positions", a->positions, &c->par.positions, err) != NB_OK)
        return err->status;
    if (c->par.positions == NB_POSITIONS_FIXED64)
        return nb_error_set(err, NB_ERR_ARGS, "--positions fixed64: glnbody run's GAJ "
                            "kernel keeps positions as ds or float (fixed64 is libg6gl's)");
    if (c->par.positions == NB_POSITIONS_DS && c->precision != NB_PRECISION_A)
        return nb_error_set(err, NB_ERR_ARGS, "--positions ds needs --precision A: the "
                            "kernel of precision %s rounds positions to float",
                            nb_precision_name(c->precision));
    return NB_OK;
}

/* An output interval: > 0, and not so small that the run would drown. */
static enum nb_status check_every(const char *option, const char *text,
                                  double t_end, double max_count, double *out,
                                  struct nb_error *err)
{
    if (parse_positive(option, text, out, err) != NB_OK)
        return err->status;
    if (t_end / *out > max_count)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: %s would write more than "
                            "%.0f outputs up to t = %g", option, text, max_count,
                            t_end);
    return NB_OK;
}

/* The energy log, snapshots and the final output. */
static enum nb_status check_outputs(const struct run_args *a,
                                    struct run_config *c, struct nb_error *err)
{
    if (a->log_every && !a->energy_log)
        return nb_error_set(err, NB_ERR_ARGS, "run: --log-every needs --energy-log");
    if (!a->snapshot_every != !a->snapshot_dir)
        return nb_error_set(err, NB_ERR_ARGS, "run: --snapshot-every and "
                            "--snapshot-dir go together");
    c->energy_log = a->energy_log;
    c->snapshot_dir = a->snapshot_dir;
    c->output = a->output;
    c->log_every = a->energy_log ? DEFAULT_LOG_EVERY : 0.0;
    if ((a->log_every && check_every("log-every", a->log_every, c->t_end,
                                     MAX_LOG_ROWS, &c->log_every, err) != NB_OK) ||
        (a->snapshot_every && check_every("snapshot-every", a->snapshot_every,
                                          c->t_end, MAX_SNAPSHOTS,
                                          &c->snapshot_every, err) != NB_OK))
        return err->status;
    /* Without a log, DEFAULT_LOG_EVERY doubled (exact binary fractions, as
     * the block times) until the run has at most MAX_PROGRESS_LINES. */
    c->progress_every = c->log_every > 0 ? c->log_every : DEFAULT_LOG_EVERY;
    while (!c->energy_log && c->t_end / c->progress_every > MAX_PROGRESS_LINES)
        c->progress_every *= 2.0;
    return NB_OK;
}

static enum nb_status check_args(const struct run_args *a, struct run_config *c,
                                 struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    c->quiet = a->gl.quiet;
    c->args = a;
    if ((!a->restart && check_source(a, c, err) != NB_OK) || check_integration(a, c, err) != NB_OK ||
        check_run(a, c, err) != NB_OK || check_precision(a, c, err) != NB_OK ||
        check_positions(a, c, err) != NB_OK ||
        check_outputs(a, c, err) != NB_OK || nb_run_check_checkpoint(a, c, err) != NB_OK)
        return err->status;
    return NB_OK;
}

/* ---- the run ----------------------------------------------------------- */

/* The progress checkpoints due before `before` (not after t_end): one
 * line each when stderr is not a terminal.  None at t = 0: nothing has run. */
static void checkpoints_due(const struct nb_hermite *h, struct outputs *o, double before)
{
    const struct run_config *c = o->c;
    uint64_t block_steps;

    nb_hermite_counts(h, &block_steps, NULL);
    for (;; o->progress_k++) {
        double t = (double)o->progress_k * c->progress_every;
        if (!(t < before && t <= c->t_end))
            break;
        if (t > 0)
            nb_progress_update(&o->bar, t, c->t_end, (double)block_steps, 1);
    }
}

/* E0 from the exact initial state, and the outputs at t = 0; on a restart
 * past t = 0, E0 and the outputs' indices from the checkpoint. */
static enum nb_status start(struct nb_hermite *h, struct outputs *o,
                            struct nb_error *err)
{
    double t0 = nb_clock_seconds(), t = nb_hermite_time(h);
    const struct run_config *c = o->c;

    if (nb_run_resume_outputs(o, t) && c->frames && c->frames->on) {
        c->frames->next = nb_run_first_at_or_after(nb_hermite_next_time(h),
                                                   c->frames->interval);
        if (nb_frames_start_at(c->frames->frames, c->frames->next, err) != NB_OK)
            return err->status;
    }
    if (c->restart && t > 0.0)
        return NB_OK;

    if (nb_hermite_predict(h, 0.0, o->x, o->v, err) != NB_OK ||
        nb_hermite_diag(h, 0.0, o->x, o->v, 0.0, 1, &o->first, err) != NB_OK)
        return err->status;
    o->energy_seconds += nb_clock_seconds() - t0;
    o->e0 = o->first.etot;
    o->first.de_rel = 0.0;      /* exactly, also when e0 = 0 */
    o->seconds += nb_clock_seconds() - t0;
    return NB_OK;
}

/* A picture of the state at the last block step (frames.c). */
static enum nb_status draw_frame(void *run, struct nb_render *r, struct nb_error *err)
{
    return nb_render_draw_hermite(r, run, err);
}

/* Block steps up to the last block time <= t_end, outputs on the way. */
static enum nb_status integrate(struct nb_hermite *h, struct nb_forces *f,
                                struct outputs *o, struct nb_error *err)
{
    const struct run_config *c = o->c;
    uint64_t block_steps;

    /* Under its final name from here on: a killed run keeps its rows. */
    if (nb_outfile_publish(&o->log, err) != NB_OK)
        return err->status;
    nb_progress_start(&o->bar, "run", "t =", "block steps/s", c->t_end,
                      (c->quiet ? NB_PROGRESS_QUIET : 0) |
                      (nb_run_is_stdout(c->energy_log) ? NB_PROGRESS_ROWS_ON_STDOUT : 0));
    for (;;) {
        double next = nb_hermite_next_time(h);

        checkpoints_due(h, o, next);
        if (nb_run_write_due(h, o, next, err) != NB_OK ||
            nb_cli_frames_due(c->frames, next, c->t_end, draw_frame, h, err) != NB_OK ||
            nb_run_save_due(h, f, o, next, err) != NB_OK)
            return err->status;
        if (o->interrupted)
            return NB_OK;
        if (next > o->c->t_end)
            break;
        if (nb_hermite_step(h, err) != NB_OK)
            return err->status;
        snprintf(o->variant, sizeof o->variant, "%s", nb_forces_variant(f));
        nb_hermite_counts(h, &block_steps, NULL);
        nb_progress_update(&o->bar, nb_hermite_time(h), c->t_end, (double)block_steps, 0);
    }
    /* A checkpoint at the end continues from the rows written up to here
     * (not from finish()'s extra row at t_end, which a longer run lacks). */
    if (!o->have_last && nb_run_resume_mark(o, err) != NB_OK)
        return err->status;
    /* The last progress mark is t_end, where finish() writes the last row. */
    checkpoints_due(h, o, INFINITY);
    nb_hermite_counts(h, &block_steps, NULL);
    nb_progress_update(&o->bar, c->t_end, c->t_end, (double)block_steps,
                       (double)(o->progress_k - 1) * c->progress_every < c->t_end);
    nb_progress_finish(&o->bar);    /* before the last row and --output, maybe on stdout */
    return NB_OK;
}

/* The state at t_end: the last log row (unless one fell there already),
 * the --output file, and *final for the summary. */
static enum nb_status finish(struct nb_hermite *h, struct outputs *o,
                             struct nb_diag *final, struct nb_error *err)
{
    const struct run_config *c = o->c;
    double t0 = nb_clock_seconds();

    if (nb_hermite_predict(h, c->t_end, o->x, o->v, err) != NB_OK)
        return err->status;
    if (!o->have_last && (c->log_every > 0 ? nb_run_write_row(h, o, c->t_end, err)
                          : nb_hermite_diag(h, c->t_end, o->x, o->v, o->e0, 1, &o->last,
                                            err)) != NB_OK)
        return err->status;
    o->energy_seconds += nb_clock_seconds() - t0;
    *final = o->last;
    struct nb_outfile *files[2] = { &o->log, &o->final };
    if ((c->output && (nb_outfile_open(&o->final, c->output, err) != NB_OK ||
                       nb_run_print_final(h, o, err) != NB_OK)) ||
        nb_outfile_commit_all(files, 2, err) != NB_OK)
        return err->status;
    o->seconds += nb_clock_seconds() - t0;
    return NB_OK;
}

static void print_summary(FILE *fp, const struct run_config *c,
                          const struct nb_hermite *h, const struct nb_forces *f,
                          const struct outputs *o, const struct nb_diag *d, double wall)
{
    struct nb_hermite_stats stats, *st = &stats;
    struct nb_hermite_params par;
    size_t n = nb_hermite_particles(h)->n;

    nb_hermite_stats(h, st);
    nb_hermite_get_params(h, &par);
    if (c->input)
        fprintf(fp, "glnbody run: %zu particles from %s", n, c->input);
    else
        fprintf(fp, "glnbody run: Plummer sphere, N = %zu, seed %llu", n,
                (unsigned long long)c->seed);
    fprintf(fp, ", eta %g, softening %g, dt_max %g, %s steps\n", par.eta,
            par.eps, par.dt_max, par.shared_dt ? "shared" : "block");
    fprintf(fp, "backend %s, variant %s, predict %s, correct %s, precision %s, "
            "positions %s, renderer %s\n", nb_engine_name(c->backend),
            o->variant[0] ? o->variant : "none (no block step)",
            par.predict_on_device ? "gpu" : "host", par.predict_on_device == 2 ? "gpu" : "host",
            nb_precision_name(c->precision), nb_positions_name(par.positions),
            nb_forces_renderer(f));
    fprintf(fp, "t = %g: relative energy error (E - E0)/|E0| = %.3e, "
            "2K/|W| = %.4f\n", d->t, d->de_rel, d->virial);
    fprintf(fp, "block steps %llu, particle steps %llu (%.1f per block)\n",
            (unsigned long long)st->block_steps,
            (unsigned long long)st->particle_steps,
            st->block_steps ? (double)st->particle_steps / (double)st->block_steps
                            : 0.0);
    fprintf(fp, "time split (Portegies Zwart et al. 2007 eq. 10): t_host %.3f s, t_force %.3f s, "
            "t_comm %.3f s; diagnostics and output %.3f s; wall %.3f s\n",
            st->t_host, st->t_force, st->t_comm + st->t_reduce, o->seconds, wall);
    fprintf(fp, "loop with the exact energies at the start and the end: %.3f s "
            "(t_host + t_force + t_comm + %.3f s of energies)\n",
            st->t_host + st->t_force + st->t_comm + st->t_reduce + o->energy_seconds,
            o->energy_seconds);
    if (nb_mpi_partition()) {
        fprintf(fp, "parallel over %d rank%s, rank 0: t_comm = PCIe %.3f s + MPI %.3f s; "
                "evaluations split over i %llu, over j %llu, whole on every rank %llu\n",
                nb_mpi_ranks(), nb_mpi_ranks() == 1 ? "" : "s", st->t_comm, st->t_reduce,
                (unsigned long long)st->split_blocks[NB_SPLIT_I],
                (unsigned long long)st->split_blocks[NB_SPLIT_J],
                (unsigned long long)st->split_blocks[NB_SPLIT_WHOLE]);
        fprintf(fp, "model (Belleman et al. 2008 eq. 10, with the exchange), t_force + "
                "t_comm of these evaluations: 1 GPU %.3g s, 2 GPUs %.3g s, 4 GPUs %.3g s, "
                "8 GPUs %.3g s\n", st->t_model[0], st->t_model[1], st->t_model[2],
                st->t_model[3]);
    }
}

/* Modes B..H of the GAJ kernel need a backend whose set_precision reaches
 * it; a command-line refusal (exit 2) before anything runs. */
static enum nb_status gaj_modes_check(const struct nb_forces *f, enum nb_engine engine,
                                      enum nb_precision mode, struct nb_error *err)
{
    if (mode == NB_PRECISION_A || (nb_forces_caps(f) & NB_FORCES_GAJ_MODES))
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "--precision %s: backend %s sums the GAJ "
                        "kernel in one way only (A); modes B..H need --backend compute",
                        nb_precision_name(mode), nb_engine_name(engine));
}

/* A file that --n would refuse, or whose energy error (E - E0)/|E0| and
 * virial ratio 2K/|W| are undefined (they would print as NaN): one
 * particle, no mass, or two particles at one place without softening. */
static enum nb_status check_input(const struct run_config *c,
                                  const struct nb_particles *p, struct nb_error *err)
{
    double mass = 0.0;

    if (p->n < 2)
        return nb_error_set(err, NB_ERR_PARSE, "%s: one particle: run needs at least "
                            "2 (as --n does), or the energy error and 2K/|W| are "
                            "undefined", c->input);
    for (size_t i = 0; i < p->n; i++)
        mass += p->m[i];
    if (!(mass > 0.0))
        return nb_error_set(err, NB_ERR_PARSE, "%s: the total mass is 0: with no "
                            "gravity the energy E0 is 0, so (E - E0)/|E0| and 2K/|W| "
                            "are undefined; give the particles masses > 0", c->input);
    return nb_check_no_coincident(c->input, p, c->par.eps, err);
}

/* Reads the initial conditions (a bad file is reported before any GL
 * work), opens the engine, makes the Plummer sphere with it (its Henon
 * scaling is an O(n^2) potential energy on that engine), and sets the
 * variant and the GAJ precision. */
static enum nb_status prepare(const struct run_config *c, struct nb_gl **gl,
                              const struct nb_gl_cli *g, struct nb_forces **f,
                              struct nb_particles *p, struct nb_error *err)
{
    int fresh = !c->restart;

    if (fresh && c->input && (nb_snapshot_read(c->input, p, err) != NB_OK ||
                              check_input(c, p, err) != NB_OK))
        return err->status;
    if (fresh && nb_check_range(c->input, c->input ? p : NULL, c->par.eps, c->backend,
                                err) != NB_OK)
        return err->status;
    if (nb_forces_open(f, c->backend, g, gl, err) != NB_OK ||
        gaj_modes_check(*f, c->backend, c->precision, err) != NB_OK ||
        nb_gl_check_particles(*gl, c->backend, fresh && c->input ? p->n : c->n,
                              err) != NB_OK)
        return err->status;
    /* Under mpirun: this rank's j-slice, the block's sums over all ranks,
     * and the Plummer sphere's O(n^2) scaling shared between them. */
    if (nb_mpi_partition() &&
        nb_forces_set_partition(*f, nb_mpi_partition(), err) != NB_OK)
        return err->status;
    if (fresh && !c->input && nb_particles_plummer(p, c->n, c->seed, *f, err) != NB_OK)
        return err->status;
    if (nb_forces_set_variant(*f, c->variant, err) != NB_OK)
        return err->status;
    if (c->precision != NB_PRECISION_A &&
        nb_forces_set_precision(*f, c->precision, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static enum nb_status simulate(const struct run_config *c, struct nb_gl **gl,
                               const struct nb_gl_cli *g, struct nb_forces **f,
                               struct nb_hermite **h, int *interrupted,
                               struct nb_error *err)
{
    double wall0 = nb_clock_seconds();
    struct nb_particles p = { 0 };
    struct outputs o = { 0 };
    struct nb_diag final = { 0 };
    enum nb_status st = prepare(c, gl, g, f, &p, err);

    if (st == NB_OK && c->restart) {
        nb_run_restart_notes(c, nb_forces_renderer(*f));
        st = nb_hermite_restore(h, *f, c->args->restart, c->par.predict_on_device, err);
        if (st == NB_OK)
            st = nb_run_check_positions(c, *h, err);
    } else if (st == NB_OK) {
        st = nb_hermite_create_particles(h, *f, &p, &c->par, err);
    }
    nb_particles_free(&p);
    if (st == NB_OK &&
        (st = nb_run_outputs_open(&o, c, nb_hermite_particles(*h)->n, err)) == NB_OK &&
        (st = nb_cli_frames_open(c->frames, *gl, err)) == NB_OK &&
        (st = start(*h, &o, err)) == NB_OK &&
        (st = integrate(*h, *f, &o, err)) == NB_OK && !(*interrupted = o.interrupted) &&
        (st = nb_cli_frames_finish(c->frames, c->quiet ? NULL : stderr, err)) == NB_OK &&
        (st = finish(*h, &o, &final, err)) == NB_OK &&
        (st = nb_run_save_final(*h, *f, &o, err)) == NB_OK) {
        int to_stderr = nb_run_is_stdout(c->output) || nb_run_is_stdout(c->energy_log);
        if (!(to_stderr && c->quiet))
            print_summary(to_stderr ? stderr : stdout, c, *h, *f, &o, &final,
                          nb_clock_seconds() - wall0);
    }
    nb_progress_finish(&o.bar);     /* after a failure: the error on a line of its own */
    if (*interrupted)
        nb_run_say_interrupted(*h, &o);
    else if (st == NB_ERR_NUMERIC || st == NB_ERR_IO)
        nb_run_name_last_checkpoint(&o, err);
    nb_run_outputs_close(&o);
    nb_cli_frames_close(c->frames);
    return st;
}

/* No two outputs, and no output and input, on one file (the input only on
 * a fresh run: a restart reads the checkpoint alone). */
static enum nb_status check_files(const struct run_args *a, struct nb_error *err)
{
    const struct nb_file_use uses[] = {
        { "input", a->restart ? NULL : a->input, NB_FILE_IN, NULL, NULL, 0 },
        { "restart", a->restart, NB_FILE_IN, NULL, NULL, 1 },
        { "energy-log", a->energy_log, NB_FILE_OUT, NULL, NULL, 0 },
        { "output", a->output, NB_FILE_OUT, NULL, NULL, 0 },
        { "checkpoint", a->checkpoint, NB_FILE_OUT, NULL, NULL, 1 },
        { "movie", a->frames.movie, NB_FILE_OUT, NULL, NULL, 0 },
        { "snapshot-dir", a->snapshot_dir, NB_FILE_DIR, "snap_", ".txt", 0 },
        { "frames", a->frames.dir, NB_FILE_DIR, "frame_", ".png", 0 },
    };
    return nb_check_file_uses("run", uses, sizeof uses / sizeof uses[0], err);
}

static void print_help(const struct nb_option *table)
{
    nb_options_print(stdout, "glnbody run [--input FILE | --ic plummer --n N "
                     "--seed S] [--t-end T] [--eta E] [--softening EPS] "
                     "[--dt-max D] [--shared-dt] [--backend cpu|compute|fragment] "
                     "[--predict host|gpu] [--precision A..H] [--positions ds|float] "
                     "[--energy-log FILE] "
                     "[--log-every DT] "
                     "[--snapshot-every DT --snapshot-dir DIR] [--output FILE] "
                     "[--frames DIR --frame-every DT [--frame-size WxH] "
                     "[--color speed|type] [--camera D,AZ,EL] [--movie FILE.mp4]] "
                     "[--checkpoint FILE [--checkpoint-every DT]] [--restart FILE]",
                     "Integrates an N-body system with the fourth-order Hermite "
                     "scheme and block time steps (G = 1), and prints the "
                     "relative energy error and the time split.  Steps are "
                     "powers of two down to 2^-40; a particle needing less "
                     "stops the run (exit 1).  Under mpirun -np P the forces are "
                     "shared over P ranks (Harfst et al. 2007).", table);
}

int nb_cmd_run(int argc, char **argv)
{
    struct run_args a = { 0 };
    const struct nb_option table[] = {
        { "input", "FILE", "initial snapshot `id m x y z vx vy vz` (any units, "
          "G = 1; not rescaled)", &a.input, NULL },
        { "ic", "plummer", "generated initial conditions (the default)", &a.ic, NULL },
        { "n", "N", "particles of the Plummer sphere (default 512)", &a.n, NULL },
        { "seed", "S", "random seed of the Plummer sphere (default 1)", &a.seed, NULL },
        { "t-end", "T", "end time (default 1)", &a.t_end, NULL },
        { "eta", "E", "accuracy parameter of the step criteria (default 0.02)",
          &a.eta, NULL },
        { "softening", "EPS", "Plummer softening (default 0.01)", &a.softening, NULL },
        { "dt-max", "D", "largest step, rounded down to a power of two "
          "(default 0.125)", &a.dt_max, NULL },
        { "shared-dt", NULL, "every particle takes the smallest step", NULL,
          &a.shared_dt },
        { "backend", "cpu|compute|fragment", "force engine (default compute)",
          &a.backend, NULL },
        { "variant", "NAME", "kernel variant (default auto)", &a.variant, NULL },
        { "predict", "host|gpu", "who predicts the j-particles (default host)",
          &a.predict, NULL },
        { "correct", "host|gpu", "who corrects the block (default host); gpu: the "
          "device, with --predict gpu, the compute backend, precision A and block "
          "steps, reads back only each particle's new step", &a.correct, NULL },
        { "precision", "A..H", "how the GAJ kernel sums its pair terms (Narumi et "
          "al., Table 1; compute backend): A float (default), B double sums, C "
          "Takahashi-Iitaka, D Nitadori, E modified Nitadori, F Narumi, G double "
          "(--predict host), H int64 fixed point (exact, order-independent sums; "
          "needs softening > 0)", &a.precision, NULL },
        { "positions", "ds|float", "how the GAJ kernel keeps positions and velocities: "
          "float (default; a pair's separation r errs by ~6e-8 |x| / r) or ds "
          "(double-single, x_j - x_i to ~48 bits; precision A)",
          &a.positions, NULL },
        { "energy-log", "FILE", "energy log, CSV", &a.energy_log, NULL },
        { "log-every", "DT", "energy log interval (default 0.125)", &a.log_every, NULL },
        { "snapshot-every", "DT", "snapshot interval (needs --snapshot-dir)",
          &a.snapshot_every, NULL },
        { "snapshot-dir", "DIR", "where snap_NNNNN.txt go (made if missing)",
          &a.snapshot_dir, NULL },
        { "output", "FILE", "final state, `id m x y z vx vy vz`", &a.output, NULL },
        NB_FRAMES_OPTIONS(a.frames, "DT", "time between pictures"),
        { "checkpoint", "FILE", "write the whole state here at the end, on SIGINT or "
          "SIGTERM (the step in progress is finished; exit 130 or 143) and every "
          "--checkpoint-every", &a.checkpoint, NULL },
        { "checkpoint-every", "DT", "checkpoint interval in time units (needs "
          "--checkpoint)", &a.checkpoint_every, NULL },
        { "restart", "FILE", "continue the run saved in FILE, bit for bit; every option "
          "not given again comes from it; a later --t-end extends a finished run; "
          "--eta, --softening, --dt-max and --shared-dt cannot change", &a.restart, NULL },
        NB_GL_OPTIONS(a.gl),
        { 0 } };
    struct nb_error err = { 0 };
    struct run_config c;
    int help;

    if (nb_options_parse("run", table, argc, argv, &help, &err) != NB_OK)
        return nb_cli_fail(&err);
    if (help) {
        print_help(table);
        return 0;
    }
    struct run_restart *restart = NULL;
    if ((a.restart && nb_run_restart_open(&a, &restart, &err) != NB_OK) ||
        check_args(&a, &c, &err) != NB_OK ||
        nb_cli_frames_check(&a.frames, 0, c.t_end, &err) != NB_OK ||
        check_files(&a, &err) != NB_OK ||
        (restart && nb_run_restart_check(&c, restart, &err) != NB_OK)) {
        nb_run_restart_free(restart);
        return nb_cli_fail(&err);
    }
    if (nb_mpi_rank() > 0) {    /* rank 0 alone writes files and reports */
        c.energy_log = c.output = c.snapshot_dir = c.checkpoint = NULL;
        c.quiet = a.gl.quiet = 1;
        a.frames.on = 0;
    }
    c.frames = &a.frames;

    struct nb_gl *gl = NULL;
    struct nb_forces *f = NULL;
    struct nb_hermite *h = NULL;
    int interrupted = 0;
    nb_interrupt_catch();
    nb_outfile_remove_temporaries(c.checkpoint);   /* a killed writer's */
    if (restart) {
        nb_ckpt_remove_numbered_temporaries(c.snapshot_dir, "snap");
        nb_ckpt_remove_numbered_temporaries(a.frames.on ? a.frames.dir : NULL, "frame");
    }
    simulate(&c, &gl, &a.gl, &f, &h, &interrupted, &err);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    nb_run_restart_free(restart);
    if (interrupted && err.status == NB_OK)
        return nb_interrupt_status(interrupted);
    return err.status == NB_OK ? 0 : nb_cli_fail(&err);
}
