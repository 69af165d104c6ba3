/* check_precision.c - the accumulation modes of seed 004 Table 1 (A..G)
 * and the int64 fixed-point mode H on the compute backend, against the
 * double-precision CPU reference (nb_cpu_ga), on fresh random inputs
 * (NB_TEST_SEED=S replays).  Inputs are float-representable, so only the
 * kernels' arithmetic is measured.
 *
 * Bounds, with u = 2^-24 and S_i = sum_j |a_ij| (nb_cpu_ga_magnitudes):
 *   A  float sums: rounding grows with the number of additions (~ N u S_i
 *      worst case, ga.comp's tiles bring it to ~ (tile + N / tile) u S_i);
 *      the test bound of check_gpu, 1e-5 S_i.
 *   B, C, F, H  only the float rounding of each pair term (a few u |a_ij|,
 *      inversesqrt included) survives: |da| <= 8 u S_i = 4.8e-7 S_i,
 *      independent of N.  F's 48-bit pair (seed 004 section 3.4) and H's
 *      int64 add at most 2^-48 resp. 2^-62 of the range per addition.
 *   D  Nitadori: as B, plus ls's own float rounding (seed 004 section 3.1:
 *      up to N times 2^-48 of the sum); bound 1e-6 S_i.
 *   E  modified Nitadori: ls collects N errors of up to ulp(LARGE) / 2 each
 *      and rounds its own sum, ~ sqrt(N) u ulp(LARGE) 2^-k; with the scale
 *      2^k measured (the largest sum of |a_ij| at 2^18..2^19) that is
 *      ~1e-7 of the largest S_i: bound 1e-6 S_i, f_err 1e-7.
 *   G  double pair terms and sums: ~ 1e-15 S_i; bound 1e-12.
 * f_err (seed 004 eq. 10) of B, C, E, F, H: <= 1e-7 (the pair rounding
 * averages out; measured 2.7e-8 to 2.9e-8 for all five on llvmpipe, F
 * equal to B as seed 004 Fig. 10 reports).  F needs its measured scale for
 * that: with the analytic bound M 0.385 / eps^2 (2^11 above the actual
 * sums) its 2^-27 quantum gave f_err 2e-7.
 * H: sum_i F_i is exactly zero in the raw int64 sums, and reversing the
 * particle order gives bit-identical sums. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nb_gl.h"
#include "gl_suite.h"
#include "ga_fixtures.h"

#define N_TEST 4096
#define EPS 0.01

static struct nb_gl *gl;
static uint64_t seed;
/* f_err of each mode in the accuracy test, for F against B. */
static double f_err_of[NB_PRECISION_COUNT];

struct run {
    double *acc, *pot;
};

static void evaluate(struct nb_force_backend *b, enum nb_precision mode,
                     const struct nb_particles *p, double eps, double *acc, double *pot)
{
    struct nb_error err = { 0 };
    ck_assert_msg(b->set_precision(b->state, mode, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_particles(b->state, p->n, p->x, p->m, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b->compute(b->state, NB_KERNEL_GA, eps, &err) == NB_OK, "%s: %s",
                  nb_precision_name(mode), err.message);
    for (size_t i = 0; i < 3 * p->n; i++)
        acc[i] = NAN;
    for (size_t i = 0; i < p->n; i++)
        pot[i] = NAN;
    ck_assert_msg(b->read(b->state, acc, pot, &err) == NB_OK, "%s", err.message);
}

static const double max_rel[NB_PRECISION_COUNT] = {
    1e-5, 4.8e-7, 4.8e-7, 1e-6, 1e-6, 4.8e-7, 1e-12, 4.8e-7 };
static const double max_f_err[NB_PRECISION_COUNT] = {
    1e-6, 1e-7, 1e-7, 1e-6, 1e-7, 1e-7, 1e-12, 1e-7 };

START_TEST(modes_match_cpu)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    ga_random_system(&p, N_TEST, seed, _i);
    size_t n = p.n;
    double *ref = calloc(3 * n, 8), *ref_pot = calloc(n, 8), *aabs = calloc(n, 8),
           *pabs = calloc(n, 8), *acc = calloc(3 * n, 8), *pot = calloc(n, 8);
    ck_assert(ref && ref_pot && aabs && pabs && acc && pot);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, EPS, ref, ref_pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, EPS, aabs, pabs, &err), NB_OK);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(b.set_variant(b.state, "t256i8", &err), NB_OK);
    printf("N = %zu random cube, %s masses, eps %g, seed %llu\n", n,
           _i ? "equal" : "unequal", EPS, (unsigned long long)seed);
    printf("mode  max da/|a|  max dphi/|phi|      f_err   f_offset\n");
    for (int m = 0; m < NB_PRECISION_COUNT; m++) {
        struct nb_accuracy q;
        evaluate(&b, (enum nb_precision)m, &p, EPS, acc, pot);
        nb_accuracy_ga(n, p.m, acc, pot, ref, ref_pot, aabs, pabs, &q);
        printf("%-4s  %10.3e  %14.3e  %9.3e  %9.3e\n", nb_precision_name(m),
               q.acc_rel_max, q.pot_rel_max, q.f_err, q.f_offset);
        ck_assert_msg(q.nonfinite == 0 && q.acc_rel_max <= max_rel[m] &&
                      q.pot_rel_max <= max_rel[m] && q.f_err <= max_f_err[m],
                      "precision %s: da %.3g dphi %.3g f_err %.3g over %.3g/%.3g (seed %llu)",
                      nb_precision_name(m), q.acc_rel_max, q.pot_rel_max, q.f_err,
                      max_rel[m], max_f_err[m], (unsigned long long)seed);
        f_err_of[m] = q.f_err;
    }
    /* the summation modes B, C, H improve on A's float sums */
    ck_assert(f_err_of[NB_PRECISION_B] < f_err_of[NB_PRECISION_A] &&
              f_err_of[NB_PRECISION_C] < f_err_of[NB_PRECISION_A] &&
              f_err_of[NB_PRECISION_H] < f_err_of[NB_PRECISION_A]);
    b.destroy(b.state);
    free(ref); free(ref_pot); free(aabs); free(pabs); free(acc); free(pot);
    nb_particles_free(&p);
}
END_TEST

/* Mode H: the raw fixed-point force sums add up to exactly zero, and the
 * reversed particle order gives the same sums bit for bit. */
START_TEST(fixed_point_exact)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, r = { 0 };
    size_t n = 3001;       /* not a multiple of the tile: padding too */
    ga_random_system(&p, n, seed + 7, 0);
    ck_assert_int_eq(nb_particles_alloc(&r, n, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        r.m[i] = p.m[n - 1 - i];
        memcpy(&r.x[3 * i], &p.x[3 * (n - 1 - i)], 3 * sizeof(double));
    }
    int64_t *f = malloc(32 * n), *g = malloc(32 * n);
    double *acc = malloc(24 * n), *pot = malloc(8 * n);
    int ka, kp, ka2, kp2;
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    evaluate(&b, NB_PRECISION_H, &p, EPS, acc, pot);
    ck_assert_int_eq(nb_backend_compute_read_fixed(&b, f, &ka, &kp, &err), NB_OK);
    evaluate(&b, NB_PRECISION_H, &r, EPS, acc, pot);
    ck_assert_int_eq(nb_backend_compute_read_fixed(&b, g, &ka2, &kp2, &err), NB_OK);
    ck_assert_int_eq(ka, ka2);
    uint64_t sum[3] = { 0 };   /* modulo 2^64: exact, no overflow */
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            ck_assert_msg(f[4 * i + c] == g[4 * (n - 1 - i) + c], "particle %zu "
                          "component %d differs with the order reversed (seed %llu)", i, c,
                          (unsigned long long)seed);
            if (c < 3)
                sum[c] += (uint64_t)f[4 * i + c];
        }
    ck_assert_msg(sum[0] == 0 && sum[1] == 0 && sum[2] == 0, "sum of forces %lld %lld %lld "
                  "(units 2^-%d), not zero (seed %llu)", (long long)sum[0],
                  (long long)sum[1], (long long)sum[2], ka, (unsigned long long)seed);
    b.destroy(b.state);
    free(f); free(g); free(acc); free(pot);
    nb_particles_free(&p);
    nb_particles_free(&r);
}
END_TEST

/* Long evaluations are cut into several dispatches (a driver's watchdog),
 * and the ranks of a partition evaluate an i-slice each: neither may
 * change a bit of any i's result, in the double mode G nor in the int64
 * mode H. */
START_TEST(cut_evaluations_same_bits)
{
    static const enum nb_precision modes[] = { NB_PRECISION_G, NB_PRECISION_H };
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, other = { 0 };
    size_t n = 1013, first = 389, end = 757;    /* prime; a slice off the tiles */
    ga_random_system(&p, n, seed + 11, 0);
    ga_random_system(&other, n, seed + 12, 1);
    double *acc = malloc(24 * n), *pot = malloc(8 * n), *acc2 = malloc(24 * n),
           *pot2 = malloc(8 * n);
    ck_assert(acc && pot && acc2 && pot2);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    ck_assert(b.set_i_range != NULL);
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        evaluate(&b, modes[k], &p, EPS, acc, pot);
        /* other's results in every slot, so that none of p's is left over */
        evaluate(&b, modes[k], &other, EPS, acc2, pot2);
        /* 3000 pair terms a dispatch: a tile of 128 i-particles each, 8 in all */
        setenv("GLNBODY_DISPATCH_PAIRS", "3000", 1);
        evaluate(&b, modes[k], &p, EPS, acc2, pot2);
        ck_assert_msg(memcmp(acc, acc2, 24 * n) == 0 && memcmp(pot, pot2, 8 * n) == 0,
                      "mode %s: 8 dispatches differ from one (seed %llu)",
                      nb_precision_name(modes[k]), (unsigned long long)seed);
        evaluate(&b, modes[k], &other, EPS, acc2, pot2);
        b.set_i_range(b.state, first, end);
        evaluate(&b, modes[k], &p, EPS, acc2, pot2);
        unsetenv("GLNBODY_DISPATCH_PAIRS");
        b.set_i_range(b.state, 0, SIZE_MAX);
        ck_assert_msg(memcmp(acc + 3 * first, acc2 + 3 * first, 24 * (end - first)) == 0 &&
                      memcmp(pot + first, pot2 + first, 8 * (end - first)) == 0,
                      "mode %s: the i-slice [%zu, %zu) differs from the whole (seed %llu)",
                      nb_precision_name(modes[k]), first, end, (unsigned long long)seed);
    }
    b.destroy(b.state);
    free(acc); free(pot); free(acc2); free(pot2);
    nb_particles_free(&p);
    nb_particles_free(&other);
}
END_TEST

START_TEST(refusals)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    enum nb_precision mode;
    ck_assert_int_eq(nb_precision_parse("--precision", "I", &mode, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_precision_parse("--precision", "AB", &mode, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_precision_parse("--precision", "h", &mode, &err), NB_OK);
    ck_assert_int_eq(mode, NB_PRECISION_H);
    /* cpu offers no modes; fragment does (check_fragment_precision) */
    ck_assert_int_eq(nb_backend_create(&b, "cpu", gl, &err), NB_OK);
    ck_assert(b.set_precision == NULL);
    b.destroy(b.state);
    ck_assert_int_eq(nb_backend_create(&b, "fragment", gl, &err), NB_OK);
    ck_assert(b.set_precision != NULL);
    b.destroy(b.state);
    /* H needs eps > 0 (its analytic bound) and masses > 0; E and F measure
     * their bound, so eps = 0 works for them until two particles coincide */
    struct nb_particles p = { 0 };
    ga_random_system(&p, 100, seed + 3, 0);
    ck_assert_int_eq(nb_backend_create(&b, "compute", gl, &err), NB_OK);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.0, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "softening") != NULL, "%s", err.message);
    enum nb_precision measured[] = { NB_PRECISION_E, NB_PRECISION_F };
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(b.set_precision(b.state, measured[k], &err), NB_OK);
        ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
        ck_assert_msg(b.compute(b.state, NB_KERNEL_GA, 0.0, &err) == NB_OK, "%s",
                      err.message);
        memcpy(&p.x[3 * 7], &p.x[3 * 8], 3 * sizeof(double));     /* coincide */
        ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
        ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.0, &err), NB_ERR_NUMERIC);
        ck_assert_msg(strstr(err.message, "softening 0") != NULL, "%s", err.message);
        nb_particles_free(&p);
        ga_random_system(&p, 100, seed + 3, 0);
    }
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    p.m[5] = 0.0;
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, EPS, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "mass") != NULL, "%s", err.message);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

static Suite *precision_suite(void)
{
    Suite *s = suite_create("precision");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, modes_match_cpu, 0, 2);
    tcase_add_test(tc, fixed_point_exact);
    tcase_add_test(tc, cut_evaluations_same_bits);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_precision", precision_suite(), &gl, &seed);
}
