/* check_md_cell_precision.c - the accumulation modes B..H on the MD
 * cell-list kernel (nb_md_prec_forces with sys->cell_list: cell lists
 * built by the compute MD engine's passes, md_cell_precision.comp) against
 * the CPU reference nb_md_cpu_forces in double with cell lists, for LJ
 * with 16 random types (seed 004's System 2 kind, here with a cutoff),
 * the three LJC laws and seed 003's ionic crystal; fresh random inputs,
 * NB_TEST_SEED=S replays.  Inputs are float-representable.
 *
 * Systems: jittered lattices (spacing 1.1, no pair closer than 0.9) in a
 * box of 10 (periodic, and open for some sizes), cutoff 2.4375 (rc^2 is
 * exact in float), so 4 cells of 2.5 per axis; a pair at the float
 * rounding of r^2 from the cutoff could be counted by one side only, so a
 * system with a pair within 1e-6 (relative) of rc^2 is drawn again.
 *
 * Bounds per particle and component, as check_md_precision's: with S_i =
 * sum_j |F_ij| over the pairs inside the cutoff, counted part by part
 * (md_fixtures.h; LJ's r^-12 and r^-6 parts cancel near the minimum, and
 * float rounding is relative to each part) and u = 2^-24:
 *   B, C, D, F, H  only each float pair term's own rounding survives the
 *      sum: a few u |F_ij| (the LJ powers, pow and exp of the ionic and
 *      sigmoidal laws add a few more), bound 2e-6 S_i; fewer terms than
 *      all pairs, so the same bound has more room;
 *   E  as B plus ls's float rounding of up to N errors of ulp(LARGE) / 2
 *      (seed 004 section 3.2): bound 4e-6 S_i;
 *   G  double pair terms and sums from double positions, against a
 *      double reference summed in another order: bound 1e-12 S_i.
 * The energies pe_i (half the sum of u_ij) get the same factors times
 * U_i = sum_j |u_ij| / 2, counted part by part.
 * H: the raw int64 sums of all F_i are exactly zero (F_ij = -F_ji in
 * float, bit for bit); they equal the all-pairs kernel's (same pairs
 * inside the cutoff, same scales: the cell kernel's magnitude pass adds in
 * the all-pairs order) bit for bit; and a random permutation of the input
 * permutes them without changing a bit. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#define NB_SUITE_LOOP_UNIFORM_PROBE   /* loop_uniform_probe.h */
#include "gl_suite.h"
#include "md_fixtures.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define RC 2.4375               /* rc^2 = 5.94140625 */
#define BOX 10.0                /* at least: 4 cells of 2.5 per axis */

static struct nb_gl *gl;
static uint64_t seed;

/* n particles of `types` types on the lattice, law with the cutoff RC,
 * cell lists on; drawn again while a pair sits on the cutoff. */
static void make_system(struct nb_particles *p, struct nb_md_box *box,
                        struct nb_md_potential *pot, struct nb_md_system *sys, size_t n,
                        enum nb_md_law law, int periodic, uint64_t s)
{
    for (;;) {
        md_lattice(p, box, n, 16, 1.1, 0.2, BOX, periodic, s);
        md_random_potential(pot, law, 16, RC, 0, s);
        md_system_of(sys, p, pot, box, 1);
        if (!md_near_cutoff(sys, p->x))
            return;
        nb_particles_free(p);
        s += 0x9e3779b97f4a7c15u;
    }
}

static double bound_of(enum nb_precision mode)
{
    return mode == NB_PRECISION_G ? 1e-12 : mode == NB_PRECISION_E ? 4e-6 : 2e-6;
}

/* H on the cells: Sum_i F_i exactly zero, and the all-pairs kernel's sums
 * and scales bit for bit. */
static void check_fixed(const struct nb_md_system *sys, const double *x,
                        const int64_t *fixed, const int log2[2], const char *what)
{
    struct nb_error err = { 0 };
    struct nb_md_system pairs = *sys;
    size_t n = sys->n;
    int64_t *all = calloc(4 * n, sizeof *all);
    double *f = calloc(3 * n, sizeof *f), *pe = calloc(n, sizeof *pe), seconds[2];
    int all_log2[2];
    ck_assert(all && f && pe);
    for (int a = 0; a < 3; a++) {
        uint64_t sum = 0;           /* modulo 2^64: exact, no overflow */
        for (size_t i = 0; i < n; i++)
            sum += (uint64_t)fixed[4 * i + a];
        ck_assert_msg(sum == 0, "%s: sum of F[%d] in fixed point: %lld (seed %llu)", what, a,
                      (long long)sum, (unsigned long long)seed);
    }
    pairs.cell_list = 0;
    ck_assert_msg(nb_md_prec_forces(gl, &pairs, x, NB_PRECISION_H, f, pe, seconds, all,
                                    all_log2, &err) == NB_OK, "%s: %s", what, err.message);
    ck_assert_msg(log2[0] == all_log2[0] && log2[1] == all_log2[1], "%s: scales 2^%d, 2^%d "
                  "with cells, 2^%d, 2^%d over all pairs", what, log2[0], log2[1],
                  all_log2[0], all_log2[1]);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            ck_assert_msg(fixed[4 * i + c] == all[4 * i + c], "%s: particle %zu component %d: "
                          "%lld with cells, %lld over all pairs (seed %llu)", what, i, c,
                          (long long)fixed[4 * i + c], (long long)all[4 * i + c],
                          (unsigned long long)seed);
    free(all);
    free(f);
    free(pe);
}

struct scratch {
    double *ref, *pe_ref, *vir, *f, *pe, *s_abs, *u_abs, *w_abs;
    int64_t *fixed;
};

static void scratch_alloc(struct scratch *w, size_t n)
{
    double **d[] = { &w->ref, &w->f, &w->pe_ref, &w->vir, &w->pe, &w->s_abs, &w->u_abs,
                     &w->w_abs };
    for (size_t k = 0; k < COUNT(d); k++)
        ck_assert((*d[k] = calloc((k < 2 ? 3 : 1) * n, sizeof(double))) != NULL);
    ck_assert((w->fixed = calloc(4 * n, sizeof *w->fixed)) != NULL);
}

static void scratch_free(struct scratch *w)
{
    double *d[] = { w->ref, w->f, w->pe_ref, w->vir, w->pe, w->s_abs, w->u_abs, w->w_abs };
    for (size_t k = 0; k < COUNT(d); k++)
        free(d[k]);
    free(w->fixed);
}

/* Every mode B..H on sys against the CPU's cell lists in double. */
static void check_modes(const struct nb_md_system *sys, const double *x, const char *what)
{
    struct nb_error err = { 0 };
    struct scratch w;
    size_t n = sys->n;
    scratch_alloc(&w, n);
    ck_assert_msg(nb_md_cpu_forces(sys, x, w.ref, w.pe_ref, w.vir, &err) == NB_OK, "%s",
                  err.message);
    md_pair_magnitudes(sys, x, w.s_abs, w.u_abs, w.w_abs);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        double seconds[2], bound = bound_of((enum nb_precision)m);
        int log2[2];
        enum nb_status st = nb_md_prec_forces(gl, sys, x, (enum nb_precision)m, w.f, w.pe,
                                              seconds, w.fixed, log2, &err);
        if (m == NB_PRECISION_G && (sys->pot->law == NB_LAW_IONIC ||
                                    sys->pot->law == NB_LAW_LJC_SIGMOIDAL)) {
            ck_assert_int_eq(st, NB_ERR_UNSUPPORTED);
            ck_assert_msg(strstr(err.message, "double") != NULL, "%s", err.message);
            continue;
        }
        ck_assert_msg(st == NB_OK, "%s mode %s: %s", what, nb_precision_name(m), err.message);
        for (size_t i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++)
                ck_assert_msg(fabs(w.f[3 * i + a] - w.ref[3 * i + a]) <= bound * w.s_abs[i],
                              "%s mode %s: F[%zu][%d] = %.12g, reference %.12g, S_i %.3g "
                              "(seed %llu)", what, nb_precision_name(m), i, a,
                              w.f[3 * i + a], w.ref[3 * i + a], w.s_abs[i],
                              (unsigned long long)seed);
            ck_assert_msg(fabs(w.pe[i] - w.pe_ref[i]) <= bound * w.u_abs[i],
                          "%s mode %s: pe[%zu] = %.12g, reference %.12g, U_i %.3g (seed %llu)",
                          what, nb_precision_name(m), i, w.pe[i], w.pe_ref[i], w.u_abs[i],
                          (unsigned long long)seed);
        }
        if (m == NB_PRECISION_H)
            check_fixed(sys, x, w.fixed, log2, what);
    }
    scratch_free(&w);
}

/* LJ (16 types) and the LJC laws, periodic at every size, open at two. */
START_TEST(lattice_modes_match_cpu)
{
    static const size_t sizes[] = { 1, 2, 3, 101, 389, 729 };
    static const enum nb_md_law laws[] = { NB_LAW_LJ, NB_LAW_LJC_CONSTANT, NB_LAW_LJC_LINEAR,
                                           NB_LAW_LJC_SIGMOIDAL };
    for (size_t l = 0; l < COUNT(laws); l++)
        for (size_t k = 0; k < COUNT(sizes); k++)
            for (int periodic = 1; periodic >= 0; periodic--) {
                struct nb_particles p = { 0 };
                struct nb_md_box box;
                struct nb_md_potential pot;
                struct nb_md_system sys;
                char what[80];
                if (!periodic && sizes[k] != 101 && sizes[k] != 729)
                    continue;
                make_system(&p, &box, &pot, &sys, sizes[k], laws[l], periodic,
                            seed + 31 * l + k);
                snprintf(what, sizeof what, "%s n=%zu %s cells", nb_md_law_name(laws[l]),
                         sizes[k], periodic ? "periodic" : "open");
                check_modes(&sys, p.x, what);
                nb_particles_free(&p);
            }
}
END_TEST

/* Seed 003's crystal (324 ions, open box) with a cutoff and cell lists. */
START_TEST(ionic_modes_match_cpu)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    nb_md_potential_default(&pot, NB_LAW_IONIC, 2);
    nb_md_ionic_default(&pot);
    pot.cutoff = 1.6875;        /* rc^2 = 45.5625 / 16: no lattice r^2 = k / 16 near it */
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, 3, 1.0, &pot, &err), NB_OK);
    md_system_of(&sys, &p, &pot, &box, 1);
    ck_assert(!md_near_cutoff(&sys, p.x));
    check_modes(&sys, p.x, "ionic crystal 324 cells");
    nb_particles_free(&p);
}
END_TEST

/* H: a random permutation of the particles permutes the int64 sums. */
START_TEST(fixed_point_permutation)
{
    struct nb_particles p = { 0 }, r = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys, rsys;
    struct nb_error err = { 0 };
    struct nb_rng rng;
    size_t n = 517;
    int log2[2], rlog2[2];
    double seconds[2];
    make_system(&p, &box, &pot, &sys, n, NB_LAW_LJC_LINEAR, 1, seed);
    size_t *perm = calloc(n, sizeof *perm);
    int64_t *fixed = calloc(4 * n, sizeof *fixed), *rfixed = calloc(4 * n, sizeof *rfixed);
    double *f = calloc(3 * n, sizeof *f), *pe = calloc(n, sizeof *pe);
    ck_assert(perm && fixed && rfixed && f && pe);
    nb_rng_seed(&rng, seed ^ 0xc2b2ae35u);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n - 1; i > 0; i--) {        /* Fisher-Yates */
        size_t k = (size_t)(nb_rng_next(&rng) % (i + 1)), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    ck_assert_int_eq(nb_particles_alloc(&r, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(&r, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_charges(&r, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {            /* particle i of r is perm[i] of p */
        memcpy(&r.x[3 * i], &p.x[3 * perm[i]], 3 * sizeof(double));
        r.type[i] = p.type[perm[i]];
        r.q[i] = p.q[perm[i]];
        r.m[i] = p.m[perm[i]];
    }
    md_system_of(&rsys, &r, &pot, &box, 1);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_H, f, pe, seconds, fixed,
                                       log2, &err), NB_OK);
    ck_assert_int_eq(nb_md_prec_forces(gl, &rsys, r.x, NB_PRECISION_H, f, pe, seconds, rfixed,
                                       rlog2, &err), NB_OK);
    ck_assert(log2[0] == rlog2[0] && log2[1] == rlog2[1]);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            ck_assert_msg(rfixed[4 * i + c] == fixed[4 * perm[i] + c], "particle %zu "
                          "component %d differs after the permutation (seed %llu)", perm[i],
                          c, (unsigned long long)seed);
    free(perm);
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
    double f[3 * 27], pe[27], seconds[2];
    static const enum nb_md_law no_g[] = { NB_LAW_LJC_SIGMOIDAL, NB_LAW_IONIC };
    for (size_t l = 0; l < COUNT(no_g); l++) {      /* G: no double exp or pow */
        make_system(&p, &box, &pot, &sys, 27, no_g[l], 1, seed);
        ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_G, f, pe, seconds, NULL,
                                           NULL, &err), NB_ERR_UNSUPPORTED);
        ck_assert_msg(strstr(err.message, "double") != NULL &&
                      strstr(err.message, nb_md_law_name(no_g[l])) != NULL, "%s", err.message);
        nb_particles_free(&p);
    }
    make_system(&p, &box, &pot, &sys, 27, NB_LAW_LJ, 1, seed);
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_A, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_ARGS);
    pot.cutoff = 4.5;           /* floor(10 / 4.5) = 2 cells along periodic axes */
    ck_assert_int_eq(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_H, f, pe, seconds, NULL,
                                       NULL, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "3 cells") != NULL, "%s", err.message);
    nb_particles_free(&p);
}
END_TEST

static Suite *md_cell_precision_suite(void)
{
    Suite *s = suite_create("md_cell_precision");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, lattice_modes_match_cpu);
    tcase_add_test(tc, ionic_modes_match_cpu);
    tcase_add_test(tc, fixed_point_permutation);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_md_cell_precision", md_cell_precision_suite(), &gl, &seed);
}
