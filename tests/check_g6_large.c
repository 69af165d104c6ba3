/* check_g6_large.c - libg6gl's GRAPE-6 calls at N = 262,144 in every mode
 * (GLNBODY_G6_PRECISION A..H), as a block-step code makes them: every
 * j-particle put once, then blocks of 1 to 64 i-particles, each after
 * its i-particles were put again (their corrected coefficients), then
 * g6_set_ti, g6calc_firsthalf and g6calc_lasthalf.  The order of the
 * blocks alternates small and large puts, so that a transfer area made
 * for a few updates is followed by a batch of 64 (the inline queue's
 * most).  make sanitize runs it under AddressSanitizer, which is its
 * point: a write past the host's queue records corrupted the heap here.
 * The forces are also compared with the double CPU sum, with
 * check_g6.c's tolerances, so that a block that left its results
 * unwritten or stale fails too.  Not in make test: a block of 64 at this
 * N is 17 million pairs, in each of eight modes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6_jset.h"
#include "g6gl.h"
#include "gl_suite.h"
#include "glnbody.h"

#define N_LARGE 262144
#define TI 0.5
#define EPS2 1e-4

static struct nb_gl *g_gl;
static uint64_t g_seed;
static int g_open;          /* a failed check leaves the device open */
static double g_jerk_tol;

/* The first block's particles are not put again (the forces at the start
 * of a run); then small and large batches of updates by turns. */
static const int blocks[] = { 1, 1, 64, 2, 33 };
#define BLOCKS (int)(sizeof blocks / sizeof *blocks)

/* The j-set and, per block, its i-particles' addresses and the double
 * CPU sums (made once, for every mode). */
static struct jset g_set;
static int g_made;
static int *g_index[BLOCKS];
static double (*g_acc[BLOCKS])[3], (*g_jerk[BLOCKS])[3], *g_pot[BLOCKS];
static double (*g_scale[BLOCKS])[3], (*g_round[BLOCKS])[3];

static void make_reference(void)
{
    uint64_t rng = g_seed ^ 0x6a09e667f3bcc908ULL;
    if (g_made)
        return;
    jset_make(&g_set, N_LARGE, TI, &rng);
    for (int b = 0; b < BLOCKS; b++) {
        int ni = blocks[b];
        g_index[b] = malloc(sizeof *g_index[b] * (size_t)ni);
        g_acc[b] = malloc(sizeof *g_acc[b] * (size_t)ni);
        g_jerk[b] = malloc(sizeof *g_jerk[b] * (size_t)ni);
        g_pot[b] = malloc(sizeof *g_pot[b] * (size_t)ni);
        g_scale[b] = malloc(sizeof *g_scale[b] * (size_t)ni);
        g_round[b] = malloc(sizeof *g_round[b] * (size_t)ni);
        for (int k = 0; k < ni; k++)
            g_index[b][k] = (int)((977u * (unsigned)b + 4099u * (unsigned)k) % N_LARGE);
    }
    g_made = 1;
}

/* The CPU sums of every block, with or without the float-input bound. */
static void reference_sums(int float_inputs)
{
    static int done = -1;
    if (done == float_inputs)
        return;
    g_float_inputs = float_inputs;
    for (int b = 0; b < BLOCKS; b++) {
#pragma omp parallel for schedule(dynamic)
        for (int k = 0; k < blocks[b]; k++) {
            double xi[3], vi[3], r2;
            int nn;
            predict(&g_set, g_index[b][k], TI, xi, vi);
            cpu_forces(&g_set, TI, EPS2, xi, vi, g_index[b][k], g_acc[b][k], g_jerk[b][k],
                       &g_pot[b][k], g_scale[b][k], g_round[b][k], &nn, &r2);
        }
    }
    done = float_inputs;
}

static void put_again(int b)
{
    double k18[3] = { 0, 0, 0 };
    for (int k = 0; k < blocks[b]; k++) {
        int j = g_index[b][k];
        ck_assert_int_eq(g6_set_j_particle(0, j, j, g_set.t[j], 0.01, g_set.m[j], k18,
                                           g_set.j6[j], g_set.a2[j], g_set.v[j],
                                           g_set.x[j]), 0);
    }
}

static void run_blocks(double tol)
{
    double xi[64][3], vi[64][3], acc[64][3], jerk[64][3], pot[64], h2[64] = { 0 };
    double worst = 0, jerk_rel = 0;
    ck_assert_int_eq(g6_open(0), 0);
    g_open = 1;
    send_all(&g_set, 0);
    for (int b = 0; b < BLOCKS; b++) {
        int ni = blocks[b];
        if (b > 0)
            put_again(b);
        for (int k = 0; k < ni; k++) {
            predict(&g_set, g_index[b][k], TI, xi[k], vi[k]);
            for (int c = 0; c < 3; c++)
                acc[k][c] = jerk[k][c] = NAN;
            pot[k] = NAN;
        }
        ck_assert_int_eq(g6_set_ti(0, TI), 0);
        ck_assert_int_eq(g6calc_firsthalf(0, N_LARGE, ni, g_index[b], xi, vi, acc, jerk, pot,
                                          EPS2, h2), 0);
        ck_assert_int_eq(g6calc_lasthalf(0, N_LARGE, ni, g_index[b], xi, vi, EPS2, h2, acc,
                                         jerk, pot), 0);
        for (int k = 0; k < ni; k++) {
            const double *sc = g_scale[b][k], *ro = g_round[b][k];
            for (int c = 0; c < 3; c++) {
                worst = fmax(worst, fabs(acc[k][c] - g_acc[b][k][c]) / (tol * sc[0] + ro[0]));
                worst = fmax(worst, fabs(jerk[k][c] - g_jerk[b][k][c]) /
                                    (g_jerk_tol * sc[1] + ro[1]));
                jerk_rel = fmax(jerk_rel, fabs(jerk[k][c] - g_jerk[b][k][c]) / sc[1]);
                ck_assert_msg(fabs(acc[k][c] - g_acc[b][k][c]) <= tol * sc[0] + ro[0],
                              "block %d (ni %d), i %d: acc %.9g, CPU %.9g", b, ni, k,
                              acc[k][c], g_acc[b][k][c]);
                ck_assert_msg(fabs(jerk[k][c] - g_jerk[b][k][c]) <= g_jerk_tol * sc[1] + ro[1],
                              "block %d (ni %d), i %d: jerk %.9g, CPU %.9g", b, ni, k,
                              jerk[k][c], g_jerk[b][k][c]);
            }
            worst = fmax(worst, fabs(pot[k] - g_pot[b][k]) / (tol * sc[2] + ro[2]));
            ck_assert_msg(fabs(pot[k] - g_pot[b][k]) <= tol * sc[2] + ro[2],
                          "block %d (ni %d), i %d: pot %.9g, CPU %.9g", b, ni, k, pot[k],
                          g_pot[b][k]);
        }
    }
    g_open = 0;
    ck_assert_int_eq(g6_close(0), 0);
    printf("check_g6_large: largest error %.3g of the tolerance; jerks within %.3g of the "
           "sums of |terms|\n", worst, jerk_rel);
}

/* After a failed check, the device closed: the next mode's g6_open would
 * otherwise find it open, in the last mode. */
static void close_device(void)
{
    if (g_open)
        g6_close(0);
    g_open = 0;
}

/* One mode a test.  Tolerances as check_g6.c's for blocks of this size:
 * float modes 1e-5 of the sums of |terms| plus the bound of rounding the
 * inputs to float, mode H 2e-6, mode G (double throughout) 1e-12; jerks
 * as forces.  (Mode F's jerks, whose remainders were truncated, erred by
 * 3.9e-4 of their sums at this N.) */
START_TEST(blocks_every_mode)
{
    char mode[2] = { (char)('A' + _i), 0 };
    double tol = _i == 'G' - 'A' ? 1e-12 : _i == 'H' - 'A' ? 2e-6 : 1e-5;
    g_jerk_tol = tol;
    make_reference();
    reference_sums(_i != 'G' - 'A');
    setenv("GLNBODY_G6_PRECISION", mode, 1);
    printf("check_g6_large: mode %s\n", mode);
    fflush(stdout);
    run_blocks(tol);
    unsetenv("GLNBODY_G6_PRECISION");
}
END_TEST

static Suite *large_suite(void)
{
    Suite *s = suite_create("g6_large");
    TCase *tc = tcase_create("g6_large");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, NULL, close_device);
    tcase_add_loop_test(tc, blocks_every_mode, 0, NB_PRECISION_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

static void free_reference(void)
{
    if (!g_made)
        return;
    for (int b = 0; b < BLOCKS; b++) {
        free(g_index[b]), free(g_acc[b]), free(g_jerk[b]), free(g_pot[b]);
        free(g_scale[b]), free(g_round[b]);
    }
    jset_free(&g_set);
}

int main(void)
{
    int r = run_gl_suite("check_g6_large", large_suite(), &g_gl, &g_seed);
    free_reference();
    return r;
}
