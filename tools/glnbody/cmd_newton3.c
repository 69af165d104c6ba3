/* cmd_newton3.c - glnbody newton3: Boyarchenkov & Potashnikov 2009's Table 5 on this GPU.  Times
 * the square loop and the three Newton's-third-law ("triangular") kernels
 * (nb_newton3_forces), each on one work group and across the device, on
 * Boyarchenkov & Potashnikov 2009's ionic crystal (or an LJ fcc lattice in an open box), and
 * reports the median device seconds, the pairs per second and the speed-up
 * over the square loop of the same scale.  --precision B..H runs the
 * kernels in that accumulation mode (Narumi et al. Table 1); in H (int64 fixed
 * point) their sums equal the square loop's bit for bit, so the dF column
 * reads 0.  G (double pair terms) needs a double pow for the ionic law,
 * which GLSL lacks: LJ (--ic fcc) only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_VARIANTS 16
#define MAX_CELLS 100               /* ionic: 12 million ions, far past O(n^2) */

struct newton3_args {
    const char *ic, *cells, *lattice, *density, *variants, *runs, *warmup, *csv, *precision;
};

struct newton3_config {
    const char *ic;                 /* "ionic" or "fcc" */
    long *cells;
    size_t cell_count;
    double lattice, density;
    long runs, warmup;
    enum nb_precision precision;    /* A (float sums) .. H (int64) */
    const char *schedule[MAX_VARIANTS];    /* squares first per scale */
    int requested[MAX_VARIANTS];           /* 1: asked for, 0: baseline added */
    int count;
};

static int is_gpu(const char *variant)
{
    return strstr(variant, "-gpu") != NULL;
}

static int is_square(const char *variant)
{
    return strncmp(variant, "square", 6) == 0;
}

/* The known name equal to text (its static copy), or NULL. */
static const char *known_variant(const char *text, size_t len)
{
    for (const char *const *v = nb_newton3_variants(); *v; v++)
        if (strlen(*v) == len && strncmp(*v, text, len) == 0)
            return *v;
    return NULL;
}

static void schedule_add(struct newton3_config *c, const char *v, int requested)
{
    for (int k = 0; k < c->count; k++)
        if (c->schedule[k] == v) {
            c->requested[k] |= requested;
            return;
        }
    c->schedule[c->count] = v;
    c->requested[c->count++] = requested;
}

/* The run order: per scale present (-wg, then -gpu), its square loop
 * first (added when not asked for: the speed-ups refer to it), then the
 * rest in the order given. */
static enum nb_status parse_variants(const char *text, struct newton3_config *c,
                                     struct nb_error *err)
{
    const char *asked[MAX_VARIANTS];
    int n_asked = 0;
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, ",");
        const char *v = known_variant(s, len);
        if (len == 3 && strncmp(s, "all", 3) == 0) {
            for (const char *const *a = nb_newton3_variants(); *a && n_asked < MAX_VARIANTS; a++)
                asked[n_asked++] = *a;
        } else if (!v) {
            return nb_error_set(err, NB_ERR_ARGS, "--variants: unknown variant '%.*s' (known: "
                                "all, square, tri1, tri2, tri3, each with -wg or -gpu, "
                                "lean-gpu)",
                                (int)len, s);
        } else if (n_asked < MAX_VARIANTS) {
            asked[n_asked++] = v;
        }
        s += len + (s[len] == ',');
    }
    if (n_asked == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--variants: no variant given");
    c->count = 0;
    for (int gpu = 0; gpu < 2; gpu++)
        for (int k = 0; k < n_asked; k++)
            if (is_gpu(asked[k]) == gpu) {
                schedule_add(c, known_variant(gpu ? "square-gpu" : "square-wg",
                                              gpu ? 10 : 9), 0);
                schedule_add(c, asked[k], 1);
            }
    return NB_OK;
}

static enum nb_status configure(const struct newton3_args *a, struct newton3_config *c,
                                struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    c->ic = a->ic ? a->ic : "ionic";
    c->lattice = 1.0;
    c->density = 0.8442;
    c->runs = 5;
    c->warmup = 1;
    c->precision = NB_PRECISION_A;
    if (a->precision && nb_precision_parse("--precision", a->precision, &c->precision, err) != NB_OK)
        return err->status;
    if (strcmp(c->ic, "ionic") != 0 && strcmp(c->ic, "fcc") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown initial conditions '%s' "
                            "(known: ionic, fcc)", c->ic);
    if (c->precision == NB_PRECISION_G && strcmp(c->ic, "ionic") == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--precision G (double pair terms) needs pow "
                            "in double for the ionic law, which GLSL lacks; use --ic fcc "
                            "(LJ) or another mode");
    if ((a->lattice && nb_parse_double("lattice", a->lattice, 1e-300, &c->lattice, err) != NB_OK) ||
        (a->density && nb_parse_double("density", a->density, 1e-300, &c->density, err) != NB_OK) ||
        (a->runs && nb_parse_long("runs", a->runs, 1, 1000, &c->runs, err) != NB_OK) ||
        (a->warmup && nb_parse_long("warmup", a->warmup, 0, 1000, &c->warmup, err) != NB_OK) ||
        nb_parse_long_list("cells", a->cells ? a->cells : "3", 1, MAX_CELLS, &c->cells,
                           &c->cell_count, err) != NB_OK)
        return err->status;
    return parse_variants(a->variants ? a->variants : "all", c, err);
}

/* ---- one system -------------------------------------------------------- */

/* The fluorite crystal of Boyarchenkov & Potashnikov 2009
 * (nb_md_ionic_default), or an fcc LJ lattice (one type, eps = sigma = 1)
 * with its box opened and no cutoff. */
static enum nb_status make_system(const struct newton3_config *c, long cells,
                                  struct nb_particles *p, struct nb_md_box *box,
                                  struct nb_md_potential *pot, struct nb_error *err)
{
    if (strcmp(c->ic, "ionic") == 0) {
        nb_md_ionic_default(pot);
        return nb_md_ionic_crystal(p, box, (int)cells, c->lattice, pot, err);
    }
    nb_md_potential_default(pot, NB_LAW_LJ, 1);
    if (nb_md_fcc(p, box, (int)cells, c->density, 1.0, 1, err) != NB_OK)
        return err->status;
    for (int a = 0; a < 3; a++) {
        double len = box->hi[a] - box->lo[a];
        box->lo[a] -= len;
        box->hi[a] += len;
        box->periodic[a] = 0;
    }
    return NB_OK;
}

/* warmup untimed runs, then the median device seconds of runs timed ones;
 * f and pe hold the last result.  log2: mode E's, F's or H's scales
 * (measured once per system, untimed). */
static enum nb_status time_variant(struct nb_gl *gl, const struct newton3_config *c,
                                   const struct nb_md_system *sys, const double *x,
                                   const char *variant, const int log2[2], double *f,
                                   double *pe, double *median, struct nb_error *err)
{
    double seconds[1000];
    for (long k = 0; k < c->warmup + c->runs; k++) {
        if (nb_newton3_forces(gl, sys, x, variant, c->precision, log2, f, pe, NULL,
                                  &seconds[k < c->warmup ? 0 : k - c->warmup],
                                  err) != NB_OK)
            return err->status;
    }
    *median = nb_median(seconds, (size_t)c->runs);
    return NB_OK;
}

/* max_i |f_i - g_i| / max_i |g_i| over the components. */
static double deviation(const double *f, const double *g, size_t n)
{
    double d = 0.0, scale = 0.0;
    for (size_t k = 0; k < 3 * n; k++) {
        d = fmax(d, fabs(f[k] - g[k]));
        scale = fmax(scale, fabs(g[k]));
    }
    return scale > 0.0 ? d / scale : d;
}

/* Results per scale (0: -wg, 1: -gpu) of the square loop. */
struct baseline {
    double seconds[2];          /* 0: not run or refused */
    double *f[2];
};

static void report_row(const char *variant, size_t n, double seconds, const struct baseline *b,
                       const double *f, FILE *csv)
{
    int gpu = is_gpu(variant);
    double pairs = 0.5 * (double)n * (double)(n - 1), rate = seconds > 0 ? pairs / seconds : 0;
    char speedup[32] = "", dev[32] = "-";
    if (b->seconds[gpu] > 0.0 && seconds > 0.0)
        snprintf(speedup, sizeof speedup, "%.4f", b->seconds[gpu] / seconds);
    if (b->seconds[gpu] > 0.0)
        snprintf(dev, sizeof dev, "%.2e", deviation(f, b->f[gpu], n));
    printf("%-11s %9zu %12.4e %12.4e %8s %10s\n", variant, n, seconds, rate,
           speedup[0] ? speedup : "-", dev);
    if (csv)
        fprintf(csv, "%s,%zu,%.6e,%.6e,%s\n", variant, n, seconds, rate, speedup);
}

/* Every scheduled variant on one system; NB_ERR_LIMIT skips a variant. */
static enum nb_status run_system(struct nb_gl *gl, const struct newton3_config *c,
                                 const struct nb_md_system *sys, const double *x,
                                 FILE *csv, struct nb_error *err)
{
    size_t n = sys->n;
    struct baseline b = { { 0.0, 0.0 }, { NULL, NULL } };
    double *f = nb_cli_alloc(3 * n, sizeof *f, "forces", err);
    double *pe = f ? nb_cli_alloc(n, sizeof *pe, "energies", err) : NULL;
    b.f[0] = pe ? nb_cli_alloc(3 * n, sizeof *f, "forces", err) : NULL;
    b.f[1] = b.f[0] ? nb_cli_alloc(3 * n, sizeof *f, "forces", err) : NULL;
    enum nb_status st = b.f[1] ? NB_OK : NB_ERR_NOMEM;
    int log2[2] = { 0, 0 };
    if (st == NB_OK && n > 0)
        st = nb_newton3_scales(gl, sys, x, c->precision, log2, err);
    for (int k = 0; st == NB_OK && k < c->count; k++) {
        const char *v = c->schedule[k];
        double median = 0.0;
        st = time_variant(gl, c, sys, x, v, log2, f, pe, &median, err);
        if (st == NB_ERR_LIMIT) {
            printf("%-11s %9zu skipped: %s\n", v, n, err->message);
            st = err->status = NB_OK;
            continue;
        }
        for (size_t q = 0; st == NB_OK && q < 3 * n; q++)
            if (!isfinite(f[q]))        /* deviation()'s fmax would skip it */
                st = nb_error_set(err, NB_ERR_NUMERIC, "newton3 %s, N = %zu: atom %zu's "
                                  "force is not finite", v, n, q / 3);
        if (st == NB_OK && is_square(v)) {
            b.seconds[is_gpu(v)] = median;
            memcpy(b.f[is_gpu(v)], f, 3 * n * sizeof *f);
        }
        if (st == NB_OK && c->requested[k])
            report_row(v, n, median, &b, f, csv);
    }
    free(f);
    free(pe);
    free(b.f[0]);
    free(b.f[1]);
    return st;
}

static enum nb_status run_all(const struct newton3_config *c, const struct nb_gl_cli *g,
                              const char *csv_path, struct nb_error *err)
{
    struct nb_outfile csv = { 0 };
    struct nb_gl *gl = NULL;
    enum nb_status st = nb_gl_cli_create(g, &gl, err);
    if (st == NB_OK && csv_path && (st = nb_outfile_open(&csv, csv_path, err)) == NB_OK)
        fputs("variant,n,seconds_median,pairs_per_s,speedup_vs_square\n", csv.fp);
    if (st == NB_OK)
        printf("newton3: %s, precision %s, %ld timed runs (median), renderer %s\n%-11s %9s "
               "%12s %12s %8s %10s\n", strcmp(c->ic, "ionic") == 0 ?
               "ionic crystal (Boyarchenkov & Potashnikov 2009)" : "LJ fcc, open box",
               nb_precision_describe(c->precision),
               c->runs, nb_gl_renderer(gl), "variant", "n",
               "seconds", "pairs/s", "speedup", "dF/|F|max");
    for (size_t k = 0; st == NB_OK && k < c->cell_count; k++) {
        struct nb_particles p = { 0 };
        struct nb_md_box box;
        struct nb_md_potential pot;
        struct nb_md_system sys = { 0 };
        st = make_system(c, c->cells[k], &p, &box, &pot, err);
        if (st == NB_OK) {
            sys = (struct nb_md_system){ .n = p.n, .type = p.type, .m = p.m, .q = p.q,
                                         .pot = &pot, .box = &box };
            st = run_system(gl, c, &sys, p.x, csv.fp, err);
        }
        nb_particles_free(&p);
    }
    if (csv.fp && st == NB_OK)
        st = nb_outfile_commit(&csv, err);
    else if (csv.fp)
        nb_outfile_abort(&csv);
    nb_gl_destroy(gl);
    return st;
}

int nb_cmd_newton3(int argc, char **argv)
{
    struct newton3_args a = { 0 };
    struct nb_gl_cli g = { 0 };
    const struct nb_option table[] = {
        { "ic", "ionic|fcc", "the fluorite crystal of Boyarchenkov & Potashnikov 2009 (default) "
          "or an LJ fcc lattice in an open box", &a.ic, NULL },
        { "cells", "K[,K...]", "unit cells per side, one system each (default 3: 324 ions; "
          "ionic 12 K^3, fcc 4 K^3)", &a.cells, NULL },
        { "lattice", "A", "ionic lattice constant (default 1)", &a.lattice, NULL },
        { "density", "RHO", "fcc number density (default 0.8442)", &a.density, NULL },
        { "variants", "LIST", "comma-separated: square, tri1, tri2, tri3 with -wg or -gpu, "
          "lean-gpu, or all (default); the square loop of each scale runs first",
          &a.variants, NULL },
        { "runs", "R", "timed runs per variant, median reported (default 5)", &a.runs, NULL },
        { "warmup", "W", "untimed runs first (default 1)", &a.warmup, NULL },
        { "csv", "FILE", "also write variant,n,seconds_median,pairs_per_s,"
          "speedup_vs_square", &a.csv, NULL },
        { "precision", "A..H", "accumulation mode of Narumi et al., Table 1: A float sums "
          "(default), B double sums, C Takahashi-Iitaka, D Nitadori, E modified Nitadori, "
          "F Narumi, G double pair terms and sums (LJ only: --ic fcc), H every pair term "
          "rounded once to int64 fixed point and summed exactly (the sums equal the "
          "square loop's bit for bit); E, F, H scale as glnbody precision's",
          &a.precision, NULL },
        NB_GL_OPTIONS(g),
        { 0 } };
    struct newton3_config c = { 0 };
    struct nb_error err = { 0 };
    int help;
    if (nb_options_parse("newton3", table, argc, argv, &help, &err) != NB_OK ||
        configure(&a, &c, &err) != NB_OK || nb_gl_cli_validate(&g, &err) != NB_OK) {
        free(c.cells);
        return nb_cli_fail(&err);
    }
    if (help) {
        nb_options_print(stdout, "glnbody newton3 [--ic ionic --cells K[,K...] --lattice A "
                         "| --ic fcc --cells K --density RHO] [--variants LIST] [--runs R] "
                         "[--csv FILE] [--precision A..H]", "Table 5 of Boyarchenkov & Potashnikov 2009: the square loop against "
                         "Newton's-third-law kernels (tri1: pairs written twice, then "
                         "summed; tri2: written once, rows then columns; tri3: reactions "
                         "in shared memory), on one work group (-wg) and across the GPU "
                         "(-gpu); lean-gpu is the square loop with the triangles' pair code "
                         "(square-gpu is the MD engine's kernel, with a minimum image and "
                         "a cutoff test per pair).  Open box, all pairs.  pairs/s counts n(n-1)/2 pairs "
                         "for every variant; speedup is the square loop's seconds of the "
                         "same scale over the variant's; dF/|F|max is the largest "
                         "component difference from that square loop over the largest "
                         "component.  Variants a size exceeds are skipped, saying why.",
                         table);
        free(c.cells);
        return 0;
    }
    enum nb_status st = run_all(&c, &g, a.csv, &err);
    free(c.cells);
    return st == NB_OK ? 0 : nb_cli_fail(&err);
}
