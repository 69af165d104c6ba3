/* sim_checkpoint.c - a Hermite run saved and continued bit for bit.
 *
 * What the next block step reads is saved exactly: each particle's id,
 * mass, x, v at its own time t0, its step dt, and the integrator's a,
 * jerk, a2, a3 there; the block clock (t, t_next), the potential of the
 * last synchronised block (sync_t, sync_epot), the counters and the
 * parameters.  Everything else is rebuilt by each step before it is read.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The scalars, doubles and 64-bit integers only (no padding). */
struct sim_scalars {
    double t, t_next, sync_t, sync_epot;
    double eta, eps, dt_max;
    uint64_t shared_dt, predict;
    uint64_t block_steps, particle_steps;
};

enum nb_status nb_sim_checkpoint(const struct nb_sim *s, struct nb_ckpt *c,
                                 struct nb_error *err)
{
    size_t n = s->p.n;
    struct sim_scalars sc = {
        .t = s->t, .t_next = s->t_next, .sync_t = s->sync_t, .sync_epot = s->sync_epot,
        .eta = s->par.eta, .eps = s->par.eps, .dt_max = s->par.dt_max,
        .shared_dt = (uint64_t)s->par.shared_dt,
        .predict = (uint64_t)s->par.predict + (s->par.correct_gpu ? 1u : 0u),
        .block_steps = s->stats.block_steps, .particle_steps = s->stats.particle_steps };

    if (s->failed != NB_OK)
        return nb_error_set(err, s->failed, "no checkpoint of a run that stopped "
                            "after an error (its state is half-corrected)");
    if (s->integrator->sync(s, s->integrator_state, err) != NB_OK)
        return err->status;
    if (nb_ckpt_put(c, "SIMS", &sc, sizeof sc, err) != NB_OK ||
        nb_ckpt_put(c, "PID ", s->p.id, n * sizeof *s->p.id, err) != NB_OK ||
        nb_ckpt_put(c, "MASS", s->p.m, n * sizeof *s->p.m, err) != NB_OK ||
        nb_ckpt_put(c, "POS ", s->p.x, 3 * n * sizeof *s->p.x, err) != NB_OK ||
        nb_ckpt_put(c, "VEL ", s->p.v, 3 * n * sizeof *s->p.v, err) != NB_OK ||
        nb_ckpt_put(c, "TIME", s->t0, n * sizeof *s->t0, err) != NB_OK ||
        nb_ckpt_put(c, "STEP", s->dt, n * sizeof *s->dt, err) != NB_OK)
        return err->status;
    /* Apart from SIMS, and only where not float: older files stay readable
     * and a float run's file is as it was. */
    uint64_t positions = (uint64_t)s->par.positions;
    if (s->par.positions != NB_POSITIONS_FLOAT &&
        nb_ckpt_put(c, "XFMT", &positions, sizeof positions, err) != NB_OK)
        return err->status;
    return s->integrator->save(s, s->integrator_state, c, err);
}

static enum nb_status unusable(const char *name, const char *why, struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: %s", name, why);
}

enum nb_status nb_sim_checkpoint_params(const struct nb_ckpt *c, const char *name,
                                        struct nb_sim_params *par, struct nb_error *err)
{
    struct sim_scalars sc;

    if (nb_ckpt_get(c, name, "SIMS", &sc, sizeof sc, err) != NB_OK)
        return err->status;
    nb_sim_params_default(par);
    par->eta = sc.eta;
    par->eps = sc.eps;
    par->dt_max = sc.dt_max;
    par->shared_dt = sc.shared_dt != 0;
    par->predict = sc.predict ? NB_PREDICT_GPU : NB_PREDICT_HOST;
    par->correct_gpu = sc.predict == 2;     /* 2: --correct gpu */
    size_t size = 0;
    const void *fmt = nb_ckpt_find(c, "XFMT", &size);
    uint64_t positions = NB_POSITIONS_FLOAT;
    if (fmt && size == sizeof positions)
        memcpy(&positions, fmt, sizeof positions);
    if ((fmt && size != sizeof positions) || positions >= NB_POSITIONS_COUNT)
        return unusable(name, "its position format is not one this version knows", err);
    par->positions = (enum nb_positions)positions;
    return NB_OK;
}

/* The block clock: every step a power of two in NB_DT_FLOOR..dt_max that
 * divides its t0, t0 <= t < t0 + dt, and t_next the earliest t0 + dt. */
static enum nb_status check_clock(const struct nb_sim *s, const char *name,
                                  struct nb_error *err)
{
    double next = INFINITY;

    if (!(s->t >= 0.0 && s->t < NB_T_MAX))
        return unusable(name, "the block time is out of range", err);
    for (size_t i = 0; i < s->p.n; i++) {
        double dt = s->dt[i], t0 = s->t0[i];
        int e;
        if (!(dt >= NB_DT_FLOOR && dt <= s->par.dt_max) || frexp(dt, &e) != 0.5 ||
            !(t0 >= 0.0 && t0 <= s->t && s->t < t0 + dt) || t0 / dt != floor(t0 / dt))
            return unusable(name, "a particle's time or time step is inconsistent with "
                            "the block clock", err);
        if (t0 + dt < next)
            next = t0 + dt;
        for (size_t c = 3 * i; c < 3 * i + 3; c++)
            if (!isfinite(s->p.x[c]) || !isfinite(s->p.v[c]))
                return unusable(name, "a position or velocity is not finite", err);
    }
    if (next != s->t_next)
        return unusable(name, "the next block time does not match the particles' steps",
                        err);
    return NB_OK;
}

static enum nb_status restore_particles(struct nb_sim *s, const struct nb_ckpt *c,
                                        const char *name, struct nb_error *err)
{
    size_t n = (size_t)c->n;

    if (c->n == 0 || c->n > UINT32_MAX)
        return unusable(name, "the particle count is 0 or above 2^32 - 1", err);
    /* The count is trusted only once the file holds that many positions. */
    if (nb_ckpt_get(c, name, "POS ", NULL, 3 * n * sizeof(double), err) != NB_OK)
        return err->status;
    if (nb_particles_alloc(&s->p, n, err) != NB_OK ||
        !(s->t0 = nb_alloc(n, sizeof *s->t0, "particle times", err)) ||
        !(s->dt = nb_alloc(n, sizeof *s->dt, "particle steps", err)))
        return NB_ERR_NOMEM;
    if (nb_ckpt_get(c, name, "PID ", s->p.id, n * sizeof *s->p.id, err) != NB_OK ||
        nb_ckpt_get(c, name, "MASS", s->p.m, n * sizeof *s->p.m, err) != NB_OK ||
        nb_ckpt_get(c, name, "POS ", s->p.x, 3 * n * sizeof *s->p.x, err) != NB_OK ||
        nb_ckpt_get(c, name, "VEL ", s->p.v, 3 * n * sizeof *s->p.v, err) != NB_OK ||
        nb_ckpt_get(c, name, "TIME", s->t0, n * sizeof *s->t0, err) != NB_OK ||
        nb_ckpt_get(c, name, "STEP", s->dt, n * sizeof *s->dt, err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < n; i++)
        if (!(s->p.m[i] >= 0.0) || !isfinite(s->p.m[i]))
            return unusable(name, "a mass is negative or not finite", err);
    return NB_OK;
}

enum nb_status nb_sim_restore(struct nb_sim *s, const struct nb_ckpt *c, const char *name,
                              const struct nb_sim_params *par,
                              struct nb_force_backend *b, struct nb_error *err)
{
    struct sim_scalars sc;
    enum nb_status st;

    memset(s, 0, sizeof *s);
    s->par = *par;
    s->backend = b;
    s->integrator = &nb_integrator_hermite4;
    s->failed = NB_ERR_ARGS;        /* until the whole state is back */
    if (nb_ckpt_get(c, name, "SIMS", &sc, sizeof sc, err) != NB_OK ||
        restore_particles(s, c, name, err) != NB_OK)
        return err->status;
    if (!b->set_j || !b->compute_gaj || !b->read_gaj)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "backend %s has no GAJ kernel",
                            b->name);
    if (par->predict == NB_PREDICT_GPU && (!b->load_state || !b->update_state ||
                                           !b->predict_j))
        return nb_error_set(err, NB_ERR_ARGS, "--predict gpu: backend %s keeps no "
                            "Hermite state on the device; use --predict host", b->name);
    if (nb_sim_apply_positions(par, b, err) != NB_OK ||
        nb_sim_check_device_correct(par, b, err) != NB_OK)
        return err->status;
    s->t = sc.t;
    s->t_next = sc.t_next;
    s->sync_t = sc.sync_t;
    s->sync_epot = sc.sync_epot;
    s->stats.block_steps = sc.block_steps;
    s->stats.particle_steps = sc.particle_steps;
    if (check_clock(s, name, err) != NB_OK)
        return err->status;
    st = s->integrator->restore(s, &s->integrator_state, c, name, err);
    return s->failed = st;
}
