/* check_g6_accuracy.c - libg6gl's forces, jerks and potentials as a GRAPE
 * code needs them, in its default mode (GLNBODY_G6_PRECISION and
 * GLNBODY_G6_POSITIONS unset): each i-particle's error against a double
 * direct sum must stay within 1e-6 of the sum of the magnitudes of its
 * pair terms (force and jerk, per component), and the potential within
 * 1e-6 of |phi|, with no allowance for rounding positions or velocities
 * to float.  The j-particles are given as Taylor coefficients at earlier
 * times and predicted on the device to t_i; the i-particles are the same
 * particles predicted to t_i in double, as a Hermite code sends them.
 * Three systems, where float positions lose the separation of close pairs:
 *  - a uniform sphere of 4096 (the closest pairs ~1e-3 apart);
 *  - a Plummer sphere of 4096 holding a hard binary (masses 0.01,
 *    separation 1e-5, at |x| = 1, eps^2 = 1e-12);
 *  - a sphere of 4096 centred far from the origin (|x| = 54), moving as a
 *    whole, holding two particles 1e-4 apart with nearly equal velocities.
 * Blocks of 1, 13 and 64 (the kernels that add their own slices) and of
 * all 4096 (two i-particles an invocation), in mode A (the default), and
 * whole blocks in mode D (the other modes' kernel); and all of it with
 * GRAPE-6's 64-bit fixed-point positions (GLNBODY_G6_POSITIONS=fixed64).
 * Mode H (64-bit fixed-point sums) runs each system at eps^2 = 1e-8 and
 * 1e-12, as a Hermite code calls it: aold, jold and phiold the results of
 * the particle's last call.
 * Each block also checks that the pair members find each other as nearest
 * neighbours.  GLNBODY_G6_POSITIONS=float from outside shows what the
 * tests catch: every case fails. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6_jset.h"
#include "g6gl.h"
#include "gl_suite.h"
#include "glnbody.h"

#define N 4096
#define TOL 1e-6

static struct nb_gl *g_gl;
static uint64_t g_seed;
static const char *g_positions;     /* GLNBODY_G6_POSITIONS as the caller set it */
/* Blocks run first with aold = jold = phiold = 0, then g_old_calls times
 * more, each with the last results times g_old_factor as aold, jold and
 * phiold (a Hermite code passes its particles' last values). */
static int g_old_calls;
static double g_old_factor = 1.0;

/* A point uniform in the unit ball. */
static void in_ball(uint64_t *rng, double p[3])
{
    double r2;
    do {
        for (int c = 0; c < 3; c++)
            p[c] = 2 * uniform(rng) - 1;
        r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    } while (r2 > 1 || r2 == 0);
}

/* The system's i-particles' times: every j-particle's own time, t_i less
 * 0..7 steps of 2^-6 (a block-step code's), with Taylor terms of the size
 * of a system of unit mass and radius. */
static void random_terms(struct jset *s, double ti, uint64_t *rng)
{
    for (int i = 0; i < s->n; i++) {
        for (int c = 0; c < 3; c++) {
            s->v[i][c] = 0.4 * (uniform(rng) - 0.5);
            s->a2[i][c] = 0.3 * (uniform(rng) - 0.5);
            s->j6[i][c] = 0.2 * (uniform(rng) - 0.5);
        }
        s->t[i] = ti - 0x1p-6 * floor(8 * uniform(rng));
        s->m[i] = 1.0 / s->n;
    }
}

static void make_sphere(struct jset *s, double ti, uint64_t *rng)
{
    jset_make(s, N, ti, rng);
    random_terms(s, ti, rng);
    for (int i = 0; i < N; i++)
        in_ball(rng, s->x[i]);
}

/* Particles from `first` on a Plummer sphere (Aarseth, Henon & Wielen
 * 1974, radii below 10), each of mass m. */
static void plummer_positions(struct jset *s, int first, double m, uint64_t *rng)
{
    for (int i = first; i < N; i++) {
        double r, u[3];
        do
            r = 1 / sqrt(pow(uniform(rng) * 0.999 + 1e-3, -2.0 / 3.0) - 1);
        while (r > 10);
        in_ball(rng, u);
        double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        for (int c = 0; c < 3; c++)
            s->x[i][c] = r * u[c] / len;
        s->m[i] = m;
    }
}

static void make_plummer(struct jset *s, double ti, uint64_t *rng)
{
    jset_make(s, N, ti, rng);
    random_terms(s, ti, rng);
    plummer_positions(s, 0, 1.0 / N, rng);
}

/* A Plummer sphere of N - 2 bodies, and particles 0 and 1 a circular
 * binary of masses 0.01 and separation 1e-5 at |x| = 1, both at
 * t_i - 2^-24 (their relative orbit of speed 45 then moves them 3e-6
 * apart from where they were). */
static void make_binary(struct jset *s, double ti, uint64_t *rng)
{
    static const double centre[3] = { 0.8, 0.48, 0.36 };    /* |x| = 1 */
    jset_make(s, N, ti, rng);
    random_terms(s, ti, rng);
    plummer_positions(s, 2, 0.98 / (N - 2), rng);
    double sep = 1e-5, vrel = sqrt(0.02 / sep);
    double axis[3] = { 0.6, -0.8, 0.0 }, vdir[3] = { 0.0, 0.0, 1.0 };
    for (int k = 0; k < 2; k++) {
        double sign = k ? 1 : -1;
        for (int c = 0; c < 3; c++) {
            s->x[k][c] = centre[c] + sign * 0.5 * sep * axis[c];
            s->v[k][c] = 0.1 + sign * 0.5 * vrel * vdir[c];
            s->a2[k][c] = s->j6[k][c] = 0;
        }
        s->m[k] = 0.01;
        s->t[k] = ti - 0x1p-24;
    }
}

/* A sphere of N centred at (40, -30, 20), moving at (0.3, -0.2, 0.1) as a
 * whole; particles 0 and 1 1e-4 apart at the same time t_i - 2^-5, their
 * velocities 1e-3 apart (the pair's terms: the velocity difference holds
 * ~1e-5 of |v| against the float rounding of v). */
static void make_far_pair(struct jset *s, double ti, uint64_t *rng)
{
    static const double centre[3] = { 40, -30, 20 }, bulk[3] = { 0.3, -0.2, 0.1 };
    make_sphere(s, ti, rng);
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) {
            s->x[i][c] += centre[c];
            s->v[i][c] += bulk[c];
        }
    double dir[3] = { 0.48, 0.6, -0.64 };
    for (int c = 0; c < 3; c++) {
        s->x[1][c] = s->x[0][c] + 1e-4 * dir[c];
        s->v[1][c] = s->v[0][c] + 1e-3 * dir[(c + 1) % 3];
        s->a2[1][c] = s->a2[0][c];
        s->j6[1][c] = s->j6[0][c];
    }
    s->t[0] = s->t[1] = ti - 0x1p-5;
}

/* The largest and the mean errors of a block, relative to the sums of
 * |terms| (acc, jerk) and to |phi|. */
struct errors {
    double max[3], sum[3];
    int count;
};

/* i-particle id (at xi, vi) against the j-set predicted in double (xp, vp,
 * 3 n each): its errors (force, jerk, potential) in err; whether its
 * nearest j, nn, is as near as the nearest. */
static int check_one(const struct jset *s, const double *xp, const double *vp, double eps2,
                     int id, const double xi[3], const double vi[3], const double acc[3],
                     const double jerk[3], double pot, int nn, double err[3])
{
    double a[3] = { 0 }, j[3] = { 0 }, p = 0, sa = 0, sj = 0, r2_min = INFINITY, r2_nn = -1;
    for (int k = 0; k < s->n; k++) {
        double d[3], dv[3];
        for (int c = 0; c < 3; c++)
            d[c] = xp[3 * k + c] - xi[c], dv[c] = vp[3 * k + c] - vi[c];
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (k == nn)
            r2_nn = r2;
        if (k == id)
            continue;
        r2_min = fmin(r2_min, r2);
        double rinv = 1 / sqrt(r2 + eps2), mr3 = s->m[k] * rinv * rinv * rinv;
        double rv = d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2];
        double alpha = 3 * rv * rinv * rinv, jt[3];
        for (int c = 0; c < 3; c++) {
            a[c] += mr3 * d[c];
            jt[c] = mr3 * (dv[c] - alpha * d[c]);
            j[c] += jt[c];
        }
        sa += mr3 * sqrt(r2);
        sj += norm3(jt);
        p -= s->m[k] * rinv;
    }
    err[0] = err[1] = 0.0;
    err[2] = fabs(pot - p) / fabs(p);
    for (int c = 0; c < 3; c++) {
        err[0] = fmax(err[0], fabs(acc[c] - a[c]) / sa);
        err[1] = fmax(err[1], fabs(jerk[c] - j[c]) / sj);
    }
    /* float distances may pick another j as near within float rounding */
    return nn != id && r2_nn <= r2_min * (1 + 1e-5);
}

/* The block's i-particles checked (check_one) side by side, their errors
 * then added to e in order; the count of nearest neighbours not as near. */
static int check_block(const struct jset *s, double ti, double eps2, int ni, const int *index,
                       double (*xi)[3], double (*vi)[3], double (*acc)[3], double (*jer)[3],
                       const double *pot, const int *nnb, struct errors *e)
{
    double *xp = malloc(sizeof *xp * 3 * (size_t)s->n), *vp = malloc(sizeof *vp * 3 * (size_t)s->n);
    double (*err)[3] = malloc(sizeof *err * (size_t)ni);
    int *near_ok = malloc(sizeof *near_ok * (size_t)ni), bad = 0;
    ck_assert(xp && vp && err && near_ok);
    for (int k = 0; k < s->n; k++)
        predict(s, k, ti, xp + 3 * k, vp + 3 * k);
#pragma omp parallel for schedule(dynamic, 16)
    for (int k = 0; k < ni; k++)
        near_ok[k] = check_one(s, xp, vp, eps2, index[k], xi[k], vi[k], acc[k], jer[k], pot[k],
                               nnb[k], err[k]);
    for (int k = 0; k < ni; k++) {
        for (int q = 0; q < 3; q++) {
            e->max[q] = fmax(e->max[q], err[k][q]);
            e->sum[q] += err[k][q];
        }
        e->count++;
        bad += !near_ok[k];
    }
    free(xp), free(vp), free(err), free(near_ok);
    return bad;
}

/* A block of ni i-particles from `first`, the whole j-set sent, through
 * firsthalf/lasthalf2; where `pair`, particles 0 and 1 are a close pair,
 * in the block where first is 0. */
static void run_block(const struct jset *s, double ti, double eps2, int first, int ni,
                      int pair, struct errors *e)
{
    double (*xi)[3] = malloc(sizeof *xi * (size_t)ni), (*vi)[3] = malloc(sizeof *vi * (size_t)ni);
    double (*acc)[3] = malloc(sizeof *acc * (size_t)ni);
    double (*jer)[3] = malloc(sizeof *jer * (size_t)ni);
    double *pot = malloc(sizeof *pot * (size_t)ni), *h2 = calloc((size_t)ni, sizeof *h2);
    double (*aold)[3] = calloc((size_t)ni, sizeof *aold);
    double (*jold)[3] = calloc((size_t)ni, sizeof *jold);
    double *phiold = calloc((size_t)ni, sizeof *phiold);
    int *index = malloc(sizeof *index * (size_t)ni), *nnb = malloc(sizeof *nnb * (size_t)ni);
    for (int k = 0; k < ni; k++) {
        index[k] = (first + k) % s->n;
        predict(s, index[k], ti, xi[k], vi[k]);
    }
    ck_assert_int_eq(g6_set_ti(0, ti), 0);
    for (int call = 0; call <= g_old_calls; call++) {
        ck_assert_int_eq(g6calc_firsthalf(0, s->n, ni, index, xi, vi, aold, jold, phiold,
                                          eps2, h2), 0);
        ck_assert_int_eq(g6calc_lasthalf2(0, s->n, ni, index, xi, vi, eps2, h2, acc, jer,
                                          pot, nnb), 0);
        for (int k = 0; k < ni; k++) {  /* a Hermite code's last step: these results */
            phiold[k] = pot[k] * g_old_factor;
            for (int c = 0; c < 3; c++)
                aold[k][c] = acc[k][c] * g_old_factor, jold[k][c] = jer[k][c] * g_old_factor;
        }
    }
    int nn_bad = check_block(s, ti, eps2, ni, index, xi, vi, acc, jer, pot, nnb, e);
    for (int k = 0; k < ni && pair && first == 0; k++)  /* each other's nearest */
        if (index[k] < 2)
            ck_assert_msg(nnb[k] == 1 - index[k], "pair member %d: nearest %d", index[k],
                          nnb[k]);
    ck_assert_msg(nn_bad == 0, "%d nearest neighbours farther than the nearest", nn_bad);
    free(xi), free(vi), free(acc), free(jer), free(pot), free(h2), free(index), free(nnb);
    free(aold), free(jold), free(phiold);
}

typedef void (*make_fn)(struct jset *s, double ti, uint64_t *rng);

/* The system of make, sent once, then blocks of each size in `sizes` (0
 * ends the list); every error within TOL and, where mean_tol > 0, the
 * mean force and potential errors within mean_tol. */
static void check_system(const char *name, make_fn make, double eps2, const int *sizes,
                         double mean_tol)
{
    uint64_t rng = g_seed ^ 0xacc;
    double ti = 0.5;
    struct jset s;
    struct errors e = { { 0 }, { 0 }, 0 };
    make(&s, ti, &rng);
    ck_assert_int_eq(g6_open(0), 0);
    send_all(&s, 0);
    for (int b = 0; sizes[b]; b++)
        run_block(&s, ti, eps2, b == 0 ? 0 : 977 * b, sizes[b], make == make_binary || make == make_far_pair, &e);
    ck_assert_int_eq(g6_close(0), 0);
    jset_free(&s);
    const char *mode = getenv("GLNBODY_G6_PRECISION"), *pos = getenv("GLNBODY_G6_POSITIONS");
    printf("check_g6_accuracy: %s, eps^2 %g, mode %s, positions %s%s: error / sum |terms| "
           "max (mean): force %.3g (%.3g), jerk %.3g (%.3g), |dphi / phi| %.3g (%.3g)\n",
           name, eps2, mode ? mode : "A", pos ? pos : "ds", g_old_calls ? ", last values" : "",
           e.max[0], e.sum[0] / e.count, e.max[1],
           e.sum[1] / e.count, e.max[2], e.sum[2] / e.count);
    fflush(stdout);
    static const char *what[3] = { "force", "jerk", "potential" };
    for (int q = 0; q < 3; q++)
        ck_assert_msg(e.max[q] <= TOL, "%s: %s error %.3g of the sum of |terms| (at most %g)",
                      name, what[q], e.max[q], TOL);
    for (int q = 0; q < 3 && mean_tol > 0; q += 2)
        ck_assert_msg(e.sum[q] / e.count <= mean_tol, "%s: mean %s error %.3g of the sum "
                      "of |terms| (at most %.3g)", name, what[q], e.sum[q] / e.count, mean_tol);
}

static const int all_sizes[] = { 64, 1, 13, N, 0 };
static const int whole[] = { N, 0 };

/* Mode A, and the position format the caller chose (by default ds),
 * unless a test sets others. */
static void default_mode(void)
{
    unsetenv("GLNBODY_G6_PRECISION");
    if (g_positions)
        setenv("GLNBODY_G6_POSITIONS", g_positions, 1);
    else
        unsetenv("GLNBODY_G6_POSITIONS");
}

START_TEST(uniform_sphere)
{
    default_mode();
    check_system("uniform sphere", make_sphere, 1e-8, all_sizes, 0);
}
END_TEST

START_TEST(plummer_hard_binary)
{
    default_mode();
    check_system("Plummer sphere with a binary", make_binary, 1e-12, all_sizes, 0);
}
END_TEST

START_TEST(far_close_pair)
{
    default_mode();
    check_system("far pair", make_far_pair, 1e-12, all_sizes, 0);
}
END_TEST

/* The mean error, on a Plummer sphere at the softening of the comparison
 * with Sapporo2 (eps^2 = 1e-4: no pair holds most of any sum).  With sums
 * that keep ~48 bits, what is left of an i-particle's error is its pair
 * terms' own rounding: a few roundings of at most u / 2 of each term
 * (u = 2^-24; r^2, the inverse square root, the products), of either sign
 * from term to term, so that they grow as the root of the sum of the
 * squares of the terms, a small part of their sum of magnitudes.  A float
 * sum rounds by up to u / 2 of its partial sums at each addition, and a
 * float result costs a quarter of an ulp of each component on average by
 * itself (between u / 4 and u / 2 of the component).  The mean of
 * |d a_c| / sum |terms| and of |d phi| / |phi| must stay below u / 4. */
START_TEST(plummer_mean)
{
    default_mode();
    check_system("Plummer sphere", make_plummer, 1e-4, all_sizes, 0x1p-26);
}
END_TEST

/* Whether the GL has GL_ARB_gpu_shader_int64 (llvmpipe has), which mode H
 * and fixed64 positions need; else `what` is reported as not tested. */
static int int64_there(const char *what)
{
    struct nb_forces *f;
    struct nb_error e = { 0 };
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    /* mode H needs the extension, and says so */
    enum nb_status int64 = nb_forces_set_precision(f, NB_PRECISION_H, &e);
    nb_forces_destroy(f);
    if (int64 == NB_ERR_UNSUPPORTED) {
        printf("check_g6_accuracy: %s not tested: %s\n", what, e.message);
        return 0;
    }
    ck_assert_int_eq(int64, NB_OK);
    return 1;
}

/* The same systems in mode D (float pair terms summed as Nitadori's float
 * pairs: the kernel of the modes other than A and G). */
START_TEST(mode_d)
{
    static const make_fn makes[] = { make_sphere, make_binary, make_far_pair };
    static const char *names[] = { "uniform sphere", "Plummer sphere with a binary",
                                   "far pair" };
    static const double eps2[] = { 1e-8, 1e-12, 1e-12 };
    setenv("GLNBODY_G6_PRECISION", "D", 1);
    check_system(names[_i], makes[_i], eps2[_i], whole, 0);
    default_mode();
}
END_TEST

/* Mode H (64-bit fixed point) at eps^2 = 1e-8 and 1e-12, with aold = jold
 * = phiold = 0 (a first step) and then with the last results as they (a
 * Hermite code's later steps): the range of a bound that grows as
 * 1/eps^3 alone leaves the jerk's resolution far too coarse at such
 * softening; each i-particle's own range must be set from its values. */
START_TEST(mode_h)
{
    static const make_fn makes[] = { make_sphere, make_binary, make_far_pair };
    static const char *names[] = { "uniform sphere", "Plummer sphere with a binary",
                                   "far pair" };
    static const double eps2[] = { 1e-8, 1e-12 };
    if (!int64_there("mode H"))
        return;
    setenv("GLNBODY_G6_PRECISION", "H", 1);
    check_system(names[_i / 2], makes[_i / 2], eps2[_i % 2], all_sizes, 0);
    g_old_calls = 1;
    check_system(names[_i / 2], makes[_i / 2], eps2[_i % 2], all_sizes, 0);
    g_old_calls = 0;
    default_mode();
}
END_TEST

/* Mode H given aold, jold and phiold far too small (2^-40 of the true
 * values: the range they set overflows, and the block runs again at the
 * bound's range) or far too large (2^40: the range they set does not
 * resolve the results, and the block runs again at a finer one). */
START_TEST(mode_h_overflow)
{
    if (!int64_there("mode H"))
        return;
    setenv("GLNBODY_G6_PRECISION", "H", 1);
    g_old_calls = 1;
    g_old_factor = _i ? 0x1p40 : 0x1p-40;
    check_system("uniform sphere", make_sphere, 1e-4, all_sizes, 0);
    g_old_calls = 0;
    g_old_factor = 1.0;
    default_mode();
}
END_TEST

/* GRAPE-6's own format, where the GL has int64 (llvmpipe has). */
START_TEST(fixed64)
{
    static const make_fn makes[] = { make_sphere, make_binary, make_far_pair };
    static const char *names[] = { "uniform sphere", "Plummer sphere with a binary",
                                   "far pair" };
    static const double eps2[] = { 1e-8, 1e-12, 1e-12 };
    default_mode();
    if (!int64_there("fixed64"))
        return;
    setenv("GLNBODY_G6_POSITIONS", "fixed64", 1);
    check_system(names[_i], makes[_i], eps2[_i], all_sizes, 0);
    default_mode();
}
END_TEST

/* The format's calls refuse what is not a format, and name it. */
START_TEST(positions_api)
{
    struct nb_forces *f;
    struct nb_error e = { 0 };
    enum nb_positions p = NB_POSITIONS_FLOAT;
    ck_assert_int_eq(nb_positions_parse("--positions", "fixed64", &p, &e), NB_OK);
    ck_assert_int_eq(p, NB_POSITIONS_FIXED64);
    ck_assert_int_eq(nb_positions_parse("--positions", "ds", &p, &e), NB_OK);
    ck_assert_int_eq(p, NB_POSITIONS_DS);
    ck_assert_int_eq(nb_positions_parse("--positions", "Float", &p, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "--positions: unknown position format 'Float'"), "%s",
                  e.message);
    ck_assert_str_eq(nb_positions_name(NB_POSITIONS_FLOAT), "float");
    ck_assert_str_eq(nb_positions_name(NB_POSITIONS_COUNT), "?");
    ck_assert_int_eq(nb_forces_set_positions(NULL, NB_POSITIONS_DS, &e), NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    ck_assert_int_eq(nb_forces_set_positions(f, NB_POSITIONS_COUNT, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "is not a position format"), "%s", e.message);
    ck_assert_int_eq(nb_forces_set_positions(f, NB_POSITIONS_FLOAT, &e), NB_OK);
    nb_forces_destroy(f);
}
END_TEST

static Suite *accuracy_suite(void)
{
    Suite *s = suite_create("g6_accuracy");
    TCase *tc = tcase_create("g6_accuracy");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, positions_api);
    tcase_add_test(tc, uniform_sphere);
    tcase_add_test(tc, plummer_hard_binary);
    tcase_add_test(tc, far_close_pair);
    tcase_add_test(tc, plummer_mean);
    tcase_add_loop_test(tc, mode_d, 0, 3);
    tcase_add_loop_test(tc, fixed64, 0, 3);
    suite_add_tcase(s, tc);
    TCase *th = tcase_create("g6_accuracy_h");
    tcase_set_timeout(th, 300);
    tcase_add_loop_test(th, mode_h, 0, 6);
    tcase_add_loop_test(th, mode_h_overflow, 0, 2);
    suite_add_tcase(s, th);
    return s;
}

int main(void)
{
    g_positions = getenv("GLNBODY_G6_POSITIONS");
    return run_gl_suite("check_g6_accuracy", accuracy_suite(), &g_gl, &g_seed);
}
