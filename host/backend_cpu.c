/* backend_cpu.c - the CPU reference behind the force-backend table.
 *
 * Always available and the tests' oracle: it wraps nb_cpu_ga, keeping its
 * own copies of the particles and of the last result. */
#include "nb_host.h"

#include <omp.h>
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

static void cpu_destroy(void *state)
{
    if (state) {
        free_arrays(state);
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
    b->state = s;
    b->set_variant = cpu_set_variant;
    b->set_particles = cpu_set_particles;
    b->compute = cpu_compute;
    b->read = cpu_read;
    b->last_seconds = cpu_last_seconds;
    b->variant = cpu_variant;
    b->renderer = cpu_renderer;
    b->variants = cpu_variant_list;
    b->destroy = cpu_destroy;
    return NB_OK;
}
