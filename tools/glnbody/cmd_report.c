/* cmd_report.c - glnbody report A.json B.json ...: the reports side by
 * side.  For each kernel and N, each machine's best row (the fastest
 * backend, variant and precision it measured) with its rate, the ratio to
 * the first report's, and its error; --plot draws the rates against N
 * (report_plot.c).  The Phoronix Test Suite merges results of many
 * machines this way; here each report carries its own machine table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_roles.h"
#include "report.h"

#define NB_REPORT_MAX 16
#define NB_CELL 50

static const char *const kernel_order[] = { "GA", "GAJ", "MD" };

static int kernel_rank(const char *k)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(k, kernel_order[i]) == 0)
            return i;
    return 3;
}

/* The best row of r for kernel and n, or NULL. */
static const struct nb_report_row *best_row(const struct nb_report *r, const char *kernel,
                                            double n)
{
    const struct nb_report_row *best = NULL;
    for (size_t k = 0; k < r->count; k++) {
        const struct nb_report_row *w = &r->rows[k];
        if (strcmp(w->kernel, kernel) == 0 && w->n == n && (!best || w->rate > best->rate))
            best = w;
    }
    return best;
}

struct key {
    int kernel;
    double n;
};

static int by_key(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel - y->kernel;
    return (x->n > y->n) - (x->n < y->n);
}

/* Every (kernel, N) that any report has, in order. */
static struct key *collect_keys(const struct nb_report *rs, size_t count, size_t *nkeys)
{
    size_t total = 0, used = 0;
    for (size_t r = 0; r < count; r++)
        total += rs[r].count;
    struct key *keys = malloc((total ? total : 1) * sizeof *keys);
    for (size_t r = 0; keys && r < count; r++)
        for (size_t k = 0; k < rs[r].count; k++) {
            struct key c = { kernel_rank(rs[r].rows[k].kernel), rs[r].rows[k].n };
            size_t j = 0;
            while (j < used && by_key(&keys[j], &c) != 0)
                j++;
            if (j == used)
                keys[used++] = c;
        }
    if (keys)
        qsort(keys, used, sizeof *keys, by_key);
    *nkeys = used;
    return keys;
}

static void print_table(const struct nb_report *rs, size_t count, const struct key *keys,
                        size_t nkeys)
{
    printf("machines (the best backend/variant/precision of each per kernel and N; "
           "ratio to [1]):\n");
    for (size_t r = 0; r < count; r++)
        printf("  [%zu] %s  (%s)\n", r + 1, rs[r].label, rs[r].path);
    printf("\n%-6s %9s", "kernel", "N");
    for (size_t r = 0; r < count; r++) {
        char head[NB_CELL + 24];
        snprintf(head, sizeof head, "[%zu] rate/s    ratio  best                     error", r + 1);
        printf(" | %-*s", NB_CELL, head);
    }
    printf("\n");
    for (size_t k = 0; k < nkeys; k++) {
        const char *kernel = keys[k].kernel < 3 ? kernel_order[keys[k].kernel] : "?";
        const struct nb_report_row *first = best_row(&rs[0], kernel, keys[k].n);
        printf("%-6s %9.0f", kernel, keys[k].n);
        for (size_t r = 0; r < count; r++) {
            const struct nb_report_row *w = best_row(&rs[r], kernel, keys[k].n);
            char cell[160], best[96];
            if (!w) {
                snprintf(cell, sizeof cell, "%s", "-");
            } else {
                snprintf(best, sizeof best, "%s %s%s%s", w->backend, w->variant,
                         strcmp(w->precision, "A") ? " " : "",
                         strcmp(w->precision, "A") ? w->precision : "");
                char ratio[16] = "-";
                if (first && first->rate > 0.0)
                    snprintf(ratio, sizeof ratio, "%.3g", w->rate / first->rate);
                snprintf(cell, sizeof cell, "%10.4g %6s  %-24.24s %7.1e", w->rate, ratio,
                         best, w->error);
            }
            printf(" | %-*s", NB_CELL, cell);
        }
        printf("\n");
    }
    printf("\nrates: GA and GAJ interactions/s, MD atom-steps/s; error: against the "
           "double-precision CPU reference (see each report's \"conventions\")\n");
}

/* Keeps the rows of the backends in list (comma-separated). */
static void keep_backends(struct nb_report *r, const char *list)
{
    size_t kept = 0;
    for (size_t k = 0; k < r->count; k++) {
        size_t len = strlen(r->rows[k].backend);
        const char *p = list;
        int found = 0;
        while (!found && (p = strstr(p, r->rows[k].backend)) != NULL) {
            found = (p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0');
            p += len;
        }
        if (found)
            r->rows[kept++] = r->rows[k];
    }
    r->count = kept;
}

int nb_cmd_report(int argc, char **argv)
{
    const char *plot = NULL, *backends = NULL;
    const char *paths[NB_REPORT_MAX];
    size_t count = 0;
    struct nb_error err = { 0 };
    for (int a = 0; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            printf("usage: glnbody report A.json [B.json ...] [--backend LIST] "
                   "[--plot FILE.png]\n\n"
                   "Prints the reports of glnbody bench --report side by side: for each "
                   "kernel and N, each machine's best row, its rate, the ratio to the first "
                   "report and its error.\n\noptions:\n"
                   "  %-28s %s\n  %-28s %s\n  %-28s %s\n", "--backend LIST",
                   "only the rows of these backends (cpu, compute, fragment)",
                   "--plot FILE.png",
                   "also draw interactions/s against N, one line per machine and backend "
                   "(cairo)", "--help", "print this help");
            return 0;
        }
        int is_plot = strcmp(argv[a], "--plot") == 0 || strncmp(argv[a], "--plot=", 7) == 0;
        int is_backend = strcmp(argv[a], "--backend") == 0 ||
                         strncmp(argv[a], "--backend=", 10) == 0;
        if (is_plot || is_backend) {
            const char *name = is_plot ? "--plot" : "--backend";
            size_t len = strlen(name);
            const char **slot = is_plot ? &plot : &backends;
            const char *value = argv[a][len] == '=' ? argv[a] + len + 1
                              : a + 1 < argc ? argv[++a] : NULL;
            if (!value || *slot) {
                nb_error_set(&err, NB_ERR_ARGS, value ? "report: %s given twice"
                             : "report: %s needs a value", name);
                return nb_cli_fail(&err);
            }
            if (is_backend && nb_check_list("backend", value, &err) != NB_OK)
                return nb_cli_fail(&err);
            *slot = value;
        } else if (strncmp(argv[a], "--", 2) == 0) {
            nb_error_set(&err, NB_ERR_ARGS, "report: unknown option '%s' (see glnbody "
                         "report --help)", argv[a]);
            return nb_cli_fail(&err);
        } else if (count == NB_REPORT_MAX) {
            nb_error_set(&err, NB_ERR_ARGS, "report: at most %d reports", NB_REPORT_MAX);
            return nb_cli_fail(&err);
        } else {
            paths[count++] = argv[a];
        }
    }
    if (count == 0) {
        nb_error_set(&err, NB_ERR_ARGS, "report: no report given (glnbody report A.json "
                     "[B.json ...] [--plot FILE.png])");
        return nb_cli_fail(&err);
    }
#ifndef NB_HAVE_PLOTS
    if (plot) {
        nb_error_set(&err, NB_ERR_UNSUPPORTED, "report: --plot is not in this build: it needs "
                     "cairo (pkg-config cairo; Debian: libcairo2-dev), which the build did "
                     "not find; install it and run make again");
        return nb_cli_fail(&err);
    }
#endif
    struct nb_file_use uses[NB_REPORT_MAX + 1] = { { "plot", plot, NB_FILE_OUT, NULL,
                                                     NULL, 0 } };
    for (size_t k = 0; k < count; k++)
        uses[k + 1] = (struct nb_file_use){ "the report", paths[k], NB_FILE_IN, NULL, NULL, 0 };
    if (nb_check_file_uses("report", uses, count + 1, &err) != NB_OK)
        return nb_cli_fail(&err);
    struct nb_report rs[NB_REPORT_MAX];
    size_t read = 0;
    for (; read < count; read++) {
        if (nb_report_read(paths[read], &rs[read], &err) != NB_OK)
            break;
        if (backends)
            keep_backends(&rs[read], backends);
    }
    size_t nkeys = 0;
    struct key *keys = err.status == NB_OK ? collect_keys(rs, count, &nkeys) : NULL;
    if (err.status == NB_OK && !keys)
        nb_error_set(&err, NB_ERR_NOMEM, "out of host memory");
    if (err.status == NB_OK) {
        print_table(rs, count, keys, nkeys);
#ifdef NB_HAVE_PLOTS
        if (plot && nb_report_plot(plot, rs, count, &err) == NB_OK)
            fprintf(stderr, "glnbody: report: plot written to %s\n", plot);
#endif
    }
    free(keys);
    for (size_t r = 0; r < read; r++)
        nb_report_free(&rs[r]);
    return err.status == NB_OK ? 0 : nb_cli_fail(&err);
}
