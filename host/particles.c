/* particles.c - allocation of particle sets and the random test input. */
#include "nb_host.h"

#include <stdlib.h>
#include <string.h>

enum nb_status nb_particles_alloc(struct nb_particles *p, size_t n,
                                  struct nb_error *err)
{
    memset(p, 0, sizeof *p);
    p->id = nb_alloc(n, sizeof *p->id, "particle ids", err);
    p->m = p->id ? nb_alloc(n, sizeof *p->m, "particle masses", err) : NULL;
    p->x = p->m ? nb_alloc(n, 3 * sizeof *p->x, "particle positions", err)
                : NULL;
    p->v = p->x ? nb_alloc(n, 3 * sizeof *p->v, "particle velocities", err)
                : NULL;
    if (!p->v) {
        nb_particles_free(p);
        return NB_ERR_NOMEM;
    }
    p->n = n;
    for (size_t i = 0; i < n; i++)
        p->id[i] = (int64_t)i;
    return NB_OK;
}

enum nb_status nb_particles_add_types(struct nb_particles *p,
                                      struct nb_error *err)
{
    if (p->type)
        return NB_OK;
    p->type = nb_alloc(p->n, sizeof *p->type, "particle types", err);
    return p->type ? NB_OK : NB_ERR_NOMEM;
}

enum nb_status nb_particles_add_charges(struct nb_particles *p,
                                        struct nb_error *err)
{
    if (p->q)
        return NB_OK;
    p->q = nb_alloc(p->n, sizeof *p->q, "particle charges", err);
    return p->q ? NB_OK : NB_ERR_NOMEM;
}

void nb_particles_free(struct nb_particles *p)
{
    free(p->id);
    free(p->type);
    free(p->q);
    free(p->m);
    free(p->x);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* Coordinates are rounded to float so that the GPU streams hold exactly
 * the positions the double-precision reference sees: any difference in
 * the results is then the kernels', not the input's.  Rounding can carry
 * a value just below 1 up to exactly 1.0f (probability ~2^-26 each). */
enum nb_status nb_particles_random_cube(struct nb_particles *p, size_t n,
                                        uint64_t seed, struct nb_error *err)
{
    struct nb_rng rng;
    enum nb_status st = nb_particles_alloc(p, n, err);

    if (st != NB_OK)
        return st;
    nb_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        p->m[i] = 1.0 / (double)n;
        for (size_t k = 0; k < 3; k++) {
            double value = 2.0 * nb_rng_uniform(&rng) - 1.0;
            p->x[3 * i + k] = (double)(float)value;
        }
    }
    return NB_OK;
}

/* A position and the particle that has it, for finding coincident ones. */
struct placed { double x[3]; size_t index; };

static int by_position(const void *a, const void *b)
{
    const struct placed *u = a, *v = b;

    for (int k = 0; k < 3; k++)
        if (u->x[k] != v->x[k])
            return (u->x[k] > v->x[k]) - (u->x[k] < v->x[k]);
    return (u->index > v->index) - (u->index < v->index);
}

enum nb_status nb_particles_coincident(const struct nb_particles *p,
                                       size_t *first, size_t *second,
                                       int *found, struct nb_error *err)
{
    struct placed *s = nb_alloc(p->n, sizeof *s, "particle positions", err);

    *found = 0;
    if (!s)
        return NB_ERR_NOMEM;
    for (size_t i = 0; i < p->n; i++) {
        memcpy(s[i].x, &p->x[3 * i], sizeof s[i].x);
        s[i].index = i;
    }
    qsort(s, p->n, sizeof *s, by_position);
    for (size_t k = 1; k < p->n && !*found; k++)
        if (s[k].x[0] == s[k - 1].x[0] && s[k].x[1] == s[k - 1].x[1] &&
            s[k].x[2] == s[k - 1].x[2]) {
            *first = s[k - 1].index;
            *second = s[k].index;
            *found = 1;
        }
    free(s);
    return NB_OK;
}
