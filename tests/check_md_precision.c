/* check_md_precision.c - the accumulation modes B..H on the MD all-pairs
 * kernel (nb_md_prec_forces) against the CPU reference nb_md_cpu_forces in
 * double, for seed 004's System 2 kind (LJ, several types with random
 * parameters, no cutoff), LJC and seed 003's ionic crystal; fresh random
 * inputs, NB_TEST_SEED=S replays.  Inputs are float-representable.
 *
 * Bounds per particle and component, with S_i = sum_j |F_ij| counted part
 * by part (md_fixtures.h: LJ's r^-12 and r^-6 parts cancel near the
 * minimum, and float rounding is relative to each part) and u = 2^-24:
 *   B, C, D, F, H  only each float pair term's own rounding survives the
 *      sum: a few u |F_ij| (the LJ powers, pow and exp of the ionic and
 *      sigmoidal laws add a few more), bound 2e-6 S_i, independent of N;
 *   E  as B plus ls's float rounding of up to N errors of ulp(LARGE) / 2
 *      (seed 004 section 3.2): bound 4e-6 S_i;
 *   G  double pair terms and sums: bound 1e-12 S_i.
 * H: the raw int64 sums of all F_i are exactly zero (F_ij = -F_ji in float,
 * bit for bit), and reversing the particle order permutes the per-particle
 * sums without changing a bit. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#define NB_SUITE_LOOP_UNIFORM_PROBE   /* loop_uniform_probe.h */
#include "gl_suite.h"
#include "md_fixtures.h"

static struct nb_gl *gl;
static uint64_t seed;

/* n particles of `types` types, spacing 1.1 (no pair closer than 0.9),
 * open box, no cutoff: System 2's kind. */
static void lattice_system(struct nb_particles *p, struct nb_md_box *box, size_t n,
                           int types, uint64_t s)
{
    md_lattice(p, box, n, types, 1.1, 0.2, 0.0, 0, s);
}

static void random_lj(struct nb_md_potential *pot, enum nb_md_law law, int types, uint64_t s)
{
    md_random_potential(pot, law, types, 0.0, 0, s);
}

static double bound_of(enum nb_precision mode)
{
    return mode == NB_PRECISION_G ? 1e-12 : mode == NB_PRECISION_E ? 4e-6 : 2e-6;
}

static void check_modes(const struct nb_md_system *sys, const double *x, const char *what)
{
    struct nb_error err = { 0 };
    size_t n = sys->n;
    double *ref = calloc(3 * n, sizeof *ref), *pe_ref = calloc(n, sizeof *pe_ref);
    double *vir = calloc(n, sizeof *vir), *f = calloc(3 * n, sizeof *f);
    double *pe = calloc(n, sizeof *pe), *s_abs = calloc(n, sizeof *s_abs);
    double *u_abs = calloc(n, sizeof *u_abs), *w_abs = calloc(n, sizeof *w_abs);
    ck_assert(ref && pe_ref && vir && f && pe && s_abs && u_abs && w_abs);
    ck_assert_msg(nb_md_cpu_forces(sys, x, ref, pe_ref, vir, &err) == NB_OK, "%s",
                  err.message);
    md_pair_magnitudes(sys, x, s_abs, u_abs, w_abs);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        double seconds[2];
        enum nb_status st = nb_md_prec_forces(gl, sys, x, (enum nb_precision)m, f, pe,
                                              seconds, NULL, NULL, &err);
        if (m == NB_PRECISION_G && (sys->pot->law == NB_LAW_IONIC ||
                                    sys->pot->law == NB_LAW_LJC_SIGMOIDAL)) {
            ck_assert_int_eq(st, NB_ERR_UNSUPPORTED);
            ck_assert_msg(strstr(err.message, "double") != NULL, "%s", err.message);
            continue;
        }
        ck_assert_msg(st == NB_OK, "%s mode %s: %s", what, nb_precision_name(m), err.message);
        for (size_t i = 0; i < n; i++)
            for (int a = 0; a < 3; a++)
                ck_assert_msg(fabs(f[3 * i + a] - ref[3 * i + a]) <= bound_of(m) * s_abs[i],
                              "%s mode %s: F[%zu][%d] = %.12g, reference %.12g, S_i %.3g "
                              "(seed %llu)", what, nb_precision_name(m), i, a, f[3 * i + a],
                              ref[3 * i + a], s_abs[i], (unsigned long long)seed);
    }
    free(ref);
    free(pe_ref);
    free(vir);
    free(f);
    free(pe);
    free(s_abs);
    free(u_abs);
    free(w_abs);
}

START_TEST(lj_modes_match_cpu)
{
    static const size_t sizes[] = { 1, 2, 3, 131, 509 };
    static const enum nb_md_law laws[] = { NB_LAW_LJ, NB_LAW_LJC_CONSTANT,
                                           NB_LAW_LJC_SIGMOIDAL };
    for (size_t l = 0; l < 3; l++)
        for (size_t k = 0; k < 5; k++) {
            struct nb_particles p = { 0 };
            struct nb_md_box box;
            struct nb_md_potential pot;
            struct nb_md_system sys;
            char what[64];
            lattice_system(&p, &box, sizes[k], 16, seed + k);
            random_lj(&pot, laws[l], 16, seed + k);
            md_system_of(&sys, &p, &pot, &box, 0);
            snprintf(what, sizeof what, "%s n=%zu", nb_md_law_name(laws[l]), sizes[k]);
            check_modes(&sys, p.x, what);
            nb_particles_free(&p);
        }
}
END_TEST

START_TEST(ionic_modes_match_cpu)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    nb_md_potential_default(&pot, NB_LAW_IONIC, 2);
    nb_md_ionic_default(&pot);
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, 3, 1.0, &pot, &err), NB_OK);
    md_system_of(&sys, &p, &pot, &box, 0);
    check_modes(&sys, p.x, "ionic crystal 324");
    nb_particles_free(&p);
}
END_TEST

/* H: exact zero total force, and order independence bit for bit. */
START_TEST(fixed_point_exact)
{
    struct nb_particles p = { 0 }, r = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys, rsys;
    struct nb_error err = { 0 };
    size_t n = 257;
    int log2s[2], rlog2s[2];
    double seconds[2];
    lattice_system(&p, &box, n, 5, seed);
    random_lj(&pot, NB_LAW_LJC_LINEAR, 5, seed);
    md_system_of(&sys, &p, &pot, &box, 0);
    int64_t *fixed = calloc(4 * n, sizeof *fixed), *rfixed = calloc(4 * n, sizeof *rfixed);
    double *f = calloc(3 * n, sizeof *f), *pe = calloc(n, sizeof *pe);
    ck_assert(fixed && rfixed && f && pe);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_H, f, pe, seconds, fixed,
                                       log2s, &err), NB_OK);
    for (int a = 0; a < 3; a++) {
        uint64_t sum = 0;           /* modulo 2^64: exact, no overflow */
        for (size_t i = 0; i < n; i++)
            sum += (uint64_t)fixed[4 * i + a];
        ck_assert_msg(sum == 0, "sum of F[%d] in fixed point: %lld", a, (long long)sum);
    }
    ck_assert_int_eq(nb_particles_alloc(&r, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(&r, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_charges(&r, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        size_t k = n - 1 - i;
        memcpy(&r.x[3 * i], &p.x[3 * k], 3 * sizeof(double));
        r.type[i] = p.type[k];
        r.q[i] = p.q[k];
        r.m[i] = p.m[k];
    }
    md_system_of(&rsys, &r, &pot, &box, 0);
    ck_assert_int_eq(nb_md_prec_forces(gl, &rsys, r.x, NB_PRECISION_H, f, pe, seconds,
                                       rfixed, rlog2s, &err), NB_OK);
    ck_assert(log2s[0] == rlog2s[0] && log2s[1] == rlog2s[1]);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            ck_assert_msg(fixed[4 * i + c] == rfixed[4 * (n - 1 - i) + c],
                          "particle %zu component %d differs after reversing the order", i, c);
    free(fixed);
    free(rfixed);
    free(f);
    free(pe);
    nb_particles_free(&p);
    nb_particles_free(&r);
}
END_TEST

START_TEST(refusals)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    double f[3 * 8], pe[8], seconds[2];
    lattice_system(&p, &box, 8, 1, seed);
    random_lj(&pot, NB_LAW_LJ, 1, seed);
    md_system_of(&sys, &p, &pot, &box, 0);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_A, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_ARGS);
    pot.cutoff = 2.5;
    sys.cell_list = 1;
    for (int a = 0; a < 3; a++)
        box.hi[a] = 10.0;           /* room for 3 cells: the cell kernel takes it */
    ck_assert_msg(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_B, f, pe, seconds, NULL,
                                    NULL, &err) == NB_OK, "%s", err.message);
    pot.cutoff = 0.0;               /* cells without a cutoff: nb_md_system_check's */
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_B, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "cutoff") != NULL, "%s", err.message);
    nb_particles_free(&p);
}
END_TEST

static Suite *md_precision_suite(void)
{
    Suite *s = suite_create("md_precision");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, lj_modes_match_cpu);
    tcase_add_test(tc, ionic_modes_match_cpu);
    tcase_add_test(tc, fixed_point_exact);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_md_precision", md_precision_suite(), &gl, &seed);
}
