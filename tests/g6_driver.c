/* g6_driver.c - a Hermite block-step code written against the GRAPE-6
 * interface only (g6gl.h), as phiGRAPE or kira talk to their hardware:
 * the scheme of glnbody's own integrator (Makino & Aarseth 1992; eq. 2
 * first steps, the Aarseth criterion, power-of-two steps that double only
 * where commensurate), so that tests/check_g6 can compare its trajectories
 * with `glnbody run`'s (nb_hermite).
 *
 *   g6_driver IN OUT T_END ETA EPS DT_MAX [nearest]
 *
 * IN: n, then n lines "m x y z vx vy vz"; OUT: n lines "x y z vx vy vz" at
 * T_END (a multiple of DT_MAX: every particle is corrected there).  With
 * `nearest` the forces come from g6calc_lasthalf2.  Prints the block
 * steps taken, the particle steps, the wall seconds of the block steps
 * and the part of them spent in g6 calls on stdout, then the seconds of
 * the g6 calls before the first block step (the first sends and the
 * forces on everyone: `glnbody run`'s time split counts its own) and the
 * part of the block steps' g6 seconds spent in g6_set_j_particle; a
 * failing g6 call ends it with status 1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g6gl.h"

static int n, npipes, nearest_mode;
static double *m, (*x)[3], (*v)[3], (*a)[3], (*jk)[3], (*xp)[3], (*vp)[3];
static double *t0, *dt, eps2;
static int *block;
static double g6_seconds;       /* wall seconds inside g6 calls */
static double put_seconds;      /* the part in g6_set_j_particle */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define CHECK(call)                                                          \
    do {                                                                     \
        if ((call) < 0) {                                                    \
            fprintf(stderr, "g6_driver: %s failed\n", #call);                \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

static double norm(const double u[3]) { return sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]); }

/* The block's arguments, gathered before the g6 calls so that only the
 * calls are timed (n of each). */
static double (*bx)[3], (*bv)[3], (*ba2)[3], (*bj6)[3], *bh2;
static int *bnnb;

static void send_j(int i, int k)
{
    double k18[3] = { 0, 0, 0 };
    CHECK(g6_set_j_particle(0, i, i, t0[i], dt[i], m[i], k18, bj6[k], ba2[k], bv[k], bx[k]));
}

/* The corrected block list[0..count) to the j-memory, the calls timed as
 * one: a clock read around each would cost more than the call. */
static void send_block(int count, const int *list)
{
    for (int k = 0; k < count; k++)
        for (int c = 0; c < 3; c++) {
            int i = list[k];
            bx[k][c] = x[i][c];
            bv[k][c] = v[i][c];
            ba2[k][c] = a[i][c] / 2;
            bj6[k][c] = jk[i][c] / 6;
        }
    double w = now();
    for (int k = 0; k < count; k++)
        send_j(list[k], k);
    w = now() - w;
    g6_seconds += w;
    put_seconds += w;
}

/* Forces at time t on the count particles list[] (predicted: xp, vp), in
 * chunks of g6_npipes(); results into acc, jer, pot (block order). */
static void forces(double t, int count, int *list, double (*acc)[3], double (*jer)[3],
                   double *pot)
{
    for (int k = 0; k < count; k++) {
        memcpy(bx[k], xp[list[k]], sizeof bx[k]);
        memcpy(bv[k], vp[list[k]], sizeof bv[k]);
    }
    double w = now();
    CHECK(g6_set_ti(0, t));
    for (int at = 0; at < count; at += npipes) {
        int ni = count - at < npipes ? count - at : npipes;
        CHECK(g6calc_firsthalf(0, n, ni, list + at, bx + at, bv + at, acc + at, jer + at,
                               pot + at, eps2, bh2));
        if (nearest_mode)
            CHECK(g6calc_lasthalf2(0, n, ni, list + at, bx + at, bv + at, eps2, bh2, acc + at,
                                   jer + at, pot + at, bnnb));
        else
            CHECK(g6calc_lasthalf(0, n, ni, list + at, bx + at, bv + at, eps2, bh2, acc + at,
                                  jer + at, pot + at));
    }
    g6_seconds += now() - w;
}

static double first_step(double crit, double dt_max)
{
    int e;
    if (!(crit < dt_max))
        return dt_max;
    frexp(crit, &e);
    return ldexp(1.0, e - 1);
}

static double next_step(double step, double crit, double t1, double dt_max)
{
    if (crit < step) {
        while (step > crit)
            step *= 0.5;
    } else if (crit >= 2 * step && 2 * step <= dt_max && t1 / (2 * step) == floor(t1 / (2 * step))) {
        step *= 2;
    }
    return step;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: g6_driver IN OUT T_END ETA EPS DT_MAX [nearest]\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    double t_end = atof(argv[3]), eta = atof(argv[4]), eps = atof(argv[5]);
    double dt_max = atof(argv[6]);
    nearest_mode = argc > 7 && strcmp(argv[7], "nearest") == 0;
    eps2 = eps * eps;
    if (!in || fscanf(in, "%d", &n) != 1 || n < 1) {
        fprintf(stderr, "g6_driver: cannot read %s\n", argv[1]);
        return 1;
    }
    m = malloc(sizeof *m * (size_t)n), t0 = calloc((size_t)n, sizeof *t0);
    dt = malloc(sizeof *dt * (size_t)n), block = malloc(sizeof *block * (size_t)n);
    x = malloc(sizeof *x * (size_t)n), v = malloc(sizeof *v * (size_t)n);
    a = malloc(sizeof *a * (size_t)n), jk = malloc(sizeof *jk * (size_t)n);
    xp = malloc(sizeof *xp * (size_t)n), vp = malloc(sizeof *vp * (size_t)n);
    double (*ba)[3] = malloc(sizeof *ba * (size_t)n), (*bj)[3] = malloc(sizeof *bj * (size_t)n);
    double *bpot = malloc(sizeof *bpot * (size_t)n);
    bx = malloc(sizeof *bx * (size_t)n), bv = malloc(sizeof *bv * (size_t)n);
    ba2 = malloc(sizeof *ba2 * (size_t)n), bj6 = malloc(sizeof *bj6 * (size_t)n);
    bh2 = calloc((size_t)n, sizeof *bh2), bnnb = malloc(sizeof *bnnb * (size_t)n);
    for (int i = 0; i < n; i++)
        if (fscanf(in, "%lf %lf %lf %lf %lf %lf %lf", &m[i], &x[i][0], &x[i][1], &x[i][2],
                   &v[i][0], &v[i][1], &v[i][2]) != 7) {
            fprintf(stderr, "g6_driver: %s: particle %d unreadable\n", argv[1], i);
            return 1;
        }
    fclose(in);

    CHECK(g6_open(0));
    npipes = g6_npipes();
    CHECK(npipes);
    /* t = 0: every particle a j-particle at rest in its Taylor terms */
    for (int i = 0; i < n; i++) {
        memset(a[i], 0, sizeof a[i]);
        memset(jk[i], 0, sizeof jk[i]);
        dt[i] = 0;
        memcpy(xp[i], x[i], sizeof xp[i]);
        memcpy(vp[i], v[i], sizeof vp[i]);
        block[i] = i;
    }
    send_block(n, block);
    forces(0.0, n, block, a, jk, bpot);
    double t_next = INFINITY;
    for (int i = 0; i < n; i++) {
        double an = norm(a[i]), jn = norm(jk[i]), phi = fabs(bpot[i]);
        double crit = an > 0 && jn > 0 ? eta * an / jn
                    : an > 0 ? eta * sqrt(phi) / an : jn > 0 ? eta * sqrt(sqrt(phi) / jn) : INFINITY;
        dt[i] = first_step(crit, dt_max);
        t_next = fmin(t_next, dt[i]);
    }
    send_block(n, block);
    long blocks = 0, steps = 0;
    double wall = now(), setup_seconds = g6_seconds;
    g6_seconds = put_seconds = 0;
    while (t_next <= t_end) {
        double t1 = t_next;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (t0[i] + dt[i] != t1)
                continue;
            double h = t1 - t0[i];
            for (int c = 0; c < 3; c++) {
                xp[i][c] = x[i][c] + h * (v[i][c] + h / 2 * (a[i][c] + h / 3 * jk[i][c]));
                vp[i][c] = v[i][c] + h * (a[i][c] + h / 2 * jk[i][c]);
            }
            block[count++] = i;
        }
        forces(t1, count, block, ba, bj, bpot);
        t_next = INFINITY;
        for (int k = 0; k < count; k++) {
            int i = block[k];
            double h = t1 - t0[i], h2 = h * h, a2[3], a3[3];
            for (int c = 0; c < 3; c++) {
                double da = a[i][c] - ba[k][c];
                double s2 = (-6 * da - h * (4 * jk[i][c] + 2 * bj[k][c])) / h2;
                double s3 = (12 * da + 6 * h * (jk[i][c] + bj[k][c])) / (h2 * h);
                x[i][c] = xp[i][c] + h2 * h2 * (s2 / 24 + h * s3 / 120);
                v[i][c] = vp[i][c] + h2 * h * (s2 / 6 + h * s3 / 24);
                a[i][c] = ba[k][c];
                jk[i][c] = bj[k][c];
                a2[c] = s2 + h * s3;
                a3[c] = s3;
            }
            double an = norm(a[i]), jn = norm(jk[i]), a2n = norm(a2), a3n = norm(a3);
            double den = jn * a3n + a2n * a2n;
            double crit = den > 0 ? sqrt(eta * (an * a2n + jn * jn) / den) : INFINITY;
            t0[i] = t1;
            dt[i] = next_step(dt[i], crit, t1, dt_max);
        }
        send_block(count, block);
        for (int i = 0; i < n; i++)
            t_next = fmin(t_next, t0[i] + dt[i]);
        blocks++;
        steps += count;
    }
    wall = now() - wall;
    CHECK(g6_close(0));
    FILE *out = fopen(argv[2], "w");
    if (!out)
        return 1;
    for (int i = 0; i < n; i++)
        fprintf(out, "%.17g %.17g %.17g %.17g %.17g %.17g\n", x[i][0], x[i][1], x[i][2],
                v[i][0], v[i][1], v[i][2]);
    if (fclose(out) != 0)
        return 1;
    printf("blocks %ld particle_steps %ld wall %.6f g6 %.6f setup %.6f put %.6f\n", blocks,
           steps, wall, g6_seconds, setup_seconds, put_seconds);
    return 0;
}
