/* md_cli.h - glnbody md's parts: the command line (md_options.c), the
 * output files and reports (md_outputs.c), the system (md_system.c) and
 * the run loop (cmd_md.c).  glnbody view md shares the command line and
 * the system (cmd_view.c, view_md.c). */
#ifndef NB_MD_CLI_H
#define NB_MD_CLI_H

#include "cli.h"
#include "frames.h"
#include "ckpt_text.h"

/* The options as typed. */
struct md_args {
    const char *input, *ic, *cells, *density, *temperature, *seed, *energy, *lattice;
    const char *box[6], *periodic, *potential, *coeffs, *dielectric, *sigmoid;
    const char *cutoff, *cell_list, *dt, *steps, *thermo_every, *thermo, *integrals;
    const char *dump, *dump_every, *dump_format, *backend, *output, *timing, *exclude;
    const char *precision;
    const char *checkpoint, *checkpoint_every, *restart;
    int shift, per_atom;
    struct nb_gl_cli gl;
    struct nb_cli_frames frames;    /* --frames, --movie (frames.c) */
};

/* The options checked and converted. */
struct md_config {
    const char *input, *ic;
    long cells;
    double density, temperature, energy, lattice;
    uint64_t seed;
    int have_box, have_periodic, periodic[3];
    double box[6];
    struct nb_md_potential pot;
    const char *coeffs;
    int cell_list;              /* -1: decide from the geometry */
    double dt;
    uint64_t steps, thermo_every, dump_every;
    const char *thermo, *integrals, *dump, *output, *timing, *exclude;
    enum nb_engine backend;
    int dump_xyz, per_atom;
    int have_precision;         /* --precision: the engine's mode (it may refuse) */
    enum nb_precision precision;
    struct nb_cli_frames *frames;   /* the md_args' */
    const char *checkpoint;     /* NULL: none */
    uint64_t checkpoint_every;  /* steps; 0: only on a signal and at the end */
    const struct md_args *args; /* as typed (and completed by a restart) */
    struct md_restart *restart; /* NULL: a fresh run */
};

/* Where the long outputs stood at a checkpoint, so that a restart
 * continues each where it was: length and hash (size -1: none or not a
 * regular file; -2: an older checkpoint that records no hash). */
struct md_resume {
    struct nb_outfile_mark thermo, integrals, dump;
    double first_etotal;        /* the total energy at step 0 (the drift) */
};

/* A checkpoint being continued (md_checkpoint.c). */
struct md_restart {
    struct ckpt_text opts;      /* the program's section of the checkpoint */
    struct md_resume resume;
    uint64_t step;              /* the step it was taken at */
    size_t n_excluded;
    struct md_args typed;       /* the options as given on the restart */
};

/* Parses argv (--help sets *help and prints the help), then checks every
 * value before anything is read or created. */
enum nb_status nb_md_options_parse(struct md_args *a, struct md_config *c, int argc,
                                   char **argv, int *help, struct nb_error *err);

/* glnbody view md: md's options (the same table and checks), with the
 * window's own (extra, a NULL-name-terminated table) after them; the
 * options that write files or choose a context (--thermo, --dump,
 * --output, --frames, --checkpoint, --gpu, ...) are refused, naming
 * `glnbody md`.  --steps, when given, is where the window stops stepping
 * (else c->steps is UINT64_MAX).  --help calls print_view_help with the
 * joined table. */
enum nb_status nb_md_options_parse_view(struct md_args *a, struct md_config *c,
                                        const struct nb_option *extra,
                                        void (*print_view_help)(const struct nb_option *table),
                                        int argc, char **argv, int *help,
                                        struct nb_error *err);

/* The system the options describe (md_system.c): the checkpoint's on a
 * restart, else made from the options (with the --coeffs table, the
 * --exclude pairs and the box options) and prepared (checked), before any
 * GL work; p (freed by the caller) and box receive the particle set and
 * the box.  nb_md_start then starts it on an engine. */
enum nb_status nb_md_cli_make_system(struct md_config *c, struct nb_md **md,
                                     struct nb_particles *p, struct nb_md_box *box,
                                     size_t *n_excluded, struct nb_error *err);

/* The output files of a run, open until committed or aborted.  The thermo,
 * integrals and dump files are published (under their final names) once
 * the run is under way and keep whole rows on disk as they go. */
struct nb_md_outputs {
    struct nb_outfile thermo, integrals, dump, timing;
    struct nb_outfile final;    /* --output, opened at the end */
    int thermo_open, integrals_open, dump_open, timing_open;
    struct nb_md_thermo first, last;
    struct md_resume mark;      /* the files' lengths for the next checkpoint */
    int marked;                 /* 1: mark taken before an end-of-run row */
    int64_t saved_step;         /* step of the last checkpoint; -1: none */
    int interrupted;            /* the signal that stopped the run, or 0 */
    struct nb_md_box box;       /* the run's box, for the dumps */
    size_t n_excluded;          /* --exclude's pairs, for the summary */
};
enum nb_status nb_md_outputs_open(struct nb_md_outputs *o, const struct md_config *c,
                                  struct nb_error *err);
/* The files written only at the end (--timing, --output), opened then, so
 * that a killed run leaves no temporary file of theirs (their paths were
 * checked by nb_md_outputs_open). */
enum nb_status nb_md_outputs_open_late(struct nb_md_outputs *o, const struct md_config *c,
                                       struct nb_error *err);
void nb_md_outputs_abort(struct nb_md_outputs *o);
/* Flushes the long outputs (with sync: onto the disk) and puts their
 * lengths in o->mark. */
enum nb_status nb_md_outputs_mark(struct nb_md_outputs *o, int sync, struct nb_error *err);
/* Publishes the long outputs: from here on a killed run keeps its rows. */
enum nb_status nb_md_outputs_publish(struct nb_md_outputs *o, struct nb_error *err);
/* Thermo and dump rows due at the run's step.  p is the run's particle
 * set (ids, types, masses, charges); its x and v receive the state. */
enum nb_status nb_md_write_due(struct nb_md_outputs *o, const struct md_config *c,
                               struct nb_md *md, struct nb_particles *p,
                               struct nb_error *err);
/* The next step with an output, at most the last. */
uint64_t nb_md_next_output(const struct md_config *c, uint64_t step);
/* The --output snapshot, then every file renamed into place. */
enum nb_status nb_md_outputs_commit(struct nb_md_outputs *o, const struct md_config *c,
                                    struct nb_md *md, struct nb_particles *p,
                                    struct nb_error *err);
/* One CSV row for the benchmark scripts (--timing). */
void nb_md_write_timing(struct nb_md_outputs *o, const struct md_config *c,
                        const struct nb_md *md, double seconds);
/* The run's summary: system, engine, rate, energy drift, device seconds. */
void nb_md_print_summary(FILE *fp, const struct md_config *c, const struct nb_md *md,
                         const struct nb_md_outputs *o, double seconds);

/* ---- checkpoints and restarts (md_checkpoint.c) ---- */

/* --restart FILE, after parsing and before checking: reads the checkpoint's
 * options, refuses a trajectory option given again with another value,
 * and completes a with the options not given again. */
enum nb_status nb_md_restart_open(struct md_args *a, struct md_restart **r,
                                  struct nb_error *err);
/* After checking: --steps must pass the saved step (equal: nothing to
 * do, refused), and each long output the restart continues must be the
 * file the checkpoint's run wrote (NB_ERR_IO naming it); c->restart set. */
enum nb_status nb_md_restart_apply(struct md_config *c, struct md_restart *r,
                                   struct nb_error *err);
/* Says what differs from the checkpoint's run (backend, precision,
 * renderer): the results will differ then. */
void nb_md_restart_notes(const struct md_config *c, const char *renderer);
void nb_md_restart_free(struct md_restart *r);
/* m when a restart writes the file of option key at the same file as the
 * checkpoint's run did (it then continues that file), else NULL. */
const struct nb_outfile_mark *nb_md_resume_mark(const struct md_config *c, const char *key,
                                                const char *path,
                                                const struct nb_outfile_mark *m);
/* Appends to err's message how to go on when the file of option key is
 * not the one the checkpoint's run wrote. */
void nb_md_explain_resume(const struct md_config *c, const char *key, struct nb_error *err);
/* The step at which the run must stop next for a checkpoint (or `next`). */
uint64_t nb_md_next_save(const struct md_config *c, uint64_t step, uint64_t next);
/* After the outputs of a step: a checkpoint at each --checkpoint-every,
 * and one when SIGINT or SIGTERM asks the run to stop (o->interrupted). */
enum nb_status nb_md_save_due(struct nb_md_outputs *o, const struct md_config *c,
                              struct nb_md *md, const struct nb_particles *p,
                              struct nb_error *err);
/* The checkpoint at the end, which --restart F --steps N continues. */
enum nb_status nb_md_save_final(struct nb_md_outputs *o, const struct md_config *c,
                                struct nb_md *md, const struct nb_particles *p,
                                struct nb_error *err);
void nb_md_say_interrupted(const struct nb_md_outputs *o, const struct md_config *c,
                           const struct nb_md *md);
/* Appends the checkpoint to go back to (a non-finite value, a failed write). */
void nb_md_name_last_checkpoint(const struct nb_md_outputs *o, const struct md_config *c,
                                struct nb_error *err);

#endif
