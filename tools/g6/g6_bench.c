/* g6_bench.c - the cost of one block step through the GRAPE-6 interface
 * (g6gl.h only), measured the same way as for Sapporo2: per block, the
 * ni corrected j-particles are sent (g6_set_j_particle), then g6_set_ti,
 * then g6calc_firsthalf and g6calc_lasthalf in chunks of g6_npipes().
 *
 *   g6_bench IN NI[,NI...] [REPEATS]
 *
 * IN: n, then n lines "m x y z vx vy vz" (tests/g6_driver.c's input).
 * Prints CSV rows "n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,
 * us_lasthalf" (medians of REPEATS blocks, default 21, after two unmeasured
 * ones; the last three split the block into its g6_set_j_particle calls,
 * its g6calc_firsthalf calls with the i-particles' copies, and its
 * g6calc_lasthalf calls, which wait for the device); links against libg6gl
 * or, unchanged, any other GRAPE-6 library (Sapporo2).  Each block passes
 * its particles' own last values as aold, jold and phiold, as a Hermite
 * code does: in libg6gl's mode H (GLNBODY_G6_PRECISION=H), the only one
 * that reads them, from one untimed pass over all particles first; zeros
 * otherwise.
 *
 *   g6_bench --accuracy IN EPS2 [SAMPLE [BLOCK]]
 *
 * The library's forces against a double direct sum on the same particles:
 * every (n / SAMPLE)-th particle (default 1024 of them) is an i-particle,
 * in blocks of BLOCK (default, and at most, g6_npipes()), the j-set the
 * whole of IN.  Two cases: "t0", everything at t = 0 (no
 * prediction), and "predicted", the j-particles given at t = 0 with
 * a2 = -x / 2 and j6 = -v / 6 and predicted by the library to t = 2^-6,
 * the i-particles predicted to it in double (as a Hermite code sends
 * them), with aold = jold = phiold = 0 (a first step).  Prints CSV rows "n,sample,eps2,case,force_mean,force_max,
 * jerk_mean,jerk_max,pot_mean,pot_max": the mean and largest over the
 * i-particles of |da_i| / sum_j |a_ij|, |dj_i| / sum_j |j_ij| and
 * |dphi_i| / |phi_i|. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g6gl.h"

/* The columns timed: the whole block, then its three kinds of call. */
enum { BLOCK, SET_J, FIRST, LAST, PHASES };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sapporo2's fourth-order predictor, in double. */
static void predict(const double x[3], const double v[3], const double a2[3],
                    const double j6[3], double dt, double xp[3], double vp[3])
{
    for (int c = 0; c < 3; c++) {
        xp[c] = x[c] + dt * (v[c] + dt * (a2[c] + dt * j6[c]));
        vp[c] = v[c] + dt * (2 * a2[c] + 3 * dt * j6[c]);
    }
}

static double norm3(const double u[3])
{
    return sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
}

/* Errors of one i-particle (id, at xi, vi) whose device results are acc,
 * jerk, pot, against the j-set (xp, vp, m) in double; added to sum, max. */
static void reference_errors(int n, const double (*xp)[3], const double (*vp)[3],
                             const double *m, double eps2, int id, const double xi[3],
                             const double vi[3], const double acc[3], const double jerk[3],
                             double pot, double sum[3], double max[3])
{
    double a[3] = { 0, 0, 0 }, jk[3] = { 0, 0, 0 }, p = 0, sa = 0, sj = 0;
    for (int j = 0; j < n; j++) {
        double d[3], dv[3], jt[3];
        if (j == id)
            continue;
        for (int c = 0; c < 3; c++)
            d[c] = xp[j][c] - xi[c], dv[c] = vp[j][c] - vi[c];
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
        double rinv = 1 / sqrt(r2), mr3 = m[j] * rinv * rinv * rinv;
        double alpha = 3 * (d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2]) * rinv * rinv;
        for (int c = 0; c < 3; c++) {
            a[c] += mr3 * d[c];
            jt[c] = mr3 * (dv[c] - alpha * d[c]);
            jk[c] += jt[c];
        }
        sa += mr3 * norm3(d);
        sj += norm3(jt);
        p -= m[j] * rinv;
    }
    double da[3], dj[3];
    for (int c = 0; c < 3; c++)
        da[c] = acc[c] - a[c], dj[c] = jerk[c] - jk[c];
    double e[3] = { norm3(da) / sa, norm3(dj) / sj, fabs(pot - p) / fabs(p) };
    for (int q = 0; q < 3; q++) {
        sum[q] += e[q];
        max[q] = e[q] > max[q] ? e[q] : max[q];
    }
}

/* g6_bench --accuracy IN EPS2 [SAMPLE [BLOCK]] (the header says what it
 * prints); block 0: g6_npipes(). */
static int accuracy(int n, const double *m, const double (*x)[3], const double (*v)[3],
                    double eps2, int sample, int block)
{
    int npipes = g6_npipes(), ni = sample < n ? sample : n, stride = n / ni;
    if (block > 0 && block < npipes)
        npipes = block;
    double (*a2)[3] = malloc(sizeof *a2 * (size_t)n), (*j6)[3] = malloc(sizeof *j6 * (size_t)n);
    double (*xp)[3] = malloc(sizeof *xp * (size_t)n), (*vp)[3] = malloc(sizeof *vp * (size_t)n);
    double (*xi)[3] = malloc(sizeof *xi * (size_t)npipes), (*vi)[3] = malloc(sizeof *vi * (size_t)npipes);
    double (*acc)[3] = malloc(sizeof *acc * (size_t)npipes), (*jer)[3] = malloc(sizeof *jer * (size_t)npipes);
    double *pot = malloc(sizeof *pot * (size_t)npipes), *h2 = calloc((size_t)npipes, sizeof *h2);
    int *index = malloc(sizeof *index * (size_t)npipes);
    /* aold, jold and phiold of a first step: none known */
    double (*a0)[3] = calloc((size_t)npipes, sizeof *a0);
    double (*j0)[3] = calloc((size_t)npipes, sizeof *j0), *p0 = calloc((size_t)npipes, sizeof *p0);
    double k18[3] = { 0, 0, 0 }, zero[3] = { 0, 0, 0 };
    if (!a2 || !j6 || !xp || !vp || !xi || !vi || !acc || !jer || !pot || !h2 || !index ||
        !a0 || !j0 || !p0) {
        fprintf(stderr, "g6_bench: out of memory\n");
        return 1;
    }
    printf("n,sample,eps2,case,force_mean,force_max,jerk_mean,jerk_max,pot_mean,pot_max\n");
    for (int pred = 0; pred < 2; pred++) {
        double ti = pred ? 0x1p-6 : 0.0, sum[3] = { 0, 0, 0 }, max[3] = { 0, 0, 0 };
        for (int j = 0; j < n; j++) {
            for (int c = 0; c < 3; c++) {
                a2[j][c] = pred ? -0.5 * x[j][c] : 0.0;
                j6[j][c] = pred ? -v[j][c] / 6 : 0.0;
            }
            predict(x[j], v[j], a2[j], j6[j], ti, xp[j], vp[j]);
            if (g6_set_j_particle(0, j, j, 0.0, 0.0, m[j], k18, pred ? j6[j] : zero,
                                  pred ? a2[j] : zero, (double *)v[j], (double *)x[j]) < 0)
                return 1;
        }
        if (g6_set_ti(0, ti) < 0)
            return 1;
        for (int at = 0; at < ni; at += npipes) {
            int chunk = ni - at < npipes ? ni - at : npipes;
            for (int k = 0; k < chunk; k++) {
                index[k] = (at + k) * stride;
                memcpy(xi[k], xp[index[k]], sizeof xi[k]);
                memcpy(vi[k], vp[index[k]], sizeof vi[k]);
            }
            if (g6calc_firsthalf(0, n, chunk, index, xi, vi, a0, j0, p0, eps2, h2) < 0 ||
                g6calc_lasthalf(0, n, chunk, index, xi, vi, eps2, h2, acc, jer, pot) < 0)
                return 1;
            for (int k = 0; k < chunk; k++)
                reference_errors(n, (const double (*)[3])xp, (const double (*)[3])vp, m, eps2,
                                 index[k], xi[k], vi[k], acc[k], jer[k], pot[k], sum, max);
        }
        for (int q = 0; q < 3; q++)
            if (!isfinite(sum[q]) || !isfinite(max[q])) {
                fprintf(stderr, "g6_bench: a non-finite error (the library returned "
                        "non-finite results)\n");
                return 1;
            }
        printf("%d,%d,%g,%s,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g\n", n, ni, eps2,
               pred ? "predicted" : "t0", sum[0] / ni, max[0], sum[1] / ni, max[1],
               sum[2] / ni, max[2]);
        fflush(stdout);
    }
    free(a2), free(j6), free(xp), free(vp), free(xi), free(vi), free(acc), free(jer);
    free(pot), free(h2), free(index), free(a0), free(j0), free(p0);
    return 0;
}

/* Every particle's acceleration, jerk and potential at t = 0, untimed, in
 * blocks of npipes: the last values (aold, jold, phiold) that a Hermite
 * code passes with each later block. */
static int last_values(int n, const double (*x)[3], const double (*v)[3], double (*la)[3],
                       double (*lj)[3], double *lp, double eps2)
{
    int npipes = g6_npipes();
    double (*xi)[3] = malloc(sizeof *xi * (size_t)npipes), (*vi)[3] = malloc(sizeof *vi * (size_t)npipes);
    double *h2 = calloc((size_t)npipes, sizeof *h2);
    int *index = malloc(sizeof *index * (size_t)npipes), r = 0;
    if (!xi || !vi || !h2 || !index || g6_set_ti(0, 0.0) < 0)
        r = 1;
    for (int at = 0; !r && at < n; at += npipes) {
        int chunk = n - at < npipes ? n - at : npipes;
        for (int k = 0; k < chunk; k++) {
            index[k] = at + k;
            memcpy(xi[k], x[at + k], sizeof xi[k]);
            memcpy(vi[k], v[at + k], sizeof vi[k]);
        }
        if (g6calc_firsthalf(0, n, chunk, index, xi, vi, la + at, lj + at, lp + at, eps2,
                             h2) < 0 ||
            g6calc_lasthalf(0, n, chunk, index, xi, vi, eps2, h2, la + at, lj + at,
                            lp + at) < 0)
            r = 1;
    }
    free(xi), free(vi), free(h2), free(index);
    return r;
}

int main(int argc, char **argv)
{
    int acc_mode = argc > 1 && strcmp(argv[1], "--accuracy") == 0;
    double eps2_acc = 0;
    int sample = 1024, block = 0;
    if (acc_mode) {
        char *end = NULL;
        eps2_acc = argc > 3 ? strtod(argv[3], &end) : -1;
        sample = argc > 4 ? atoi(argv[4]) : 1024;
        block = argc > 5 ? atoi(argv[5]) : 0;
        if (argc < 4 || argc > 6 || *end || !(eps2_acc >= 0) || !isfinite(eps2_acc) ||
            sample < 1 || (argc > 5 && block < 1)) {
            fprintf(stderr, "usage: g6_bench --accuracy IN EPS2 [SAMPLE [BLOCK]] (EPS2 >= 0, "
                    "SAMPLE >= 1, BLOCK >= 1)\n");
            return 2;
        }
        argv++, argc--;
    }
    int n, repeats = argc > 3 ? atoi(argv[3]) : 21;
    FILE *in = argc > 2 || (acc_mode && argc > 1) ? fopen(argv[1], "r") : NULL;
    if (acc_mode)
        repeats = 1;
    if (!in || fscanf(in, "%d", &n) != 1 || n < 2 || repeats < 1) {
        fprintf(stderr, "usage: g6_bench IN NI[,NI...] [REPEATS]\n"
                "       g6_bench --accuracy IN EPS2 [SAMPLE [BLOCK]]\n");
        return 2;
    }
    double *m = malloc(sizeof *m * (size_t)n), (*x)[3] = malloc(sizeof *x * (size_t)n);
    double (*v)[3] = malloc(sizeof *v * (size_t)n);
    for (int i = 0; i < n; i++)
        if (fscanf(in, "%lf %lf %lf %lf %lf %lf %lf", &m[i], &x[i][0], &x[i][1], &x[i][2],
                   &v[i][0], &v[i][1], &v[i][2]) != 7) {
            fprintf(stderr, "g6_bench: %s: particle %d is not \"m x y z vx vy vz\"\n",
                    argv[1], i + 1);
            return 1;
        }
    fclose(in);
    if (g6_open(0) < 0)
        return 1;
    if (acc_mode) {
        int r = accuracy(n, m, (const double (*)[3])x, (const double (*)[3])v, eps2_acc,
                         sample, block);
        g6_close(0);
        return r;
    }
    int npipes = g6_npipes();
    double zero[3] = { 0, 0, 0 }, eps2 = 1e-4, t = 0;
    for (int i = 0; i < n; i++)
        if (g6_set_j_particle(0, i, i, 0.0, 0.0, m[i], zero, zero, zero, v[i], x[i]) < 0)
            return 1;
    double (*xi)[3] = malloc(sizeof *xi * (size_t)npipes), (*vi)[3] = malloc(sizeof *vi * (size_t)npipes);
    double (*acc)[3] = malloc(sizeof *acc * (size_t)npipes), (*jer)[3] = malloc(sizeof *jer * (size_t)npipes);
    double *pot = malloc(sizeof *pot * (size_t)npipes), *h2 = calloc((size_t)npipes, sizeof *h2);
    int *index = malloc(sizeof *index * (size_t)npipes);
    double *times = malloc(sizeof *times * (size_t)(repeats + 2) * PHASES);
    double (*ao)[3] = malloc(sizeof *ao * (size_t)npipes), (*jo)[3] = malloc(sizeof *jo * (size_t)npipes);
    double *po = malloc(sizeof *po * (size_t)npipes);
    double (*la)[3] = malloc(sizeof *la * (size_t)n), (*lj)[3] = malloc(sizeof *lj * (size_t)n);
    double *lp = malloc(sizeof *lp * (size_t)n);
    if (!xi || !vi || !acc || !jer || !pot || !h2 || !index || !times || !ao || !jo || !po ||
        !la || !lj || !lp) {
        fprintf(stderr, "g6_bench: out of memory\n");
        return 1;
    }
    /* libg6gl's mode H alone reads them (any other library or mode: zeros) */
    const char *mode = getenv("GLNBODY_G6_PRECISION");
    memset(la, 0, sizeof *la * (size_t)n);
    memset(lj, 0, sizeof *lj * (size_t)n);
    memset(lp, 0, sizeof *lp * (size_t)n);
    if (mode && (*mode == 'H' || *mode == 'h') &&
        last_values(n, (const double (*)[3])x, (const double (*)[3])v, la, lj, lp, eps2))
        return 1;
    printf("n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf\n");
    for (char *tok = strtok(argv[2], ","); tok; tok = strtok(NULL, ",")) {
        int ni = atoi(tok);
        if (ni < 1 || ni > n)
            continue;
        for (int r = 0; r < repeats + 2; r++) {
            int first = (int)((size_t)r * 7919u % (size_t)n);
            double phase[PHASES] = { 0 }, w;
            t += 0x1p-20;
            double t0 = now();
            for (int k = 0; k < ni; k++) {          /* the corrected block */
                int i = (first + k) % n;
                if (g6_set_j_particle(0, i, i, t, 0.0, m[i], zero, zero, zero, v[i], x[i]) < 0)
                    return 1;
            }
            if (g6_set_ti(0, t) < 0)
                return 1;
            phase[SET_J] = now() - t0;
            for (int at = 0; at < ni; at += npipes) {
                int chunk = ni - at < npipes ? ni - at : npipes;
                w = now();
                for (int k = 0; k < chunk; k++) {
                    index[k] = (first + at + k) % n;
                    memcpy(xi[k], x[index[k]], sizeof xi[k]);
                    memcpy(vi[k], v[index[k]], sizeof vi[k]);
                    memcpy(ao[k], la[index[k]], sizeof ao[k]);
                    memcpy(jo[k], lj[index[k]], sizeof jo[k]);
                    po[k] = lp[index[k]];
                }
                if (g6calc_firsthalf(0, n, chunk, index, xi, vi, ao, jo, po, eps2, h2) < 0)
                    return 1;
                phase[FIRST] += now() - w;
                w = now();
                if (g6calc_lasthalf(0, n, chunk, index, xi, vi, eps2, h2, acc, jer, pot) < 0)
                    return 1;
                phase[LAST] += now() - w;
            }
            times[r] = now() - t0;
            for (int q = SET_J; q < PHASES; q++)
                times[q * (repeats + 2) + r] = phase[q];
        }
        printf("%d,%d", n, ni);
        for (int q = 0; q < PHASES; q++) {
            double *col = times + q * (repeats + 2);
            qsort(col + 2, (size_t)repeats, sizeof *col, cmp);
            double s = col[2 + repeats / 2];
            if (q == 0)
                printf(",%.2f,%.4g", 1e6 * s, (double)ni * (double)n / s);
            else
                printf(",%.2f", 1e6 * s);
        }
        printf("\n");
        fflush(stdout);
    }
    g6_close(0);
    return 0;
}
