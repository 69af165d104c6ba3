/* g6_client.c - a GRAPE-6 client written as Sapporo2's test codes are:
 * it declares the Fortran names itself (g6calc_firsthalf_ void, as
 * Sapporo2 has it), defines the C names as its own wrappers over them
 * (int g6_open(int id) { return g6_open_(&id); }), opens with
 * g6_open_(NULL) and calls g6_reset_fofpga.  tests/check_g6 runs it
 * linked against libg6gl.so and exported (-rdynamic), so that the dynamic
 * linker would bind a call of g6_open inside the library to the wrapper
 * here: the library must never make one.
 *
 *   g6_client N
 *
 * One block of every particle on N particles of a uniform cube, its
 * forces, jerks and potentials against a double sum here; prints the
 * largest error relative to the sums of |terms| and exits 0 when it is
 * under 1e-4 (a binding fault gives a crash, a failed call or garbage,
 * not an error of that size: the accuracy itself is check_g6's). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The Fortran names, as Sapporo2's testCodes/src/g6lib.h declares them. */
int g6_open_(int *id);
int g6_close_(int *id);
int g6_npipes_(void);
int g6_set_tunit_(double *t);
int g6_set_xunit_(double *x);
int g6_set_ti_(int *id, double *ti);
int g6_set_j_particle_(int *cluster_id, int *address, int *index, double *tj, double *dtj,
                       double *mass, double k18[3], double j6[3], double a2[3], double v[3],
                       double x[3]);
void g6calc_firsthalf_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
                       double vi[][3], double aold[][3], double j6old[][3], double phiold[],
                       double *eps2, double h2[]);
int g6calc_lasthalf_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
                     double vi[][3], double *eps2, double h2[], double acc[][3],
                     double jerk[][3], double pot[]);
int g6_reset_(int *cluster_id);
int g6_reset_fofpga_(int *cluster_id);

/* The client's own C names over them (void where Sapporo2's header has
 * void): the library exports the same names. */
int g6_open(int id) { return g6_open_(&id); }
int g6_close(int id) { return g6_close_(&id); }
int g6_npipes(void) { return g6_npipes_(); }
void g6_set_ti(int id, double ti) { g6_set_ti_(&id, &ti); }
void g6_set_tunit(double t) { g6_set_tunit_(&t); }
void g6_set_xunit(double x) { g6_set_xunit_(&x); }
int g6_reset(int id) { return g6_reset_(&id); }
int g6_reset_fofpga(int id) { return g6_reset_fofpga_(&id); }

int g6_set_j_particle(int id, int address, int index, double tj, double dtj, double mass,
                      double k18[3], double j6[3], double a2[3], double v[3], double x[3])
{
    return g6_set_j_particle_(&id, &address, &index, &tj, &dtj, &mass, k18, j6, a2, v, x);
}

void g6calc_firsthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3],
                      double aold[][3], double j6old[][3], double phiold[], double eps2,
                      double h2[])
{
    g6calc_firsthalf_(&id, &nj, &ni, index, xi, vi, aold, j6old, phiold, &eps2, h2);
}

int g6calc_lasthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3],
                    double eps2, double h2[], double acc[][3], double jerk[][3], double pot[])
{
    return g6calc_lasthalf_(&id, &nj, &ni, index, xi, vi, &eps2, h2, acc, jerk, pot);
}

static double rnd(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1p-53 - 0.5;
}

/* |got - want| / scale, the scale where it is 0. */
static double rel(double got, double want, double scale)
{
    return fabs(got - want) / (scale > 0 ? scale : 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 2 || n > 4096) {
        fprintf(stderr, "usage: g6_client N (2..4096)\n");
        return 2;
    }
    double (*x)[3] = calloc((size_t)n, sizeof *x), (*v)[3] = calloc((size_t)n, sizeof *v);
    double (*acc)[3] = calloc((size_t)n, sizeof *acc), (*jerk)[3] = calloc((size_t)n, sizeof *jerk);
    double *pot = calloc((size_t)n, sizeof *pot), *h2 = calloc((size_t)n, sizeof *h2);
    double zero[3] = { 0, 0, 0 }, m = 1.0 / n, eps2 = 1e-4, worst = 0;
    int *index = calloc((size_t)n, sizeof *index);
    unsigned long long seed = 12345;
    if (!x || !v || !acc || !jerk || !pot || !h2 || !index)
        return 2;
    if (g6_open_(NULL) != 0 || g6_reset_fofpga(0) != 0 || g6_reset_fofpga_(NULL) != 0 ||
        g6_reset(0) != 0) {
        fprintf(stderr, "g6_client: opening failed\n");
        return 1;
    }
    g6_set_tunit(1.0);
    g6_set_xunit(1.0);
    if (g6_npipes() < n) {
        fprintf(stderr, "g6_client: g6_npipes() = %d < %d\n", g6_npipes(), n);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++)
            x[i][c] = rnd(&seed), v[i][c] = 0.1 * rnd(&seed);
        index[i] = i;
        if (g6_set_j_particle(0, i, i, 0.0, 0.125, m, zero, zero, zero, v[i], x[i]) != 0)
            return 1;
    }
    g6_set_ti(0, 0.0);
    g6calc_firsthalf(0, n, n, index, x, v, acc, jerk, pot, eps2, h2);
    if (g6calc_lasthalf(0, n, n, index, x, v, eps2, h2, acc, jerk, pot) != 0) {
        fprintf(stderr, "g6_client: g6calc_lasthalf failed\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        double a[3] = { 0 }, j[3] = { 0 }, p = 0, sa = 0, sj = 0, sp = 0;
        for (int k = 0; k < n; k++) {
            if (k == i)
                continue;
            double d[3], dv[3];
            for (int c = 0; c < 3; c++)
                d[c] = x[k][c] - x[i][c], dv[c] = v[k][c] - v[i][c];
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2, rinv = 1 / sqrt(r2);
            double mr3 = m * rinv * rinv * rinv;
            double al = 3 * (d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2]) / r2;
            for (int c = 0; c < 3; c++) {
                a[c] += mr3 * d[c];
                j[c] += mr3 * (dv[c] - al * d[c]);
            }
            p -= m * rinv;
            sa += mr3 * sqrt(r2);
            sj += mr3 * (sqrt(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]) + fabs(al) * sqrt(r2));
            sp += m * rinv;
        }
        for (int c = 0; c < 3; c++) {
            worst = fmax(worst, rel(acc[i][c], a[c], sa));
            worst = fmax(worst, rel(jerk[i][c], j[c], sj));
        }
        worst = fmax(worst, rel(pot[i], p, sp));
    }
    if (g6_close(0) != 0)
        return 1;
    printf("g6_client: n %d, largest error %.3g of the sums of |terms|\n", n, worst);
    free(x), free(v), free(acc), free(jerk), free(pot), free(h2), free(index);
    return worst < 1e-4 ? 0 : 1;     /* NaN fails too */
}
