/* md_host_fixtures.h - what the host MD suites (check_md_laws,
 * check_md_forces, check_md_dynamics, check_md_checks) share: the run's
 * seed (NB_TEST_SEED replays a run), random systems in the box kinds the
 * force tests cycle through, the CPU forces of a system, the fcc crystal
 * and small typed systems, and the suites' main().  No GL.  Header-only,
 * one copy per suite; its functions are static inline since each suite
 * uses only some of them. */
#ifndef NB_TEST_MD_HOST_FIXTURES_H
#define NB_TEST_MD_HOST_FIXTURES_H

#include "nb_host.h"

#include <check.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------ */

static uint64_t run_seed;       /* set in main, inherited by the forks */

/* A new seed per run (clock, pid), or NB_TEST_SEED when set. */
static inline uint64_t fresh_seed(void)
{
    const char *env = getenv("NB_TEST_SEED");
    struct timespec ts;

    if (env && *env)
        return strtoull(env, NULL, 0);
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
           ((uint64_t)getpid() << 32);
}

/* The run's seed mixed with a per-test salt. */
static inline uint64_t test_seed(uint64_t salt)
{
    return run_seed ^ (salt * UINT64_C(0x9e3779b97f4a7c15));
}

static inline double *alloc_doubles(size_t count)
{
    double *d = calloc(count ? count : 1, sizeof *d);
    ck_assert_ptr_nonnull(d);
    return d;
}

/* A standard normal deviate (Box-Muller). */
static inline double gaussian(struct nb_rng *rng)
{
    double u = 1.0 - nb_rng_uniform(rng), v = nb_rng_uniform(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static inline void assert_message(const struct nb_error *err, const char *want)
{
    ck_assert_msg(strstr(err->message, want) != NULL,
                  "message '%s' lacks '%s'", err->message, want);
}

/* A system with its own arrays: what the tests hand the force code. */
struct test_system {
    size_t n;
    int *type;
    double *m, *q, *x;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;
};

static inline void system_alloc(struct test_system *t, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->type = calloc(n ? n : 1, sizeof *t->type);
    ck_assert_ptr_nonnull(t->type);
    t->m = alloc_doubles(n);
    t->q = alloc_doubles(n);
    t->x = alloc_doubles(3 * n);
    t->sys = (struct nb_md_system){ .n = n, .type = t->type, .m = t->m, .q = t->q,
                                    .pot = &t->pot, .box = &t->box };
}

static inline void system_free(struct test_system *t)
{
    free(t->type);
    free(t->m);
    free(t->q);
    free(t->x);
}

/* Squared minimum-image distance of particles i and j of t. */
static inline double image_r2(const struct test_system *t, size_t i, size_t j)
{
    double r2 = 0.0;

    for (int k = 0; k < 3; k++) {
        double d = t->x[3 * i + k] - t->x[3 * j + k];
        double l = t->box.hi[k] - t->box.lo[k];

        if (t->box.periodic[k])
            d -= l * round(d / l);
        r2 += d * d;
    }
    return r2;
}

/* Three types of random LJ sizes (mixed by Lorentz-Berthelot), charges
 * +-1 and ionic coefficients with cx = q_i q_j; the sigmoidal dielectric
 * a small positive cubic. */
static inline void random_potential(struct nb_md_potential *pot, enum nb_md_law law,
                                    double cutoff, int shift, struct nb_rng *rng)
{
    const int count = 3;

    nb_md_potential_default(pot, law, count);
    for (int i = 0; i < count; i++) {
        pot->types.eps[i][i] = 0.5 + nb_rng_uniform(rng);
        pot->types.sigma[i][i] = 0.8 + 0.4 * nb_rng_uniform(rng);
        pot->types.charge[i] = i % 2 ? -1.0 : 1.0;
        pot->types.mass[i] = 0.5 + nb_rng_uniform(rng);
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    for (int i = 0; i < count; i++)
        for (int j = i; j < count; j++) {
            double c[3] = {pot->types.charge[i] * pot->types.charge[j],
                           0.5 + 0.5 * nb_rng_uniform(rng),
                           6.0 + 6.0 * nb_rng_uniform(rng)};
            memcpy(pot->types.ionic[i][j], c, sizeof c);
            memcpy(pot->types.ionic[j][i], c, sizeof c);
        }
    pot->dielectric = 1.5;
    pot->sigmoid[0] = 0.01;
    pot->sigmoid[1] = 0.05;
    pot->sigmoid[2] = 0.3;
    pot->sigmoid[3] = -0.2;
    pot->cutoff = cutoff;
    pot->shift = shift;
}

/* Box shapes the force tests cycle through. */
enum box_kind {
    BOX_PERIODIC,       /* periodic, 3, 3 and 4 cells */
    BOX_MIXED,          /* periodic x, y; open z with particles outside */
    BOX_OPEN,           /* open, particles also outside the box */
    BOX_OPEN_SMALL,     /* open, 1 and 2 cells per axis */
    BOX_KINDS
};
static const char *const box_names[BOX_KINDS] = {
    "periodic", "mixed", "open", "open-small"
};

/* n random particles of 3 types, no two closer than 0.75 (so that no LJ
 * pair term dwarfs the rest), masses and charges from the type table. */
static inline void random_system(struct test_system *t, size_t n, enum box_kind kind,
                                 enum nb_md_law law, int shift, struct nb_rng *rng)
{
    const double rc = 2.5;
    static const double len[BOX_KINDS][3] = {
        {7.6, 8.3, 10.1}, {7.5, 9.9, 6.0}, {6.0, 8.0, 9.0}, {3.0, 5.5, 4.0}
    };
    double scale = cbrt(fmax(1.0, (double)n / (0.2 * len[kind][0] *
                                  len[kind][1] * len[kind][2])));

    system_alloc(t, n);
    random_potential(&t->pot, law, rc, shift, rng);
    for (int k = 0; k < 3; k++) {
        t->box.lo[k] = -0.5 * len[kind][k] * scale + 0.25 * k;
        t->box.hi[k] = t->box.lo[k] + len[kind][k] * scale;
        t->box.periodic[k] = kind == BOX_PERIODIC ||
                             (kind == BOX_MIXED && k < 2);
    }
    for (size_t i = 0; i < n; i++) {
        int tries = 0;
        double d2min;

        t->type[i] = 1 + (int)(nb_rng_next(rng) % 3);
        t->m[i] = t->pot.types.mass[t->type[i] - 1];
        t->q[i] = t->pot.types.charge[t->type[i] - 1];
        do {        /* random sequential addition */
            for (int k = 0; k < 3; k++) {
                double l = t->box.hi[k] - t->box.lo[k];
                double out = t->box.periodic[k] ? 0.0 : 0.2 * l;
                t->x[3 * i + k] = t->box.lo[k] - out +
                                  (l + 2.0 * out) * nb_rng_uniform(rng);
            }
            d2min = INFINITY;
            for (size_t j = 0; j < i; j++)
                d2min = fmin(d2min, image_r2(t, i, j));
        } while (d2min < 0.75 * 0.75 && ++tries < 1000);
        ck_assert_int_lt(tries, 1000);
    }
}

/* Per particle, sum_j |F_ij| and sum_j |u_ij| over the pairs inside the
 * cutoff: the scales that bound the rounding of f and pe. */
static inline void pair_scales(const struct test_system *t, double *fscale,
                               double *uscale)
{
    struct nb_md_pair_coeff coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double cshift, rc2 = t->pot.cutoff > 0 ? t->pot.cutoff * t->pot.cutoff
                                           : INFINITY;
    int count = t->pot.types.count;

    nb_md_pair_coeffs(&t->pot, coeff, &cshift);
    for (size_t i = 0; i < t->n; i++) {
        fscale[i] = uscale[i] = 0.0;
        for (size_t j = 0; j < t->n; j++) {
            double r2 = image_r2(t, i, j), fr, u;

            if (j == i || r2 >= rc2)
                continue;
            nb_md_pair(&t->pot, &coeff[(t->type[i] - 1) * count +
                                       t->type[j] - 1],
                       cshift, t->q[i] * t->q[j], r2, &fr, &u);
            fscale[i] += fabs(fr) * sqrt(r2);
            uscale[i] += fabs(u);
        }
    }
}

struct forces {
    double *f, *pe, *vir;
};

static inline struct forces forces_alloc(size_t n)
{
    struct forces r = {alloc_doubles(3 * n), alloc_doubles(n),
                       alloc_doubles(n)};
    return r;
}

static inline void forces_free(struct forces *r)
{
    free(r->f);
    free(r->pe);
    free(r->vir);
}

static inline void compute(struct test_system *t, int cell_list, struct forces *r)
{
    struct nb_error err = {NB_OK, ""};

    t->sys.cell_list = cell_list;
    ck_assert_msg(nb_md_cpu_forces(&t->sys, t->x, r->f, r->pe, r->vir, &err)
                  == NB_OK, "seed %llu: %s", (unsigned long long)run_seed,
                  err.message);
}

/* ---- fcc lattice and small typed systems --------------------------------- */

/* cells^3 fcc unit cells at density rho in the periodic box [0, L)^3, LJ
 * 1-1 with rc 2.5 shifted; Gaussian velocities of zero momentum scaled to
 * temperature temp (3n - 3 degrees of freedom). */
static inline void fcc_system(struct nb_particles *p, struct nb_md_potential *pot,
                              struct nb_md_box *box, int cells, double rho,
                              double temp, uint64_t seed)
{
    static const double basis[4][3] = {
        {0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}
    };
    struct nb_error err = {NB_OK, ""};
    size_t n = 4 * (size_t)cells * cells * cells, i = 0;
    double a = cbrt(4.0 / rho), mean[3] = {0, 0, 0}, ke = 0.0, scale;
    struct nb_rng rng;

    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    nb_rng_seed(&rng, seed);
    for (int cx = 0; cx < cells; cx++)
        for (int cy = 0; cy < cells; cy++)
            for (int cz = 0; cz < cells; cz++)
                for (int b = 0; b < 4; b++, i++) {
                    p->x[3 * i] = (cx + basis[b][0]) * a;
                    p->x[3 * i + 1] = (cy + basis[b][1]) * a;
                    p->x[3 * i + 2] = (cz + basis[b][2]) * a;
                    p->type[i] = 1;
                    p->m[i] = 1.0;
                    for (int k = 0; k < 3; k++) {
                        p->v[3 * i + k] = gaussian(&rng);
                        mean[k] += p->v[3 * i + k] / (double)n;
                    }
                }
    for (size_t k = 0; k < 3 * n; k++) {
        p->v[k] -= mean[k % 3];
        ke += 0.5 * p->v[k] * p->v[k];
    }
    scale = n > 1 ? sqrt(temp * (3.0 * (double)n - 3.0) / (2.0 * ke)) : 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        p->v[k] *= scale;
    nb_md_potential_default(pot, NB_LAW_LJ, 1);
    pot->cutoff = 2.5;
    pot->shift = 1;
    for (int k = 0; k < 3; k++) {
        box->lo[k] = 0.0;
        box->hi[k] = cells * a;
        box->periodic[k] = 1;
    }
}

/* Allocates a typed particle set of n with masses 1. */
static inline void typed_particles(struct nb_particles *p, size_t n)
{
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        p->type[i] = 1;
        p->m[i] = 1.0;
    }
}

static inline void open_box(struct nb_md_box *box, double half)
{
    for (int k = 0; k < 3; k++) {
        box->lo[k] = -half;
        box->hi[k] = half;
        box->periodic[k] = 0;
    }
}

/* The suite's main(): a fresh seed (or NB_TEST_SEED), forked tests. */
static inline int run_md_host_suite(const char *name, Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    int failed;

    run_seed = fresh_seed();
    printf("%s: seed %llu (NB_TEST_SEED=%llu replays this run)\n", name,
           (unsigned long long)run_seed, (unsigned long long)run_seed);
    fflush(stdout);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
