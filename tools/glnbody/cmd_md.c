/* cmd_md.c - glnbody md: molecular dynamics with velocity Verlet (seed 002)
 * and the LJ, LJC and ionic force laws (seeds 000, 003).
 *
 * As in `glnbody run`, the whole command line is checked before anything
 * is read or created (exit 2), and every output file is written under a
 * temporary name and renamed only when the run succeeds, so a failed run
 * leaves no partial file.  Thermo rows follow LAMMPS' thermo_style custom
 * step time temp pe ke etotal press; totals unless --per-atom (LAMMPS' lj
 * units normalise by N). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_CELLS 4             /* 256 atoms of fcc */
#define DEFAULT_DENSITY 0.8442      /* LAMMPS' bench/in.lj */
#define DEFAULT_TEMPERATURE 1.0
#define DEFAULT_DT 0.005
#define DEFAULT_STEPS 100
#define DEFAULT_LATTICE 1.0
#define MAX_CELLS 1000              /* 4e9 atoms: a typo, not a wish */

struct md_args {
    const char *input, *ic, *cells, *density, *temperature, *seed, *energy, *lattice;
    const char *box[6], *periodic, *potential, *coeffs, *dielectric, *sigmoid;
    const char *cutoff, *cell_list, *dt, *steps, *thermo_every, *thermo, *integrals;
    const char *dump, *dump_every, *dump_format, *backend, *output, *timing, *exclude;
    const char *precision;
    int shift, per_atom;
    struct nb_gl_cli gl;
};

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
    const char *thermo, *integrals, *dump, *output, *backend, *timing, *exclude;
    int dump_xyz, per_atom;
    int have_precision;         /* --precision: the compute engine's mode */
    enum nb_precision precision;
};

/* ---- the command line -------------------------------------------------- */

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
    c->backend = a->backend ? a->backend : "compute";
    if (nb_backend_name_check(c->backend, err) != NB_OK ||
        nb_gl_cli_validate(&a->gl, err) != NB_OK)
        return err->status;
    if (a->precision) {
        if (nb_precision_parse("--precision", a->precision, &c->precision, err) != NB_OK)
            return err->status;
        if (strcmp(c->backend, "compute") != 0)
            return nb_error_set(err, NB_ERR_ARGS, "--precision %s: the accumulation "
                                "modes run on --backend compute only (the %s engine has "
                                "none: cpu sums in double, fragment in float)",
                                a->precision, c->backend);
        c->have_precision = 1;
    }
    return NB_OK;
}

static enum nb_status check_args(const struct md_args *a, struct md_config *c,
                                 struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    if (check_source(a, c, err) != NB_OK || check_box(a, c, err) != NB_OK ||
        check_potential(a, c, err) != NB_OK || check_run(a, c, err) != NB_OK)
        return err->status;
    return NB_OK;
}

/* ---- the system -------------------------------------------------------- */

static int is_lammps_dump(const char *path)
{
    char line[32] = "";
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    int yes = fgets(line, sizeof line, fp) && strncmp(line, "ITEM: TIMESTEP", 14) == 0;
    fclose(fp);
    return yes;
}

/* A snapshot file gives no box: the particles' extent, open. */
static void bounding_box(const struct nb_particles *p, struct nb_md_box *box)
{
    for (int a = 0; a < 3; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            lo = fmin(lo, p->x[3 * i + a]);
            hi = fmax(hi, p->x[3 * i + a]);
        }
        if (!(lo < hi)) {
            lo = p->n ? lo - 0.5 : -0.5;
            hi = lo + 1.0;
        }
        box->lo[a] = lo;
        box->hi[a] = hi;
        box->periodic[a] = 0;
    }
}

static enum nb_status read_input(const struct md_config *c, struct nb_particles *p,
                                 struct nb_md_box *box, struct nb_error *err)
{
    if (is_lammps_dump(c->input))
        return nb_lammps_dump_read(c->input, p, box, &c->pot, err);
    if (nb_snapshot_read(c->input, p, err) != NB_OK)
        return err->status;
    if (!p->type)
        return nb_error_set(err, NB_ERR_PARSE, "%s: molecular dynamics needs a type "
                            "column (`id type m x y z vx vy vz`)", c->input);
    bounding_box(p, box);
    return NB_OK;
}

static enum nb_status make_system(struct md_config *c, struct nb_particles *p,
                                  struct nb_md_box *box, struct nb_error *err)
{
    if (c->coeffs && nb_md_types_read(c->coeffs, &c->pot, err) != NB_OK)
        return err->status;
    if (nb_md_potential_check(&c->pot, err) != NB_OK)
        return err->status;
    if (c->input)
        return read_input(c, p, box, err);
    if (strcmp(c->ic, "fcc") == 0)
        return nb_md_fcc(p, box, (int)c->cells, c->density, c->temperature, c->seed, err);
    if (strcmp(c->ic, "ionic") == 0)
        return nb_md_ionic_crystal(p, box, (int)c->cells, c->lattice, &c->pot, err);
    return nb_md_grid(p, box, (int)c->cells, c->density, &c->pot, c->energy, c->seed, err);
}

/* --box and --periodic replace what the source said. */
static void apply_box_options(const struct md_config *c, struct nb_md_box *box)
{
    for (int a = 0; c->have_box && a < 3; a++) {
        box->lo[a] = c->box[2 * a];
        box->hi[a] = c->box[2 * a + 1];
    }
    for (int a = 0; c->have_periodic && a < 3; a++)
        box->periodic[a] = c->periodic[a];
}

/* Cell lists by default wherever the geometry allows them. */
static int choose_cell_list(const struct md_config *c, const struct nb_md_box *box)
{
    if (c->cell_list >= 0)
        return c->cell_list;
    if (!(c->pot.cutoff > 0) || strcmp(c->backend, "fragment") == 0)
        return 0;
    for (int a = 0; a < 3; a++)
        if (box->periodic[a] && floor((box->hi[a] - box->lo[a]) / c->pot.cutoff) < 3)
            return 0;
    return 1;
}

/* The particle index of each id, for --exclude: (id, index) sorted by id. */
struct id_index { int64_t id; uint32_t index; };

static int by_id(const void *a, const void *b)
{
    int64_t x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
    return (x > y) - (x < y);
}

static enum nb_status parse_excluded_id(const char *path, long line, const char *tok,
                                        const struct id_index *map, size_t n, uint32_t *out,
                                        struct nb_error *err)
{
    char *end;
    struct id_index key = { 0, 0 }, *hit;
    errno = 0;
    key.id = strtoll(tok, &end, 10);
    if (end == tok || *end || errno)
        return nb_error_set(err, NB_ERR_PARSE, "%s:%ld: '%s' is not a particle id", path,
                            line, tok);
    if (!(hit = bsearch(&key, map, n, sizeof *map, by_id)))
        return nb_error_set(err, NB_ERR_PARSE, "%s:%ld: no particle has id %s", path,
                            line, tok);
    *out = hit->index;
    return NB_OK;
}

/* --exclude FILE: one bonded pair a line, `ID_I ID_J` (the particles' ids),
 * `#` comments; into pairs of particle indices. */
static enum nb_status read_exclusions(const char *path, const struct nb_particles *p,
                                      uint32_t **pairs, size_t *count, struct nb_error *err)
{
    FILE *fp = fopen(path, "r");
    struct id_index *map = nb_alloc(p->n + 1, sizeof *map, "particle ids", err);
    char text[512];
    size_t cap = 0;
    long line = 0;
    enum nb_status st = NB_OK;

    *pairs = NULL;
    *count = 0;
    if (!fp || !map) {
        free(map);
        if (fp)
            fclose(fp);
        return map ? nb_error_set(err, NB_ERR_IO, "--exclude %s: %s", path, strerror(errno))
                   : NB_ERR_NOMEM;
    }
    for (size_t i = 0; i < p->n; i++)
        map[i] = (struct id_index){ p->id[i], (uint32_t)i };
    qsort(map, p->n, sizeof *map, by_id);
    while (st == NB_OK && fgets(text, sizeof text, fp)) {
        char a[64], b[64], extra[2];
        line++;
        text[strcspn(text, "#")] = '\0';
        int fields = sscanf(text, "%63s %63s %1s", a, b, extra);
        if (fields <= 0)
            continue;
        if (fields != 2) {
            st = nb_error_set(err, NB_ERR_PARSE, "%s:%ld: expected two particle ids",
                              path, line);
            break;
        }
        if (*count == cap) {
            uint32_t *grown = realloc(*pairs, (cap = cap ? 2 * cap : 64) * 2 * sizeof **pairs);
            if (!grown) {
                st = nb_error_set(err, NB_ERR_NOMEM, "out of memory reading %s", path);
                break;
            }
            *pairs = grown;
        }
        uint32_t *pair = *pairs + 2 * *count;
        if ((st = parse_excluded_id(path, line, a, map, p->n, &pair[0], err)) == NB_OK &&
            (st = parse_excluded_id(path, line, b, map, p->n, &pair[1], err)) == NB_OK &&
            pair[0] == pair[1])
            st = nb_error_set(err, NB_ERR_PARSE, "%s:%ld: a particle cannot be excluded "
                              "from itself", path, line);
        if (st == NB_OK)
            (*count)++;
    }
    if (st == NB_OK && ferror(fp))
        st = nb_error_set(err, NB_ERR_IO, "--exclude %s: read error", path);
    fclose(fp);
    free(map);
    if (st != NB_OK) {
        free(*pairs);
        *pairs = NULL;
        *count = 0;
    }
    return st;
}

/* ---- outputs ----------------------------------------------------------- */

struct outputs {
    struct nb_outfile thermo, integrals, dump, timing;
    int thermo_open, integrals_open, dump_open, timing_open;
    struct nb_md_thermo first, last;
};

static enum nb_status outputs_open(struct outputs *o, const struct md_config *c,
                                   struct nb_error *err)
{
    memset(o, 0, sizeof *o);
    if (nb_outfile_open(&o->thermo, c->thermo ? c->thermo : "-", err) != NB_OK)
        return err->status;
    o->thermo_open = 1;
    fprintf(o->thermo.fp, "step,time,temp,pe,ke,etotal,press\n");
    if (c->integrals) {
        if (nb_outfile_open(&o->integrals, c->integrals, err) != NB_OK)
            return err->status;
        o->integrals_open = 1;
        fprintf(o->integrals.fp, "step,time,px,py,pz,lx,ly,lz,com_x,com_y,com_z\n");
    }
    if (c->dump) {
        if (nb_outfile_open(&o->dump, c->dump, err) != NB_OK)
            return err->status;
        o->dump_open = 1;
    }
    if (c->timing) {
        if (nb_outfile_open(&o->timing, c->timing, err) != NB_OK)
            return err->status;
        o->timing_open = 1;
    }
    return NB_OK;
}

static void outputs_abort(struct outputs *o)
{
    if (o->thermo_open)
        nb_outfile_abort(&o->thermo);
    if (o->integrals_open)
        nb_outfile_abort(&o->integrals);
    if (o->dump_open)
        nb_outfile_abort(&o->dump);
    if (o->timing_open)
        nb_outfile_abort(&o->timing);
}

static void write_thermo(struct outputs *o, const struct md_config *c,
                         const struct nb_md_sim *s, const struct nb_md_thermo *t)
{
    double scale = c->per_atom && s->n ? 1.0 / (double)s->n : 1.0;
    fprintf(o->thermo.fp, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            (unsigned long long)t->step, t->time, t->temp, t->pe * scale, t->ke * scale,
            t->etotal * scale, t->press);
    if (o->integrals_open)
        fprintf(o->integrals.fp, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                "%.17g,%.17g,%.17g\n", (unsigned long long)t->step, t->time, t->p[0],
                t->p[1], t->p[2], t->l[0], t->l[1], t->l[2], t->com[0], t->com[1],
                t->com[2]);
}

/* The sim's state as a particle set (borrowed arrays). */
static struct nb_particles state_view(const struct nb_md_sim *s, const struct nb_particles *p)
{
    struct nb_particles view = *p;
    view.n = s->n;
    view.type = s->type;
    view.m = s->m;
    view.q = p->q ? s->q : NULL;
    view.x = s->x;
    view.v = s->v;
    return view;
}

/* Thermo and dump rows due at the sim's step. */
static enum nb_status write_due(struct outputs *o, const struct md_config *c,
                                struct nb_md_sim *s, const struct nb_particles *p,
                                struct nb_error *err)
{
    int thermo = s->step % c->thermo_every == 0 || s->step == c->steps;
    int dump = o->dump_open && s->step % c->dump_every == 0;
    struct nb_md_thermo t;
    if (!thermo && !dump)
        return NB_OK;
    if (nb_md_sim_sync(s, err) != NB_OK)
        return err->status;
    nb_md_thermo(s, &t);
    if (thermo) {
        write_thermo(o, c, s, &t);
        if (s->step == 0)
            o->first = t;
        o->last = t;
    }
    if (dump) {
        struct nb_particles view = state_view(s, p);
        return c->dump_xyz ? nb_extxyz_write(o->dump.fp, t.time, &view, &s->box, err)
                           : nb_lammps_dump_write(o->dump.fp, s->step, &view, &s->box, err);
    }
    return NB_OK;
}

/* The next step with an output, at most the last. */
static uint64_t next_output(const struct md_config *c, uint64_t step)
{
    uint64_t next = (step / c->thermo_every + 1) * c->thermo_every;
    if (c->dump_every) {
        uint64_t d = (step / c->dump_every + 1) * c->dump_every;
        next = d < next ? d : next;
    }
    return next < c->steps ? next : c->steps;
}

static enum nb_status commit_outputs(struct outputs *o, const struct md_config *c,
                                     struct nb_md_sim *s, const struct nb_particles *p,
                                     struct nb_error *err)
{
    if (c->output) {
        struct nb_particles view = state_view(s, p);
        char comment[160];
        snprintf(comment, sizeof comment, "glnbody md step %llu t=%.17g n=%zu",
                 (unsigned long long)s->step, (double)s->step * s->dt, s->n);
        if (nb_md_sim_sync(s, err) != NB_OK ||
            nb_snapshot_write(c->output, &view, comment, err) != NB_OK)
            return err->status;
    }
    if (nb_outfile_commit(&o->thermo, err) != NB_OK ||
        (o->integrals_open && nb_outfile_commit(&o->integrals, err) != NB_OK) ||
        (o->dump_open && nb_outfile_commit(&o->dump, err) != NB_OK) ||
        (o->timing_open && nb_outfile_commit(&o->timing, err) != NB_OK))
        return err->status;
    return NB_OK;
}

/* ---- the run ----------------------------------------------------------- */

/* One CSV row for the benchmark scripts (--timing). */
static void write_timing(struct outputs *o, const struct md_config *c,
                         const struct nb_md_sim *s, double seconds)
{
    struct nb_md_timings t;
    double drift = o->last.etotal - o->first.etotal;
    s->engine->timings(s->engine->state, &t);
    fprintf(o->timing.fp, "backend,kernel,n,steps,seconds,atom_steps_per_s,k1_s,cells_s,"
            "force_s,k2_s,evaluations,drift_rel\n%s,%s,%zu,%llu,%.6g,%.6g,%.6g,%.6g,%.6g,"
            "%.6g,%llu,%.6g\n", s->engine->name, s->sys.cell_list ? "cells" : "pairs",
            s->n, (unsigned long long)c->steps, seconds,
            seconds > 0 ? (double)s->n * (double)c->steps / seconds : 0.0, t.k1, t.cells,
            t.force, t.k2, (unsigned long long)t.evaluations,
            o->first.etotal != 0 ? drift / fabs(o->first.etotal) : 0.0);
}

static void print_summary(FILE *fp, const struct md_config *c, const struct nb_md_sim *s,
                          const struct outputs *o, double seconds)
{
    struct nb_md_timings t;
    double atom_steps = (double)s->n * (double)c->steps;
    double drift = o->last.etotal - o->first.etotal;
    s->engine->timings(s->engine->state, &t);
    fprintf(fp, "glnbody md: %zu atoms, %s, cutoff %g%s, %s, backend %s (%s)\n", s->n,
            nb_md_law_name(s->pot.law), s->pot.cutoff, s->pot.shift ? " shifted" : "",
            s->sys.cell_list ? "cell lists" : "all pairs", s->engine->name,
            s->engine->renderer(s->engine->state));
    if (s->sys.n_excluded)
        fprintf(fp, "%zu excluded pairs subtracted on the host after each evaluation "
                "(the engine's forces are read back every step)\n", s->sys.n_excluded);
    fprintf(fp, "%llu steps of %g in %.3f s: %.3e atom-steps/s; total energy drift "
            "%.3e (%.3e relative)\n", (unsigned long long)c->steps, c->dt, seconds,
            seconds > 0 ? atom_steps / seconds : 0.0, drift,
            o->first.etotal != 0 ? drift / fabs(o->first.etotal) : 0.0);
    fprintf(fp, "device seconds: K1 %.4f, cell lists %.4f, forces %.4f, K2 %.4f "
            "(%llu force evaluations)\n", t.k1, t.cells, t.force, t.k2,
            (unsigned long long)t.evaluations);
}

static enum nb_status simulate(struct md_config *c, const struct nb_gl_cli *g,
                               struct nb_md_sim *s, struct nb_md_engine *e,
                               struct nb_gl **gl, struct nb_error *err)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct outputs o;
    enum nb_status st;
    uint32_t *excluded = NULL;
    size_t n_excluded = 0;

    memset(&o, 0, sizeof o);
    if (make_system(c, &p, &box, err) != NB_OK ||
        (c->exclude && read_exclusions(c->exclude, &p, &excluded, &n_excluded, err) != NB_OK))
        goto done;
    apply_box_options(c, &box);
    /* The system is checked here, once, before any GL work, so that a bad
     * box or cutoff is the only message; the engine trusts it. */
    if (nb_md_sim_prepare(s, &p, &c->pot, &box, choose_cell_list(c, &box), c->dt,
                          n_excluded, excluded, err) != NB_OK ||
        (strcmp(c->backend, "cpu") != 0 && nb_gl_cli_create(g, gl, err) != NB_OK))
        goto done;
    if (nb_md_engine_create(e, c->backend, *gl, err) != NB_OK ||
        (c->have_precision &&
         nb_md_engine_set_precision(e, c->precision, err) != NB_OK) ||
        nb_md_sim_start(s, e, err) != NB_OK ||
        outputs_open(&o, c, err) != NB_OK)
        goto done;
    if (write_due(&o, c, s, &p, err) != NB_OK)
        goto done;
    double wall0 = nb_clock_seconds();     /* the steps and their outputs */
    while (s->step < c->steps) {
        uint64_t next = next_output(c, s->step);
        if (nb_md_sim_advance(s, next - s->step, err) != NB_OK ||
            write_due(&o, c, s, &p, err) != NB_OK)
            goto done;
    }
    double seconds = nb_clock_seconds() - wall0;
    if (o.timing_open)
        write_timing(&o, c, s, seconds);
    if (commit_outputs(&o, c, s, &p, err) == NB_OK)
        print_summary(c->thermo && strcmp(c->thermo, "-") != 0 ? stdout : stderr, c, s,
                      &o, seconds);
done:
    st = err->status;
    outputs_abort(&o);
    nb_particles_free(&p);
    free(excluded);
    return st;
}

/* --box takes six values, which the option parser does not do: they are
 * taken out of argv here (into box[]) and the rest returned, NULL with an
 * error when values are missing or --box is repeated. */
static char **extract_box(int argc, char **argv, const char *box[6], int *rest,
                          struct nb_error *err)
{
    char **others = nb_alloc((size_t)argc + 1, sizeof *others, "arguments", err);
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
                     "[--precision A..H] [--output FILE]",
                     "Molecular dynamics in reduced units with velocity Verlet: "
                     "thermo rows step,time,temp,pe,ke,etotal,press (CSV) every K "
                     "steps, trajectories as LAMMPS dump or extended XYZ, the final "
                     "state as a snapshot `id type m x y z vx vy vz`.", table);
    printf("  %-28s %s\n", "--box XLO XHI YLO YHI ZLO ZHI", "box bounds (replace the "
           "source's)");
}

int nb_cmd_md(int argc, char **argv)
{
    struct md_args a = { 0 };
    const struct nb_option table[] = {
        { "input", "FILE", "initial state: a snapshot with a type column, or a LAMMPS "
          "dump (id type x y z ...; box and boundaries from its header)", &a.input, NULL },
        { "ic", "fcc|grid|ionic", "generated initial conditions (default fcc)", &a.ic, NULL },
        { "cells", "N", "unit cells per side (fcc 4 atoms, ionic 12) or grid points "
          "per side (default 4)", &a.cells, NULL },
        { "density", "RHO", "number density of fcc and grid (default 0.8442)",
          &a.density, NULL },
        { "temperature", "T", "fcc temperature (default 1)", &a.temperature, NULL },
        { "energy", "E", "grid: total energy the velocities are scaled to", &a.energy, NULL },
        { "lattice", "A", "ionic lattice constant (default 1)", &a.lattice, NULL },
        { "seed", "S", "random seed of the velocities (default 1)", &a.seed, NULL },
        { "periodic", "xyz|none", "periodic axes (replace the source's)", &a.periodic, NULL },
        { "potential", "LAW", "lj, ljc-constant, ljc-linear, ljc-sigmoidal or ionic "
          "(default lj; ionic for --ic ionic)", &a.potential, NULL },
        { "coeffs", "FILE", "per-type coefficient table (types, mass, charge, lj, mix, "
          "ionic lines)", &a.coeffs, NULL },
        { "dielectric", "D", "dielectric of ljc-constant and ljc-linear (default 1)",
          &a.dielectric, NULL },
        { "sigmoid", "a,b,c,d", "ljc-sigmoidal: zeta(r) = exp(a r^3 + b r^2 + c r + d)",
          &a.sigmoid, NULL },
        { "cutoff", "RC", "pair cutoff (default none)", &a.cutoff, NULL },
        { "shift", NULL, "shift the pair energy to 0 at the cutoff", NULL, &a.shift },
        { "cells-list", "on|off", "cell lists (default on where a cutoff and the box "
          "allow them)", &a.cell_list, NULL },
        { "dt", "DT", "time step (default 0.005)", &a.dt, NULL },
        { "steps", "N", "steps (default 100)", &a.steps, NULL },
        { "thermo-every", "K", "thermo interval in steps (default steps/10)",
          &a.thermo_every, NULL },
        { "thermo", "FILE", "thermo CSV (default stdout)", &a.thermo, NULL },
        { "integrals", "FILE", "first integrals CSV: momentum, angular momentum, "
          "centre of mass", &a.integrals, NULL },
        { "per-atom", NULL, "energies divided by N (LAMMPS lj units)", NULL, &a.per_atom },
        { "dump", "FILE", "trajectory (needs --dump-every)", &a.dump, NULL },
        { "dump-every", "K", "trajectory interval in steps", &a.dump_every, NULL },
        { "dump-format", "lammps|xyz", "trajectory format (default: xyz for *.xyz "
          "names, else LAMMPS dump custom)", &a.dump_format, NULL },
        { "backend", "cpu|compute|fragment", "force engine (default compute)",
          &a.backend, NULL },
        { "precision", "A..H", "accumulation mode of the compute engine's forces "
          "(default A: float sums; H: int64 fixed point, order-independent)",
          &a.precision, NULL },
        { "output", "FILE", "final state as a snapshot", &a.output, NULL },
        { "exclude", "FILE", "bonded pairs `ID_I ID_J` left out of the forces, "
          "subtracted on the host after each evaluation (seed 004)", &a.exclude, NULL },
        { "timing", "FILE", "one CSV row: atom-steps/s and device seconds per kernel",
          &a.timing, NULL },
        NB_GL_OPTIONS(a.gl),
        { NULL, NULL, NULL, NULL, NULL }
    };
    struct nb_error err = { 0 };
    struct md_config c;
    int help;

    int rest = 0;
    char **others = extract_box(argc, argv, a.box, &rest, &err);
    if (!others || nb_options_parse("md", table, rest, others, &help, &err) != NB_OK ||
        (!help && check_args(&a, &c, &err) != NB_OK)) {
        fprintf(stderr, "glnbody md: %s\n", err.message);
        free(others);
        return 2;
    }
    free(others);
    if (help) {
        print_help(table);
        return 0;
    }
    struct nb_md_sim s = { 0 };
    struct nb_md_engine e = { 0 };
    struct nb_gl *gl = NULL;
    enum nb_status st = simulate(&c, &a.gl, &s, &e, &gl, &err);
    nb_md_sim_free(&s);
    if (e.destroy)
        e.destroy(e.state);
    nb_gl_destroy(gl);
    if (st != NB_OK) {
        fprintf(stderr, "glnbody md: %s\n", err.message);
        return st == NB_ERR_ARGS ? 2 : 1;
    }
    return 0;
}
