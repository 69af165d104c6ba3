/* measure.c - what bench, compare, precision and run share: the CPU
 * reference, opening force engines and their GL context. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum nb_status nb_reference_make(struct nb_reference *r, const struct nb_particles *p,
                                 double eps, struct nb_error *err)
{
    size_t n = p->n;
    if (!(r->acc = nb_cli_alloc(3 * n, sizeof(double), "reference", err)) ||
        !(r->pot = nb_cli_alloc(n, sizeof(double), "reference", err)) ||
        !(r->acc_abs = nb_cli_alloc(n, sizeof(double), "reference", err)) ||
        !(r->pot_abs = nb_cli_alloc(n, sizeof(double), "reference", err)))
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

enum nb_status nb_gl_cli_open(enum nb_engine engine, const struct nb_gl_cli *g,
                              struct nb_gl **gl, struct nb_error *err)
{
    if (nb_engine_needs_gl(engine) && !*gl)
        return nb_gl_cli_create(g, gl, err);
    return NB_OK;
}

enum nb_status nb_forces_open(struct nb_forces **f, enum nb_engine engine,
                              const struct nb_gl_cli *g, struct nb_gl **gl,
                              struct nb_error *err)
{
    if (nb_gl_cli_open(engine, g, gl, err) != NB_OK)
        return err->status;
    return nb_forces_create(f, *gl, engine, err);
}

enum nb_status nb_check_no_coincident(const char *path, const struct nb_particles *p,
                                      double eps, struct nb_error *err)
{
    size_t i, j;
    int found;

    if (eps > 0.0)
        return NB_OK;
    if (nb_particles_coincident(p, &i, &j, &found, err) != NB_OK)
        return err->status;
    if (!found)
        return NB_OK;
    return nb_error_set(err, NB_ERR_PARSE, "%s: particles %lld and %lld are at the "
                        "same position and the softening is 0, so the force between "
                        "them is undefined (1/0): move one, or give --softening > 0",
                        path, (long long)p->id[i], (long long)p->id[j]);
}
