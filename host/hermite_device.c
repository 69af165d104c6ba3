/* hermite_device.c - the Hermite block step with the corrector on the
 * device (--correct gpu): the backend predicts the j-set, finds the block
 * from the steps' levels, evaluates its forces and corrects it where the
 * state lives (find_block, correct_block), and reports how many particles
 * each level holds after it.  From those counts alone the host knows the
 * next block's time and size: no index, force or corrected particle
 * crosses the bus, and a block step costs the host one round trip.
 *
 * The correction is the host's (Makino & Aarseth 1992 eqs. 5-9 and the
 * quantised eq. 9 steps of block_clock.c) in the same double operations,
 * so both paths take the same steps; the host's copy of x, v, a, jerk,
 * a2, a3, t0, dt and the levels lags until nb_hermite4_device_sync copies
 * the device's back. */
#include "hermite4.h"

#include <math.h>
#include <string.h>

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
    if (!b->load_corrector || !b->find_block || !b->correct_block || !b->read_corrected)
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
    memset(h->level_count, 0, sizeof h->level_count);
    for (size_t i = 0; i < s->p.n; i++)
        h->level_count[h->level[i]]++;
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
                          h->level, err) != NB_OK)
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

/* The block's report into the host's clock: the first failure in block
 * order is reported, as the host's corrector reports it; else the counts
 * of the levels give the next block time, the end of the shortest step
 * of any level present (t1 is a multiple of every step after a block:
 * nb_hermite.h). */
static enum nb_status take_report(struct nb_sim *s, struct hermite4 *h, double t1,
                                  const struct nb_block_report *r, struct nb_error *err)
{
    uint64_t levels = 0;

    if (r->bad < h->n_active && r->bad <= r->small)
        return nb_hermite4_not_finite(s, r->bad_particle, t1, err);
    if (r->small < h->n_active)
        return nb_hermite4_too_small(s, r->small_particle, h->crit[r->small], t1, err);
    memcpy(h->level_count, r->level_count, sizeof h->level_count);
    for (int l = 0; l < NB_STEP_LEVELS; l++)
        if (h->level_count[l])
            levels |= (uint64_t)1 << l;
    s->t_next = nb_step_next_ends(levels, t1);
    return NB_OK;
}

/* Particles due at t1: those of level <= the level dividing t1. */
static size_t block_size(const struct hermite4 *h, double t1)
{
    int due = nb_step_dividing_level(t1);
    size_t count = 0;

    for (int l = 0; l <= due && l < NB_STEP_LEVELS; l++)
        count += h->level_count[l];
    return count;
}

enum nb_status nb_hermite4_device_block(struct nb_sim *s, struct hermite4 *h, double t1,
                                        struct split *sp, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    struct nb_block_report report;
    double t0 = nb_clock_seconds();
    enum nb_status st = nb_sim_check_device_correct(&s->par, b, err);

    h->n_active = block_size(h, t1);
    if (st == NB_OK)
        st = b->find_block(b->state, nb_step_dividing_level(t1), h->n_active, err);
    if (st == NB_OK)
        st = b->compute_gaj(b->state, s->par.eps, h->n_active, NULL, err);
    if (st == NB_OK)
        st = b->correct_block(b->state, t1, s->par.eta, s->par.dt_max, &report, h->crit,
                              h->dw, err);
    if (st == NB_OK && h->n_active == s->p.n)   /* the potentials, for the energy */
        st = b->read_gaj(b->state, h->ba, h->bj, h->bpot, err);
    if (st == NB_OK)
        sp->device += b->last_seconds(b->state);
    sp->wall += nb_clock_seconds() - t0;
    if (st != NB_OK)
        return st;
    h->stale = 1;
    st = take_report(s, h, t1, &report, err);
    if (st == NB_OK && h->n_active == s->p.n)
        sync_potential(s, h, t1);
    return st;
}
