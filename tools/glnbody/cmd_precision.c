/* cmd_precision.c - glnbody precision: Narumi et al.'s report (Figs. 10-12) for
 * one system: every accumulation mode of the GA kernel of one pipeline
 * (--backend compute, the default, or fragment) against the CPU in double
 * (f_err, eq. 10), its force offset (eq. 11) and its speed (median GL
 * device seconds, interactions/s, and the share of mode A's).  The MD
 * systems (--ic lj16: Narumi et al.'s System 2, 16 LJ types with random
 * parameters, no cutoff; --ic ionic: the crystal of Boyarchenkov &
 * Potashnikov 2009) run the MD all-pairs kernel: mode A is that
 * pipeline's MD engine, B..H md_precision.comp or md_precision.frag.
 * With --cutoff they run through cell lists on the compute pipeline
 * (System 2's lattice in a periodic box): mode A is the MD engine's
 * md_cellforce.comp, B..H md_cell_precision.comp, and interactions are
 * the pairs inside the cutoff. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file_roles.h"

struct precision_args {
    const char *ic, *n, *seed, *input, *eps, *modes, *runs, *warmup, *csv, *backend;
    const char *cutoff;
};

/* A --backend of this command, parsed once: a GL pipeline with precision
 * kernels, and whether they have cell lists. */
struct pipeline {
    enum nb_engine engine;
    int cell_kernels;
};

struct precision_config {
    const char *system;             /* "plummer" or the input path */
    struct pipeline backend;
    double eps;
    double cutoff;                  /* MD: > 0 cuts the pairs off, through cell lists */
    long runs, warmup;
    enum nb_precision modes[NB_PRECISION_COUNT];
    int mode_count;
};

static enum nb_status parse_modes(const char *text, struct precision_config *c,
                                  struct nb_error *err)
{
    c->mode_count = 0;
    for (const char *s = text; *s; s++) {
        char one[2] = { *s, 0 };
        enum nb_precision m;
        if (*s == ',')
            continue;
        if (nb_precision_parse("--modes", one, &m, err) != NB_OK)
            return err->status;
        if (c->mode_count == NB_PRECISION_COUNT)
            return nb_error_set(err, NB_ERR_ARGS, "--modes: at most %d modes",
                                NB_PRECISION_COUNT);
        c->modes[c->mode_count++] = m;
    }
    if (c->mode_count == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--modes: no mode given (letters A..H)");
    return NB_OK;
}

/* --backend: compute or fragment, the pipelines with precision kernels. */
static enum nb_status parse_pipeline(const char *name, struct pipeline *out,
                                     struct nb_error *err)
{
    static const struct pipeline pipelines[] = {
        { NB_ENGINE_COMPUTE, 1 },
        { NB_ENGINE_FRAGMENT, 0 },
    };
    enum nb_engine engine;
    if (nb_engine_parse(name, &engine, NULL) == NB_OK)
        for (size_t k = 0; k < sizeof pipelines / sizeof *pipelines; k++)
            if (pipelines[k].engine == engine) {
                *out = pipelines[k];
                return NB_OK;
            }
    return nb_error_set(err, NB_ERR_ARGS, "--backend: '%s' has no accumulation "
                        "modes (compute or fragment)", name);
}

/* --cutoff RC: an MD system through cell lists, on the compute pipeline
 * (its geometry is checked once the system exists: cut_system). */
static enum nb_status configure_cutoff(const struct precision_args *a,
                                       struct precision_config *c, struct nb_error *err)
{
    c->cutoff = 0.0;
    if (!a->cutoff)
        return NB_OK;
    if (!a->ic || strcmp(a->ic, "plummer") == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--cutoff: only the MD systems take a "
                            "cutoff (--ic lj16 or ionic)");
    if (!c->backend.cell_kernels)
        return nb_error_set(err, NB_ERR_ARGS, "--cutoff: the cell-list kernels run on the "
                            "compute pipeline only, not %s", nb_engine_name(c->backend.engine));
    if (nb_parse_double("cutoff", a->cutoff, -INFINITY, &c->cutoff, err) != NB_OK)
        return err->status;
    if (!(c->cutoff > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "--cutoff: %s is not > 0", a->cutoff);
    return NB_OK;
}

static enum nb_status configure(const struct precision_args *a, struct precision_config *c,
                                long *n, long *seed, struct nb_error *err)
{
    *n = 65536;
    *seed = 1;
    c->eps = 0.01;
    c->runs = 5;
    c->warmup = 1;
    c->system = a->input ? a->input : "plummer";
    if (parse_pipeline(a->backend ? a->backend : "compute", &c->backend, err) != NB_OK)
        return err->status;
    if (a->input && (a->ic || a->n || a->seed))
        return nb_error_set(err, NB_ERR_ARGS, "--input excludes --ic, --n and --seed");
    if (a->ic && strcmp(a->ic, "plummer") != 0 && strcmp(a->ic, "lj16") != 0 &&
        strcmp(a->ic, "ionic") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown system '%s' (plummer, "
                            "lj16 or ionic)", a->ic);
    if (a->ic && strcmp(a->ic, "plummer") != 0)
        c->system = a->ic;
    if ((a->n && nb_parse_long("n", a->n, 2, 1L << 26, n, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, 1L << 62, seed, err) != NB_OK) ||
        (a->eps && nb_parse_double("softening", a->eps, 0.0, &c->eps, err) != NB_OK) ||
        (a->runs && nb_parse_long("runs", a->runs, 1, 1000, &c->runs, err) != NB_OK) ||
        (a->warmup && nb_parse_long("warmup", a->warmup, 0, 1000, &c->warmup, err) != NB_OK) ||
        configure_cutoff(a, c, err) != NB_OK)
        return err->status;
    return parse_modes(a->modes ? a->modes : "ABCDEFGH", c, err);
}

/* The bar (or a line per row) of the modes' rows, once the table's header
 * is out. */
static void progress_start(struct nb_progress *bar, const struct precision_config *c,
                           const struct nb_gl_cli *g)
{
    fflush(stdout);             /* the header before the bar, on one terminal */
    nb_progress_start(bar, "precision", "row", "rows/s", c->mode_count,
                      NB_PROGRESS_ROWS_ON_STDOUT | (g->quiet ? NB_PROGRESS_QUIET : 0));
}

/* Row k (from 0) is out. */
static void row_done(struct nb_progress *bar, int k)
{
    nb_progress_update(bar, k + 1, bar->total, k + 1, 1);
}


/* Ends a report's table: the progress finished, the CSV committed when
 * every row was written, else removed; returns st or the commit's error. */
static enum nb_status end_table(struct nb_progress *bar, struct nb_outfile *csv,
                                enum nb_status st, struct nb_error *err)
{
    nb_progress_finish(bar);
    if (csv->fp && st == NB_OK)
        return nb_outfile_commit(csv, err);
    if (csv->fp)
        nb_outfile_abort(csv);
    return st;
}

/* One mode: timed runs, then its error against the reference; a row on
 * stdout (the bar erased first) and in the CSV.  *a_rate is mode A's
 * interactions/s once known. */
static enum nb_status report_mode(struct nb_forces *f, enum nb_precision mode,
                                  const struct precision_config *c,
                                  const struct nb_particles *p, const struct nb_reference *ref,
                                  double *a_rate, FILE *csv, struct nb_progress *bar,
                                  struct nb_error *err)
{
    double seconds, *acc = nb_cli_alloc(3 * p->n, sizeof *acc, "results", err);
    double *pot = acc ? nb_cli_alloc(p->n, sizeof *pot, "results", err) : NULL;
    struct nb_accuracy q;
    enum nb_status st = pot ? nb_forces_set_precision(f, mode, err) : NB_ERR_NOMEM;
    if (st == NB_OK)
        st = nb_forces_time_ga(f, p->n, p->x, p->m, c->eps, (int)c->warmup, (int)c->runs,
                               acc, pot, &seconds, err);
    if (st == NB_OK) {
        double rate = (double)p->n * (double)p->n / seconds;
        nb_accuracy_ga(p->n, p->m, acc, pot, ref->acc, ref->pot, ref->acc_abs,
                       ref->pot_abs, &q);
        if (mode == NB_PRECISION_A)
            *a_rate = rate;
        char share[16] = "-";       /* until mode A has run */
        if (*a_rate > 0.0)
            snprintf(share, sizeof share, "%.2f", rate / *a_rate);
        nb_progress_clear(bar);
        printf("%-4s %10.3e %10.3e %12.3e %14.3e %11.4e %13.4e %8s\n",
               nb_precision_name(mode), q.f_err, q.f_offset, q.acc_rel_max, q.pot_rel_max,
               seconds, rate, share);
        if (csv)
            fprintf(csv, "\"%s\",%zu,%g,%s,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%ld\n", c->system,
                    p->n, c->eps, nb_precision_name(mode), q.f_err, q.f_offset,
                    q.acc_rel_max, q.pot_rel_max, seconds, rate, c->runs);
    }
    free(acc);
    free(pot);
    return st;
}

static enum nb_status report(const struct precision_config *c, const struct nb_particles *p,
                             const struct nb_gl_cli *g, const char *csv_path,
                             struct nb_error *err)
{
    struct nb_forces *f = NULL;
    struct nb_reference ref = { 0 };
    struct nb_outfile csv = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_progress bar = { 0 };
    double a_rate = 0.0;
    enum nb_status st = nb_reference_make(&ref, p, c->eps, err);
    if (st == NB_OK)
        st = nb_forces_open(&f, c->backend.engine, g, &gl, err);
    if (st == NB_OK && csv_path && (st = nb_outfile_open(&csv, csv_path, err)) == NB_OK)
        fputs("system,n,softening,mode,f_err,f_offset,acc_rel_max,pot_rel_max,"
              "median_s,interactions_per_s,runs\n", csv.fp);
    if (st == NB_OK) {
        printf("GA kernel, %s, N = %zu, softening %g, backend %s, renderer %s\n"
               "%-4s %10s %10s %12s %14s %11s %13s %8s\n", c->system, p->n, c->eps,
               nb_engine_name(c->backend.engine), nb_forces_renderer(f), "mode", "f_err", "f_offset", "max da/|a|",
               "max dphi/|phi|", "seconds", "interact./s", "of A");
        progress_start(&bar, c, g);
        for (int k = 0; st == NB_OK && k < c->mode_count; k++)
            if ((st = report_mode(f, c->modes[k], c, p, &ref, &a_rate, csv.fp, &bar,
                                  err)) == NB_OK)
                row_done(&bar, k);
    }
    st = end_table(&bar, &csv, st, err);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    nb_reference_free(&ref);
    return st;
}

/* ---- the MD systems ----------------------------------------------------- */

/* Narumi et al.'s System 2: n particles of 16 types with random LJ parameters
 * (eps 0.5..1.5, sigma 0.8..1.0, Lorentz-Berthelot pairs), no cutoff, on a
 * jittered cubic lattice of spacing 1.1 (no pair closer than 0.9: the
 * paper gives no positions; random ones would overlap), in an open box
 * or (periodic) a periodic one of the lattice's length rounded to float,
 * so that the float minimum image is exact. */
static enum nb_status make_lj16(struct nb_particles *p, struct nb_md_box *box,
                                struct nb_md_potential *pot, size_t n, uint64_t seed,
                                int periodic, struct nb_error *err)
{
    struct nb_rng rng;
    size_t side = 1;
    while (side * side * side < n)
        side++;
    nb_rng_seed(&rng, seed);
    nb_md_potential_default(pot, NB_LAW_LJ, 16);
    for (int t = 0; t < 16; t++) {
        pot->types.eps[t][t] = 0.5 + nb_rng_uniform(&rng);
        pot->types.sigma[t][t] = 0.8 + 0.2 * nb_rng_uniform(&rng);
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    if (nb_particles_alloc(p, n, err) != NB_OK || nb_particles_add_types(p, err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < n; i++) {
        size_t c[3] = { i % side, (i / side) % side, i / (side * side) };
        for (int a = 0; a < 3; a++)
            p->x[3 * i + a] = (double)(float)(1.1 * (double)c[a] +
                                              0.2 * (nb_rng_uniform(&rng) - 0.5));
        p->type[i] = 1 + (int)(16 * nb_rng_uniform(&rng));
        p->m[i] = 1.0;
    }
    for (int a = 0; a < 3; a++) {
        box->lo[a] = periodic ? -0.5 : -1.0;
        box->hi[a] = periodic ? -0.5 + (double)(float)(1.1 * (double)side)
                              : 1.1 * (double)side + 1.0;
        box->periodic[a] = periodic;
    }
    return NB_OK;
}

/* The crystal of Boyarchenkov & Potashnikov 2009: the largest k^3 cells of
 * 12 ions with 12 k^3 <= n. */
static enum nb_status make_ionic(struct nb_particles *p, struct nb_md_box *box,
                                 struct nb_md_potential *pot, size_t n, struct nb_error *err)
{
    int k = 1;
    while (12 * (size_t)(k + 1) * (k + 1) * (k + 1) <= n)
        k++;
    nb_md_potential_default(pot, NB_LAW_IONIC, 2);
    nb_md_ionic_default(pot);
    return nb_md_ionic_crystal(p, box, k, 1.0, pot, err);
}

/* Narumi et al. eqs. 10 and 11 for forces f against ref. */
static void force_errors(size_t n, const double *f, const double *ref, double *f_err,
                         double *f_offset)
{
    double diff = 0.0, norm = 0.0, abs_sum = 0.0, sum[3] = { 0 };
    for (size_t i = 0; i < n; i++) {
        double d2 = 0.0, r2 = 0.0, f2 = 0.0;
        for (int a = 0; a < 3; a++) {
            d2 += (f[3 * i + a] - ref[3 * i + a]) * (f[3 * i + a] - ref[3 * i + a]);
            r2 += ref[3 * i + a] * ref[3 * i + a];
            f2 += f[3 * i + a] * f[3 * i + a];
            sum[a] += f[3 * i + a];
        }
        diff += sqrt(d2);
        norm += sqrt(r2);
        abs_sum += sqrt(f2);
    }
    *f_err = norm > 0 ? diff / norm : 0.0;
    *f_offset = abs_sum > 0 ? sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) /
                              abs_sum : 0.0;
}

/* Median device seconds of mode on the system of mf (A: the pipeline's
 * MD engine): with the magnitude pre-pass of E, F, H (median[0]) and of
 * the kernel alone (median[1]). */
static enum nb_status time_md_mode(struct nb_md_forces *mf, const double *x,
                                   enum nb_precision mode, const struct precision_config *c,
                                   double *f, double *pe, double median[2],
                                   struct nb_error *err)
{
    double *secs = nb_cli_alloc(2 * (size_t)c->runs, sizeof *secs, "timings", err);
    enum nb_status st = secs ? NB_OK : NB_ERR_NOMEM;
    for (long r = -c->warmup; st == NB_OK && r < c->runs; r++) {
        double s[2] = { 0.0, 0.0 };
        st = nb_md_forces_eval(mf, x, mode, f, pe, s, err);
        if (r >= 0) {
            secs[r] = s[0] + s[1];
            secs[c->runs + r] = s[0];
        }
    }
    if (st == NB_OK) {
        median[0] = nb_median(secs, (size_t)c->runs);
        median[1] = nb_median(secs + c->runs, (size_t)c->runs);
    }
    free(secs);
    return st;
}

/* --cutoff: the cutoff on the system made, with cell lists; a geometry
 * they cannot serve (3 cells along periodic axes, rc <= L/2) is an
 * argument error. */
static enum nb_status cut_system(const struct precision_config *c, const struct nb_particles *p,
                                 const struct nb_md_box *box, struct nb_md_potential *pot,
                                 struct nb_error *err)
{
    struct nb_md_system sys = { .n = p->n, .type = p->type, .m = p->m, .q = p->q,
                                .pot = pot, .box = box, .cell_list = 1 };
    char why[sizeof err->message];
    if (!(c->cutoff > 0.0))
        return NB_OK;
    pot->cutoff = c->cutoff;
    if (nb_md_system_check(&sys, err) == NB_OK)
        return NB_OK;
    memcpy(why, err->message, sizeof why);
    return nb_error_set(err, NB_ERR_ARGS, "--cutoff %g: %s", c->cutoff, why);
}

static enum nb_status report_md(const struct precision_config *c, const struct nb_particles *p,
                                const struct nb_md_box *box, const struct nb_md_potential *pot,
                                const struct nb_gl_cli *g, const char *csv_path,
                                struct nb_error *err)
{
    struct nb_md_system sys = { .n = p->n, .type = p->type, .m = p->m, .q = p->q,
                                .pot = pot, .box = box, .cell_list = c->cutoff > 0.0 };
    struct nb_md_forces *mf = NULL;
    struct nb_outfile csv = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_progress bar = { 0 };
    double a_rate = 0.0;
    double *ref = nb_cli_alloc(3 * p->n, sizeof *ref, "reference", err);
    double *f = nb_cli_alloc(3 * p->n, sizeof *f, "forces", err);
    double *pe = nb_cli_alloc(2 * p->n, sizeof *pe, "energies", err);
    double pairs = 0.0;     /* with cell lists: the ordered pairs inside the cutoff */
    enum nb_status st = ref && f && pe ? NB_OK : NB_ERR_NOMEM;
    if (st == NB_OK)
        st = nb_md_cpu_forces_counted(&sys, p->x, ref, pe, pe + p->n, &pairs, err);
    if (!sys.cell_list)
        pairs = (double)p->n * (double)p->n;    /* all pairs: N^2, as the GA reports */
    if (st == NB_OK && (st = nb_gl_cli_open(c->backend.engine, g, &gl, err)) == NB_OK)
        st = nb_md_forces_create(&mf, gl, c->backend.engine, &sys, err);
    if (st == NB_OK && csv_path && (st = nb_outfile_open(&csv, csv_path, err)) == NB_OK)
        fputs("system,n,softening,mode,f_err,f_offset,acc_rel_max,pot_rel_max,"   /* as GA */
              "median_s,interactions_per_s,runs,kernel_s\n", csv.fp);
    char system[64];                /* with cell lists: "lj16, cutoff 2.5" */
    snprintf(system, sizeof system, sys.cell_list ? "%s, cutoff %g" : "%s", c->system,
             c->cutoff);
    if (st == NB_OK)
        printf("MD %s kernel, %s (%s law), N = %zu, backend %s, renderer %s\n"
               "%-4s %10s %10s %11s %13s %8s %11s\n", sys.cell_list ? "cell-list" : "all-pairs",
               system, nb_md_law_name(pot->law), p->n,
               nb_engine_name(c->backend.engine), nb_md_forces_renderer(mf), "mode",
               "f_err", "f_offset", "seconds", "interact./s", "of A", "kernel of A");
    if (st == NB_OK)
        progress_start(&bar, c, g);
    for (int k = 0; st == NB_OK && k < c->mode_count; k++) {
        enum nb_precision mode = c->modes[k];
        double seconds[2], f_err, f_offset;
        st = time_md_mode(mf, p->x, mode, c, f, pe, seconds, err);
        if (st == NB_ERR_UNSUPPORTED) {     /* G of the ionic law: say so, go on */
            nb_progress_clear(&bar);
            printf("%-4s %s\n", nb_precision_name(mode), err->message);
            row_done(&bar, k);
            err->status = st = NB_OK;
            continue;
        }
        if (st != NB_OK)
            break;
        force_errors(p->n, f, ref, &f_err, &f_offset);
        double rate = pairs / seconds[0], kernel_rate = pairs / seconds[1];
        if (mode == NB_PRECISION_A)
            a_rate = rate;
        char share[16] = "-", kernel_share[16] = "-";
        if (a_rate > 0.0) {
            snprintf(share, sizeof share, "%.2f", rate / a_rate);
            snprintf(kernel_share, sizeof kernel_share, "%.2f", kernel_rate / a_rate);
        }
        nb_progress_clear(&bar);
        printf("%-4s %10.3e %10.3e %11.4e %13.4e %8s %11s\n", nb_precision_name(mode), f_err,
               f_offset, seconds[0], rate, share, kernel_share);
        if (csv.fp)
            fprintf(csv.fp, "\"%s\",%zu,0,%s,%.6e,%.6e,nan,nan,%.6e,%.6e,%ld,%.6e\n",
                    system, p->n, nb_precision_name(mode), f_err, f_offset, seconds[0],
                    rate, c->runs, seconds[1]);
        row_done(&bar, k);
    }
    st = end_table(&bar, &csv, st, err);
    nb_md_forces_destroy(mf);
    nb_gl_destroy(gl);
    free(ref);
    free(f);
    free(pe);
    return st;
}

int nb_cmd_precision(int argc, char **argv)
{
    struct precision_args a = { 0 };
    struct nb_gl_cli g = { 0 };
    const struct nb_option table[] = {
        { "ic", "plummer|lj16|ionic", "generated system: Plummer sphere (GA, the "
          "default), System 2 of Narumi et al. (16 LJ types), the ionic crystal of "
          "Boyarchenkov & Potashnikov 2009",
          &a.ic, NULL },
        { "n", "N", "particles (default 65536; ionic: the largest 12 k^3 <= N)", &a.n, NULL },
        { "seed", "S", "random seed (default 1)", &a.seed, NULL },
        { "input", "FILE", "a snapshot file instead", &a.input, NULL },
        { "softening", "EPS", "Plummer softening (default 0.01)", &a.eps, NULL },
        { "modes", "LETTERS", "accumulation modes (default ABCDEFGH)", &a.modes, NULL },
        { "runs", "K", "timed runs per mode, median reported (default 5)", &a.runs, NULL },
        { "warmup", "W", "untimed runs first (default 1)", &a.warmup, NULL },
        { "csv", "FILE", "also write the rows as CSV", &a.csv, NULL },
        { "cutoff", "RC", "lj16 or ionic with a pair cutoff, through cell lists (compute "
          "only; lj16's lattice becomes periodic)", &a.cutoff, NULL },
        { "backend", "compute|fragment", "pipeline (default compute); mode A is its "
          "own GA kernel or MD engine, B..H its precision kernels", &a.backend, NULL },
        NB_GL_OPTIONS(g),
        { 0 } };
    struct precision_config c;
    struct nb_particles p = { 0 };
    struct nb_error err = { 0 };
    long n, seed;
    int help;
    if (nb_options_parse("precision", table, argc, argv, &help, &err) != NB_OK ||
        configure(&a, &c, &n, &seed, &err) != NB_OK || nb_gl_cli_validate(&g, &err) != NB_OK)
        return nb_cli_fail(&err);
    if (help) {
        nb_options_print(stdout, "glnbody precision [--ic plummer|lj16|ionic --n N --seed S "
                         "| --input FILE] [--cutoff RC] [--modes ABCDEFGH] "
                         "[--backend compute|fragment] [--csv FILE]", "The report of Narumi et "
                         "al.: force error against the CPU in double (f_err), force offset "
                         "and speed of every accumulation mode of the compute or "
                         "fragment pipeline.",
                         table);
        return 0;
    }
    const struct nb_file_use uses[] = {
        { "input", a.input, NB_FILE_IN, NULL, NULL, 0 },
        { "csv", a.csv, NB_FILE_OUT, NULL, NULL, 0 },
    };
    if (nb_check_file_uses("precision", uses, 2, &err) != NB_OK)
        return nb_cli_fail(&err);
    int md = a.ic && strcmp(a.ic, "plummer") != 0;
    struct nb_md_box box;
    struct nb_md_potential pot;
    enum nb_status st;
    if (md)
        st = a.ic[0] == 'l' ? make_lj16(&p, &box, &pot, (size_t)n, (uint64_t)seed,
                                        c.cutoff > 0.0, &err)
                            : make_ionic(&p, &box, &pot, (size_t)n, &err);
    else
        st = a.input ? nb_snapshot_read(a.input, &p, &err)
                     : nb_particles_plummer(&p, (size_t)n, (uint64_t)seed, NULL, &err);
    if (md && st == NB_OK)
        st = cut_system(&c, &p, &box, &pot, &err);
    if (st == NB_OK)
        st = md ? report_md(&c, &p, &box, &pot, &g, a.csv, &err)
                : report(&c, &p, &g, a.csv, &err);
    nb_particles_free(&p);
    return st == NB_OK ? 0 : nb_cli_fail(&err);
}
