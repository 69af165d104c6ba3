/* measure.c - what bench, compare, precision and run share: the CPU
 * reference, opening force engines and their GL context. */
#include <float.h>
#include <math.h>
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

double nb_range_bound(enum nb_engine engine)
{
    return sqrt(nb_engine_needs_gl(engine) ? FLT_MAX : DBL_MAX) / 4.0;
}

static const char *arithmetic(enum nb_engine engine)
{
    return nb_engine_needs_gl(engine) ? "float" : "double";
}

/* The first value of particle i beyond bound, with its name, or NULL. */
static const char *beyond(const struct nb_particles *p, size_t i, double bound,
                          double *value)
{
    static const char *const names[] = { "x", "y", "z", "vx", "vy", "vz" };
    if (!(fabs(p->m[i]) <= bound)) {
        *value = p->m[i];
        return "m";
    }
    for (int k = 0; k < 6; k++) {
        double v = k < 3 ? p->x[3 * i + k] : p->v[3 * i + k - 3];
        if (!(fabs(v) <= bound)) {
            *value = v;
            return names[k];
        }
    }
    return NULL;
}

enum nb_status nb_check_range(const char *path, const struct nb_particles *p,
                              double eps, enum nb_engine engine, struct nb_error *err)
{
    double bound = nb_range_bound(engine), value = 0.0;
    if (!(eps <= bound))
        return nb_error_set(err, NB_ERR_ARGS, "--softening %g: above %.3g, the largest "
                            "the %s arithmetic of backend %s keeps finite when squared "
                            "(rescale the units%s)", eps, bound, arithmetic(engine),
                            nb_engine_name(engine),
                            nb_engine_needs_gl(engine) ? ", or use --backend cpu" : "");
    for (size_t i = 0; p && i < p->n; i++) {
        const char *name = beyond(p, i, bound, &value);
        if (name)
            return nb_error_set(err, NB_ERR_ARGS, "%s: particle %lld: %s = %g is beyond "
                                "+-%.3g, the largest the %s arithmetic of backend %s "
                                "keeps finite when squared (rescale the units%s)", path,
                                (long long)p->id[i], name, value, bound,
                                arithmetic(engine), nb_engine_name(engine),
                                nb_engine_needs_gl(engine) ? ", or use --backend cpu" : "");
    }
    return NB_OK;
}
