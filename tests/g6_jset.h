/* g6_jset.h - what check_g6.c checks libg6gl against: random j-sets in
 * the GRAPE-6 interface's Taylor terms, Sapporo2's predictor and the
 * forces summed in double on the CPU, with bounds of the device's float
 * rounding.  Included by check_g6.c and check_g6_accuracy.c. */
#ifndef G6_JSET_H
#define G6_JSET_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "g6gl.h"

static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1p-53;
}

/* A j-set of n particles with Taylor terms at times near ti. */
struct jset {
    int n;
    double (*x)[3], (*v)[3], (*a2)[3], (*j6)[3], *t, *m;
};

static void jset_make(struct jset *s, int n, double ti, uint64_t *rng)
{
    s->n = n;
    s->x = malloc(sizeof *s->x * (size_t)n), s->v = malloc(sizeof *s->v * (size_t)n);
    s->a2 = malloc(sizeof *s->a2 * (size_t)n), s->j6 = malloc(sizeof *s->j6 * (size_t)n);
    s->t = malloc(sizeof *s->t * (size_t)n), s->m = malloc(sizeof *s->m * (size_t)n);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            s->x[i][c] = uniform(rng) - 0.5;
            s->v[i][c] = 0.4 * (uniform(rng) - 0.5);
            s->a2[i][c] = 0.3 * (uniform(rng) - 0.5);
            s->j6[i][c] = 0.2 * (uniform(rng) - 0.5);
        }
        s->t[i] = ti - 0x1p-6 * floor(8 * uniform(rng));
        s->m[i] = (0.5 + uniform(rng)) / n;
    }
}

static void jset_free(struct jset *s)
{
    free(s->x), free(s->v), free(s->a2), free(s->j6), free(s->t), free(s->m);
}

/* Sapporo2's predictor in double. */
static void predict(const struct jset *s, int j, double ti, double xp[3], double vp[3])
{
    double dt = ti - s->t[j];
    for (int c = 0; c < 3; c++) {
        xp[c] = s->x[j][c] + dt * (s->v[j][c] + dt * (s->a2[j][c] + dt * s->j6[j][c]));
        vp[c] = s->v[j][c] + dt * (2 * s->a2[j][c] + 3 * dt * s->j6[j][c]);
    }
}

static inline void send_all(const struct jset *s, int address_offset)
{
    double k18[3] = { 0, 0, 0 };
    for (int j = 0; j < s->n; j++)
        ck_assert_int_eq(g6_set_j_particle(0, j + address_offset, j, s->t[j], 0.01, s->m[j],
                                           k18, s->j6[j], s->a2[j], s->v[j], s->x[j]), 0);
}

/* As send_all(s, 0), but particles a and b trade addresses: there, and
 * only there, an id is not its address (g6_block.comp then compares ids in
 * those tiles alone). */
static inline void send_swapped(const struct jset *s, int a, int b)
{
    double k18[3] = { 0, 0, 0 };
    for (int j = 0; j < s->n; j++) {
        int at = j == a ? b : j == b ? a : j;
        ck_assert_int_eq(g6_set_j_particle(0, at, j, s->t[j], 0.01, s->m[j], k18, s->j6[j],
                                           s->a2[j], s->v[j], s->x[j]), 0);
    }
}

/* Whether the device takes positions and velocities rounded to float
 * (GLNBODY_G6_POSITIONS=float; by default they are double-single, and
 * double in mode G): each pair term then carries their rounding, which
 * cpu_forces bounds. */
static int g_float_inputs = 0;

static double norm3(const double u[3]) { return sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]); }

/* The forces on i-particle k (at xi, vi, id) from the j-set predicted to
 * ti, in double: acc, jerk, pot; scale, the sums of |terms| that bound the
 * rounding of float arithmetic; and round, what rounding x and v to float
 * costs (to first order: |dx| errs by 2^-24 (|xi| + |xj|) per component,
 * which a close pair's terms amplify by 1/r; zero in mode G); the nearest
 * j (by id) and its distance squared. */
static inline void cpu_forces(const struct jset *s, double ti, double eps2, const double xi[3],
                       const double vi[3], int id, double acc[3], double jerk[3], double *pot,
                       double scale[3], double round[3], int *nearest, double *r2_min)
{
    const double u = g_float_inputs ? 0x1p-24 : 0.0;
    memset(acc, 0, 3 * sizeof *acc);
    memset(jerk, 0, 3 * sizeof *jerk);
    memset(scale, 0, 3 * sizeof *scale);
    memset(round, 0, 3 * sizeof *round);
    *pot = 0;
    *nearest = -1;
    *r2_min = INFINITY;
    for (int j = 0; j < s->n; j++) {
        double xp[3], vp[3], d[3], dv[3];
        if (j == id)
            continue;
        predict(s, j, ti, xp, vp);
        for (int c = 0; c < 3; c++)
            d[c] = xp[c] - xi[c], dv[c] = vp[c] - vi[c];
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (r2 < *r2_min)
            *r2_min = r2, *nearest = j;
        double rinv = 1 / sqrt(r2 + eps2), mr3 = s->m[j] * rinv * rinv * rinv;
        double alpha = 3 * (d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2]) * rinv * rinv;
        for (int c = 0; c < 3; c++) {
            acc[c] += mr3 * d[c];
            jerk[c] += mr3 * (dv[c] - alpha * d[c]);
        }
        *pot -= s->m[j] * rinv;
        double dvn = norm3(dv), ex = 2 * u * (norm3(xi) + norm3(xp)), ev = 2 * u * (norm3(vi) + norm3(vp));
        scale[0] += mr3 * sqrt(r2);
        scale[1] += mr3 * (dvn + fabs(alpha) * sqrt(r2));
        scale[2] += s->m[j] * rinv;
        /* d(m d / r^3) <= 4 m |dd| / r^3; the jerk adds dv's error and
         * alpha's through d; d(m / r) <= m |dd| / r^2 (r softened) */
        round[0] += 4 * mr3 * ex;
        round[1] += mr3 * (ev + 8 * dvn * ex * rinv);
        round[2] += s->m[j] * rinv * rinv * ex;
    }
}

#endif
