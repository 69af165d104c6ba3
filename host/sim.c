/* sim.c - struct nb_sim: one simulation's particles, time, parameters,
 * status and counters, with the force backend it borrows.
 *
 * Everything a run needs hangs off the struct (REBOUND's reb_simulation
 * pattern), so two simulations in one process never share anything.
 * Errors go to the caller's struct nb_error; a failure is sticky (s->failed):
 * after a failed step the state is half-corrected and must not be advanced,
 * so every later step or prediction refuses with the same status.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void nb_sim_params_default(struct nb_sim_params *par)
{
    par->eta = 0.02;
    par->eps = 0.01;
    par->dt_max = 0.125;
    par->shared_dt = 0;
    par->predict = NB_PREDICT_HOST;
    par->correct_gpu = 0;
    par->positions = NB_POSITIONS_FLOAT;
}

enum nb_status nb_sim_apply_positions(const struct nb_sim_params *par,
                                      struct nb_force_backend *b, struct nb_error *err)
{
    if (b->set_positions)
        return b->set_positions(b->state, par->positions, err);
    if (par->positions != NB_POSITIONS_FLOAT && !(b->caps & NB_BACKEND_DOUBLE))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "positions %s: the %s engine's GAJ "
                            "kernel keeps positions in float only",
                            nb_positions_name(par->positions), b->name);
    return NB_OK;
}

/* The largest power of two <= d (d positive and finite). */
static double pow2_floor(double d)
{
    int e;

    frexp(d, &e);               /* d = f 2^e, 0.5 <= f < 1 */
    return ldexp(1.0, e - 1);
}

static enum nb_status check_params(struct nb_sim_params *par, struct nb_error *err)
{
    if (!(par->eta > 0.0) || !isfinite(par->eta))
        return nb_error_set(err, NB_ERR_ARGS, "eta must be a finite number "
                            "> 0, not %g", par->eta);
    if (!(par->eps >= 0.0) || !isfinite(par->eps))
        return nb_error_set(err, NB_ERR_ARGS, "the softening must be a "
                            "finite number >= 0, not %g", par->eps);
    if (!(par->dt_max >= NB_DT_FLOOR) || !(par->dt_max <= NB_T_MAX))
        return nb_error_set(err, NB_ERR_ARGS, "dt_max must be between "
                            "2^-40 and %g, not %g", NB_T_MAX, par->dt_max);
    par->dt_max = pow2_floor(par->dt_max);
    return NB_OK;
}

/* The backend must offer the GAJ kernel, and the device-side state when
 * the particles are to be predicted there; it gets the position format. */
static enum nb_status check_backend(const struct nb_sim *s,
                                    struct nb_force_backend *b,
                                    struct nb_error *err)
{
    if (!b->set_j || !b->compute_gaj || !b->read_gaj)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "backend %s has no "
                            "GAJ kernel (set_j, compute_gaj, read_gaj)",
                            b->name);
    if (s->par.predict == NB_PREDICT_GPU &&
        (!b->load_state || !b->update_state || !b->predict_j))
        return nb_error_set(err, NB_ERR_ARGS, "--predict gpu: backend %s "
                            "keeps no Hermite state on the device (no "
                            "load_state); use --predict host", b->name);
    if (nb_sim_apply_positions(&s->par, b, err) != NB_OK)
        return err->status;
    return nb_sim_check_device_correct(&s->par, b, err);
}

/* Copies ids, masses, positions and velocities (not the types). */
static enum nb_status copy_particles(struct nb_sim *s,
                                     const struct nb_particles *p,
                                     struct nb_error *err)
{
    size_t n = p->n;

    if (n == 0 || n > UINT32_MAX)   /* active indices are uint32_t */
        return nb_error_set(err, NB_ERR_ARGS, "a simulation needs 1 to "
                            "%lu particles, not %zu", (unsigned long)UINT32_MAX,
                            n);
    if (nb_particles_alloc(&s->p, n, err) != NB_OK ||
        !(s->t0 = nb_alloc(n, sizeof *s->t0, "particle times", err)) ||
        !(s->dt = nb_alloc(n, sizeof *s->dt, "particle steps", err)))
        return NB_ERR_NOMEM;
    memcpy(s->p.id, p->id, n * sizeof *p->id);
    memcpy(s->p.m, p->m, n * sizeof *p->m);
    memcpy(s->p.x, p->x, 3 * n * sizeof *p->x);
    memcpy(s->p.v, p->v, 3 * n * sizeof *p->v);
    for (size_t k = 0; k < 3 * n; k++)
        if (!isfinite(p->x[k]) || !isfinite(p->v[k]))
            return nb_error_set(err, NB_ERR_ARGS, "particle %lld (index "
                                "%zu) has a non-finite coordinate",
                                (long long)p->id[k / 3], k / 3);
    return NB_OK;
}

enum nb_status nb_sim_init(struct nb_sim *s, const struct nb_particles *p,
                           const struct nb_sim_params *par,
                           struct nb_force_backend *b, struct nb_error *err)
{
    memset(s, 0, sizeof *s);
    s->par = *par;
    s->backend = b;
    s->sync_t = -1.0;
    s->integrator = &nb_integrator_hermite4;
    enum nb_status st = check_params(&s->par, err);
    if (st == NB_OK)
        st = check_backend(s, b, err);
    if (st == NB_OK)
        st = copy_particles(s, p, err);
    if (st == NB_OK)
        st = s->integrator->create(s, &s->integrator_state, err);
    return s->failed = st;
}

/* A sim whose init or a step failed is half-made or half-corrected. */
static enum nb_status refuse_failed(const struct nb_sim *s, struct nb_error *err)
{
    return nb_error_set(err, s->failed, "the simulation stopped at t = %.17g after "
                        "an earlier error", s->t);
}

enum nb_status nb_sim_step(struct nb_sim *s, struct nb_error *err)
{
    if (s->failed != NB_OK)
        return refuse_failed(s, err);
    return s->failed = s->integrator->step(s, s->integrator_state, err);
}

double nb_sim_next_time(const struct nb_sim *s)
{
    return s->t_next;
}

enum nb_status nb_sim_predict(const struct nb_sim *s, double t, double *x,
                              double *v, struct nb_error *err)
{
    if (s->failed != NB_OK)
        return refuse_failed(s, err);
    if (!(t >= s->t && t <= nb_sim_next_time(s)))
        return nb_error_set(err, NB_ERR_ARGS, "cannot predict to t = %.17g:"
                            " outside [%.17g, %.17g], the last and next block "
                            "times", t, s->t, nb_sim_next_time(s));
    if (s->integrator->sync(s, s->integrator_state, err) != NB_OK)
        return err->status;
    s->integrator->predict(s, s->integrator_state, t, x, v);
    return NB_OK;
}

void nb_sim_free(struct nb_sim *s)
{
    if (s->integrator && s->integrator_state)
        s->integrator->free(s->integrator_state);
    nb_particles_free(&s->p);
    free(s->t0);
    free(s->dt);
    memset(s, 0, sizeof *s);
    s->sync_t = -1.0;
}
