/* gaj_positions.c - the Hermite GAJ kernel in each position format: time
 * and force error of one block of all N particles.
 *
 *   gaj_positions N ENGINE FORMAT RUNS      (ENGINE compute|fragment,
 *                                            FORMAT ds|float)
 *
 * The system is check_gaj_positions' (a Plummer sphere of N holding a hard
 * binary of separation 1e-5 at |x| ~ 1 and a pair 1e-4 apart at |x| ~ 54,
 * eps^2 = 1e-12).  The block (every particle active) runs RUNS times after
 * one warm-up, each followed by its read-back; the median of the engine's
 * device seconds is reported.  The errors are those of 1024 particles
 * spread over the set plus the binary and the pair, against the double CPU
 * GAJ: |da| / sum_j |a_ij|, |dphi| / |phi|, |djerk| / sum_j of the jerk
 * terms' magnitudes; the worst of each, and the binary's.  Prints one CSV
 * row (header with --header); a format the engine cannot keep prints the
 * row with its message and exits 0.  Built by tools/bench/gaj_positions.sh
 * against the static library (internal headers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"

#define EPS 1e-6
#define SAMPLE 1024

static int fail(const char *what, const struct nb_error *err)
{
    fprintf(stderr, "gaj_positions: %s: %s\n", what, err->message);
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The binary (0, 1) and the far pair (2, 3) in the sphere p. */
static void add_pairs(struct nb_particles *p)
{
    const double c[3] = { 0.7000000123456789, 0.5099999876543211, 0.5000000314159265 };
    const double vorb = 0.5 * sqrt(0.02 / 1e-5), far = 54.0 / sqrt(3.0) + 1.234567e-7;
    for (int k = 0; k < 2; k++) {
        double s = k ? 1.0 : -1.0;
        p->m[k] = 0.01;
        for (int d = 0; d < 3; d++) {
            p->x[3 * k + d] = c[d] + (d == 0 ? s * 0.5e-5 : 0.0);
            p->v[3 * k + d] = p->v[d] + (d == 1 ? s * vorb : 0.0);
        }
    }
    for (int k = 2; k < 4; k++) {
        double s = k == 3 ? 1.0 : -1.0;
        for (int d = 0; d < 3; d++) {
            p->x[3 * k + d] = far * (d == 2 ? -1.0 : 1.0) + (d == 0 ? s * 0.5e-4 : 0.0);
            p->v[3 * k + d] = p->v[3 * 2 + d] + (d == 1 ? s * 0.5e-3 : 0.0);
        }
    }
}

/* Errors of one particle's results (a3, j3, phi) against the CPU's, over
 * the scales sa = sum_j |a_ij| and sj (nb_cpu_gaj_magnitudes). */
static void errors(const double *a, const double *j, double phi, const double *ra,
                   const double *rj, double rphi, double sa, double sj, double e[3])
{
    double da = 0.0, dj = 0.0;
    for (int c = 0; c < 3; c++) {
        da += (a[c] - ra[c]) * (a[c] - ra[c]);
        dj += (j[c] - rj[c]) * (j[c] - rj[c]);
    }
    e[0] = sqrt(da) / sa;
    e[1] = fabs(phi - rphi) / fabs(rphi);
    e[2] = sqrt(dj) / sj;
}

int main(int argc, char **argv)
{
    struct nb_error err = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_gl_options opt;
    struct nb_force_backend b;
    struct nb_particles p = { 0 };
    enum nb_positions format;

    if (argc == 2 && strcmp(argv[1], "--header") == 0) {
        puts("engine,positions,n,seconds,interactions_per_s,err_a_max,err_phi_max,"
             "err_jerk_max,err_a_binary,err_jerk_binary,renderer,note");
        return 0;
    }
    if (argc != 5) {
        fprintf(stderr, "usage: gaj_positions N compute|fragment ds|float RUNS\n");
        return 2;
    }
    size_t n = strtoul(argv[1], NULL, 10);
    int runs = atoi(argv[4]);
    if (n < 8 || runs < 1 || nb_positions_parse("FORMAT", argv[3], &format, &err) != NB_OK)
        return err.message[0] ? fail("arguments", &err)
                              : (fprintf(stderr, "gaj_positions: N >= 8, RUNS >= 1\n"), 2);
    nb_gl_options_default(&opt);
    if (nb_gl_create(&gl, &opt, &err) != NB_OK ||
        nb_backend_create(&b, argv[2], gl, &err) != NB_OK)
        return fail("GL", &err);
    const char *renderer = b.renderer(b.state);
    if (!b.set_positions || b.set_positions(b.state, format, &err) != NB_OK) {
        if (!b.set_positions && format == NB_POSITIONS_FLOAT) {
            err.message[0] = '\0';      /* float is what such an engine keeps */
        } else {
            printf("%s,%s,%zu,,,,,,,,\"%s\",\"%s\"\n", argv[2], argv[3], n, renderer,
                   err.message[0] ? err.message : "this engine keeps positions in float");
            return 0;
        }
    }
    if (nb_plummer(&p, n, 1, &b, &err) != NB_OK)
        return fail("Plummer sphere", &err);
    add_pairs(&p);
    uint32_t *all = malloc(n * sizeof *all), *pick = malloc((SAMPLE + 4) * sizeof *pick);
    double *acc = malloc(3 * n * sizeof(double)), *jerk = malloc(3 * n * sizeof(double));
    double *pot = malloc(n * sizeof(double)), *sec = malloc((size_t)runs * sizeof(double));
    double *ra = malloc(3 * (SAMPLE + 4) * sizeof(double));
    double *rj = malloc(3 * (SAMPLE + 4) * sizeof(double));
    double *rp = malloc((SAMPLE + 4) * sizeof(double));
    double *sa = malloc((SAMPLE + 4) * sizeof(double)), *sj = malloc((SAMPLE + 4) * sizeof(double));
    if (!all || !pick || !acc || !jerk || !pot || !sec || !ra || !rj || !rp || !sa || !sj)
        return fprintf(stderr, "gaj_positions: out of memory\n"), 1;
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    if (b.set_j(b.state, n, p.x, p.v, p.m, &err) != NB_OK)
        return fail("set_j", &err);
    for (int r = -1; r < runs; r++) {
        if (b.compute_gaj(b.state, EPS, n, all, &err) != NB_OK ||
            b.read_gaj(b.state, acc, jerk, pot, &err) != NB_OK)
            return fail("GAJ", &err);
        if (r >= 0)
            sec[r] = b.last_seconds(b.state);
    }
    qsort(sec, (size_t)runs, sizeof *sec, cmp_double);
    double median = sec[runs / 2];

    size_t count = 0;
    for (uint32_t k = 0; k < 4; k++)
        pick[count++] = k;
    for (size_t k = 0; k < SAMPLE && 4 + k * (n - 4) / SAMPLE < n; k++)
        if (count == 4 || pick[count - 1] != 4 + k * (n - 4) / SAMPLE)
            pick[count++] = (uint32_t)(4 + k * (n - 4) / SAMPLE);
    if (nb_cpu_gaj(n, p.x, p.v, p.m, EPS, count, pick, ra, rj, rp, &err) != NB_OK)
        return fail("CPU reference", &err);
    nb_cpu_gaj_magnitudes(n, p.x, p.v, p.m, EPS, count, pick, sa, sj);
    double worst[3] = { 0 }, binary[3] = { 0 };
    for (size_t k = 0; k < count; k++) {
        size_t i = pick[k];
        double e[3];
        errors(acc + 3 * i, jerk + 3 * i, pot[i], ra + 3 * k, rj + 3 * k, rp[k], sa[k], sj[k], e);
        for (int q = 0; q < 3; q++) {
            if (!isfinite(e[q]))
                return fprintf(stderr, "gaj_positions: particle %zu: error not finite\n", i), 1;
            worst[q] = fmax(worst[q], e[q]);
            if (i < 2)
                binary[q] = fmax(binary[q], e[q]);
        }
    }
    if (!(median > 0.0) || !isfinite(median))
        return fprintf(stderr, "gaj_positions: no device time measured\n"), 1;
    printf("%s,%s,%zu,%.6g,%.4g,%.3g,%.3g,%.3g,%.3g,%.3g,\"%s\",\n", argv[2], argv[3], n,
           median, (double)n * (double)(n - 1) / median, worst[0], worst[1], worst[2],
           binary[0], binary[2], renderer);
    b.destroy(b.state);
    nb_gl_destroy(gl);
    nb_particles_free(&p);
    free(all); free(pick); free(acc); free(jerk); free(pot); free(sec); free(ra); free(rj);
    free(rp); free(sa); free(sj);
    return 0;
}
