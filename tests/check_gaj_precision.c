/* check_gaj_precision.c - the accumulation modes B..H of the GAJ kernel
 * (acceleration, jerk, potential) on the compute backend
 * (glsl/gaj_precision.comp, src/gaj_precision.c), against the double CPU
 * GAJ (nb_cpu_gaj), on fresh random inputs (NB_TEST_SEED=S replays):
 * N = 1, 2, 3, 97, 1000 particles in [-1, 1]^3 with velocities in
 * [-1, 1]^3 and unequal masses, all float-representable, so only the
 * kernels' arithmetic is measured.
 *
 * Bounds, with u = 2^-24, per active particle i and component, relative
 * to the pair-term magnitudes (as check_precision): for a and phi
 * S_i = sum_j |a_ij| and sum_j |phi_ij|; for the jerk SJ_i = sum_j m_j
 * |v_ij| / (r_ij^2 + eps^2)^{3/2}, not sum_j |j_ij|, because a jerk term
 * cancels inside itself (v - 3 (r.v) r / s: |3 (r.v) r / s| <= 3 |v|), so
 * its float rounding is relative to m_j |v_ij| / s^{3/2}.
 *   A      float sums; check_gpu's bound 1e-5 (printed for comparison).
 *   B, C, F, H  only each pair term's own float rounding survives the
 *          sums, and at N = 2, 3 a particle's sum is one or two terms, so
 *          nothing averages: the worst case of one term, every rounding at
 *          its largest and aligned.  With e = the error of rinv (half of
 *          r^2's 3u plus inversesqrt's own, ~2u: e ~ 3.5u): a = m rinv
 *          rinv^2 d costs 3e + 5u ~ 15u; bound 16 u = 9.5e-7 (phi costs
 *          less).  The jerk adds d.v (4u), alpha = 3 d.v / s (6u + 2e of
 *          a term up to 3 |v|) and the fma v - alpha d, then mr3: ~42u +
 *          18e ~ 100u of m_j |v_ij| / s^{3/2}; bound 128 u = 7.6e-6.  The
 *          worst of 40 seeds on llvmpipe: 6.6 u for a, 23 u for the jerk.
 *          F's 48-bit pair and H's int64 add at most 2^-45 resp. 2^-59 of
 *          their range per addition, far below.
 *   D      Nitadori: where a term outgrows the partial sum (seed 004
 *          section 3.1's first condition; LARGE = 0, so at the first terms
 *          and wherever the sum cancels) the fast two-sum loses up to
 *          u |term|: |a_ij| <= S terms, |j_ij| <= 4 m_j |v_ij| / s^{3/2};
 *          bounds 24 u and 144 u.
 *   E      modified Nitadori: hs >= LARGE keeps the condition, ls holds
 *          the exact errors and rounds only its own small sum; its
 *          quantum comes from the block's largest magnitude sum, not this
 *          particle's: D's bounds.
 *   G      double terms and sums: 1e-12 (the difference to the CPU's
 *          double sums is ~1e-15).
 * H: the raw int64 sums of m_i a_i and m_i jerk_i over all particles are
 * exactly zero; a random subset of active particles in random order gets
 * bit-identical sums to the same particles' when all are active, and a
 * block of 5 of 1000 on 8 or 3 j-slices those of one slice (B..G on
 * slices keep their bounds); the
 * device-resident path (load_state, predict_j at dt = 0) gives every mode
 * but G bit-identical results to set_j, and G is refused there.  CLI:
 * `glnbody run --precision H` integrates a small Plummer sphere to the
 * energy error of mode A; --precision on the cpu backend exits 2. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#include "cli_harness.h"
#include "gl_suite.h"
#include "ga_fixtures.h"

#define EPS 0.01
#define U 0x1p-24
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static uint64_t seed;

static const size_t sizes[] = { 1, 2, 3, 97, 1000 };
/* Per mode: bounds on a and phi, and on the jerk, as the header argues. */
static const double max_rel[NB_PRECISION_COUNT] = {
    1e-5, 16 * U, 16 * U, 24 * U, 24 * U, 16 * U, 1e-12, 16 * U };
static const double max_rel_jerk[NB_PRECISION_COUNT] = {
    1e-5, 128 * U, 128 * U, 144 * U, 144 * U, 128 * U, 1e-12, 128 * U };

/* One GAJ result in active order. */
struct gaj {
    double *acc, *jerk, *pot;
};

static void gaj_alloc(struct gaj *g, size_t n)
{
    g->acc = calloc(3 * n + 1, sizeof(double));
    g->jerk = calloc(3 * n + 1, sizeof(double));
    g->pot = calloc(n + 1, sizeof(double));
    ck_assert(g->acc && g->jerk && g->pot);
}

static void gaj_free(struct gaj *g)
{
    free(g->acc);
    free(g->jerk);
    free(g->pot);
}

/* The magnitude scales of the header for particle i: S (a), SP (phi), SJ. */
static void magnitudes(const struct nb_particles *p, size_t i, double eps, double *s,
                       double *sp, double *sj)
{
    *s = *sp = *sj = 0.0;
    for (size_t j = 0; j < p->n; j++) {
        if (j == i)
            continue;
        double d2 = 0.0, v2 = 0.0;
        for (int c = 0; c < 3; c++) {
            double d = p->x[3 * j + c] - p->x[3 * i + c], v = p->v[3 * j + c] - p->v[3 * i + c];
            d2 += d * d;
            v2 += v * v;
        }
        double rinv = 1.0 / sqrt(d2 + eps * eps), r3 = rinv * rinv * rinv;
        *s += p->m[j] * sqrt(d2) * r3;
        *sp += p->m[j] * rinv;
        *sj += p->m[j] * sqrt(v2) * r3;
    }
}

/* Sets the mode and the j-set (host path), evaluates the block, reads. */
static void evaluate(struct nb_force_backend *b, enum nb_precision mode,
                     const struct nb_particles *p, size_t na, const uint32_t *active,
                     struct gaj *out)
{
    struct nb_error err = { 0 };
    ck_assert_msg(b->set_precision(b->state, mode, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_j(b->state, p->n, p->x, p->v, p->m, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b->compute_gaj(b->state, EPS, na, active, &err) == NB_OK, "%s: %s",
                  nb_precision_name(mode), err.message);
    for (size_t k = 0; k < 3 * na; k++)
        out->acc[k] = out->jerk[k] = NAN;
    for (size_t k = 0; k < na; k++)
        out->pot[k] = NAN;
    ck_assert_msg(b->read_gaj(b->state, out->acc, out->jerk, out->pot, &err) == NB_OK,
                  "%s", err.message);
}

/* The largest errors of got (block order) against ref (particle order)
 * over the block (NULL: all particles, all active), relative to the
 * magnitudes: e[0] a, e[1] phi, e[2] jerk. */
static void errors_block(const struct nb_particles *p, size_t na, const uint32_t *active,
                         const struct gaj *got, const struct gaj *ref, double e[3])
{
    e[0] = e[1] = e[2] = 0.0;
    for (size_t k = 0; k < na; k++) {
        size_t i = active ? active[k] : k;
        double s, sp, sj;
        magnitudes(p, i, EPS, &s, &sp, &sj);
        for (int c = 0; c < 3; c++) {
            double da = fabs(got->acc[3 * k + c] - ref->acc[3 * i + c]);
            double dj = fabs(got->jerk[3 * k + c] - ref->jerk[3 * i + c]);
            e[0] = fmax(e[0], s > 0.0 ? da / s : da > 0.0 ? INFINITY : 0.0);
            e[2] = fmax(e[2], sj > 0.0 ? dj / sj : dj > 0.0 ? INFINITY : 0.0);
            if (isnan(da) || isnan(dj))
                e[0] = e[2] = INFINITY;
        }
        double dp = fabs(got->pot[k] - ref->pot[i]);
        e[1] = fmax(e[1], sp > 0.0 ? dp / sp : dp > 0.0 || isnan(dp) ? INFINITY : 0.0);
    }
}

static void errors(const struct nb_particles *p, const struct gaj *got,
                   const struct gaj *ref, double e[3])
{
    errors_block(p, p->n, NULL, got, ref, e);
}

/* H's raw sums of m_i a_i and m_i jerk_i over all particles are zero. */
static void check_zero_sums(struct nb_force_backend *b, size_t n)
{
    struct nb_error err = { 0 };
    int64_t *f = calloc(8 * n + 1, sizeof *f);
    uint64_t sum[8] = { 0 };      /* modulo 2^64: exact, no overflow */
    int log2[3];
    ck_assert(f);
    ck_assert_msg(nb_backend_compute_read_gaj_fixed(b, f, log2, &err) == NB_OK, "%s",
                  err.message);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 8; c++)
            sum[c] += (uint64_t)f[8 * i + c];
    for (int c = 0; c < 8; c++)
        ck_assert_msg(c == 3 || sum[c] == 0, "N = %zu: int64 sum of component %d is "
                      "%lld (units 2^-%d), not 0 (seed %llu)", n, c, (long long)sum[c],
                      log2[c < 3 ? 0 : 2], (unsigned long long)seed);
    free(f);
}

START_TEST(modes_match_cpu)
{
    size_t n = sizes[_i];
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct gaj ref, got;
    ga_moving_system(&p, n, seed + n);
    uint32_t *all = malloc(4 * n + 4);
    ck_assert(all);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    gaj_alloc(&ref, n);
    gaj_alloc(&got, n);
    ck_assert_int_eq(nb_cpu_gaj(n, p.x, p.v, p.m, EPS, n, all, ref.acc, ref.jerk,
                                ref.pot, &err), NB_OK);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    printf("GAJ N = %zu, eps %g, seed %llu\nmode   max da/S   max dphi/SP   max dj/SJ\n",
           n, EPS, (unsigned long long)seed);
    for (int m = 0; m < NB_PRECISION_COUNT; m++) {
        double e[3];
        evaluate(&b, (enum nb_precision)m, &p, n, all, &got);
        errors(&p, &got, &ref, e);
        printf("%-4s %10.3e  %12.3e  %10.3e\n", nb_precision_name(m), e[0], e[1], e[2]);
        ck_assert_msg(e[0] <= max_rel[m] && e[1] <= max_rel[m] && e[2] <= max_rel_jerk[m],
                      "precision %s, N = %zu: da %.3g dphi %.3g dj %.3g over %.3g / %.3g "
                      "(seed %llu)", nb_precision_name(m), n, e[0], e[1], e[2],
                      max_rel[m], max_rel_jerk[m], (unsigned long long)seed);
        if (m == NB_PRECISION_H)
            check_zero_sums(&b, n);
    }
    b.destroy(b.state);
    gaj_free(&ref);
    gaj_free(&got);
    free(all);
    nb_particles_free(&p);
}
END_TEST

/* Mode H: a random subset of active particles, in random order, gets the
 * sums those particles get when all are active, bit for bit. */
START_TEST(fixed_point_order_independent)
{
    const size_t n = _i ? 1000 : 97;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct nb_rng rng;
    struct gaj whole, part;
    ga_moving_system(&p, n, seed + 11 * n);
    uint32_t *all = malloc(4 * n), *sub = malloc(4 * n);
    int64_t *f = malloc(64 * n), *g = malloc(64 * n);
    int log_all[3], log_sub[3];
    ck_assert(all && sub && f && g);
    for (size_t i = 0; i < n; i++)
        all[i] = sub[i] = (uint32_t)i;
    nb_rng_seed(&rng, seed ^ n);
    for (size_t i = n - 1; i > 0; i--) {       /* Fisher-Yates */
        size_t j = (size_t)(nb_rng_uniform(&rng) * (double)(i + 1));
        uint32_t t = sub[i];
        sub[i] = sub[j];
        sub[j] = t;
    }
    size_t ns = n / 3;
    gaj_alloc(&whole, n);
    gaj_alloc(&part, n);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    evaluate(&b, NB_PRECISION_H, &p, n, all, &whole);
    ck_assert_int_eq(nb_backend_compute_read_gaj_fixed(&b, f, log_all, &err), NB_OK);
    evaluate(&b, NB_PRECISION_H, &p, ns, sub, &part);
    ck_assert_int_eq(nb_backend_compute_read_gaj_fixed(&b, g, log_sub, &err), NB_OK);
    ck_assert(memcmp(log_all, log_sub, sizeof log_all) == 0);
    for (size_t k = 0; k < ns; k++) {
        size_t i = sub[k];
        ck_assert_msg(memcmp(&f[8 * i], &g[8 * k], 64) == 0, "particle %zu: int64 sums "
                      "differ in a block of %zu (seed %llu)", i, ns,
                      (unsigned long long)seed);
        ck_assert(memcmp(&whole.acc[3 * i], &part.acc[3 * k], 24) == 0 &&
                  memcmp(&whole.jerk[3 * i], &part.jerk[3 * k], 24) == 0 &&
                  memcmp(&whole.pot[i], &part.pot[k], 8) == 0);
    }
    b.destroy(b.state);
    gaj_free(&whole);
    gaj_free(&part);
    free(all); free(sub); free(f); free(g);
    nb_particles_free(&p);
}
END_TEST

/* j-slices (gaj_precision.c): a block of 5 of 1000 particles (8 j-tiles)
 * runs on 8 slices by default.  H: its int64 sums are bit for bit those
 * of the same particles with all 1000 active on one slice, and on 3
 * uneven slices (3, 3, 2 tiles).  B..G (merged in slice order: double
 * sums, double-float pairs): within their bounds against the CPU, and the
 * same bits on a second run. */
/* A long block is cut into several dispatches (gl_dispatch.c: a driver's
 * watchdog); the cut changes no bit of any result, in the float mode A
 * nor in the int64 mode H.  Another system's results fill every slot
 * between the two, so that nothing is left over from the first. */
START_TEST(cut_block_same_bits)
{
    static const enum nb_precision modes[] = { NB_PRECISION_A, NB_PRECISION_H };
    const size_t n = 1013;      /* prime: the last dispatch is partial */
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, other = { 0 };
    struct gaj whole, cut;
    uint32_t *all = malloc(4 * n);
    ck_assert(all);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)(n - 1 - i);
    ga_moving_system(&p, n, seed + 5);
    ga_moving_system(&other, n, seed + 6);
    gaj_alloc(&whole, n);
    gaj_alloc(&cut, n);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        evaluate(&b, modes[m], &p, n, all, &whole);
        evaluate(&b, modes[m], &other, n, all, &cut);
        /* 3000 pair terms a dispatch: a tile of i-particles each */
        setenv("GLNBODY_DISPATCH_PAIRS", "3000", 1);
        evaluate(&b, modes[m], &p, n, all, &cut);
        unsetenv("GLNBODY_DISPATCH_PAIRS");
        ck_assert_msg(memcmp(whole.acc, cut.acc, 24 * n) == 0 &&
                      memcmp(whole.jerk, cut.jerk, 24 * n) == 0 &&
                      memcmp(whole.pot, cut.pot, 8 * n) == 0,
                      "mode %s: the block in several dispatches differs from one "
                      "(seed %llu)", nb_precision_name(modes[m]), (unsigned long long)seed);
    }
    b.destroy(b.state);
    gaj_free(&whole);
    gaj_free(&cut);
    free(all);
    nb_particles_free(&p);
    nb_particles_free(&other);
}
END_TEST

START_TEST(sliced_small_block)
{
    const size_t n = 1000, na = 5;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct gaj whole, part, again, ref;
    uint32_t *all = malloc(4 * n), block[5] = { 999, 3, 517, 128, 640 };
    int64_t *f = malloc(64 * n), g[40];
    int log_all[3], log_sub[3];
    char variant[64];
    ck_assert(all && f);
    ga_moving_system(&p, n, seed + 29);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    gaj_alloc(&whole, n);
    gaj_alloc(&part, na);
    gaj_alloc(&again, na);
    gaj_alloc(&ref, n);
    ck_assert_int_eq(nb_cpu_gaj(n, p.x, p.v, p.m, EPS, n, all, ref.acc, ref.jerk,
                                ref.pot, &err), NB_OK);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(nb_backend_compute_set_gaj_slices(&b, 1, &err), NB_OK);
    evaluate(&b, NB_PRECISION_H, &p, n, all, &whole);
    ck_assert_msg(strstr(b.variant(b.state), "-s1"), "%s", b.variant(b.state));
    ck_assert_int_eq(nb_backend_compute_read_gaj_fixed(&b, f, log_all, &err), NB_OK);
    for (int forced = 0; forced <= 3; forced += 3) {
        ck_assert_int_eq(nb_backend_compute_set_gaj_slices(&b, forced, &err), NB_OK);
        evaluate(&b, NB_PRECISION_H, &p, na, block, &part);
        snprintf(variant, sizeof variant, "gaj-precH-t128-s%d", forced ? 3 : 8);
        ck_assert_msg(strcmp(b.variant(b.state), variant) == 0, "%s, not %s",
                      b.variant(b.state), variant);
        ck_assert_int_eq(nb_backend_compute_read_gaj_fixed(&b, g, log_sub, &err), NB_OK);
        ck_assert(memcmp(log_all, log_sub, sizeof log_all) == 0);
        for (size_t k = 0; k < na; k++) {
            size_t i = block[k];
            ck_assert_msg(memcmp(&f[8 * i], &g[8 * k], 64) == 0, "particle %zu: int64 "
                          "sums on %s differ from one slice's (seed %llu)", i, variant,
                          (unsigned long long)seed);
            ck_assert(memcmp(&whole.acc[3 * i], &part.acc[3 * k], 24) == 0 &&
                      memcmp(&whole.jerk[3 * i], &part.jerk[3 * k], 24) == 0 &&
                      memcmp(&whole.pot[i], &part.pot[k], 8) == 0);
        }
    }
    ck_assert_int_eq(nb_backend_compute_set_gaj_slices(&b, 0, &err), NB_OK);
    for (int m = NB_PRECISION_B; m <= NB_PRECISION_G; m++) {
        double e[3];
        evaluate(&b, (enum nb_precision)m, &p, na, block, &part);
        ck_assert_msg(strstr(b.variant(b.state), "-s8"), "%s", b.variant(b.state));
        errors_block(&p, na, block, &part, &ref, e);
        printf("GAJ N = %zu, block of %zu on 8 slices, %s: da/S %.3e dphi/SP %.3e "
               "dj/SJ %.3e\n", n, na, nb_precision_name(m), e[0], e[1], e[2]);
        ck_assert_msg(e[0] <= max_rel[m] && e[1] <= max_rel[m] && e[2] <= max_rel_jerk[m],
                      "precision %s on slices: da %.3g dphi %.3g dj %.3g (seed %llu)",
                      nb_precision_name(m), e[0], e[1], e[2], (unsigned long long)seed);
        evaluate(&b, (enum nb_precision)m, &p, na, block, &again);
        ck_assert_msg(memcmp(part.acc, again.acc, 24 * na) == 0 &&
                      memcmp(part.jerk, again.jerk, 24 * na) == 0 &&
                      memcmp(part.pot, again.pot, 8 * na) == 0,
                      "precision %s on slices: not deterministic", nb_precision_name(m));
    }
    b.destroy(b.state);
    gaj_free(&whole);
    gaj_free(&part);
    gaj_free(&again);
    gaj_free(&ref);
    free(all);
    free(f);
    nb_particles_free(&p);
}
END_TEST

/* The device-resident feeding: the state at t0 = t, predicted to t (dt =
 * 0, so predict.comp writes the float j-set set_j would), gives each mode
 * but G the set_j result bit for bit; G is refused there. */
START_TEST(device_state_path)
{
    const size_t n = 97, na = 40;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct gaj host, dev;
    ga_moving_system(&p, n, seed + 5);
    double *zero = calloc(3 * n, sizeof(double)), *t0 = malloc(n * sizeof(double));
    uint32_t active[40];
    ck_assert(zero && t0);
    for (size_t i = 0; i < n; i++)
        t0[i] = 0.5;
    for (size_t k = 0; k < na; k++)
        active[k] = (uint32_t)((7 * k + 3) % n);
    gaj_alloc(&host, na);
    gaj_alloc(&dev, na);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        evaluate(&b, (enum nb_precision)m, &p, na, active, &host);
        ck_assert_int_eq(b.load_state(b.state, n, p.x, p.v, zero, zero, t0, p.m, &err),
                         NB_OK);
        ck_assert_int_eq(b.predict_j(b.state, 0.5, &err), NB_OK);
        enum nb_status st = b.compute_gaj(b.state, EPS, na, active, &err);
        if (m == NB_PRECISION_G) {
            ck_assert_int_eq(st, NB_ERR_UNSUPPORTED);
            ck_assert_msg(strstr(err.message, "predict host"), "%s", err.message);
            continue;
        }
        ck_assert_msg(st == NB_OK, "%s: %s", nb_precision_name(m), err.message);
        ck_assert_int_eq(b.read_gaj(b.state, dev.acc, dev.jerk, dev.pot, &err), NB_OK);
        ck_assert_msg(memcmp(host.acc, dev.acc, 24 * na) == 0 &&
                      memcmp(host.jerk, dev.jerk, 24 * na) == 0 &&
                      memcmp(host.pot, dev.pot, 8 * na) == 0,
                      "precision %s: device-resident j-set differs from set_j's",
                      nb_precision_name(m));
    }
    b.destroy(b.state);
    gaj_free(&host);
    gaj_free(&dev);
    free(zero);
    free(t0);
    nb_particles_free(&p);
}
END_TEST

/* H without softening or with a zero mass, a j-set set before the mode,
 * E with two particles at one place and no softening, H with a velocity
 * that is not finite (reported by compute_gaj or by the read; the test
 * takes either). */
START_TEST(refusals)
{
    const size_t n = 50;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    uint32_t all[50];
    ga_moving_system(&p, n, seed + 3);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute_gaj(b.state, 0.0, n, all, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "softening"), "%s", err.message);
    /* a j-set uploaded in mode A is unknown to the precision kernels */
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_A, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_F, &err), NB_OK);
    ck_assert_int_eq(b.compute_gaj(b.state, EPS, n, all, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "set_j"), "%s", err.message);
    /* H divides by m_i */
    p.m[7] = 0.0;
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute_gaj(b.state, EPS, n, all, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "mass"), "%s", err.message);
    /* E measures its bound: coincident particles without softening */
    memcpy(&p.x[3 * 4], &p.x[3 * 5], 3 * sizeof(double));
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_E, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute_gaj(b.state, 0.0, n, all, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "not finite"), "%s", err.message);
    p.m[7] = 1.0 / (double)n;
    p.v[3 * 11 + 1] = NAN;
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
    enum nb_status st = b.compute_gaj(b.state, EPS, n, all, &err);
    if (st == NB_OK) {
        struct gaj out;
        gaj_alloc(&out, n);
        st = b.read_gaj(b.state, out.acc, out.jerk, out.pot, &err);
        gaj_free(&out);
    }
    ck_assert_int_eq(st, NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "not finite"), "%s", err.message);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- glnbody run --precision --------------------------------------------- */

static void run_cli(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, NULL, NULL, args);
}

/* A Plummer sphere of 128 to t = 0.25 in modes A and H (and H with device
 * prediction): the integrator's truncation error (~1e-8 at eta 0.02)
 * dominates both, float rounding of the forces (~1e-7 relative, random)
 * adds far less, so H's error is A's within a factor 2 plus 1e-8.  The
 * variant of the last block step shows that the GAJ kernel was still H
 * after the energy diagnostics (which run precision G on the GA kernel). */
START_TEST(cli_run_h)
{
    struct cli_run a = { 0 }, h = { 0 };
    const char *common[] = { "run", "--n", "128", "--t-end", "0.25", "--precision" };
    run_cli(&a, (const char *const[]){ common[0], common[1], common[2], common[3],
                                       common[4], common[5], "A", NULL });
    ck_assert_msg(a.status == 0, "exit %d: %s", a.status, a.err);
    double de_a = cli_energy_error(&a);
    for (int dev = 0; dev < 2; dev++) {
        run_cli(&h, (const char *const[]){ common[0], common[1], common[2], common[3],
                                           common[4], common[5], "H", "--predict",
                                           dev ? "gpu" : "host", NULL });
        ck_assert_msg(h.status == 0, "exit %d: %s", h.status, h.err);
        double de_h = cli_energy_error(&h);
        printf("glnbody run N = 128 to t = 0.25: dE/E %.3e (A), %.3e (H, predict %s)\n",
               de_a, de_h, dev ? "gpu" : "host");
        ck_assert_msg(strstr(h.out, "precision H") && strstr(h.out, "variant gaj-precH"),
                      "%s", h.out);
        ck_assert_msg(fabs(de_h) <= 2.0 * fabs(de_a) + 1e-8, "dE/E %.3e in H against "
                      "%.3e in A", de_h, de_a);
        cli_run_free(&h);
    }
    cli_run_free(&a);
}
END_TEST

/* --precision where it cannot run: exit 2, one message, nothing on stdout. */
static const struct {
    const char *args[8];
    const char *needle;
} cli_refusals[] = {
    { { "run", "--backend", "cpu", "--precision", "H" }, "--backend compute" },
    { { "run", "--backend", "fragment", "--precision", "B" }, "--backend compute" },
    { { "run", "--precision", "G", "--predict", "gpu" }, "--predict host" },
    { { "run", "--precision", "Z" }, "--precision" },
};

START_TEST(cli_refused)
{
    struct cli_run r = { 0 };
    run_cli(&r, cli_refusals[_i].args);
    ck_assert_msg(r.status == 2, "case %d: exit %d: %s", _i, r.status, r.err);
    ck_assert_msg(r.out[0] == '\0', "stdout: %s", r.out);
    ck_assert_msg(strncmp(r.err, "glnbody: ", 9) == 0 && strstr(r.err, cli_refusals[_i].needle),
                  "'%s' not named: %s", cli_refusals[_i].needle, r.err);
    cli_run_free(&r);
}
END_TEST

/* H's analytic bounds need softening: a run without exits 1 naming it. */
START_TEST(cli_h_needs_softening)
{
    struct cli_run r = { 0 };
    char path[1200];
    snprintf(path, sizeof path, "%s/two.txt", g_root);
    write_file(path, "0 0.5 -0.5 0 0 0 -0.5 0\n1 0.5 0.5 0 0 0 0.5 0\n");
    run_cli(&r, (const char *const[]){ "run", "--input", path, "--precision", "H",
                                       "--softening", "0", "--t-end", "0.01", NULL });
    ck_assert_msg(r.status == 1 && strstr(r.err, "softening > 0"), "exit %d: %s",
                  r.status, r.err);
    cli_run_free(&r);
}
END_TEST

static Suite *gaj_precision_suite(void)
{
    Suite *s = suite_create("gaj_precision");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, modes_match_cpu, 0, COUNT(sizes));
    tcase_add_loop_test(tc, fixed_point_order_independent, 0, 2);
    tcase_add_test(tc, sliced_small_block);
    tcase_add_test(tc, cut_block_same_bits);
    tcase_add_test(tc, device_state_path);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cli_run_h);
    tcase_add_loop_test(tc, cli_refused, 0, COUNT(cli_refusals));
    tcase_add_test(tc, cli_h_needs_softening);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_gaj_precision") != 0)
        return 1;
    int status = run_gl_suite("check_gaj_precision", gaj_precision_suite(), &gl, &seed);
    remove_tree(g_root);
    return status;
}
