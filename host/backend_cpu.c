/* backend_cpu.c - the CPU reference behind the force-backend table.
 *
 * Always available and the tests' oracle: it wraps nb_cpu_ga and
 * nb_cpu_gaj, keeping its own copies of the particles and of the last
 * result.  The GA set (set_particles) and the GAJ j-set (set_j) are kept
 * apart, as on the GPU.  It keeps no Hermite state (load_state,
 * update_state and predict_j stay NULL): --predict gpu is refused. */
#include "nb_host.h"

#include "nb_omp.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const cpu_variants[] = {"newton3", NULL};

struct cpu_state {
    size_t n;
    double *x;              /* 3n */
    double *m;              /* n */
    double *acc;            /* 3n, last result */
    double *pot;            /* n, last result */
    double seconds;         /* duration of the last compute */
    char renderer[64];
    struct cpu_gaj {
        size_t n;           /* j-particles */
        double *x, *v, *m;  /* 3n, 3n, n */
        size_t n_active;    /* i-particles of the last result */
        double *acc, *jerk, *pot;   /* 3n, 3n, n: room for any block */
    } gaj;
    size_t j_first, j_end;  /* the GAJ j-slice summed (set_j_range) */
};

static enum nb_status cpu_set_variant(void *state, const char *variant,
                                      struct nb_error *err)
{
    (void)state;
    if (strcmp(variant, "auto") == 0 || strcmp(variant, "newton3") == 0)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS,
                        "unknown cpu variant '%s' (known: newton3)", variant);
}

static void free_arrays(struct cpu_state *s)
{
    free(s->x);
    free(s->m);
    free(s->acc);
    free(s->pot);
    s->x = s->m = s->acc = s->pot = NULL;
    s->n = 0;
}

static enum nb_status cpu_set_particles(void *state, size_t n,
                                        const double *x, const double *m,
                                        struct nb_error *err)
{
    struct cpu_state *s = state;

    free_arrays(s);
    s->x = nb_alloc(n, 3 * sizeof *s->x, "cpu positions", err);
    s->m = s->x ? nb_alloc(n, sizeof *s->m, "cpu masses", err) : NULL;
    s->acc = s->m ? nb_alloc(n, 3 * sizeof *s->acc, "cpu accelerations", err)
                  : NULL;
    s->pot = s->acc ? nb_alloc(n, sizeof *s->pot, "cpu potentials", err)
                    : NULL;
    if (!s->pot) {
        free_arrays(s);
        return NB_ERR_NOMEM;
    }
    if (n > 0) {
        memcpy(s->x, x, 3 * n * sizeof *x);
        memcpy(s->m, m, n * sizeof *m);
    }
    s->n = n;
    return NB_OK;
}

static enum nb_status cpu_compute(void *state, enum nb_kernel kernel,
                                  double eps, struct nb_error *err)
{
    struct cpu_state *s = state;
    double t0;
    enum nb_status st;

    if (kernel != NB_KERNEL_GA)
        return nb_error_set(err, NB_ERR_UNSUPPORTED,
                            "cpu backend: unsupported kernel %d", (int)kernel);
    t0 = nb_clock_seconds();
    st = nb_cpu_ga(s->n, s->x, s->m, eps, s->acc, s->pot, err);
    s->seconds = nb_clock_seconds() - t0;
    return st;
}

static enum nb_status cpu_read(void *state, double *acc, double *pot,
                               struct nb_error *err)
{
    struct cpu_state *s = state;

    (void)err;
    if (s->n > 0) {
        memcpy(acc, s->acc, 3 * s->n * sizeof *acc);
        memcpy(pot, s->pot, s->n * sizeof *pot);
    }
    return NB_OK;
}

static double cpu_last_seconds(void *state)
{
    return ((struct cpu_state *)state)->seconds;
}

static const char *cpu_variant(void *state)
{
    (void)state;
    return cpu_variants[0];
}

static const char *cpu_renderer(void *state)
{
    struct cpu_state *s = state;

    snprintf(s->renderer, sizeof s->renderer, "cpu (%d OpenMP threads)",
             omp_get_max_threads());
    return s->renderer;
}

static const char *const *cpu_variant_list(void *state)
{
    (void)state;
    return cpu_variants;
}

static void free_gaj(struct cpu_gaj *g)
{
    free(g->x);
    free(g->v);
    free(g->m);
    free(g->acc);
    free(g->jerk);
    free(g->pot);
    memset(g, 0, sizeof *g);
}

/* Arrays for n j-particles and blocks of up to n; kept when n is unchanged,
 * since a run calls set_j with the same n every block step. */
static enum nb_status gaj_reserve(struct cpu_gaj *g, size_t n,
                                  struct nb_error *err)
{
    if (g->x && g->n == n)
        return NB_OK;
    free_gaj(g);
    if (!(g->x = nb_alloc(n, 3 * sizeof(double), "cpu j-positions", err)) ||
        !(g->v = nb_alloc(n, 3 * sizeof(double), "cpu j-velocities", err)) ||
        !(g->m = nb_alloc(n, sizeof(double), "cpu j-masses", err)) ||
        !(g->acc = nb_alloc(n, 3 * sizeof(double), "cpu GAJ accelerations", err)) ||
        !(g->jerk = nb_alloc(n, 3 * sizeof(double), "cpu GAJ jerks", err)) ||
        !(g->pot = nb_alloc(n, sizeof(double), "cpu GAJ potentials", err))) {
        free_gaj(g);
        return NB_ERR_NOMEM;
    }
    g->n = n;
    return NB_OK;
}

static enum nb_status cpu_set_j(void *state, size_t n, const double *x,
                                const double *v, const double *m,
                                struct nb_error *err)
{
    struct cpu_gaj *g = &((struct cpu_state *)state)->gaj;

    if (gaj_reserve(g, n, err) != NB_OK)
        return NB_ERR_NOMEM;
    if (n > 0) {
        memcpy(g->x, x, 3 * n * sizeof *x);
        memcpy(g->v, v, 3 * n * sizeof *v);
        memcpy(g->m, m, n * sizeof *m);
    }
    g->n_active = 0;
    return NB_OK;
}

static enum nb_status cpu_compute_gaj(void *state, double eps, size_t n_active,
                                      const uint32_t *active,
                                      struct nb_error *err)
{
    struct cpu_state *s = state;
    struct cpu_gaj *g = &s->gaj;
    double t0 = nb_clock_seconds();
    enum nb_status st;

    if (n_active > g->n)
        return nb_error_set(err, NB_ERR_ARGS, "cpu GAJ: %zu i-particles but "
                            "only %zu j-particles (call set_j first)",
                            n_active, g->n);
    st = nb_cpu_gaj_slice(g->n, g->x, g->v, g->m, eps, s->j_first, s->j_end, n_active,
                          active, g->acc, g->jerk, g->pot, err);
    s->seconds = nb_clock_seconds() - t0;
    g->n_active = st == NB_OK ? n_active : 0;
    return st;
}

static enum nb_status cpu_read_gaj(void *state, double *acc, double *jerk,
                                   double *pot, struct nb_error *err)
{
    struct cpu_gaj *g = &((struct cpu_state *)state)->gaj;

    (void)err;
    if (g->n_active > 0) {
        memcpy(acc, g->acc, 3 * g->n_active * sizeof *acc);
        memcpy(jerk, g->jerk, 3 * g->n_active * sizeof *jerk);
        memcpy(pot, g->pot, g->n_active * sizeof *pot);
    }
    return NB_OK;
}

static void cpu_set_j_range(void *state, size_t first, size_t end)
{
    struct cpu_state *s = state;

    s->j_first = first;
    s->j_end = end;
}

static void cpu_destroy(void *state)
{
    if (state) {
        free_arrays(state);
        free_gaj(&((struct cpu_state *)state)->gaj);
        free(state);
    }
}

enum nb_status nb_backend_cpu_create(struct nb_force_backend *b,
                                     struct nb_error *err)
{
    struct cpu_state *s = nb_alloc(1, sizeof *s, "the cpu backend", err);

    memset(b, 0, sizeof *b);
    if (!s)
        return NB_ERR_NOMEM;
    b->name = "cpu";
    b->caps = NB_BACKEND_DOUBLE;
    b->state = s;
    b->set_variant = cpu_set_variant;
    b->set_particles = cpu_set_particles;
    b->compute = cpu_compute;
    b->read = cpu_read;
    b->last_seconds = cpu_last_seconds;
    b->variant = cpu_variant;
    b->renderer = cpu_renderer;
    b->variants = cpu_variant_list;
    b->set_j = cpu_set_j;
    b->compute_gaj = cpu_compute_gaj;
    b->read_gaj = cpu_read_gaj;
    b->set_j_range = cpu_set_j_range;
    b->destroy = cpu_destroy;
    s->j_end = SIZE_MAX;
    return NB_OK;
}
