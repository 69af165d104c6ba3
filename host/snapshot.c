/* snapshot.c - the text snapshot reader and writer.
 *
 * One particle a line, `id m x y z vx vy vz` (8 columns),
 * `id type m x y z vx vy vz` (9 columns) or, with charges,
 * `id type q m x y z vx vy vz` (10 columns), whitespace separated.  The
 * 10-column form must be declared by a `#` line ending in those ten names
 * before the first data line: without it, a line of 10 numbers is far more
 * likely a mistake (an extra value) than charges, and is refused.  '#'
 * ends the data of a line, as in every commented format; CRLF endings, a
 * byte-order mark and a last line without a newline are accepted, lines
 * past 1 MiB and NUL bytes refused (host/text_reader.c); every error names
 * the file and, where there is one, the line and column.
 */
#include "nb_host.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const names8[] = {"id", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};
static const char *const names9[] = {"id", "type", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};
static const char *const names10[] = {"id", "type", "q", "m", "x", "y", "z",
                                      "vx", "vy", "vz"};

/* Reading state: the text reader and the growing arrays. */
struct reader {
    struct nb_text text;
    int columns;                /* 8 or 9, fixed by the first data line,
                                   or 10 by the declaration */
    size_t declared;            /* line of the 10-column declaration, or 0 */
    size_t cap;                 /* capacity of the arrays in particles */
    struct nb_particles *p;     /* p->n particles read so far */
    size_t *lines;              /* the line of each particle, for messages */
};

static const char *column_name(const struct reader *rd, int col)
{
    if (rd->columns == 10)
        return names10[col];
    return rd->columns == 9 ? names9[col] : names8[col];
}

/* realloc of *ptr to count elements of size bytes, reported as nb_alloc. */
static enum nb_status grow_array(void **ptr, size_t count, size_t size,
                                 const char *what, struct nb_error *err)
{
    void *grown = NULL;

    if (count <= SIZE_MAX / size)
        grown = realloc(*ptr, count * size);
    if (!grown)
        return nb_error_set(err, NB_ERR_NOMEM,
                            "out of host memory allocating %s (%zu x %zu "
                            "bytes)", what, count, size);
    *ptr = grown;
    return NB_OK;
}

/* Doubles the capacity of every array. */
static enum nb_status reserve_one(struct reader *rd, struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    size_t cap = rd->cap ? 2 * rd->cap : 1024;
    enum nb_status st = NB_OK;

    if (p->n < rd->cap)
        return NB_OK;
    if (cap < rd->cap)
        return nb_error_set(err, NB_ERR_NOMEM, "%s: too many particles",
                            rd->text.path);
    st = grow_array((void **)&p->id, cap, sizeof *p->id, "particle ids", err);
    if (st == NB_OK && rd->columns >= 9)
        st = grow_array((void **)&p->type, cap, sizeof *p->type,
                        "particle types", err);
    if (st == NB_OK && rd->columns == 10)
        st = grow_array((void **)&p->q, cap, sizeof *p->q, "particle charges",
                        err);
    if (st == NB_OK)
        st = grow_array((void **)&p->m, cap, sizeof *p->m, "particle masses",
                        err);
    if (st == NB_OK)
        st = grow_array((void **)&p->x, cap, 3 * sizeof *p->x,
                        "particle positions", err);
    if (st == NB_OK)
        st = grow_array((void **)&p->v, cap, 3 * sizeof *p->v,
                        "particle velocities", err);
    if (st == NB_OK)
        st = grow_array((void **)&rd->lines, cap, sizeof *rd->lines,
                        "particle line numbers", err);
    if (st == NB_OK)
        rd->cap = cap;
    return st;
}

/* Field col of the current line as a double, named by its column. */
static enum nb_status read_double(const struct reader *rd, int col,
                                  double *out, struct nb_error *err)
{
    return nb_text_double(&rd->text, col, column_name(rd, col), out, err);
}

/* The numeric columns m x y z vx vy vz starting at column first. */
static enum nb_status parse_numbers(struct reader *rd, int first,
                                    struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    size_t i = p->n;
    double value[7];

    for (int k = 0; k < 7; k++) {
        enum nb_status st = read_double(rd, first + k, &value[k], err);
        if (st != NB_OK)
            return st;
    }
    if (value[0] < 0.0)
        return nb_text_error(&rd->text, first, err, "m: negative mass %.*s",
                             64, rd->text.field[first]);
    p->m[i] = value[0];
    memcpy(&p->x[3 * i], &value[1], 3 * sizeof *value);
    memcpy(&p->v[3 * i], &value[4], 3 * sizeof *value);
    return NB_OK;
}

/* The column count of a data line: the first one fixes 8 or 9, unless a
 * declaration fixed 10. */
static enum nb_status check_count(struct reader *rd, struct nb_error *err)
{
    char what[96];
    int ntok = rd->text.nfield;

    if (rd->declared) {
        snprintf(what, sizeof what, "the columns declared on line %zu",
                 rd->declared);
        return nb_text_expect_fields(&rd->text, 10, 10, what, err);
    }
    if (rd->columns == 0 && (ntok == 8 || ntok == 9))
        rd->columns = ntok;
    if (rd->columns == 0)
        return nb_text_expect_fields(&rd->text, 8, 9, "columns id [type] m x "
                                     "y z vx vy vz; the 10-column form needs "
                                     "a line `# id type q m x y z vx vy vz` "
                                     "before the data", err);
    return nb_text_expect_fields(&rd->text, rd->columns, rd->columns,
                                 "columns like the first data line", err);
}

/* One data line. */
static enum nb_status parse_line(struct reader *rd, struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    enum nb_status st;
    long long value;

    if (p->n == 0 && strcmp(rd->text.field[0], "ITEM:") == 0)
        return nb_text_error(&rd->text, 0, err, "this is a LAMMPS dump (an "
                             "ITEM: line), not a snapshot `id [type] m x y z "
                             "vx vy vz`; md --input reads dumps");
    st = check_count(rd, err);
    if (st == NB_OK)
        st = reserve_one(rd, err);
    if (st == NB_OK)
        st = nb_text_int(&rd->text, 0, "id", INT64_MIN, INT64_MAX, &value,
                         err);
    if (st == NB_OK)
        p->id[p->n] = (int64_t)value;
    if (st == NB_OK && rd->columns >= 9)
        st = nb_text_int(&rd->text, 1, "type", 0, INT_MAX, &value, err);
    if (st == NB_OK && rd->columns >= 9)
        p->type[p->n] = (int)value;
    if (st == NB_OK && rd->columns == 10)
        st = read_double(rd, 2, &p->q[p->n], err);
    if (st == NB_OK)
        st = parse_numbers(rd, rd->columns - 7, err);
    if (st == NB_OK)
        rd->lines[p->n++] = rd->text.lineno;
    return st;
}

/* A comment line whose last ten fields are the names of the 10-column
 * form declares it, if no data line came before.  `# id type q m ...`,
 * `#id type q m ...` and `# glnbody md t=0 columns: id type q m ...` all
 * do. */
static void check_declaration(struct reader *rd)
{
    int first = rd->text.nfield - 10;

    if (rd->columns != 0 || first < 0)
        return;
    for (int k = 0; k < 10; k++) {
        const char *t = rd->text.field[first + k];

        if (first + k == 0)
            t++;                    /* the '#' of `#id` */
        if (strcmp(t, names10[k]) != 0)
            return;
    }
    rd->columns = 10;
    rd->declared = rd->text.lineno;
}

/* Reads every line into rd; the caller owns cleanup. */
static enum nb_status read_lines(struct reader *rd, struct nb_error *err)
{
    enum nb_status st;

    while ((st = nb_text_next(&rd->text, err)) == NB_OK &&
           !rd->text.at_end) {
        if (rd->text.is_comment)
            check_declaration(rd);
        else if (rd->text.nfield > 0 && (st = parse_line(rd, err)) != NB_OK)
            break;
    }
    return st;
}

/* An id and the line that gave it. */
struct id_line { int64_t id; size_t line; };

static int by_id_then_line(const void *a, const void *b)
{
    const struct id_line *u = a, *v = b;

    if (u->id != v->id)
        return (u->id > v->id) - (u->id < v->id);
    return (u->line > v->line) - (u->line < v->line);
}

/* Ids name particles (in forces' output, exclusion lists): two particles
 * with one id are refused, naming both lines. */
static enum nb_status refuse_repeated_ids(const struct reader *rd,
                                          struct nb_error *err)
{
    const struct nb_particles *p = rd->p;
    struct id_line *s = nb_alloc(p->n, sizeof *s, "particle ids", err);
    enum nb_status st = NB_OK;

    if (!s)
        return NB_ERR_NOMEM;
    for (size_t i = 0; i < p->n; i++)
        s[i] = (struct id_line){p->id[i], rd->lines[i]};
    qsort(s, p->n, sizeof *s, by_id_then_line);
    for (size_t k = 1; k < p->n && st == NB_OK; k++)
        if (s[k].id == s[k - 1].id)
            st = nb_error_set(err, NB_ERR_PARSE, "%s:%zu: id %lld again (first "
                              "on line %zu): each particle needs its own id",
                              rd->text.path, s[k].line, (long long)s[k].id,
                              s[k - 1].line);
    free(s);
    return st;
}

enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                struct nb_error *err)
{
    struct reader rd = {.p = p};
    enum nb_status st;

    memset(p, 0, sizeof *p);
    st = nb_text_open(&rd.text, path, NB_TEXT_COMMENT_LINES, err);
    if (st != NB_OK)
        return st;
    st = read_lines(&rd, err);
    if (st == NB_OK && p->n == 0)
        st = rd.text.lineno == 0
            ? nb_error_set(err, NB_ERR_PARSE, "%s: no particles (empty file)",
                           path)
            : nb_error_set(err, NB_ERR_PARSE, "%s: no particles (%zu lines, "
                           "all blank or comments)", path, rd.text.lineno);
    if (st == NB_OK)
        st = refuse_repeated_ids(&rd, err);
    nb_text_close(&rd.text);
    free(rd.lines);
    if (st != NB_OK)
        nb_particles_free(p);
    return st;
}

/* ---- writing ----------------------------------------------------------- */

/* One particle in the form of p (8, 9 or 10 columns).  %.17g: every double
 * reads back to itself, so a snapshot can be resumed from or compared
 * without loss. */
static void write_particle(FILE *fp, const struct nb_particles *p, size_t i)
{
    const double *x = &p->x[3 * i], *v = &p->v[3 * i];

    fprintf(fp, "%lld ", (long long)p->id[i]);
    if (p->type)
        fprintf(fp, "%d ", p->type[i]);
    if (p->q)
        fprintf(fp, "%.17g ", p->q[i]);
    fprintf(fp, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", p->m[i], x[0],
            x[1], x[2], v[0], v[1], v[2]);
}

enum nb_status nb_snapshot_print(FILE *fp, const char *path,
                                 const struct nb_particles *p,
                                 const char *comment, struct nb_error *err)
{
    if (p->q && !p->type)
        return nb_error_set(err, NB_ERR_ARGS, "%s: a snapshot with charges "
                            "needs types too (`id type q m x y z vx vy vz`)",
                            path ? path : "stdout");
    if (comment)
        fprintf(fp, "# %s\n", comment);
    /* The reader needs this line for the 10-column form; for 9 columns
     * it only tells a human what the numbers are. */
    if (p->q)
        fputs("# id type q m x y z vx vy vz\n", fp);
    else if (p->type)
        fputs("# id type m x y z vx vy vz\n", fp);
    for (size_t i = 0; i < p->n; i++)
        write_particle(fp, p, i);
    return NB_OK;
}

enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                 const char *comment, struct nb_error *err)
{
    struct nb_outfile out;

    if (p->q && !p->type)
        return nb_snapshot_print(NULL, path, p, comment, err);
    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    nb_snapshot_print(out.fp, path, p, comment, err);
    return nb_outfile_commit(&out, err);
}
