/* hermite_device.c - the Hermite block step with the corrector on the
 * device (--correct gpu): the backend predicts the j-set, evaluates the
 * block's forces and corrects it where its state lives (correct_block),
 * and hands back one record a block particle; the host finds the blocks
 * from the steps' levels and keeps each particle's t0, step and level.
 * No force is read back and no corrected particle sent up, so that a block
 * step costs the host the scan of the levels and one round trip.
 *
 * The correction is the host's (Makino & Aarseth 1992 eqs. 5-9 and the
 * quantised eq. 9 steps of block_clock.c) in the same double operations,
 * so both paths take the same steps; the host's copy of x, v, a, jerk,
 * a2, a3, t0 and dt lags until nb_hermite4_device_sync copies the
 * device's back (the levels are always the host's). */
#include "hermite4.h"

#include <math.h>

enum nb_status nb_sim_check_device_correct(const struct nb_sim_params *par,
                                           const struct nb_force_backend *b,
                                           struct nb_error *err)
{
    if (!par->correct_gpu)
        return NB_OK;
    if (par->predict != NB_PREDICT_GPU)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu needs --predict gpu: "
                            "the device corrects its own copy of the state");
    if (par->shared_dt)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu takes individual steps, "
                            "not --shared-dt");
    if (!b->load_corrector || !b->correct_block || !b->read_corrected)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu: backend %s has no "
                            "corrector on the device (the compute engine has one); use "
                            "--correct host", b->name);
    if (b->partition.ranks > 0)
        return nb_error_set(err, NB_ERR_ARGS, "--correct gpu runs on one GPU, not on "
                            "j-parallel ranks (mpirun): use --correct host");
    return NB_OK;
}

enum nb_status nb_hermite4_device_load(struct nb_sim *s, struct hermite4 *h,
                                       struct split *sp, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    double t0 = nb_clock_seconds();
    enum nb_status st = nb_sim_check_device_correct(&s->par, b, err);

    if (st == NB_OK)
        st = b->load_corrector(b->state, s->p.v, h->a, h->jerk, h->a2, h->a3, h->level,
                               err);
    sp->wall += nb_clock_seconds() - t0;
    h->stale = 0;
    return st;
}

enum nb_status nb_hermite4_device_sync(const struct nb_sim *s, struct hermite4 *h,
                                       struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;

    if (!h->device_corrects || !h->stale)
        return NB_OK;
    /* s is the caller's const view; its arrays are the copy being refreshed */
    if (b->read_corrected(b->state, s->p.x, s->p.v, h->a, h->jerk, h->a2, h->a3, s->t0,
                          err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < s->p.n; i++)
        s->dt[i] = ldexp(1.0, h->level[i] - NB_STEP_LEVEL_OF_ONE);
    h->stale = 0;
    return NB_OK;
}

/* W at the corrected positions of a block of everyone (sync_potential of
 * the host's path): the GAJ potentials less the records' m a1.(x1 - xp). */
static void sync_potential(struct nb_sim *s, const struct hermite4 *h, double t1)
{
    double w = 0.0, dw = 0.0;

    for (size_t i = 0; i < s->p.n; i++) {
        w += 0.5 * s->p.m[i] * h->bpot[i];
        dw += h->dw[i];
    }
    s->sync_t = t1;
    s->sync_epot = w - dw;
}

/* Each slot's record into the host's clock: the new levels, which are all
 * that finding the next blocks needs (t0 and dt follow in sync); the first
 * failure in block order is reported, as the host's corrector reports it.
 * A particle corrected at t1 with a step of level l is next due at
 * t1 + 2^(l - NB_STEP_LEVEL_OF_ONE): the lowest level gives the next time.
 * (Writing t0 and dt here too cost 57 us a block at N = 65536 on the
 * H200's host.) */
static enum nb_status take_records(struct nb_sim *s, struct hermite4 *h, double t1,
                                   double rest, struct nb_error *err)
{
    size_t na = h->n_active, bad = na, small = na;
    int lowest = NB_STEP_LEVELS;

    for (size_t k = 0; k < na; k++) {
        int level = h->record[k];

        if (level >= NB_STEP_LEVELS) {
            bad = level == NB_LEVEL_NOT_FINITE && k < bad ? k : bad;
            small = level == NB_LEVEL_TOO_SMALL && k < small ? k : small;
            continue;
        }
        h->level[h->active[k]] = (uint8_t)level;
        lowest = level < lowest ? level : lowest;
    }
    if (bad < na && bad <= small)
        return nb_hermite4_not_finite(s, h->active[bad], t1, err);
    if (small < na)
        return nb_hermite4_too_small(s, h->active[small], h->crit[small], t1, err);
    double next = lowest < NB_STEP_LEVELS ? t1 + ldexp(1.0, lowest - NB_STEP_LEVEL_OF_ONE)
                                          : INFINITY;
    s->t_next = next < rest ? next : rest;
    return NB_OK;
}

enum nb_status nb_hermite4_device_block(struct nb_sim *s, struct hermite4 *h, double t1,
                                        double rest, struct split *sp,
                                        struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    double t0 = nb_clock_seconds();
    int everyone = h->n_active == s->p.n;
    enum nb_status st = b->partition.ranks > 0
        ? nb_sim_check_device_correct(&s->par, b, err)
        : b->compute_gaj(b->state, s->par.eps, h->n_active, h->active, err);

    if (st == NB_OK)
        st = b->correct_block(b->state, t1, s->par.eta, s->par.dt_max, h->record, h->crit,
                              h->dw, err);
    if (st == NB_OK && everyone)        /* the potentials, for the energy */
        st = b->read_gaj(b->state, h->ba, h->bj, h->bpot, err);
    if (st == NB_OK)
        sp->device += b->last_seconds(b->state);
    sp->wall += nb_clock_seconds() - t0;
    if (st != NB_OK)
        return st;
    h->stale = 1;
    st = take_records(s, h, t1, rest, err);
    if (st == NB_OK && everyone)
        sync_potential(s, h, t1);
    return st;
}
