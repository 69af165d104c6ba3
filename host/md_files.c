/* md_files.c - LAMMPS dump files (read a one-timestep dump, write one) and
 * extended-XYZ frames for OVITO and ASE.
 *
 * A LAMMPS `dump custom` / `write_dump custom` timestep is
 *   ITEM: TIMESTEP / N / ITEM: NUMBER OF ATOMS / n /
 *   ITEM: BOX BOUNDS xx yy zz / lo hi (3 lines) / ITEM: ATOMS names... /
 *   n lines of values in the named order,
 * optionally preceded by ITEM: UNITS and ITEM: TIME (dump_modify units,
 * time).  The reader takes the columns by name and refuses everything it
 * cannot read exactly, naming file:line:column and the cause (lines and
 * numbers through nb_text, host/text_reader.c).
 */
#include "nb_host.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/* The columns the reader uses, by their index in ITEM: ATOMS (-1: absent). */
enum dump_col {
    COL_ID, COL_TYPE, COL_MASS, COL_Q, COL_X, COL_Y, COL_Z,
    COL_VX, COL_VY, COL_VZ, COL_COUNT
};

/* What each column may be called: x, y, z also unwrapped (xu) or scaled
 * (xs, as a fraction of the box). */
static const char *const col_names[COL_COUNT][3] = {
    {"id", NULL, NULL}, {"type", NULL, NULL}, {"mass", NULL, NULL},
    {"q", NULL, NULL}, {"x", "xu", "xs"}, {"y", "yu", "ys"},
    {"z", "zu", "zs"}, {"vx", NULL, NULL}, {"vy", NULL, NULL},
    {"vz", NULL, NULL}
};

/* The header items before ITEM: ATOMS that a timestep needs. */
enum dump_item { ITEM_TIMESTEP, ITEM_COUNT_ATOMS, ITEM_BOX, ITEM_NEEDED };
static const char *const item_names[ITEM_NEEDED] = {
    "ITEM: TIMESTEP", "ITEM: NUMBER OF ATOMS", "ITEM: BOX BOUNDS"
};

struct dump_reader {
    struct nb_text text;        /* '#' is data: dumps have no comments */
    size_t seen[ITEM_NEEDED];   /* line of each header item, 0: not yet */
    size_t natoms;
    struct nb_md_box box;
    int col[COL_COUNT];         /* index in the ATOMS columns, or -1 */
    int scaled[3];              /* x, y, z given as xs, ys, zs */
    int ncols;                  /* columns named by ITEM: ATOMS */
    size_t atoms_line;          /* the line of ITEM: ATOMS */
    const struct nb_md_potential *pot;
    struct nb_particles *p;
};

/* ---- lines --------------------------------------------------------------- */

/* If the current line starts with the item name, the index of the first
 * field after it (else -1). */
static int item_args(const struct nb_text *t, const char *item)
{
    size_t len = strlen(item);
    int words = 1;

    if (strncmp(t->line, item, len) != 0 ||
        (t->line[len] != '\0' && !strchr(" \t\v\f\r", t->line[len])))
        return -1;
    for (const char *c = item; *c; c++)
        words += *c == ' ';
    return words;
}

/* The value line after an item; NB_ERR_PARSE at the end of the file. */
static enum nb_status value_line(struct dump_reader *rd, const char *item,
                                 struct nb_error *err)
{
    if (nb_text_next(&rd->text, err) != NB_OK)
        return err->status;
    if (rd->text.at_end)
        return nb_text_error(&rd->text, 0, err, "end of file after %s "
                             "(truncated?)", item);
    return NB_OK;
}

/* The single integer of a value line. */
static enum nb_status single_int(struct dump_reader *rd, const char *item,
                                 long long lo, long long *out,
                                 struct nb_error *err)
{
    if (value_line(rd, item, err) != NB_OK ||
        nb_text_expect_fields(&rd->text, 1, 1, item, err) != NB_OK)
        return err->status;
    return nb_text_int(&rd->text, 0, item, lo, LLONG_MAX, out, err);
}

/* ---- the header ------------------------------------------------------------ */

/* Boundary flags of one axis (field f): "pp" periodic, two of f, s, m
 * open. */
static enum nb_status parse_flags(struct dump_reader *rd, int axis, int f,
                                  struct nb_error *err)
{
    const char *flags = rd->text.field[f];
    char shown[NB_TEXT_EXCERPT_SIZE];

    if (strlen(flags) != 2 || !strchr("pfsm", flags[0]) ||
        !strchr("pfsm", flags[1]))
        return nb_text_error(&rd->text, f, err, "ITEM: BOX BOUNDS: boundary "
                             "'%s' along %c is not two of p, f, s, m",
                             nb_text_excerpt(flags, shown), "xyz"[axis]);
    if ((flags[0] == 'p') != (flags[1] == 'p'))
        return nb_text_error(&rd->text, f, err, "ITEM: BOX BOUNDS: boundary "
                             "'%s' along %c mixes periodic and open (LAMMPS "
                             "allows p only on both sides)", flags,
                             "xyz"[axis]);
    rd->box.periodic[axis] = flags[0] == 'p';
    return NB_OK;
}

/* One `lo hi` line of axis `axis`. */
static enum nb_status bounds_line(struct dump_reader *rd, int axis,
                                  struct nb_error *err)
{
    char what[32], usage[48];

    snprintf(what, sizeof what, "box bound along %c", "xyz"[axis]);
    snprintf(usage, sizeof usage, "ITEM: BOX BOUNDS: lo hi along %c",
             "xyz"[axis]);
    if (value_line(rd, "ITEM: BOX BOUNDS", err) != NB_OK ||
        nb_text_expect_fields(&rd->text, 2, 2, usage, err) != NB_OK ||
        nb_text_double(&rd->text, 0, what, &rd->box.lo[axis], err) != NB_OK ||
        nb_text_double(&rd->text, 1, what, &rd->box.hi[axis], err) != NB_OK)
        return err->status;
    if (!(rd->box.lo[axis] < rd->box.hi[axis]))
        return nb_text_error(&rd->text, 0, err, "ITEM: BOX BOUNDS: lo %s >= "
                             "hi %s along %c", rd->text.field[0],
                             rd->text.field[1], "xyz"[axis]);
    return NB_OK;
}

/* `ITEM: BOX BOUNDS [xx yy zz]` (flags from field first) and its three
 * bound lines.  Dumps of LAMMPS before 2010 carry no flags: those boxes
 * were periodic, the default of `boundary`. */
static enum nb_status parse_box(struct dump_reader *rd, int first,
                                struct nb_error *err)
{
    const struct nb_text *t = &rd->text;
    int nflags = t->nfield - first;

    for (int k = first; k < t->nfield; k++)
        if (strcmp(t->field[k], "xy") == 0 || strcmp(t->field[k], "xz") == 0 ||
            strcmp(t->field[k], "yz") == 0)
            return nb_text_error(t, k, err, "ITEM: BOX BOUNDS: triclinic "
                                 "boxes (xy xz yz) are not supported");
    if (nflags != 0 && nflags != 3)
        return nb_text_expect_fields(t, first + 3, first + 3, "ITEM: BOX "
                                     "BOUNDS and 3 boundary flags like pp pp "
                                     "ff, or none", err);
    for (int k = 0; k < 3; k++) {
        rd->box.periodic[k] = 1;
        if (nflags == 3 && parse_flags(rd, k, first + k, err) != NB_OK)
            return err->status;
    }
    for (int k = 0; k < 3; k++)
        if (bounds_line(rd, k, err) != NB_OK)
            return err->status;
    return NB_OK;
}

/* Which column `name` is (COL_COUNT: one we do not use); *scaled set for
 * xs, ys, zs. */
static int column_of(const char *name, int *scaled)
{
    for (int c = 0; c < COL_COUNT; c++)
        for (int k = 0; k < 3 && col_names[c][k]; k++)
            if (strcmp(name, col_names[c][k]) == 0) {
                *scaled = k == 2;
                return c;
            }
    return COL_COUNT;
}

/* The column names after `ITEM: ATOMS` (from field first). */
static enum nb_status parse_columns(struct dump_reader *rd, int first,
                                    struct nb_error *err)
{
    const struct nb_text *t = &rd->text;

    for (int k = 0; k < t->nfield - first; k++) {
        int scaled, c = column_of(t->field[first + k], &scaled);

        if (c == COL_COUNT)
            continue;
        if (rd->col[c] >= 0)
            return nb_text_error(t, first + k, err, "ITEM: ATOMS gives the %s "
                                 "column twice (columns %d and %d)",
                                 col_names[c][0], rd->col[c] + 1, k + 1);
        rd->col[c] = k;
        if (c >= COL_X && c <= COL_Z)
            rd->scaled[c - COL_X] = scaled;
    }
    rd->ncols = t->nfield - first;
    rd->atoms_line = t->lineno;
    return NB_OK;
}

/* The required columns and the all-or-none velocity triple. */
static enum nb_status check_columns(const struct dump_reader *rd,
                                    struct nb_error *err)
{
    static const int required[] = {COL_ID, COL_TYPE, COL_X, COL_Y, COL_Z};
    const struct nb_text *t = &rd->text;
    int nv = (rd->col[COL_VX] >= 0) + (rd->col[COL_VY] >= 0) +
             (rd->col[COL_VZ] >= 0);

    for (size_t k = 0; k < sizeof required / sizeof required[0]; k++) {
        const char *const *name = col_names[required[k]];

        if (rd->col[required[k]] >= 0)
            continue;
        if (!name[1])
            return nb_text_error(t, 0, err, "ITEM: ATOMS has no %s column",
                                 name[0]);
        return nb_text_error(t, 0, err, "ITEM: ATOMS has no %s column (%s, "
                             "%s or %s)", name[0], name[0], name[1], name[2]);
    }
    if (nv != 0 && nv != 3)
        return nb_text_error(t, 0, err, "ITEM: ATOMS has %d of the velocity "
                             "columns vx vy vz: all three or none", nv);
    if (rd->col[COL_MASS] < 0 && !rd->pot)
        return nb_text_error(t, 0, err, "ITEM: ATOMS has no mass column and "
                             "there is no type table to take the masses "
                             "from");
    return NB_OK;
}

/* ITEM: ATOMS reached: every needed header item must have come first. */
static enum nb_status check_header(const struct dump_reader *rd,
                                   struct nb_error *err)
{
    for (int k = 0; k < ITEM_NEEDED; k++)
        if (!rd->seen[k])
            return nb_text_error(&rd->text, 0, err, "ITEM: ATOMS before %s (a "
                                 "timestep needs ITEM: TIMESTEP, ITEM: NUMBER "
                                 "OF ATOMS and ITEM: BOX BOUNDS first)",
                                 item_names[k]);
    return NB_OK;
}

/* Marks a needed item seen; a second one before ITEM: ATOMS is refused. */
static enum nb_status mark_item(struct dump_reader *rd, int item,
                                struct nb_error *err)
{
    if (rd->seen[item])
        return nb_text_error(&rd->text, 0, err, "a second %s before ITEM: "
                             "ATOMS (the first is on line %zu)",
                             item_names[item], rd->seen[item]);
    rd->seen[item] = rd->text.lineno;
    return NB_OK;
}

/* One ITEM line of the header; *atoms set on ITEM: ATOMS. */
static enum nb_status header_item(struct dump_reader *rd, int *atoms,
                                  struct nb_error *err)
{
    const struct nb_text *t = &rd->text;
    int args;
    long long value;
    char shown[NB_TEXT_EXCERPT_SIZE];

    if ((args = item_args(t, "ITEM: ATOMS")) >= 0) {
        *atoms = 1;
        if (check_header(rd, err) != NB_OK ||
            parse_columns(rd, args, err) != NB_OK)
            return err->status;
        return check_columns(rd, err);
    }
    if (item_args(t, "ITEM: TIMESTEP") >= 0)
        return mark_item(rd, ITEM_TIMESTEP, err) != NB_OK
             ? err->status : single_int(rd, "ITEM: TIMESTEP", 0, &value, err);
    if (item_args(t, "ITEM: NUMBER OF ATOMS") >= 0) {
        if (mark_item(rd, ITEM_COUNT_ATOMS, err) != NB_OK ||
            single_int(rd, "ITEM: NUMBER OF ATOMS", 1, &value, err) != NB_OK)
            return err->status;
        rd->natoms = (size_t)value;
        return NB_OK;
    }
    if ((args = item_args(t, "ITEM: BOX BOUNDS")) >= 0)
        return mark_item(rd, ITEM_BOX, err) != NB_OK
             ? err->status : parse_box(rd, args, err);
    /* dump_modify units / time: a value line we do not need. */
    if (item_args(t, "ITEM: UNITS") >= 0)
        return value_line(rd, "ITEM: UNITS", err);
    if (item_args(t, "ITEM: TIME") >= 0)
        return value_line(rd, "ITEM: TIME", err);
    if (item_args(t, "ITEM:") >= 0)
        return nb_text_error(t, 0, err, "unknown item '%s'",
                             nb_text_excerpt(t->line, shown));
    return nb_text_error(t, 0, err, "expected an ITEM: line, found '%s'",
                         nb_text_excerpt(t->line, shown));
}

/* Everything up to and including ITEM: ATOMS. */
static enum nb_status read_header(struct dump_reader *rd, struct nb_error *err)
{
    int atoms = 0;

    while (!atoms) {
        if (nb_text_next_data(&rd->text, err) != NB_OK)
            return err->status;
        if (rd->text.at_end && rd->text.lineno == 0)
            return nb_error_set(err, NB_ERR_PARSE, "%s: empty file",
                                rd->text.path);
        if (rd->text.at_end)
            return nb_text_error(&rd->text, 0, err, "end of file before ITEM: "
                                 "ATOMS (truncated, or not a LAMMPS dump?)");
        if (header_item(rd, &atoms, err) != NB_OK)
            return err->status;
    }
    return NB_OK;
}

/* ---- the atoms ------------------------------------------------------------- */

/* Column c of the current atom line as a real. */
static enum nb_status atom_real(const struct dump_reader *rd, int c,
                                double *out, struct nb_error *err)
{
    return nb_text_double(&rd->text, rd->col[c], col_names[c][0], out, err);
}

/* id and type of atom i; the type must be in the table when there is one
 * (never beyond its rows, whatever its count says). */
static enum nb_status atom_id_type(struct dump_reader *rd, size_t i,
                                   struct nb_error *err)
{
    long long value, max_type = INT_MAX;

    if (rd->pot)
        max_type = rd->pot->types.count < NB_MD_MAX_TYPES
                 ? rd->pot->types.count : NB_MD_MAX_TYPES;
    if (nb_text_int(&rd->text, rd->col[COL_ID], "id", LLONG_MIN, LLONG_MAX,
                    &value, err) != NB_OK)
        return err->status;
    rd->p->id[i] = (int64_t)value;
    if (nb_text_int(&rd->text, rd->col[COL_TYPE], "type", 1, max_type, &value,
                    err) != NB_OK)
        return err->status;
    rd->p->type[i] = (int)value;
    return NB_OK;
}

/* Mass (column or type table) and charge of atom i. */
static enum nb_status atom_mass_charge(struct dump_reader *rd, size_t i,
                                       struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    char shown[NB_TEXT_EXCERPT_SIZE];

    if (rd->col[COL_MASS] < 0)
        p->m[i] = rd->pot->types.mass[p->type[i] - 1];
    else if (atom_real(rd, COL_MASS, &p->m[i], err) != NB_OK)
        return err->status;
    else if (!(p->m[i] > 0.0))
        return nb_text_error(&rd->text, rd->col[COL_MASS], err, "mass: must "
                             "be > 0, not '%s'",
                             nb_text_excerpt(rd->text.field[rd->col[COL_MASS]],
                                             shown));
    if (rd->col[COL_Q] >= 0)
        return atom_real(rd, COL_Q, &p->q[i], err);
    return NB_OK;
}

/* Position (scaled columns times the box) and velocity of atom i. */
static enum nb_status atom_motion(struct dump_reader *rd, size_t i,
                                  struct nb_error *err)
{
    double *x = &rd->p->x[3 * i], *v = &rd->p->v[3 * i];

    for (int k = 0; k < 3; k++) {
        if (atom_real(rd, COL_X + k, &x[k], err) != NB_OK)
            return err->status;
        if (rd->scaled[k])
            x[k] = rd->box.lo[k] + x[k] * (rd->box.hi[k] - rd->box.lo[k]);
        if (rd->col[COL_VX] >= 0 &&
            atom_real(rd, COL_VX + k, &v[k], err) != NB_OK)
            return err->status;
    }
    return NB_OK;
}

/* Atom line i (the current line). */
static enum nb_status atom_line(struct dump_reader *rd, size_t i,
                                struct nb_error *err)
{
    char what[64];

    snprintf(what, sizeof what, "the columns of ITEM: ATOMS on line %zu",
             rd->atoms_line);
    if (nb_text_expect_fields(&rd->text, rd->ncols, rd->ncols, what,
                              err) != NB_OK ||
        atom_id_type(rd, i, err) != NB_OK ||
        atom_mass_charge(rd, i, err) != NB_OK)
        return err->status;
    return atom_motion(rd, i, err);
}

/* The atom lines, then the end of the timestep: the end of the file, a
 * blank line or the next ITEM. */
static enum nb_status read_atoms(struct dump_reader *rd, struct nb_error *err)
{
    struct nb_text *t = &rd->text;
    char shown[NB_TEXT_EXCERPT_SIZE];

    for (size_t i = 0; i < rd->natoms; i++) {
        if (nb_text_next(t, err) != NB_OK)
            return err->status;
        if (t->at_end)
            return nb_text_error(t, 0, err, "end of file after %zu of the %zu "
                                 "atoms of ITEM: NUMBER OF ATOMS "
                                 "(truncated?)", i, rd->natoms);
        if (item_args(t, "ITEM:") >= 0)
            return nb_text_error(t, 0, err, "'%s' after %zu of the %zu "
                                 "atoms of ITEM: NUMBER OF ATOMS",
                                 nb_text_excerpt(t->line, shown), i, rd->natoms);
        if (atom_line(rd, i, err) != NB_OK)
            return err->status;
    }
    if (nb_text_next_data(t, err) != NB_OK)
        return err->status;
    if (!t->at_end && item_args(t, "ITEM:") < 0)
        return nb_text_error(t, 0, err, "more atom lines than the %zu of "
                             "ITEM: NUMBER OF ATOMS", rd->natoms);
    /* Which frame a user meant is a guess: one frame only. */
    if (!t->at_end)
        return nb_text_error(t, 0, err, "a second frame: the input must hold "
                             "one timestep (keep one, e.g. LAMMPS write_dump "
                             "or the last frame's lines)");
    return NB_OK;
}

static int by_id(const void *a, const void *b)
{
    const int64_t *u = a, *v = b;

    return (u[0] > v[0]) - (u[0] < v[0]);
}

/* Ids name atoms (exclusion lists, the output): one id, one atom.  Pairs
 * (id, index) sorted by id name both lines of a repeat. */
static enum nb_status refuse_repeated_ids(const struct dump_reader *rd,
                                          struct nb_error *err)
{
    const struct nb_particles *p = rd->p;
    int64_t *s = nb_alloc(p->n, 2 * sizeof *s, "atom ids", err);
    enum nb_status st = NB_OK;

    if (!s)
        return NB_ERR_NOMEM;
    for (size_t i = 0; i < p->n; i++) {
        s[2 * i] = p->id[i];
        s[2 * i + 1] = (int64_t)i;
    }
    qsort(s, p->n, 2 * sizeof *s, by_id);
    for (size_t k = 1; k < p->n && st == NB_OK; k++) {
        if (s[2 * k] != s[2 * k - 2])
            continue;
        size_t a = (size_t)s[2 * k - 1], b = (size_t)s[2 * k + 1];
        st = nb_error_set(err, NB_ERR_PARSE, "%s:%zu: id %lld again (first on "
                          "line %zu): each atom needs its own id", rd->text.path,
                          rd->atoms_line + 1 + (a > b ? a : b), (long long)s[2 * k],
                          rd->atoms_line + 1 + (a < b ? a : b));
    }
    free(s);
    return st;
}

/* The count of ITEM: NUMBER OF ATOMS is not trusted before it is seen: an
 * atom line of ncols values takes at least 2 * ncols bytes (a character and
 * a separator each; the last line may lack its newline).  A claim above
 * DUMP_COUNT_TRUSTED that a regular file has too few bytes left for is
 * refused before anything is allocated; a smaller one is allocated and
 * read, and a short file ends as truncated, naming the atoms found. */
#define DUMP_COUNT_TRUSTED 4096
static enum nb_status check_count_fits(struct dump_reader *rd, struct nb_error *err)
{
    struct stat st;
    long at = nb_text_tell(&rd->text);
    if (rd->natoms <= DUMP_COUNT_TRUSTED || at < 0 ||
        fstat(fileno(rd->text.fp), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < at)
        return NB_OK;
    size_t left = (size_t)(st.st_size - at);
    size_t most = (left + 1) / (2 * (size_t)rd->ncols);
    if (rd->natoms <= most)
        return NB_OK;
    return nb_error_set(err, NB_ERR_PARSE, "%s:%zu:1: ITEM: NUMBER OF ATOMS: %zu atoms "
                        "claimed, but the %zu bytes after line %zu hold at most %zu "
                        "lines of %d values (truncated?)", rd->text.path,
                        rd->seen[ITEM_COUNT_ATOMS] + 1, rd->natoms, left,
                        rd->atoms_line, most, rd->ncols);
}

/* The particle arrays for natoms atoms, charges if there is a q column. */
static enum nb_status allocate_atoms(struct dump_reader *rd,
                                     struct nb_error *err)
{
    if (check_count_fits(rd, err) != NB_OK)
        return err->status;
    /* GPU engines index atoms with ints; a pipe's count is not checked
     * against its size */
    if (rd->natoms > INT_MAX)
        return nb_error_set(err, NB_ERR_PARSE, "%s:%zu:1: ITEM: NUMBER OF ATOMS: %zu is "
                            "above the limit of %d atoms", rd->text.path,
                            rd->seen[ITEM_COUNT_ATOMS] + 1, rd->natoms, INT_MAX);
    if (nb_particles_alloc(rd->p, rd->natoms, err) != NB_OK)
        return err->status;
    if (nb_particles_add_types(rd->p, err) != NB_OK)
        return err->status;
    if (rd->col[COL_Q] >= 0)
        return nb_particles_add_charges(rd->p, err);
    return NB_OK;
}

enum nb_status nb_lammps_dump_read(const char *path, struct nb_particles *p,
                                   struct nb_md_box *box,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err)
{
    struct dump_reader rd;
    enum nb_status st;

    memset(&rd, 0, sizeof rd);
    memset(p, 0, sizeof *p);
    rd.pot = pot;
    rd.p = p;
    for (int c = 0; c < COL_COUNT; c++)
        rd.col[c] = -1;
    st = nb_text_open(&rd.text, path, NB_TEXT_NO_COMMENTS, err);
    if (st == NB_OK)
        st = read_header(&rd, err);
    if (st == NB_OK)
        st = allocate_atoms(&rd, err);
    if (st == NB_OK)
        st = read_atoms(&rd, err);
    if (st == NB_OK)
        st = refuse_repeated_ids(&rd, err);
    nb_text_close(&rd.text);
    if (st != NB_OK) {
        nb_particles_free(p);
        return st;
    }
    *box = rd.box;
    return NB_OK;
}

/* ---- writing ------------------------------------------------------------- */

/* A set without a type column is one type, type 1. */
static int type_of(const struct nb_particles *p, size_t i)
{
    return p->type ? p->type[i] : 1;
}

static enum nb_status stream_status(FILE *fp, const char *what,
                                    struct nb_error *err)
{
    if (ferror(fp))
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s", what,
                            strerror(errno ? errno : EIO));
    return NB_OK;
}

/* %.17g throughout: every double reads back to itself. */
enum nb_status nb_lammps_dump_write(FILE *fp, uint64_t step,
                                    const struct nb_particles *p,
                                    const struct nb_md_box *box,
                                    struct nb_error *err)
{
    errno = 0;
    fprintf(fp, "ITEM: TIMESTEP\n%llu\nITEM: NUMBER OF ATOMS\n%zu\n"
            "ITEM: BOX BOUNDS", (unsigned long long)step, p->n);
    for (int k = 0; k < 3; k++)
        fputs(box->periodic[k] ? " pp" : " ff", fp);
    fputc('\n', fp);
    for (int k = 0; k < 3; k++)
        fprintf(fp, "%.17g %.17g\n", box->lo[k], box->hi[k]);
    fputs("ITEM: ATOMS id type mass x y z vx vy vz\n", fp);
    for (size_t i = 0; i < p->n; i++) {
        const double *x = &p->x[3 * i], *v = &p->v[3 * i];

        fprintf(fp, "%lld %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                (long long)p->id[i], type_of(p, i), p->m[i], x[0], x[1], x[2],
                v[0], v[1], v[2]);
    }
    return stream_status(fp, "LAMMPS dump", err);
}

/* Extended XYZ as OVITO (3.x: Lattice, Origin, pbc, species -> particle
 * types, velo -> velocities, other keys such as Time -> attributes) and
 * ASE read it.  ASE makes an Atoms object from the species column, which
 * must then be chemical symbols, unless a Z column gives atomic numbers
 * (current ASE takes Z over species; older versions still build from the
 * symbols and refuse "T1"); so the type is written twice: species "T<t>",
 * a name no element has, for OVITO, and Z = t for ASE (type 1 shows as H,
 * 2 as He there: only a label). */
enum nb_status nb_extxyz_write(FILE *fp, double time, const struct nb_particles *p,
                               const struct nb_md_box *box, struct nb_error *err)
{
    errno = 0;
    fprintf(fp, "%zu\nLattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" "
            "Origin=\"%.17g %.17g %.17g\" "
            "Properties=species:S:1:pos:R:3:velo:R:3:Z:I:1 "
            "pbc=\"%c %c %c\" Time=%.17g\n", p->n,
            box->hi[0] - box->lo[0], box->hi[1] - box->lo[1],
            box->hi[2] - box->lo[2], box->lo[0], box->lo[1], box->lo[2],
            box->periodic[0] ? 'T' : 'F', box->periodic[1] ? 'T' : 'F',
            box->periodic[2] ? 'T' : 'F', time);
    for (size_t i = 0; i < p->n; i++) {
        const double *x = &p->x[3 * i], *v = &p->v[3 * i];

        fprintf(fp, "T%d %.17g %.17g %.17g %.17g %.17g %.17g %d\n",
                type_of(p, i), x[0], x[1], x[2], v[0], v[1], v[2],
                type_of(p, i));
    }
    return stream_status(fp, "extended XYZ", err);
}
