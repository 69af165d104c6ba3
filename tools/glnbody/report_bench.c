/* report_bench.c - glnbody bench --report FILE.json: every row measured
 * (minimum, median and maximum device seconds over the timed runs), its
 * error against the double-precision CPU reference, and the machine that
 * made it, in one JSON file written whole or not at all.
 *
 * Kernels and their counts: GA (acceleration and potential) counts N^2
 * interactions an evaluation and 20 flops each (Nyland et al. 2007, GPU
 * Gems 3 ch. 31); GAJ (acceleration, jerk, potential of the Hermite
 * scheme, Portegies Zwart et al. 2007) counts N^2 and 60 flops each
 * (Nitadori & Makino 2008); MD (LJ, r_c = 2.5, an fcc crystal at density
 * 0.8442 and temperature 1) counts atom-steps of velocity Verlet.  The
 * errors: GA and GAJ, the largest |da| / sum_j |a_ij| (and the same of phi
 * and jerk) over up to 512 sampled particles, against a double loop here;
 * MD, |pe - pe_cpu| / |pe_cpu| of the first force evaluation against the
 * CPU engine. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

#define NB_REPORT_SAMPLE 512
#define NB_GA_FLOPS 20.0
#define NB_GAJ_FLOPS 60.0
#define NB_MD_STEPS_PER_RUN 10

enum kernel { K_GA, K_GAJ, K_MD };
static const char *const kernel_names[] = { "GA", "GAJ", "MD" };

struct bench {
    const struct nb_report_request *q;
    struct nb_gl *gl;
    json_t *rows, *skipped;
};

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- the reference on a sample of i --------------------------------------- */

/* For sampled i: the double GA/GAJ sums and the pair-term magnitudes the
 * errors are relative to (as `glnbody compare` and the test suites). */
struct sample {
    size_t count, *index;
    double *acc, *pot, *jerk, *acc_abs, *pot_abs, *jerk_abs;
};

static void sample_free(struct sample *s)
{
    free(s->index); free(s->acc); free(s->pot); free(s->jerk);
    free(s->acc_abs); free(s->pot_abs); free(s->jerk_abs);
    memset(s, 0, sizeof *s);
}

static enum nb_status sample_make(struct sample *s, const struct nb_particles *p,
                                  const double *v, double eps, struct nb_error *err)
{
    size_t n = p->n, c = n < NB_REPORT_SAMPLE ? n : NB_REPORT_SAMPLE;
    s->count = c;
    s->index = malloc(c * sizeof *s->index);
    s->acc = calloc(3 * c, 8); s->jerk = calloc(3 * c, 8); s->pot = calloc(c, 8);
    s->acc_abs = calloc(c, 8); s->pot_abs = calloc(c, 8); s->jerk_abs = calloc(c, 8);
    if (!s->index || !s->acc || !s->jerk || !s->pot || !s->acc_abs || !s->pot_abs ||
        !s->jerk_abs) {
        sample_free(s);
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    }
    #pragma omp parallel for schedule(dynamic, 8)
    for (size_t k = 0; k < c; k++) {
        size_t i = k * n / c;
        s->index[k] = i;
        for (size_t j = 0; j < n; j++) {
            double d[3], w[3], r2 = eps * eps, rv = 0.0;
            if (j == i)
                continue;
            for (int a = 0; a < 3; a++) {
                d[a] = p->x[3 * j + a] - p->x[3 * i + a];
                w[a] = v[3 * j + a] - v[3 * i + a];
                r2 += d[a] * d[a];
                rv += d[a] * w[a];
            }
            double rinv = 1.0 / sqrt(r2), mr3 = p->m[j] * rinv * rinv * rinv;
            double alpha = 3.0 * rv * rinv * rinv;
            double jn = 0.0;
            for (int a = 0; a < 3; a++) {
                s->acc[3 * k + a] += mr3 * d[a];
                double ja = mr3 * (w[a] - alpha * d[a]);
                s->jerk[3 * k + a] += ja;
                jn += ja * ja;
            }
            s->pot[k] -= p->m[j] * rinv;
            s->acc_abs[k] += mr3 * sqrt(r2 - eps * eps);
            s->pot_abs[k] += p->m[j] * rinv;
            s->jerk_abs[k] += sqrt(jn);
        }
    }
    return NB_OK;
}

/* The largest error relative to the magnitudes over the sample. */
static double worst(const struct sample *s, const double *got, const double *want,
                    const double *scale, int dims, int got_by_index)
{
    double e = 0.0;
    for (size_t k = 0; k < s->count; k++) {
        size_t at = got_by_index ? s->index[k] : k;
        double d2 = 0.0;
        for (int a = 0; a < dims; a++)
            d2 += pow(got[dims * at + a] - want[dims * k + a], 2);
        double r = scale[k] > 0.0 ? sqrt(d2) / scale[k] : sqrt(d2) > 0.0 ? INFINITY : 0.0;
        if (!(r <= e))
            e = r;      /* NaN counts as worst */
    }
    return e;
}

/* ---- rows ----------------------------------------------------------------- */

static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static enum nb_status add_row(struct bench *b, enum kernel k, const char *backend,
                              const char *variant, const char *precision, size_t n,
                              double *seconds, int runs, double count, json_t *error,
                              struct nb_error *err)
{
    qsort(seconds, (size_t)runs, sizeof *seconds, by_value);
    double median = runs % 2 ? seconds[runs / 2]
                             : 0.5 * (seconds[runs / 2 - 1] + seconds[runs / 2]);
    double rate = count / median;
    double flops = k == K_GA ? NB_GA_FLOPS : k == K_GAJ ? NB_GAJ_FLOPS : 0.0;
    json_t *row = json_pack("{s:s, s:s, s:s, s:s, s:I, s:i, s:{s:o, s:o, s:o}, s:o, s:s, "
                            "s:o, s:o}",
                            "kernel", kernel_names[k], "backend", backend, "variant", variant,
                            "precision", precision, "n", (json_int_t)n, "runs", runs,
                            "seconds", "min", number(seconds[0]), "median", number(median),
                            "max", number(seconds[runs - 1]),
                            "rate", number(rate),
                            "rate_unit", k == K_MD ? "atom-steps/s" : "interactions/s",
                            "gflops", flops > 0.0 ? number(rate * flops * 1e-9) : json_null(),
                            "error", error);
    if (!row || json_array_append_new(b->rows, row) != 0)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    printf("%-4s %9zu  %-9s %-18s %-2s %12.4e %12.4e %12.4e %10.1f %10.2e\n",
           kernel_names[k], n, backend, variant, precision, seconds[0], median, rate,
           rate * flops * 1e-9, json_number_value(json_object_get(error, "max")));
    fflush(stdout);
    return NB_OK;
}

/* A row the context or engine cannot run: kept with its reason. */
static enum nb_status skip(struct bench *b, enum kernel k, const char *backend,
                           const char *variant, const char *precision, const char *why,
                           struct nb_error *err)
{
    size_t at;
    json_t *old;
    json_array_foreach(b->skipped, at, old)     /* once, not once per N */
        if (strcmp(json_string_value(json_object_get(old, "reason")), why) == 0 &&
            strcmp(json_string_value(json_object_get(old, "kernel")), kernel_names[k]) == 0 &&
            strcmp(json_string_value(json_object_get(old, "variant")), variant) == 0 &&
            strcmp(json_string_value(json_object_get(old, "precision")), precision) == 0)
            return NB_OK;
    json_t *s = json_pack("{s:s, s:s, s:s, s:s, s:s}", "kernel", kernel_names[k],
                          "backend", backend, "variant", variant, "precision", precision,
                          "reason", why);
    if (!s || json_array_append_new(b->skipped, s) != 0)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    if (!b->q->gl->quiet)
        fprintf(stderr, "glnbody: bench: %s %s %s %s skipped: %s\n", kernel_names[k],
                backend, variant, precision, why);
    return NB_OK;
}

/* The same for the failure in err (cleared: the bench goes on). */
static enum nb_status skip_failed(struct bench *b, enum kernel k, const char *backend,
                                  const char *variant, const char *precision,
                                  struct nb_error *err)
{
    char why[sizeof err->message];
    snprintf(why, sizeof why, "%s", err->message);
    *err = (struct nb_error){ 0 };
    return skip(b, k, backend, variant, precision, why, err);
}

/* GA or GAJ of one configured engine on p: warmup, the timed runs, the
 * error on the sample. */
static enum nb_status measure_forces(struct bench *b, struct nb_forces *f, enum kernel k,
                                     const char *backend, const char *precision,
                                     const struct nb_particles *p, const double *v,
                                     const uint32_t *all, const struct sample *s,
                                     struct nb_error *err)
{
    size_t n = p->n;
    int runs = (int)b->q->runs, total = (int)(b->q->warmup + b->q->runs);
    double *acc = malloc(24 * n), *pot = malloc(8 * n), *jerk = malloc(24 * n);
    double *seconds = malloc((size_t)runs * sizeof *seconds);
    enum nb_status st = acc && pot && jerk && seconds ? NB_OK
                      : nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    if (st == NB_OK && k == K_GAJ)
        st = nb_forces_set_j(f, n, p->x, v, p->m, err);
    for (int r = 0; st == NB_OK && r < total; r++) {
        st = k == K_GA ? nb_forces_ga(f, n, p->x, p->m, b->q->eps, acc, pot, err)
                       : nb_forces_gaj(f, b->q->eps, n, all, acc, jerk, pot, err);
        if (r >= b->q->warmup)
            seconds[r - b->q->warmup] = nb_forces_seconds(f);
    }
    if (st == NB_OK) {
        double ea = worst(s, acc, s->acc, s->acc_abs, 3, 1);
        double ep = worst(s, pot, s->pot, s->pot_abs, 1, 1);
        double ej = k == K_GAJ ? worst(s, jerk, s->jerk, s->jerk_abs, 3, 1) : 0.0;
        double e = fmax(ea, fmax(ep, ej));
        json_t *error = json_pack("{s:o, s:o, s:o, s:o, s:I}", "max", number(e),
                                  "acc", number(ea), "pot", number(ep),
                                  "jerk", k == K_GAJ ? number(ej) : json_null(),
                                  "sampled_particles", (json_int_t)s->count);
        st = error ? add_row(b, k, backend, nb_forces_variant(f), precision, n, seconds,
                             runs, (double)n * (double)n, error, err)
                   : nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    }
    free(acc); free(pot); free(jerk); free(seconds);
    return st;
}

/* One backend, variant and precision of GA or GAJ. */
static enum nb_status run_forces(struct bench *b, enum kernel k, enum nb_engine engine,
                                 const char *variant, enum nb_precision mode,
                                 const struct nb_particles *p, const double *v,
                                 const uint32_t *all, const struct sample *s,
                                 struct nb_error *err)
{
    struct nb_forces *f = NULL;
    const char *backend = nb_engine_name(engine), *prec = nb_precision_name(mode);
    enum nb_status st = nb_forces_create(&f, b->gl, engine, err);
    if (st == NB_OK && (st = nb_forces_set_variant(f, variant, err)) == NB_OK)
        st = nb_forces_set_precision(f, mode, err);
    if (st == NB_ERR_UNSUPPORTED || st == NB_ERR_LIMIT) {
        st = skip_failed(b, k, backend, variant, prec, err);
    } else if (st == NB_OK) {
        st = measure_forces(b, f, k, backend, prec, p, v, all, s, err);
        if (st == NB_ERR_UNSUPPORTED)       /* GAJ in a mode the engine lacks */
            st = skip_failed(b, k, backend, variant, prec, err);
    }
    nb_forces_destroy(f);
    return st;
}

/* The variants a name stands for on an engine ("all": its list). */
static enum nb_status for_variants(struct bench *b, enum kernel k, enum nb_engine engine,
                                   const char *name, enum nb_precision mode,
                                   const struct nb_particles *p, const double *v,
                                   const uint32_t *all, const struct sample *s,
                                   struct nb_error *err)
{
    if (strcmp(name, "all") != 0)
        return run_forces(b, k, engine, name, mode, p, v, all, s, err);
    struct nb_forces *f = NULL;
    if (nb_forces_create(&f, b->gl, engine, err) != NB_OK)
        return skip_failed(b, k, nb_engine_name(engine), name, nb_precision_name(mode), err);
    enum nb_status st = NB_OK;
    for (const char *const *list = nb_forces_variants(f); st == NB_OK && *list; list++)
        st = run_forces(b, k, engine, *list, mode, p, v, all, s, err);
    nb_forces_destroy(f);
    return st;
}

/* ---- MD -------------------------------------------------------------------- */

static enum nb_status md_first_pe(struct nb_gl *gl, enum nb_engine engine, int cells,
                                  uint64_t seed, struct nb_md **md, double *pe,
                                  struct nb_error *err)
{
    struct nb_md_params par;
    struct nb_md_thermo th;
    nb_md_params_default(&par);
    par.cutoff = 2.5;
    par.shift = 1;
    if (nb_md_create_fcc(md, gl, engine, cells, 0.8442, 1.0, seed, &par, err) != NB_OK ||
        nb_md_get_thermo(*md, &th, err) != NB_OK)
        return err->status;
    *pe = th.pe;
    return NB_OK;
}

static enum nb_status run_md(struct bench *b, enum nb_engine engine, size_t n_asked,
                             struct nb_error *err)
{
    int cells = (int)lround(cbrt((double)n_asked / 4.0));
    cells = cells < 2 ? 2 : cells;
    const char *backend = nb_engine_name(engine);
    struct nb_md *md = NULL, *ref = NULL;
    double pe = 0.0, pe_cpu = 0.0;
    enum nb_status st = md_first_pe(b->gl, engine, cells, (uint64_t)b->q->seed, &md, &pe, err);
    if (st == NB_ERR_UNSUPPORTED) {
        nb_md_destroy(md);
        return skip_failed(b, K_MD, backend, "auto", "A", err);
    }
    if (st == NB_OK)
        st = md_first_pe(NULL, NB_ENGINE_CPU, cells, (uint64_t)b->q->seed, &ref, &pe_cpu, err);
    nb_md_destroy(ref);
    int runs = (int)b->q->runs;
    double *seconds = malloc((size_t)runs * sizeof *seconds);
    struct nb_md_thermo th;
    if (st == NB_OK && !seconds)
        st = nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    if (st == NB_OK && b->q->warmup > 0)
        st = nb_md_step(md, (uint64_t)b->q->warmup, err);
    for (int r = 0; st == NB_OK && r < runs; r++) {
        double t0 = nb_clock_seconds();      /* wall clock: the thermo read waits for the steps */
        if ((st = nb_md_step(md, NB_MD_STEPS_PER_RUN, err)) == NB_OK &&
            (st = nb_md_get_thermo(md, &th, err)) == NB_OK)
            seconds[r] = nb_clock_seconds() - t0;
    }
    if (st == NB_OK) {
        double e = fabs(pe - pe_cpu) / fabs(pe_cpu);
        size_t n = nb_md_count(md);
        json_t *error = json_pack("{s:o, s:s}", "max", number(e), "what",
                                  "|pe - pe_cpu| / |pe_cpu| of the first force evaluation");
        st = error ? add_row(b, K_MD, backend, "auto", "A", n, seconds, runs,
                             (double)n * NB_MD_STEPS_PER_RUN, error, err)
                   : nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    }
    free(seconds);
    nb_md_destroy(md);
    return st;
}

/* ---- the whole bench --------------------------------------------------------- */

/* Every kernel, N, backend, variant and precision asked for. */
static enum nb_status measure_all(struct bench *b, const enum nb_engine *engines, size_t ne,
                                  const long *ns, size_t n_count, struct nb_error *err)
{
    const struct nb_report_request *q = b->q;
    char *kernels = strdup(q->kernels ? q->kernels : "ga"), *ks = NULL;
    enum nb_status st = kernels ? NB_OK : nb_error_set(err, NB_ERR_NOMEM, "out of memory");
    for (char *kn = kernels ? strtok_r(kernels, ",", &ks) : NULL; st == NB_OK && kn;
         kn = strtok_r(NULL, ",", &ks)) {
        enum kernel k = strcmp(kn, "gaj") == 0 ? K_GAJ : strcmp(kn, "md") == 0 ? K_MD : K_GA;
        for (size_t i = 0; st == NB_OK && i < n_count; i++) {
            if (k == K_MD) {
                for (size_t e = 0; st == NB_OK && e < ne; e++)
                    st = run_md(b, engines[e], (size_t)ns[i], err);
                continue;
            }
            struct nb_particles p = { 0 };
            struct sample s = { 0 };
            size_t n = (size_t)ns[i];
            double *v = calloc(3 * n, 8);
            uint32_t *all = malloc(4 * n);
            if (!v || !all)
                st = nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
            if (st == NB_OK)
                st = nb_particles_random_cube(&p, n, (uint64_t)q->seed, err);
            for (size_t j = 0; st == NB_OK && j < n; j++) {
                all[j] = (uint32_t)j;
                for (int a = 0; a < 3; a++)     /* velocities for GAJ: a smooth field */
                    v[3 * j + a] = 0.5 * sin(3.0 * p.x[3 * j + (a + 1) % 3] + a);
            }
            if (st == NB_OK)
                st = sample_make(&s, &p, v, q->eps, err);
            for (size_t e = 0; st == NB_OK && e < ne; e++) {
                char *vl = strdup(q->variants ? q->variants : "auto"), *vs = NULL;
                for (char *vn = vl ? strtok_r(vl, ",", &vs) : NULL; st == NB_OK && vn;
                     vn = strtok_r(NULL, ",", &vs)) {
                    char *pl = strdup(q->precisions ? q->precisions : "A"), *ps = NULL;
                    for (char *pn = pl ? strtok_r(pl, ",", &ps) : NULL; st == NB_OK && pn;
                         pn = strtok_r(NULL, ",", &ps)) {
                        enum nb_precision mode;
                        if ((st = nb_precision_parse("--precision", pn, &mode, err)) == NB_OK)
                            st = for_variants(b, k, engines[e], vn, mode, &p, v, all, &s, err);
                    }
                    free(pl);
                }
                free(vl);
            }
            sample_free(&s);
            nb_particles_free(&p);
            free(v);
            free(all);
        }
    }
    free(kernels);
    return st;
}

static json_t *conventions(void)
{
    return json_pack(
        "{s:s, s:{s:f, s:f}, s:s, s:s, s:s}",
        "interactions", "GA and GAJ: N^2 pair interactions an evaluation (the CUDA "
        "samples' convention; the CPU's Newton's-third-law loop computes half the pair "
        "terms for the same result); MD: atom-steps of velocity Verlet",
        "flops_per_interaction", "GA", NB_GA_FLOPS, "GAJ", NB_GAJ_FLOPS,
        "flops_sources", "GA: 20 (Nyland et al. 2007, GPU Gems 3 ch. 31); GAJ: 60 "
        "(Nitadori & Makino 2008); MD: none counted",
        "seconds", "device seconds of one evaluation (GL timer queries on hardware, "
        "glFinish and the monotonic clock on Mesa's software renderers); MD: wall seconds "
        "of 10 steps and a thermo read",
        "error", "GA, GAJ: max over up to 512 sampled i of |x - x_ref| / sum_j |x_ij| for "
        "x = a, phi (and jerk), the reference in double; MD: relative potential-energy "
        "error of the first force evaluation against the CPU engine");
}

static enum nb_status parse_request(const struct nb_report_request *q, enum nb_engine *engines,
                                    size_t *ne, long **ns, size_t *n_count,
                                    struct nb_error *err)
{
    if (nb_parse_long_list("n", q->n_list ? q->n_list : "1024,4096,16384,65536", 1,
                           1L << 26, ns, n_count, err) != NB_OK)
        return err->status;
    const char *lists[3] = { q->kernels, q->backends, q->precisions };
    const char *names[3] = { "kernel", "backend", "precision" };
    for (int k = 0; k < 3; k++)
        if (lists[k] && nb_check_list(names[k], lists[k], err) != NB_OK)
            return err->status;
    char *copy = strdup(q->kernels ? q->kernels : "ga"), *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save))
        if (strcmp(t, "ga") && strcmp(t, "gaj") && strcmp(t, "md")) {
            nb_error_set(err, NB_ERR_ARGS, "--kernel: '%s' is not ga, gaj or md", t);
            break;
        }
    free(copy);
    if (err->status != NB_OK)
        return err->status;
    copy = strdup(q->backends ? q->backends : "compute");
    *ne = 0;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && *ne < NB_ENGINE_COUNT;
         t = strtok_r(NULL, ",", &save))
        if (nb_engine_parse(t, &engines[(*ne)++], err) != NB_OK)
            break;
    free(copy);
    return err->status;
}

enum nb_status nb_report_bench(const struct nb_report_request *q, struct nb_error *err)
{
    enum nb_engine engines[NB_ENGINE_COUNT];
    size_t ne = 0, n_count = 0;
    long *ns = NULL;
    struct nb_outfile out = { 0 };
    struct bench b = { q, NULL, json_array(), json_array() };
    json_t *root = NULL;
    int need_gl = 0;
    enum nb_status st = parse_request(q, engines, &ne, &ns, &n_count, err);
    for (size_t e = 0; e < ne; e++)
        need_gl |= nb_engine_needs_gl(engines[e]);
    if (st == NB_OK && (!b.rows || !b.skipped))
        st = nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    if (st == NB_OK)
        st = nb_outfile_open(&out, q->path, err);       /* a bad path fails first */
    if (st == NB_OK && need_gl)
        st = nb_gl_cli_create(q->gl, &b.gl, err);
    if (st == NB_OK) {
        printf("%-4s %9s  %-9s %-18s %-2s %12s %12s %12s %10s %10s\n", "kern", "N", "backend",
               "variant", "pr", "min s", "median s", "rate/s", "GFLOP/s", "error");
        st = measure_all(&b, engines, ne, ns, n_count, err);
    }
    json_t *machine = st == NB_OK ? nb_report_machine(b.gl, err) : NULL;
    json_t *software = machine ? nb_report_software(q->argc, q->argv, err) : NULL;
    if (software) {
        time_t t = time(NULL);
        char created[32];
        strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
        root = json_pack("{s:s, s:i, s:s, s:o, s:o, s:{s:f, s:I, s:i, s:i}, s:o, s:O, s:O}",
                         "format", NB_REPORT_FORMAT, "version", NB_REPORT_VERSION,
                         "created", created, "software", software, "machine", machine,
                         "input", "softening", q->eps, "seed", (json_int_t)q->seed,
                         "runs", (int)q->runs, "warmup", (int)q->warmup,
                         "conventions", conventions(), "rows", b.rows, "skipped", b.skipped);
        if (!root)
            st = nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    } else if (st == NB_OK) {
        st = err->status;
    }
    if (root && (json_dumpf(root, out.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0 ||
                 fputc('\n', out.fp) == EOF))
        st = nb_error_set(err, NB_ERR_IO, "%s: write error", q->path);
    if (st == NB_OK && root)
        st = nb_outfile_commit(&out, err);
    else
        nb_outfile_abort(&out);
    if (st == NB_OK && !q->gl->quiet)
        fprintf(stderr, "glnbody: bench: report written to %s\n", q->path);
    json_decref(root);
    json_decref(b.rows);
    json_decref(b.skipped);
    nb_gl_destroy(b.gl);
    free(ns);
    return st;
}
