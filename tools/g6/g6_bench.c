/* g6_bench.c - the cost of one block step through the GRAPE-6 interface
 * (g6gl.h only), measured as Sapporo2's was (GPU-NOTES.md): per block, the
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
 * or, unchanged, any other GRAPE-6 library (Sapporo2). */
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

int main(int argc, char **argv)
{
    int n, repeats = argc > 3 ? atoi(argv[3]) : 21;
    FILE *in = argc > 2 ? fopen(argv[1], "r") : NULL;
    if (!in || fscanf(in, "%d", &n) != 1 || n < 2 || repeats < 1) {
        fprintf(stderr, "usage: g6_bench IN NI[,NI...] [REPEATS]\n");
        return 2;
    }
    double *m = malloc(sizeof *m * (size_t)n), (*x)[3] = malloc(sizeof *x * (size_t)n);
    double (*v)[3] = malloc(sizeof *v * (size_t)n);
    for (int i = 0; i < n; i++)
        if (fscanf(in, "%lf %lf %lf %lf %lf %lf %lf", &m[i], &x[i][0], &x[i][1], &x[i][2],
                   &v[i][0], &v[i][1], &v[i][2]) != 7)
            return 1;
    fclose(in);
    if (g6_open(0) < 0)
        return 1;
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
                }
                if (g6calc_firsthalf(0, n, chunk, index, xi, vi, acc, jer, pot, eps2, h2) < 0)
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
