/* checkpoint.c - the checkpoint file: a header, tagged sections and a CRC
 * (layout in nb_files.h).  The whole file is built in memory and written
 * through nb_outfile (temporary name, fflush, fsync, rename), so a reader
 * sees either the previous checkpoint or the new one, never a mixture.
 * The reader trusts nothing: sizes are checked against the file before
 * anything is used, and the CRC before any section is looked at.
 */
#include "nb_host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static const char MAGIC[8] = { 'G', 'L', 'N', 'B', 'C', 'K', 'P', 'T' };
#define BYTE_ORDER_MARK 0x01020304u
#define HEADER_SIZE 40u
#define TRAILER_SIZE 8u
#define SECTION_HEADER 16u
/* A file larger than this is not a checkpoint of ours: refused before it
 * is read (2^32 particles of Hermite state stay below it). */
#define MAX_FILE_SIZE ((uint64_t)1 << 42)

static void put_u32(unsigned char *at, uint32_t v)
{
    memcpy(at, &v, 4);
}
static void put_u64(unsigned char *at, uint64_t v)
{
    memcpy(at, &v, 8);
}
static uint32_t get_u32(const unsigned char *at)
{
    uint32_t v;
    memcpy(&v, at, 4);
    return v;
}
static uint64_t get_u64(const unsigned char *at)
{
    uint64_t v;
    memcpy(&v, at, 8);
    return v;
}

static enum nb_status reserve(struct nb_ckpt *c, size_t more, struct nb_error *err)
{
    size_t want = c->size + more;
    if (want < c->size)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for a checkpoint");
    if (want <= c->capacity)
        return NB_OK;
    size_t cap = c->capacity ? c->capacity : 4096;
    while (cap < want)
        cap = cap > SIZE_MAX / 2 ? want : 2 * cap;
    unsigned char *grown = realloc(c->data, cap);
    if (!grown)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for a checkpoint "
                            "of %zu bytes", want);
    c->data = grown;
    c->capacity = cap;
    return NB_OK;
}

enum nb_status nb_ckpt_begin(struct nb_ckpt *c, enum nb_ckpt_kind kind, uint64_t n,
                             struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->n = n;
    if (reserve(c, HEADER_SIZE, err) != NB_OK)
        return err->status;
    memset(c->data, 0, HEADER_SIZE);
    memcpy(c->data, MAGIC, 8);
    put_u32(c->data + 8, NB_CKPT_VERSION);
    put_u32(c->data + 12, BYTE_ORDER_MARK);
    put_u32(c->data + 16, (uint32_t)kind);
    put_u64(c->data + 24, n);
    c->size = HEADER_SIZE;
    return NB_OK;
}

static size_t padded(size_t size)
{
    return (size + 7) & ~(size_t)7;
}

enum nb_status nb_ckpt_put(struct nb_ckpt *c, const char *tag, const void *data,
                           size_t size, struct nb_error *err)
{
    if (size > SIZE_MAX - 64 || reserve(c, SECTION_HEADER + padded(size), err) != NB_OK)
        return err ? err->status : NB_ERR_NOMEM;
    unsigned char *at = c->data + c->size;
    memcpy(at, tag, 4);
    put_u32(at + 4, 0);
    put_u64(at + 8, size);
    if (size)
        memcpy(at + SECTION_HEADER, data, size);
    memset(at + SECTION_HEADER + size, 0, padded(size) - size);
    c->size += SECTION_HEADER + padded(size);
    return NB_OK;
}

/* zlib's crc32 takes uInt lengths: large buffers in pieces. */
static uint32_t crc_of(const unsigned char *data, size_t size)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (size > 0) {
        uInt piece = size > (1u << 30) ? (1u << 30) : (uInt)size;
        crc = crc32(crc, data, piece);
        data += piece;
        size -= piece;
    }
    return (uint32_t)crc;
}

enum nb_status nb_ckpt_write(struct nb_ckpt *c, const char *path, struct nb_error *err)
{
    struct nb_outfile f;

    if (reserve(c, TRAILER_SIZE, err) != NB_OK)
        return err->status;
    put_u64(c->data + 32, c->size - HEADER_SIZE);
    /* Version 2: the CRC last, over every byte before it (version 1 put it
     * before 4 zero bytes it did not cover). */
    put_u32(c->data + c->size, 0);
    put_u32(c->data + c->size + 4, crc_of(c->data, c->size + 4));
    if (nb_outfile_open(&f, path, err) != NB_OK)
        return err->status;
    if (!f.path) {
        nb_outfile_abort(&f);
        return nb_error_set(err, NB_ERR_ARGS, "a checkpoint is binary: give a file, "
                            "not '-' (stdout)");
    }
    if (fwrite(c->data, 1, c->size + TRAILER_SIZE, f.fp) != c->size + TRAILER_SIZE) {
        nb_error_set(err, NB_ERR_IO, "%s: write error: %s", path, strerror(errno));
        nb_outfile_abort(&f);
        return NB_ERR_IO;
    }
    return nb_outfile_commit(&f, err);
}

static enum nb_status bad(const char *name, const char *why, struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: %s", name, why);
}

static const char *kind_name(uint32_t kind)
{
    return kind == NB_CKPT_RUN ? "`glnbody run`" : kind == NB_CKPT_MD ? "`glnbody md`"
                                                                      : "an unknown command";
}

/* The header: magic, version, byte order, kind, and the size it claims. */
static enum nb_status check_header(const unsigned char *d, size_t size, const char *name,
                                   enum nb_ckpt_kind kind, struct nb_error *err)
{
    char why[160];

    if (size < 8 || memcmp(d, MAGIC, 8) != 0)
        return bad(name, size < 8 && memcmp(d, MAGIC, size) == 0 ? "truncated in its "
                   "header" : "no GLNBCKPT magic (not a glnbody checkpoint)", err);
    if (size < HEADER_SIZE + TRAILER_SIZE)
        return bad(name, "truncated: shorter than a header", err);
    if (get_u32(d + 12) != BYTE_ORDER_MARK)
        return bad(name, "written on a machine of the other byte order", err);
    uint32_t version = get_u32(d + 8);
    if (version < NB_CKPT_VERSION_OLDEST || version > NB_CKPT_VERSION) {
        snprintf(why, sizeof why, "format version %u, and this glnbody reads versions %u "
                 "to %u", version, NB_CKPT_VERSION_OLDEST, NB_CKPT_VERSION);
        return bad(name, why, err);
    }
    uint64_t body = get_u64(d + 32);
    if (body > size || HEADER_SIZE + body + TRAILER_SIZE != size) {
        snprintf(why, sizeof why, "%s: the header says %llu bytes, the file has %zu",
                 HEADER_SIZE + body + TRAILER_SIZE > size ? "truncated" : "trailing bytes",
                 (unsigned long long)(body <= size ? HEADER_SIZE + body + TRAILER_SIZE
                                                   : body), size);
        return bad(name, why, err);
    }
    /* Under make fuzz the CRC would stop nearly every input here, and the
     * sections behind it would go unfuzzed. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    /* Version 1's CRC left its last 4 bytes out: they must then be 0. */
    size_t crc_at = version == 1 ? size - TRAILER_SIZE : size - 4;
    if (crc_of(d, crc_at) != get_u32(d + crc_at) ||
        get_u32(d + (version == 1 ? size - 4 : size - TRAILER_SIZE)) != 0)
        return bad(name, "CRC mismatch: the file is damaged", err);
#endif
    if (get_u32(d + 16) != (uint32_t)kind) {
        snprintf(why, sizeof why, "it was written by %s, not %s", kind_name(get_u32(d + 16)),
                 kind_name((uint32_t)kind));
        return bad(name, why, err);
    }
    return NB_OK;
}

/* Every section inside the body, none overlapping the trailer. */
static enum nb_status check_sections(const unsigned char *d, size_t size, const char *name,
                                     struct nb_error *err)
{
    size_t at = HEADER_SIZE, end = size - TRAILER_SIZE;

    while (at < end) {
        if (end - at < SECTION_HEADER)
            return bad(name, "a section header runs past the end", err);
        uint64_t len = get_u64(d + at + 8);
        if (len > end - at - SECTION_HEADER || padded((size_t)len) > end - at - SECTION_HEADER)
            return bad(name, "a section runs past the end", err);
        at += SECTION_HEADER + padded((size_t)len);
    }
    return NB_OK;
}

enum nb_status nb_ckpt_parse(struct nb_ckpt *c, const void *data, size_t size,
                             const char *name, enum nb_ckpt_kind kind,
                             struct nb_error *err)
{
    memset(c, 0, sizeof *c);
    if (size == 0)
        return bad(name, "the file is empty", err);
    if (check_header(data, size, name, kind, err) != NB_OK ||
        check_sections(data, size, name, err) != NB_OK)
        return err->status;
    if (!(c->data = malloc(size)))
        return nb_error_set(err, NB_ERR_NOMEM, "%s: out of host memory (%zu bytes)", name,
                            size);
    memcpy(c->data, data, size);
    c->size = c->capacity = size - TRAILER_SIZE;
    c->kind = kind;
    c->n = get_u64(c->data + 24);
    return NB_OK;
}

enum nb_status nb_ckpt_read(struct nb_ckpt *c, const char *path, enum nb_ckpt_kind kind,
                            struct nb_error *err)
{
    struct stat st;
    unsigned char *data;
    FILE *fp;

    memset(c, 0, sizeof *c);
    if (stat(path, &st) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot read the checkpoint: %s", path,
                            strerror(errno));
    if (S_ISDIR(st.st_mode))
        return nb_error_set(err, NB_ERR_IO, "%s: cannot read the checkpoint: %s", path,
                            strerror(EISDIR));
    if ((uint64_t)st.st_size > MAX_FILE_SIZE)
        return bad(path, "larger than any checkpoint", err);
    if (!(fp = fopen(path, "rb")))
        return nb_error_set(err, NB_ERR_IO, "%s: cannot read the checkpoint: %s", path,
                            strerror(errno));
    size_t size = (size_t)st.st_size;
    data = nb_alloc(size ? size : 1, 1, "the checkpoint", err);
    if (!data) {
        fclose(fp);
        return NB_ERR_NOMEM;
    }
    size_t got = fread(data, 1, size, fp);
    int failed = ferror(fp);
    fclose(fp);
    enum nb_status s = failed ? nb_error_set(err, NB_ERR_IO, "%s: read error: %s", path,
                                             strerror(errno ? errno : EIO))
                              : nb_ckpt_parse(c, data, got, path, kind, err);
    free(data);
    return s;
}

const void *nb_ckpt_find(const struct nb_ckpt *c, const char *tag, size_t *size)
{
    size_t at = HEADER_SIZE;

    while (c->data && at + SECTION_HEADER <= c->size) {
        size_t len = (size_t)get_u64(c->data + at + 8);
        if (memcmp(c->data + at, tag, 4) == 0) {
            *size = len;
            return c->data + at + SECTION_HEADER;
        }
        at += SECTION_HEADER + padded(len);
    }
    return NULL;
}

enum nb_status nb_ckpt_get(const struct nb_ckpt *c, const char *name, const char *tag,
                           void *out, size_t size, struct nb_error *err)
{
    size_t have = 0;
    const void *at = nb_ckpt_find(c, tag, &have);

    if (!at)
        return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: the "
                            "section %.4s is missing", name, tag);
    if (have != size)
        return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: the "
                            "section %.4s has %zu bytes, not %zu", name, tag, have, size);
    if (size && out)
        memcpy(out, at, size);
    return NB_OK;
}

void nb_ckpt_free(struct nb_ckpt *c)
{
    free(c->data);
    memset(c, 0, sizeof *c);
}

/* ---- the option section ------------------------------------------------- */

enum nb_status nb_ckpt_opts_add(struct nb_ckpt_opts *o, const char *key,
                                const char *value, struct nb_error *err)
{
    size_t len = strlen(key) + strlen(value) + 2;
    if (o->size + len + 1 > o->capacity) {
        size_t cap = (o->size + len + 1) * 2;
        char *grown = realloc(o->text, cap);
        if (!grown)
            return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for the options");
        o->text = grown;
        o->capacity = cap;
    }
    o->size += (size_t)snprintf(o->text + o->size, len + 1, "%s=%s\n", key, value);
    return NB_OK;
}

enum nb_status nb_ckpt_opts_add_real(struct nb_ckpt_opts *o, const char *key,
                                     double value, struct nb_error *err)
{
    char text[64];
    snprintf(text, sizeof text, "%a", value);
    return nb_ckpt_opts_add(o, key, text, err);
}

int nb_ckpt_opts_lookup(const char *text, size_t size, const char *key, char *out,
                        size_t out_size)
{
    size_t klen = strlen(key), at = 0;

    while (at < size) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', size - at);
        size_t len = nl ? (size_t)(nl - line) : size - at;
        if (len > klen && memcmp(line, key, klen) == 0 && line[klen] == '=') {
            size_t vlen = len - klen - 1;
            if (vlen >= out_size)
                vlen = out_size - 1;
            memcpy(out, line + klen + 1, vlen);
            out[vlen] = '\0';
            return 1;
        }
        at += len + 1;
    }
    return 0;
}

void nb_ckpt_opts_free(struct nb_ckpt_opts *o)
{
    free(o->text);
    memset(o, 0, sizeof *o);
}
