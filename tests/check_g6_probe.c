/* check_g6_probe.c - the GRAPE-6 calls of libg6gl in every order a code
 * may get wrong: before g6_open, after g6_close, twice, out of turn, with
 * counts and addresses out of range, with NaN and infinity in each
 * argument, with NULL pointers through the Fortran names, and with
 * j-addresses put again.  Each probe expects either a refusal (G6GL_ERROR
 * and one line "g6gl: FUNCTION: cause" on stderr) or a defined result,
 * which it checks; none may crash or leave results unwritten.  The
 * probes and what each gives are listed in tools/docs/reliability_g6.md. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6_expect.h"
#include "g6gl.h"
#include "gl_suite.h"
#include "glnbody.h"

static struct nb_gl *g_gl;
static uint64_t g_seed;

/* Four j-particles at rest at t = 0, masses 0.25, id = address. */
#define NJ 4
static const double jx[NJ][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
static double z[3] = { 0, 0, 0 };

static void put_all(void)
{
    for (int j = 0; j < NJ; j++)
        ck_assert_int_eq(g6_set_j_particle(0, j, j, 0, 0, 0.25, z, z, z, z,
                                           (double *)jx[j]), 0);
}

/* The device closed whatever a probe left. */
static void quiet_close(void)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *null = freopen("/dev/null", "w", stderr);
    (void)null;
    g6_close(0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

static void open_with_set(void)
{
    ck_assert_int_eq(g6_open(0), 0);
    put_all();
    ck_assert_int_eq(g6_set_ti(0, 0.0), 0);
}

/* The acceleration on a test particle at xi (id -1) from the four, in
 * double, eps2 0.01. */
static void expected(const double xi[3], double acc[3], double *pot)
{
    acc[0] = acc[1] = acc[2] = 0, *pot = 0;
    for (int j = 0; j < NJ; j++) {
        double d[3] = { jx[j][0] - xi[0], jx[j][1] - xi[1], jx[j][2] - xi[2] };
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01, r = sqrt(r2);
        for (int c = 0; c < 3; c++)
            acc[c] += 0.25 * d[c] / (r2 * r);
        *pot -= 0.25 / r;
    }
}

/* One block of ni (1 or 2) test particles; 0 and its results in acc, pot. */
static int block(int nj, int ni, double acc[][3], double pot[])
{
    int index[2] = { -1, -2 };
    double xi[2][3] = { { 0.3, 0.2, 0.1 }, { -0.5, 0.4, 0.2 } }, vi[2][3] = { { 0 } };
    double jerk[2][3], h2[2] = { 0.5, 0.5 };
    for (int k = 0; k < ni; k++)
        acc[k][0] = acc[k][1] = acc[k][2] = pot[k] = NAN;
    int r = g6calc_firsthalf(0, nj, ni, index, xi, vi, acc, jerk, pot, 0.01, h2);
    return r ? r : g6calc_lasthalf(0, nj, ni, index, xi, vi, 0.01, h2, acc, jerk, pot);
}

/* The forces on test particle k as expected, float accuracy (mode A). */
static void check_forces(double acc[][3], double pot[], int k)
{
    double xi[2][3] = { { 0.3, 0.2, 0.1 }, { -0.5, 0.4, 0.2 } }, a[3], p;
    expected(xi[k], a, &p);
    for (int c = 0; c < 3; c++)
        ck_assert_msg(fabs(acc[k][c] - a[c]) < 1e-5 * (1 + fabs(a[c])), "acc[%d][%d] %g, "
                      "expected %g", k, c, acc[k][c], a[c]);
    ck_assert_msg(fabs(pot[k] - p) < 1e-5 * fabs(p), "pot %g, expected %g", pot[k], p);
}

#define PROBE(name) static void name(void)

/* ---- before g6_open ---- */
PROBE(closed_close) { EXPECT_ERROR(g6_close(0), "g6_close: the device is not open"); }
PROBE(closed_npipes) { EXPECT_ERROR(g6_npipes(), "g6_npipes: the device is not open"); }
PROBE(closed_set_ti) { EXPECT_ERROR(g6_set_ti(0, 0.0), "g6_set_ti: the device is not open"); }
PROBE(closed_set_j)
{
    EXPECT_ERROR(g6_set_j_particle(0, 0, 0, 0, 0, 1, z, z, z, z, z), "not open");
}
PROBE(closed_firsthalf)
{
    double a[1][3], p[1];
    EXPECT_ERROR(block(NJ, 1, a, p), "g6calc_firsthalf: the device is not open");
}
PROBE(closed_lasthalf)
{
    int index[1] = { 0 };
    double x[1][3] = { { 0 } }, a[1][3], p[1];
    EXPECT_ERROR(g6calc_lasthalf(0, 1, 1, index, x, x, 0.01, NULL, a, a, p), "not open");
}
PROBE(closed_lasthalf2)
{
    int index[1] = { 0 }, nn[1];
    double x[1][3] = { { 0 } }, a[1][3], p[1];
    EXPECT_ERROR(g6calc_lasthalf2(0, 1, 1, index, x, x, 0.01, NULL, a, a, p, nn), "not open");
}
PROBE(closed_read_neighbours) { EXPECT_ERROR(g6_read_neighbour_list(0), "not open"); }
PROBE(closed_get_neighbours)
{
    int n, list[4];
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, 4, &n, list), "not open");
}
/* the no-ops answer 0 whether open or not, as Sapporo2's */
PROBE(closed_noops)
{
    ck_assert_int_eq(g6_set_tunit(1.0), 0);
    ck_assert_int_eq(g6_set_xunit(NAN), 0);
    ck_assert_int_eq(g6_reset(0), 0);
    ck_assert_int_eq(g6_reset_fofpga(0), 0);
    ck_assert_int_eq(g6_initialize_jp_buffer(0, -5), 0);
    ck_assert_int_eq(g6_flush_jp_buffer(0), 0);
}

/* ---- g6_open ---- */
PROBE(open_negative) { EXPECT_ERROR(g6_open(-1), "cluster id -1"); }
PROBE(open_int_min) { EXPECT_ERROR(g6_open(INT_MIN), "must be >= 0"); }
PROBE(open_no_such_device)
{
    int devices = nb_gl_device_count();
    EXPECT_ERROR(g6_open(devices > 1 ? devices : 1000), "EGL device");
}
PROBE(open_twice)
{
    ck_assert_int_eq(g6_open(0), 0);
    int np = g6_npipes();
    ck_assert_int_eq(g6_open(0), 0);    /* already open: as Sapporo2 */
    ck_assert_int_eq(g6_npipes(), np);
}
PROBE(open_fortran_null)
{
    double a[1][3], p[1];
    ck_assert_int_eq(g6_open_(NULL), 0);
    put_all();
    ck_assert_int_eq(g6_set_ti_(NULL, &(double){ 0.0 }), 0);
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    check_forces(a, p, 0);
    ck_assert_int_eq(g6_close_(NULL), 0);
}
PROBE(open_special_no_list)
{
    ck_assert_int_eq(g6_open_special(0, NULL), 0);
    ck_assert_int_gt(g6_npipes(), 0);
}
PROBE(open_special_list)
{
    int list[1] = { 0 };
    ck_assert_int_eq(g6_open_special(1, list), 0);
    ck_assert_int_gt(g6_npipes(), 0);
}
PROBE(open_bad_precision)
{
    setenv("GLNBODY_G6_PRECISION", "Z", 1);
    EXPECT_ERROR(g6_open(0), "GLNBODY_G6_PRECISION=Z");
    unsetenv("GLNBODY_G6_PRECISION");
}
PROBE(open_bad_jmax)
{
    setenv("GLNBODY_G6_JMAX", "12abc", 1);
    EXPECT_ERROR(g6_open(0), "GLNBODY_G6_JMAX=12abc");
    unsetenv("GLNBODY_G6_JMAX");
}
PROBE(open_bad_npipes)
{
    setenv("GLNBODY_G6_NPIPES", "-3", 1);
    EXPECT_ERROR(g6_open(0), "GLNBODY_G6_NPIPES=-3");
    unsetenv("GLNBODY_G6_NPIPES");
}
PROBE(open_small_npipes)
{
    double a[2][3], p[2];
    setenv("GLNBODY_G6_NPIPES", "1", 1);
    ck_assert_int_eq(g6_open(0), 0);
    unsetenv("GLNBODY_G6_NPIPES");
    ck_assert_int_eq(g6_npipes(), 1);
    put_all();
    EXPECT_ERROR(block(NJ, 2, a, p), "ni = 2: must be 0..g6_npipes() = 1");
}

/* ---- after g6_close ---- */
PROBE(close_twice)
{
    ck_assert_int_eq(g6_open(0), 0);
    ck_assert_int_eq(g6_close(0), 0);
    EXPECT_ERROR(g6_close(0), "not open");
}
PROBE(closed_after_use)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(g6_close(0), 0);
    EXPECT_ERROR(g6_set_j_particle(0, 0, 0, 0, 0, 1, z, z, z, z, z), "not open");
    EXPECT_ERROR(block(NJ, 1, a, p), "not open");
}
PROBE(close_with_block_in_flight)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1], h2[1] = { 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, 0.01, h2), 0);
    ck_assert_int_eq(g6_close(0), 0);
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, h2, a, a, p), "not open");
}
/* a new g6_open starts with an empty j-memory: no forces */
PROBE(reopen_empty)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(g6_close(0), 0);
    ck_assert_int_eq(g6_open(0), 0);
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    ck_assert(a[0][0] == 0 && a[0][1] == 0 && a[0][2] == 0 && p[0] == 0);
}

/* ---- g6_set_ti ---- */
PROBE(set_ti_nan)
{
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6_set_ti(0, NAN), "g6_set_ti: ti = nan: not finite");
}
PROBE(set_ti_inf)
{
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6_set_ti(0, INFINITY), "not finite");
    EXPECT_ERROR(g6_set_ti(0, -INFINITY), "not finite");
}
/* a refused time leaves the last good one */
PROBE(set_ti_nan_keeps_last)
{
    double a[1][3], p[1];
    open_with_set();
    EXPECT_ERROR(g6_set_ti(0, NAN), "not finite");
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    check_forces(a, p, 0);
}
PROBE(set_ti_fortran_null)
{
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6_set_ti_(NULL, NULL), "ti is a NULL pointer");
}
/* a time so far from the j-particles' that prediction overflows */
PROBE(set_ti_huge)
{
    double a[1][3], p[1], v[3] = { 1, 0, 0 };
    ck_assert_int_eq(g6_open(0), 0);
    put_all();
    ck_assert_int_eq(g6_set_j_particle(0, 0, 0, 0, 0, 0.25, z, z, z, v, (double *)jx[0]), 0);
    ck_assert_int_eq(g6_set_ti(0, 1e300), 0);
    EXPECT_ERROR(block(NJ, 1, a, p), "g6calc_lasthalf: i-particle 0: a force, jerk or "
                 "potential is not finite");
}

/* ---- g6_set_j_particle ---- */
#define SET_J_ERROR(addr, tj, mass, k18, j6, a2, v, x, want)                               \
    do {                                                                                   \
        ck_assert_int_eq(g6_open(0), 0);                                                   \
        EXPECT_ERROR(g6_set_j_particle(0, addr, 0, tj, 0, mass, k18, j6, a2, v, x), want); \
    } while (0)
static double nan3[3] = { 0, NAN, 0 }, inf3[3] = { INFINITY, 0, 0 };
PROBE(set_j_address_negative) { SET_J_ERROR(-1, 0, 1, z, z, z, z, z, "j-address -1 out of range"); }
PROBE(set_j_address_jmax) { SET_J_ERROR(4194304, 0, 1, z, z, z, z, z, "out of range"); }
PROBE(set_j_address_int_max) { SET_J_ERROR(INT_MAX, 0, 1, z, z, z, z, z, "out of range"); }
PROBE(set_j_nan_x) { SET_J_ERROR(0, 0, 1, z, z, z, z, nan3, "non-finite"); }
PROBE(set_j_inf_x) { SET_J_ERROR(0, 0, 1, z, z, z, z, inf3, "non-finite"); }
PROBE(set_j_nan_v) { SET_J_ERROR(0, 0, 1, z, z, z, nan3, z, "non-finite"); }
PROBE(set_j_inf_a2) { SET_J_ERROR(0, 0, 1, z, z, inf3, z, z, "non-finite"); }
PROBE(set_j_nan_j6) { SET_J_ERROR(0, 0, 1, z, nan3, z, z, z, "non-finite"); }
PROBE(set_j_nan_tj) { SET_J_ERROR(0, NAN, 1, z, z, z, z, z, "time nan"); }
PROBE(set_j_inf_tj) { SET_J_ERROR(0, INFINITY, 1, z, z, z, z, z, "time inf"); }
PROBE(set_j_nan_mass) { SET_J_ERROR(0, 0, NAN, z, z, z, z, z, "mass nan"); }
PROBE(set_j_inf_mass) { SET_J_ERROR(0, 0, INFINITY, z, z, z, z, z, "mass inf"); }
PROBE(set_j_negative_mass) { SET_J_ERROR(0, 0, -1, z, z, z, z, z, "mass -1"); }
PROBE(set_j_null_x) { SET_J_ERROR(0, 0, 1, z, z, z, z, NULL, "NULL"); }
PROBE(set_j_null_v) { SET_J_ERROR(0, 0, 1, z, z, z, NULL, z, "NULL"); }
/* k18 and dtj are not used: anything, NULL and NaN included, is taken */
PROBE(set_j_unused_args)
{
    double a[1][3], p[1];
    ck_assert_int_eq(g6_open(0), 0);
    put_all();
    ck_assert_int_eq(g6_set_j_particle(0, 1, 1, 0, NAN, 0.25, NULL, z, z, z,
                                       (double *)jx[1]), 0);
    ck_assert_int_eq(g6_set_j_particle(0, 2, 2, 0, INFINITY, 0.25, nan3, z, z, z,
                                       (double *)jx[2]), 0);
    ck_assert_int_eq(g6_set_ti(0, 0.0), 0);
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    check_forces(a, p, 0);
}
PROBE(set_j_fortran_nulls)
{
    int address = 0, index = 0;
    double t = 0, m = 1;
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6_set_j_particle_(NULL, NULL, &index, &t, NULL, &m, z, z, z, z, z),
                 "address, index, tj or mass is a NULL pointer");
    EXPECT_ERROR(g6_set_j_particle_(NULL, &address, &index, &t, NULL, NULL, z, z, z, z, z),
                 "NULL pointer");
    ck_assert_int_eq(g6_set_j_particle_(NULL, &address, &index, &t, NULL, &m, NULL, z, z, z,
                                        z), 0);
}
/* a later put of an address replaces an earlier one, in a batch and
 * after a block */
PROBE(set_j_address_reused)
{
    double a[1][3], p[1], far[3] = { 50, 50, 50 };
    ck_assert_int_eq(g6_open(0), 0);
    ck_assert_int_eq(g6_set_j_particle(0, 3, 3, 0, 0, 9.0, z, z, z, z, far), 0);
    put_all();                                          /* replaces it */
    ck_assert_int_eq(g6_set_ti(0, 0.0), 0);
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    check_forces(a, p, 0);
    ck_assert_int_eq(g6_set_j_particle(0, 3, 3, 0, 0, 9.0, z, z, z, z, far), 0);
    ck_assert_int_eq(g6_set_j_particle(0, 3, 3, 0, 0, 0.25, z, z, z, z, (double *)jx[3]), 0);
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    check_forces(a, p, 0);
}
/* an address never put is empty (massless): nj past the last put adds
 * nothing */
PROBE(nj_past_puts)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(g6_set_j_particle(0, 99, 99, 0, 0, 0, z, z, z, z, z), 0);
    ck_assert_int_eq(block(1000, 1, a, p), 0);
    check_forces(a, p, 0);
}
/* the pairs whose j-index is the i-particle's are left out, wherever the
 * index sits */
PROBE(index_excluded)
{
    int index[1] = { 2 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, v[1][3] = { { 0 } }, a[1][3], j[1][3], p[1];
    double h2[1] = { 0 }, want = 0;
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, v, a, j, p, 0.01, h2), 0);
    ck_assert_int_eq(g6calc_lasthalf(0, NJ, 1, index, x, v, 0.01, h2, a, j, p), 0);
    for (int k = 0; k < NJ; k++) {
        double d[3] = { jx[k][0] - 0.3, jx[k][1] - 0.2, jx[k][2] - 0.1 };
        want -= k == 2 ? 0 : 0.25 / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01);
    }
    ck_assert_msg(fabs(p[0] - want) < 1e-5 * fabs(want), "pot %g, expected %g", p[0], want);
}

/* ---- g6calc_firsthalf ---- */
static void first_error(int nj, int ni, double eps2, int nulls, double bad, const char *want)
{
    int index[2] = { -1, -2 };
    double x[2][3] = { { 0.3, 0.2, 0.1 }, { 0, 0, 0.5 } }, v[2][3] = { { 0 } }, a[2][3];
    double h2[2] = { 0, 0 }, p[2];
    open_with_set();
    if (nulls == 4)
        x[1][2] = bad;
    if (nulls == 5)
        v[0][1] = bad;
    if (nulls == 6)
        h2[1] = bad;
    EXPECT_ERROR(g6calc_firsthalf(0, nj, ni, nulls == 1 ? NULL : index, nulls == 2 ? NULL : x,
                                  nulls == 3 ? NULL : v, a, a, p, eps2, h2), want);
}
PROBE(first_ni_negative) { first_error(NJ, -1, 0.01, 0, 0, "ni = -1"); }
PROBE(first_ni_above_npipes) { first_error(NJ, 16385, 0.01, 0, 0, "ni = 16385"); }
PROBE(first_ni_int_max) { first_error(NJ, INT_MAX, 0.01, 0, 0, "must be 0..g6_npipes()"); }
PROBE(first_nj_negative) { first_error(-1, 1, 0.01, 0, 0, "nj = -1"); }
PROBE(first_nj_huge) { first_error(INT_MAX, 1, 0.01, 0, 0, "GLNBODY_G6_JMAX"); }
PROBE(first_eps2_nan) { first_error(NJ, 1, NAN, 0, 0, "eps2"); }
PROBE(first_eps2_inf) { first_error(NJ, 1, INFINITY, 0, 0, "eps2"); }
PROBE(first_eps2_negative) { first_error(NJ, 1, -0.01, 0, 0, "eps2"); }
PROBE(first_index_null) { first_error(NJ, 1, 0.01, 1, 0, "NULL"); }
PROBE(first_xi_null) { first_error(NJ, 1, 0.01, 2, 0, "NULL"); }
PROBE(first_vi_null) { first_error(NJ, 1, 0.01, 3, 0, "NULL"); }
PROBE(first_xi_nan) { first_error(NJ, 2, 0.01, 4, NAN, "x[5] is not a finite number"); }
PROBE(first_xi_inf) { first_error(NJ, 2, 0.01, 4, INFINITY, "x[5] is not a finite"); }
PROBE(first_vi_inf) { first_error(NJ, 2, 0.01, 5, -INFINITY, "v[1] is not a finite"); }
PROBE(first_h2_nan) { first_error(NJ, 2, 0.01, 6, NAN, "h2"); }
PROBE(first_fortran_nulls)
{
    int nj = NJ;
    double eps2 = 0.01;
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6calc_firsthalf_(NULL, &nj, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &eps2,
                                   NULL), "nj, ni or eps2 is a NULL pointer");
    EXPECT_ERROR(g6calc_lasthalf_(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL), "NULL pointer");
}
/* a refused firsthalf starts nothing */
PROBE(first_refused_then_last)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1], h2[1] = { 0 };
    open_with_set();
    EXPECT_ERROR(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, NAN, h2), "eps2");
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, h2, a, a, p),
                 "no block was started");
}
/* ni = 0 and nj = 0 are blocks too */
PROBE(first_ni_zero)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(block(NJ, 0, a, p), 0);
}
PROBE(first_nj_zero)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(block(0, 1, a, p), 0);
    ck_assert(a[0][0] == 0 && a[0][1] == 0 && a[0][2] == 0 && p[0] == 0);
}

/* ---- the order of firsthalf and lasthalf ---- */
/* a block of ni = 0 never finished, then a block of 2: its results */
PROBE(stale_empty_block)
{
    int index[2] = { -1, -2 };
    double x[2][3] = { { 0 } }, a[2][3], p[2], h2[2] = { 0, 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 0, index, x, x, a, a, p, 0.01, h2), 0);
    ck_assert_int_eq(block(NJ, 2, a, p), 0);
    check_forces(a, p, 0);
    check_forces(a, p, 1);
}
/* a block never finished, then another: the second's results */
PROBE(first_twice)
{
    int index[2] = { -1, -2 };
    double x[2][3] = { { 0.9, 0.9, 0.9 }, { 0 } }, a[2][3], p[2], h2[2] = { 0, 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, 0.01, h2), 0);
    ck_assert_int_eq(block(NJ, 2, a, p), 0);
    check_forces(a, p, 0);
    check_forces(a, p, 1);
}
PROBE(last_without_first)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0 } }, a[1][3], p[1];
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, NULL, a, a, p),
                 "no block was started");
}
PROBE(last_twice)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, NULL, a, a, p),
                 "no block was started");
}
/* lasthalf with another ni than its firsthalf: arrays sized for the
 * smaller would be overrun */
PROBE(last_other_ni)
{
    int index[2] = { -1, -2 };
    double x[2][3] = { { 0.3, 0.2, 0.1 }, { 0 } }, a[2][3], p[2], h2[2] = { 0, 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 2, index, x, x, a, a, p, 0.01, h2), 0);
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, h2, a, a, p), "ni = 1");
}
PROBE(last_null_results)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1], h2[1] = { 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, 0.01, h2), 0);
    EXPECT_ERROR(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, h2, NULL, a, p), "NULL");
}
PROBE(last2_null_nnb)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1], h2[1] = { 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, 0.01, h2), 0);
    EXPECT_ERROR(g6calc_lasthalf2(0, NJ, 1, index, x, x, 0.01, h2, a, a, p, NULL), "nnbindex");
}
/* lasthalf2 after a firsthalf that did not ask for neighbours: the block
 * runs again with them */
PROBE(last2_nearest)
{
    int index[1] = { -1 }, nn[1] = { -7 };
    double x[1][3] = { { 0.9, 0.1, 0.1 } }, v[1][3] = { { 0 } }, a[1][3], j[1][3], p[1];
    double h2[1] = { 0 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, v, a, j, p, 0.01, h2), 0);
    ck_assert_int_eq(g6calc_lasthalf2(0, NJ, 1, index, x, v, 0.01, h2, a, j, p, nn), 0);
    ck_assert_int_eq(nn[0], 1);
}

/* ---- neighbour lists ---- */
PROBE(read_neighbours_before_block)
{
    ck_assert_int_eq(g6_open(0), 0);
    EXPECT_ERROR(g6_read_neighbour_list(0), "no block was finished");
}
PROBE(read_neighbours_block_unfinished)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], p[1], h2[1] = { 0.5 };
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, a, p, 0.01, h2), 0);
    EXPECT_ERROR(g6_read_neighbour_list(0), "no block was finished");
}
PROBE(get_neighbours_before_read)
{
    int n, list[4];
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, 4, &n, list), "no neighbour list was read");
}
static void neighbours_read(void)
{
    double a[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(block(NJ, 1, a, p), 0);
    ck_assert_int_eq(g6_read_neighbour_list(0), 0);
}
PROBE(get_neighbours_ipipe_negative)
{
    int n, list[4];
    neighbours_read();
    EXPECT_ERROR(g6_get_neighbour_list(0, -1, 4, &n, list), "ipipe -1");
}
PROBE(get_neighbours_ipipe_past)
{
    int n, list[4];
    neighbours_read();
    EXPECT_ERROR(g6_get_neighbour_list(0, 1, 4, &n, list), "ipipe 1");
}
PROBE(get_neighbours_bad_length)
{
    int n, list[4];
    neighbours_read();
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, -1, &n, list), "maxlength -1");
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, 4, NULL, list), "NULL");
    EXPECT_ERROR(g6_get_neighbour_list(0, 0, 4, &n, NULL), "NULL");
}
/* h2 = 0.5 around (0.3, 0.2, 0.1): addresses 0 (r2 0.14), 1 (0.54: out),
 * 2 (0.74: out), 3 (0.94: out); maxlength 0 copies nothing */
PROBE(get_neighbours_defined)
{
    int n = -1, list[4] = { -1, -1, -1, -1 };
    neighbours_read();
    ck_assert_int_eq(g6_get_neighbour_list(0, 0, 4, &n, list), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(list[0], 0);
    ck_assert_int_eq(g6_get_neighbour_list(0, 0, 0, &n, NULL), 1);
}
PROBE(get_neighbours_fortran_nulls)
{
    int n, list[4], ipipe = 0;
    neighbours_read();
    EXPECT_ERROR(g6_get_neighbour_list_(NULL, &ipipe, NULL, &n, list),
                 "ipipe or maxlength is a NULL pointer");
    ck_assert_int_eq(g6_read_neighbour_list_(NULL), 0);
}
PROBE(no_h2_neighbours)
{
    int index[1] = { -1 };
    double x[1][3] = { { 0.3, 0.2, 0.1 } }, a[1][3], j[1][3], p[1];
    open_with_set();
    ck_assert_int_eq(g6calc_firsthalf(0, NJ, 1, index, x, x, a, j, p, 0.01, NULL), 0);
    ck_assert_int_eq(g6calc_lasthalf(0, NJ, 1, index, x, x, 0.01, NULL, a, j, p), 0);
    check_forces(a, p, 0);
    EXPECT_ERROR(g6_read_neighbour_list(0), "h2");
}

struct probe {
    const char *name;
    void (*run)(void);
};

#define P(name) { #name, name }
static const struct probe probes[] = {
    P(closed_close), P(closed_npipes), P(closed_set_ti), P(closed_set_j),
    P(closed_firsthalf), P(closed_lasthalf), P(closed_lasthalf2), P(closed_read_neighbours),
    P(closed_get_neighbours), P(closed_noops),
    P(open_negative), P(open_int_min), P(open_no_such_device), P(open_twice),
    P(open_fortran_null), P(open_special_no_list), P(open_special_list),
    P(open_bad_precision), P(open_bad_jmax), P(open_bad_npipes), P(open_small_npipes),
    P(close_twice), P(closed_after_use), P(close_with_block_in_flight), P(reopen_empty),
    P(set_ti_nan), P(set_ti_inf), P(set_ti_nan_keeps_last), P(set_ti_fortran_null),
    P(set_ti_huge),
    P(set_j_address_negative), P(set_j_address_jmax), P(set_j_address_int_max),
    P(set_j_nan_x), P(set_j_inf_x), P(set_j_nan_v), P(set_j_inf_a2), P(set_j_nan_j6),
    P(set_j_nan_tj), P(set_j_inf_tj), P(set_j_nan_mass), P(set_j_inf_mass),
    P(set_j_negative_mass), P(set_j_null_x), P(set_j_null_v), P(set_j_unused_args),
    P(set_j_fortran_nulls), P(set_j_address_reused), P(nj_past_puts), P(index_excluded),
    P(first_ni_negative), P(first_ni_above_npipes), P(first_ni_int_max),
    P(first_nj_negative), P(first_nj_huge), P(first_eps2_nan), P(first_eps2_inf),
    P(first_eps2_negative), P(first_index_null), P(first_xi_null), P(first_vi_null),
    P(first_xi_nan), P(first_xi_inf), P(first_vi_inf), P(first_h2_nan),
    P(first_fortran_nulls), P(first_refused_then_last), P(first_ni_zero), P(first_nj_zero),
    P(stale_empty_block), P(first_twice), P(last_without_first), P(last_twice),
    P(last_other_ni), P(last_null_results), P(last2_null_nnb), P(last2_nearest),
    P(read_neighbours_before_block), P(read_neighbours_block_unfinished),
    P(get_neighbours_before_read), P(get_neighbours_ipipe_negative),
    P(get_neighbours_ipipe_past), P(get_neighbours_bad_length), P(get_neighbours_defined),
    P(get_neighbours_fortran_nulls), P(no_h2_neighbours),
};
#define PROBES (int)(sizeof probes / sizeof *probes)

START_TEST(probe)
{
    printf("check_g6_probe: %s\n", probes[_i].name);
    fflush(stdout);
    probes[_i].run();
}
END_TEST

static Suite *probe_suite(void)
{
    Suite *s = suite_create("g6_probe");
    TCase *tc = tcase_create("g6_probe");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, quiet_close, quiet_close);
    tcase_add_loop_test(tc, probe, 0, PROBES);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_g6_probe", probe_suite(), &g_gl, &g_seed);
}
