/* outfile.c - output files that appear complete or not at all.
 *
 * Data goes to "<path>.tmp.XXXXXX" in the same directory (so that rename
 * stays within one file system and is atomic) and is renamed onto path
 * only after every write, flush and close has succeeded.  Renaming would
 * replace whatever sits at the path, so a symbolic link is first followed
 * to the file it names, and a device or FIFO (/dev/null, /dev/full) is
 * written through directly: only regular files are ever renamed over.
 */
#include "nb_host.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LINKS = 40 };        /* as the kernel's ELOOP limit */

static int is_stdout(const char *path)
{
    return path == NULL || strcmp(path, "-") == 0;
}

static void release(struct nb_outfile *f)
{
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
}

static char *copy_string(const char *s, size_t extra, struct nb_error *err)
{
    size_t len = strlen(s);
    char *copy = nb_alloc(len + extra + 1, 1, "a file name", err);
    if (copy)
        memcpy(copy, s, len + 1);
    return copy;
}

/* The link's target as a path usable from here: a relative target is
 * relative to the directory that holds the link.  NULL on error. */
static char *link_target(const char *link, struct nb_error *err)
{
    char target[PATH_MAX];
    ssize_t len = readlink(link, target, sizeof target - 1);
    const char *slash = strrchr(link, '/');
    size_t dir_len;
    char *joined;

    if (len < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot read symbolic link: %s",
                     link, strerror(errno));
        return NULL;
    }
    target[len] = '\0';
    dir_len = (target[0] == '/' || !slash) ? 0 : (size_t)(slash - link) + 1;
    joined = nb_alloc(dir_len + (size_t)len + 1, 1, "a file name", err);
    if (joined) {
        memcpy(joined, link, dir_len);
        memcpy(joined + dir_len, target, (size_t)len + 1);
    }
    return joined;
}

/* path with every symbolic link at its end followed (a missing target is
 * fine: it is where the file will be made).  NULL on error. */
static char *follow_links(const char *path, struct nb_error *err)
{
    char *current = copy_string(path, 0, err);
    struct stat st;

    for (int hops = 0; current && lstat(current, &st) == 0 &&
         S_ISLNK(st.st_mode); hops++) {
        char *next = hops < MAX_LINKS ? link_target(current, err) : NULL;
        if (hops >= MAX_LINKS)
            nb_error_set(err, NB_ERR_IO, "%s: %s", path, strerror(ELOOP));
        free(current);
        current = next;
    }
    return current;
}

/* A buffer large enough that a flushed row or dump frame (up to 1 MiB)
 * reaches the file in one write: a long log killed between writes holds
 * whole rows only. */
static void whole_writes(FILE *fp)
{
    setvbuf(fp, NULL, _IOFBF, (size_t)1 << 20);
}

static enum nb_status open_direct(struct nb_outfile *f, struct nb_error *err)
{
    f->fp = fopen(f->path, "w");
    if (f->fp)
        whole_writes(f->fp);
    if (!f->fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open for writing: %s",
                     f->path, strerror(errno));
        release(f);
        return NB_ERR_IO;
    }
    return NB_OK;
}

static enum nb_status open_temporary(struct nb_outfile *f,
                                     struct nb_error *err)
{
    int fd;

    f->tmp_path = copy_string(f->path, 11, err);
    if (!f->tmp_path) {
        release(f);
        return NB_ERR_NOMEM;
    }
    strcat(f->tmp_path, ".tmp.XXXXXX");
    fd = mkstemp(f->tmp_path);
    if (fd < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot create temporary file: %s",
                     f->path, strerror(errno));
        release(f);
        return NB_ERR_IO;
    }
    /* mkstemp makes the file 0600; give the result the permissions a
     * plain fopen would under the usual umask.  Failure is harmless. */
    (void)fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    f->fp = fdopen(fd, "w");
    if (f->fp)
        whole_writes(f->fp);
    if (!f->fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open temporary file: %s",
                     f->path, strerror(errno));
        close(fd);
        unlink(f->tmp_path);
        release(f);
        return NB_ERR_IO;
    }
    return NB_OK;
}

enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path,
                               struct nb_error *err)
{
    struct stat st;

    memset(f, 0, sizeof *f);
    if (is_stdout(path)) {
        f->fp = stdout;
        return NB_OK;
    }
    f->path = follow_links(path, err);
    if (!f->path)
        return err ? err->status : NB_ERR_IO;
    if (stat(f->path, &st) != 0)
        return open_temporary(f, err);
    if (S_ISDIR(st.st_mode)) {
        /* Found now rather than when the finished run is renamed. */
        nb_error_set(err, NB_ERR_IO, "%s: cannot write: %s", path,
                     strerror(EISDIR));
        release(f);
        return NB_ERR_IO;
    }
    return S_ISREG(st.st_mode) ? open_temporary(f, err) : open_direct(f, err);
}

static enum nb_status commit_stdout(struct nb_outfile *f,
                                    struct nb_error *err)
{
    int error = 0;

    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        error = errno ? errno : EIO;
    release(f);
    if (error)
        return nb_error_set(err, NB_ERR_IO, "stdout: write error: %s",
                            strerror(error));
    return NB_OK;
}

/* Everything that can reveal a lost write: buffered data, the disk (fsync;
 * EINVAL means this file cannot be synced, which is not a lost write) and
 * close itself.  Returns 0 or the errno of the first failure. */
static int flush_and_close(FILE *fp)
{
    int error = 0;

    if (fflush(fp) != 0 || ferror(fp))
        error = errno ? errno : EIO;
    else if (fsync(fileno(fp)) != 0 && errno != EINVAL)
        error = errno;
    if (fclose(fp) != 0 && error == 0)
        error = errno;
    return error;
}

enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err)
{
    enum nb_status st = NB_OK;
    int error;

    if (!f->fp)
        return NB_OK;
    if (!f->path)
        return commit_stdout(f, err);
    errno = 0;
    error = flush_and_close(f->fp);
    if (error)
        st = nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                          strerror(error));
    else if (f->tmp_path && rename(f->tmp_path, f->path) != 0)
        st = nb_error_set(err, NB_ERR_IO, "%s: cannot rename %s into place: "
                          "%s", f->path, f->tmp_path, strerror(errno));
    if (st != NB_OK && f->tmp_path)
        unlink(f->tmp_path);
    release(f);
    return st;
}

void nb_outfile_abort(struct nb_outfile *f)
{
    if (f->fp && f->path)
        fclose(f->fp);
    if (f->tmp_path)
        unlink(f->tmp_path);
    release(f);
}

/* Buffered data out and, for a file of our own, onto the disk: the write
 * errors that commit would find, found before anything is renamed. */
static enum nb_status flush_one(struct nb_outfile *f, struct nb_error *err)
{
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s",
                            f->path ? f->path : "stdout",
                            strerror(errno ? errno : EIO));
    if (f->tmp_path && fsync(fileno(f->fp)) != 0 && errno != EINVAL)
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                            strerror(errno));
    return NB_OK;
}

enum nb_status nb_outfile_commit_all(struct nb_outfile *const *files, size_t n,
                                     struct nb_error *err)
{
    enum nb_status st = NB_OK;
    size_t k;

    for (k = 0; k < n && st == NB_OK; k++)
        if (files[k]->fp)
            st = flush_one(files[k], err);
    for (k = 0; k < n && st == NB_OK; k++)
        st = nb_outfile_commit(files[k], err);
    for (k = 0; k < n; k++)
        nb_outfile_abort(files[k]);     /* a no-op after a commit */
    return st;
}

enum nb_status nb_outfile_publish(struct nb_outfile *f, struct nb_error *err)
{
    if (!f->fp || !f->tmp_path)
        return NB_OK;
    if (nb_outfile_flush(f, 1, err) != NB_OK)
        return err->status;
    if (rename(f->tmp_path, f->path) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot rename %s into place: %s",
                            f->path, f->tmp_path, strerror(errno));
    free(f->tmp_path);
    f->tmp_path = NULL;
    f->published = 1;
    return NB_OK;
}

enum nb_status nb_outfile_flush(struct nb_outfile *f, int sync, struct nb_error *err)
{
    if (!f->fp)
        return NB_OK;
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s",
                            f->path ? f->path : "stdout",
                            strerror(errno ? errno : EIO));
    if (sync && f->path && (f->tmp_path || f->published) &&
        fsync(fileno(f->fp)) != 0 && errno != EINVAL)
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                            strerror(errno));
    return NB_OK;
}

long long nb_outfile_size(struct nb_outfile *f)
{
    if (!f->fp || !f->path || !(f->tmp_path || f->published))
        return -1;
    return (long long)ftello(f->fp);
}

/* The first keep bytes of the regular file src onto f->fp; 1 when done. */
static int copy_prefix(struct nb_outfile *f, const char *src, long long keep)
{
    struct stat st;
    char buf[65536];
    FILE *in;

    if (keep < 0 || stat(src, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < keep ||
        !(in = fopen(src, "rb")))
        return 0;
    while (keep > 0) {
        size_t want = keep < (long long)sizeof buf ? (size_t)keep : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        if (got == 0 || fwrite(buf, 1, got, f->fp) != got)
            break;
        keep -= (long long)got;
    }
    fclose(in);
    return keep == 0;
}

enum nb_status nb_outfile_open_resume(struct nb_outfile *f, const char *path,
                                      long long keep, int *kept,
                                      struct nb_error *err)
{
    *kept = 0;
    if (nb_outfile_open(f, path, err) != NB_OK)
        return err->status;
    if (!f->tmp_path)
        return NB_OK;
    *kept = copy_prefix(f, f->path, keep);
    if (!*kept && fseeko(f->fp, 0, SEEK_SET) == 0 && ftruncate(fileno(f->fp), 0) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: %s", f->tmp_path, strerror(errno));
    return NB_OK;
}

enum nb_status nb_outfile_check(const char *path, struct nb_error *err)
{
    struct stat st;
    char *target, *slash;
    int ok;

    if (is_stdout(path))
        return NB_OK;
    if (!(target = follow_links(path, err)))
        return err ? err->status : NB_ERR_IO;
    if (stat(target, &st) == 0) {
        ok = !S_ISDIR(st.st_mode);
        free(target);
        if (!ok)
            return nb_error_set(err, NB_ERR_IO, "%s: cannot write: %s", path,
                                strerror(EISDIR));
        return NB_OK;
    }
    /* A new file: its directory must let us make one there. */
    slash = strrchr(target, '/');
    if (slash == target)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    ok = access(slash ? target : ".", W_OK | X_OK) == 0;
    int error = errno;
    free(target);
    if (!ok)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot create: %s", path,
                            strerror(error));
    return NB_OK;
}

void nb_outfile_remove_temporaries(const char *path)
{
    struct nb_error quiet = { 0 };
    char *target = path && !is_stdout(path) ? follow_links(path, &quiet) : NULL;
    char *slash, *dir_name;
    const char *base;
    DIR *dir;
    struct dirent *e;

    if (!target)
        return;
    slash = strrchr(target, '/');
    base = slash ? slash + 1 : target;
    dir_name = slash ? target : ".";
    if (slash)
        *slash = '\0';
    size_t len = strlen(base);
    if ((dir = opendir(slash && !*target ? "/" : dir_name)) != NULL) {
        while ((e = readdir(dir)) != NULL) {
            /* exactly base ".tmp." and mkstemp's six characters */
            if (strncmp(e->d_name, base, len) != 0 || strncmp(e->d_name + len, ".tmp.", 5)
                != 0 || strlen(e->d_name + len + 5) != 6)
                continue;
            char *stale = nb_alloc(strlen(dir_name) + strlen(e->d_name) + 2, 1,
                                   "a file name", &quiet);
            if (stale) {
                sprintf(stale, "%s/%s", slash && !*target ? "" : dir_name, e->d_name);
                unlink(stale);
                free(stale);
            }
        }
        closedir(dir);
    }
    free(target);
}
