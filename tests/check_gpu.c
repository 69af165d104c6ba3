/* check_gpu.c - every GPU variant against the double-precision CPU
 * reference, on fresh random inputs (Mesa llvmpipe in CI, any GL 4.3 GPU
 * elsewhere).
 *
 * Bounds: for each particle |da| <= 1e-5 sum_j |a_ij| and |dphi| <= 1e-5
 * sum_j |phi_ij| (the pair-term magnitudes bound float rounding even where
 * the terms cancel), and seed 004's f_err <= 1e-6.  Inputs are rounded to
 * float first, so the bounds measure the kernels' arithmetic, not the
 * rounding of the input.  NB_TEST_SEED=S replays a failing run.
 *
 * Runs without fork (CK_NOFORK): one GL context serves every test, and a
 * forked child cannot use the parent's llvmpipe threads. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <epoxy/gl.h>

#include "nb_config.h"
#include "nb_gl.h"
#include "gl_suite.h"
#include "ga_fixtures.h"
#include "gaj_check.h"

#define TOLERANCE 1e-5
#define F_ERR_MAX 1e-6

static struct nb_gl *gl;
static uint64_t seed;

static const size_t sizes[] = { 1, 2, 3, 7, 31, 256, 1000, 1023, 4097 };
static const double softenings[] = { 0.0, 0.01 };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct reference {
    double *acc, *pot, *acc_abs, *pot_abs;
};

static void reference_make(struct reference *r, const struct nb_particles *p, double eps)
{
    struct nb_error err = { 0 };
    r->acc = calloc(3 * p->n, sizeof(double));
    r->pot = calloc(p->n, sizeof(double));
    r->acc_abs = calloc(p->n, sizeof(double));
    r->pot_abs = calloc(p->n, sizeof(double));
    ck_assert(r->acc && r->pot && r->acc_abs && r->pot_abs);
    ck_assert_int_eq(nb_cpu_ga(p->n, p->x, p->m, eps, r->acc, r->pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(p->n, p->x, p->m, eps, r->acc_abs,
                                          r->pot_abs, &err), NB_OK);
}

static void reference_free(struct reference *r)
{
    free(r->acc);
    free(r->pot);
    free(r->acc_abs);
    free(r->pot_abs);
}

/* Runs one variant; acc (3n) and pot (n) receive the result. */
static void run_variant(struct nb_force_backend *b, const char *variant,
                        const struct nb_particles *p, double eps, double *acc,
                        double *pot)
{
    struct nb_error err = { 0 };
    ck_assert_msg(b->set_variant(b->state, variant, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_particles(b->state, p->n, p->x, p->m, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b->compute(b->state, NB_KERNEL_GA, eps, &err) == NB_OK, "%s: %s",
                  variant, err.message);
    /* Poison first: every particle must be written. */
    for (size_t i = 0; i < 3 * p->n; i++)
        acc[i] = NAN;
    for (size_t i = 0; i < p->n; i++)
        pot[i] = NAN;
    ck_assert_msg(b->read(b->state, acc, pot, &err) == NB_OK, "%s", err.message);
}

static void check_against(const char *what, const struct nb_particles *p,
                          const struct reference *r, const double *acc,
                          const double *pot)
{
    struct nb_accuracy q;
    nb_accuracy_ga(p->n, p->m, acc, pot, r->acc, r->pot, r->acc_abs, r->pot_abs, &q);
    ck_assert_msg(q.nonfinite == 0, "%s: %zu particles not finite (seed %llu)", what,
                  q.nonfinite, (unsigned long long)seed);
    ck_assert_msg(q.acc_rel_max <= TOLERANCE && q.pot_rel_max <= TOLERANCE &&
                  q.f_err <= F_ERR_MAX,
                  "%s: da %.3g (particle %zu) dphi %.3g f_err %.3g over bounds (seed %llu)",
                  what, q.acc_rel_max, q.acc_worst, q.pot_rel_max, q.f_err,
                  (unsigned long long)seed);
}

/* Every listed variant of a backend, every size, both softenings. */
static void check_backend(const char *name, const char *const *extra)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_backend_create(&b, name, gl, &err) == NB_OK, "%s", err.message);
    for (size_t s = 0; s < COUNT(sizes); s++) {
        struct nb_particles p = { 0 };
        ga_random_system(&p, sizes[s], seed + s, 0);
        double *acc = malloc(3 * p.n * sizeof *acc), *pot = malloc(p.n * sizeof *pot);
        for (size_t e = 0; e < COUNT(softenings); e++) {
            struct reference r;
            reference_make(&r, &p, softenings[e]);
            for (int list = 0; list < 2; list++)
                for (const char *const *v = list ? extra : b.variants(b.state); *v; v++) {
                    char what[128];
                    snprintf(what, sizeof what, "%s %s N=%zu eps=%g", name, *v, p.n,
                             softenings[e]);
                    run_variant(&b, *v, &p, softenings[e], acc, pot);
                    check_against(what, &p, &r, acc, pot);
                }
            reference_free(&r);
        }
        free(acc);
        free(pot);
        nb_particles_free(&p);
    }
    b.destroy(b.state);
}

START_TEST(compute_matches_cpu)
{
    static const char *const extra[] = { "t64i1-s3", "t128i4-s2", "t256i8-s5", "auto", NULL };
    check_backend("compute", extra);
}
END_TEST

START_TEST(fragment_matches_cpu)
{
    static const char *const extra[] = { "1x1-r3-p2", "1x4-r2-p3", "4x4-r8-p1",
                                         "4x4-r1-p5", "4x4-r3-p4", "auto", NULL };
    check_backend("fragment", extra);
}
END_TEST

/* Replication and passes change only the summation order: all splits of
 * one system agree with the single pass to float rounding. */
static void check_splits_agree(const char *backend, const char *const *variants)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct reference r;
    const size_t n = 2053;
    ck_assert_int_eq(nb_backend_create(&b, backend, gl, &err), NB_OK);
    ga_random_system(&p, n, seed + 100, 0);
    reference_make(&r, &p, 0.0);
    double *acc0 = malloc(3 * n * sizeof(double)), *pot0 = malloc(n * sizeof(double));
    double *acc = malloc(3 * n * sizeof(double)), *pot = malloc(n * sizeof(double));
    run_variant(&b, variants[0], &p, 0.0, acc0, pot0);
    for (const char *const *v = variants + 1; *v; v++) {
        run_variant(&b, *v, &p, 0.0, acc, pot);
        check_against(*v, &p, &r, acc, pot);
        for (size_t i = 0; i < n; i++) {
            double da = sqrt(pow(acc[3 * i] - acc0[3 * i], 2) +
                             pow(acc[3 * i + 1] - acc0[3 * i + 1], 2) +
                             pow(acc[3 * i + 2] - acc0[3 * i + 2], 2));
            ck_assert_msg(da <= 2 * TOLERANCE * r.acc_abs[i], "%s vs %s: particle %zu "
                          "differs by %.3g of its scale", *v, variants[0], i,
                          da / r.acc_abs[i]);
            ck_assert(fabs(pot[i] - pot0[i]) <= 2 * TOLERANCE * r.pot_abs[i]);
        }
    }
    free(acc0); free(pot0); free(acc); free(pot);
    reference_free(&r);
    nb_particles_free(&p);
    b.destroy(b.state);
}

START_TEST(fragment_splits_agree)
{
    static const char *const v[] = { "4x4-r1-p1", "4x4-r2-p1", "4x4-r7-p1", "4x4-r1-p2",
                                     "4x4-r1-p9", "4x4-r5-p3", "1x1-r1-p1", "1x1-r4-p4", NULL };
    check_splits_agree("fragment", v);
}
END_TEST

START_TEST(compute_splits_agree)
{
    static const char *const v[] = { "t64i1-s1", "t64i1-s2", "t64i1-s9", "t128i2-s4",
                                     "t256i8-s1", "t256i8-s3", "t128i16-s1", "t128i16-s5", NULL };
    check_splits_agree("compute", v);
}
END_TEST

/* Padding: n particles, then the same n followed by explicit padding
 * particles up to the padded length; the first n results must be
 * bit-identical, so padding contributes exact zeros. */
START_TEST(padding_changes_nothing)
{
    static const char *const cases[][2] = {
        { "compute", "t64i1" }, { "compute", "t256i4" }, { "compute", "t128i8" },
        { "fragment", "1x1" }, { "fragment", "1x4" }, { "fragment", "4x4" } };
    const size_t n = 1021, padded = 1024;
    for (size_t c = 0; c < COUNT(cases); c++) {
        struct nb_force_backend b;
        struct nb_error err = { 0 };
        struct nb_particles p = { 0 }, q = { 0 };
        ck_assert_int_eq(nb_backend_create(&b, cases[c][0], gl, &err), NB_OK);
        ga_random_system(&p, n, seed + 200, 0);
        ck_assert_int_eq(nb_particles_alloc(&q, padded, &err), NB_OK);
        memcpy(q.x, p.x, 3 * n * sizeof(double));
        memcpy(q.m, p.m, n * sizeof(double));
        for (size_t i = n; i < padded; i++) {
            q.x[3 * i] = q.x[3 * i + 1] = q.x[3 * i + 2] = NB_PAD_COORD;
            q.m[i] = NB_PAD_MASS;
        }
        double acc1[3 * 1024], pot1[1024], acc2[3 * 1024], pot2[1024];
        run_variant(&b, cases[c][1], &p, 0.0, acc1, pot1);
        run_variant(&b, cases[c][1], &q, 0.0, acc2, pot2);
        ck_assert_msg(memcmp(acc1, acc2, 3 * n * sizeof(double)) == 0 &&
                      memcmp(pot1, pot2, n * sizeof(double)) == 0,
                      "%s %s: padding changed a result", cases[c][0], cases[c][1]);
        nb_particles_free(&p);
        nb_particles_free(&q);
        b.destroy(b.state);
    }
}
END_TEST

START_TEST(unknown_variants_refused)
{
    static const char *const cases[][2] = {
        { "compute", "4x4" }, { "compute", "t100i4" }, { "compute", "t64i3" },
        { "compute", "t64i4-s0" }, { "compute", "t64i4x" }, { "fragment", "t64i1" },
        { "fragment", "2x2" }, { "fragment", "4x4-r0" }, { "fragment", "4x4-p" },
        { "fragment", "4x4-r2-p2-q" } };
    for (size_t c = 0; c < COUNT(cases); c++) {
        struct nb_force_backend b;
        struct nb_error err = { 0 };
        ck_assert_int_eq(nb_backend_create(&b, cases[c][0], gl, &err), NB_OK);
        ck_assert_msg(b.set_variant(b.state, cases[c][1], &err) == NB_ERR_ARGS,
                      "%s accepted '%s'", cases[c][0], cases[c][1]);
        ck_assert_ptr_nonnull(strstr(err.message, cases[c][1]));
        b.destroy(b.state);
    }
}
END_TEST

/* A shader that does not compile: the error names the program, the file
 * and carries the driver's log; nothing crashes. */
START_TEST(broken_shader_reported)
{
    char dir[] = "/tmp/glnbody-shaders-XXXXXX", cmd[8192];
    struct nb_gl_options opt;
    struct nb_gl *broken = NULL;
    struct nb_error err = { 0 };
    nb_gl_options_default(&opt);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp -r '%s/glsl' %s/ && echo 'this is not GLSL;' >> %s/glsl/ga.glsl",
             opt.shader_dir, dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    opt.shader_dir = dir;
    opt.shaders = NB_SHADERS_GLSL;
    ck_assert_int_eq(nb_gl_create(&broken, &opt, &err), NB_OK);
    unsigned program;
    ck_assert_int_eq(nb_gl_program(broken, "ga_comp_t64_i1", &program, &err), NB_ERR_GL);
    ck_assert_ptr_nonnull(strstr(err.message, "ga_comp_t64_i1"));
    ck_assert_ptr_nonnull(strstr(err.message, "glsl/ga.glsl"));
    ck_assert_ptr_nonnull(strstr(err.message, "compile"));
    nb_gl_destroy(broken);
    nb_gl_make_current(gl, &err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The stream texture would exceed GL_MAX_TEXTURE_SIZE rows: refused with
 * NB_ERR_LIMIT before any allocation. */
START_TEST(texture_limit_refused)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    size_t n = (size_t)max * NB_STREAM_WIDTH + 1;
    ck_assert_int_eq(nb_backend_create(&b, "fragment", gl, &err), NB_OK);
    ck_assert_int_eq(b.set_particles(b.state, n, NULL, NULL, &err), NB_ERR_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.message, "GL_MAX_TEXTURE_SIZE"));
    b.destroy(b.state);
}
END_TEST

/* ---- GAJ: the Hermite kernel on active blocks ------------------------- */

/* Sorted distinct indices: every particle, every third, or the last one. */
static size_t make_active(uint32_t *active, size_t n, int kind)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (kind == 0 || (kind == 1 && i % 3 == 1) || (kind == 2 && i == n - 1))
            active[count++] = (uint32_t)i;
    if (count == 0)
        active[count++] = 0;
    return count;
}

/* A moving system of n particles (seed s) into p, and b's j-set. */
static void set_moving_jset(struct nb_force_backend *b, struct nb_particles *p, size_t n,
                            uint64_t s)
{
    struct nb_error err = { 0 };
    ga_moving_system(p, n, s);
    ck_assert_msg(b->set_j(b->state, n, p->x, p->v, p->m, &err) == NB_OK, "%s",
                  err.message);
}

START_TEST(gaj_matches_cpu)
{
    static const size_t gaj_sizes[] = { 1, 2, 3, 7, 31, 256, 1000, 4097 };
    static const char *const backends[] = { "compute", "fragment" };
    /* Variants change between evaluations so that targets and buffers are
     * re-made (a stale texture binding once hid there). */
    static const char *const variants[][4] = {
        { "t64i1", "t128i4", "t256i8", "auto" }, { "1x4", "4x4-r3-p2", "1x1-r2", "auto" } };
    for (size_t bk = 0; bk < COUNT(backends); bk++) {
        struct nb_force_backend b;
        struct nb_error err = { 0 };
        ck_assert_int_eq(nb_backend_create(&b, backends[bk], gl, &err), NB_OK);
        for (size_t s = 0; s < COUNT(gaj_sizes); s++) {
            struct nb_particles p = { 0 };
            size_t n = gaj_sizes[s];
            uint32_t *active = malloc(n * sizeof *active);
            set_moving_jset(&b, &p, n, seed + 300 + s);
            for (int kind = 0; kind < 3; kind++)
                for (size_t e = 0; e < COUNT(softenings); e++) {
                    char what[96];
                    size_t na = make_active(active, n, kind);
                    ck_assert_int_eq(b.set_variant(b.state, variants[bk][(2 * kind + e) % 4],
                                                   &err), NB_OK);
                    snprintf(what, sizeof what, "%s GAJ N=%zu active=%zu eps=%g",
                             backends[bk], n, na, softenings[e]);
                    gaj_check_once(&b, &p, softenings[e], active, na, 0.0, TOLERANCE, seed, what);
                }
            free(active);
            nb_particles_free(&p);
        }
        b.destroy(b.state);
    }
}
END_TEST

/* The pieces cut_block (gaj_compute.c) should give: all but the last a
 * multiple of 64 particles, at most 8, none empty. */
static int expected_pieces(size_t na, const char *wanted)
{
    long p = strcmp(wanted, "auto") ? strtol(wanted, NULL, 10)
             : nb_gl_is_software(gl) ? 1 : (long)(na / 1024);
    p = p < 1 ? 1 : p > 8 ? 8 : p;
    size_t step = ((na + (size_t)p - 1) / (size_t)p + 63) / 64 * 64;
    return (int)((na + step - 1) / step);
}

/* Reads each piece of the last compute_gaj_pieces in order: piece k must
 * begin where piece k - 1 ended, and together they must cover the block. */
static void read_pieces(struct nb_force_backend *b, int pieces, size_t na, double *acc,
                        double *jerk, double *pot, const char *what)
{
    struct nb_error err = { 0 };
    size_t done = 0, first, count;
    for (int k = 0; k < pieces; k++) {
        ck_assert_msg(b->read_gaj_piece(b->state, k, acc, jerk, pot, &first, &count,
                                        &err) == NB_OK, "%s: %s", what, err.message);
        ck_assert_msg(first == done && count > 0 && (k == pieces - 1 || count % 64 == 0),
                      "%s: piece %d is slots %zu..%zu after %zu", what, k, first,
                      first + count, done);
        done += count;
    }
    ck_assert_msg(done == na, "%s: pieces cover %zu of %zu", what, done, na);
    ck_assert_int_eq(b->read_gaj_piece(b->state, pieces, acc, jerk, pot, &first, &count,
                                       &err), NB_ERR_ARGS);
}

/* One block cut into pieces: each read on its own, then the whole block
 * read at once after the same cut, both against the CPU. */
static void pieces_round(struct nb_force_backend *b, const struct nb_particles *p,
                         const uint32_t *active, size_t na, const char *wanted,
                         int expected, const char *what)
{
    struct nb_error err = { 0 };
    double *acc = malloc(3 * na * sizeof(double)), *jerk = malloc(3 * na * sizeof(double));
    double *pot = malloc(na * sizeof(double));
    int pieces;
    ck_assert(acc && jerk && pot);
    setenv("GLNBODY_BLOCK_PIECES", wanted, 1);
    for (int whole = 0; whole < 2; whole++) {
        for (size_t k = 0; k < 3 * na; k++)
            acc[k] = jerk[k] = NAN;
        ck_assert_msg(b->compute_gaj_pieces(b->state, 0.01, na, active, &pieces,
                                            &err) == NB_OK, "%s: %s", what, err.message);
        ck_assert_msg(pieces == expected, "%s: %d pieces, expected %d", what, pieces,
                      expected);
        if (whole)
            ck_assert_int_eq(b->read_gaj(b->state, acc, jerk, pot, &err), NB_OK);
        else
            read_pieces(b, pieces, na, acc, jerk, pot, what);
        gaj_compare(p, 0.01, active, na, acc, jerk, pot, 0.0, TOLERANCE, seed, what);
    }
    unsetenv("GLNBODY_BLOCK_PIECES");
    free(acc); free(jerk); free(pot);
}

/* Blocks in pieces (compute backend), each piece corrected while the
 * next computes in a Hermite step: odd and prime sizes, every block
 * particle and a sparse block, dispatches cut inside a piece, and a
 * precision mode, which keeps the block whole. */
START_TEST(gaj_pieces_match_cpu)
{
    static const size_t sizes[] = { 1, 2, 3, 97, 1031, 4099 };
    static const char *const wanted[] = { "1", "2", "3", "8", "auto" };
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_int_eq(nb_backend_create(&b, "compute", gl, &err), NB_OK);
    for (size_t s = 0; s < COUNT(sizes); s++) {
        struct nb_particles p = { 0 };
        size_t n = sizes[s];
        uint32_t *active = malloc(n * sizeof *active);
        set_moving_jset(&b, &p, n, seed + 500 + s);
        for (size_t w = 0; w < COUNT(wanted); w++) {
            char what[96];
            size_t na = make_active(active, n, (int)(w % 2));
            snprintf(what, sizeof what, "GAJ N=%zu active=%zu pieces=%s", n, na, wanted[w]);
            pieces_round(&b, &p, active, na, wanted[w], expected_pieces(na, wanted[w]), what);
        }
        if (n == 1031) {        /* 3000 pair terms: dispatches of one tile */
            setenv("GLNBODY_DISPATCH_PAIRS", "3000", 1);
            pieces_round(&b, &p, active, make_active(active, n, 0), "3", 3,
                         "GAJ N=1031 in 3 pieces of short dispatches");
            unsetenv("GLNBODY_DISPATCH_PAIRS");
        }
        if (n == 4099) {        /* precision H: one piece */
            ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
            ck_assert_int_eq(b.set_j(b.state, n, p.x, p.v, p.m, &err), NB_OK);
            pieces_round(&b, &p, active, make_active(active, n, 0), "8", 1,
                         "GAJ N=4099 precision H");
            ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_A, &err), NB_OK);
        }
        free(active);
        nb_particles_free(&p);
    }
    b.destroy(b.state);
}
END_TEST

/* The device-resident state: predicting on the GPU gives the j-set the
 * host would have made, and a scattered block replaces exactly its
 * particles (compute: predict.comp and scatter.comp; fragment:
 * predict.frag, scatter by points, gather.frag). */
static const char *const device_backends[] = { "compute", "fragment" };

/* One round on backend b: load_state with n particles, a corrected block
 * scattered, the j-set predicted on the device; checked against the host. */
static void device_state_round(struct nb_force_backend *b, size_t n, uint64_t s,
                               const char *what)
{
    const double t = 10.0 + 1.0 / 64;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, q = { 0 };
    struct nb_rng rng;
    double *a = malloc(3 * n * sizeof(double)), *jk = malloc(3 * n * sizeof(double));
    double *t0 = malloc(n * sizeof(double));
    uint32_t *all = malloc(n * sizeof(uint32_t));
    ga_moving_system(&p, n, s);
    ga_moving_system(&q, n, s);
    nb_rng_seed(&rng, s + 1);
    for (size_t i = 0; i < n; i++) {
        t0[i] = t - ldexp(1.0, -(int)(3 + i % 8));      /* block times behind t */
        for (int c = 0; c < 3; c++) {
            a[3 * i + c] = 2.0 * nb_rng_uniform(&rng) - 1.0;
            jk[3 * i + c] = 8.0 * nb_rng_uniform(&rng) - 4.0;
        }
        all[i] = (uint32_t)i;
    }
    /* Half the particles first get stale values, then the true ones as a
     * corrected block. */
    size_t nb = 0;
    uint32_t *blk = malloc(n * sizeof(uint32_t));
    double *bx = malloc(3 * n * sizeof(double)), *bv = malloc(3 * n * sizeof(double));
    double *ba = malloc(3 * n * sizeof(double)), *bj = malloc(3 * n * sizeof(double));
    double *bt = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i += 2, nb++) {
        blk[nb] = (uint32_t)i;
        bt[nb] = t0[i];
        for (int c = 0; c < 3; c++) {
            q.x[3 * i + c] += 0.5;                       /* stale on the device */
            bx[3 * nb + c] = p.x[3 * i + c];
            bv[3 * nb + c] = p.v[3 * i + c];
            ba[3 * nb + c] = a[3 * i + c];
            bj[3 * nb + c] = jk[3 * i + c];
        }
    }
    ck_assert_msg(b->load_state(b->state, n, q.x, q.v, a, jk, t0, p.m, &err) == NB_OK,
                  "%s: %s", what, err.message);
    ck_assert_msg(b->update_state(b->state, nb, blk, bx, bv, ba, bj, bt, &err) == NB_OK,
                  "%s: %s", what, err.message);
    ck_assert_msg(b->predict_j(b->state, t, &err) == NB_OK, "%s: %s", what, err.message);
    /* The host's prediction in double, for the reference. */
    for (size_t i = 0; i < n; i++) {
        double dt = t - t0[i];
        for (int c = 0; c < 3; c++) {
            double x = p.x[3 * i + c], v = p.v[3 * i + c];
            double aa = a[3 * i + c], jj = jk[3 * i + c];
            p.x[3 * i + c] = x + dt * (v + dt * (aa / 2 + dt * jj / 6));
            p.v[3 * i + c] = v + dt * (aa + dt * jj / 2);
        }
    }
    /* The device predicts in float: positions up to |x| ~ 1.2 here, a few
     * roundings each (4 ulps allowed). */
    double dx = 4.0 * ldexp(1.0, -24) * 2.0;
    gaj_check_once(b, &p, 0.01, all, n, dx, TOLERANCE, seed, what);
    gaj_check_once(b, &p, 0.0, blk, nb, dx, TOLERANCE, seed, what);   /* a sparse block */
    blk[nb - 1] = (uint32_t)n;                  /* one past the last particle */
    ck_assert_int_eq(b->compute_gaj(b->state, 0.01, nb, blk, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "out of range"), "%s", err.message);
    ck_assert_int_eq(b->update_state(b->state, nb, blk, bx, bv, ba, bj, bt, &err),
                     NB_ERR_ARGS);
    free(a); free(jk); free(t0); free(all); free(blk);
    free(bx); free(bv); free(ba); free(bj); free(bt);
    nb_particles_free(&p);
    nb_particles_free(&q);
}

START_TEST(device_prediction_matches_host)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_int_eq(nb_backend_create(&b, device_backends[_i], gl, &err), NB_OK);
    device_state_round(&b, 1031, seed + 400, device_backends[_i]);
    b.destroy(b.state);
}
END_TEST

/* A larger j-set after a device state re-makes the pipeline's streams;
 * the next load_state must start from fresh objects, not deleted ones
 * (the fragment backend once kept the names of the textures and
 * framebuffers it had deleted). */
START_TEST(device_state_survives_growth)
{
    static const size_t sizes[] = { 3, 1031, 2053 };
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    char what[64];
    ck_assert_int_eq(nb_backend_create(&b, device_backends[_i], gl, &err), NB_OK);
    for (size_t k = 0; k < COUNT(sizes); k++) {
        struct nb_particles p = { 0 };
        ga_moving_system(&p, sizes[k], seed + 410 + k);
        ck_assert_msg(b.set_j(b.state, p.n, p.x, p.v, p.m, &err) == NB_OK, "%s",
                      err.message);
        nb_particles_free(&p);
        snprintf(what, sizeof what, "%s after set_j of %zu", device_backends[_i], sizes[k]);
        device_state_round(&b, k ? sizes[k] : 1031, seed + 420 + k, what);
    }
    b.destroy(b.state);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    TCase *tc = tcase_create("ga");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, compute_matches_cpu);
    tcase_add_test(tc, fragment_matches_cpu);
    tcase_add_test(tc, fragment_splits_agree);
    tcase_add_test(tc, compute_splits_agree);
    tcase_add_test(tc, padding_changes_nothing);
    tcase_add_test(tc, unknown_variants_refused);
    tcase_add_test(tc, broken_shader_reported);
    tcase_add_test(tc, texture_limit_refused);
    tcase_add_test(tc, gaj_matches_cpu);
    tcase_add_test(tc, gaj_pieces_match_cpu);
    tcase_add_loop_test(tc, device_prediction_matches_host, 0, COUNT(device_backends));
    tcase_add_loop_test(tc, device_state_survives_growth, 0, COUNT(device_backends));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_gpu", gpu_suite(), &gl, &seed);
}
