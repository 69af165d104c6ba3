/* run_cli.h - glnbody run's parts: the command line and the run
 * (cmd_run.c), checkpoints and restarts (run_checkpoint.c). */
#ifndef NB_RUN_CLI_H
#define NB_RUN_CLI_H

#include "ckpt_text.h"
#include "frames.h"

/* The options as typed. */
struct run_args {
    const char *input, *ic, *n, *seed, *t_end, *eta, *softening, *dt_max;
    const char *backend, *variant, *predict, *correct, *energy_log, *log_every;
    const char *snapshot_every, *snapshot_dir, *output, *precision, *positions;
    const char *checkpoint, *checkpoint_every, *restart;
    int shared_dt;
    struct nb_gl_cli gl;
    struct nb_cli_frames frames;
};

/* The options checked and converted. */
struct run_config {
    const char *input;          /* NULL: a Plummer sphere of n, seed */
    size_t n;
    uint64_t seed;
    double t_end;
    struct nb_hermite_params par;
    enum nb_engine backend;
    const char *variant;
    enum nb_precision precision;    /* of the GAJ kernel (NB_FORCES_GAJ_MODES) */
    const char *energy_log, *snapshot_dir, *output;
    double log_every, snapshot_every;   /* 0: none */
    struct nb_cli_frames *frames;   /* --frames, --movie (frames.c) */
    double progress_every;      /* progress checkpoints: the log rows' times,
                                   or (no log) a few dozen in all */
    int quiet;
    const char *checkpoint;     /* NULL: none */
    double checkpoint_every;    /* 0: only on a signal and at the end */
    const struct run_args *args;    /* as typed (and completed by a restart) */
    struct run_restart *restart;    /* NULL: a fresh run */
};

/* What the outputs had done when a checkpoint was taken, so that a
 * restarted run writes exactly the rows and snapshots still due. */
struct run_resume {
    double e0;              /* E at t = 0, the energy log's reference */
    uint64_t log_k, snap_k; /* the next log row and snapshot */
    struct nb_outfile_mark log;     /* the energy log's length and hash
                                       then; size -1: no file of its own */
    int log_known;          /* the checkpoint records the log's hash (an
                               older glnbody's does not) */
};

/* A checkpoint being continued: its options and the outputs' state. */
struct run_restart {
    struct ckpt_text opts;  /* the program's section of the checkpoint */
    uint64_t n;             /* its particle count */
    struct run_resume resume;
    double t;               /* the block time it was taken at */
    struct run_args typed;  /* the options as given on the restart */
};

/* Everything written while the run goes on. */
struct outputs {
    const struct run_config *c;
    struct nb_outfile log;      /* fp NULL: no energy log */
    struct nb_outfile final;    /* --output, opened at the end; fp NULL: none */
    uint64_t log_k, snap_k;     /* index of the next log row and snapshot */
    uint64_t progress_k;        /* index of the next progress checkpoint */
    struct nb_progress bar;     /* on stderr (progress.c) */
    struct nb_diag first, last; /* the exact rows at 0 and t_end: each
                                   costs an O(n^2) sum, so made once */
    int have_last;
    double e0;                  /* E at t = 0, in double */
    double *x, *v;              /* every particle predicted to an output time */
    uint64_t save_k;            /* index of the next --checkpoint-every */
    double saved_t;             /* block time of the last checkpoint; < 0: none */
    struct run_resume resume;   /* the outputs' state as a checkpoint holds it */
    int interrupted;            /* the signal that stopped the run, or 0 */
    double seconds;             /* wall time spent on outputs */
    double energy_seconds;      /* of which the exact energies at the start
                                   and the end (O(N^2), shared over ranks) */
    char variant[64];           /* the GAJ variant of the last block step
                                   (diagnostics may run other kernels) */
};

/* --restart FILE: reads and checks the checkpoint, refuses --input, --ic,
 * --n and --seed, and completes a (options not given again) from it.  The
 * caller then checks a as for a fresh run, then calls nb_run_restart_check. */
enum nb_status nb_run_restart_open(struct run_args *a, struct run_restart **r,
                                   struct nb_error *err);
/* Refuses (NB_ERR_ARGS) a trajectory option given again with another value
 * and a --t-end before the checkpoint, and (NB_ERR_IO) an energy log to
 * continue that is not the file the checkpoint's run wrote; sets
 * c->restart (and the source of the summary line). */
enum nb_status nb_run_restart_check(struct run_config *c, struct run_restart *r,
                                    struct nb_error *err);
/* NB_ERR_ARGS where the restored run h keeps another position format than
 * c asks for (a restart keeps the saved run's). */
enum nb_status nb_run_check_positions(const struct run_config *c, const struct nb_hermite *h,
                                      struct nb_error *err);
/* Says on stderr what differs from the checkpoint's run (backend, precision,
 * prediction, variant, renderer): the results will differ then. */
void nb_run_restart_notes(const struct run_config *c, const char *renderer);
void nb_run_restart_free(struct run_restart *r);

/* --checkpoint FILE [--checkpoint-every DT]: a file, not stdout. */
enum nb_status nb_run_check_checkpoint(const struct run_args *a, struct run_config *c,
                                       struct nb_error *err);
/* The outputs' indices at the start (time t): the next checkpoint and
 * progress mark; on a restart (returns 1) also E0, the next log row and
 * snapshot from the checkpoint. */
int nb_run_resume_outputs(struct outputs *o, double t);
/* Where the outputs stand now (the energy log flushed), for a checkpoint. */
enum nb_status nb_run_resume_mark(struct outputs *o, struct nb_error *err);
/* Between block steps (the state at the block time, the outputs before the
 * next block time written): a checkpoint at each --checkpoint-every, and
 * one when SIGINT or SIGTERM asks the run to stop (o->interrupted). */
enum nb_status nb_run_save_due(struct nb_hermite *h, struct nb_forces *f, struct outputs *o,
                               double next, struct nb_error *err);
/* The checkpoint at the end (with the mark taken before finish()'s row at
 * t_end), which a longer run (--restart F --t-end T) continues from. */
enum nb_status nb_run_save_final(struct nb_hermite *h, struct nb_forces *f,
                                 struct outputs *o, struct nb_error *err);
/* The index of the first output time k * every at or after t, after t. */
uint64_t nb_run_first_at_or_after(double t, double every);
uint64_t nb_run_first_after(double t, double every);
/* The run stopped by a signal: where it stopped and how to continue. */
void nb_run_say_interrupted(const struct nb_hermite *h, const struct outputs *o);
/* Appends to err's message the checkpoint to go back to after a run
 * stopped by a non-finite value or a failed write. */
void nb_run_name_last_checkpoint(const struct outputs *o, struct nb_error *err);

/* The energy log as the checkpoint's run left it, where the restart
 * continues that log (at the same file), else NULL (a new log). */
const struct nb_outfile_mark *nb_run_log_to_continue(const struct run_config *c);
/* Appends to err's message how to go on when the restart's energy log is
 * not the checkpoint's. */
void nb_run_explain_log(const struct run_config *c, struct nb_error *err);

/* The outputs (run_outputs.c).  "-" is stdout, which --output may name. */
int nb_run_is_stdout(const char *path);
/* Opens the energy log (continued on a restart), makes the snapshot
 * directory and checks --output, before the run; close aborts what was
 * not committed. */
enum nb_status nb_run_outputs_open(struct outputs *o, const struct run_config *c,
                                   size_t n, struct nb_error *err);
void nb_run_outputs_close(struct outputs *o);
/* The energy-log row at t (the state predicted to t in o->x, o->v). */
enum nb_status nb_run_write_row(struct nb_hermite *h, struct outputs *o, double t,
                                struct nb_error *err);
/* The log rows and snapshots due before `before`, from states predicted
 * to their times. */
enum nb_status nb_run_write_due(struct nb_hermite *h, struct outputs *o,
                                double before, struct nb_error *err);
/* The final state at t_end into --output. */
enum nb_status nb_run_print_final(struct nb_hermite *h, struct outputs *o,
                                  struct nb_error *err);

#endif
