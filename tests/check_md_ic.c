/* check_md_ic.c - tests of the MD initial conditions: fcc, seed 002's
 * grid, seed 003's fluorite crystal and its default coefficients.
 *
 * No GL.  main() prints the run's random seed; NB_TEST_SEED=S replays it.
 */
#include "nb_host.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file_fixtures.h"

static uint64_t g_seed;         /* this run's seed, set by main */

/* ---- helpers ------------------------------------------------------------ */

static double kinetic(const struct nb_particles *p)
{
    double k = 0.0;

    for (size_t i = 0; i < 3 * p->n; i++)
        k += 0.5 * p->m[i / 3] * p->v[i] * p->v[i];
    return k;
}

/* |sum m v| and the scale sum |m v| it is compared with. */
static void momentum(const struct nb_particles *p, double *abs_sum,
                     double *scale)
{
    double mom[3] = {0.0, 0.0, 0.0};

    *scale = 0.0;
    for (size_t i = 0; i < 3 * p->n; i++) {
        mom[i % 3] += p->m[i / 3] * p->v[i];
        *scale += fabs(p->m[i / 3] * p->v[i]);
    }
    *abs_sum = sqrt(mom[0] * mom[0] + mom[1] * mom[1] + mom[2] * mom[2]);
}

/* Smallest minimum-image distance between two particles. */
static double min_distance(const struct nb_particles *p,
                           const struct nb_md_box *box)
{
    double best = INFINITY;

    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++) {
            double r2 = 0.0;

            for (int k = 0; k < 3; k++) {
                double d = p->x[3 * i + k] - p->x[3 * j + k];
                double len = box->hi[k] - box->lo[k];

                if (box->periodic[k])
                    d -= len * round(d / len);
                r2 += d * d;
            }
            best = fmin(best, sqrt(r2));
        }
    return best;
}

/* Total potential energy under pot in box: nb_md_cpu_forces, all pairs. */
static double potential_energy(const struct nb_particles *p,
                               const struct nb_md_potential *pot,
                               const struct nb_md_box *box)
{
    struct nb_md_system sys = { .n = p->n, .type = p->type, .m = p->m, .q = p->q,
                                .pot = pot, .box = box };
    double *f = malloc(3 * p->n * sizeof *f), *pe = malloc(p->n * sizeof *pe);
    double *vir = malloc(p->n * sizeof *vir), u = 0.0;
    struct nb_error err = {NB_OK, ""};

    ck_assert(f && pe && vir);
    ck_assert_msg(nb_md_cpu_forces(&sys, p->x, f, pe, vir, &err) == NB_OK, "%s",
                  err.message);
    for (size_t i = 0; i < p->n; i++)
        u += pe[i];
    free(f), free(pe), free(vir);
    return u;
}

/* ---- fcc ----------------------------------------------------------------- */

/* Count, density, box, zero momentum, exact temperature, nearest
 * neighbours at b / sqrt(2); the same seed gives the same lattice. */
START_TEST(test_fcc)
{
    const int cells = 1 + _i * 2;               /* 1 and 3: n = 4 and 108 */
    const double rho = 0.8442, temp = 0.728;
    const uint64_t seed = g_seed ^ 0xfcc;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double b = cbrt(4.0 / rho), len, mom, scale, t;
    size_t n = 4 * (size_t)cells * cells * cells;

    ck_assert_int_eq(nb_md_fcc(&p, &box, cells, rho, temp, seed, &err), NB_OK);
    ck_assert_uint_eq(p.n, n);
    ck_assert_ptr_nonnull(p.type);
    for (int k = 0; k < 3; k++) {
        ck_assert(box.lo[k] == 0.0 && box.periodic[k] == 1);
        ck_assert(fabs(box.hi[k] / (cells * b) - 1.0) < 1e-15);
    }
    len = box.hi[0];
    ck_assert_msg(fabs(n / (len * len * len) / rho - 1.0) < 1e-14,
                  "density %.17g", n / (len * len * len));
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(p.type[i], 1);
        ck_assert(p.m[i] == 1.0);
        ck_assert_int_eq(p.id[i], (int64_t)i + 1);
        for (int k = 0; k < 3; k++)
            ck_assert(p.x[3 * i + k] >= 0.0 && p.x[3 * i + k] < len);
    }
    momentum(&p, &mom, &scale);
    ck_assert_msg(mom < 1e-14 * scale, "seed %llu: |P| %g of %g",
                  (unsigned long long)seed, mom, scale);
    t = 2.0 * kinetic(&p) / (3.0 * n - 3.0);
    ck_assert_msg(fabs(t / temp - 1.0) < 1e-14, "seed %llu: T %.17g",
                  (unsigned long long)seed, t);
    ck_assert_msg(fabs(min_distance(&p, &box) / (b / sqrt(2.0)) - 1.0) < 1e-13,
                  "nearest neighbours at %.17g, not b/sqrt(2) = %.17g",
                  min_distance(&p, &box), b / sqrt(2.0));
    ck_assert_int_eq(nb_md_fcc(&q, &box, cells, rho, temp, seed, &err), NB_OK);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    ck_assert_int_eq(nb_md_fcc(&q, &box, cells, rho, temp, seed + 1, &err),
                     NB_OK);
    ck_assert(memcmp(p.v, q.v, 3 * n * sizeof *p.v) != 0);
    nb_particles_free(&q);
    nb_particles_free(&p);
}
END_TEST

/* T = 0 gives rest; bad arguments are refused, naming the value. */
START_TEST(test_fcc_zero_and_refused)
{
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, 1.0, 0.0, 1, &err), NB_OK);
    for (size_t i = 0; i < 3 * p.n; i++)
        ck_assert(p.v[i] == 0.0);
    nb_particles_free(&p);
    ck_assert_int_eq(nb_md_fcc(&p, &box, 0, 1.0, 1.0, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "cells must be 1.."));
    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, -1.0, 1.0, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "density"));
    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, 1.0, NAN, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "temperature"));
}
END_TEST

/* ---- seed 002's grid ------------------------------------------------------ */

static void lj_potential(struct nb_md_potential *pot, double cutoff)
{
    nb_md_potential_default(pot, NB_LAW_LJ, 1);
    pot->cutoff = cutoff;
    pot->shift = 1;
}

/* E = K + U equals the target to rounding, on the cell-list path (6^3,
 * L = 7.56, rc 2.5: 3 cells) and the all-pairs one (3^3, L = 3.78, rc
 * 1.8: 2 cells); U recomputed independently with all pairs. */
START_TEST(test_grid_energy)
{
    const int side = _i == 0 ? 6 : 3;
    const double rho = 0.5, target = _i == 0 ? -100.0 : 5.0;
    const uint64_t seed = g_seed ^ 0x9d;
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double h = cbrt(1.0 / rho), u, k, mom, scale;

    lj_potential(&pot, _i == 0 ? 2.5 : 1.8);
    ck_assert_msg(nb_md_grid(&p, &box, side, rho, &pot, target, seed, &err) ==
                  NB_OK, "%s", err.message);
    ck_assert_uint_eq(p.n, (size_t)side * side * side);
    for (int a = 0; a < 3; a++) {
        ck_assert(box.periodic[a] == 1);
        /* cbrt is not correctly rounded: the compiler's folded h may
         * differ from the library's in the last place. */
        ck_assert(box.lo[a] == -box.hi[a]);
        ck_assert(fabs(box.hi[a] / (0.5 * side * h) - 1.0) < 1e-15);
    }
    for (size_t i = 0; i < p.n; i++) {
        ck_assert_int_eq(p.type[i], 1);
        for (int a = 0; a < 3; a++)
            ck_assert(p.x[3 * i + a] > box.lo[a] && p.x[3 * i + a] < box.hi[a]);
    }
    ck_assert(fabs(min_distance(&p, &box) / h - 1.0) < 1e-13);
    u = potential_energy(&p, &pot, &box);
    k = kinetic(&p);
    ck_assert_msg(u < target, "U %g not below the target", u);
    ck_assert_msg(fabs(k + u - target) <= 1e-13 * (fabs(k) + fabs(u)),
                  "seed %llu: K %.17g + U %.17g = %.17g, target %g",
                  (unsigned long long)seed, k, u, k + u, target);
    momentum(&p, &mom, &scale);
    ck_assert_msg(mom < 1e-14 * scale, "|P| %g of %g", mom, scale);
    ck_assert_int_eq(nb_md_grid(&q, &box, side, rho, &pot, target, seed, &err),
                     NB_OK);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    nb_particles_free(&p);
}
END_TEST

/* A target below the potential energy, and a box the cutoff does not fit,
 * are refused and leave nothing allocated. */
START_TEST(test_grid_refused)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double u;

    lj_potential(&pot, 2.5);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.5, &pot, 0.0, 3, &err), NB_OK);
    u = potential_energy(&p, &pot, &box);
    nb_particles_free(&p);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.5, &pot, u - 1.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "below the potential energy"));
    assert_particles_empty(&p);
    /* L = 3 * 0.5^(-1/3) = 3.78 < 2 rc */
    ck_assert_int_eq(nb_md_grid(&p, &box, 3, 0.5, &pot, 0.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "half the periodic box"));
    assert_particles_empty(&p);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.0, &pot, 0.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "density"));
}
END_TEST

/* ---- seed 003's fluorite crystal ------------------------------------------ */

/* The default table: charges, masses, cx = q_i q_j, cy, cz = 12, and it
 * passes nb_md_potential_check. */
START_TEST(test_ionic_default)
{
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};
    const struct nb_md_types *t = &pot.types;

    nb_md_ionic_default(&pot);
    ck_assert_msg(nb_md_potential_check(&pot, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_int_eq(pot.law, NB_LAW_IONIC);
    ck_assert_int_eq(t->count, 2);
    ck_assert(t->charge[0] == 2.0 && t->charge[1] == -1.0);
    ck_assert(t->mass[0] == 238.0 / 16.0 && t->mass[1] == 1.0);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            ck_assert(t->ionic[i][j][0] == t->charge[i] * t->charge[j]);
            ck_assert(t->ionic[i][j][2] == 12.0);
            ck_assert(i + j == 0 ? t->ionic[i][j][1] == 0.0
                                 : t->ionic[i][j][1] > 0.5);
        }
    ck_assert(t->ionic[0][1][1] == t->ionic[1][1][1]);
    ck_assert(pot.cutoff == 0.0);
}
END_TEST

/* 12 per cell, types 2:1, ids 1..n, table masses and charges, neutral
 * and dipole-free, open box a beyond the extent, nearest pair sqrt(3)/4 a. */
START_TEST(test_ionic_crystal)
{
    const int cells = 3;
    const double a = 1.25;
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    size_t count[3] = {0, 0, 0};
    double qsum = 0.0, dipole[3] = {0.0, 0.0, 0.0};

    nb_md_ionic_default(&pot);
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, cells, a, &pot, &err), NB_OK);
    ck_assert_uint_eq(p.n, 12u * cells * cells * cells);
    ck_assert_ptr_nonnull(p.q);
    for (size_t i = 0; i < p.n; i++) {
        int t = p.type[i];

        ck_assert(t == 1 || t == 2);
        count[t]++;
        ck_assert_int_eq(p.id[i], (int64_t)i + 1);
        ck_assert(p.m[i] == pot.types.mass[t - 1]);
        ck_assert(p.q[i] == pot.types.charge[t - 1]);
        qsum += p.q[i];
        for (int k = 0; k < 3; k++) {
            dipole[k] += p.q[i] * p.x[3 * i + k];
            ck_assert(p.x[3 * i + k] >= box.lo[k] + a &&
                      p.x[3 * i + k] <= box.hi[k] - a);
            ck_assert(p.v[3 * i + k] == 0.0);
        }
    }
    ck_assert_uint_eq(count[2], 2 * count[1]);
    ck_assert(qsum == 0.0);
    for (int k = 0; k < 3; k++) {
        ck_assert_msg(fabs(dipole[k]) < 1e-12, "dipole %g", dipole[k]);
        ck_assert(box.periodic[k] == 0);
        ck_assert(box.lo[k] == -a && box.hi[k] == (cells + 1) * a);
    }
    ck_assert(fabs(min_distance(&p, &box) / (sqrt(3.0) / 4.0 * a) - 1.0) <
              1e-14);
    nb_particles_free(&p);
    pot.types.count = 1;
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, 1, 1.0, &pot, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "needs types 1"));
    assert_particles_empty(&p);
}
END_TEST

/* Forces and the virial sum of the atoms of one neutral cell near the
 * centre of a 6^3-cell crystal (2592 ions, open box) at lattice constant
 * a, by nb_md_cpu_forces over all pairs. */
static void central_cell(double a, double *f_max, double *virial)
{
    const int cells = 6, mid = 3;
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double *f, *pe, *vir;
    struct nb_md_system sys;
    int inside = 0;

    nb_md_ionic_default(&pot);
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, cells, a, &pot, &err), NB_OK);
    f = malloc(3 * p.n * sizeof *f);
    pe = malloc(p.n * sizeof *pe);
    vir = malloc(p.n * sizeof *vir);
    ck_assert(f && pe && vir);
    sys = (struct nb_md_system){ .n = p.n, .type = p.type, .m = p.m, .q = p.q,
                                 .pot = &pot, .box = &box };
    ck_assert_msg(nb_md_cpu_forces(&sys, p.x, f, pe, vir, &err) == NB_OK, "%s",
                  err.message);
    *f_max = 0.0;
    *virial = 0.0;
    for (size_t i = 0; i < p.n; i++) {
        const double *x = &p.x[3 * i], *fi = &f[3 * i];
        int in = 1;

        /* The cube [mid a, (mid + 1) a): 4 cations, 8 anions, neutral, so
         * a constant potential offset from the surfaces cancels in the
         * virial sum. */
        for (int k = 0; k < 3; k++)
            in &= x[k] >= (mid - 1e-9) * a && x[k] < (mid + 1 - 1e-9) * a;
        if (!in)
            continue;
        inside++;
        *f_max = fmax(*f_max, sqrt(fi[0] * fi[0] + fi[1] * fi[1] +
                                   fi[2] * fi[2]));
        *virial += vir[i];
    }
    ck_assert_int_eq(inside, 12);
    free(f), free(pe), free(vir);
    nb_particles_free(&p);
}

/* Lattice constant 1 is the equilibrium of the default coefficients: in
 * the bulk every force vanishes by symmetry at any a, but the virial (the
 * pressure) changes sign at a = 1.  Bulk virial per cell: -C/a + C/a^10,
 * C = 46.546, so +9.47 at 0.98 and -7.45 at 1.02; the 6^3 crystal gives
 * 9.34, -0.127 and -7.57 (surface effects).  The largest force in that
 * cell, 0.295, is ~3% of one nearest cation-anion Coulomb force 32/3; a
 * polarised crystal (the corner cation at the origin) would give ~29. */
START_TEST(test_ionic_equilibrium)
{
    const double f_pair = 2.0 / (3.0 / 16.0);
    double f_max, w1, w_lo, w_hi, unused;

    central_cell(1.0, &f_max, &w1);
    central_cell(0.98, &unused, &w_lo);
    central_cell(1.02, &unused, &w_hi);
    ck_assert_msg(f_max < 0.04 * f_pair, "max |F| %g in the central cell",
                  f_max);
    ck_assert_msg(w_lo > 5.0 && w_hi < -5.0, "virial %g at a = 0.98, %g at "
                  "1.02", w_lo, w_hi);
    ck_assert_msg(fabs(w1) < 0.03 * fmin(w_lo, -w_hi), "virial %g at a = 1 "
                  "(%g at 0.98, %g at 1.02)", w1, w_lo, w_hi);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *md_ic_suite(void)
{
    Suite *s = suite_create("md_ic");
    TCase *ic = tcase_create("initial conditions");

    tcase_set_timeout(ic, 60);      /* the 2592-ion crystal, 3 times */
    tcase_add_loop_test(ic, test_fcc, 0, 2);
    tcase_add_test(ic, test_fcc_zero_and_refused);
    tcase_add_loop_test(ic, test_grid_energy, 0, 2);
    tcase_add_test(ic, test_grid_refused);
    tcase_add_test(ic, test_ionic_default);
    tcase_add_test(ic, test_ionic_crystal);
    tcase_add_test(ic, test_ionic_equilibrium);
    suite_add_tcase(s, ic);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    g_seed = suite_seed("check_md_ic");
    sr = srunner_create(md_ic_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
