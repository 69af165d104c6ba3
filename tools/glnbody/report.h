/* report.h - self-describing benchmark reports (glnbody bench --report)
 * and their comparison (glnbody report).
 *
 * A report is one JSON file, written with jansson: what made it (glnbody's
 * version and git commit, the exact command), the machine (GL vendor,
 * renderer, version, GLSL, API level, EGL device and driver, the limits
 * the kernels meet, CPU model and cores, OS and kernel), and the rows:
 * kernel, backend, variant, precision, N, minimum/median/maximum seconds,
 * the rate, GFLOP/s with the flop convention named, and the error against
 * the double-precision CPU reference.  The Phoronix Test Suite keeps such
 * a system table with every result; clpeak and glmark2 print a score and
 * forget the machine. */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include "cli.h"

/* The report format; `glnbody report` reads only this version. */
#define NB_REPORT_FORMAT "glnbody-report"
#define NB_REPORT_VERSION 1

/* What `glnbody bench --report FILE` measures. */
struct nb_report_request {
    const char *path;               /* FILE.json */
    const char *kernels;            /* "ga,gaj,md" (default ga) */
    const char *backends;           /* default compute */
    const char *variants;           /* default auto */
    const char *precisions;         /* default A */
    const char *n_list;
    long runs, warmup, seed;
    double eps;
    const struct nb_gl_cli *gl;
    int argc;                       /* the bench command's arguments */
    char **argv;
};
enum nb_status nb_report_bench(const struct nb_report_request *q, struct nb_error *err);

/* glnbody report A.json B.json ... [--plot FILE.png] */
int nb_cmd_report(int argc, char **argv);

/* ---- report_machine.c: the machine and software sections ---- */

struct json_t;
/* {"cpu": {...}, "os": {...}, "host": ..., "gl": {...}} of this machine and
 * gl (NULL for a CPU-only report); NULL with NB_ERR_NOMEM. */
struct json_t *nb_report_machine(struct nb_gl *gl, struct nb_error *err);
/* {"name", "version", "commit", "command"}: the command from argv. */
struct json_t *nb_report_software(int argc, char **argv, struct nb_error *err);

/* ---- report_read.c: reading reports back ---- */

/* One row as `glnbody report` uses it. */
struct nb_report_row {
    char kernel[8], backend[16], variant[48], precision[4];
    double n, median, rate, gflops, error;
};
/* One report: a label for its machine and its rows. */
struct nb_report {
    char path[256];
    char label[160];                /* "llvmpipe, OpenGL 4.5 core" */
    struct nb_report_row *rows;
    size_t count;
};
/* Reads and checks path: NB_ERR_PARSE naming the file for a file that is
 * not JSON (with jansson's line and column), that is cut short, that is
 * not a glnbody report, or a report of another version. */
enum nb_status nb_report_read(const char *path, struct nb_report *r, struct nb_error *err);
void nb_report_free(struct nb_report *r);

/* ---- report_plot.c ---- */

/* Interactions/s (atom-steps/s for MD) against N, log-log, one line per
 * machine and backend (its best variant at each N), written as PNG with
 * cairo through nb_outfile (all or nothing). */
enum nb_status nb_report_plot(const char *path, const struct nb_report *reports,
                              size_t count, struct nb_error *err);

#endif
