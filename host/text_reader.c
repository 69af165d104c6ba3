/* text_reader.c - the one line, field and number reader of every text
 * format (snapshots, coefficient tables, LAMMPS dumps, exclusion lists).
 *
 * Lines up to NB_TEXT_MAX_LINE bytes (a file without newlines, such as
 * /dev/zero, must not take all memory); LF, CRLF and a last line without a
 * newline alike; a UTF-8 byte-order mark at the start is skipped (editors
 * on Windows write one); a NUL byte is refused (a binary file).  Fields
 * are separated by whitespace; '#' starts a comment as the format says
 * (enum nb_text_comments).  Every error names
 * file:line:column, the column being that of the offending field, so that
 * all formats report the same way in the same words.
 */
#include "nb_host.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
           c == '\f';
}

enum nb_status nb_text_open(struct nb_text *t, const char *path,
                            enum nb_text_comments comments,
                            struct nb_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->comments = comments;
    t->fp = fopen(path, "r");
    if (!t->fp)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot open: %s", path,
                            strerror(errno));
    return NB_OK;
}

void nb_text_close(struct nb_text *t)
{
    if (t->fp)
        fclose(t->fp);
    free(t->line);
    free(t->buf);
    free(t->split);
    free(t->field);
    free(t->column);
    memset(t, 0, sizeof *t);
}

/* Room for one more field in the field and column arrays. */
static enum nb_status reserve_field(struct nb_text *t, struct nb_error *err)
{
    size_t cap = t->field_cap ? 2 * t->field_cap : 16;
    char **field;
    size_t *column;

    if ((size_t)t->nfield < t->field_cap)
        return NB_OK;
    field = realloc(t->field, cap * sizeof *field);
    if (field)
        t->field = field;
    column = field ? realloc(t->column, cap * sizeof *column) : NULL;
    if (!column)
        return nb_error_set(err, NB_ERR_NOMEM, "%s:%zu: out of host memory "
                            "for the fields of a line", t->path, t->lineno);
    t->column = column;
    t->field_cap = cap;
    return NB_OK;
}

/* Does the comment rule end the data at c?  In both commented formats a
 * '#' ends the data of a line; a line that starts with '#' is a comment
 * whose fields stay split where the format reads a declaration there. */
static int comment_starts(const struct nb_text *t, const char *c)
{
    if (*c != '#' || t->comments == NB_TEXT_NO_COMMENTS)
        return 0;
    return t->comments == NB_TEXT_COMMENT_ANYWHERE ||
           (t->nfield > 0 && t->field[0][0] != '#');
}

/* Splits a copy of the line into NUL-terminated fields with their
 * columns; '#' stops the fields where comments may start anywhere. */
static enum nb_status split_line(struct nb_text *t, struct nb_error *err)
{
    char *c = t->split;

    memcpy(t->split, t->line, t->length + 1);
    t->nfield = 0;
    for (;;) {
        while (is_space(*c))
            c++;
        if (!*c || comment_starts(t, c))
            break;
        enum nb_status st = reserve_field(t, err);

        if (st != NB_OK)
            return st;
        t->field[t->nfield] = c;
        t->column[t->nfield++] = (size_t)(c - t->split) + 1;
        while (*c && !is_space(*c) && !comment_starts(t, c))
            c++;
        if (comment_starts(t, c)) {
            *c = '\0';         /* the rest is comment */
            break;
        }
        if (*c)
            *c++ = '\0';
    }
    t->is_comment = t->comments == NB_TEXT_COMMENT_LINES && t->nfield > 0 &&
                    t->field[0][0] == '#';
    return NB_OK;
}

/* The end of the file: a read error, or the position after the last
 * character for messages about what is missing there. */
static enum nb_status reached_end(struct nb_text *t, struct nb_error *err)
{
    if (ferror(t->fp))
        return nb_error_set(err, NB_ERR_IO, "%s: read error: %s", t->path,
                            strerror(errno ? errno : EIO));
    t->at_end = 1;
    t->nfield = 0;
    t->is_comment = 0;
    return NB_OK;
}

/* Room for a line of at least need bytes (and its NUL). */
static enum nb_status reserve_line(struct nb_text *t, size_t need,
                                   struct nb_error *err)
{
    size_t cap = t->line_cap ? t->line_cap : 256;
    char *line;

    if (need < t->line_cap)
        return NB_OK;
    while (cap <= need)
        cap *= 2;
    line = realloc(t->line, cap);
    if (!line)
        return nb_error_set(err, NB_ERR_NOMEM, "%s:%zu: out of host memory "
                            "for a line", t->path, t->lineno + 1);
    t->line = line;
    t->line_cap = cap;
    return NB_OK;
}

/* The next bytes of the file in t->buf (64 KiB reads, scanned with
 * memchr: as fast as getline); 0 at the end of the file or on an error. */
#define NB_TEXT_CHUNK 65536
static size_t refill(struct nb_text *t)
{
    if (!t->buf && !(t->buf = malloc(NB_TEXT_CHUNK)))
        return 0;
    t->buf_at = 0;
    t->buf_len = fread(t->buf, 1, NB_TEXT_CHUNK, t->fp);
    return t->buf_len;
}

/* One line into t->line: its length with the newline, -1 at the end of
 * the file, -2 after an error.  A line past NB_TEXT_MAX_LINE or holding a
 * NUL byte is an error, reported before the rest of it is read. */
static ssize_t read_line(struct nb_text *t, struct nb_error *err)
{
    size_t n = 0;

    for (;;) {
        if (t->buf_at == t->buf_len && refill(t) == 0) {
            if (!t->buf)
                nb_error_set(err, NB_ERR_NOMEM, "%s: out of host memory for a "
                             "read buffer", t->path);
            if (!t->buf)
                return -2;
            break;
        }
        const char *at = t->buf + t->buf_at;
        size_t left = t->buf_len - t->buf_at;
        const char *nl = memchr(at, '\n', left);
        size_t chunk = nl ? (size_t)(nl - at) + 1 : left;
        const char *nul = memchr(at, '\0', chunk);
        if (nul) {
            nb_error_set(err, NB_ERR_PARSE, "%s:%zu:%zu: a NUL byte: a binary "
                         "file, not text", t->path, t->lineno + 1,
                         n + (size_t)(nul - at) + 1);
            return -2;
        }
        /* the line end (LF or CRLF) does not count */
        size_t end = !nl ? 0 : nl > at && nl[-1] == '\r' ? 2 : 1;
        if (n + chunk - end > NB_TEXT_MAX_LINE) {
            nb_error_set(err, NB_ERR_PARSE, "%s:%zu: line longer than the "
                         "limit of %d bytes (not a text file of this kind?)",
                         t->path, t->lineno + 1, NB_TEXT_MAX_LINE);
            return -2;
        }
        if (reserve_line(t, n + chunk, err) != NB_OK)
            return -2;
        memcpy(t->line + n, at, chunk);
        n += chunk;
        t->buf_at += chunk;
        if (nl)
            break;
    }
    if (n == 0)
        return -1;
    t->line[n] = '\0';
    return (ssize_t)n;
}

long nb_text_tell(const struct nb_text *t)
{
    long at = ftell(t->fp);
    return at < 0 ? at : at - (long)(t->buf_len - t->buf_at);
}

/* A UTF-8 byte-order mark opening line 1 is not data. */
static void skip_bom(struct nb_text *t, ssize_t *got)
{
    if (t->lineno != 1 || *got < 3 || memcmp(t->line, "\xef\xbb\xbf", 3) != 0)
        return;
    memmove(t->line, t->line + 3, (size_t)*got - 2);
    *got -= 3;
}

enum nb_status nb_text_next(struct nb_text *t, struct nb_error *err)
{
    ssize_t got;
    char *split;

    if (t->at_end)
        return NB_OK;
    errno = 0;
    got = read_line(t, err);
    if (got == -2)
        return err->status;
    if (got == -1)
        return reached_end(t, err);
    t->lineno++;
    skip_bom(t, &got);
    t->newline = got > 0 && t->line[got - 1] == '\n';
    while (got > 0 && is_space(t->line[got - 1]))
        t->line[--got] = '\0';
    t->length = (size_t)got;
    if (t->split_cap < t->line_cap) {
        split = realloc(t->split, t->line_cap);
        if (!split)
            return nb_error_set(err, NB_ERR_NOMEM, "%s:%zu: out of host "
                                "memory for a line of %zu bytes", t->path,
                                t->lineno, t->length);
        t->split = split;
        t->split_cap = t->line_cap;
    }
    return split_line(t, err);
}

enum nb_status nb_text_next_data(struct nb_text *t, struct nb_error *err)
{
    enum nb_status st;

    do
        st = nb_text_next(t, err);
    while (st == NB_OK && !t->at_end && (t->nfield == 0 || t->is_comment));
    return st;
}

/* The line and column of field (past the last field: just after it; at
 * the end of the file: just after the last character). */
static void position(const struct nb_text *t, int field, size_t *line,
                     size_t *column)
{
    *line = t->lineno;
    if (t->at_end) {
        *line = t->newline || t->lineno == 0 ? t->lineno + 1 : t->lineno;
        *column = t->newline || t->lineno == 0 ? 1 : t->length + 1;
    } else if (field >= 0 && field < t->nfield) {
        *column = t->column[field];
    } else if (t->nfield > 0) {
        *column = t->column[t->nfield - 1] + strlen(t->field[t->nfield - 1]);
    } else {
        *column = 1;
    }
}

enum nb_status nb_text_error(const struct nb_text *t, int field,
                             struct nb_error *err, const char *fmt, ...)
{
    char reason[768];
    size_t line, column;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    position(t, field, &line, &column);
    return nb_error_set(err, NB_ERR_PARSE, "%s:%zu:%zu: %s", t->path, line,
                        column, reason);
}

/* "expected 8 fields" or "expected 8 or 9 fields" or "8 to 10". */
static void describe_count(char *out, size_t size, int min, int max)
{
    if (min == max)
        snprintf(out, size, "%d field%s", min, min == 1 ? "" : "s");
    else
        snprintf(out, size, "%d %s %d fields", min,
                 max == min + 1 ? "or" : "to", max);
}

const char *nb_text_excerpt(const char *field, char out[NB_TEXT_EXCERPT_SIZE])
{
    size_t k = 0;

    for (; field[k] && k < NB_TEXT_EXCERPT_SIZE - 1; k++) {
        unsigned char c = (unsigned char)field[k];
        out[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[k] = '\0';
    return out;
}

enum nb_status nb_text_expect_fields(const struct nb_text *t, int min, int max,
                                     const char *what, struct nb_error *err)
{
    char count[64], shown[NB_TEXT_EXCERPT_SIZE];

    describe_count(count, sizeof count, min, max);
    if (t->nfield < min)
        return nb_text_error(t, t->nfield, err, "missing field: expected %s "
                             "(%s), found %d", count, what, t->nfield);
    if (t->nfield > max)
        return nb_text_error(t, max, err, "extra field '%s': expected %s "
                             "(%s), found %d", nb_text_excerpt(t->field[max], shown),
                             count, what, t->nfield);
    return NB_OK;
}

/* The text of field for strtod or strtoll (errno cleared), or NULL
 * after a "missing field" error. */
static const char *number_text(const struct nb_text *t, int field,
                               const char *name, struct nb_error *err)
{
    if (field < 0 || field >= t->nfield) {
        nb_text_error(t, field, err, "missing field: %s", name);
        return NULL;
    }
    errno = 0;
    return t->field[field];
}

/* "NAME: not a number: 'F'" where the conversion stopped short of the
 * end of the field (or never started). */
static enum nb_status check_whole(const struct nb_text *t, int field,
                                  const char *name, const char *end,
                                  const char *kind, struct nb_error *err)
{
    const char *text = t->field[field];
    char shown[NB_TEXT_EXCERPT_SIZE];

    if (end != text && *end == '\0')
        return NB_OK;
    return nb_text_error(t, field, err, "%s: not %s: '%s'", name, kind,
                         nb_text_excerpt(text, shown));
}

/* Overflow gives inf and underflow to zero loses the value: both refused.
 * A subnormal result keeps a value (and is what %.17g writes for one), so
 * it is read. */
enum nb_status nb_text_double(const struct nb_text *t, int field,
                              const char *name, double *out,
                              struct nb_error *err)
{
    const char *text = number_text(t, field, name, err);
    char *end, shown[NB_TEXT_EXCERPT_SIZE];

    if (!text)
        return NB_ERR_PARSE;
    *out = strtod(text, &end);
    if (check_whole(t, field, name, end, "a number", err) != NB_OK)
        return NB_ERR_PARSE;
    if (errno == ERANGE && isinf(*out))
        return nb_text_error(t, field, err, "%s: out of range: '%s' "
                             "overflows a double", name, nb_text_excerpt(text, shown));
    if (!isfinite(*out))
        return nb_text_error(t, field, err, "%s: not finite: '%s'", name,
                             nb_text_excerpt(text, shown));
    if (errno == ERANGE && *out == 0.0)
        return nb_text_error(t, field, err, "%s: out of range: '%s' "
                             "underflows a double", name, nb_text_excerpt(text, shown));
    return NB_OK;
}

enum nb_status nb_text_int(const struct nb_text *t, int field,
                           const char *name, long long lo, long long hi,
                           long long *out, struct nb_error *err)
{
    const char *text = number_text(t, field, name, err);
    char *end, shown[NB_TEXT_EXCERPT_SIZE];

    if (!text)
        return NB_ERR_PARSE;
    *out = strtoll(text, &end, 10);
    if (check_whole(t, field, name, end, "an integer", err) != NB_OK)
        return NB_ERR_PARSE;
    if (errno == ERANGE || *out < lo || *out > hi)
        return nb_text_error(t, field, err, "%s: out of range: '%s' is "
                             "outside %lld..%lld", name, nb_text_excerpt(text, shown),
                             lo, hi);
    return NB_OK;
}
