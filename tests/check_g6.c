/* check_g6.c - libg6gl, the GRAPE-6 interface (tools/g6/g6gl.h):
 *  - its forces, jerks, potentials and nearest neighbours on random
 *    j-particles given as Taylor coefficients at their own times, against
 *    a double-precision CPU prediction and sum (tests/g6_jset.h; N = 1, 2,
 *    3, 97, 1031, blocks of every kernel shape), in modes A, G and H
 *    (GLNBODY_G6_PRECISION), with double-single positions (the default)
 *    and rounded to float (GLNBODY_G6_POSITIONS=float);
 *  - neighbour lists against a CPU search;
 *  - two Hermite block-step codes written against the g6 API only, in C
 *    (tests/g6_driver.c, with lasthalf and with lasthalf2) and in Fortran
 *    through the underscore ABI (tests/g6_driver.f90), against glnbody's
 *    own Hermite run (nb_hermite, as `glnbody run`) on one Plummer sphere;
 *  - a client that defines the C names itself (tests/g6_client.c), linked
 *    against libg6gl.so;
 *  - bad calls: one message on stderr and G6GL_ERROR, never a crash. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g6_expect.h"
#include "g6_jset.h"
#include "g6gl.h"
#include "gl_suite.h"
#include "glnbody.h"

static struct nb_gl *g_gl;
static uint64_t g_seed;
static const char *g_positions;     /* GLNBODY_G6_POSITIONS as the caller set it */

/* The position format the caller chose (by default ds). */
static void caller_positions(void)
{
    if (g_positions)
        setenv("GLNBODY_G6_POSITIONS", g_positions, 1);
    else
        unsetenv("GLNBODY_G6_POSITIONS");
}

/* One block of ni i-particles (ni - 1 j-particles, predicted in double,
 * and one foreign particle of id -5; ni 0: n + 1, at most 41) on a j-set
 * of n, through firsthalf/lasthalf2, against cpu_forces; tol relative to
 * the sums of |terms|. */
static void check_sent_block(struct jset *s, int ni, double tol)
{
    int n = s->n;
    double ti = 0.5, eps2 = 1e-4;
    ni = ni > 0 ? ni : n < 40 ? n + 1 : 41;
    double (*xi)[3] = malloc(sizeof *xi * (size_t)ni), (*vi)[3] = malloc(sizeof *vi * (size_t)ni);
    double (*acc)[3] = malloc(sizeof *acc * (size_t)ni), (*jer)[3] = malloc(sizeof *jer * (size_t)ni);
    double *pot = malloc(sizeof *pot * (size_t)ni), *h2 = calloc((size_t)ni, sizeof *h2);
    int *index = malloc(sizeof *index * (size_t)ni), *nnb = malloc(sizeof *nnb * (size_t)ni);
    for (int k = 0; k < ni; k++) {
        index[k] = k < ni - 1 ? (k * 7) % n : -5;
        if (index[k] >= 0) {
            predict(s, index[k], ti, xi[k], vi[k]);
        } else {
            for (int c = 0; c < 3; c++)
                xi[k][c] = 0.1 * c, vi[k][c] = 0.05;
        }
    }
    ck_assert_int_eq(g6_set_ti(0, ti), 0);
    ck_assert_int_eq(g6calc_firsthalf(0, n, ni, index, xi, vi, acc, jer, pot, eps2, h2), 0);
    ck_assert_int_eq(g6calc_lasthalf2(0, n, ni, index, xi, vi, eps2, h2, acc, jer, pot, nnb), 0);
    for (int k = 0; k < ni; k++) {
        double ra[3], rj[3], rp, sc[3], ro[3], r2;
        int nn;
        cpu_forces(s, ti, eps2, xi[k], vi[k], index[k], ra, rj, &rp, sc, ro, &nn, &r2);
        for (int c = 0; c < 3; c++) {
            ck_assert_msg(fabs(acc[k][c] - ra[c]) <= tol * sc[0] + ro[0] + 1e-300,
                          "n %d, i %d: acc %.9g, CPU %.9g (scale %g, input rounding %g)", n,
                          k, acc[k][c], ra[c], sc[0], ro[0]);
            ck_assert_msg(fabs(jer[k][c] - rj[c]) <= tol * sc[1] + ro[1] + 1e-300,
                          "n %d, i %d: jerk %.9g, CPU %.9g (scale %g, input rounding %g)", n,
                          k, jer[k][c], rj[c], sc[1], ro[1]);
        }
        ck_assert_msg(fabs(pot[k] - rp) <= tol * sc[2] + ro[2], "n %d, i %d: pot %.9g, CPU "
                      "%.9g (input rounding %g)", n, k, pot[k], rp, ro[2]);
        if (nn < 0) {
            ck_assert_int_eq(nnb[k], 0);        /* Sapporo2's value without any */
        } else {
            double xp[3], vp[3], d2 = 0;
            ck_assert_int_ge(nnb[k], 0);
            ck_assert_int_lt(nnb[k], n);
            ck_assert_int_ne(nnb[k], index[k]);
            predict(s, nnb[k], ti, xp, vp);
            for (int c = 0; c < 3; c++)
                d2 += (xp[c] - xi[k][c]) * (xp[c] - xi[k][c]);
            ck_assert_msg(d2 <= r2 * (1 + 1e-5) + 1e-12, "n %d, i %d: nearest %d at r2 %g, "
                          "CPU %d at %g", n, k, nnb[k], d2, nn, r2);
        }
    }
    free(xi), free(vi), free(acc), free(jer), free(pot), free(h2), free(index), free(nnb);
}

/* A j-set of n, particles a and b at each other's addresses (a == b: none). */
static void check_block_swapped(int n, int ni, double tol, int a, int b)
{
    uint64_t rng = g_seed ^ (uint64_t)n * 7919;
    struct jset s;
    jset_make(&s, n, 0.5, &rng);
    ck_assert_int_eq(g6_open(0), 0);
    send_swapped(&s, a, b);
    check_sent_block(&s, ni, tol);
    ck_assert_int_eq(g6_close(0), 0);
    jset_free(&s);
}

static void check_block(int n, int ni, double tol)
{
    check_block_swapped(n, ni, tol, 0, 0);
}

static void check_forces(int n, double tol)
{
    check_block(n, 0, tol);
}

START_TEST(forces_mode_a)
{
    static const int sizes[] = { 1, 2, 3, 97, 1031 };
    unsetenv("GLNBODY_G6_PRECISION");
    check_forces(sizes[_i], 2e-6);
}
END_TEST

/* The float position format: each pair term's rounding of x and v to
 * float bounded to first order (cpu_forces), on top of forces_mode_a's
 * arithmetic. */
START_TEST(forces_float_positions)
{
    static const int sizes[] = { 97, 1031 };
    unsetenv("GLNBODY_G6_PRECISION");
    setenv("GLNBODY_G6_POSITIONS", "float", 1);
    g_float_inputs = 1;
    check_forces(sizes[_i], 2e-6);
    check_block(1031, 5, 2e-6);
    g_float_inputs = g_positions && strcmp(g_positions, "float") == 0;
    caller_positions();
}
END_TEST

/* Blocks around the widths where mode A changes lanes per i-particle and
 * tiles (64, 16 and 4 lanes at tile 64, 4 and 2 at tile 128, then tile 256:
 * g6_launch.c's small_block_shape), on prime j-sets: 263 and 1031 (one
 * batch of slices) and 4099 (two or three batches, the last of one slice:
 * g6_block.comp adds slices in batches of NB_G6_FUSED_BATCH). */
START_TEST(small_blocks_mode_a)
{
    static const int blocks[] = { 1, 2, 4, 5, 13, 16, 17, 32, 33, 64, 65, 257 };
    static const int across[] = { 1, 5, 17, 33, 257 };
    unsetenv("GLNBODY_G6_PRECISION");
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++) {
        check_block(1031, blocks[b], 2e-6);
        check_block(263, blocks[b], 2e-6);
    }
    for (size_t b = 0; b < sizeof across / sizeof *across; b++)
        check_block(4099, across[b], 2e-6);
    check_block(139999, 5, 2e-6);       /* past 2048 tiles: 1024 slices, 32 batches */
}
END_TEST

/* A block of 3001 (prime) on 4099 j-particles, tile 256 with its own
 * reduction pass, in mode A and in mode H (its fixed-point words); in mode
 * A also with two ids that are not their addresses, in tiles apart and in
 * one tile. */
START_TEST(large_block)
{
    unsetenv("GLNBODY_G6_PRECISION");
    check_block(4099, 3001, 2e-6);
    check_block_swapped(4099, 3001, 2e-6, 10, 3000);
    check_block_swapped(4099, 3001, 2e-6, 700, 701);
    setenv("GLNBODY_G6_PRECISION", "H", 1);
    check_block(4099, 3001, 2e-6);
    unsetenv("GLNBODY_G6_PRECISION");
}
END_TEST

/* Small blocks after a few j-updates (they ride with the block instead of
 * a scatter pass up to 64 of them, g6_jmemory.glsl), then a block with
 * none: the first must see the new coefficients, the second must find
 * them written into the j-memory.  The updated particles are made 50x
 * heavier than the rest, so that a stale one moves the forces by percents;
 * each is sent twice, a heavy decoy first, which the second must replace. */
START_TEST(updates_before_small_blocks)
{
    static const int updates[] = { 1, 7, 64, 65 }, blocks[] = { 1, 5, 40 };
    uint64_t rng = g_seed ^ 0x9e37;
    struct jset s, fresh;
    double k18[3] = { 0, 0, 0 };
    unsetenv("GLNBODY_G6_PRECISION");
    jset_make(&s, 1031, 0.5, &rng);
    ck_assert_int_eq(g6_open(0), 0);
    send_all(&s, 0);
    check_sent_block(&s, 3, 2e-6);
    for (size_t u = 0; u < sizeof updates / sizeof *updates; u++) {
        jset_make(&fresh, updates[u], 0.5, &rng);
        for (int k = 0; k < updates[u]; k++) {
            int j = (int)((97 * (size_t)k + 13 * u) % (size_t)s.n);
            memcpy(s.x[j], fresh.x[k], sizeof s.x[j]);
            memcpy(s.v[j], fresh.v[k], sizeof s.v[j]);
            memcpy(s.a2[j], fresh.a2[k], sizeof s.a2[j]);
            memcpy(s.j6[j], fresh.j6[k], sizeof s.j6[j]);
            s.t[j] = fresh.t[k];
            s.m[j] = 0.05;          /* heavy: a stale update shows at once */
            double decoy[3] = { 0.3, -0.2, 0.1 };       /* replaced by the next */
            ck_assert_int_eq(g6_set_j_particle(0, j, j, s.t[j], 0.01, 1.0, k18, s.j6[j],
                                               s.a2[j], decoy, decoy), 0);
            ck_assert_int_eq(g6_set_j_particle(0, j, j, s.t[j], 0.01, s.m[j], k18, s.j6[j],
                                               s.a2[j], s.v[j], s.x[j]), 0);
        }
        jset_free(&fresh);
        for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
            check_sent_block(&s, blocks[b], 2e-6);
    }
    ck_assert_int_eq(g6_close(0), 0);
    jset_free(&s);
}
END_TEST

START_TEST(forces_mode_h)
{
    static const int sizes[] = { 2, 3, 97, 1031 };
    setenv("GLNBODY_G6_PRECISION", "H", 1);
    check_forces(sizes[_i], 2e-6);
    unsetenv("GLNBODY_G6_PRECISION");
}
END_TEST

START_TEST(forces_mode_g)
{
    setenv("GLNBODY_G6_PRECISION", "g", 1);
    check_forces(1031, 1e-12);
    unsetenv("GLNBODY_G6_PRECISION");
}
END_TEST

/* One block of 37 i-particles (i-particle k at j-address 3k) on the j-set
 * s as sent, its neighbour lists against a CPU search; pairs within 1e-5
 * of the radius either way may go either way (float distances). */
static void check_neighbour_block(const struct jset *s, uint64_t *rng)
{
    int n = s->n, ni = 37;
    double ti = 0.25, eps2 = 1e-6;
    double xi[37][3], vi[37][3], acc[37][3], jer[37][3], pot[37], h2[37];
    int index[37];
    for (int k = 0; k < ni; k++) {
        index[k] = 3 * k;
        predict(s, index[k], ti, xi[k], vi[k]);
        h2[k] = k == 0 ? 10.0 : 0.05 * uniform(rng);       /* k = 0: everyone */
    }
    ck_assert_int_eq(g6_set_ti(0, ti), 0);
    ck_assert_int_eq(g6calc_firsthalf(0, n, ni, index, xi, vi, acc, jer, pot, eps2, h2), 0);
    ck_assert_int_eq(g6calc_lasthalf(0, n, ni, index, xi, vi, eps2, h2, acc, jer, pot), 0);
    ck_assert_int_eq(g6_read_neighbour_list(0), 1);         /* k = 0 overflows 256 */
    for (int k = 0; k < ni; k++) {
        int list[600], len = -1;
        int r = g6_get_neighbour_list(0, k, 600, &len, list);
        if (k == 0) {
            ck_assert_int_eq(len, n - 1);
            ck_assert_int_eq(r, 1);
            continue;
        }
        ck_assert_int_eq(r, 0);
        int got = 0;
        for (int q = 1; q < len; q++)
            ck_assert_int_lt(list[q - 1], list[q]);         /* ascending */
        for (int j = 0; j < n; j++) {
            double xp[3], vp[3], d2 = 0;
            predict(s, j, ti, xp, vp);
            for (int c = 0; c < 3; c++)
                d2 += (xp[c] - xi[k][c]) * (xp[c] - xi[k][c]);
            int listed = 0;
            for (int q = 0; q < len; q++)
                listed |= list[q] == j;
            got += listed;
            if (j == index[k]) {
                ck_assert_msg(!listed, "i %d lists itself", k);
                continue;
            }
            if (fabs(d2 - h2[k]) > 1e-5 * h2[k])
                ck_assert_msg(listed == (d2 < h2[k]), "i %d, j %d: r2 %g, h2 %g, listed %d",
                              k, j, d2, h2[k], listed);
        }
        ck_assert_int_eq(got, len);
        if (len > 1) {      /* a list cut short says so */
            int few[1], n_few;
            ck_assert_int_eq(g6_get_neighbour_list(0, k, 1, &n_few, few), 1);
            ck_assert_int_eq(few[0], list[0]);
        }
    }
}

/* Neighbour lists after the whole j-set was sent (a scatter pass), and
 * again after 20 j-particles moved (their updates ride with the block). */
START_TEST(neighbour_lists)
{
    uint64_t rng = g_seed ^ 0x6e6e;
    struct jset s, moved;
    double k18[3] = { 0, 0, 0 };
    jset_make(&s, 509, 0.25, &rng);
    ck_assert_int_eq(g6_open(0), 0);
    send_all(&s, 0);
    check_neighbour_block(&s, &rng);
    jset_make(&moved, 20, 0.25, &rng);
    for (int k = 0; k < 20; k++) {
        int j = 1 + 5 * k;
        memcpy(s.x[j], moved.x[k], sizeof s.x[j]);
        memcpy(s.v[j], moved.v[k], sizeof s.v[j]);
        s.t[j] = moved.t[k];
        ck_assert_int_eq(g6_set_j_particle(0, j, j, s.t[j], 0.01, s.m[j], k18, s.j6[j],
                                           s.a2[j], s.v[j], s.x[j]), 0);
    }
    check_neighbour_block(&s, &rng);
    ck_assert_int_eq(g6_close(0), 0);
    jset_free(&moved);
    jset_free(&s);
}
END_TEST

/* ---- block-step drivers against nb_hermite ---- */

#define T_END 0.25
#define ETA 0.02
#define EPS 0.01
#define DT_MAX 0.125

static char g_in[64];
static double *g_xref;
static int g_n;

/* The Plummer sphere, its input file and glnbody's own run to T_END. */
static void reference(int n)
{
    struct nb_forces *f;
    struct nb_hermite *h;
    struct nb_hermite_params par;
    struct nb_error e = { 0 };
    g_n = n;
    nb_hermite_params_default(&par);
    par.eta = ETA, par.eps = EPS, par.dt_max = DT_MAX;
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    ck_assert_msg(nb_hermite_create_plummer(&h, f, (size_t)n, g_seed, &par, &e) == NB_OK,
                  "%s", e.message);
    double *x = malloc(sizeof *x * 3 * (size_t)n), *v = malloc(sizeof *v * 3 * (size_t)n);
    ck_assert_int_eq(nb_hermite_state(h, x, v, &e), NB_OK);
    snprintf(g_in, sizeof g_in, "/tmp/check_g6_in_%d.txt", (int)getpid());
    FILE *in = fopen(g_in, "w");
    ck_assert_ptr_nonnull(in);
    fprintf(in, "%d\n", n);
    for (int i = 0; i < n; i++)
        fprintf(in, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", 1.0 / n, x[3 * i],
                x[3 * i + 1], x[3 * i + 2], v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    ck_assert_int_eq(fclose(in), 0);
    ck_assert_msg(nb_hermite_integrate(h, T_END, &e) == NB_OK, "%s", e.message);
    g_xref = x;
    ck_assert_int_eq(nb_hermite_state(h, g_xref, v, &e), NB_OK);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    free(v);
}

/* Runs a driver (command line `prog`) and compares its positions with the
 * reference: the largest distance, which must stay below tol. */
static void compare_driver(const char *prog, const char *extra, double tol)
{
    char out[64], cmd[512];
    snprintf(out, sizeof out, "/tmp/check_g6_out_%d.txt", (int)getpid());
    snprintf(cmd, sizeof cmd, "%s %s %s %g %g %g %g %s", prog, g_in, out, T_END, ETA, EPS,
             DT_MAX, extra);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    double worst = 0;
    for (int i = 0; i < g_n; i++) {
        double p[6];
        ck_assert_int_eq(fscanf(f, "%lf %lf %lf %lf %lf %lf", &p[0], &p[1], &p[2], &p[3],
                                &p[4], &p[5]), 6);
        double d = 0;
        for (int c = 0; c < 3; c++)
            d += (p[c] - g_xref[3 * i + c]) * (p[c] - g_xref[3 * i + c]);
        worst = fmax(worst, sqrt(d));
    }
    fclose(f);
    remove(out);
    printf("check_g6: %s %s: positions at t = %g within %.3g of glnbody's run\n", prog, extra,
           T_END, worst);
    ck_assert_msg(worst < tol, "%s: %g from glnbody's run", prog, worst);
}

/* Float forces (mode A in both codes, summed in other orders) put the two
 * runs 1e-7 apart at first; over 0.25 time units of a 64-body Plummer
 * sphere (~2000 particle steps) that grows to ~1e-6. */
START_TEST(driver_c)
{
    reference(64);
    compare_driver("build/tests/g6_driver", "", 1e-4);
    compare_driver("build/tests/g6_driver", "nearest", 1e-4);
    remove(g_in);
    free(g_xref);
}
END_TEST

START_TEST(driver_fortran)
{
    reference(64);
    compare_driver("build/tests/g6_driver_f", "", 1e-4);
    remove(g_in);
    free(g_xref);
}
END_TEST

/* ---- bad calls ---- */

/* A client in Sapporo2's style, its own C names over the Fortran ones,
 * g6_open_(NULL) and g6_reset_fofpga (tests/g6_client.c), linked against
 * libg6gl.so: it must link, run and get its forces (it checks them itself
 * against a double sum). */
START_TEST(drop_in_client)
{
    ck_assert_msg(system("build/tests/g6_client 1000") == 0, "build/tests/g6_client 1000 failed");
}
END_TEST

START_TEST(bad_calls)
{
    double x[1][3] = { { 0, 0, 0 } }, v[1][3] = { { 0, 0, 0 } }, z[3] = { 0, 0, 0 };
    double a[1][3], j[1][3], p[1], h2[1] = { 0 };
    int index[1] = { 0 }, nn[1], len;
    EXPECT_ERROR(g6_set_ti(0, 1.0), "g6_set_ti: the device is not open");
    EXPECT_ERROR(g6_npipes(), "g6_npipes: the device is not open");
    EXPECT_ERROR(g6calc_firsthalf(0, 1, 1, index, x, v, a, j, p, 0.01, h2), "not open");
    EXPECT_ERROR(g6_set_j_particle(0, 0, 0, 0, 0, 1, z, z, z, z, z), "not open");
    setenv("GLNBODY_G6_PRECISION", "Q", 1);
    EXPECT_ERROR(g6_open(0), "GLNBODY_G6_PRECISION=Q");
    unsetenv("GLNBODY_G6_PRECISION");
    setenv("GLNBODY_G6_POSITIONS", "double", 1);
    EXPECT_ERROR(g6_open(0), "GLNBODY_G6_POSITIONS=double: not ds, float or fixed64");
    caller_positions();
    EXPECT_ERROR(g6_open(-1), "cluster id -1");
    ck_assert_int_eq(g6_open(0), 0);
    int npipes = g6_npipes();
    ck_assert_int_gt(npipes, 0);
    EXPECT_ERROR(g6_set_j_particle(0, -1, 0, 0, 0, 1, z, z, z, z, z), "j-address -1 out of range");
    EXPECT_ERROR(g6_set_j_particle(0, 1 << 30, 0, 0, 0, 1, z, z, z, z, z), "out of range");
    double bad[3] = { 0, NAN, 0 };
    EXPECT_ERROR(g6_set_j_particle(0, 3, 0, 0, 0, 1, z, z, z, z, bad), "non-finite");
    EXPECT_ERROR(g6_set_j_particle(0, 3, 0, 0, 0, -1, z, z, z, z, z), "mass -1");
    EXPECT_ERROR(g6calc_lasthalf(0, 1, 1, index, x, v, 0.01, h2, a, j, p), "no block was started");
    EXPECT_ERROR(g6calc_lasthalf2(0, 1, 1, index, x, v, 0.01, h2, a, j, p, nn),
                 "no block was started");
    EXPECT_ERROR(g6_read_neighbour_list(0), "no block was finished");
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, 4, &len, nn), "no neighbour list was read");
    double (*big)[3] = calloc((size_t)npipes + 1, sizeof *big);
    int *bigi = calloc((size_t)npipes + 1, sizeof *bigi);
    EXPECT_ERROR(g6calc_firsthalf(0, 1, npipes + 1, bigi, big, big, big, big, h2, 0.01, h2),
                 "must be 0..g6_npipes()");
    free(big), free(bigi);
    ck_assert_int_eq(g6_set_j_particle(0, 0, 0, 0, 0, 1, z, z, z, z, z), 0);
    ck_assert_int_eq(g6calc_firsthalf(0, 1, 1, index, x, v, a, j, p, 0.01, h2), 0);
    ck_assert_int_eq(g6calc_lasthalf(0, 1, 1, index, x, v, 0.01, h2, a, j, p), 0);
    ck_assert(a[0][0] == 0 && p[0] == 0);                   /* only itself */
    EXPECT_ERROR(g6calc_lasthalf(0, 1, 1, index, x, v, 0.01, h2, a, j, p), "no block was started");
    ck_assert_int_eq(g6_read_neighbour_list(0), 0);
    EXPECT_ERROR(g6_get_neighbour_list(0, 1, 4, &len, nn), "ipipe 1");
    ck_assert_int_eq(g6_close(0), 0);
    EXPECT_ERROR(g6_close(0), "not open");
}
END_TEST

static Suite *g6_suite(void)
{
    Suite *s = suite_create("g6");
    TCase *tc = tcase_create("g6");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, forces_mode_a, 0, 5);
    tcase_add_loop_test(tc, forces_float_positions, 0, 2);
    tcase_add_test(tc, small_blocks_mode_a);
    tcase_add_test(tc, large_block);
    tcase_add_test(tc, updates_before_small_blocks);
    tcase_add_loop_test(tc, forces_mode_h, 0, 4);
    tcase_add_test(tc, forces_mode_g);
    tcase_add_test(tc, neighbour_lists);
    tcase_add_test(tc, driver_c);
    tcase_add_test(tc, driver_fortran);
    tcase_add_test(tc, drop_in_client);
    tcase_add_test(tc, bad_calls);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    g_positions = getenv("GLNBODY_G6_POSITIONS");
    g_float_inputs = g_positions && strcmp(g_positions, "float") == 0;
    return run_gl_suite("check_g6", g6_suite(), &g_gl, &g_seed);
}
