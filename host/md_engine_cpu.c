/* md_engine_cpu.c - the CPU behind the MD engine table.
 *
 * It keeps a copy of the system (the caller may free its arrays after
 * setup) and evaluates nb_md_cpu_forces.  It integrates nothing itself:
 * load, steps and fetch stay NULL, so nb_md_sim runs velocity Verlet on
 * the host and asks only for forces.  Its timings are wall seconds, all of
 * them under .force (the cell-list build included: it is part of the same
 * call).
 */
#include "nb_host.h"

#include "nb_omp.h"
#include <stdlib.h>
#include <string.h>

struct md_cpu_state {
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;    /* points at the copies below */
    int *type;
    double *m, *q;
    struct nb_md_timings timings;
    char renderer[64];
};

static void free_copies(struct md_cpu_state *s)
{
    free(s->type);
    free(s->m);
    free(s->q);
    s->type = NULL;
    s->m = s->q = NULL;
    memset(&s->sys, 0, sizeof s->sys);
}

static enum nb_status md_cpu_setup(void *state, const struct nb_md_system *sys,
                                   struct nb_error *err)
{
    struct md_cpu_state *s = state;
    size_t n = sys->n;
    enum nb_status st = nb_md_system_require(sys, err);

    free_copies(s);
    if (st != NB_OK)
        return st;
    s->type = nb_alloc(n, sizeof *s->type, "cpu MD types", err);
    s->m = s->type ? nb_alloc(n, sizeof *s->m, "cpu MD masses", err) : NULL;
    s->q = s->m && sys->q ? nb_alloc(n, sizeof *s->q, "cpu MD charges", err)
                          : NULL;
    if (!s->m || (sys->q && !s->q)) {
        free_copies(s);
        return NB_ERR_NOMEM;
    }
    memcpy(s->type, sys->type, n * sizeof *s->type);
    memcpy(s->m, sys->m, n * sizeof *s->m);
    if (sys->q)
        memcpy(s->q, sys->q, n * sizeof *s->q);
    s->pot = *sys->pot;
    s->box = *sys->box;
    s->sys = *sys;
    s->sys.type = s->type;
    s->sys.m = s->m;
    s->sys.q = s->q;
    s->sys.pot = &s->pot;
    s->sys.box = &s->box;
    s->sys.n_excluded = 0;      /* the sim subtracts them, not the engine */
    s->sys.excluded = NULL;
    memset(&s->timings, 0, sizeof s->timings);
    return NB_OK;
}

static enum nb_status md_cpu_forces(void *state, const double *x, double *f,
                                    double *pe, double *vir,
                                    struct nb_error *err)
{
    struct md_cpu_state *s = state;
    double t0;
    enum nb_status st;

    if (!s->type)
        return nb_error_set(err, NB_ERR_ARGS, "cpu MD engine: forces before "
                            "setup");
    t0 = nb_clock_seconds();
    st = nb_md_cpu_forces(&s->sys, x, f, pe, vir, err);
    s->timings.force += nb_clock_seconds() - t0;
    s->timings.evaluations++;
    return st;
}

static void md_cpu_timings(void *state, struct nb_md_timings *t)
{
    *t = ((struct md_cpu_state *)state)->timings;
}

static const char *md_cpu_renderer(void *state)
{
    struct md_cpu_state *s = state;

    snprintf(s->renderer, sizeof s->renderer, "cpu (%d OpenMP threads)",
             omp_get_max_threads());
    return s->renderer;
}

static void md_cpu_destroy(void *state)
{
    if (state) {
        free_copies(state);
        free(state);
    }
}

enum nb_status nb_md_engine_cpu_create(struct nb_md_engine *e,
                                       struct nb_error *err)
{
    struct md_cpu_state *s = nb_alloc(1, sizeof *s, "the cpu MD engine", err);

    memset(e, 0, sizeof *e);
    if (!s)
        return NB_ERR_NOMEM;
    e->name = "cpu";
    e->caps = NB_MD_ENGINE_CELL_LISTS;
    e->state = s;
    e->setup = md_cpu_setup;
    e->forces = md_cpu_forces;
    e->timings = md_cpu_timings;
    e->renderer = md_cpu_renderer;
    e->destroy = md_cpu_destroy;
    return NB_OK;
}
