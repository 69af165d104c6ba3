/* md_checkpoint.c - glnbody md's checkpoints and restarts.
 *
 * A checkpoint holds the system (nb_md_checkpoint: x and v in double, the
 * step, the box, the potential, the excluded pairs, the engine's scales)
 * and the program's own section (ckpt_text.c): the options as typed and
 * where the thermo, integrals and dump files stood.  A
 * restart takes every option it is not given again from there.  Options
 * that set up the system or change its trajectory (the initial conditions,
 * the box, the force law and its coefficients, the cutoff, the cell lists,
 * dt, the exclusions) may be given again only as they were; --steps counts
 * from step 0 of the first run, so a larger one extends a finished run;
 * the outputs may change, and so may the engine (--backend, --precision,
 * another GPU), after which the results differ, as the restart says.
 */
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "file_roles.h"
#include "interrupt.h"
#include "md_cli.h"

struct typed_option {
    const char *key;
    size_t offset;              /* of the const char * in struct md_args */
    int trajectory;             /* 1: may not change on a restart */
};

#define T(key, field, traj) { key, offsetof(struct md_args, field), traj }
static const struct typed_option options[] = {
    T("input", input, 1), T("ic", ic, 1), T("cells", cells, 1),
    T("density", density, 1), T("temperature", temperature, 1), T("seed", seed, 1),
    T("energy", energy, 1), T("lattice", lattice, 1), T("box-xlo", box[0], 1),
    T("box-xhi", box[1], 1), T("box-ylo", box[2], 1), T("box-yhi", box[3], 1),
    T("box-zlo", box[4], 1), T("box-zhi", box[5], 1), T("periodic", periodic, 1),
    T("potential", potential, 1), T("coeffs", coeffs, 1), T("dielectric", dielectric, 1),
    T("sigmoid", sigmoid, 1), T("cutoff", cutoff, 1), T("cells-list", cell_list, 1),
    T("dt", dt, 1), T("exclude", exclude, 1),
    T("steps", steps, 0), T("thermo-every", thermo_every, 0), T("thermo", thermo, 0),
    T("integrals", integrals, 0), T("dump", dump, 0), T("dump-every", dump_every, 0),
    T("dump-format", dump_format, 0), T("backend", backend, 0),
    T("precision", precision, 0), T("output", output, 0), T("timing", timing, 0),
    T("checkpoint", checkpoint, 0), T("checkpoint-every", checkpoint_every, 0),
};
#undef T
#define OPTION_COUNT (sizeof options / sizeof options[0])

static const char **field(struct md_args *a, const struct typed_option *o)
{
    return (const char **)((char *)a + o->offset);
}

static const char *opt_value(const struct md_restart *r, const char *key)
{
    return nb_ckpt_text_get(&r->opts, key);
}

/* A flag: given again as it was, or taken from the checkpoint. */
static enum nb_status merge_flag(int *flag, const char *key, int trajectory,
                                 const struct md_restart *r, const char *path,
                                 struct nb_error *err)
{
    const char *saved = opt_value(r, key);
    int was = saved && strcmp(saved, "1") == 0;

    if (*flag && !was && trajectory)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: the run in %s did not use it; an "
                            "option that changes the trajectory cannot change on a "
                            "restart (leave it out, or start a new run)", key, path);
    *flag = *flag || was;
    return NB_OK;
}

/* resume-KEY-bytes and resume-KEY-hash; size -2 where the hash is missing
 * (an older glnbody's checkpoint). */
static void read_mark(const struct md_restart *r, const char *key, struct nb_outfile_mark *m)
{
    char name[64];

    snprintf(name, sizeof name, "resume-%s-bytes", key);
    m->size = nb_ckpt_text_int(&r->opts, name, -1);
    snprintf(name, sizeof name, "resume-%s-hash", key);
    if (!nb_ckpt_text_hash(&r->opts, name, &m->hash) && m->size >= 0)
        m->size = -2;
}

enum nb_status nb_md_restart_open(struct md_args *a, struct md_restart **out,
                                  struct nb_error *err)
{
    struct md_restart *r = calloc(1, sizeof *r);

    *out = r;
    if (!r)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for the restart");
    r->typed = *a;
    if (nb_ckpt_text_read(&r->opts, a->restart, NB_CHECKPOINT_MD, NULL, err) != NB_OK)
        return err->status;
    r->step = (uint64_t)nb_ckpt_text_int(&r->opts, "step", -1);
    r->n_excluded = (size_t)nb_ckpt_text_int(&r->opts, "n-excluded", 0);
    read_mark(r, "thermo", &r->resume.thermo);
    read_mark(r, "integrals", &r->resume.integrals);
    read_mark(r, "dump", &r->resume.dump);
    r->resume.first_etotal = nb_ckpt_text_real(&r->opts, "first-etotal");
    if (nb_ckpt_text_int(&r->opts, "step", -1) < 0)
        return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: its options "
                            "lack the step", a->restart);
    for (size_t k = 0; k < OPTION_COUNT; k++) {
        const char **given = field(a, &options[k]);
        const char *saved = opt_value(r, options[k].key);
        if (*given && options[k].trajectory && (!saved || strcmp(*given, saved) != 0))
            return nb_error_set(err, NB_ERR_ARGS, "--%s %s: the run in %s %s%s%s; an "
                                "option that sets up the system or changes its "
                                "trajectory cannot change on a restart (leave it out, "
                                "or start a new run)", options[k].key, *given,
                                a->restart, saved ? "used " : "did not give it",
                                saved ? saved : "", "");
        if (!*given)
            *given = saved;
    }
    if (merge_flag(&a->shift, "shift", 1, r, a->restart, err) != NB_OK ||
        merge_flag(&a->per_atom, "per-atom", 0, r, a->restart, err) != NB_OK)
        return err->status;
    return NB_OK;
}

/* The long output of option key at path, when the restart continues it:
 * the file the checkpoint's run wrote, or a refusal naming it. */
static enum nb_status check_continued(const struct md_config *c, const char *key,
                                      const char *path, const struct nb_outfile_mark *m,
                                      struct nb_error *err)
{
    const struct nb_outfile_mark *keep = nb_md_resume_mark(c, key, path, m);

    if (!keep)
        return NB_OK;
    if (keep->size == -2)
        nb_error_set(err, NB_ERR_IO, "%s: the checkpoint %s, of an older glnbody, records "
                     "no hash of this file, so nothing proves that the file there is "
                     "still the one its run wrote", path, c->args->restart);
    if (keep->size == -2 || nb_outfile_verify(path, keep, err) != NB_OK) {
        nb_md_explain_resume(c, key, err);
        return err->status;
    }
    return NB_OK;
}

enum nb_status nb_md_restart_apply(struct md_config *c, struct md_restart *r,
                                   struct nb_error *err)
{
    c->restart = r;
    if (c->steps < r->step)
        return nb_error_set(err, NB_ERR_ARGS, "--steps %llu: the run in %s is already at "
                            "step %llu (--steps counts from step 0 of the first run)",
                            (unsigned long long)c->steps, c->args->restart,
                            (unsigned long long)r->step);
    if (c->steps == r->step)
        return nb_error_set(err, NB_ERR_ARGS, "--steps %llu: the run in %s already ended "
                            "at step %llu, so there is nothing to do; give a larger "
                            "--steps to continue it (--steps counts from step 0 of the "
                            "first run)", (unsigned long long)c->steps, c->args->restart,
                            (unsigned long long)r->step);
    if (check_continued(c, "thermo", c->thermo ? c->thermo : "-", &r->resume.thermo,
                        err) != NB_OK ||
        check_continued(c, "integrals", c->integrals, &r->resume.integrals, err) != NB_OK ||
        check_continued(c, "dump", c->dump, &r->resume.dump, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static void note(const struct md_config *c, const char *what, const char *now,
                 const char *then)
{
    if (!c->args->gl.quiet)
        nb_ckpt_text_note("md", what, now, then, c->args->restart);
}

void nb_md_restart_notes(const struct md_config *c, const char *renderer)
{
    const struct md_restart *r = c->restart;

    note(c, "backend", nb_engine_name(c->backend), opt_value(r, "backend-run"));
    note(c, "precision", c->have_precision ? nb_precision_name(c->precision) : "A",
         opt_value(r, "precision-run"));
    note(c, "renderer", renderer, opt_value(r, "renderer"));
}

void nb_md_restart_free(struct md_restart *r)
{
    if (!r)
        return;
    nb_ckpt_text_free(&r->opts);
    free(r);
}

/* ---- writing ------------------------------------------------------------ */

static enum nb_status add_mark(struct ckpt_text *t, const char *key,
                               const struct nb_outfile_mark *m, struct nb_error *err)
{
    char name[64];

    snprintf(name, sizeof name, "resume-%s-bytes", key);
    if (nb_ckpt_text_add_int(t, name, m->size, err) != NB_OK)
        return err->status;
    snprintf(name, sizeof name, "resume-%s-hash", key);
    return nb_ckpt_text_add_hash(t, name, m->hash, err);
}

static enum nb_status add_options(struct ckpt_text *t, const struct nb_md_outputs *o,
                                  const struct md_config *c, const struct nb_md *md,
                                  struct nb_error *err)
{
    struct md_args a = *c->args;
    char every[32];

    for (size_t k = 0; k < OPTION_COUNT; k++) {
        const char *value = *field(&a, &options[k]);
        if (value && nb_ckpt_text_add(t, options[k].key, value, err) != NB_OK)
            return err->status;
    }
    /* The interval as resolved: its default depends on --steps, which a
     * longer leg changes. */
    snprintf(every, sizeof every, "%llu", (unsigned long long)c->thermo_every);
    if ((!a.thermo_every && nb_ckpt_text_add(t, "thermo-every", every, err) != NB_OK) ||
        nb_ckpt_text_add(t, "glnbody", nb_version(), err) != NB_OK ||
        nb_ckpt_text_add(t, "shift", a.shift ? "1" : "0", err) != NB_OK ||
        nb_ckpt_text_add(t, "per-atom", a.per_atom ? "1" : "0", err) != NB_OK ||
        nb_ckpt_text_add(t, "backend-run", nb_engine_name(c->backend), err) != NB_OK ||
        nb_ckpt_text_add(t, "precision-run", c->have_precision
                         ? nb_precision_name(c->precision) : "A", err) != NB_OK ||
        nb_ckpt_text_add(t, "renderer", nb_md_renderer(md), err) != NB_OK ||
        nb_ckpt_text_add_int(t, "step", (long long)nb_md_step_count(md), err) != NB_OK ||
        nb_ckpt_text_add_int(t, "n-excluded", (long long)o->n_excluded, err) != NB_OK ||
        add_mark(t, "thermo", &o->mark.thermo, err) != NB_OK ||
        add_mark(t, "integrals", &o->mark.integrals, err) != NB_OK ||
        add_mark(t, "dump", &o->mark.dump, err) != NB_OK ||
        nb_ckpt_text_add_real(t, "first-etotal", o->first.etotal, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static enum nb_status write_checkpoint(const struct nb_md_outputs *o,
                                       const struct md_config *c, struct nb_md *md,
                                       const struct nb_particles *p, struct nb_error *err)
{
    struct ckpt_text t = { 0 };
    enum nb_status st = add_options(&t, o, c, md, err);

    if (st == NB_OK)
        st = nb_md_checkpoint(md, c->checkpoint, p, t.text, t.size, err);
    nb_ckpt_text_free(&t);
    return st;
}

uint64_t nb_md_next_save(const struct md_config *c, uint64_t step, uint64_t next)
{
    if (!c->checkpoint || !c->checkpoint_every)
        return next;
    uint64_t save = (step / c->checkpoint_every + 1) * c->checkpoint_every;
    return save < next ? save : next;
}

enum nb_status nb_md_save_due(struct nb_md_outputs *o, const struct md_config *c,
                              struct nb_md *md, const struct nb_particles *p,
                              struct nb_error *err)
{
    o->interrupted = nb_interrupt_pending();
    if (!c->checkpoint || nb_md_step_count(md) >= c->steps)
        return NB_OK;       /* the end has its own (nb_md_save_final) */
    if (!o->interrupted && !(c->checkpoint_every && nb_md_step_count(md) % c->checkpoint_every == 0))
        return NB_OK;
    if (nb_md_outputs_mark(o, 1, err) != NB_OK ||
        write_checkpoint(o, c, md, p, err) != NB_OK)
        return err->status;
    o->saved_step = (int64_t)nb_md_step_count(md);
    return NB_OK;
}

enum nb_status nb_md_save_final(struct nb_md_outputs *o, const struct md_config *c,
                                struct nb_md *md, const struct nb_particles *p,
                                struct nb_error *err)
{
    if (!c->checkpoint)
        return NB_OK;
    if (!o->marked && nb_md_outputs_mark(o, 1, err) != NB_OK)
        return err->status;
    if (write_checkpoint(o, c, md, p, err) != NB_OK)
        return err->status;
    o->saved_step = (int64_t)nb_md_step_count(md);
    return NB_OK;
}

void nb_md_say_interrupted(const struct nb_md_outputs *o, const struct md_config *c,
                           const struct nb_md *md)
{
    fprintf(stderr, "glnbody md: stopped by %s at step %llu",
            o->interrupted == SIGTERM ? "SIGTERM" : "SIGINT",
            (unsigned long long)nb_md_step_count(md));
    if (c->checkpoint && o->saved_step == (int64_t)nb_md_step_count(md))
        fprintf(stderr, "; checkpoint written to %s: continue with `glnbody md "
                "--restart %s`\n", c->checkpoint, c->checkpoint);
    else
        fprintf(stderr, "; no --checkpoint was given, so the run cannot be "
                "continued\n");
}

void nb_md_name_last_checkpoint(const struct nb_md_outputs *o, const struct md_config *c,
                                struct nb_error *err)
{
    size_t len = strlen(err->message);

    if (o->saved_step >= 0)
        snprintf(err->message + len, sizeof err->message - len, "; the last good "
                 "checkpoint is %s (step %lld): go back to it with --restart %s",
                 c->checkpoint, (long long)o->saved_step, c->checkpoint);
    else if (c->restart)
        snprintf(err->message + len, sizeof err->message - len, "; the last good "
                 "checkpoint is %s (step %llu)", c->args->restart,
                 (unsigned long long)c->restart->step);
}

const struct nb_outfile_mark *nb_md_resume_mark(const struct md_config *c, const char *key,
                                                const char *path,
                                                const struct nb_outfile_mark *m)
{
    const char *saved = c->restart ? opt_value(c->restart, key) : NULL;

    if (c->restart && !saved && strcmp(key, "thermo") == 0)
        saved = "-";    /* thermo's default: stdout */
    if (!saved || !path)
        return NULL;
    if (strcmp(saved, "-") == 0 || strcmp(path, "-") == 0)
        return NULL;    /* stdout: nothing to continue or to protect */
    return strcmp(saved, path) == 0 || nb_same_file(saved, path) ? m : NULL;
}

void nb_md_explain_resume(const struct md_config *c, const char *key, struct nb_error *err)
{
    size_t len = strlen(err->message);

    snprintf(err->message + len, sizeof err->message - len, "; --restart %s continues "
             "only the --%s file its run wrote: give --%s another file to start a new "
             "one at step %llu", c->args->restart, key, key,
             (unsigned long long)c->restart->step);
}
