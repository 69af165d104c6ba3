/* check_triangular.c - the Newton's-third-law MD kernels (seed 003 section
 * 6.4; src/md_triangular.c) against the square loop and the CPU reference
 * nb_md_cpu_forces (double), on fresh random multi-type ionic and LJ
 * systems (Mesa llvmpipe in CI, any GL 4.3 GPU elsewhere).
 *
 * Bounds, per particle i of n: |dF| <= tol(n) sum_j |F_ij| and |dpe| <=
 * tol(n) sum_j |u_ij| / 2, with tol(n) = 5e-6 + n 2^-26, against the CPU
 * and against the square loop of the same scale alike (not the doubled
 * bound the triangle inequality would allow).  Each pair term counts as
 * the sum of its parts' magnitudes (LJ's r^-12 and r^-6, ionic Coulomb and
 * repulsion), which cancel near equilibrium while float rounding stays
 * relative to them.  The first term covers one float pair term: a few
 * ulps of its parts on llvmpipe (2.7e-7 seen at n = 2), up to ~3e-6 where
 * pow(1/r, cz) is ex2(cz lg2(1/r)) and 1/r an rsqrt, both approximate
 * (NVIDIA), since cz <= 12 multiplies their errors.  The second covers
 * the sums: a float sum of n terms errs by up to n 2^-24 of the sum of
 * their magnitudes (Higham's bound for recursive summation; in a crystal
 * the terms cancel, so the magnitude sum is the scale, not |F|), and about
 * 0.05 n 2^-24 is what the square loop and the triangles show on llvmpipe
 * (7.4e-6 for LJ at n = 2311, SPIR-V and GLSL paths, 8 seeds); a quarter
 * of the worst case keeps 4x over that, and a near pair dropped, counted
 * twice, or given the wrong sign or type still fails.  Positions are
 * float-representable, so the bounds measure the kernels, not the
 * rounding of the input.  NB_TEST_SEED=S replays a run. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md_triangular.h"
#define NB_SUITE_LOOP_UNIFORM_PROBE   /* loop_uniform_probe.h */
#include "gl_suite.h"
#include "md_fixtures.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static uint64_t seed;

/* 1-3, primes, sizes around the work groups (128, 512) and tiles (512):
 * 513 and 1031 make 2 and 3 tiles (even and odd round-robin), 2048 is
 * tri3-wg's largest, 2311 (prime, 5 tiles) only for the rest. */
static const size_t sizes[] = { 1, 2, 3, 7, 31, 127, 257, 513, 1031, 2048, 2311 };

/* n particles of `types` types, spacing 1, each coordinate within 0.1 of
 * its site (no pair closer than 0.8), open box, no cutoff. */
static void make_particles(struct nb_particles *p, struct nb_md_box *box, size_t n,
                           int types, uint64_t s)
{
    md_lattice(p, box, n, types, 1.0, 0.2, 0.0, 0, s);
}

/* Forces, energies and the scales of one system. */
struct solution {
    size_t n;
    double *f, *pe, *f_abs, *u_abs;
};

static void solution_alloc(struct solution *s, size_t n)
{
    s->n = n;
    s->f = calloc(3 * n + 1, sizeof(double));
    s->pe = calloc(n + 1, sizeof(double));
    s->f_abs = calloc(n + 1, sizeof(double));
    s->u_abs = calloc(n + 1, sizeof(double));
    ck_assert(s->f && s->pe && s->f_abs && s->u_abs);
}

static void solution_free(struct solution *s)
{
    free(s->f);
    free(s->pe);
    free(s->f_abs);
    free(s->u_abs);
}

/* The CPU's forces and energies, with the magnitude sums. */
static void reference(const struct nb_md_system *sys, const double *x, struct solution *ref)
{
    struct nb_error err = { 0 };
    double *vir = calloc(sys->n + 1, sizeof *vir), *w_abs = calloc(sys->n + 1, sizeof *w_abs);
    ck_assert(vir && w_abs);
    solution_alloc(ref, sys->n);
    ck_assert_msg(nb_md_cpu_forces(sys, x, ref->f, ref->pe, vir, &err) == NB_OK, "%s",
                  err.message);
    md_pair_magnitudes(sys, x, ref->f_abs, ref->u_abs, w_abs);
    free(vir);
    free(w_abs);
}

/* Runs variant; NB_OK or the status it refused with. */
static enum nb_status run_variant(const struct nb_md_system *sys, const double *x,
                                  const char *variant, struct solution *got,
                                  struct nb_error *err)
{
    double seconds = -1.0;
    solution_alloc(got, sys->n);
    enum nb_status st = nb_md_tri_forces(gl, sys, x, variant, got->f, got->pe, &seconds, err);
    if (st == NB_OK)
        ck_assert_msg(seconds >= 0.0 && isfinite(seconds), "%s: %g s", variant, seconds);
    return st;
}

/* The relative bound for n particles (see the top). */
static double tolerance(size_t n)
{
    return 5e-6 + (double)n * 0x1p-26;
}

/* got against want, on ref's scales. */
static void assert_close(const struct solution *got, const struct solution *want,
                         const struct solution *ref, const char *what)
{
    double tol = tolerance(ref->n);
    for (size_t i = 0; i < ref->n; i++) {
        for (int a = 0; a < 3; a++)
            ck_assert_msg(fabs(got->f[3 * i + a] - want->f[3 * i + a]) <= tol * ref->f_abs[i],
                          "%s: F[%zu][%d] = %.9g, expected %.9g (scale %.3g, seed %llu)",
                          what, i, a, got->f[3 * i + a], want->f[3 * i + a], ref->f_abs[i],
                          (unsigned long long)seed);
        ck_assert_msg(fabs(got->pe[i] - want->pe[i]) <= tol * ref->u_abs[i],
                      "%s: pe[%zu] = %.9g, expected %.9g (scale %.3g, seed %llu)", what, i,
                      got->pe[i], want->pe[i], ref->u_abs[i], (unsigned long long)seed);
    }
}

static int one_work_group(const char *variant)
{
    return strstr(variant, "-wg") != NULL;
}

/* Every variant of one system against the CPU and the square loop of its
 * scale; tri3-wg refuses n > NB_TRI_WG_MAX with NB_ERR_LIMIT. */
static void check_system(const struct nb_md_system *sys, const double *x, const char *label)
{
    const char *const *names = nb_md_tri_variants();
    struct solution ref, square[2];
    struct nb_error err = { 0 };
    char what[128];
    reference(sys, x, &ref);
    for (int gpu = 0; gpu < 2; gpu++) {
        snprintf(what, sizeof what, "%s %s", label, gpu ? "square-gpu" : "square-wg");
        ck_assert_msg(run_variant(sys, x, gpu ? "square-gpu" : "square-wg", &square[gpu],
                                  &err) == NB_OK, "%s: %s", what, err.message);
        assert_close(&square[gpu], &ref, &ref, what);
    }
    for (size_t k = 0; names[k]; k++) {
        struct solution got;
        snprintf(what, sizeof what, "%s %s", label, names[k]);
        enum nb_status st = run_variant(sys, x, names[k], &got, &err);
        if (strcmp(names[k], "tri3-wg") == 0 && sys->n > NB_TRI_WG_MAX) {
            ck_assert_msg(st == NB_ERR_LIMIT, "%s: status %d, expected NB_ERR_LIMIT", what,
                          (int)st);
        } else {
            ck_assert_msg(st == NB_OK, "%s: %s", what, err.message);
            assert_close(&got, &ref, &ref, what);
            assert_close(&got, &square[!one_work_group(names[k])], &ref, what);
        }
        solution_free(&got);
    }
    solution_free(&square[0]);
    solution_free(&square[1]);
    solution_free(&ref);
}

/* Random multi-type systems of every size, for the ionic law (_i = 0)
 * and LJ (_i = 1). */
START_TEST(variants_match_square_and_cpu)
{
    enum nb_md_law law = _i == 0 ? NB_LAW_IONIC : NB_LAW_LJ;
    for (size_t k = 0; k < COUNT(sizes); k++) {
        struct nb_particles p = { 0 };
        struct nb_md_box box;
        struct nb_md_potential pot;
        struct nb_md_system sys;
        char label[64];
        uint64_t s = seed + 131 * k + (uint64_t)_i;
        int types = 1 + (int)(s % 4);
        make_particles(&p, &box, sizes[k], types, s);
        md_random_potential(&pot, law, types, 0.0, 0, s);
        md_system_of(&sys, &p, &pot, &box, 0);
        snprintf(label, sizeof label, "%s n=%zu types=%d", nb_md_law_name(law), sizes[k],
                 types);
        check_system(&sys, p.x, label);
        nb_particles_free(&p);
    }
}
END_TEST

/* Seed 003's system: the fluorite crystal of 3^3 cells (N = 324, Table 5)
 * with the default UO2-like coefficients (nb_md_ionic_default). */
START_TEST(seed_crystal_matches)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    nb_md_ionic_default(&pot);
    ck_assert_msg(nb_md_ionic_crystal(&p, &box, 3, 1.0, &pot, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_uint_eq(p.n, 324);
    md_system_of(&sys, &p, &pot, &box, 0);
    check_system(&sys, p.x, "fluorite 3^3");
    nb_particles_free(&p);
}
END_TEST

/* No variant depends on the order the GPU runs its invocations in: two
 * runs give the same bits (tri3-gpu's reason to use partial sums rather
 * than float atomics). */
START_TEST(variants_are_deterministic)
{
    const char *const *names = nb_md_tri_variants();
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    make_particles(&p, &box, 1031, 3, seed);
    md_random_potential(&pot, NB_LAW_IONIC, 3, 0.0, 0, seed);
    md_system_of(&sys, &p, &pot, &box, 0);
    for (size_t k = 0; names[k]; k++) {
        struct solution a, b;
        ck_assert_msg(run_variant(&sys, p.x, names[k], &a, &err) == NB_OK, "%s: %s",
                      names[k], err.message);
        ck_assert_msg(run_variant(&sys, p.x, names[k], &b, &err) == NB_OK, "%s: %s",
                      names[k], err.message);
        ck_assert_msg(memcmp(a.f, b.f, 3 * p.n * sizeof *a.f) == 0 &&
                      memcmp(a.pe, b.pe, p.n * sizeof *a.pe) == 0,
                      "%s: two runs differ", names[k]);
        solution_free(&a);
        solution_free(&b);
    }
    nb_particles_free(&p);
}
END_TEST

/* Sizes a variant cannot hold are refused before any GPU work, naming the
 * limit: tri3-wg above NB_TRI_WG_MAX, every -wg variant far above it, the
 * pair matrices of tri1 and tri2 over the storage-block limit. */
START_TEST(too_large_refused)
{
    static const struct { size_t n; const char *variant, *says; } cases[] = {
        { NB_TRI_WG_MAX + 1, "tri3-wg", "shared memory" },
        { 100000, "square-wg", "work group" },
        { 100000, "tri2-wg", "work group" },
        { 100000, "tri1-gpu", "GL_MAX_SHADER_STORAGE_BLOCK_SIZE" },
        { 100000, "tri2-gpu", "GL_MAX_SHADER_STORAGE_BLOCK_SIZE" },
    };
    struct nb_md_potential pot;
    nb_md_ionic_default(&pot);
    for (size_t k = 0; k < COUNT(cases); k++) {
        struct nb_particles p = { 0 };
        struct nb_md_box box;
        struct nb_md_system sys;
        struct nb_error err = { 0 };
        struct solution out;
        double seconds;
        make_particles(&p, &box, cases[k].n, 2, seed + k);
        md_system_of(&sys, &p, &pot, &box, 0);
        solution_alloc(&out, p.n);
        enum nb_status st = nb_md_tri_forces(gl, &sys, p.x, cases[k].variant, out.f, out.pe,
                                             &seconds, &err);
        ck_assert_msg(st == NB_ERR_LIMIT, "%s n=%zu: status %d (%s)", cases[k].variant,
                      cases[k].n, (int)st, err.message);
        ck_assert_msg(strstr(err.message, cases[k].says) &&
                      strstr(err.message, cases[k].variant),
                      "%s: message '%s' does not say '%s'", cases[k].variant, err.message,
                      cases[k].says);
        solution_free(&out);
        nb_particles_free(&p);
    }
}
END_TEST

/* Systems outside the kernels' scope are refused, naming why; an unknown
 * variant is an argument error. */
START_TEST(other_systems_refused)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    struct solution out;
    double seconds;
    static const struct { const char *variant, *says; } cases[] = {
        { "tri4-gpu", "tri4-gpu" }, { "tri3-gpu", "periodic" }, { "tri3-gpu", "cutoff" },
        { "tri3-wg", "cell lists" }, { "tri1-wg", "ljc-constant" }, { "square-gpu", "periodic" },
    };
    make_particles(&p, &box, 27, 2, seed);
    md_random_potential(&pot, NB_LAW_IONIC, 2, 0.0, 0, seed);
    md_system_of(&sys, &p, &pot, &box, 0);
    solution_alloc(&out, p.n);
    for (size_t k = 0; k < COUNT(cases); k++) {
        /* 0: as made; 1: y periodic (needs a cutoff); 2: open again; 3: cell
         * lists; 4: the LJC law without cutoff; 5: LJ with z periodic. */
        box.periodic[1] = k == 1;
        box.hi[1] = k == 1 ? 40.0 : box.hi[0];
        pot.cutoff = k == 1 || k == 2 || k == 3 || k == 5 ? 2.5 : 0.0;
        sys.cell_list = k == 3;
        pot.law = k == 4 ? NB_LAW_LJC_CONSTANT : k == 5 ? NB_LAW_LJ : NB_LAW_IONIC;
        box.periodic[2] = k == 5;
        box.hi[2] = k == 5 ? 40.0 : box.hi[0];
        enum nb_status st = nb_md_tri_forces(gl, &sys, p.x, cases[k].variant, out.f, out.pe,
                                             &seconds, &err);
        ck_assert_msg(st == (k == 0 ? NB_ERR_ARGS : NB_ERR_UNSUPPORTED),
                      "case %zu (%s): status %d (%s)", k, cases[k].variant, (int)st,
                      err.message);
        ck_assert_msg(strstr(err.message, cases[k].says), "case %zu: message '%s' does not "
                      "say '%s'", k, err.message, cases[k].says);
    }
    solution_free(&out);
    nb_particles_free(&p);
}
END_TEST

/* Mode H: every pair term rounded once to int64 fixed point and summed
 * exactly, so Newton's third law changes nothing: every variant's int64
 * sums equal the square loop's and nb_md_prec_forces' (md_precision.comp,
 * the same scale from the same magnitude pass) bit for bit, the forces
 * sum to exactly zero, and the finished forces meet the float bounds
 * against the CPU.  Small odd sizes: 1-3, 97 (one partial work group)
 * and 601 (two tri3-gpu tiles, padded; past tri1's and tri2's chunk
 * flush every 512 terms), ionic (_i = 0) and LJ (_i = 1). */
static const size_t fixed_sizes[] = { 1, 2, 3, 97, 601 };

START_TEST(fixed_point_bit_identical)
{
    enum nb_md_law law = _i == 0 ? NB_LAW_IONIC : NB_LAW_LJ;
    const char *const *names = nb_md_tri_variants();
    for (size_t k = 0; k < COUNT(fixed_sizes); k++) {
        struct nb_particles p = { 0 };
        struct nb_md_box box;
        struct nb_md_potential pot;
        struct nb_md_system sys;
        struct nb_error err = { 0 };
        struct solution ref, prec;
        uint64_t s = seed + 977 * k + (uint64_t)_i;
        int types = 1 + (int)(s % 4), log2[2] = { 0, 0 }, measured[2];
        size_t n = fixed_sizes[k];
        double secs[2];
        int64_t *want = calloc(4 * n, sizeof *want), *got = calloc(4 * n, sizeof *got);
        ck_assert(want && got);
        make_particles(&p, &box, n, types, s);
        md_random_potential(&pot, law, types, 0.0, 0, s);
        md_system_of(&sys, &p, &pot, &box, 0);
        reference(&sys, p.x, &ref);
        solution_alloc(&prec, n);
        ck_assert_msg(nb_md_prec_forces(gl, &sys, p.x, NB_PRECISION_H, prec.f, prec.pe, secs,
                                        want, log2, &err) == NB_OK, "%s", err.message);
        ck_assert_msg(nb_md_tri_scales(gl, &sys, p.x, NB_PRECISION_H, measured, &err) == NB_OK, "%s",
                      err.message);
        ck_assert_int_eq(measured[0], log2[0]);
        ck_assert_int_eq(measured[1], log2[1]);
        char bad[512] = "";
        for (size_t v = 0; names[v]; v++) {
            struct solution out;
            double seconds = -1.0;
            char what[128];
            snprintf(what, sizeof what, "H %s n=%zu types=%d %s", nb_md_law_name(law), n,
                     types, names[v]);
            solution_alloc(&out, n);
            memset(got, 0x5a, 4 * n * sizeof *got);
            /* tri1-gpu measures its own scale: the same */
            enum nb_status st = nb_md_tri_forces_prec(gl, &sys, p.x, names[v], NB_PRECISION_H,
                                                      strcmp(names[v], "tri1-gpu") ? log2 : NULL,
                                                      out.f, out.pe, got, &seconds, &err);
            ck_assert_msg(st == NB_OK, "%s: %s", what, err.message);
            ck_assert_msg(seconds >= 0.0 && isfinite(seconds), "%s: %g s", what, seconds);
            for (size_t w = 0; w < 4 * n; w++)
                if (got[w] != want[w]) {     /* every variant's first, then fail */
                    size_t len = strlen(bad);
                    snprintf(bad + len, sizeof bad - len, "; %s word %zu: %lld, not %lld",
                             names[v], w, (long long)got[w], (long long)want[w]);
                    break;
                }
            assert_close(&out, &ref, &ref, what);
            solution_free(&out);
        }
        ck_assert_msg(!bad[0], "H %s n=%zu types=%d, differ from md_precision's H "
                      "(seed %llu)%s", nb_md_law_name(law), n, types, (unsigned long long)seed,
                      bad);
        for (int c = 0; c < 3; c++) {
            uint64_t total = 0;     /* wrapping: the true sum is below 2^63 */
            for (size_t i = 0; i < n; i++)
                total += (uint64_t)want[4 * i + c];
            ck_assert_msg(total == 0, "H %s n=%zu: sum of F_%c is %lld, not 0",
                          nb_md_law_name(law), n, "xyz"[c], (long long)total);
        }
        solution_free(&prec);
        solution_free(&ref);
        free(want);
        free(got);
        nb_particles_free(&p);
    }
}
END_TEST

/* The modes' refusals: G with the ionic law (GLSL has no double pow),
 * naming why, and tri3-wg above NB_TRI_WG_MAX_H in H and B (its shared
 * reactions are eight-word states), naming the limit. */
START_TEST(fixed_point_refusals)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    struct solution out;
    double seconds;
    int log2[2] = { 40, 40 };
    make_particles(&p, &box, NB_TRI_WG_MAX_H + 1, 2, seed);
    md_random_potential(&pot, NB_LAW_IONIC, 2, 0.0, 0, seed);
    md_system_of(&sys, &p, &pot, &box, 0);
    solution_alloc(&out, p.n);
    ck_assert_int_eq(nb_md_tri_forces_prec(gl, &sys, p.x, "tri2-gpu", NB_PRECISION_G, log2,
                                           out.f, out.pe, NULL, &seconds, &err),
                     NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "precision G") && strstr(err.message, "double") &&
                  strstr(err.message, "ionic"), "%s", err.message);
    for (int m = NB_PRECISION_B; m <= NB_PRECISION_H; m += NB_PRECISION_H - NB_PRECISION_B) {
        ck_assert_int_eq(nb_md_tri_forces_prec(gl, &sys, p.x, "tri3-wg", (enum nb_precision)m,
                                               log2, out.f, out.pe, NULL, &seconds, &err),
                         NB_ERR_LIMIT);
        ck_assert_msg(strstr(err.message, "NB_TRI_WG_MAX_H"), "%s", err.message);
    }
    solution_free(&out);
    nb_particles_free(&p);
}
END_TEST

/* Modes B..G (_i = 0..5): every variant against the CPU in double and
 * against the square loop of the same mode and scale (square-wg for the
 * -wg variants, md_precision.comp's kernel for the -gpu ones), within
 * check_md_precision.c's bound of the mode: per particle and component
 * |dF| <= bound S_i with S_i = sum_j |F_ij| counted part by part, bound
 * 2e-6 (B, C, D, F: only each float pair term's own rounding survives the
 * sum), 4e-6 (E: plus ls's rounding of up to N errors of ulp(LARGE) / 2)
 * and 1e-12 (G: double pair terms and sums); the energies alike against
 * sum_j |u_ij| / 2.  The kernels sum in other orders than the square loop
 * (tri2's columns after its rows, tri3's merges of partial states), so
 * they agree with it to the bound, not bit for bit.  Ionic and LJ (G: LJ
 * only), sizes 1-3, 97 (one partial work group) and 521 (prime: two
 * tri3-gpu tiles, padded; past the flushes every 128 terms).  E and F take
 * the scales nb_md_tri_scales measures (md_precision.c's), once per
 * system, and give the same result when the call measures them itself.
 * G's positions are moved off the float grid (off_float_grid), so that a
 * kernel that rounds a double position to float anywhere fails its bound. */
static const size_t mode_sizes[] = { 1, 2, 3, 97, 521 };

/* Each coordinate moved by a few 1e-9, which float cannot hold (its ulp
 * near 1-10 is 1e-7 to 1e-6). */
static void off_float_grid(struct nb_particles *p)
{
    for (size_t k = 0; k < 3 * p->n; k++)
        p->x[k] += 1e-9 * (double)((int)(k % 11) - 5);
}

static double mode_bound(enum nb_precision mode)
{
    return mode == NB_PRECISION_G ? 1e-12 : mode == NB_PRECISION_E ? 4e-6 : 2e-6;
}

/* got against want within the mode's bound on ref's scales. */
static void assert_mode_close(const struct solution *got, const struct solution *want,
                              const struct solution *ref, double bound, const char *what)
{
    for (size_t i = 0; i < ref->n; i++) {
        for (int a = 0; a < 3; a++)
            ck_assert_msg(fabs(got->f[3 * i + a] - want->f[3 * i + a]) <=
                          bound * ref->f_abs[i], "%s: F[%zu][%d] = %.15g, expected %.15g "
                          "(S_i %.3g, seed %llu)", what, i, a, got->f[3 * i + a],
                          want->f[3 * i + a], ref->f_abs[i], (unsigned long long)seed);
        ck_assert_msg(fabs(got->pe[i] - want->pe[i]) <= bound * ref->u_abs[i],
                      "%s: pe[%zu] = %.15g, expected %.15g (scale %.3g, seed %llu)", what, i,
                      got->pe[i], want->pe[i], ref->u_abs[i], (unsigned long long)seed);
    }
}

static void run_mode(const struct nb_md_system *sys, const double *x, const char *variant,
                     enum nb_precision mode, const int log2[2], struct solution *out,
                     const char *what)
{
    struct nb_error err = { 0 };
    double seconds = -1.0;
    solution_alloc(out, sys->n);
    ck_assert_msg(nb_md_tri_forces_prec(gl, sys, x, variant, mode, log2, out->f, out->pe,
                                        NULL, &seconds, &err) == NB_OK, "%s: %s", what,
                  err.message);
    ck_assert_msg(seconds >= 0.0 && isfinite(seconds), "%s: %g s", what, seconds);
}

START_TEST(modes_match_square_and_cpu)
{
    enum nb_precision mode = (enum nb_precision)(NB_PRECISION_B + _i);
    const char *const *names = nb_md_tri_variants();
    double bound = mode_bound(mode);
    for (int l = 0; l < 2; l++) {
        enum nb_md_law law = l == 0 ? NB_LAW_LJ : NB_LAW_IONIC;
        if (mode == NB_PRECISION_G && law == NB_LAW_IONIC)
            continue;           /* refused: fixed_point_refusals */
        for (size_t k = 0; k < COUNT(mode_sizes); k++) {
            struct nb_particles p = { 0 };
            struct nb_md_box box;
            struct nb_md_potential pot;
            struct nb_md_system sys;
            struct nb_error err = { 0 };
            struct solution ref, square[2];
            uint64_t s = seed + 613 * k + 7 * (uint64_t)_i + (uint64_t)l;
            int types = 1 + (int)(s % 4), log2[2];
            size_t n = mode_sizes[k];
            char what[128];
            make_particles(&p, &box, n, types, s);
            if (mode == NB_PRECISION_G)
                off_float_grid(&p);
            md_random_potential(&pot, law, types, 0.0, 0, s);
            md_system_of(&sys, &p, &pot, &box, 0);
            reference(&sys, p.x, &ref);
            ck_assert_msg(nb_md_tri_scales(gl, &sys, p.x, mode, log2, &err) == NB_OK, "%s",
                          err.message);
            for (int gpu = 0; gpu < 2; gpu++) {
                snprintf(what, sizeof what, "%s %s n=%zu types=%d %s", nb_precision_name(mode),
                         nb_md_law_name(law), n, types, gpu ? "square-gpu" : "square-wg");
                run_mode(&sys, p.x, gpu ? "square-gpu" : "square-wg", mode, log2, &square[gpu],
                         what);
                assert_mode_close(&square[gpu], &ref, &ref, bound, what);
            }
            for (size_t v = 0; names[v]; v++) {
                struct solution out;
                snprintf(what, sizeof what, "%s %s n=%zu types=%d %s", nb_precision_name(mode),
                         nb_md_law_name(law), n, types, names[v]);
                /* tri2-gpu measures its own scales: the same */
                run_mode(&sys, p.x, names[v], mode, strcmp(names[v], "tri2-gpu") ? log2 : NULL,
                         &out, what);
                assert_mode_close(&out, &ref, &ref, bound, what);
                assert_mode_close(&out, &square[!one_work_group(names[v])], &ref, bound, what);
                solution_free(&out);
            }
            solution_free(&square[0]);
            solution_free(&square[1]);
            solution_free(&ref);
            nb_particles_free(&p);
        }
    }
}
END_TEST

static Suite *triangular_suite(void)
{
    Suite *s = suite_create("triangular");
    TCase *tc = tcase_create("newton3");
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, variants_match_square_and_cpu, 0, 2);
    tcase_add_test(tc, seed_crystal_matches);
    tcase_add_test(tc, variants_are_deterministic);
    tcase_add_test(tc, too_large_refused);
    tcase_add_test(tc, other_systems_refused);
    tcase_add_loop_test(tc, fixed_point_bit_identical, 0, 2);
    tcase_add_test(tc, fixed_point_refusals);
    tcase_add_loop_test(tc, modes_match_square_and_cpu, 0, NB_PRECISION_G - NB_PRECISION_B + 1);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_triangular", triangular_suite(), &gl, &seed);
}
