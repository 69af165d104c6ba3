/* nb_files.h - text files: the one reader of every text format, and
 * particle snapshots. */
#ifndef NB_FILES_H
#define NB_FILES_H

#include "nb_base.h"

/* ---- text files: the one reader of every text format ----------------- */

/* Where '#' starts a comment. */
enum nb_text_comments {
    NB_TEXT_NO_COMMENTS,        /* '#' is data (LAMMPS dumps) */
    NB_TEXT_COMMENT_LINES,      /* a line whose first field starts with '#'
                                   (snapshots, which read a declaration
                                   there: its fields stay split) */
    NB_TEXT_COMMENT_ANYWHERE    /* '#' ends the data of any line
                                   (coefficient tables, exclusion lists) */
};

/* A text file read line by line.  After nb_text_next the current line is
 * in line (trailing whitespace, so LF or CRLF, stripped) and split into
 * nfield whitespace-separated fields (NUL-terminated copies) starting at
 * the 1-based byte columns column[]; at the end of the file at_end is set
 * and nfield is 0.  Lines have any length. */
struct nb_text {
    const char *path;
    FILE *fp;
    enum nb_text_comments comments;
    size_t lineno;              /* 1-based number of the current line */
    char *line;
    size_t length;              /* of line */
    int nfield;
    char **field;
    size_t *column;
    int is_comment;             /* a comment line (NB_TEXT_COMMENT_LINES) */
    int at_end;                 /* no line left */
    int newline;                /* the current line ended in '\n' */
    size_t line_cap, split_cap, field_cap;
    char *split;                /* the fields' storage */
};

/* Opens path (NB_ERR_IO "path: cannot open: ..."). */
enum nb_status nb_text_open(struct nb_text *t, const char *path,
                            enum nb_text_comments comments,
                            struct nb_error *err);
void nb_text_close(struct nb_text *t);

/* The next line, or at_end; NB_ERR_IO on a read error. */
enum nb_status nb_text_next(struct nb_text *t, struct nb_error *err);

/* The next line with data: blank and comment lines skipped. */
enum nb_status nb_text_next_data(struct nb_text *t, struct nb_error *err);

/* NB_ERR_PARSE with "path:line:column: reason", the column that of field
 * (past the last field: just after it; at the end of the file: the start
 * of the line after the last newline, or just after the text of a last
 * line without one). */
enum nb_status nb_text_error(const struct nb_text *t, int field,
                             struct nb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* What a message quotes of a bad field: its first 64 characters, each
 * byte outside printable ASCII shown as '?' (a binary file must not put
 * raw bytes on the terminal).  Returns out. */
#define NB_TEXT_EXCERPT_SIZE 65
const char *nb_text_excerpt(const char *field, char out[NB_TEXT_EXCERPT_SIZE]);
/* min..max fields, else "missing field: expected N fields (what), found
 * M" at the end of the line or "extra field 'F': ..." at the first one
 * too many. */
enum nb_status nb_text_expect_fields(const struct nb_text *t, int min, int max,
                                     const char *what, struct nb_error *err);

/* Field number field as a finite double, the whole field; name says what
 * it is in the message ("NAME: not a number: 'F'", "NAME: not finite",
 * "NAME: out of range: 'F' overflows/underflows a double", "missing
 * field: NAME").  Subnormal values are read; underflow to 0 is refused. */
enum nb_status nb_text_double(const struct nb_text *t, int field,
                              const char *name, double *out,
                              struct nb_error *err);

/* Field number field as a decimal integer in lo..hi ("NAME: not an
 * integer: 'F'", "NAME: out of range: 'F' is outside LO..HI"). */
enum nb_status nb_text_int(const struct nb_text *t, int field,
                           const char *name, long long lo, long long hi,
                           long long *out, struct nb_error *err);

/* ---- snapshot files ---------------------------------------------------- */

/* A width x height RGB picture (3 bytes a pixel, rows top first) as a PNG
 * file through libpng, under a temporary name renamed into place
 * (png_write.c).  Errors: NB_ERR_ARGS, NB_ERR_IO (libpng's reason). */
enum nb_status nb_png_write(const char *path, int width, int height,
                            const unsigned char *rgb, struct nb_error *err);

#endif
