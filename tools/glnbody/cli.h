/* cli.h - the command-line program: option tables and the commands. */
#ifndef NB_CLI_H
#define NB_CLI_H

#include <stdio.h>

#include "glnbody.h"    /* the one project header the program sees */

/* One --option of a command.  Options with a value store the string in
 * *value; flags set *flag to 1. */
struct nb_option {
    const char *name;           /* without the leading -- */
    const char *metavar;        /* NULL for a flag */
    const char *help;
    const char **value;
    int *flag;
};

/* Parses argv[first..argc) against a NULL-name-terminated table.  --help
 * sets *help.  Errors name the option and point at `glnbody CMD --help`. */
enum nb_status nb_options_parse(const char *command, const struct nb_option *table,
                                int argc, char **argv, int *help,
                                struct nb_error *err);
/* Prints "usage" and the table, one option a line. */
void nb_options_print(FILE *out, const char *usage, const char *summary,
                      const struct nb_option *table);

/* Checked conversions; errors name the option and the value. */
enum nb_status nb_parse_double(const char *option, const char *text, double min,
                               double *out, struct nb_error *err);
enum nb_status nb_parse_long(const char *option, const char *text, long min,
                             long max, long *out, struct nb_error *err);
/* A comma-separated list with no empty item ("", "a,,b", ",a", "a,"):
 * an empty item is refused rather than skipped. */
enum nb_status nb_check_list(const char *option, const char *text,
                             struct nb_error *err);
/* A comma-separated list of integers >= min into a new array. */
enum nb_status nb_parse_long_list(const char *option, const char *text, long min,
                                  long max, long **out, size_t *count,
                                  struct nb_error *err);

/* --quiet, which every command takes: what it silences, said once. */
#define NB_QUIET_HELP "print nothing on stderr but errors: no progress bar or " \
    "progress lines, no renderer line, no summary that would go to stderr; " \
    "results on stdout and in files stay"
#define NB_QUIET_OPTION(flag) { "quiet", NULL, NB_QUIET_HELP, NULL, &(flag) }

/* The GL options every GPU command takes: --gpu, --api, --gl-version,
 * --debug, --shaders, and --quiet (here because it also silences the
 * renderer line). */
struct nb_gl_cli {
    const char *gpu, *shaders, *api, *gl_version;
    int debug, quiet;
};
#define NB_GL_OPTIONS(g)                                                          \
    { "gpu", "N", "EGL device to use (default: the first that works; under " \
      "mpirun, the node-local rank modulo the devices)", &(g).gpu, NULL },      \
    { "api", "gl|gles", "OpenGL (core) or OpenGL ES only (default: OpenGL 4.3, 3.3, " \
      "then ES 3.2, 3.1, 3.0)", &(g).api, NULL },                                \
    { "gl-version", "X.Y", "exactly this version (OpenGL 3.3-4.6, ES 3.0-3.2; " \
      "alone, below 3.3 means ES); no more is used even if the driver gives it", \
      &(g).gl_version, NULL },                                                   \
    { "shaders", "auto|spirv|glsl", "load SPIR-V or GLSL shaders (default auto: " \
      "SPIR-V when GL_ARB_gl_spirv is there)", &(g).shaders, NULL },            \
    { "debug", NULL, "print GL_KHR_debug messages (also GLNBODY_DEBUG=1)", NULL, &(g).debug }, \
    NB_QUIET_OPTION((g).quiet)
/* The EGL device opened when --gpu is not given: -1 (the first that
 * works), or under mpirun this rank's (main sets it from nb_mpi_device). */
extern int nb_gl_cli_default_device;
/* Set by main under mpirun: this rank for error messages (-1: a single
 * process), and what every rank does once it has made its GL context (the
 * report of each rank's device, mpi_world.c); the parsers' fuzz drivers
 * link this file without MPI. */
extern int nb_cli_rank;
extern void (*nb_cli_context_made)(int device, int quiet);

/* Checks the GL options' values without opening a context. */
enum nb_status nb_gl_cli_validate(const struct nb_gl_cli *g, struct nb_error *err);
/* Creates the context the options ask for. */
enum nb_status nb_gl_cli_create(const struct nb_gl_cli *g, struct nb_gl **gl,
                                struct nb_error *err);

/* The largest |x|, |v|, m or softening engine's arithmetic takes: a
 * quarter of the square root of its largest number (double on the CPU,
 * float on the GPU engines), so that squared separations, speeds and
 * their sums stay finite.  nb_check_range refuses (NB_ERR_ARGS, naming
 * the option or the file and particle, the value and the bound) a
 * softening, or with p a particle, beyond it; p may be NULL. */
double nb_range_bound(enum nb_engine engine);
enum nb_status nb_check_range(const char *path, const struct nb_particles *p,
                              double eps, enum nb_engine engine, struct nb_error *err);

/* Refuses (NB_ERR_PARSE, naming path and both ids) two particles of p at
 * one position when eps is 0: their force would print as NaN. */
enum nb_status nb_check_no_coincident(const char *path, const struct nb_particles *p,
                                      double eps, struct nb_error *err);
/* calloc that reports exhaustion through err ("out of host memory
 * allocating WHAT ..."); NULL on failure. */
void *nb_cli_alloc(size_t count, size_t size, const char *what, struct nb_error *err);

/* The CPU reference of a GA evaluation in double: acc (3n), pot (n), and
 * the pair-magnitude sums the error bounds are relative to. */
struct nb_reference {
    double *acc, *pot, *acc_abs, *pot_abs;
};
enum nb_status nb_reference_make(struct nb_reference *r, const struct nb_particles *p,
                                 double eps, struct nb_error *err);
void nb_reference_free(struct nb_reference *r);

/* Opens the GL context the engine needs (compute, fragment) where *gl has
 * none yet (once for several engines); nothing for the CPU. */
enum nb_status nb_gl_cli_open(enum nb_engine engine, const struct nb_gl_cli *g,
                              struct nb_gl **gl, struct nb_error *err);
/* The force engine that --backend chose (nb_engine_parse compares the name
 * once, in the option checks; what the engine can do is asked of it
 * afterwards: nb_forces_caps), its context opened first where needed. */
enum nb_status nb_forces_open(struct nb_forces **f, enum nb_engine engine,
                              const struct nb_gl_cli *g, struct nb_gl **gl,
                              struct nb_error *err);

int nb_cmd_forces(int argc, char **argv);
int nb_cmd_bench(int argc, char **argv);
int nb_cmd_compare(int argc, char **argv);
int nb_cmd_shaders(int argc, char **argv);
int nb_cmd_run(int argc, char **argv);
int nb_cmd_precision(int argc, char **argv);
int nb_cmd_md(int argc, char **argv);
/* glnbody newton3: Table 5 of Boyarchenkov & Potashnikov 2009, the triangular
 * kernels against the square loop. */
int nb_cmd_newton3(int argc, char **argv);

/* glnbody help CMD: the manual page's section "glnbody CMD" as plain text
 * (man_text.c), followed by NB_MAN_GL_OPTIONS where gl_options is set.
 * The page is the installed one, <bindir>/../share/man/man1/glnbody.1, or
 * else the build tree's tools/glnbody/glnbody.1 (nb_man_page_path). */
#define NB_MAN_GL_OPTIONS "Options of every GL command"
const char *nb_man_page_path(void);
enum nb_status nb_man_print_command(const char *command, int gl_options, FILE *out,
                                    struct nb_error *err);

/* The progress of a long command on stderr (progress.c): a bar redrawn in
 * place on a terminal, one line per checkpoint elsewhere, nothing with
 * --quiet.  The caller owns the struct; a zeroed one is off (finish and
 * clear do nothing), so an error path may finish one never started. */
enum nb_progress_mode { NB_PROGRESS_OFF, NB_PROGRESS_BAR, NB_PROGRESS_LINES };
struct nb_progress {
    const char *command;        /* "run": "run [###...] ...", "glnbody run: ..." */
    const char *done_name;      /* what done counts: "t =", "step", "row" */
    const char *rate_name;      /* the rate's unit: "block steps/s" */
    enum nb_progress_mode mode;
    double wall0, drawn_at;     /* nb_clock_seconds() at start, at the last draw */
    double done, total, count;  /* the last update */
    int shown;                  /* characters of the bar on screen; 0: none */
};
/* Flags of nb_progress_start. */
#define NB_PROGRESS_QUIET 1             /* --quiet: nothing at all */
#define NB_PROGRESS_ROWS_ON_STDOUT 2    /* the command prints each checkpoint's row
                                           on stdout: no lines when stderr is the
                                           same file */
/* Chooses the mode from stderr (a terminal or not) and the flags, and on
 * a terminal draws the bar at 0 of total. */
void nb_progress_start(struct nb_progress *p, const char *command, const char *done_name,
                       const char *rate_name, double total, int flags);
/* done of total (the bar, the percentage and the time left), count of the
 * rate's unit since start.  checkpoint: a log or table row, one line when
 * not on a terminal; on a terminal the bar is redrawn if it is due. */
void nb_progress_update(struct nb_progress *p, double done, double total, double count,
                        int checkpoint);
/* Erases the bar before the command writes to the terminal (rows on
 * stdout); the next update draws it again. */
void nb_progress_clear(struct nb_progress *p);
/* Draws the bar a last time and ends its line. */
void nb_progress_finish(struct nb_progress *p);

/* Prints "glnbody: <message>" to stderr; returns the exit status: 2 for a
 * bad command line, 1 for any other failure. */
int nb_cli_fail(const struct nb_error *err);

#endif
