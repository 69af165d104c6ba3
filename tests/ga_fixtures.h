/* ga_fixtures.h - the random gravitational system the GA and GAJ suites
 * (check_gpu, check_precision, check_fragment_precision,
 * check_gaj_precision) test on.  Header-only, one copy per suite; include
 * it after <check.h>. */
#ifndef NB_TEST_GA_FIXTURES_H
#define NB_TEST_GA_FIXTURES_H

#include "nb_host.h"

/* n particles in a random cube (nb_particles_random_cube: positions
 * float-representable, zero velocities); unless equal_mass, unequal masses
 * in [0.5, 1.5) / n, float-representable too. */
static inline void ga_random_system(struct nb_particles *p, size_t n, uint64_t s, int equal_mass)
{
    struct nb_error err = { 0 };
    struct nb_rng rng;
    ck_assert_int_eq(nb_particles_random_cube(p, n, s, &err), NB_OK);
    nb_rng_seed(&rng, s ^ 0x9e3779b97f4a7c15ull);
    for (size_t i = 0; i < n && !equal_mass; i++)
        p->m[i] = (double)(float)((0.5 + nb_rng_uniform(&rng)) / (double)n);
}

/* The same with velocities in [-1, 1)^3, float-representable (the GAJ
 * kernel's input). */
static inline void ga_moving_system(struct nb_particles *p, size_t n, uint64_t s)
{
    struct nb_rng rng;
    ga_random_system(p, n, s, 0);
    nb_rng_seed(&rng, s * 7919u + 1u);
    for (size_t k = 0; k < 3 * n; k++)
        p->v[k] = (double)(float)(2.0 * nb_rng_uniform(&rng) - 1.0);
}

#endif
