/* md_options.c - glnbody md's command line: every option parsed and
 * checked before anything is read or created (exit 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "md_cli.h"

#define DEFAULT_CELLS 4             /* 256 atoms of fcc */
#define DEFAULT_DENSITY 0.8442      /* LAMMPS' bench/in.lj */
#define DEFAULT_TEMPERATURE 1.0
#define DEFAULT_DT 0.005
#define DEFAULT_STEPS 100
#define DEFAULT_LATTICE 1.0
#define MAX_CELLS 1000              /* 4e9 atoms: a typo, not a wish */

static enum nb_status parse_positive(const char *option, const char *text, double *out,
                                     struct nb_error *err)
{
    if (nb_parse_double(option, text, 0.0, out, err) != NB_OK)
        return err->status;
    if (!(*out > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "--%s: %s must be > 0", option, text);
    return NB_OK;
}

static enum nb_status parse_count(const char *option, const char *text, long min,
                                  uint64_t *out, struct nb_error *err)
{
    long v;
    if (nb_parse_long(option, text, min, 1000000000L, &v, err) != NB_OK)
        return err->status;
    *out = (uint64_t)v;
    return NB_OK;
}

/* --input or --ic with the generator's own options. */
static enum nb_status check_source(const struct md_args *a, struct md_config *c,
                                   struct nb_error *err)
{
    long seed = 1;
    int generated = a->cells || a->density || a->temperature || a->seed || a->energy ||
                    a->lattice;
    if (a->input && (a->ic || generated))
        return nb_error_set(err, NB_ERR_ARGS, "md: --input excludes --ic and its "
                            "options (--cells, --density, --temperature, --seed, "
                            "--energy, --lattice)");
    c->input = a->input;
    c->ic = a->input ? NULL : a->ic ? a->ic : "fcc";
    if (c->ic && strcmp(c->ic, "fcc") != 0 && strcmp(c->ic, "grid") != 0 &&
        strcmp(c->ic, "ionic") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "--ic: unknown initial conditions '%s' "
                            "(fcc, grid or ionic)", c->ic);
    c->cells = DEFAULT_CELLS;
    c->density = DEFAULT_DENSITY;
    c->temperature = DEFAULT_TEMPERATURE;
    c->lattice = DEFAULT_LATTICE;
    c->energy = NAN;
    if ((a->cells && nb_parse_long("cells", a->cells, 1, MAX_CELLS, &c->cells, err) != NB_OK) ||
        (a->density && parse_positive("density", a->density, &c->density, err) != NB_OK) ||
        (a->temperature && nb_parse_double("temperature", a->temperature, 0.0,
                                           &c->temperature, err) != NB_OK) ||
        (a->lattice && parse_positive("lattice", a->lattice, &c->lattice, err) != NB_OK) ||
        (a->energy && nb_parse_double("energy", a->energy, -INFINITY, &c->energy, err) != NB_OK) ||
        (a->seed && nb_parse_long("seed", a->seed, 0, 0x7fffffffL, &seed, err) != NB_OK))
        return err->status;
    c->seed = (uint64_t)seed;
    if (c->ic && strcmp(c->ic, "grid") == 0 && !a->energy)
        return nb_error_set(err, NB_ERR_ARGS, "md: --ic grid needs --energy E (the "
                            "total energy the velocities are scaled to)");
    if (c->ic && strcmp(c->ic, "grid") != 0 && a->energy)
        return nb_error_set(err, NB_ERR_ARGS, "md: --energy belongs to --ic grid");
    return NB_OK;
}

/* --box and --periodic. */
static enum nb_status check_box(const struct md_args *a, struct md_config *c,
                                struct nb_error *err)
{
    static const char axis[] = "xyz";
    c->have_box = a->box[0] != NULL;
    for (int k = 0; c->have_box && k < 6; k++)
        if (nb_parse_double("box", a->box[k], -INFINITY, &c->box[k], err) != NB_OK)
            return err->status;
    for (int k = 0; c->have_box && k < 3; k++)
        if (!(c->box[2 * k] < c->box[2 * k + 1]))
            return nb_error_set(err, NB_ERR_ARGS, "--box: %clo %g is not below %chi %g",
                                axis[k], c->box[2 * k], axis[k], c->box[2 * k + 1]);
    c->have_periodic = a->periodic != NULL;
    if (!a->periodic || strcmp(a->periodic, "none") == 0)
        return NB_OK;
    for (const char *s = a->periodic; *s; s++) {
        const char *at = strchr(axis, *s);
        if (!at || c->periodic[at - axis])
            return nb_error_set(err, NB_ERR_ARGS, "--periodic: '%s' is not none or a "
                                "set of the axes x, y, z", a->periodic);
        c->periodic[at - axis] = 1;
    }
    return NB_OK;
}

/* Four comma-separated numbers of the sigmoidal dielectric. */
static enum nb_status parse_sigmoid(const char *text, double out[4], struct nb_error *err)
{
    const char *s = text;
    for (int k = 0; k < 4; k++) {
        char *end;
        out[k] = strtod(s, &end);
        if (end == s || !isfinite(out[k]) || (k < 3 ? *end != ',' : *end != '\0'))
            return nb_error_set(err, NB_ERR_ARGS, "--sigmoid: '%s' is not four "
                                "comma-separated numbers a,b,c,d", text);
        s = end + 1;
    }
    return NB_OK;
}

/* --potential and its parameters; the type table is read later. */
static enum nb_status check_potential(const struct md_args *a, struct md_config *c,
                                      struct nb_error *err)
{
    enum nb_md_law law = c->ic && strcmp(c->ic, "ionic") == 0 ? NB_LAW_IONIC : NB_LAW_LJ;
    if (a->potential && nb_md_law_parse(a->potential, &law, err) != NB_OK)
        return err->status;
    nb_md_potential_default(&c->pot, law, 1);
    if (law == NB_LAW_IONIC)
        nb_md_ionic_default(&c->pot);
    c->coeffs = a->coeffs;
    if ((a->dielectric && parse_positive("dielectric", a->dielectric,
                                         &c->pot.dielectric, err) != NB_OK) ||
        (a->sigmoid && parse_sigmoid(a->sigmoid, c->pot.sigmoid, err) != NB_OK) ||
        (a->cutoff && parse_positive("cutoff", a->cutoff, &c->pot.cutoff, err) != NB_OK))
        return err->status;
    if (a->shift && !a->cutoff)
        return nb_error_set(err, NB_ERR_ARGS, "md: --shift needs --cutoff");
    c->pot.shift = a->shift;
    c->cell_list = -1;
    if (a->cell_list && strcmp(a->cell_list, "on") == 0)
        c->cell_list = 1;
    else if (a->cell_list && strcmp(a->cell_list, "off") == 0)
        c->cell_list = 0;
    else if (a->cell_list)
        return nb_error_set(err, NB_ERR_ARGS, "--cells-list: '%s' is not on or off",
                            a->cell_list);
    if (c->cell_list == 1 && !a->cutoff)
        return nb_error_set(err, NB_ERR_ARGS, "md: --cells-list on needs --cutoff");
    return NB_OK;
}

/* Steps, outputs and the backend. */
static enum nb_status check_run(const struct md_args *a, struct md_config *c,
                                struct nb_error *err)
{
    c->dt = DEFAULT_DT;
    c->steps = DEFAULT_STEPS;
    if ((a->dt && parse_positive("dt", a->dt, &c->dt, err) != NB_OK) ||
        (a->steps && parse_count("steps", a->steps, 0, &c->steps, err) != NB_OK))
        return err->status;
    c->thermo_every = c->steps >= 10 ? c->steps / 10 : 1;
    if ((a->thermo_every && parse_count("thermo-every", a->thermo_every, 1,
                                        &c->thermo_every, err) != NB_OK) ||
        (a->dump_every && parse_count("dump-every", a->dump_every, 1,
                                      &c->dump_every, err) != NB_OK))
        return err->status;
    if (!a->dump != !a->dump_every)
        return nb_error_set(err, NB_ERR_ARGS, "md: --dump and --dump-every go together");
    c->dump = a->dump;
    c->dump_xyz = a->dump && (strstr(a->dump, ".xyz") != NULL);
    if (a->dump_format && strcmp(a->dump_format, "xyz") == 0)
        c->dump_xyz = 1;
    else if (a->dump_format && strcmp(a->dump_format, "lammps") == 0)
        c->dump_xyz = 0;
    else if (a->dump_format)
        return nb_error_set(err, NB_ERR_ARGS, "--dump-format: '%s' is not lammps or xyz",
                            a->dump_format);
    c->thermo = a->thermo;
    c->integrals = a->integrals;
    c->output = a->output;
    c->timing = a->timing;
    c->exclude = a->exclude;
    c->per_atom = a->per_atom;
    if (nb_engine_parse(a->backend ? a->backend : "compute", &c->backend,
                               err) != NB_OK ||
        nb_gl_cli_validate(&a->gl, err) != NB_OK)
        return err->status;
    /* Whether the engine has the mode is the engine's to say, once it exists. */
    if (a->precision &&
        nb_precision_parse("--precision", a->precision, &c->precision, err) != NB_OK)
        return err->status;
    c->have_precision = a->precision != NULL;
    return NB_OK;
}

/* --checkpoint FILE [--checkpoint-every K]: a file, not stdout. */
static enum nb_status check_checkpoint(const struct md_args *a, struct md_config *c,
                                       struct nb_error *err)
{
    if (a->checkpoint_every && !a->checkpoint)
        return nb_error_set(err, NB_ERR_ARGS, "md: --checkpoint-every needs --checkpoint");
    if (a->checkpoint && strcmp(a->checkpoint, "-") == 0)
        return nb_error_set(err, NB_ERR_ARGS, "--checkpoint: a checkpoint is binary; "
                            "give a file, not '-'");
    c->checkpoint = a->checkpoint;
    if (a->checkpoint_every && parse_count("checkpoint-every", a->checkpoint_every, 1,
                                           &c->checkpoint_every, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static enum nb_status check_args(const struct md_args *a, struct md_config *c,
                                 struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    c->args = a;
    if (check_source(a, c, err) != NB_OK || check_box(a, c, err) != NB_OK ||
        check_potential(a, c, err) != NB_OK || check_run(a, c, err) != NB_OK ||
        check_checkpoint(a, c, err) != NB_OK)
        return err->status;
    return NB_OK;
}
/* --box takes six values, which the option parser does not do: they are
 * taken out of argv here (into box[]) and the rest returned, NULL with an
 * error when values are missing or --box is repeated. */
static char **extract_box(int argc, char **argv, const char *box[6], int *rest,
                          struct nb_error *err)
{
    char **others = nb_cli_alloc((size_t)argc + 1, sizeof *others, "arguments", err);
    if (!others)
        return NULL;
    *rest = 0;
    for (int k = 0; k < argc; k++) {
        if (strcmp(argv[k], "--box") != 0) {
            others[(*rest)++] = argv[k];
            continue;
        }
        if (box[0] || k + 6 >= argc) {
            free(others);
            nb_error_set(err, NB_ERR_ARGS, box[0] ? "--box given twice" :
                         "--box needs six values: xlo xhi ylo yhi zlo zhi");
            return NULL;
        }
        for (int v = 0; v < 6; v++)
            box[v] = argv[++k];
    }
    return others;
}

static void print_help(const struct nb_option *table)
{
    nb_options_print(stdout, "glnbody md (--input FILE | --ic fcc --cells N --density "
                     "RHO --temperature T --seed S | --ic grid --cells N --density RHO "
                     "--energy E --seed S | --ic ionic --cells N --lattice A) [--box "
                     "xlo xhi ylo yhi zlo zhi] [--periodic xyz|none] --potential "
                     "lj|ljc-constant|ljc-linear|ljc-sigmoidal|ionic [--coeffs FILE] "
                     "[--cutoff RC --shift] [--cells-list on|off] --dt DT --steps N "
                     "[--thermo-every K --thermo FILE] [--integrals FILE] [--per-atom] "
                     "[--dump FILE --dump-every K] [--backend cpu|compute|fragment] "
                     "[--precision A..H] [--output FILE] [--frames DIR --frame-every K "
                     "[--frame-size WxH] [--color speed|potential|type] [--camera D,AZ,EL] "
                     "[--movie FILE.mp4]] [--checkpoint FILE [--checkpoint-every K]] "
                     "[--restart FILE]",
                     "Molecular dynamics in reduced units with velocity Verlet: "
                     "thermo rows step,time,temp,pe,ke,etotal,press (CSV) every K "
                     "steps, trajectories as LAMMPS dump or extended XYZ, the final "
                     "state as a snapshot `id type m x y z vx vy vz`.", table);
    printf("  %-28s %s\n", "--box XLO XHI YLO YHI ZLO ZHI", "box bounds (replace the "
           "source's)");
}

/* The options a window has no use for (view md), each with what to do
 * instead; refused before a --restart completes the rest from its
 * checkpoint (whose file options view md then ignores), and left out of
 * view md's help. */
static const char window_files[] = "writes files, which view md does not: give it to "
                                   "glnbody md";
static const char window_context[] = "chooses a headless context; the window's is the "
                                     "display's (GLFW through EGL)";
static const struct {
    const char *name, *why;
} window_refused[] = {
    { "thermo", window_files }, { "thermo-every", window_files },
    { "integrals", window_files }, { "per-atom", window_files }, { "dump", window_files },
    { "dump-every", window_files }, { "dump-format", window_files },
    { "output", window_files }, { "timing", window_files }, { "checkpoint", window_files },
    { "checkpoint-every", window_files }, { "frames", window_files },
    { "frame-every", window_files }, { "movie", window_files },
    { "frame-size", "is md's picture size; the window's is --size WxH" },
    { "gpu", window_context }, { "api", window_context }, { "gl-version", window_context },
};
#define WINDOW_REFUSED (sizeof window_refused / sizeof *window_refused)

static size_t window_refused_index(const char *name)
{
    size_t k = 0;
    while (k < WINDOW_REFUSED && strcmp(window_refused[k].name, name) != 0)
        k++;
    return k;
}

static enum nb_status refuse_in_window(const struct nb_option *table, struct nb_error *err)
{
    for (; table->name; table++) {
        size_t k = window_refused_index(table->name);
        if (k < WINDOW_REFUSED && (table->value ? *table->value != NULL : *table->flag))
            return nb_error_set(err, NB_ERR_ARGS, "view md: --%s %s", table->name,
                                window_refused[k].why);
    }
    return NB_OK;
}

/* view md's help: the table without the refused rows. */
static void print_window_help(void (*view_help)(const struct nb_option *table),
                              const struct nb_option *table)
{
    size_t n = 0;
    while (table[n].name)
        n++;
    struct nb_option *shown = calloc(n + 1, sizeof *shown);
    if (!shown)
        return;
    for (size_t k = 0, m = 0; k < n; k++)
        if (window_refused_index(table[k].name) == WINDOW_REFUSED)
            shown[m++] = table[k];
    view_help(shown);
    free(shown);
}

/* md's table, with extra's rows after it where there are any (view md). */
static struct nb_option *join_tables(const struct nb_option *md, const struct nb_option *extra,
                                     struct nb_error *err)
{
    size_t n_md = 0, n_extra = 0;
    while (md[n_md].name)
        n_md++;
    while (extra && extra[n_extra].name)
        n_extra++;
    struct nb_option *table = nb_cli_alloc(n_md + n_extra + 1, sizeof *table,
                                           "option table", err);
    if (!table)
        return NULL;
    memcpy(table, md, n_md * sizeof *table);
    if (n_extra)
        memcpy(table + n_md, extra, n_extra * sizeof *table);
    return table;       /* calloc'd: the last row is the terminator */
}

/* md's command line (view: view md's, with the window's extra options). */
static enum nb_status parse(struct md_args *a, struct md_config *c, const struct nb_option *extra,
                            void (*view_help)(const struct nb_option *table), int argc,
                            char **argv, int *help, struct nb_error *err)
{
    const struct nb_option md_table[] = {
        { "input", "FILE", "initial state: a snapshot with a type column, or a LAMMPS "
          "dump (id type x y z ...; box and boundaries from its header)", &a->input, NULL },
        { "ic", "fcc|grid|ionic", "generated initial conditions (default fcc)", &a->ic, NULL },
        { "cells", "N", "unit cells per side (fcc 4 atoms, ionic 12) or grid points "
          "per side (default 4)", &a->cells, NULL },
        { "density", "RHO", "number density of fcc and grid (default 0.8442)",
          &a->density, NULL },
        { "temperature", "T", "fcc temperature (default 1)", &a->temperature, NULL },
        { "energy", "E", "grid: total energy the velocities are scaled to", &a->energy, NULL },
        { "lattice", "A", "ionic lattice constant (default 1)", &a->lattice, NULL },
        { "seed", "S", "random seed of the velocities (default 1)", &a->seed, NULL },
        { "periodic", "xyz|none", "periodic axes (replace the source's)", &a->periodic, NULL },
        { "potential", "LAW", "lj, ljc-constant, ljc-linear, ljc-sigmoidal or ionic "
          "(default lj; ionic for --ic ionic)", &a->potential, NULL },
        { "coeffs", "FILE", "per-type coefficient table (types, mass, charge, lj, mix, "
          "ionic lines)", &a->coeffs, NULL },
        { "dielectric", "D", "dielectric of ljc-constant and ljc-linear (default 1)",
          &a->dielectric, NULL },
        { "sigmoid", "a,b,c,d", "ljc-sigmoidal: zeta(r) = exp(a r^3 + b r^2 + c r + d)",
          &a->sigmoid, NULL },
        { "cutoff", "RC", "pair cutoff (default none)", &a->cutoff, NULL },
        { "shift", NULL, "shift the pair energy to 0 at the cutoff", NULL, &a->shift },
        { "cells-list", "on|off", "cell lists (default on where a cutoff and the box "
          "allow them)", &a->cell_list, NULL },
        { "dt", "DT", "time step (default 0.005)", &a->dt, NULL },
        { "steps", "N", "steps (default 100)", &a->steps, NULL },
        { "thermo-every", "K", "thermo interval in steps (default steps/10)",
          &a->thermo_every, NULL },
        { "thermo", "FILE", "thermo CSV (default stdout)", &a->thermo, NULL },
        { "integrals", "FILE", "first integrals CSV: momentum, angular momentum, "
          "centre of mass", &a->integrals, NULL },
        { "per-atom", NULL, "energies divided by N (LAMMPS lj units)", NULL, &a->per_atom },
        { "dump", "FILE", "trajectory (needs --dump-every)", &a->dump, NULL },
        { "dump-every", "K", "trajectory interval in steps", &a->dump_every, NULL },
        { "dump-format", "lammps|xyz", "trajectory format (default: xyz for *.xyz "
          "names, else LAMMPS dump custom)", &a->dump_format, NULL },
        { "backend", "cpu|compute|fragment", "force engine (default compute)",
          &a->backend, NULL },
        { "precision", "A..H", "accumulation mode of the compute engine's forces "
          "(default A: float sums; H: int64 fixed point, order-independent)",
          &a->precision, NULL },
        { "output", "FILE", "final state as a snapshot", &a->output, NULL },
        { "exclude", "FILE", "bonded pairs `ID_I ID_J` left out of the forces, "
          "subtracted on the host after each evaluation (as Narumi et al. do)", &a->exclude, NULL },
        { "timing", "FILE", "one CSV row: atom-steps/s and device seconds per kernel",
          &a->timing, NULL },
        NB_FRAMES_OPTIONS(a->frames, "K", "picture interval in steps"),
        { "checkpoint", "FILE", "write the whole state here at the end, on SIGINT or "
          "SIGTERM (the step in progress is finished; exit 130 or 143) and every "
          "--checkpoint-every", &a->checkpoint, NULL },
        { "checkpoint-every", "K", "checkpoint interval in steps (needs --checkpoint)",
          &a->checkpoint_every, NULL },
        { "restart", "FILE", "continue the run saved in FILE, bit for bit; every option "
          "not given again comes from it; --steps counts from step 0 of the first run, "
          "so a larger one extends a finished run; the system's options cannot change",
          &a->restart, NULL },
        NB_GL_OPTIONS(a->gl),
        { NULL, NULL, NULL, NULL, NULL }
    };
    int rest = 0, view = view_help != NULL;
    struct nb_option *table = join_tables(md_table, extra, err);
    char **others = table ? extract_box(argc, argv, a->box, &rest, err) : NULL;
    struct md_restart *restart = NULL;
    if (others && nb_options_parse(view ? "view md" : "md", table, rest, others, help,
                                   err) == NB_OK &&
        !*help && (!view || refuse_in_window(table, err) == NB_OK)) {
        int steps_given = a->steps != NULL;     /* before a restart completes it */
        if ((!a->restart || nb_md_restart_open(a, &restart, err) == NB_OK) &&
            check_args(a, c, err) == NB_OK &&
            (view || nb_cli_frames_check(&a->frames, 1, (double)c->steps, err) == NB_OK)) {
            /* A window steps until it is closed unless --steps is given. */
            if (view && !steps_given)
                c->steps = UINT64_MAX;
            c->frames = &a->frames;
            if (restart)
                nb_md_restart_apply(c, restart, err);
        }
    }
    if (restart && err->status != NB_OK)
        nb_md_restart_free(restart);
    free(others);
    if (err->status == NB_OK && *help)
        view ? print_window_help(view_help, table) : print_help(table);
    free(table);
    return err->status;
}

enum nb_status nb_md_options_parse(struct md_args *a, struct md_config *c, int argc,
                                   char **argv, int *help, struct nb_error *err)
{
    return parse(a, c, NULL, NULL, argc, argv, help, err);
}

enum nb_status nb_md_options_parse_view(struct md_args *a, struct md_config *c,
                                        const struct nb_option *extra,
                                        void (*print_view_help)(const struct nb_option *table),
                                        int argc, char **argv, int *help,
                                        struct nb_error *err)
{
    return parse(a, c, extra, print_view_help, argc, argv, help, err);
}
