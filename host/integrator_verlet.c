/* integrator_verlet.c - velocity Verlet (Swope, Andersen, Berens and Wilson
 * 1982) for an MD run, behind struct nb_md_integrator as Hermite is behind
 * struct nb_integrator.
 *
 * Where the engine only evaluates forces (the CPU), the host integrates:
 *   v += dt/2 f/m;  x += dt v;  wrap;  f = F(x);  v += dt/2 f/m
 * so that x, v and f are synchronised at the end of every step.  Where the
 * engine integrates on the device (load, steps, fetch), the host only
 * counts steps and reads the state back on sync; a breakdown is then
 * noticed when the state is fetched.  Excluded pairs are subtracted on the
 * host after every evaluation, so a run with them always takes the host
 * loop.
 *
 * The integrator is symplectic and time-reversible: the energy error
 * oscillates with an amplitude O(dt^2) and does not drift.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this many particles the kicks and drifts stay on one thread: the
 * fork costs more than the loop. */
#define PARALLEL_MIN 8192

/* The one choice the integrator makes at create: where the steps run. */
struct verlet {
    int device;             /* 1: engine->steps, 0: the host loop */
};

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
    if (st == NB_OK && (bad = nb_md_first_nonfinite(s->n, s->f, s->v)) != SIZE_MAX)
        st = nb_error_set(err, NB_ERR_NUMERIC, "particle %zu has a non-finite "
                          "force (%g, %g, %g) or velocity (%g, %g, %g): the "
                          "time step %g may be too large, or particles "
                          "overlap", bad, s->f[3 * bad], s->f[3 * bad + 1],
                          s->f[3 * bad + 2], s->v[3 * bad], s->v[3 * bad + 1],
                          s->v[3 * bad + 2], s->dt);
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

/* A particle whose drift this step is non-finite or crosses half a
 * periodic box (the minimum image is lost; huge positions wrap onto one
 * another, and the blow-up would be reported as a coincident pair), or
 * SIZE_MAX. */
static size_t runaway(const struct nb_md_sim *s, double *moved)
{
    size_t bad = SIZE_MAX;

    for (size_t i = 0; i < s->n && bad == SIZE_MAX; i++)
        for (int k = 0; k < 3; k++) {
            double d = s->dt * s->v[3 * i + k];
            double half = 0.5 * (s->box.hi[k] - s->box.lo[k]);

            if (!isfinite(d) || !isfinite(s->x[3 * i + k] + d) ||
                (s->box.periodic[k] && fabs(d) > half)) {
                *moved = d;
                bad = i;
                break;
            }
        }
    return bad;
}

/* One velocity Verlet step on the host (seed 002 Listing 2: K2 dt/2, K1
 * dt, K2 dt/2, with the forces of K2 in between). */
static enum nb_status host_step(struct nb_md_sim *s, struct nb_error *err)
{
    enum nb_status st;
    double moved = 0.0;
    size_t bad;

    kick(s, 0.5 * s->dt);
    if ((bad = runaway(s, &moved)) != SIZE_MAX)
        return nb_error_set(err, NB_ERR_NUMERIC, "step %llu: the system blew up: "
                            "particle %zu would move %g in one step (velocity %g, %g, "
                            "%g), beyond half the box: the time step %g is too large "
                            "for the forces, or particles overlap",
                            (unsigned long long)s->step + 1, bad, moved, s->v[3 * bad],
                            s->v[3 * bad + 1], s->v[3 * bad + 2], s->dt);
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

/* Chooses device or host steps, then loads the state (device) or
 * evaluates the initial forces (host). */
static enum nb_status verlet_create(struct nb_md_sim *s, void **state,
                                    struct nb_error *err)
{
    struct verlet *v = nb_alloc(1, sizeof *v, "the Verlet integrator", err);
    enum nb_status st;

    *state = v;
    if (!v)
        return NB_ERR_NOMEM;
    v->device = s->engine->load != NULL && s->sys.n_excluded == 0;
    s->device = v->device;
    if (v->device)
        return s->engine->load(s->engine->state, s->x, s->v, err);
    st = with_prefix(host_forces(s, err), "initial forces", err);
    s->synced = st == NB_OK;
    return st;
}

static enum nb_status verlet_step(struct nb_md_sim *s, void *state, uint64_t count,
                                  struct nb_error *err)
{
    const struct verlet *v = state;
    struct nb_md_engine *e = s->engine;
    enum nb_status st = NB_OK;

    if (count == 0)
        return NB_OK;
    if (v->device) {
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

static enum nb_status verlet_sync(struct nb_md_sim *s, void *state,
                                  struct nb_error *err)
{
    const struct verlet *v = state;
    struct nb_md_engine *e = s->engine;
    enum nb_status st;
    size_t bad;

    if (s->synced)
        return NB_OK;
    if (!v->device)
        return nb_error_set(err, NB_ERR_ARGS, "MD step %llu: the state is "
                            "not current (a failed step?) and engine %s "
                            "cannot fetch it", (unsigned long long)s->step,
                            e->name);
    st = e->fetch(e->state, s->x, s->v, s->f, s->pe, s->vir, err);
    if (st != NB_OK)
        return st;
    s->synced = 1;
    bad = nb_md_first_nonfinite(s->n, s->f, s->v);
    if (bad == SIZE_MAX)
        bad = nb_md_first_nonfinite(s->n, s->x, s->x);
    if (bad != SIZE_MAX)
        return nb_error_set(err, NB_ERR_NUMERIC, "by step %llu: particle %zu "
                            "has a non-finite position, velocity or force: "
                            "the time step %g may be too large, or particles "
                            "overlap", (unsigned long long)s->step, bad,
                            s->dt);
    double moved = 0.0;
    if ((bad = runaway(s, &moved)) != SIZE_MAX)
        return nb_error_set(err, NB_ERR_NUMERIC, "by step %llu: the system blew up: "
                            "particle %zu moves %g a step (velocity %g, %g, %g), beyond "
                            "half the box: the time step %g is too large for the "
                            "forces, or particles overlap", (unsigned long long)s->step,
                            bad, moved, s->v[3 * bad], s->v[3 * bad + 1], s->v[3 * bad + 2],
                            s->dt);
    return NB_OK;
}

static void verlet_free(void *state)
{
    free(state);
}

const struct nb_md_integrator nb_integrator_verlet = {
    .name = "verlet",
    .create = verlet_create,
    .step = verlet_step,
    .sync = verlet_sync,
    .free = verlet_free,
};
