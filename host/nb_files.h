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

/* ---- output files (outfile.c, outfile_mark.c) ------------------------- */

/* FNV-1a, 64 bits, of size bytes continued from h (start: NB_FNV_START). */
#define NB_FNV_START 0xcbf29ce484222325ull
uint64_t nb_fnv1a(uint64_t h, const void *data, size_t size);
/* NB_OK, or NB_ERR_IO where a published file's path no longer names it. */
enum nb_status nb_outfile_check_in_place(const struct nb_outfile *f, struct nb_error *err);

/* ---- checkpoints (checkpoint.c) ---------------------------------------- */

/* A checkpoint: the whole state of a run, to continue it bit for bit.  The
 * file is binary, in the writer's byte order:
 *   "GLNBCKPT"  magic, 8 bytes
 *   u32 version (NB_CKPT_VERSION), u32 byte-order mark 0x01020304,
 *   u32 kind (enum nb_ckpt_kind), u32 0, u64 particle count,
 *   u64 bytes of the sections that follow,
 *   sections: u32 tag (four letters), u32 0, u64 size, data padded to 8,
 *   u32 0, u32 zlib crc32 of every byte before it.
 * (Version 1 had the CRC before the zero word, which it did not cover; it
 * is still read, its zero word checked.)  A reader refuses, with the
 * reason, a file that is shorter or longer than its header says, fails its
 * CRC, has another magic, version, byte order or kind, or lacks a section
 * or has one of the wrong size. */
#define NB_CKPT_VERSION 2u
#define NB_CKPT_VERSION_OLDEST 1u

enum nb_ckpt_kind { NB_CKPT_RUN = 1, NB_CKPT_MD = 2 };

struct nb_ckpt {
    unsigned char *data;    /* the file's bytes, header first */
    size_t size, capacity;
    enum nb_ckpt_kind kind;
    uint64_t n;
};

/* Starts an empty checkpoint of n particles. */
enum nb_status nb_ckpt_begin(struct nb_ckpt *c, enum nb_ckpt_kind kind, uint64_t n,
                             struct nb_error *err);
/* Appends a section (tag: four characters). */
enum nb_status nb_ckpt_put(struct nb_ckpt *c, const char *tag, const void *data,
                           size_t size, struct nb_error *err);
/* Seals it (sizes, CRC) and writes it through nb_outfile (temporary name,
 * fsync, rename), so that the last good checkpoint stays until a new one
 * is whole on the disk. */
enum nb_status nb_ckpt_write(struct nb_ckpt *c, const char *path, struct nb_error *err);
/* Reads and checks path, a checkpoint of kind `kind` (refusing the other
 * command's with the reason); errors name the file.  NB_ERR_PARSE. */
enum nb_status nb_ckpt_read(struct nb_ckpt *c, const char *path, enum nb_ckpt_kind kind,
                            struct nb_error *err);
/* The same from memory (the fuzz target); name labels the errors. */
enum nb_status nb_ckpt_parse(struct nb_ckpt *c, const void *data, size_t size,
                             const char *name, enum nb_ckpt_kind kind,
                             struct nb_error *err);
/* The section tag: its data and size, or NULL when it is missing. */
const void *nb_ckpt_find(const struct nb_ckpt *c, const char *tag, size_t *size);
/* Section tag of exactly `size` bytes copied to out (NULL: only checked);
 * NB_ERR_PARSE naming the file (name) and the section where it is missing
 * or of another size. */
enum nb_status nb_ckpt_get(const struct nb_ckpt *c, const char *name, const char *tag,
                           void *out, size_t size, struct nb_error *err);
void nb_ckpt_free(struct nb_ckpt *c);

/* Options as text, "key=value" lines (reals written with %a, exact), for
 * the checkpoint's option section and the restart's comparison. */
struct nb_ckpt_opts {
    char *text;
    size_t size, capacity;
};
enum nb_status nb_ckpt_opts_add(struct nb_ckpt_opts *o, const char *key,
                                const char *value, struct nb_error *err);
enum nb_status nb_ckpt_opts_add_real(struct nb_ckpt_opts *o, const char *key,
                                     double value, struct nb_error *err);
/* The value of key in text (size bytes, as stored) into out (NUL-ended,
 * cut to out_size), or 0 when the key is missing. */
int nb_ckpt_opts_lookup(const char *text, size_t size, const char *key, char *out,
                        size_t out_size);
void nb_ckpt_opts_free(struct nb_ckpt_opts *o);

#endif
