/* outfile_mark.c - proving that a file is the one a run wrote.
 *
 * A restart continues its long logs (the energy log, thermo, dumps) at the
 * paths its checkpoint names.  Whatever sits there now may be another
 * file: one copied there, a log cut short, a path edited in the
 * checkpoint.  So a mark records the length of the file and a hash of ALL
 * its bytes up to there, and the restart copies those bytes into its new
 * file only when they hash the same; else it refuses, naming the file.
 * The whole file, not its header and first rows: logs of one command
 * begin alike (a CSV header, the same first rows for the same inputs), and
 * a log edited or cut short and regrown in its middle would pass such a
 * check.  The cost stays linear: each mark reads back only the bytes
 * written since the last one, and the restart reads the file once, as the
 * copy must anyway.  No device or inode number is kept: a run directory
 * copied to another disk or machine is still the run's, as its bytes
 * show.  FNV-1a (Fowler, Noll and Vo): 64 bits, so that another file
 * passes by chance once in 2^64, and no cryptographic strength is claimed.
 */
#include "nb_host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK = 1 << 16 };

uint64_t nb_fnv1a(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;

    for (size_t k = 0; k < size; k++) {
        h ^= p[k];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The bytes of fd from f->hashed up to size folded into f->hash. */
static enum nb_status hash_upto(struct nb_outfile *f, long long size,
                                struct nb_error *err)
{
    unsigned char buf[CHUNK];

    if (f->hashed == 0)
        f->hash = NB_FNV_START;
    while (f->hashed < size) {
        long long want = size - f->hashed < CHUNK ? size - f->hashed : CHUNK;
        ssize_t got = pread(fileno(f->fp), buf, (size_t)want, (off_t)f->hashed);
        if (got <= 0)
            return nb_error_set(err, NB_ERR_IO, "%s: cannot read back what was "
                                "written: %s", f->path, got < 0 ? strerror(errno)
                                : "the file is shorter than written");
        f->hash = nb_fnv1a(f->hash, buf, (size_t)got);
        f->hashed += got;
    }
    return NB_OK;
}

enum nb_status nb_outfile_mark(struct nb_outfile *f, int sync, struct nb_outfile_mark *m,
                               struct nb_error *err)
{
    m->size = -1;
    m->hash = 0;
    if (nb_outfile_flush(f, sync, err) != NB_OK ||
        nb_outfile_check_in_place(f, err) != NB_OK)
        return err->status;
    long long size = nb_outfile_size(f);
    if (size < 0)
        return NB_OK;
    if (hash_upto(f, size, err) != NB_OK)
        return err->status;
    m->size = size;
    m->hash = f->hash;
    return NB_OK;
}

static enum nb_status not_ours(struct nb_error *err, const char *path, const char *fmt,
                               ...) __attribute__((format(printf, 3, 4)));

static enum nb_status not_ours(struct nb_error *err, const char *path, const char *fmt,
                               ...)
{
    char why[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return nb_error_set(err, NB_ERR_IO, "%s: not the file this run wrote there (%s)",
                        path, why);
}

/* The first m->size bytes of the open file in, checked against m, and
 * copied to out when out is not NULL. */
static enum nb_status check_bytes(FILE *in, const char *path,
                                  const struct nb_outfile_mark *m, FILE *out,
                                  struct nb_error *err)
{
    unsigned char buf[CHUNK];
    long long left = m->size;
    uint64_t h = NB_FNV_START;

    while (left > 0) {
        size_t want = left < CHUNK ? (size_t)left : CHUNK;
        size_t got = fread(buf, 1, want, in);
        if (got == 0)
            return ferror(in) ? nb_error_set(err, NB_ERR_IO, "%s: read error: %s", path,
                                             strerror(errno ? errno : EIO))
                              : not_ours(err, path, "it became shorter than the %lld "
                                         "bytes it had", m->size);
        h = nb_fnv1a(h, buf, got);
        if (out && fwrite(buf, 1, got, out) != got)
            return nb_error_set(err, NB_ERR_IO, "%s: write error: %s", path,
                                strerror(errno ? errno : EIO));
        left -= (long long)got;
    }
    if (h != m->hash)
        return not_ours(err, path, "its first %lld bytes differ from those the run "
                        "wrote", m->size);
    return NB_OK;
}

/* Whether path is the file m describes; with out, its bytes go there. */
static enum nb_status verify(const char *path, const struct nb_outfile_mark *m, FILE *out,
                             struct nb_error *err)
{
    struct stat st;
    FILE *in;
    enum nb_status s;

    if (!path || strcmp(path, "-") == 0)
        return NB_OK;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT && m->size < 0)
            return NB_OK;
        if (errno == ENOENT)
            return not_ours(err, path, "it is gone; the run had written %lld bytes "
                            "there", m->size);
        return nb_error_set(err, NB_ERR_IO, "%s: %s", path, strerror(errno));
    }
    if (m->size < 0)
        return S_ISREG(st.st_mode) ? not_ours(err, path, "the run wrote no regular file "
                                              "there, and one is there now") : NB_OK;
    if (!S_ISREG(st.st_mode))
        return not_ours(err, path, "it is no longer a regular file; the run had written "
                        "%lld bytes there", m->size);
    if (st.st_size < m->size)
        return not_ours(err, path, "it has %lld bytes, fewer than the %lld the run had "
                        "written: cut short or replaced", (long long)st.st_size, m->size);
    if (!(in = fopen(path, "rb")))
        return nb_error_set(err, NB_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    s = check_bytes(in, path, m, out, err);
    fclose(in);
    return s;
}

enum nb_status nb_outfile_verify(const char *path, const struct nb_outfile_mark *m,
                                 struct nb_error *err)
{
    return verify(path, m, NULL, err);
}

enum nb_status nb_outfile_open_resume(struct nb_outfile *f, const char *path,
                                      const struct nb_outfile_mark *keep, int *kept,
                                      struct nb_error *err)
{
    *kept = 0;
    if (!keep)
        return nb_outfile_open(f, path, err);
    /* Checked before anything is made, so that a refusal leaves nothing. */
    if (verify(path, keep, NULL, err) != NB_OK ||
        nb_outfile_open(f, path, err) != NB_OK)
        return err->status;
    if (keep->size < 0 || !f->path || !(f->tmp_path || f->unnamed))
        return NB_OK;
    /* Checked again as it is copied: the file may change in between. */
    if (verify(f->path, keep, f->fp, err) != NB_OK) {
        nb_outfile_abort(f);
        return err->status;
    }
    f->hashed = keep->size;
    f->hash = keep->hash;
    *kept = 1;
    return NB_OK;
}
