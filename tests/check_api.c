/* check_api.c - the public API of glnbody.h, and only it (no internal
 * header: the test proves the header self-sufficient), on fresh random
 * inputs (the seed is printed; NB_TEST_SEED=S replays it).
 *
 * References are pair sums in double computed here.  Inputs are rounded to
 * float first, so the bounds measure the engines' arithmetic, not the
 * rounding of the input.  With u = 2^-24 and S_i = sum_j |a_ij| (the pair
 * magnitudes, which bound rounding even where the terms cancel):
 *   cpu      double sums in another order: |da| <= 1e-12 S_i;
 *   A        float sums: ~ (tile + N / tile) u S_i on the tiled kernels,
 *            bound 1e-5 S_i (check_gpu's);
 *   H        each float pair term rounded once to int64 fixed point and
 *            summed exactly: a few u per pair term, 8 u S_i = 4.8e-7 S_i
 *            for GA (check_precision's); for GAJ the worst single term,
 *            16 u = 9.5e-7, and 128 u = 7.6e-6 for the jerk, whose terms
 *            cancel inside themselves (check_gaj_precision's argument);
 * the same for phi (with sum_j |phi_ij|) and the jerk (with the sum of the
 * magnitudes of its pair terms' two parts, >= check_gaj_precision's
 * scale sum_j m_j |v_ij| / s^3).  Hermite and MD: bounds argued where
 * they are set (contexts and threads: check_api_contexts.c).  Without a GL context the CPU tests run and
 * the suite exits 77 (skipped). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "glnbody.h"
#include "api_fixtures.h"

#define SKIPPED 77
#define EPS 0.01                /* softening of the force tests */

uint64_t g_seed;
static struct nb_gl *g_gl;      /* NULL: no GL context on this machine */

static const size_t sizes[] = { 1, 2, 3, 5, 31, 127, 257 };
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* GA of every size against the reference, within tol of the magnitudes. */
static void check_ga(enum nb_engine engine, enum nb_precision mode, double tol)
{
    struct nb_forces *f = forces_open(g_gl, engine, mode);
    struct nb_error err = { 0 };
    for (size_t s = 0; s < N_SIZES; s++) {
        struct bodies b = bodies_random(sizes[s], s);
        double *acc = malloc(4 * b.n * sizeof(double)), *pot = acc + 3 * b.n;
        ck_assert_msg(nb_forces_ga(f, b.n, b.x, b.m, EPS, acc, pot, &err) == NB_OK,
                      "engine %d n %zu: %s", (int)engine, b.n, err.message);
        for (size_t i = 0; i < b.n; i++) {
            struct ref r = reference(&b, i, EPS);
            ck_assert_msg(dist3(acc + 3 * i, r.acc) <= tol * r.acc_abs &&
                          fabs(pot[i] - r.pot) <= tol * r.pot_abs,
                          "engine %d mode %d n %zu particle %zu: da %.3g dphi %.3g of "
                          "scale (seed %llu)", (int)engine, (int)mode, b.n, i,
                          dist3(acc + 3 * i, r.acc) / r.acc_abs,
                          fabs(pot[i] - r.pot) / r.pot_abs, (unsigned long long)g_seed);
        }
        /* acc alone: the potential the caller did not ask for is not written. */
        ck_assert_int_eq(nb_forces_ga(f, b.n, b.x, b.m, EPS, acc, NULL, &err), NB_OK);
        ck_assert_str_ne(nb_forces_variant(f), "none");
        ck_assert(nb_forces_seconds(f) >= 0.0);
        free(acc);
        bodies_free(&b);
    }
    nb_forces_destroy(f);
}

/* GAJ for every other body (and the last) of every size. */
static void check_gaj(enum nb_engine engine, enum nb_precision mode, double tol,
                      double tol_jerk)
{
    struct nb_forces *f = forces_open(g_gl, engine, mode);
    struct nb_error err = { 0 };
    for (size_t s = 0; s < N_SIZES; s++) {
        struct bodies b = bodies_random(sizes[s], 100 + s);
        uint32_t *active = malloc(b.n * sizeof(uint32_t));
        size_t na = 0;
        for (size_t i = 0; i < b.n; i++)
            if (i % 2 == 0 || i == b.n - 1)
                active[na++] = (uint32_t)i;
        double *acc = malloc(7 * na * sizeof(double)), *jerk = acc + 3 * na, *pot = jerk + 3 * na;
        ck_assert_msg(nb_forces_set_j(f, b.n, b.x, b.v, b.m, &err) == NB_OK &&
                      nb_forces_gaj(f, EPS, na, active, acc, jerk, pot, &err) == NB_OK,
                      "engine %d n %zu: %s", (int)engine, b.n, err.message);
        for (size_t k = 0; k < na; k++) {
            struct ref r = reference(&b, active[k], EPS);
            ck_assert_msg(dist3(acc + 3 * k, r.acc) <= tol * r.acc_abs &&
                          dist3(jerk + 3 * k, r.jerk) <= tol_jerk * r.jerk_abs &&
                          fabs(pot[k] - r.pot) <= tol * r.pot_abs,
                          "engine %d mode %d n %zu particle %u: da %.3g dj %.3g dphi %.3g "
                          "(seed %llu)", (int)engine, (int)mode, b.n, active[k],
                          dist3(acc + 3 * k, r.acc) / r.acc_abs,
                          dist3(jerk + 3 * k, r.jerk) / r.jerk_abs,
                          fabs(pot[k] - r.pot) / r.pot_abs, (unsigned long long)g_seed);
        }
        ck_assert_int_eq(nb_forces_gaj(f, EPS, na, active, acc, NULL, NULL, &err), NB_OK);
        free(active);
        free(acc);
        bodies_free(&b);
    }
    nb_forces_destroy(f);
}

START_TEST(version_numbers)
{
    int major = -1, minor = -1, patch = -1;
    char text[64];
    nb_version_numbers(&major, &minor, &patch);
    ck_assert_int_eq(major, NB_VERSION_MAJOR);
    ck_assert_int_eq(minor, NB_VERSION_MINOR);
    ck_assert_int_eq(patch, NB_VERSION_PATCH);
    snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
    ck_assert_str_eq(nb_version(), text);
    nb_version_numbers(NULL, NULL, NULL);
}
END_TEST

/* Every engine and kernel against the reference, with the bounds argued
 * at the top; the CPU's cases come first (they need no context). */
static const struct engine_case {
    enum nb_engine engine;
    enum nb_precision mode;
    int gaj;                    /* 0: GA, 1: GAJ */
    double tol, tol_jerk;
} engine_cases[] = {
    { NB_ENGINE_CPU, NB_PRECISION_A, 0, 1e-12, 0 },
    { NB_ENGINE_CPU, NB_PRECISION_A, 1, 1e-12, 1e-12 },
    { NB_ENGINE_COMPUTE, NB_PRECISION_A, 0, 1e-5, 0 },
    { NB_ENGINE_COMPUTE, NB_PRECISION_A, 1, 1e-5, 1e-5 },
    { NB_ENGINE_FRAGMENT, NB_PRECISION_A, 0, 1e-5, 0 },
    { NB_ENGINE_FRAGMENT, NB_PRECISION_A, 1, 1e-5, 1e-5 },
    { NB_ENGINE_COMPUTE, NB_PRECISION_H, 0, 4.8e-7, 0 },
    { NB_ENGINE_COMPUTE, NB_PRECISION_H, 1, 9.5e-7, 7.6e-6 },
};
#define CPU_CASES 2
#define ENGINE_CASES (int)(sizeof engine_cases / sizeof engine_cases[0])

START_TEST(engine_matches_reference)
{
    const struct engine_case *c = &engine_cases[_i];
    if (c->gaj)
        check_gaj(c->engine, c->mode, c->tol, c->tol_jerk);
    else
        check_ga(c->engine, c->mode, c->tol);
}
END_TEST

/* ---- Hermite ------------------------------------------------------------------ */

/* One period of the circular Kepler orbit, eta = 0.0005, unsoftened, on
 * the CPU engine.  The fourth-order error falls as eta^2 (dt^4, dt ~
 * sqrt(eta)); measured 1.3e-10 in E and 3.1e-8 in position (a phase
 * error, along the orbit) after one orbit; bounds 1e-9 and 3e-7, ten
 * times that (at eta = 0.005 the energy error is 1.3e-7: a lost order
 * fails).  The run is
 * integrated once in three pieces and once in one: the trajectory must
 * not depend on where the caller stops (bit for bit). */
START_TEST(hermite_kepler_cpu)
{
    struct nb_hermite_params par;
    nb_hermite_params_default(&par);
    par.eta = 0.0005;
    par.eps = 0.0;
    par.dt_max = 1.0 / 16;
    struct nb_forces *f = forces_open(NULL, NB_ENGINE_CPU, NB_PRECISION_A);
    struct nb_hermite *h = kepler(f, &par), *whole = kepler(f, &par);
    struct nb_error err = { 0 };
    const double period = 2.0 * acos(-1.0), e0 = total_energy(h);
    double x[6], v[6], xw[6], vw[6];
    for (int k = 1; k <= 3; k++)
        ck_assert_msg(nb_hermite_integrate(h, period * k / 3.0, &err) == NB_OK, "%s",
                      err.message);
    ck_assert_int_eq(nb_hermite_integrate(whole, period, &err), NB_OK);
    ck_assert(nb_hermite_time(h) == period);
    ck_assert_int_eq(nb_hermite_state(h, x, v, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_state(whole, xw, vw, &err), NB_OK);
    ck_assert_mem_eq(x, xw, sizeof x);
    ck_assert_mem_eq(v, vw, sizeof v);
    double de = fabs(total_energy(h) - e0) / fabs(e0);
    ck_assert_msg(de < 1e-9, "Kepler: |dE/E| = %.3g after one orbit", de);
    ck_assert_msg(fabs(x[0] - 0.5) < 3e-7 && fabs(x[1]) < 3e-7 && fabs(x[2]) < 1e-15,
                  "Kepler: body 0 at (%.12g, %.12g, %.12g) after one orbit", x[0], x[1], x[2]);
    uint64_t blocks = 0, steps = 0;
    nb_hermite_counts(h, &blocks, &steps);
    ck_assert(blocks > 0 && steps == 2 * blocks);   /* equal masses: one block */
    nb_hermite_destroy(h);
    nb_hermite_destroy(whole);
    nb_forces_destroy(f);
}
END_TEST

/* `glnbody run --backend cpu` and the API on the same Plummer sphere (odd
 * N, the test's seed, the defaults): the same block steps in the same
 * order, so the final state agrees bit for bit (%.17g reads back exactly)
 * and the energy error prints the same. */
START_TEST(hermite_matches_program)
{
    enum { N = 67 };
    const double t_end = 0.25;
    char args[256], out[32], log[40], printed[64], mine[64];
    snprintf(args, sizeof args, "run --backend cpu --n %d --seed %llu --t-end %g", N,
             (unsigned long long)g_seed, t_end);
    run_program(args, out, log);
    struct nb_forces *f = forces_open(NULL, NB_ENGINE_CPU, NB_PRECISION_A);
    struct nb_hermite *h = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_hermite_create_plummer(&h, f, N, g_seed, NULL, &err) == NB_OK, "%s",
                  err.message);
    double e0 = total_energy(h), x[3 * N], v[3 * N], xp[3 * N], vp[3 * N];
    ck_assert_int_eq(nb_hermite_integrate(h, t_end, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_state(h, x, v, &err), NB_OK);
    read_output(out, N, 2, xp, vp);
    for (size_t k = 0; k < 3 * N; k++)
        ck_assert_msg(x[k] == xp[k] && v[k] == vp[k], "value %zu: API %.17g %.17g, "
                      "program %.17g %.17g (seed %llu)", k, x[k], v[k], xp[k], vp[k],
                      (unsigned long long)g_seed);
    snprintf(mine, sizeof mine, "%.3e", (total_energy(h) - e0) / fabs(e0));
    read_energy_error(log, printed);
    ck_assert_str_eq(mine, printed);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    unlink(out);
    unlink(log);
}
END_TEST

/* The compute engine, host and device prediction, against the CPU engine
 * on the same draw.  The integrator's own error belongs to the draw (a
 * close pair can make it 5e-6 on the CPU in double), so the bound is on
 * the difference the float forces make: measured below 8e-8 of |E| over
 * 100 seeds on llvmpipe; bound 1e-6.  The CPU error itself stays below
 * 1e-4, a sanity bound. */
START_TEST(hermite_plummer_compute)
{
    double cpu = plummer_energy_error(g_gl, g_seed, NB_ENGINE_CPU, 0);
    ck_assert_msg(fabs(cpu) < 1e-4, "cpu: dE/E = %.3g (seed %llu)", cpu,
                  (unsigned long long)g_seed);
    for (int on_device = 0; on_device <= 1; on_device++) {
        double gpu = plummer_energy_error(g_gl, g_seed, NB_ENGINE_COMPUTE, on_device);
        ck_assert_msg(fabs(gpu - cpu) < 1e-6, "predict on device %d: dE/E = %.3g, the "
                      "CPU's %.3g (seed %llu)", on_device, gpu, cpu,
                      (unsigned long long)g_seed);
    }
}
END_TEST

/* ---- molecular dynamics -------------------------------------------------------- */

/* 200 steps of dt = 0.005 of the fcc LJ crystal (108 atoms, shifted at
 * rc = 2.5) melting from T = 1, on the CPU and the compute engine.
 * Velocity Verlet's energy error stays bounded, ~ dt^2 times the force
 * gradients, plus the force's jump at rc: measured up to 4e-5 of |E| over
 * seeds; bound 5e-4.  The engines start 3e-7 of |E| apart (float pair
 * sums) and the chaos of the melt grows their difference to ~1e-6 of |E|
 * and 1e-5 in a coordinate after 200 steps (measured); bounds 1e-5 and
 * 1e-3. */
START_TEST(md_cpu_and_compute)
{
    struct nb_md *cpu = md_fcc(NULL, NB_ENGINE_CPU), *gpu = md_fcc(g_gl, NB_ENGINE_COMPUTE);
    struct nb_error err = { 0 };
    struct nb_md_thermo c0 = md_thermo(cpu), g0 = md_thermo(gpu);
    ck_assert_msg(fabs(c0.temp - 1.0) < 1e-12, "T = %.17g at the start", c0.temp);
    ck_assert_msg(fabs(g0.etotal - c0.etotal) < 1e-5 * fabs(c0.etotal), "E0: compute "
                  "%.12g cpu %.12g", g0.etotal, c0.etotal);
    ck_assert_int_eq(nb_md_step(cpu, MD_STEPS, &err), NB_OK);
    ck_assert_msg(nb_md_step(gpu, MD_STEPS / 2, &err) == NB_OK &&
                  nb_md_step(gpu, MD_STEPS / 2, &err) == NB_OK, "%s", err.message);
    struct nb_md_thermo c1 = md_thermo(cpu), g1 = md_thermo(gpu);
    ck_assert_uint_eq(c1.step, MD_STEPS);
    ck_assert_uint_eq(g1.step, MD_STEPS);
    ck_assert_msg(fabs(c1.etotal - c0.etotal) < 5e-4 * fabs(c0.etotal) &&
                  fabs(g1.etotal - g0.etotal) < 5e-4 * fabs(g0.etotal),
                  "drift: cpu %.3g compute %.3g of |E| (seed %llu)",
                  (c1.etotal - c0.etotal) / fabs(c0.etotal),
                  (g1.etotal - g0.etotal) / fabs(g0.etotal), (unsigned long long)g_seed);
    ck_assert_msg(fabs(g1.etotal - c1.etotal) < 1e-5 * fabs(c1.etotal), "E: compute "
                  "%.12g cpu %.12g", g1.etotal, c1.etotal);
    size_t n = nb_md_count(cpu);
    double *xc = malloc(6 * n * sizeof(double)), *xg = xc + 3 * n;
    double box = cbrt((double)n / MD_RHO);
    ck_assert_int_eq(nb_md_get_state(cpu, xc, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_md_get_state(gpu, xg, NULL, &err), NB_OK);
    for (size_t k = 0; k < 3 * n; k++) {
        double d = fabs(xc[k] - xg[k]);
        ck_assert_msg(xc[k] >= 0.0 && xc[k] < box, "x[%zu] = %.17g outside [0, %g)", k,
                      xc[k], box);
        ck_assert_msg(fmin(d, box - d) < 1e-3, "x[%zu]: cpu %.12g compute %.12g", k,
                      xc[k], xg[k]);
    }
    free(xc);
    nb_md_destroy(cpu);
    nb_md_destroy(gpu);
}
END_TEST

/* `glnbody md --backend cpu` and the API on the same crystal (the API's
 * defaults: rc 2.5, here shifted; density, temperature and step the
 * program's): the same steps, so the final state agrees bit for bit. */
START_TEST(md_matches_program)
{
    char args[256], out[32], log[40];
    snprintf(args, sizeof args, "md --backend cpu --cells %d --cutoff 2.5 --shift "
             "--steps 50 --seed %llu", MD_CELLS,
             (unsigned long long)g_seed);
    run_program(args, out, log);
    struct nb_md *md = md_fcc(NULL, NB_ENGINE_CPU);
    struct nb_error err = { 0 };
    size_t n = nb_md_count(md);
    double *x = malloc(12 * n * sizeof(double)), *v = x + 3 * n, *xp = v + 3 * n;
    double *vp = xp + 3 * n;
    ck_assert_int_eq(nb_md_step(md, 50, &err), NB_OK);
    ck_assert_int_eq(nb_md_get_state(md, x, v, &err), NB_OK);
    read_output(out, n, 3, xp, vp);
    ck_assert_msg(memcmp(x, xp, 3 * n * sizeof(double)) == 0 &&
                  memcmp(v, vp, 3 * n * sizeof(double)) == 0, "the program's state "
                  "differs (seed %llu)", (unsigned long long)g_seed);
    free(x);
    nb_md_destroy(md);
    unlink(out);
    unlink(log);
}
END_TEST

/* ---- refusals ------------------------------------------------------------------ */

START_TEST(forces_refusals)
{
    struct nb_forces *f = NULL, *cpu = forces_open(NULL, NB_ENGINE_CPU, NB_PRECISION_A);
    struct nb_error err = { 0 };
    double x[6] = { 0, 0, 0, 1, 0, 0 }, m[2] = { 1, 1 }, acc[6], pot[2];
    uint32_t active[2] = { 1, 0 };
    refused(nb_forces_create(&f, NULL, (enum nb_engine)7, &err), &err, "nb_forces_create",
            "engine");
    ck_assert(f == NULL);
    refused(nb_forces_create(NULL, NULL, NB_ENGINE_CPU, &err), &err, "nb_forces_create", "f");
    ck_assert_int_eq(nb_forces_create(&f, NULL, NB_ENGINE_COMPUTE, &err), NB_ERR_ARGS);
    refused(nb_forces_set_precision(cpu, NB_PRECISION_B, &err), &err,
            "nb_forces_set_precision", "cpu");
    ck_assert_int_eq(nb_forces_set_precision(cpu, NB_PRECISION_A, &err), NB_OK);
    ck_assert_int_eq(nb_forces_set_variant(cpu, "no-such-variant", &err), NB_ERR_ARGS);
    refused(nb_forces_ga(NULL, 2, x, m, EPS, acc, pot, &err), &err, "nb_forces_ga", "f");
    refused(nb_forces_ga(cpu, 2, NULL, m, EPS, acc, pot, &err), &err, "nb_forces_ga", "x");
    refused(nb_forces_ga(cpu, 2, x, NULL, EPS, acc, pot, &err), &err, "nb_forces_ga", "m");
    refused(nb_forces_ga(cpu, 0, x, m, EPS, acc, pot, &err), &err, "nb_forces_ga", "n");
    refused(nb_forces_ga(cpu, 2, x, m, -1.0, acc, pot, &err), &err, "nb_forces_ga", "eps");
    x[4] = NAN;
    refused(nb_forces_ga(cpu, 2, x, m, EPS, acc, pot, &err), &err, "nb_forces_ga", "x[4]");
    refused(nb_forces_set_j(cpu, 2, x, x, m, &err), &err, "nb_forces_set_j", "x[4]");
    x[4] = 0.0;
    refused(nb_forces_gaj(cpu, EPS, 1, active, acc, NULL, NULL, &err), &err,
            "nb_forces_gaj", "nb_forces_set_j");
    ck_assert_int_eq(nb_forces_set_j(cpu, 2, x, x, m, &err), NB_OK);
    refused(nb_forces_gaj(cpu, EPS, 2, active, acc, NULL, NULL, &err), &err,
            "nb_forces_gaj", "active[1]");
    active[0] = 2;
    refused(nb_forces_gaj(cpu, EPS, 1, active, acc, NULL, NULL, &err), &err,
            "nb_forces_gaj", "active[0]");
    refused(nb_forces_gaj(cpu, EPS, 1, active, NULL, NULL, NULL, &err), &err,
            "nb_forces_gaj", "acc");
    /* A GA call leaves the j-set (gaj_survives_ga checks the results). */
    active[0] = 1;
    ck_assert_int_eq(nb_forces_gaj(cpu, EPS, 1, active, acc, NULL, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_forces_ga(cpu, 2, x, m, EPS, acc, pot, &err), NB_OK);
    ck_assert_int_eq(nb_forces_gaj(cpu, EPS, 1, active, acc, NULL, NULL, &err), NB_OK);
    /* err may be NULL: the status alone comes back. */
    ck_assert_int_eq(nb_forces_ga(cpu, 0, x, m, EPS, acc, pot, NULL), NB_ERR_ARGS);
    nb_forces_destroy(cpu);
    nb_forces_destroy(NULL);
}
END_TEST

/* The j-set survives GA calls on other particles in between (the fragment
 * engine's GA upload shares its particle stream, so the handle uploads
 * its copy again): the GAJ results after them equal those before, bit for
 * bit, for odd sizes and on every engine. */
START_TEST(gaj_survives_ga)
{
    static const enum nb_engine engines[] = { NB_ENGINE_CPU, NB_ENGINE_COMPUTE,
                                              NB_ENGINE_FRAGMENT };
    enum nb_engine engine = engines[_i];
    if (engine != NB_ENGINE_CPU && !g_gl)
        return;
    struct nb_forces *f = forces_open(g_gl, engine, NB_PRECISION_A);
    struct nb_error err = { 0 };
    /* A fixed variant: "auto" lets the GA call pick the compute engine's
     * tile by timing, and the GAJ kernel sums in tiles of that size, so
     * its last bits would follow the timing rather than the j-set. */
    static const char *variants[] = { NULL, "t64i1", "4x4" };
    if (variants[_i])
        ck_assert_msg(nb_forces_set_variant(f, variants[_i], &err) == NB_OK, "%s",
                      err.message);
    for (size_t s = 2; s < N_SIZES; s++) {
        struct bodies j = bodies_random(sizes[s], 300 + s);
        struct bodies other = bodies_random(2 * sizes[s] + 1, 400 + s);
        uint32_t active[2] = { 0, (uint32_t)(j.n - 1) };
        double before[14], after[14], *ga = malloc(4 * other.n * sizeof(double));
        ck_assert_msg(nb_forces_set_j(f, j.n, j.x, j.v, j.m, &err) == NB_OK &&
                      nb_forces_gaj(f, EPS, 2, active, before, before + 6, before + 12,
                                    &err) == NB_OK &&
                      nb_forces_ga(f, other.n, other.x, other.m, EPS, ga, ga + 3 * other.n,
                                   &err) == NB_OK &&
                      nb_forces_gaj(f, EPS, 2, active, after, after + 6, after + 12,
                                    &err) == NB_OK,
                      "engine %d n %zu: %s", (int)engine, j.n, err.message);
        ck_assert_msg(memcmp(before, after, sizeof before) == 0, "engine %d n %zu: GAJ "
                      "after GA differs from before it (seed %llu)", (int)engine, j.n,
                      (unsigned long long)g_seed);
        free(ga);
        bodies_free(&j);
        bodies_free(&other);
    }
    nb_forces_destroy(f);
}
END_TEST

START_TEST(hermite_refusals)
{
    struct nb_forces *cpu = forces_open(NULL, NB_ENGINE_CPU, NB_PRECISION_A);
    struct nb_hermite_params par;
    struct nb_error err = { 0 };
    struct nb_hermite *h = kepler(cpu, NULL), *none = NULL;
    const double m[2] = { 1, 1 }, x[6] = { 0 };
    nb_hermite_params_default(&par);
    refused(nb_hermite_create(&none, NULL, 2, m, x, x, &par, &err), &err,
            "nb_hermite_create", "f");
    refused(nb_hermite_create(&none, cpu, 2, m, NULL, x, &par, &err), &err,
            "nb_hermite_create", "x");
    refused(nb_hermite_create(&none, cpu, 0, m, x, x, &par, &err), &err,
            "nb_hermite_create", "n");
    par.dt_max = 0.0;
    refused(nb_hermite_create(&none, cpu, 2, m, x, x, &par, &err), &err,
            "nb_hermite_create", "dt_max");
    par.dt_max = 0.125;
    par.predict_on_device = 3;
    refused(nb_hermite_create(&none, cpu, 2, m, x, x, &par, &err), &err,
            "nb_hermite_create", "predict_on_device");
    par.predict_on_device = 2;          /* the CPU keeps no device state */
    ck_assert_int_eq(nb_hermite_create(&none, cpu, 2, m, x, x, &par, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "load_state"), "%s", err.message);
    par.predict_on_device = 0;
    par.eta = -1.0;                     /* refused by the integrator, named */
    refused(nb_hermite_create(&none, cpu, 2, m, x, x, &par, &err), &err,
            "nb_hermite_create", "eta");
    par.eta = 0.02;
    double bad[6] = { 0, 0, 0, 1, 0, INFINITY };
    refused(nb_hermite_create(&none, cpu, 2, m, x, bad, &par, &err), &err,
            "nb_hermite_create", "v[5]");
    ck_assert(none == NULL);
    ck_assert_int_eq(nb_hermite_integrate(h, 0.5, &err), NB_OK);
    refused(nb_hermite_integrate(h, 0.25, &err), &err, "nb_hermite_integrate", "t");
    refused(nb_hermite_integrate(h, NAN, &err), &err, "nb_hermite_integrate", "t");
    refused(nb_hermite_integrate(h, 1e4, &err), &err, "nb_hermite_integrate", "8192");
    refused(nb_hermite_integrate(NULL, 1.0, &err), &err, "nb_hermite_integrate", "h");
    ck_assert(nb_hermite_time(h) == 0.5);
    nb_hermite_destroy(h);
    /* Two bodies 1e-9 apart, unsoftened, need a step far below 2^-40: no
     * run.  Two at rest 1 apart fall into each other (free fall at t =
     * pi / 4 for masses 1): the run stops there, then refuses to go on. */
    const double close[6] = { 0, 0, 0, 1e-9, 0, 0 }, apart[6] = { 0, 0, 0, 1, 0, 0 };
    par.eps = 0.0;
    ck_assert_int_eq(nb_hermite_create(&h, cpu, 2, m, close, x, &par, &err), NB_ERR_NUMERIC);
    ck_assert(h == NULL);
    ck_assert_int_eq(nb_hermite_create(&h, cpu, 2, m, apart, x, &par, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_integrate(h, 2.0, &err), NB_ERR_NUMERIC);
    ck_assert_int_eq(nb_hermite_integrate(h, 2.0, &err), NB_ERR_NUMERIC);
    nb_hermite_destroy(h);
    nb_hermite_destroy(NULL);
    nb_forces_destroy(cpu);
}
END_TEST

/* The first steps of n = 5003 bodies (over the host's threshold for
 * threads), unsoftened, on a lattice of spacing 1 with two pairs 1e-9 apart
 * (indices 3001-3002 and 4001-4002): the refusal names 3001, the first,
 * whatever thread met it.  Two bodies at one place (2500-2501) come first:
 * a non-finite force is named there. */
START_TEST(hermite_first_bad_of_many)
{
    enum { N = 5003, SIDE = 18 };
    struct nb_forces *cpu = forces_open(NULL, NB_ENGINE_CPU, NB_PRECISION_A);
    struct nb_hermite_params par;
    struct nb_error err = { 0 };
    struct nb_hermite *h = NULL;
    double *m = calloc(N, sizeof *m), *x = calloc(3 * N, sizeof *x);
    double *v = calloc(3 * N, sizeof *v);
    ck_assert(m && x && v);
    for (int i = 0; i < N; i++) {
        m[i] = 1.0 / N;
        x[3 * i] = i % SIDE;
        x[3 * i + 1] = (i / SIDE) % SIDE;
        x[3 * i + 2] = i / (SIDE * SIDE);
    }
    for (int i = 3001; i <= 4001; i += 1000) {
        memcpy(&x[3 * (i + 1)], &x[3 * i], 3 * sizeof *x);
        x[3 * (i + 1)] += 1e-9;
    }
    nb_hermite_params_default(&par);
    par.eps = 0.0;
    ck_assert_int_eq(nb_hermite_create(&h, cpu, N, m, x, v, &par, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "(index 3001)") && strstr(err.message, "2^-40"), "%s",
                  err.message);
    ck_assert(h == NULL);
    memcpy(&x[3 * 2501], &x[3 * 2500], 3 * sizeof *x);
    ck_assert_int_eq(nb_hermite_create(&h, cpu, N, m, x, v, &par, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "(index 2500)") && strstr(err.message, "non-finite"),
                  "%s", err.message);
    ck_assert(h == NULL);
    free(m);
    free(x);
    free(v);
    nb_forces_destroy(cpu);
}
END_TEST

START_TEST(md_refusals)
{
    struct nb_md_params par;
    struct nb_md *md = NULL;
    struct nb_error err = { 0 };
    const int type[2] = { 1, 2 };
    const double x[6] = { 1, 1, 1, 2, 2, 2 }, v[6] = { 0 };
    nb_md_params_default(&par);
    for (int a = 0; a < 3; a++)
        par.hi[a] = 6.0;
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, NULL, &err), &err,
            "nb_md_create", "par");
    refused(nb_md_create(&md, NULL, (enum nb_engine)9, 2, type, x, v, &par, &err), &err,
            "nb_md_create", "engine");
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, NULL, x, v, &par, &err), &err,
            "nb_md_create", "type");
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 0, type, x, v, &par, &err), &err,
            "nb_md_create", "n");
    /* type 2 of a one-type table */
    ck_assert_int_eq(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, &par, &err),
                     NB_ERR_ARGS);
    par.types = 2;
    ck_assert_msg(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, &par, &err) == NB_OK,
                  "%s", err.message);
    nb_md_destroy(md);
    md = NULL;
    par.precision = NB_PRECISION_B;     /* the CPU engine sums in double only */
    ck_assert_int_eq(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, &par, &err),
                     NB_ERR_ARGS);
    par.precision = NB_PRECISION_A;
    par.cutoff = 3.5;                   /* more than half the box */
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, &par, &err), &err,
            "nb_md_create", "cutoff");
    const double bad[6] = { 1, 1, 1, 2, NAN, 2 };
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, bad, v, &par, &err), &err,
            "nb_md_create", "x[4]");
    par.cutoff = 0.0;
    par.shift = 1;
    refused(nb_md_create(&md, NULL, NB_ENGINE_CPU, 2, type, x, v, &par, &err), &err,
            "nb_md_create", "shift");
    ck_assert(md == NULL);
    nb_md_destroy(NULL);
}
END_TEST

/* The GL engines refuse without a context, and the fragment engine's GAJ
 * kernel has mode A only: a Hermite run in mode B there is refused rather
 * than summed in A. */
START_TEST(gl_refusals)
{
    struct nb_error err = { 0 };
    struct nb_md *md = NULL;
    struct nb_md_params par;
    nb_md_params_default(&par);
    ck_assert_int_eq(nb_md_create_fcc(&md, NULL, NB_ENGINE_COMPUTE, MD_CELLS, MD_RHO, 1.0, 1,
                                      &par, &err), NB_ERR_ARGS);
    struct nb_forces *frag = forces_open(g_gl, NB_ENGINE_FRAGMENT, NB_PRECISION_A);
    if (nb_forces_set_precision(frag, NB_PRECISION_B, &err) == NB_OK) {
        struct nb_hermite *h = NULL;
        refused(nb_hermite_create_plummer(&h, frag, 16, 1, NULL, &err), &err,
                "nb_hermite_create_plummer", "fragment");
    }
    nb_forces_destroy(frag);
}
END_TEST

/* ---- the suite ----------------------------------------------------------------- */

static Suite *api_suite(int with_gl)
{
    Suite *s = suite_create("api");
    TCase *cpu = tcase_create("cpu");
    tcase_set_timeout(cpu, 120);
    tcase_add_test(cpu, version_numbers);
    tcase_add_loop_test(cpu, engine_matches_reference, 0, CPU_CASES);
    tcase_add_test(cpu, hermite_kepler_cpu);
    tcase_add_test(cpu, hermite_matches_program);
    tcase_add_test(cpu, md_matches_program);
    tcase_add_test(cpu, forces_refusals);
    tcase_add_loop_test(cpu, gaj_survives_ga, 0, 1);
    tcase_add_test(cpu, hermite_refusals);
    tcase_add_test(cpu, hermite_first_bad_of_many);
    tcase_add_test(cpu, md_refusals);
    suite_add_tcase(s, cpu);
    if (!with_gl)
        return s;
    TCase *gl = tcase_create("gl");
    tcase_set_timeout(gl, 300);
    tcase_add_loop_test(gl, engine_matches_reference, CPU_CASES, ENGINE_CASES);
    tcase_add_test(gl, hermite_plummer_compute);
    tcase_add_test(gl, md_cpu_and_compute);
    tcase_add_loop_test(gl, gaj_survives_ga, 1, 3);
    tcase_add_test(gl, gl_refusals);
    suite_add_tcase(s, gl);
    return s;
}

int main(void)
{
    const char *env = getenv("NB_TEST_SEED");
    struct nb_gl_options opt;
    struct nb_error err = { 0 };
    g_seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    printf("check_api: glnbody %s, seed %llu (NB_TEST_SEED to replay)\n", nb_version(),
           (unsigned long long)g_seed);
    nb_gl_options_default(&opt);
    if (nb_gl_create(&g_gl, &opt, &err) != NB_OK)
        printf("check_api: no GL context (%s): the CPU tests only\n", err.message);
    else
        printf("check_api: renderer %s\n", nb_gl_renderer(g_gl));
    fflush(stdout);
    /* No fork: one context serves every test, and a forked child cannot use
     * the parent's llvmpipe threads. */
    SRunner *sr = srunner_create(api_suite(g_gl != NULL));
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr), had_gl = g_gl != NULL;
    srunner_free(sr);
    nb_gl_destroy(g_gl);
    return failed ? 1 : had_gl ? 0 : SKIPPED;
}
