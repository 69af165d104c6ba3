/* md_sim.c - one molecular-dynamics run: the state in double on the host,
 * velocity Verlet (seed 002, Listing 2), and its thermodynamics.
 *
 * Where the engine only evaluates forces (the CPU), the host integrates:
 *   v += dt/2 f/m;  x += dt v;  wrap;  f = F(x);  v += dt/2 f/m
 * so that x, v and f are synchronised at the end of every step.  Where the
 * engine integrates on the device (load, steps, fetch), the host only
 * counts steps and reads the state back on nb_md_sim_sync; a breakdown is
 * then noticed when the state is fetched.
 *
 * The integrator is symplectic and time-reversible: the energy error
 * oscillates with an amplitude O(dt^2) and does not drift, which is what
 * the tests check.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this many particles the kicks and drifts stay on one thread: the
 * fork costs more than the loop. */
#define PARALLEL_MIN 8192

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

/* The first particle with a non-finite value in any of a (3n), b (3n), or
 * SIZE_MAX. */
static size_t first_nonfinite(size_t n, const double *a, const double *b)
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
    if ((bad = first_nonfinite(n, s->x, s->v)) != SIZE_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "particle %lld (index %zu) has a "
                            "non-finite position or velocity",
                            (long long)p->id[bad], bad);
    s->sys = (struct nb_md_system){ .n = n, .type = s->type, .m = s->m,
                                    .q = p->q ? s->q : NULL, .pot = &s->pot,
                                    .box = &s->box, .cell_list = cell_list };
    return NB_OK;
}

/* Checks the system once it is complete, then fills the charges of a set
 * without them from the type table (which needs the types checked). */
static enum nb_status check_system(struct nb_md_sim *s, struct nb_error *err)
{
    enum nb_status st = nb_md_system_check(&s->sys, err);
    if (st == NB_OK && !s->sys.q)
        for (size_t i = 0; i < s->n; i++)
            s->q[i] = s->pot.types.charge[s->type[i] - 1];
    s->sys.q = s->q;
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

/* Prefixes err's message with where it happened ("step 12"). */
static enum nb_status with_prefix(enum nb_status st, const char *where,
                                  struct nb_error *err)
{
    char message[sizeof err->message];

    if (st == NB_OK || !err)
        return st;
    memcpy(message, err->message, sizeof message);
    return nb_error_set(err, st, "%s: %s", where, message);
}

/* Forces at x on the host path; NB_ERR_NUMERIC naming a non-finite one. */
static enum nb_status host_forces(struct nb_md_sim *s, struct nb_error *err)
{
    enum nb_status st = s->engine->forces(s->engine->state, s->x, s->f, s->pe,
                                          s->vir, err);
    size_t bad;

    if (st == NB_OK)
        nb_md_subtract_excluded(&s->sys, s->x, s->f, s->pe, s->vir);
    if (st == NB_OK && (bad = first_nonfinite(s->n, s->f, s->v)) != SIZE_MAX)
        st = nb_error_set(err, NB_ERR_NUMERIC, "particle %zu has a non-finite "
                          "force (%g, %g, %g) or velocity (%g, %g, %g): the "
                          "time step %g may be too large, or particles "
                          "overlap", bad, s->f[3 * bad], s->f[3 * bad + 1],
                          s->f[3 * bad + 2], s->v[3 * bad], s->v[3 * bad + 1],
                          s->v[3 * bad + 2], s->dt);
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

enum nb_status nb_md_sim_init_excluding(struct nb_md_sim *s, const struct nb_particles *p,
                                        const struct nb_md_potential *pot,
                                        const struct nb_md_box *box, int cell_list,
                                        double dt, struct nb_md_engine *engine,
                                        size_t n_excluded, const uint32_t *excluded,
                                        struct nb_error *err)
{
    enum nb_status st;

    memset(s, 0, sizeof *s);
    s->pot = *pot;
    s->box = *box;
    s->dt = dt;
    s->engine = engine;
    if (!(dt > 0.0) || !isfinite(dt))
        return nb_error_set(err, NB_ERR_ARGS, "the MD time step must be a "
                            "finite number > 0, not %g", dt);
    st = check_engine(engine, err);
    if (st == NB_OK)
        st = copy_particles(s, p, cell_list, err);
    if (st == NB_OK)
        st = copy_excluded(s, n_excluded, excluded, err);
    if (st == NB_OK)
        st = check_system(s, err);
    if (st != NB_OK)
        return st;
    /* Exclusions are subtracted on the host, after every evaluation. */
    s->device = engine->load != NULL && n_excluded == 0;
    nb_md_box_wrap(&s->box, s->n, s->x);
    st = engine->setup(engine->state, &s->sys, err);
    if (st == NB_OK && s->device)
        return engine->load(engine->state, s->x, s->v, err);
    if (st == NB_OK)
        st = with_prefix(host_forces(s, err), "initial forces", err);
    s->synced = st == NB_OK;
    return st;
}

/* v += h f / m. */
static void kick(struct nb_md_sim *s, double h)
{
    #pragma omp parallel for schedule(static) if (s->n > PARALLEL_MIN)
    for (size_t i = 0; i < s->n; i++) {
        double c = h / s->m[i];

        for (int k = 0; k < 3; k++)
            s->v[3 * i + k] += c * s->f[3 * i + k];
    }
}

/* x += dt v. */
static void drift(struct nb_md_sim *s)
{
    #pragma omp parallel for schedule(static) if (s->n > PARALLEL_MIN)
    for (size_t k = 0; k < 3 * s->n; k++)
        s->x[k] += s->dt * s->v[k];
}

/* One velocity Verlet step on the host (seed 002 Listing 2: K2 dt/2, K1
 * dt, K2 dt/2, with the forces of K2 in between). */
static enum nb_status host_step(struct nb_md_sim *s, struct nb_error *err)
{
    enum nb_status st;

    kick(s, 0.5 * s->dt);
    drift(s);
    nb_md_box_wrap(&s->box, s->n, s->x);
    st = host_forces(s, err);
    if (st != NB_OK) {
        char where[48];

        snprintf(where, sizeof where, "step %llu",
                 (unsigned long long)s->step + 1);
        return with_prefix(st, where, err);
    }
    kick(s, 0.5 * s->dt);
    s->step++;
    return NB_OK;
}

enum nb_status nb_md_sim_advance(struct nb_md_sim *s, uint64_t count,
                                 struct nb_error *err)
{
    struct nb_md_engine *e = s->engine;
    enum nb_status st = NB_OK;

    if (count == 0)
        return NB_OK;
    if (s->device) {
        st = e->steps(e->state, s->dt, count, err);
        if (st == NB_OK) {
            s->step += count;
            s->synced = 0;
        }
        return st;
    }
    if (!s->synced)
        return nb_error_set(err, NB_ERR_ARGS, "MD step %llu: a failed step "
                            "left the state half-updated; it cannot be "
                            "advanced", (unsigned long long)s->step + 1);
    for (uint64_t k = 0; k < count && st == NB_OK; k++)
        st = host_step(s, err);
    /* The velocities of a failed step are half-kicked: not a state. */
    s->synced = st == NB_OK;
    return st;
}

enum nb_status nb_md_sim_sync(struct nb_md_sim *s, struct nb_error *err)
{
    struct nb_md_engine *e = s->engine;
    enum nb_status st;
    size_t bad;

    if (s->synced)
        return NB_OK;
    if (!s->device)
        return nb_error_set(err, NB_ERR_ARGS, "MD step %llu: the state is "
                            "not current (a failed step?) and engine %s "
                            "cannot fetch it", (unsigned long long)s->step,
                            e->name);
    st = e->fetch(e->state, s->x, s->v, s->f, s->pe, s->vir, err);
    if (st != NB_OK)
        return st;
    s->synced = 1;
    bad = first_nonfinite(s->n, s->f, s->v);
    if (bad == SIZE_MAX)
        bad = first_nonfinite(s->n, s->x, s->x);
    if (bad != SIZE_MAX)
        return nb_error_set(err, NB_ERR_NUMERIC, "by step %llu: particle %zu "
                            "has a non-finite position, velocity or force: "
                            "the time step %g may be too large, or particles "
                            "overlap", (unsigned long long)s->step, bad,
                            s->dt);
    return NB_OK;
}

void nb_md_sim_free(struct nb_md_sim *s)
{
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
