/* run_checkpoint.c - glnbody run's checkpoints and restarts.
 *
 * A checkpoint holds the run (nb_hermite_checkpoint: everything the next
 * block step reads, exactly) and the program's own section (ckpt_text.c):
 * the options as they were typed, the parameters in use and where the
 * outputs stood (E0, the next log row and snapshot, the energy log's
 * length).  A restart takes every option it is not given again from there.
 * Options that change the trajectory (--eta, --softening, --dt-max,
 * --shared-dt) may be given again only with the same value; the engine may
 * change (--backend, --precision, --predict, --correct, --variant, another
 * GPU; not --positions, which the saved run keeps: nb_run_check_positions), and
 * then the results differ from an uninterrupted run's, which the restart
 * says.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "file_roles.h"
#include "interrupt.h"
#include "run_cli.h"

/* The typed options kept in a checkpoint, each with its place in run_args. */
#define OPTION_FIELDS(X)                                                         \
    X("t-end", t_end) X("eta", eta) X("softening", softening) X("dt-max", dt_max) \
    X("backend", backend) X("variant", variant) X("predict", predict)            \
    X("correct", correct)                                                        \
    X("precision", precision) X("positions", positions) X("energy-log", energy_log) X("log-every", log_every) \
    X("snapshot-every", snapshot_every) X("snapshot-dir", snapshot_dir)          \
    X("output", output) X("checkpoint", checkpoint)                              \
    X("checkpoint-every", checkpoint_every)

static const char *opt(const struct run_restart *r, const char *key)
{
    return nb_ckpt_text_get(&r->opts, key);
}

/* The outputs' state and the block time, all present and sane. */
static enum nb_status read_resume(struct run_restart *r, const char *path,
                                  struct nb_error *err)
{
    r->t = nb_ckpt_text_real(&r->opts, "t");
    r->resume.e0 = nb_ckpt_text_real(&r->opts, "resume-e0");
    r->resume.log_k = (uint64_t)nb_ckpt_text_int(&r->opts, "resume-log-k", 0);
    r->resume.snap_k = (uint64_t)nb_ckpt_text_int(&r->opts, "resume-snap-k", 0);
    r->resume.log.size = nb_ckpt_text_int(&r->opts, "resume-log-bytes", -1);
    r->resume.log_known = nb_ckpt_text_hash(&r->opts, "resume-log-hash",
                                            &r->resume.log.hash);
    if (!isfinite(r->t) || !isfinite(r->resume.e0) ||
        !isfinite(nb_ckpt_text_real(&r->opts, "eta-value")))
        return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: its options "
                            "lack the block time, E0 or the parameters", path);
    return NB_OK;
}

enum nb_status nb_run_restart_open(struct run_args *a, struct run_restart **out,
                                   struct nb_error *err)
{
    struct run_restart *r;

    *out = NULL;
    if (a->input || a->ic || a->n || a->seed)
        return nb_error_set(err, NB_ERR_ARGS, "run: --restart excludes --input, --ic, "
                            "--n and --seed (the particles come from the checkpoint)");
    if (!(r = calloc(1, sizeof *r)))
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for the restart");
    *out = r;
    r->typed = *a;
    if (nb_ckpt_text_read(&r->opts, a->restart, NB_CHECKPOINT_HERMITE, &r->n,
                          err) != NB_OK ||
        read_resume(r, a->restart, err) != NB_OK)
        return err->status;
    /* Every option not given again comes from the checkpoint. */
#define FILL(key, field) if (!a->field) a->field = opt(r, key);
    OPTION_FIELDS(FILL)
#undef FILL
    if (!a->shared_dt)
        a->shared_dt = nb_ckpt_text_int(&r->opts, "shared-dt", 0) == 1;
    return NB_OK;
}

/* What nb_run_log_to_continue gives for a checkpoint without the hash. */
static const struct nb_outfile_mark unknown_log = { -2, 0 };

/* One trajectory parameter: the same value, or a refusal naming both. */
static enum nb_status same(const char *option, const char *typed, double given,
                           double saved, const char *path, struct nb_error *err)
{
    if (given == saved)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "--%s %s: the run in %s used %.17g; an option "
                        "that changes the trajectory cannot change on a restart (leave "
                        "it out, or start a new run)", option, typed ? typed : "",
                        path, saved);
}

enum nb_status nb_run_restart_check(struct run_config *c, struct run_restart *r,
                                    struct nb_error *err)
{
    const char *path = c->args->restart;
    int e;

    c->restart = r;
    if (same("eta", r->typed.eta, c->par.eta, nb_ckpt_text_real(&r->opts, "eta-value"),
             path, err) != NB_OK ||
        same("softening", r->typed.softening, c->par.eps,
             nb_ckpt_text_real(&r->opts, "eps-value"), path, err) != NB_OK)
        return err->status;
    /* dt_max is saved rounded down to a power of two, as the run uses it. */
    frexp(c->par.dt_max, &e);
    if (same("dt-max", r->typed.dt_max, ldexp(1.0, e - 1),
             nb_ckpt_text_real(&r->opts, "dt-max-value"), path, err) != NB_OK)
        return err->status;
    if (c->par.shared_dt != (nb_ckpt_text_int(&r->opts, "shared-dt", 0) == 1))
        return nb_error_set(err, NB_ERR_ARGS, "--shared-dt: the run in %s took "
                            "individual block steps; an option that changes the "
                            "trajectory cannot change on a restart", path);
    if (c->t_end < r->t)
        return nb_error_set(err, NB_ERR_ARGS, "--t-end %s: the run in %s is already at "
                            "t = %.17g; give a later end time", c->args->t_end, path, r->t);
    /* The log it continues, checked before any work (and again as it is
     * copied). */
    const struct nb_outfile_mark *log = nb_run_log_to_continue(c);
    if (log == &unknown_log)
        nb_error_set(err, NB_ERR_IO, "%s: the checkpoint %s, of an older glnbody, "
                     "records no hash of this energy log, so nothing proves that the "
                     "file there is still the one its run wrote", c->energy_log, path);
    if (log && (log == &unknown_log ||
                nb_outfile_verify(c->energy_log, log, err) != NB_OK)) {
        nb_run_explain_log(c, err);
        return err->status;
    }
    /* The summary's source line. */
    c->input = opt(r, "input");
    c->seed = (uint64_t)nb_ckpt_text_int(&r->opts, "seed", 0);
    c->n = (size_t)r->n;
    return NB_OK;
}

const struct nb_outfile_mark *nb_run_log_to_continue(const struct run_config *c)
{
    const struct run_restart *r = c->restart;
    const char *saved = r ? opt(r, "energy-log") : NULL;

    if (!r || !c->energy_log || !saved ||
        !(strcmp(saved, c->energy_log) == 0 || nb_same_file(saved, c->energy_log)))
        return NULL;
    /* An older checkpoint without the hash: nothing proves the file is its. */
    if (r->resume.log.size >= 0 && !r->resume.log_known)
        return &unknown_log;
    return &r->resume.log;
}

void nb_run_explain_log(const struct run_config *c, struct nb_error *err)
{
    size_t len = strlen(err->message);

    snprintf(err->message + len, sizeof err->message - len, "; --restart %s continues "
             "only the energy log its run wrote: give --energy-log another file to start "
             "a new log at t = %.17g", c->args->restart, c->restart->t);
}

static void note(const struct run_config *c, const char *what, const char *now,
                 const char *then)
{
    if (!c->quiet)
        nb_ckpt_text_note("run", what, now, then, c->args->restart);
}

void nb_run_restart_notes(const struct run_config *c, const char *renderer)
{
    const struct run_restart *r = c->restart;

    note(c, "backend", nb_engine_name(c->backend), opt(r, "backend-run"));
    note(c, "precision", nb_precision_name(c->precision), opt(r, "precision-run"));
    note(c, "predict", c->par.predict_on_device ? "gpu" : "host", opt(r, "predict-run"));
    note(c, "correct", c->par.predict_on_device == 2 ? "gpu" : "host",
         opt(r, "correct-run"));
    note(c, "variant", c->variant, opt(r, "variant-run"));
    note(c, "renderer", renderer, opt(r, "renderer"));
}

enum nb_status nb_run_check_positions(const struct run_config *c, const struct nb_hermite *h,
                                      struct nb_error *err)
{
    struct nb_hermite_params par;
    nb_hermite_get_params(h, &par);
    if (par.positions == c->par.positions)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "--positions %s: the run in %s keeps its "
                        "positions in %s; a restart keeps the format (give --positions "
                        "%s, or none)", nb_positions_name(c->par.positions),
                        c->args->restart, nb_positions_name(par.positions),
                        nb_positions_name(par.positions));
}

void nb_run_restart_free(struct run_restart *r)
{
    if (!r)
        return;
    nb_ckpt_text_free(&r->opts);
    free(r);
}

enum nb_status nb_run_check_checkpoint(const struct run_args *a, struct run_config *c,
                                       struct nb_error *err)
{
    if (a->checkpoint_every && !a->checkpoint)
        return nb_error_set(err, NB_ERR_ARGS, "run: --checkpoint-every needs --checkpoint");
    if (a->checkpoint && strcmp(a->checkpoint, "-") == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--checkpoint: a checkpoint is binary; "
                            "give a file, not '-'");
    c->checkpoint = a->checkpoint;
    if (!a->checkpoint_every)
        return NB_OK;
    if (nb_parse_double("checkpoint-every", a->checkpoint_every, 0.0, &c->checkpoint_every,
                        err) != NB_OK)
        return err->status;
    if (!(c->checkpoint_every > 0.0) || c->t_end / c->checkpoint_every > 1e7)
        return nb_error_set(err, NB_ERR_ARGS, "--checkpoint-every: %s must be > 0 and "
                            "give at most 1e7 checkpoints up to t = %g",
                            a->checkpoint_every, c->t_end);
    return NB_OK;
}

int nb_run_resume_outputs(struct outputs *o, double t)
{
    const struct run_config *c = o->c;
    const struct run_restart *r = c->restart;

    o->save_k = nb_run_first_after(t, c->checkpoint_every);
    o->progress_k = nb_run_first_at_or_after(t, c->progress_every);
    if (!r)
        return 0;
    if (!o->log_k)      /* a new log: its rows from the checkpoint on */
        o->log_k = nb_run_first_at_or_after(t, c->log_every);
    o->snap_k = r->typed.snapshot_every || r->typed.snapshot_dir
                ? nb_run_first_at_or_after(t, c->snapshot_every) : r->resume.snap_k;
    o->e0 = o->first.etot = r->resume.e0;
    return 1;
}

/* ---- writing ------------------------------------------------------------ */

static enum nb_status add_options(struct ckpt_text *t, const struct run_config *c,
                                  struct nb_hermite *h, const struct run_resume *r,
                                  const char *renderer, struct nb_error *err)
{
    const struct run_args *a = c->args;
    struct nb_hermite_params par;

    nb_hermite_get_params(h, &par);
#define ADD(key, field) \
    if (a->field && nb_ckpt_text_add(t, key, a->field, err) != NB_OK) return err->status;
    OPTION_FIELDS(ADD)
#undef ADD
    if (nb_ckpt_text_add(t, "glnbody", nb_version(), err) != NB_OK ||
        nb_ckpt_text_add(t, "shared-dt", par.shared_dt ? "1" : "0", err) != NB_OK ||
        (c->input && nb_ckpt_text_add(t, "input", c->input, err) != NB_OK) ||
        (!c->input && nb_ckpt_text_add_int(t, "seed", (long long)c->seed, err) != NB_OK) ||
        nb_ckpt_text_add(t, "backend-run", nb_engine_name(c->backend), err) != NB_OK ||
        nb_ckpt_text_add(t, "variant-run", c->variant, err) != NB_OK ||
        nb_ckpt_text_add(t, "precision-run", nb_precision_name(c->precision), err) != NB_OK ||
        nb_ckpt_text_add(t, "positions-run", nb_positions_name(par.positions), err) != NB_OK ||
        nb_ckpt_text_add(t, "predict-run", par.predict_on_device ? "gpu" : "host",
                         err) != NB_OK ||
        nb_ckpt_text_add(t, "correct-run", par.predict_on_device == 2 ? "gpu" : "host",
                         err) != NB_OK ||
        nb_ckpt_text_add(t, "renderer", renderer, err) != NB_OK ||
        nb_ckpt_text_add_real(t, "t", nb_hermite_time(h), err) != NB_OK ||
        nb_ckpt_text_add_real(t, "eta-value", par.eta, err) != NB_OK ||
        nb_ckpt_text_add_real(t, "eps-value", par.eps, err) != NB_OK ||
        nb_ckpt_text_add_real(t, "dt-max-value", par.dt_max, err) != NB_OK ||
        nb_ckpt_text_add_real(t, "resume-e0", r->e0, err) != NB_OK ||
        nb_ckpt_text_add_int(t, "resume-log-k", (long long)r->log_k, err) != NB_OK ||
        nb_ckpt_text_add_int(t, "resume-snap-k", (long long)r->snap_k, err) != NB_OK ||
        nb_ckpt_text_add_int(t, "resume-log-bytes", r->log.size, err) != NB_OK ||
        nb_ckpt_text_add_hash(t, "resume-log-hash", r->log.hash, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static enum nb_status save(struct nb_hermite *h, struct nb_forces *f,
                           const struct outputs *o, struct nb_error *err)
{
    struct ckpt_text t = { 0 };
    enum nb_status st = add_options(&t, o->c, h, &o->resume, nb_forces_renderer(f), err);

    if (st == NB_OK)
        st = nb_hermite_checkpoint(h, o->c->checkpoint, t.text, t.size, err);
    nb_ckpt_text_free(&t);
    return st;
}

/* ---- when the run writes them ------------------------------------------- */

uint64_t nb_run_first_at_or_after(double t, double every)
{
    uint64_t k = every > 0 ? (uint64_t)(t / every) : 0;
    while (k > 0 && (double)(k - 1) * every >= t)
        k--;
    while (every > 0 && (double)k * every < t)
        k++;
    return k;
}

uint64_t nb_run_first_after(double t, double every)
{
    uint64_t k = nb_run_first_at_or_after(t, every);
    return every > 0 && (double)k * every <= t ? k + 1 : k;
}

enum nb_status nb_run_resume_mark(struct outputs *o, struct nb_error *err)
{
    struct nb_outfile_mark log;

    if (nb_outfile_mark(&o->log, 1, &log, err) != NB_OK)
        return err->status;
    o->resume = (struct run_resume){ o->e0, o->log_k, o->snap_k, log, 1 };
    return NB_OK;
}

enum nb_status nb_run_save_due(struct nb_hermite *h, struct nb_forces *f, struct outputs *o,
                               double next, struct nb_error *err)
{
    const struct run_config *c = o->c;
    double every = c->checkpoint_every, t = nb_hermite_time(h);

    o->interrupted = nb_interrupt_pending();
    if (!c->checkpoint)
        return NB_OK;
    if (!o->interrupted && !(every > 0 && next <= c->t_end && t >= (double)o->save_k * every))
        return NB_OK;
    o->save_k = nb_run_first_after(t, every);
    if (nb_run_resume_mark(o, err) != NB_OK || save(h, f, o, err) != NB_OK)
        return err->status;
    o->saved_t = t;
    return NB_OK;
}

enum nb_status nb_run_save_final(struct nb_hermite *h, struct nb_forces *f,
                                 struct outputs *o, struct nb_error *err)
{
    return o->c->checkpoint ? save(h, f, o, err) : NB_OK;
}

void nb_run_say_interrupted(const struct nb_hermite *h, const struct outputs *o)
{
    const struct run_config *c = o->c;
    uint64_t blocks;

    nb_hermite_counts(h, &blocks, NULL);
    fprintf(stderr, "glnbody run: stopped by %s at t = %.17g (block step %llu)",
            o->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", nb_hermite_time(h),
            (unsigned long long)blocks);
    if (c->checkpoint && o->saved_t == nb_hermite_time(h))
        fprintf(stderr, "; checkpoint written to %s: continue with `glnbody run "
                "--restart %s`\n", c->checkpoint, c->checkpoint);
    else
        fprintf(stderr, "; no --checkpoint was given, so the run cannot be "
                "continued\n");
}

void nb_run_name_last_checkpoint(const struct outputs *o, struct nb_error *err)
{
    size_t len = strlen(err->message);
    const char *path;

    if (!o->c)          /* stopped before the outputs were opened */
        return;
    path = o->c->checkpoint;
    if (o->saved_t >= 0.0 && path)
        snprintf(err->message + len, sizeof err->message - len, "; the last good "
                 "checkpoint is %s (t = %.17g): go back to it with --restart %s", path,
                 o->saved_t, path);
    else if (o->c->restart)
        snprintf(err->message + len, sizeof err->message - len, "; the last good "
                 "checkpoint is %s (t = %.17g)", o->c->args->restart, o->c->restart->t);
}
