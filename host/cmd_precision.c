/* cmd_precision.c - glnbody precision: seed 004's report (Figs. 10-12) for
 * one system: every accumulation mode of the compute backend's GA kernel
 * against the CPU in double (f_err, eq. 10), its force offset (eq. 11) and
 * its speed (median GL device seconds, interactions/s, and the share of
 * mode A's). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct precision_args {
    const char *ic, *n, *seed, *input, *eps, *modes, *runs, *warmup, *csv;
};

struct precision_config {
    const char *system;             /* "plummer" or the input path */
    double eps;
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
        if (nb_precision_parse(one, &m, err) != NB_OK)
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

static enum nb_status configure(const struct precision_args *a, struct precision_config *c,
                                long *n, long *seed, struct nb_error *err)
{
    *n = 65536;
    *seed = 1;
    c->eps = 0.01;
    c->runs = 5;
    c->warmup = 1;
    c->system = a->input ? a->input : "plummer";
    if (a->input && (a->ic || a->n || a->seed))
        return nb_error_set(err, NB_ERR_ARGS, "--input excludes --ic, --n and --seed");
    if (a->ic && strcmp(a->ic, "plummer") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown initial conditions '%s' "
                            "(known: plummer)", a->ic);
    if ((a->n && nb_parse_long("n", a->n, 2, 1L << 26, n, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, 1L << 62, seed, err) != NB_OK) ||
        (a->eps && nb_parse_double("softening", a->eps, 0.0, &c->eps, err) != NB_OK) ||
        (a->runs && nb_parse_long("runs", a->runs, 1, 1000, &c->runs, err) != NB_OK) ||
        (a->warmup && nb_parse_long("warmup", a->warmup, 0, 1000, &c->warmup, err) != NB_OK))
        return err->status;
    return parse_modes(a->modes ? a->modes : "ABCDEFGH", c, err);
}

/* One mode: timed runs, then its error against the reference; a row on
 * stdout and in the CSV.  *a_rate is mode A's interactions/s once known. */
static enum nb_status report_mode(struct nb_force_backend *b, enum nb_precision mode,
                                  const struct precision_config *c,
                                  const struct nb_particles *p, const struct nb_reference *ref,
                                  double *a_rate, FILE *csv, struct nb_error *err)
{
    double seconds, *acc = nb_alloc(3 * p->n, sizeof *acc, "results", err);
    double *pot = acc ? nb_alloc(p->n, sizeof *pot, "results", err) : NULL;
    struct nb_accuracy q;
    enum nb_status st = pot ? b->set_precision(b->state, mode, err) : NB_ERR_NOMEM;
    if (st == NB_OK)
        st = nb_measure_ga(b, p, c->eps, (int)c->warmup, (int)c->runs, &seconds, err);
    if (st == NB_OK)
        st = b->read(b->state, acc, pot, err);
    if (st == NB_OK) {
        double rate = (double)p->n * (double)p->n / seconds;
        nb_accuracy_ga(p->n, p->m, acc, pot, ref->acc, ref->pot, ref->acc_abs,
                       ref->pot_abs, &q);
        if (mode == NB_PRECISION_A)
            *a_rate = rate;
        char share[16] = "-";       /* until mode A has run */
        if (*a_rate > 0.0)
            snprintf(share, sizeof share, "%.2f", rate / *a_rate);
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
    struct nb_force_backend b = { 0 };
    struct nb_reference ref = { 0 };
    struct nb_outfile csv = { 0 };
    struct nb_gl *gl = NULL;
    double a_rate = 0.0;
    enum nb_status st = nb_reference_make(&ref, p, c->eps, err);
    if (st == NB_OK)
        st = nb_backend_open(&b, "compute", g, &gl, err);
    if (st == NB_OK && csv_path && (st = nb_outfile_open(&csv, csv_path, err)) == NB_OK)
        fputs("system,n,softening,mode,f_err,f_offset,acc_rel_max,pot_rel_max,"
              "median_s,interactions_per_s,runs\n", csv.fp);
    if (st == NB_OK) {
        printf("GA kernel, %s, N = %zu, softening %g, renderer %s\n"
               "%-4s %10s %10s %12s %14s %11s %13s %8s\n", c->system, p->n, c->eps,
               b.renderer(b.state), "mode", "f_err", "f_offset", "max da/|a|",
               "max dphi/|phi|", "seconds", "interact./s", "of A");
        for (int k = 0; st == NB_OK && k < c->mode_count; k++)
            st = report_mode(&b, c->modes[k], c, p, &ref, &a_rate, csv.fp, err);
    }
    if (csv.fp && st == NB_OK)
        st = nb_outfile_commit(&csv, err);
    else if (csv.fp)
        nb_outfile_abort(&csv);
    if (b.destroy)
        b.destroy(b.state);
    nb_gl_destroy(gl);
    nb_reference_free(&ref);
    return st;
}

int nb_cmd_precision(int argc, char **argv)
{
    struct precision_args a = { 0 };
    struct nb_gl_cli g = { 0 };
    const struct nb_option table[] = {
        { "ic", "plummer", "generated system (the default)", &a.ic, NULL },
        { "n", "N", "particles of the Plummer sphere (default 65536)", &a.n, NULL },
        { "seed", "S", "random seed (default 1)", &a.seed, NULL },
        { "input", "FILE", "a snapshot file instead", &a.input, NULL },
        { "softening", "EPS", "Plummer softening (default 0.01)", &a.eps, NULL },
        { "modes", "LETTERS", "accumulation modes (default ABCDEFGH)", &a.modes, NULL },
        { "runs", "K", "timed runs per mode, median reported (default 5)", &a.runs, NULL },
        { "warmup", "W", "untimed runs first (default 1)", &a.warmup, NULL },
        { "csv", "FILE", "also write the rows as CSV", &a.csv, NULL },
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
        nb_options_print(stdout, "glnbody precision [--ic plummer --n N --seed S | --input "
                         "FILE] [--modes ABCDEFGH] [--csv FILE]", "Seed 004's report: "
                         "force error against the CPU in double (f_err), force offset "
                         "and speed of every accumulation mode of the compute backend.",
                         table);
        return 0;
    }
    enum nb_status st = a.input ? nb_snapshot_read(a.input, &p, &err)
                                : nb_plummer(&p, (size_t)n, (uint64_t)seed, NULL, &err);
    if (st == NB_OK)
        st = report(&c, &p, &g, a.csv, &err);
    nb_particles_free(&p);
    return st == NB_OK ? 0 : nb_cli_fail(&err);
}
