/* measure.c - what bench, compare and precision share: timing a backend,
 * the CPU reference, opening backends by name. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum nb_status nb_measure_ga(struct nb_force_backend *b, const struct nb_particles *p,
                             double eps, int warmup, int runs, double *median,
                             struct nb_error *err)
{
    double *seconds = nb_alloc((size_t)(runs > 0 ? runs : 1), sizeof *seconds,
                               "timings", err);
    if (!seconds)
        return NB_ERR_NOMEM;
    enum nb_status st = b->set_particles(b->state, p->n, p->x, p->m, err);
    for (int k = 0; st == NB_OK && k < warmup + runs; k++) {
        st = b->compute(b->state, NB_KERNEL_GA, eps, err);
        if (k >= warmup)
            seconds[k - warmup] = b->last_seconds(b->state);
    }
    if (st == NB_OK)
        *median = nb_median(seconds, (size_t)runs);
    free(seconds);
    return st;
}

enum nb_status nb_reference_make(struct nb_reference *r, const struct nb_particles *p,
                                 double eps, struct nb_error *err)
{
    size_t n = p->n;
    if (!(r->acc = nb_alloc(3 * n, sizeof(double), "reference", err)) ||
        !(r->pot = nb_alloc(n, sizeof(double), "reference", err)) ||
        !(r->acc_abs = nb_alloc(n, sizeof(double), "reference", err)) ||
        !(r->pot_abs = nb_alloc(n, sizeof(double), "reference", err)))
        return NB_ERR_NOMEM;
    if (nb_cpu_ga(n, p->x, p->m, eps, r->acc, r->pot, err) != NB_OK)
        return err->status;
    return nb_cpu_ga_magnitudes(n, p->x, p->m, eps, r->acc_abs, r->pot_abs, err);
}

void nb_reference_free(struct nb_reference *r)
{
    free(r->acc);
    free(r->pot);
    free(r->acc_abs);
    free(r->pot_abs);
}

enum nb_status nb_engine_choice_parse(const char *name, const struct nb_engine_choice **out,
                                      struct nb_error *err)
{
    static const struct nb_engine_choice choices[NB_ENGINE_KINDS] = {
        { "cpu", NB_ENGINE_CPU, 0 },
        { "compute", NB_ENGINE_COMPUTE, 1 },
        { "fragment", NB_ENGINE_FRAGMENT, 1 },
    };
    for (size_t k = 0; k < NB_ENGINE_KINDS; k++)
        if (strcmp(name, choices[k].name) == 0) {
            if (out)
                *out = &choices[k];
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "unknown backend '%s' (cpu, compute or "
                        "fragment)", name);
}

/* The context c needs, opened once into *gl. */
static enum nb_status open_gl(const struct nb_engine_choice *c, const struct nb_gl_cli *g,
                              struct nb_gl **gl, struct nb_error *err)
{
    if (c->needs_gl && !*gl)
        return nb_gl_cli_create(g, gl, err);
    return NB_OK;
}

enum nb_status nb_backend_open(struct nb_force_backend *b, const struct nb_engine_choice *c,
                               const struct nb_gl_cli *g, struct nb_gl **gl,
                               struct nb_error *err)
{
    if (open_gl(c, g, gl, err) != NB_OK)
        return err->status;
    return nb_backend_create(b, c->name, *gl, err);
}

enum nb_status nb_md_engine_open(struct nb_md_engine *e, const struct nb_engine_choice *c,
                                 const struct nb_gl_cli *g, struct nb_gl **gl,
                                 struct nb_error *err)
{
    if (open_gl(c, g, gl, err) != NB_OK)
        return err->status;
    return nb_md_engine_create(e, c->name, *gl, err);
}
