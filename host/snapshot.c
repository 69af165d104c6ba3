/* snapshot.c - the text snapshot reader and writer.
 *
 * One particle a line, `id m x y z vx vy vz` (8 columns) or
 * `id type m x y z vx vy vz` (9 columns), whitespace separated.  Lines of
 * any length (getline), CRLF endings and a last line without a newline are
 * accepted; every error names the file and, where there is one, the line.
 */
#include "nb_host.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 9
#define TOKEN_SHOWN 64          /* longest excerpt of a bad token quoted */

static const char *const names8[] = {"id", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};
static const char *const names9[] = {"id", "type", "m", "x", "y", "z",
                                     "vx", "vy", "vz"};

/* Reading state: the file, where we are in it and the growing arrays. */
struct reader {
    const char *path;
    size_t line;                /* 1-based number of the current line */
    int columns;                /* 8 or 9, fixed by the first data line */
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
    if (st == NB_OK && rd->columns == 9)
        st = grow_array((void **)&p->type, cap, sizeof *p->type,
                        "particle types", err);
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

/* One data line of ntok tokens. */
static enum nb_status parse_line(struct reader *rd, char **tok, int ntok,
                                 struct nb_error *err)
{
    struct nb_particles *p = rd->p;
    enum nb_status st;

    if (rd->columns == 0 && (ntok == 8 || ntok == 9))
        rd->columns = ntok;
    if (ntok != rd->columns) {
        if (rd->columns == 0)
            return nb_error_set(err, NB_ERR_PARSE,
                                "%s:%zu: expected 8 or 9 columns, found %d",
                                rd->path, rd->line, ntok);
        return nb_error_set(err, NB_ERR_PARSE,
                            "%s:%zu: expected %d columns like the first data "
                            "line, found %d", rd->path, rd->line,
                            rd->columns, ntok);
    }
    st = reserve_one(rd, err);
    if (st == NB_OK)
        st = parse_id(rd, tok[0], &p->id[p->n], err);
    if (st == NB_OK && rd->columns == 9)
        st = parse_type(rd, tok[1], &p->type[p->n], err);
    if (st == NB_OK)
        st = parse_numbers(rd, tok, rd->columns - 7, err);
    if (st == NB_OK)
        p->n++;
    return st;
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
    struct reader rd = {path, 0, 0, 0, p};
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

enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                 const char *comment, struct nb_error *err)
{
    struct nb_outfile out;

    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    if (comment)
        fprintf(out.fp, "# %s\n", comment);
    /* %.17g: every double reads back to itself, so a snapshot can be
     * resumed from or compared without loss. */
    for (size_t i = 0; i < p->n; i++) {
        const double *x = &p->x[3 * i], *v = &p->v[3 * i];

        fprintf(out.fp, "%lld %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                (long long)p->id[i], p->m[i], x[0], x[1], x[2], v[0], v[1],
                v[2]);
    }
    return nb_outfile_commit(&out, err);
}
