/* web_bench.c - "benchmark this device": one row of `glnbody bench
 * --report` at a time (the page yields to the browser between rows), on
 * the same input and with the same counts and error as
 * tools/glnbody/report_bench.c: particles from nb_particles_random_cube
 * with seed, velocities 0.5 sin(3 x_{a+1} + a) for GAJ; N^2 interactions
 * an evaluation, 20 (GA) or 60 (GAJ) flops each; the error the largest
 * |x - x_ref| / sum_j |x_ij| over up to 512 sampled particles against a
 * double loop here.  Seconds: the wall time of an evaluation with its
 * upload and read-back (a browser's glFinish need not wait for the GPU),
 * each timed run the mean over enough evaluations to span 20 ms (a
 * browser's clock is coarse).  The page wraps the rows with the machine it reads
 * from the browser. */
#include <emscripten/emscripten.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

#define WEB_SAMPLE 512
#define WEB_RUNS_MAX 100
#define WEB_SPAN 0.02           /* seconds a timed run should span */
#define WEB_REPS_MAX 64

/* The double sums of the sampled i and their pair-term magnitudes. */
struct sample {
    size_t count, index[WEB_SAMPLE];
    double acc[3 * WEB_SAMPLE], pot[WEB_SAMPLE], jerk[3 * WEB_SAMPLE];
    double acc_abs[WEB_SAMPLE], pot_abs[WEB_SAMPLE], jerk_abs[WEB_SAMPLE];
};

static void pair(const double *x, const double *v, const double *m, size_t i, size_t j,
                 double eps, struct sample *s, size_t k)
{
    double d[3], w[3], r2 = eps * eps, rv = 0.0, jn = 0.0;
    for (int a = 0; a < 3; a++) {
        d[a] = x[3 * j + a] - x[3 * i + a];
        w[a] = v[3 * j + a] - v[3 * i + a];
        r2 += d[a] * d[a];
        rv += d[a] * w[a];
    }
    double rinv = 1.0 / sqrt(r2), mr3 = m[j] * rinv * rinv * rinv;
    double alpha = 3.0 * rv * rinv * rinv;
    for (int a = 0; a < 3; a++) {
        double ja = mr3 * (w[a] - alpha * d[a]);
        s->acc[3 * k + a] += mr3 * d[a];
        s->jerk[3 * k + a] += ja;
        jn += ja * ja;
    }
    s->pot[k] -= m[j] * rinv;
    s->acc_abs[k] += mr3 * sqrt(r2 - eps * eps);
    s->pot_abs[k] += m[j] * rinv;
    s->jerk_abs[k] += sqrt(jn);
}

static void sample_make(struct sample *s, const struct nb_particles *p, const double *v,
                        double eps)
{
    size_t n = p->n;
    memset(s, 0, sizeof *s);
    s->count = n < WEB_SAMPLE ? n : WEB_SAMPLE;
    for (size_t k = 0; k < s->count; k++) {
        s->index[k] = k * n / s->count;
        for (size_t j = 0; j < n; j++)
            if (j != s->index[k])
                pair(p->x, v, p->m, s->index[k], j, eps, s, k);
    }
}

static double worst(const struct sample *s, const double *got, const double *want,
                    const double *scale, int dims)
{
    double e = 0.0;
    for (size_t k = 0; k < s->count; k++) {
        double d2 = 0.0;
        for (int a = 0; a < dims; a++)
            d2 += pow(got[dims * s->index[k] + a] - want[dims * k + a], 2);
        double r = scale[k] > 0.0 ? sqrt(d2) / scale[k] : sqrt(d2) > 0.0 ? INFINITY : 0.0;
        if (!(r <= e))
            e = r;      /* NaN counts as worst */
    }
    return e;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* JSON's number, or null where not finite (as the native report). */
static const char *num(char *buf, double x)
{
    if (isfinite(x))
        snprintf(buf, 32, "%.10g", x);
    else
        snprintf(buf, 32, "null");
    return buf;
}

static char row_json[2048];

/* The row as JSON, from sorted seconds. */
static void write_row(int gaj, const char *variant, size_t n, const double *sec, int runs,
                      double ea, double ep, double ej, size_t sampled)
{
    char b[9][32];
    double median = runs % 2 ? sec[runs / 2] : 0.5 * (sec[runs / 2 - 1] + sec[runs / 2]);
    double rate = (double)n * (double)n / median, flops = gaj ? 60.0 : 20.0;
    snprintf(row_json, sizeof row_json,
             "{\"kernel\": \"%s\", \"backend\": \"fragment\", \"variant\": \"%s\", "
             "\"precision\": \"A\", \"n\": %zu, \"runs\": %d, \"seconds\": {\"min\": %s, "
             "\"median\": %s, \"max\": %s}, \"rate\": %s, \"rate_unit\": \"interactions/s\", "
             "\"gflops\": %s, \"error\": {\"max\": %s, \"acc\": %s, \"pot\": %s, "
             "\"jerk\": %s, \"sampled_particles\": %zu}}",
             gaj ? "GAJ" : "GA", variant, n, runs, num(b[0], sec[0]), num(b[1], median),
             num(b[2], sec[runs - 1]), num(b[3], rate), num(b[4], rate * flops * 1e-9),
             num(b[5], fmax(ea, fmax(ep, ej))), num(b[6], ea), num(b[7], ep),
             gaj ? num(b[8], ej) : "null", sampled);
}

static enum nb_status measure(struct nb_forces *f, int gaj, const struct nb_particles *p,
                              const double *v, double eps, int runs, int warmup,
                              const struct sample *s, struct nb_error *err)
{
    size_t n = p->n;
    double *acc = malloc(24 * n), *pot = malloc(8 * n), *jerk = malloc(24 * n);
    double sec[WEB_RUNS_MAX];
    uint32_t *all = malloc(4 * n);
    enum nb_status st = acc && pot && jerk && all ? NB_OK
                      : nb_error_set(err, NB_ERR_NOMEM, "out of memory");
    for (size_t j = 0; st == NB_OK && j < n; j++)
        all[j] = (uint32_t)j;
    if (st == NB_OK && gaj)
        st = nb_forces_set_j(f, n, p->x, v, p->m, err);
    /* Wall time of the whole call, read-back included: a browser's
     * glFinish need not wait for the GPU, its read-back must.  Its clock
     * ticks in 0.1 ms or coarser, with jitter: each timed run is the mean
     * of enough evaluations to span ~20 ms. */
    int reps = 1;
    for (int r = 0; st == NB_OK && r < warmup + runs; r++) {
        double sum = 0.0;
        for (int k = 0; st == NB_OK && k < (r < warmup ? 1 : reps); k++) {
            double t0 = nb_clock_seconds();
            st = gaj ? nb_forces_gaj(f, eps, n, all, acc, jerk, pot, err)
                     : nb_forces_ga(f, n, p->x, p->m, eps, acc, pot, err);
            sum += nb_clock_seconds() - t0;
        }
        if (r >= warmup)
            sec[r - warmup] = sum / reps;
        else if (sum > 0.0)
            reps = sum >= WEB_SPAN ? 1 : (int)fmin(WEB_REPS_MAX, ceil(WEB_SPAN / sum));
        else
            reps = WEB_REPS_MAX;
    }
    if (st == NB_OK) {
        qsort(sec, (size_t)runs, sizeof *sec, by_value);
        write_row(gaj, nb_forces_variant(f), n, sec, runs, worst(s, acc, s->acc, s->acc_abs, 3),
                  worst(s, pot, s->pot, s->pot_abs, 1),
                  gaj ? worst(s, jerk, s->jerk, s->jerk_abs, 3) : 0.0, s->count);
    }
    free(acc); free(pot); free(jerk); free(all);
    return st;
}

/* One row: kernel 0 GA, 1 GAJ, on the fragment engine's automatic
 * variant; the row's JSON, or "" with web_error() set. */
EMSCRIPTEN_KEEPALIVE const char *web_bench_row(int kernel, int n, int runs, int warmup,
                                               int seed, double eps)
{
    static struct sample s;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct nb_forces *f = NULL;
    row_json[0] = '\0';
    if (web_init() != 0)
        return row_json;
    if (n < 1 || n > WEB_MAX_N || runs < 1 || runs > WEB_RUNS_MAX || warmup < 0 ||
        !(eps >= 0)) {
        web_fail_text("bench: N %d, runs %d, warmup %d or softening %g out of range", n,
                      runs, warmup, eps);
        return row_json;
    }
    double *v = calloc(3 * (size_t)n, sizeof *v);
    enum nb_status st = v ? nb_particles_random_cube(&p, (size_t)n, (uint64_t)seed, &err)
                          : nb_error_set(&err, NB_ERR_NOMEM, "out of memory");
    for (size_t j = 0; st == NB_OK && j < (size_t)n; j++)
        for (int a = 0; a < 3; a++)
            v[3 * j + a] = 0.5 * sin(3.0 * p.x[3 * j + (a + 1) % 3] + a);
    if (st == NB_OK) {
        sample_make(&s, &p, v, eps);
        st = nb_forces_create(&f, web_gl(), NB_ENGINE_FRAGMENT, &err);
    }
    if (st == NB_OK && (st = nb_forces_set_variant(f, "auto", &err)) == NB_OK)
        st = measure(f, kernel == 1, &p, v, eps, runs, warmup, &s, &err);
    if (st != NB_OK)
        web_fail("bench", &err);
    else
        printf("glnbody-web: bench %s\n", row_json);
    nb_forces_destroy(f);
    nb_particles_free(&p);
    free(v);
    return row_json;
}
