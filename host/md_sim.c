/* md_sim.c - one molecular-dynamics run: the state in double on the host,
 * checked once, the engine set up on it, the steps through the velocity
 * Verlet integrator (integrator_verlet.c), and its thermodynamics.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static enum nb_status alloc_state(struct nb_md_sim *s, size_t n,
                                  struct nb_error *err)
{
    if (!(s->type = nb_alloc(n, sizeof *s->type, "MD types", err)) ||
        !(s->m = nb_alloc(n, sizeof *s->m, "MD masses", err)) ||
        !(s->q = nb_alloc(n, sizeof *s->q, "MD charges", err)) ||
        !(s->x = nb_alloc(n, 3 * sizeof *s->x, "MD positions", err)) ||
        !(s->v = nb_alloc(n, 3 * sizeof *s->v, "MD velocities", err)) ||
        !(s->f = nb_alloc(n, 3 * sizeof *s->f, "MD forces", err)) ||
        !(s->pe = nb_alloc(n, sizeof *s->pe, "MD energies", err)) ||
        !(s->vir = nb_alloc(n, sizeof *s->vir, "MD virials", err)))
        return NB_ERR_NOMEM;
    s->n = n;
    return NB_OK;
}

size_t nb_md_first_nonfinite(size_t n, const double *a, const double *b)
{
    for (size_t k = 0; k < 3 * n; k++)
        if (!isfinite(a[k]) || !isfinite(b[k]))
            return k / 3;
    return SIZE_MAX;
}

/* Copies p into s and describes it in s->sys; charges from p or, where p
 * has none, from the type table (after the types are checked). */
static enum nb_status copy_particles(struct nb_md_sim *s,
                                     const struct nb_particles *p,
                                     int cell_list, struct nb_error *err)
{
    size_t n = p->n, bad;

    if (!p->type)
        return nb_error_set(err, NB_ERR_ARGS, "molecular dynamics needs "
                            "particle types (numbered from 1), and the "
                            "particles have none");
    if (n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "an MD system needs at least one "
                            "particle");
    if (alloc_state(s, n, err) != NB_OK)
        return NB_ERR_NOMEM;
    memcpy(s->type, p->type, n * sizeof *p->type);
    memcpy(s->m, p->m, n * sizeof *p->m);
    memcpy(s->x, p->x, 3 * n * sizeof *p->x);
    memcpy(s->v, p->v, 3 * n * sizeof *p->v);
    if (p->q)
        memcpy(s->q, p->q, n * sizeof *p->q);
    if ((bad = nb_md_first_nonfinite(n, s->x, s->v)) != SIZE_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "particle %lld (index %zu) has a "
                            "non-finite position or velocity",
                            (long long)p->id[bad], bad);
    s->sys = (struct nb_md_system){ .n = n, .type = s->type, .m = s->m,
                                    .q = p->q ? s->q : NULL, .pot = &s->pot,
                                    .box = &s->box, .cell_list = cell_list };
    return NB_OK;
}

/* Checks the system once it is complete, then fills the charges of a set
 * without them from the type table (which needs the types checked).  The
 * engines trust the system from here on (sys.checked). */
static enum nb_status check_system(struct nb_md_sim *s, struct nb_error *err)
{
    enum nb_status st = nb_md_system_check(&s->sys, err);
    if (st == NB_OK && !s->sys.q)
        for (size_t i = 0; i < s->n; i++)
            s->q[i] = s->pot.types.charge[s->type[i] - 1];
    s->sys.q = s->q;
    s->sys.checked = st == NB_OK;
    return st;
}

/* The engine must integrate wholly on the device or not at all. */
static enum nb_status check_engine(const struct nb_md_engine *e,
                                   struct nb_error *err)
{
    int device = (e->load != NULL) + (e->steps != NULL) + (e->fetch != NULL);

    if (!e->setup || !e->forces)
        return nb_error_set(err, NB_ERR_ARGS, "MD engine %s has no setup or "
                            "forces", e->name);
    if (device != 0 && device != 3)
        return nb_error_set(err, NB_ERR_ARGS, "MD engine %s offers only part "
                            "of device integration (load, steps, fetch)",
                            e->name);
    return NB_OK;
}

/* The excluded pairs, owned by s, into s->sys. */
static enum nb_status copy_excluded(struct nb_md_sim *s, size_t count,
                                    const uint32_t *pairs, struct nb_error *err)
{
    if (count == 0)
        return NB_OK;
    s->excluded = nb_alloc(2 * count, sizeof *s->excluded, "excluded pairs", err);
    if (!s->excluded)
        return NB_ERR_NOMEM;
    memcpy(s->excluded, pairs, 2 * count * sizeof *pairs);
    s->sys.n_excluded = count;
    s->sys.excluded = s->excluded;
    return NB_OK;
}

enum nb_status nb_md_sim_prepare(struct nb_md_sim *s, const struct nb_particles *p,
                                 const struct nb_md_potential *pot,
                                 const struct nb_md_box *box, int cell_list, double dt,
                                 size_t n_excluded, const uint32_t *excluded,
                                 struct nb_error *err)
{
    enum nb_status st;

    memset(s, 0, sizeof *s);
    s->pot = *pot;
    s->box = *box;
    s->dt = dt;
    if (!(dt > 0.0) || !isfinite(dt))
        return nb_error_set(err, NB_ERR_ARGS, "the MD time step must be a "
                            "finite number > 0, not %g", dt);
    st = copy_particles(s, p, cell_list, err);
    if (st == NB_OK)
        st = copy_excluded(s, n_excluded, excluded, err);
    if (st == NB_OK)
        st = check_system(s, err);
    if (st == NB_OK)
        nb_md_box_wrap(&s->box, s->n, s->x);
    return st;
}

enum nb_status nb_md_sim_start(struct nb_md_sim *s, struct nb_md_engine *engine,
                               int cell_list, struct nb_error *err)
{
    enum nb_status st;

    s->engine = engine;
    if (!s->sys.checked)
        return nb_error_set(err, NB_ERR_ARGS, "an MD run starts after a successful "
                            "nb_md_sim_prepare");
    if (cell_list && !s->sys.cell_list)
        return nb_error_set(err, NB_ERR_ARGS, "MD: cell lists were not checked for "
                            "this system (prepared without them)");
    s->sys.cell_list = cell_list;   /* dropping them drops only requirements */
    st = check_engine(engine, err);
    if (st == NB_OK)
        st = engine->setup(engine->state, &s->sys, err);
    if (st == NB_OK) {
        s->integrator = &nb_integrator_verlet;
        st = s->integrator->create(s, &s->integrator_state, err);
    }
    return st;
}

enum nb_status nb_md_sim_init(struct nb_md_sim *s, const struct nb_particles *p,
                              const struct nb_md_potential *pot,
                              const struct nb_md_box *box, int cell_list,
                              double dt, struct nb_md_engine *engine,
                              struct nb_error *err)
{
    return nb_md_sim_init_excluding(s, p, pot, box, cell_list, dt, engine, 0, NULL, err);
}

enum nb_status nb_md_sim_init_excluding(struct nb_md_sim *s, const struct nb_particles *p,
                                        const struct nb_md_potential *pot,
                                        const struct nb_md_box *box, int cell_list,
                                        double dt, struct nb_md_engine *engine,
                                        size_t n_excluded, const uint32_t *excluded,
                                        struct nb_error *err)
{
    enum nb_status st = nb_md_sim_prepare(s, p, pot, box, cell_list, dt, n_excluded,
                                          excluded, err);
    return st == NB_OK ? nb_md_sim_start(s, engine, cell_list, err) : st;
}

/* A sim whose init failed has no integrator to ask. */
static enum nb_status not_started(const struct nb_md_sim *s, struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_ARGS, "MD step %llu: the run did not start "
                        "(its init failed); it cannot be advanced or synced",
                        (unsigned long long)s->step);
}

enum nb_status nb_md_sim_advance(struct nb_md_sim *s, uint64_t count,
                                 struct nb_error *err)
{
    if (!s->integrator_state)
        return count == 0 ? NB_OK : not_started(s, err);
    return s->integrator->step(s, s->integrator_state, count, err);
}

enum nb_status nb_md_sim_sync(struct nb_md_sim *s, struct nb_error *err)
{
    if (!s->integrator_state)
        return not_started(s, err);
    return s->integrator->sync(s, s->integrator_state, err);
}

void nb_md_sim_free(struct nb_md_sim *s)
{
    if (s->integrator)
        s->integrator->free(s->integrator_state);      /* NULL: a no-op */
    free(s->type);
    free(s->m);
    free(s->q);
    free(s->x);
    free(s->v);
    free(s->f);
    free(s->pe);
    free(s->vir);
    free(s->excluded);
    memset(s, 0, sizeof *s);
}

/* ---- thermodynamics ----------------------------------------------------- */

void nb_md_thermo(const struct nb_md_sim *s, struct nb_md_thermo *th)
{
    double mass = 0.0, w = 0.0, volume = 1.0;

    memset(th, 0, sizeof *th);
    th->step = s->step;
    th->time = (double)s->step * s->dt;
    for (size_t i = 0; i < s->n; i++) {
        const double *x = &s->x[3 * i], *v = &s->v[3 * i];
        double m = s->m[i];

        th->ke += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        th->pe += s->pe[i];
        w += s->vir[i];         /* half of each pair's r.F, twice: W */
        mass += m;
        for (int k = 0; k < 3; k++) {
            th->p[k] += m * v[k];
            th->com[k] += m * x[k];
        }
        th->l[0] += m * (x[1] * v[2] - x[2] * v[1]);
        th->l[1] += m * (x[2] * v[0] - x[0] * v[2]);
        th->l[2] += m * (x[0] * v[1] - x[1] * v[0]);
    }
    for (int k = 0; k < 3; k++) {
        th->com[k] = mass > 0.0 ? th->com[k] / mass : 0.0;
        volume *= s->box.hi[k] - s->box.lo[k];
    }
    th->etotal = th->ke + th->pe;
    /* Three degrees of freedom less for the conserved momentum. */
    th->temp = s->n > 1 ? 2.0 * th->ke / (3.0 * (double)s->n - 3.0) : 0.0;
    th->press = (2.0 * th->ke + w) / (3.0 * volume);
}
