/* snapshot.c - the text snapshot reader and writer.
 *
 * One particle a line, `id m x y z vx vy vz` (8 columns),
 * `id type m x y z vx vy vz` (9 columns) or, with charges,
 * `id type q m x y z vx vy vz` (10 columns), whitespace separated.  The
 * 10-column form must be declared by a `#` line ending in those ten names
 * before the first data line: without it, a line of 10 numbers is far more
 * likely a mistake (an extra value) than charges, and is refused.  Lines
 * of any length (getline), CRLF endings and a last line without a newline
 * are accepted; every error names the file and, where there is one, the
 * line.
 */
#include "nb_host.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 32            /* data lines have at most 10; comment
                                   lines are searched for the declaration */
#define TOKEN_SHOWN 64          /* longest excerpt of a bad token quoted */

static const char *const names8[] = {"id", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};
static const char *const names9[] = {"id", "type", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};
static const char *const names10[] = {"id", "type", "q", "m", "x", "y", "z",
                                      "vx", "vy", "vz"};

/* Reading state: the file, where we are in it and the growing arrays. */
struct reader {
    const char *path;
    size_t line;                /* 1-based number of the current line */
    int columns;                /* 8 or 9, fixed by the first data line,
                                   or 10 by the declaration */
    size_t declared;            /* line of the 10-column declaration, or 0 */
    size_t cap;                 /* capacity of the arrays in particles */
    struct nb_particles *p;     /* p->n particles read so far */
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
           c == '\f';
}

/* Splits line in place; stores up to MAX_TOKENS tokens, returns how many
 * there are in all so that a wrong count can be reported. */
static int split_tokens(char *line, char **tok)
{
    int count = 0;
    char *c = line;

    for (;;) {
        while (*c && is_space(*c))
            c++;
        if (!*c)
            return count;
        if (count < MAX_TOKENS)
            tok[count] = c;
        count++;
        while (*c && !is_space(*c))
            c++;
        if (*c)
            *c++ = '\0';
    }
}

static const char *column_name(const struct reader *rd, int col)
{
    if (rd->columns == 10)
        return names10[col];
    return rd->columns == 9 ? names9[col] : names8[col];
}

static enum nb_status parse_error(const struct reader *rd, int col,
                                  const char *what, const char *tok,
                                  struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s:%zu: column %d (%s): %s '%.*s'",
                        rd->path, rd->line, col + 1, column_name(rd, col),
                        what, TOKEN_SHOWN, tok);
}

/* strtod on the whole token: no trailing junk, finite only. */
static enum nb_status parse_double(const struct reader *rd, int col,
                                   const char *tok, double *out,
                                   struct nb_error *err)
{
    char *end;

    *out = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return parse_error(rd, col, "not a number:", tok, err);
    if (!isfinite(*out))
        return parse_error(rd, col, "non-finite value", tok, err);
    return NB_OK;
}

static enum nb_status parse_id(const struct reader *rd, const char *tok,
                               int64_t *out, struct nb_error *err)
{
    char *end;
    long long value;

    errno = 0;
    value = strtoll(tok, &end, 10);
    if (end == tok || *end != '\0')
        return parse_error(rd, 0, "not an integer:", tok, err);
    if (errno == ERANGE)        /* long long is 64 bits wherever we build */
        return parse_error(rd, 0, "integer out of range:", tok, err);
    *out = (int64_t)value;
    return NB_OK;
}

static enum nb_status parse_type(const struct reader *rd, const char *tok,
                                 int *out, struct nb_error *err)
{
    char *end;
    long value;

    errno = 0;
    value = strtol(tok, &end, 10);
    if (end == tok || *end != '\0' || value < 0)
        return parse_error(rd, 1, "not a non-negative integer:", tok, err);
    if (errno == ERANGE || value > INT_MAX)
        return parse_error(rd, 1, "integer out of range:", tok, err);
    *out = (int)value;
    return NB_OK;
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
                            rd->path);
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
        rd->cap = cap;
    return st;
}

/* Parses the numeric columns m x y z vx vy vz starting at column first. */
static enum nb_status parse_numbers(struct reader *rd, char **tok, int first,
                                    struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    size_t i = p->n;
    double value[7];

    for (int k = 0; k < 7; k++) {
        enum nb_status st = parse_double(rd, first + k, tok[first + k],
                                         &value[k], err);
        if (st != NB_OK)
            return st;
    }
    if (value[0] < 0.0)
        return nb_error_set(err, NB_ERR_PARSE, "%s:%zu: negative mass %.*s",
                            rd->path, rd->line, TOKEN_SHOWN, tok[first]);
    p->m[i] = value[0];
    memcpy(&p->x[3 * i], &value[1], 3 * sizeof *value);
    memcpy(&p->v[3 * i], &value[4], 3 * sizeof *value);
    return NB_OK;
}

/* The message for a data line of ntok tokens that does not fit. */
static enum nb_status column_count_error(const struct reader *rd, int ntok,
                                         struct nb_error *err)
{
    if (rd->declared)
        return nb_error_set(err, NB_ERR_PARSE, "%s:%zu: expected 10 columns "
                            "as declared on line %zu, found %d", rd->path,
                            rd->line, rd->declared, ntok);
    if (rd->columns == 0 && ntok == 10)
        return nb_error_set(err, NB_ERR_PARSE, "%s:%zu: expected 8 or 9 "
                            "columns, found 10 (the 10-column form needs a "
                            "line `# id type q m x y z vx vy vz` before the "
                            "data)",
                            rd->path, rd->line);
    if (rd->columns == 0)
        return nb_error_set(err, NB_ERR_PARSE,
                            "%s:%zu: expected 8 or 9 columns, found %d",
                            rd->path, rd->line, ntok);
    return nb_error_set(err, NB_ERR_PARSE,
                        "%s:%zu: expected %d columns like the first data "
                        "line, found %d", rd->path, rd->line,
                        rd->columns, ntok);
}

/* The charge in column 3 of the 10-column form. */
static enum nb_status parse_charge(struct reader *rd, char **tok,
                                   struct nb_error *err)
{
    return parse_double(rd, 2, tok[2], &rd->p->q[rd->p->n], err);
}

/* One data line of ntok tokens. */
static enum nb_status parse_line(struct reader *rd, char **tok, int ntok,
                                 struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    enum nb_status st;

    if (rd->columns == 0 && (ntok == 8 || ntok == 9))
        rd->columns = ntok;
    if (ntok != rd->columns)
        return column_count_error(rd, ntok, err);
    st = reserve_one(rd, err);
    if (st == NB_OK)
        st = parse_id(rd, tok[0], &p->id[p->n], err);
    if (st == NB_OK && rd->columns >= 9)
        st = parse_type(rd, tok[1], &p->type[p->n], err);
    if (st == NB_OK && rd->columns == 10)
        st = parse_charge(rd, tok, err);
    if (st == NB_OK)
        st = parse_numbers(rd, tok, rd->columns - 7, err);
    if (st == NB_OK)
        p->n++;
    return st;
}

/* A comment line (ntok tokens, the first starting with '#') whose last
 * ten tokens are the names of the 10-column form declares it, if no data
 * line came before.  `# id type q m ...`, `#id type q m ...` and
 * `# glnbody md t=0 columns: id type q m ...` all do (a comment of at
 * most MAX_TOKENS words). */
static void check_declaration(struct reader *rd, char **tok, int ntok)
{
    int first = ntok - 10;

    if (rd->columns != 0 || ntok < 10 || ntok > MAX_TOKENS)
        return;
    for (int k = 0; k < 10; k++) {
        const char *t = tok[first + k];

        if (first + k == 0)
            t++;                    /* the '#' of `#id` */
        if (strcmp(t, names10[k]) != 0)
            return;
    }
    rd->columns = 10;
    rd->declared = rd->line;
}

/* Reads every line of fp into rd; the caller owns cleanup. */
static enum nb_status read_lines(struct reader *rd, FILE *fp,
                                 struct nb_error *err)
{
    char *line = NULL;
    size_t size = 0;
    enum nb_status st = NB_OK;

    errno = 0;
    while (st == NB_OK && getline(&line, &size, fp) != -1) {
        char *tok[MAX_TOKENS];
        int ntok;

        rd->line++;
        ntok = split_tokens(line, tok);
        if (ntok > 0 && tok[0][0] != '#')
            st = parse_line(rd, tok, ntok, err);
        else if (ntok > 0)
            check_declaration(rd, tok, ntok);
    }
    if (st == NB_OK && ferror(fp))
        st = nb_error_set(err, NB_ERR_IO, "%s: read error: %s", rd->path,
                          strerror(errno));
    free(line);
    return st;
}

enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                struct nb_error *err)
{
    struct reader rd = {path, 0, 0, 0, 0, p};
    enum nb_status st;
    FILE *fp;

    memset(p, 0, sizeof *p);
    fp = fopen(path, "r");
    if (!fp)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot open: %s", path,
                            strerror(errno));
    st = read_lines(&rd, fp, err);
    fclose(fp);
    if (st == NB_OK && p->n == 0)
        st = rd.line == 0
            ? nb_error_set(err, NB_ERR_PARSE, "%s: no particles (empty file)",
                           path)
            : nb_error_set(err, NB_ERR_PARSE, "%s: no particles (%zu lines, "
                           "all blank or comments)", path, rd.line);
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

enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                 const char *comment, struct nb_error *err)
{
    struct nb_outfile out;

    if (p->q && !p->type)
        return nb_error_set(err, NB_ERR_ARGS, "%s: a snapshot with charges "
                            "needs types too (`id type q m x y z vx vy vz`)",
                            path ? path : "stdout");
    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    if (comment)
        fprintf(out.fp, "# %s\n", comment);
    /* The reader needs this line for the 10-column form; for 9 columns
     * it only tells a human what the numbers are. */
    if (p->q)
        fputs("# id type q m x y z vx vy vz\n", out.fp);
    else if (p->type)
        fputs("# id type m x y z vx vy vz\n", out.fp);
    for (size_t i = 0; i < p->n; i++)
        write_particle(out.fp, p, i);
    return nb_outfile_commit(&out, err);
}
