/* md_outputs.c - glnbody md's files (thermo, integrals, dump, timing,
 * the final snapshot) and the summary.  The long ones (thermo, integrals,
 * dump) are renamed to their final names once the run is under way and
 * keep whole rows on disk as they go; --timing and --output are made at
 * the end, renamed only when the run succeeds.  Thermo rows follow LAMMPS'
 * thermo_style custom step time temp pe ke etotal press; totals unless
 * --per-atom (LAMMPS' lj units normalise by N). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "md_cli.h"

/* A long output: on a restart, the file the checkpoint's run wrote at the
 * same path, cut to its length then; else a new one with its header. */
static enum nb_status open_long(struct nb_outfile *f, const struct md_config *c,
                                const char *key, const char *path,
                                const struct nb_outfile_mark *m, const char *header,
                                struct nb_error *err)
{
    const struct nb_outfile_mark *keep = m ? nb_md_resume_mark(c, key, path, m) : NULL;
    int kept = 0;

    if (nb_outfile_open_resume(f, path, keep, &kept, err) != NB_OK) {
        if (keep)
            nb_md_explain_resume(c, key, err);
        return err->status;
    }
    if (!kept && header)
        fputs(header, f->fp);
    return NB_OK;
}

enum nb_status nb_md_outputs_open(struct nb_md_outputs *o, const struct md_config *c,
                                   struct nb_error *err)
{
    const struct md_resume *r = c->restart ? &c->restart->resume : NULL;

    memset(o, 0, sizeof *o);
    o->saved_step = -1;
    if (open_long(&o->thermo, c, "thermo", c->thermo ? c->thermo : "-",
                  r ? &r->thermo : NULL, "step,time,temp,pe,ke,etotal,press\n",
                  err) != NB_OK)
        return err->status;
    o->thermo_open = 1;
    if (c->integrals) {
        if (open_long(&o->integrals, c, "integrals", c->integrals,
                      r ? &r->integrals : NULL, "step,time,px,py,pz,lx,ly,lz,com_x,"
                      "com_y,com_z\n", err) != NB_OK)
            return err->status;
        o->integrals_open = 1;
    }
    if (c->dump) {
        if (open_long(&o->dump, c, "dump", c->dump, r ? &r->dump : NULL, NULL,
                      err) != NB_OK)
            return err->status;
        o->dump_open = 1;
    }
    if (r)
        o->first.etotal = r->first_etotal;
    /* Checked now, so that a directory or an unwritable place is found
     * before the run; made at the end, so that a killed run leaves none. */
    if ((c->timing && nb_outfile_check(c->timing, err) != NB_OK) ||
        (c->output && nb_outfile_check(c->output, err) != NB_OK))
        return err->status;
    return NB_OK;
}

enum nb_status nb_md_outputs_open_late(struct nb_md_outputs *o, const struct md_config *c,
                                       struct nb_error *err)
{
    if (c->timing) {
        if (nb_outfile_open(&o->timing, c->timing, err) != NB_OK)
            return err->status;
        o->timing_open = 1;
    }
    if (c->output && nb_outfile_open(&o->final, c->output, err) != NB_OK)
        return err->status;
    return NB_OK;
}

void nb_md_outputs_abort(struct nb_md_outputs *o)
{
    if (o->thermo_open)
        nb_outfile_abort(&o->thermo);
    if (o->integrals_open)
        nb_outfile_abort(&o->integrals);
    if (o->dump_open)
        nb_outfile_abort(&o->dump);
    if (o->timing_open)
        nb_outfile_abort(&o->timing);
    nb_outfile_abort(&o->final);
}

static void write_thermo(struct nb_md_outputs *o, const struct md_config *c, size_t n,
                         const struct nb_md_thermo *t)
{
    double scale = c->per_atom && n ? 1.0 / (double)n : 1.0;
    fprintf(o->thermo.fp, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            (unsigned long long)t->step, t->time, t->temp, t->pe * scale, t->ke * scale,
            t->etotal * scale, t->press);
    if (o->integrals_open)
        fprintf(o->integrals.fp, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                "%.17g,%.17g,%.17g\n", (unsigned long long)t->step, t->time, t->p[0],
                t->p[1], t->p[2], t->l[0], t->l[1], t->l[2], t->com[0], t->com[1],
                t->com[2]);
}

enum nb_status nb_md_write_due(struct nb_md_outputs *o, const struct md_config *c,
                                struct nb_md *md, struct nb_particles *p,
                                struct nb_error *err)
{
    uint64_t step = nb_md_step_count(md);
    int thermo = step % c->thermo_every == 0 || step == c->steps;
    int dump = o->dump_open && step % c->dump_every == 0;
    struct nb_md_thermo t;
    if (!thermo && !dump)
        return NB_OK;
    if (nb_md_get_thermo(md, &t, err) != NB_OK)
        return err->status;
    if (!isfinite(t.etotal) || !isfinite(t.press))
        return nb_error_set(err, NB_ERR_NUMERIC, "step %llu: the energy or pressure is "
                            "not finite", (unsigned long long)step);
    /* A row only because the run ends here: a longer run has none, so a
     * checkpoint at the end continues from before it. */
    o->marked = thermo && step % c->thermo_every != 0;
    if (o->marked && nb_md_outputs_mark(o, 0, err) != NB_OK)
        return err->status;
    if (thermo) {
        write_thermo(o, c, nb_md_count(md), &t);
        if (step == 0)
            o->first = t;
        o->last = t;
    }
    if (dump) {
        /* The run's ids, types, masses and charges with its state. */
        if (nb_md_get_state(md, p->x, p->v, err) != NB_OK)
            return err->status;
        if ((c->dump_xyz ? nb_extxyz_write(o->dump.fp, t.time, p, &o->box, err)
                         : nb_lammps_dump_write(o->dump.fp, step, p, &o->box, err)) != NB_OK) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            return nb_error_set(err, err->status, "%s: %s", c->dump, why);
        }
    }
    /* Whole rows on disk as they go (and a full disk found at once). */
    if (nb_outfile_flush(&o->thermo, 0, err) != NB_OK ||
        nb_outfile_flush(&o->integrals, 0, err) != NB_OK ||
        nb_outfile_flush(&o->dump, 0, err) != NB_OK)
        return err->status;
    return NB_OK;
}

enum nb_status nb_md_outputs_mark(struct nb_md_outputs *o, int sync, struct nb_error *err)
{
    if (nb_outfile_mark(&o->thermo, sync, &o->mark.thermo, err) != NB_OK ||
        nb_outfile_mark(&o->integrals, sync, &o->mark.integrals, err) != NB_OK ||
        nb_outfile_mark(&o->dump, sync, &o->mark.dump, err) != NB_OK)
        return err->status;
    return NB_OK;
}

enum nb_status nb_md_outputs_publish(struct nb_md_outputs *o, struct nb_error *err)
{
    if (nb_outfile_publish(&o->thermo, err) != NB_OK ||
        nb_outfile_publish(&o->integrals, err) != NB_OK ||
        nb_outfile_publish(&o->dump, err) != NB_OK)
        return err->status;
    return NB_OK;
}

uint64_t nb_md_next_output(const struct md_config *c, uint64_t step)
{
    uint64_t next = (step / c->thermo_every + 1) * c->thermo_every;
    if (c->dump_every) {
        uint64_t d = (step / c->dump_every + 1) * c->dump_every;
        next = d < next ? d : next;
    }
    return next < c->steps ? next : c->steps;
}

enum nb_status nb_md_outputs_commit(struct nb_md_outputs *o, const struct md_config *c,
                                     struct nb_md *md, struct nb_particles *p,
                                     struct nb_error *err)
{
    if (c->output) {
        uint64_t step = nb_md_step_count(md);
        char comment[160];
        snprintf(comment, sizeof comment, "glnbody md step %llu t=%.17g n=%zu",
                 (unsigned long long)step, (double)step * c->dt, nb_md_count(md));
        if (nb_md_get_state(md, p->x, p->v, err) != NB_OK ||
            nb_snapshot_print(o->final.fp, c->output, p, comment, err) != NB_OK)
            return err->status;
    }
    /* All or none (files not opened have fp NULL and are skipped). */
    struct nb_outfile *files[5] = { &o->thermo, &o->integrals, &o->dump,
                                    &o->timing, &o->final };
    o->thermo_open = o->integrals_open = o->dump_open = o->timing_open = 0;
    return nb_outfile_commit_all(files, 5, err);
}

/* The steps this process took: a restart's leg starts at its checkpoint. */
static uint64_t leg_steps(const struct md_config *c)
{
    return c->steps - (c->restart ? c->restart->step : 0);
}

void nb_md_write_timing(struct nb_md_outputs *o, const struct md_config *c,
                         const struct nb_md *md, double seconds)
{
    struct nb_md_timings t;
    double drift = o->last.etotal - o->first.etotal;
    size_t n = nb_md_count(md);
    uint64_t steps = leg_steps(c);
    nb_md_get_timings(md, &t);
    fprintf(o->timing.fp, "backend,kernel,n,steps,seconds,atom_steps_per_s,k1_s,cells_s,"
            "force_s,k2_s,evaluations,drift_rel\n%s,%s,%zu,%llu,%.6g,%.6g,%.6g,%.6g,%.6g,"
            "%.6g,%llu,%.6g\n", nb_engine_name(c->backend),
            nb_md_uses_cell_lists(md) ? "cells" : "pairs", n, (unsigned long long)steps,
            seconds, seconds > 0 ? (double)n * (double)steps / seconds : 0.0, t.k1, t.cells,
            t.force, t.k2, (unsigned long long)t.evaluations,
            o->first.etotal != 0 ? drift / fabs(o->first.etotal) : 0.0);
}

void nb_md_print_summary(FILE *fp, const struct md_config *c, const struct nb_md *md,
                          const struct nb_md_outputs *o, double seconds)
{
    struct nb_md_timings t;
    size_t n = nb_md_count(md);
    uint64_t steps = leg_steps(c);
    double atom_steps = (double)n * (double)steps;
    double drift = o->last.etotal - o->first.etotal;
    nb_md_get_timings(md, &t);
    fprintf(fp, "glnbody md: %zu atoms, %s, cutoff %g%s, %s, backend %s (%s)\n", n,
            nb_md_law_name(c->pot.law), c->pot.cutoff, c->pot.shift ? " shifted" : "",
            nb_md_uses_cell_lists(md) ? "cell lists" : "all pairs",
            nb_engine_name(c->backend), nb_md_renderer(md));
    if (o->n_excluded)
        fprintf(fp, "%zu excluded pairs subtracted on the host after each evaluation "
                "(the engine's forces are read back every step)\n", o->n_excluded);
    if (c->restart)
        fprintf(fp, "steps %llu to %llu, from %s: ", (unsigned long long)c->restart->step,
                (unsigned long long)c->steps, c->args->restart);
    fprintf(fp, "%llu steps of %g in %.3f s: %.3e atom-steps/s; total energy drift "
            "%.3e (%.3e relative)\n", (unsigned long long)steps, c->dt, seconds,
            seconds > 0 ? atom_steps / seconds : 0.0, drift,
            o->first.etotal != 0 ? drift / fabs(o->first.etotal) : 0.0);
    fprintf(fp, "device seconds: K1 %.4f, cell lists %.4f, forces %.4f, K2 %.4f "
            "(%llu force evaluations)\n", t.k1, t.cells, t.force, t.k2,
            (unsigned long long)t.evaluations);
}
