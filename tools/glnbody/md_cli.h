/* md_cli.h - glnbody md's parts: the command line (md_options.c), the
 * output files and reports (md_outputs.c), the system and the run loop
 * (cmd_md.c). */
#ifndef NB_MD_CLI_H
#define NB_MD_CLI_H

#include "cli.h"
#include "frames.h"

/* The options as typed. */
struct md_args {
    const char *input, *ic, *cells, *density, *temperature, *seed, *energy, *lattice;
    const char *box[6], *periodic, *potential, *coeffs, *dielectric, *sigmoid;
    const char *cutoff, *cell_list, *dt, *steps, *thermo_every, *thermo, *integrals;
    const char *dump, *dump_every, *dump_format, *backend, *output, *timing, *exclude;
    const char *precision;
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
};

/* Parses argv (--help sets *help and prints the help), then checks every
 * value before anything is read or created. */
enum nb_status nb_md_options_parse(struct md_args *a, struct md_config *c, int argc,
                                   char **argv, int *help, struct nb_error *err);

/* The output files of a run, open until committed or aborted. */
struct nb_md_outputs {
    struct nb_outfile thermo, integrals, dump, timing;
    struct nb_outfile final;    /* --output, opened before the run */
    int thermo_open, integrals_open, dump_open, timing_open;
    struct nb_md_thermo first, last;
    struct nb_md_box box;       /* the run's box, for the dumps */
    size_t n_excluded;          /* --exclude's pairs, for the summary */
};
enum nb_status nb_md_outputs_open(struct nb_md_outputs *o, const struct md_config *c,
                                  struct nb_error *err);
void nb_md_outputs_abort(struct nb_md_outputs *o);
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

#endif
