/* cmd_bench.c - glnbody bench: interactions/s per backend, variant and N.
 *
 * Input: N random particles in [-1,1)^3 (masses 1/N).  Each row is the
 * median of --runs timed evaluations after --warmup untimed ones; device
 * time comes from GL timer queries where they measure (NVIDIA) and from
 * glFinish and a monotonic clock otherwise (llvmpipe).  An evaluation counts
 * N^2 interactions (the CUDA samples' convention; the CPU's Newton's-third-
 * law loop does half the pair terms for the same result).  GFLOP/s uses 20
 * flops an interaction (GPU Gems 3 ch. 31) and, in the CSV, Elsen et al. 2006's 19. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

#define NB_FLOPS_GEMS 20.0
#define NB_FLOPS_SEED000 19.0
#define NB_BENCH_MAX_BACKENDS 3

struct bench_args {
    const char *kernel, *backends, *variants, *n_list, *runs, *warmup, *eps, *seed, *csv;
    const char *report, *precisions;       /* --report FILE.json (report_bench.c) */
    struct nb_gl_cli gl;
};

/* Best rate per kind of backend at the current N, for the fragment/compute
 * ratio. */
struct best { double rate[NB_ENGINE_COUNT]; };

/* How each row is measured and where it goes. */
struct bench_run {
    double eps;
    int warmup, runs;
    FILE *csv;
    struct nb_progress *bar;    /* rows done of rows on stderr */
    double rows_done, rows_total;
};

static void print_row(const struct nb_forces *f, enum nb_engine engine, size_t n,
                      double median, struct bench_run *r)
{
    double rate = (double)n * (double)n / median;
    int runs = r->runs;
    FILE *csv = r->csv;

    nb_progress_clear(r->bar);      /* the row may go to the bar's terminal */
    printf("%9zu  %-9s %-16s %12.4e %14.4e %10.1f\n", n, nb_engine_name(engine),
           nb_forces_variant(f), median, rate, rate * NB_FLOPS_GEMS * 1e-9);
    if (csv)
        fprintf(csv, "%zu,%s,%s,\"%s\",%.6e,%.6e,%.2f,%.2f,%d\n", n, nb_engine_name(engine),
                nb_forces_variant(f), nb_forces_renderer(f), median, rate,
                rate * NB_FLOPS_GEMS * 1e-9, rate * NB_FLOPS_SEED000 * 1e-9, runs);
    r->rows_done++;
    nb_progress_update(r->bar, r->rows_done, r->rows_total, r->rows_done, 1);
}

static enum nb_status bench_variant(struct nb_forces *f, enum nb_engine engine,
                                    const char *variant, const struct nb_particles *p,
                                    struct bench_run *r, double *best, struct nb_error *err)
{
    double median;
    if (nb_forces_set_variant(f, variant, err) != NB_OK ||
        nb_forces_time_ga(f, p->n, p->x, p->m, r->eps, r->warmup, r->runs, NULL, NULL,
                          &median, err) != NB_OK)
        return err->status;
    print_row(f, engine, p->n, median, r);
    double rate = (double)p->n * (double)p->n / median;
    if (rate > *best)
        *best = rate;
    return NB_OK;
}

/* One name of --variant on every backend: "all" expands to each backend's
 * own list; any other name runs on the backends that know it, and must be
 * known to at least one. */
static enum nb_status bench_name(struct nb_forces **fs, const enum nb_engine *kinds,
                                 size_t nb, const char *name,
                                 const struct nb_particles *p, struct bench_run *r,
                                 struct best *best, struct nb_error *err)
{
    size_t accepted = 0;
    for (size_t k = 0; k < nb; k++) {
        const char *const *list = nb_forces_variants(fs[k]);
        const char *single[2] = { name, NULL };
        for (const char *const *v = strcmp(name, "all") == 0 ? list : single; *v; v++) {
            enum nb_status st = bench_variant(fs[k], kinds[k], *v, p, r,
                                              &best->rate[kinds[k]], err);
            if (st == NB_ERR_ARGS && nb > 1 && v == single) {
                *err = (struct nb_error){ 0 };      /* another backend's name */
                continue;
            }
            if (st != NB_OK)
                return st;
            accepted++;
        }
    }
    if (!accepted)
        return nb_error_set(err, NB_ERR_ARGS, "--variant: no chosen backend has a "
                            "variant '%s'", name);
    return NB_OK;
}

static enum nb_status bench_n(const char *variants, struct nb_forces **fs,
                              const enum nb_engine *kinds, size_t nb, const struct nb_particles *p,
                              struct bench_run *r, struct nb_error *err)
{
    struct best best = { 0 };
    char *list = strdup(variants), *save = NULL;
    if (!list)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save))
        if (bench_name(fs, kinds, nb, v, p, r, &best, err) != NB_OK)
            break;
    free(list);
    const double *rate = best.rate;
    if (err->status == NB_OK && rate[NB_ENGINE_COMPUTE] > 0 && rate[NB_ENGINE_FRAGMENT] > 0) {
        nb_progress_clear(r->bar);
        printf("%9zu  fragment/compute ratio of the best variants: %.4f\n", p->n,
               rate[NB_ENGINE_FRAGMENT] / rate[NB_ENGINE_COMPUTE]);
    }
    return err->status;
}

/* The rows one N makes, for the bar's total: bench_name's walk, asking
 * each backend whether it knows a name (set_variant only parses it; each
 * row sets its variant again before it is measured).  Names no backend
 * knows count nothing here and fail in bench_name. */
static double rows_per_n(const char *variants, struct nb_forces **fs, size_t nb)
{
    char *list = strdup(variants), *save = NULL;
    double rows = 0;
    for (char *v = list ? strtok_r(list, ",", &save) : NULL; v; v = strtok_r(NULL, ",", &save))
        for (size_t k = 0; k < nb; k++) {
            struct nb_error ignored = { 0 };
            if (strcmp(v, "all") != 0)
                rows += nb_forces_set_variant(fs[k], v, &ignored) == NB_OK;
            for (const char *const *name = nb_forces_variants(fs[k]);
                 strcmp(v, "all") == 0 && *name; name++)
                rows++;
        }
    free(list);
    return rows;
}

static enum nb_status open_backends(const struct bench_args *a, struct nb_gl **gl,
                                    struct nb_forces **fs, enum nb_engine *kinds,
                                    size_t *count, struct nb_error *err)
{
    char *list = strdup(a->backends ? a->backends : "compute"), *save = NULL;
    if (!list)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    *count = 0;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        if (*count == NB_BENCH_MAX_BACKENDS) {
            nb_error_set(err, NB_ERR_ARGS, "--backend: at most %d backends",
                         NB_BENCH_MAX_BACKENDS);
            break;
        }
        if (nb_engine_parse(name, &kinds[*count], err) != NB_OK)
            break;
        if (nb_forces_open(&fs[*count], kinds[*count], &a->gl, gl, err) != NB_OK)
            break;
        (*count)++;
    }
    free(list);
    return err->status;
}

static enum nb_status run_bench(const struct bench_args *a, struct nb_error *err)
{
    long *ns = NULL, runs = 7, warmup = 2, seed = 1;
    size_t n_count = 0, nb = 0;
    double eps = 0.01;
    if ((a->kernel && strcmp(a->kernel, "ga") != 0 &&
         nb_error_set(err, NB_ERR_ARGS, "--kernel: '%s' is not a kernel this build "
                      "has (ga)", a->kernel)) ||
        (a->runs && nb_parse_long("runs", a->runs, 5, 100000, &runs, err) != NB_OK) ||
        (a->warmup && nb_parse_long("warmup", a->warmup, 0, 100000, &warmup, err) != NB_OK) ||
        (a->eps && nb_parse_double("softening", a->eps, 0.0, &eps, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, 1L << 62, &seed, err) != NB_OK) ||
        nb_parse_long_list("n", a->n_list ? a->n_list : "1024,4096,16384,65536", 1,
                           1L << 26, &ns, &n_count, err) != NB_OK ||
        (a->backends && nb_check_list("backend", a->backends, err) != NB_OK) ||
        (a->variants && nb_check_list("variant", a->variants, err) != NB_OK) ||
        nb_gl_cli_validate(&a->gl, err) != NB_OK) {
        free(ns);
        return err->status;
    }

    struct nb_gl *gl = NULL;
    struct nb_forces *fs[NB_BENCH_MAX_BACKENDS] = { 0 };
    enum nb_engine kinds[NB_BENCH_MAX_BACKENDS];
    struct nb_outfile csv = { 0 };
    struct nb_progress bar = { 0 };
    const char *variants = a->variants ? a->variants : "auto";
    if (open_backends(a, &gl, fs, kinds, &nb, err) == NB_OK &&
        (!a->csv || nb_outfile_open(&csv, a->csv, err) == NB_OK)) {
        if (csv.fp)
            fprintf(csv.fp, "n,backend,variant,renderer,median_s,interactions_per_s,"
                    "gflops_20,gflops_19,runs\n");
        printf("%9s  %-9s %-16s %12s %14s %10s\n", "N", "backend", "variant",
               "median s", "interact./s", "GFLOP/s");
        fflush(stdout);             /* before the bar, where both are one terminal */
        struct bench_run r = { eps, (int)warmup, (int)runs, csv.fp, &bar, 0,
                               (double)n_count * rows_per_n(variants, fs, nb) };
        nb_progress_start(&bar, "bench", "row", "rows/s", r.rows_total,
                          NB_PROGRESS_ROWS_ON_STDOUT | (a->gl.quiet ? NB_PROGRESS_QUIET : 0));
        for (size_t k = 0; k < n_count && err->status == NB_OK; k++) {
            struct nb_particles p = { 0 };
            if (nb_particles_random_cube(&p, (size_t)ns[k], (uint64_t)seed, err) == NB_OK)
                bench_n(variants, fs, kinds, nb, &p, &r, err);
            nb_particles_free(&p);
        }
        nb_progress_finish(&bar);
        if (csv.fp && err->status == NB_OK)
            nb_outfile_commit(&csv, err);
        else if (csv.fp)
            nb_outfile_abort(&csv);
    }
    for (size_t k = 0; k < NB_BENCH_MAX_BACKENDS; k++)
        nb_forces_destroy(fs[k]);
    nb_gl_destroy(gl);
    free(ns);
    return err->status;
}

/* --report: the same options into report_bench.c's request. */
static enum nb_status report_bench(const struct bench_args *a, int argc, char **argv,
                                   struct nb_error *err)
{
    long runs = 7, warmup = 2, seed = 1;
    double eps = 0.01;
    if (a->csv)
        return nb_error_set(err, NB_ERR_ARGS, "bench: --csv and --report: give one");
    if ((a->runs && nb_parse_long("runs", a->runs, 5, 100000, &runs, err) != NB_OK) ||
        (a->warmup && nb_parse_long("warmup", a->warmup, 0, 100000, &warmup, err) != NB_OK) ||
        (a->eps && nb_parse_double("softening", a->eps, 0.0, &eps, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, 1L << 62, &seed, err) != NB_OK) ||
        (a->variants && nb_check_list("variant", a->variants, err) != NB_OK) ||
        nb_gl_cli_validate(&a->gl, err) != NB_OK)
        return err->status;
#ifdef NB_HAVE_REPORTS
    const struct nb_report_request q = { a->report, a->kernel, a->backends, a->variants,
                                         a->precisions, a->n_list, runs, warmup, seed, eps,
                                         &a->gl, argc, argv };
    return nb_report_bench(&q, err);
#else
    (void)argc, (void)argv;
    return nb_error_set(err, NB_ERR_UNSUPPORTED, "bench: --report is not in this build: it "
                        "needs jansson (pkg-config jansson; Debian: libjansson-dev), which "
                        "the build did not find; install it and run make again");
#endif
}

int nb_cmd_bench(int argc, char **argv)
{
    struct bench_args a = { 0 };
    const struct nb_option table[] = {
        { "kernel", "ga", "force kernel (ga)", &a.kernel, NULL },
        { "backend", "LIST", "comma-separated backends: cpu, compute, fragment "
          "(default compute)", &a.backends, NULL },
        { "variant", "LIST|all|auto", "variants to time (default auto); compute: "
          "t<T>i<I>[-s<S>], fragment: 1x1|1x4|4x4[-r<R>][-p<P>]", &a.variants, NULL },
        { "n", "LIST", "particle counts (default 1024,4096,16384,65536)", &a.n_list, NULL },
        { "runs", "K", "timed runs per row, median reported (default 7, >= 5)", &a.runs, NULL },
        { "warmup", "W", "untimed runs first (default 2)", &a.warmup, NULL },
        { "softening", "EPS", "Plummer softening (default 0.01)", &a.eps, NULL },
        { "seed", "S", "random seed (default 1)", &a.seed, NULL },
        { "csv", "FILE", "also write the rows as CSV", &a.csv, NULL },
        { "report", "FILE.json", "measure into a self-describing JSON report instead "
          "(machine, software, min/median/max, error; --kernel ga,gaj,md; read it with "
          "glnbody report)", &a.report, NULL },
        { "precision", "LIST", "with --report: accumulation modes to time (default A)",
          &a.precisions, NULL },
        NB_GL_OPTIONS(a.gl),
        { 0 } };
    struct nb_error err = { 0 };
    int help;
    if (nb_options_parse("bench", table, argc, argv, &help, &err) != NB_OK)
        return nb_cli_fail(&err);
    if (help) {
        nb_options_print(stdout, "glnbody bench --kernel ga --backend cpu|compute|fragment"
                         "[,...] [--variant NAME|all] --n LIST [--csv FILE]",
                         "Times the force kernels: median device seconds, interactions/s, "
                         "GFLOP/s at 20 flops an interaction, and the fragment/compute "
                         "ratio when both backends run.", table);
        return 0;
    }
    if (a.report)
        return report_bench(&a, argc, argv, &err) == NB_OK ? 0 : nb_cli_fail(&err);
    if (a.precisions)
        return nb_cli_fail(&(struct nb_error){ NB_ERR_ARGS, "bench: --precision needs "
                                               "--report (see glnbody bench --help)" });
    return run_bench(&a, &err) == NB_OK ? 0 : nb_cli_fail(&err);
}
