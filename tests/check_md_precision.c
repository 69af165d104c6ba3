/* check_md_precision.c - the accumulation modes B..H on the MD all-pairs
 * kernel (nb_md_prec_forces) against the CPU reference nb_md_cpu_forces in
 * double, for seed 004's System 2 kind (LJ, several types with random
 * parameters, no cutoff), LJC and seed 003's ionic crystal; fresh random
 * inputs, NB_TEST_SEED=S replays.  Inputs are float-representable.
 *
 * Bounds per particle and component, with S_i = sum_j |F_ij| counted term
 * by term (LJ's r^-12 and r^-6 parts cancel near the minimum, and float
 * rounding is relative to each part) and u = 2^-24:
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
#include "gl_suite.h"

static struct nb_gl *gl;
static uint64_t seed;

/* n particles of `types` types, jittered cubic lattice of spacing 1.1 (no
 * pair closer than 0.9), random charges, open box. */
static void lattice_system(struct nb_particles *p, struct nb_md_box *box, size_t n,
                           int types, uint64_t s)
{
    struct nb_error err = { 0 };
    struct nb_rng rng;
    int side = 1;
    while ((size_t)side * side * side < n)
        side++;
    nb_rng_seed(&rng, s);
    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_charges(p, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        size_t c[3] = { i % side, (i / side) % side, i / ((size_t)side * side) };
        for (int a = 0; a < 3; a++)
            p->x[3 * i + a] = (double)(float)(1.1 * c[a] + 0.2 * (nb_rng_uniform(&rng) - 0.5));
        p->type[i] = 1 + (int)(nb_rng_uniform(&rng) * types);
        p->q[i] = (double)(float)(nb_rng_uniform(&rng) - 0.5);
        p->m[i] = 1.0;
    }
    for (int a = 0; a < 3; a++) {
        box->lo[a] = -1.0;
        box->hi[a] = 1.1 * side + 1.0;
        box->periodic[a] = 0;
    }
}

static void random_lj(struct nb_md_potential *pot, enum nb_md_law law, int types, uint64_t s)
{
    struct nb_rng rng;
    nb_rng_seed(&rng, s ^ 0xabcdefu);
    nb_md_potential_default(pot, law, types);
    for (int t = 0; t < types; t++) {
        pot->types.eps[t][t] = 0.5 + nb_rng_uniform(&rng);
        pot->types.sigma[t][t] = 0.8 + 0.2 * nb_rng_uniform(&rng);
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    pot->dielectric = 2.0;
}

/* The magnitude of one pair's force counted term by term (the r^-12 and
 * r^-6 parts of LJ, Coulomb, the ionic repulsion): near the LJ minimum the
 * terms cancel, and float rounding is relative to them, not to their sum. */
static double pair_magnitude(const struct nb_md_potential *pot,
                             const struct nb_md_pair_coeff *c, double cshift, double qq,
                             double r2)
{
    struct nb_md_pair_coeff part[4] = { *c, *c, *c, *c };
    double sum = 0.0, fr, u;
    part[0].c6 = part[0].cx = part[0].a = 0.0;          /* r^-12 */
    part[1].c12 = part[1].cx = part[1].a = 0.0;         /* r^-6 */
    part[2].c12 = part[2].c6 = part[2].a = 0.0;         /* ionic Coulomb */
    part[3].c12 = part[3].c6 = part[3].cx = 0.0;        /* ionic repulsion */
    for (int k = 0; k < 4; k++) {
        nb_md_pair(pot, &part[k], cshift, 0.0, r2, &fr, &u);
        sum += fabs(fr);
    }
    if (qq != 0.0 && pot->law != NB_LAW_IONIC) {        /* the LJC Coulomb part */
        struct nb_md_pair_coeff none = { 0 };
        nb_md_pair(pot, &none, cshift, qq, r2, &fr, &u);
        sum += fabs(fr);
    }
    return sum * sqrt(r2);
}

/* S_i = sum_j of pair_magnitude over all pairs (open box, no cutoff). */
static void magnitudes(const struct nb_md_system *sys, const double *x, double *s_abs)
{
    struct nb_md_pair_coeff c[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double cshift;
    int t = sys->pot->types.count;
    nb_md_pair_coeffs(sys->pot, c, &cshift);
    for (size_t i = 0; i < sys->n; i++) {
        s_abs[i] = 0.0;
        for (size_t j = 0; j < sys->n; j++) {
            double r2 = 0.0;
            if (j == i)
                continue;
            for (int a = 0; a < 3; a++)
                r2 += (x[3 * i + a] - x[3 * j + a]) * (x[3 * i + a] - x[3 * j + a]);
            double qi = sys->q ? sys->q[i] : sys->pot->types.charge[sys->type[i] - 1];
            double qj = sys->q ? sys->q[j] : sys->pot->types.charge[sys->type[j] - 1];
            s_abs[i] += pair_magnitude(sys->pot, &c[(sys->type[i] - 1) * t + sys->type[j] - 1],
                                       cshift, qi * qj, r2);
        }
    }
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
    ck_assert(ref && pe_ref && vir && f && pe && s_abs);
    ck_assert_msg(nb_md_cpu_forces(sys, x, ref, pe_ref, vir, &err) == NB_OK, "%s",
                  err.message);
    magnitudes(sys, x, s_abs);
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
}

static void system_of(struct nb_md_system *sys, const struct nb_particles *p,
                      const struct nb_md_potential *pot, const struct nb_md_box *box)
{
    memset(sys, 0, sizeof *sys);
    sys->n = p->n;
    sys->type = p->type;
    sys->m = p->m;
    sys->q = p->q;
    sys->pot = pot;
    sys->box = box;
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
            system_of(&sys, &p, &pot, &box);
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
    system_of(&sys, &p, &pot, &box);
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
    system_of(&sys, &p, &pot, &box);
    int64_t *fixed = calloc(4 * n, sizeof *fixed), *rfixed = calloc(4 * n, sizeof *rfixed);
    double *f = calloc(3 * n, sizeof *f), *pe = calloc(n, sizeof *pe);
    ck_assert(fixed && rfixed && f && pe);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_H, f, pe, seconds, fixed,
                                       log2s, &err), NB_OK);
    for (int a = 0; a < 3; a++) {
        int64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += fixed[4 * i + a];
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
    system_of(&rsys, &r, &pot, &box);
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
    system_of(&sys, &p, &pot, &box);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_A, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_ARGS);
    pot.cutoff = 2.5;
    sys.cell_list = 1;
    for (int a = 0; a < 3; a++)
        box.hi[a] = 10.0;           /* room for 3 cells: refused for the cells alone */
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_B, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "cells-list off") != NULL, "%s", err.message);
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
