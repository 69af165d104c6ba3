/* outfile.c - output files that appear complete or not at all.
 *
 * Data goes to a file without a name (O_TMPFILE) in the directory of the
 * path, linked in only after every write, flush and fsync has succeeded: a
 * run killed at any moment leaves nothing.  Where the file system has no
 * O_TMPFILE (or /proc is missing, through which the file is linked), data
 * goes to "<path>.tmp.XXXXXX" instead, renamed onto path at the end.  A
 * file that replaces another is linked under such a temporary name and
 * renamed over it, so that replacing stays atomic; the name lives for the
 * two calls between.  Renaming would replace whatever sits at the path, so
 * a symbolic link is first followed to the file it names, and anything
 * that is not a regular file (/dev/null, /dev/full, a FIFO, a pipe or
 * terminal behind /dev/stdout) is written through directly.
 */
#define _GNU_SOURCE     /* O_TMPFILE, linkat's AT_EMPTY_PATH */
#include "nb_host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio_ext.h>
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

/* The directory that holds path (".", "/" or its part before the last
 * slash), in a new string; NULL on error. */
static char *directory_of(const char *path, struct nb_error *err)
{
    const char *slash = strrchr(path, '/');
    char *dir;

    if (!slash)
        return copy_string(".", 0, err);
    if ((dir = copy_string(path, 0, err)))
        dir[slash == path ? 1 : slash - path] = '\0';
    return dir;
}

/* A buffer large enough that a flushed row or dump frame (up to 1 MiB)
 * reaches the file in one write: a long log killed between writes holds
 * whole rows only. */
static void whole_writes(FILE *fp)
{
    setvbuf(fp, NULL, _IOFBF, (size_t)1 << 20);
}

/* A device, FIFO, pipe or terminal: written through at the path given
 * (the kernel resolves /dev/stdout and /proc/self/fd/N there). */
static enum nb_status open_direct(struct nb_outfile *f, const char *path,
                                  struct nb_error *err)
{
    free(f->path);
    if (!(f->path = copy_string(path, 0, err)))
        return NB_ERR_NOMEM;
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

/* /proc/self/fd/N of fd, through which an unnamed file is linked in. */
static void proc_fd(char *out, size_t size, int fd)
{
    snprintf(out, size, "/proc/self/fd/%d", fd);
}

/* An unnamed file in the directory of f->path: fd, or -1 where the file
 * system (or a missing /proc) does not allow one. */
static int open_unnamed(const struct nb_outfile *f, struct nb_error *err)
{
    char *dir = directory_of(f->path, err), proc[64];
    int fd = dir ? open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666) : -1;

    free(dir);
    proc_fd(proc, sizeof proc, fd);
    if (fd >= 0 && access(proc, F_OK) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static int open_named(struct nb_outfile *f, struct nb_error *err)
{
    int fd;

    if (!(f->tmp_path = copy_string(f->path, 11, err)))
        return -1;
    strcat(f->tmp_path, ".tmp.XXXXXX");
    if ((fd = mkstemp(f->tmp_path)) >= 0)
        /* mkstemp makes the file 0600; give the result the permissions a
         * plain fopen would under the usual umask.  Failure is harmless. */
        (void)fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    return fd;
}

static enum nb_status open_temporary(struct nb_outfile *f, struct nb_error *err)
{
    int fd = open_unnamed(f, err);

    f->unnamed = fd >= 0;
    if (fd < 0 && (fd = open_named(f, err)) < 0 && !f->tmp_path) {
        release(f);
        return NB_ERR_NOMEM;
    }
    if (fd < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot create a file there: %s",
                     f->path, strerror(errno));
        release(f);
        return NB_ERR_IO;
    }
    f->fp = fdopen(fd, "w");
    if (f->fp)
        whole_writes(f->fp);
    if (!f->fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open a new file there: %s",
                     f->path, strerror(errno));
        close(fd);
        if (f->tmp_path)
            unlink(f->tmp_path);
        release(f);
        return NB_ERR_IO;
    }
    return NB_OK;
}

static enum nb_status refuse_empty(struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_ARGS, "an empty file name ('') cannot be "
                        "written: give a file, or '-' for stdout");
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
    if (!*path)
        return refuse_empty(err);
    /* Not a regular file: written through where the kernel resolves the
     * path (a pipe behind /dev/stdout has no name to follow links to). */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return open_direct(f, path, err);
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
    return S_ISREG(st.st_mode) ? open_temporary(f, err) : open_direct(f, f->path, err);
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

/* Links the unnamed file fd in at `to`; 0 or errno (EEXIST: taken). */
static int link_unnamed(int fd, const char *to)
{
    char proc[64];

    proc_fd(proc, sizeof proc, fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno == EEXIST)
        return EEXIST;
    return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH) == 0 ? 0 : errno;
}

/* The unnamed file fd onto path: linked straight in where nothing is
 * there, else under a fresh temporary name renamed over what is (atomic
 * for a reader).  0 or errno. */
static int place_unnamed(int fd, const char *path)
{
    int error = link_unnamed(fd, path);

    for (int tries = 0; error == EEXIST && tries < 100; tries++) {
        size_t len = strlen(path) + 12;
        char *name = malloc(len);
        int tmp;
        if (!name)
            return ENOMEM;
        snprintf(name, len, "%s.tmp.XXXXXX", path);
        if ((tmp = mkstemp(name)) < 0) {
            error = errno;
            free(name);
            return error;
        }
        close(tmp);
        unlink(name);           /* a free name: taken again at once */
        if ((error = link_unnamed(fd, name)) == 0 && rename(name, path) != 0) {
            error = errno;
            unlink(name);
        }
        free(name);
    }
    return error;
}

/* The new file onto its final name; 0 or errno. */
static int place(struct nb_outfile *f)
{
    if (f->unnamed)
        return place_unnamed(fileno(f->fp), f->path);
    if (f->tmp_path)
        return rename(f->tmp_path, f->path) == 0 ? 0 : errno;
    return 0;
}

/* Buffered data out and (sync) onto the disk (EINVAL: this file cannot be
 * synced, which is not a lost write).  0 or the errno of the failure. */
static int flush_fp(FILE *fp, int sync)
{
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp))
        return errno ? errno : EIO;
    if (sync && fsync(fileno(fp)) != 0 && errno != EINVAL)
        return errno;
    return 0;
}

/* flush_fp for f; a published file that failed is cut back to its bytes
 * after the last good flush (a full disk leaves no half row in a log). */
static int flush_file(struct nb_outfile *f, int sync)
{
    int error = flush_fp(f->fp, sync);

    if (error && f->published) {
        __fpurge(f->fp);    /* the rest of the row must not follow at close */
        (void)!ftruncate(fileno(f->fp), (off_t)f->flushed);
    }
    else if (!error && f->path)
        f->flushed = (long long)ftello(f->fp);
    return error;
}

enum nb_status nb_outfile_check_in_place(const struct nb_outfile *f, struct nb_error *err)
{
    struct stat mine, there;

    if (!f->published || !f->fp)
        return NB_OK;
    if (fstat(fileno(f->fp), &mine) == 0 && stat(f->path, &there) == 0 &&
        mine.st_dev == there.st_dev && mine.st_ino == there.st_ino)
        return NB_OK;
    return nb_error_set(err, NB_ERR_IO, "%s: removed or replaced by another program "
                        "while this run wrote it (the rows since are not there)",
                        f->path);
}

enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err)
{
    enum nb_status st = NB_OK;
    int error;

    if (!f->fp)
        return NB_OK;
    if (!f->path)
        return commit_stdout(f, err);
    if ((error = flush_file(f, 1)) != 0)
        st = nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                          strerror(error));
    else if (nb_outfile_check_in_place(f, err) != NB_OK)
        st = err->status;
    else if ((error = place(f)) != 0)
        st = nb_error_set(err, NB_ERR_IO, "%s: cannot put the new file in place: %s",
                          f->path, strerror(error));
    if (fclose(f->fp) != 0 && st == NB_OK)
        st = nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                          strerror(errno));
    if (st != NB_OK && f->tmp_path)
        unlink(f->tmp_path);
    release(f);
    return st;
}

void nb_outfile_abort(struct nb_outfile *f)
{
    if (f->fp && f->path)
        fclose(f->fp);          /* an unnamed file goes with its last descriptor */
    if (f->tmp_path)
        unlink(f->tmp_path);
    release(f);
}

/* Buffered data out and, for a file of our own, onto the disk: the write
 * errors that commit would find, found before anything is renamed. */
static enum nb_status flush_one(struct nb_outfile *f, struct nb_error *err)
{
    int error = flush_file(f, f->tmp_path || f->unnamed);

    if (error)
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s",
                            f->path ? f->path : "stdout", strerror(error));
    return nb_outfile_check_in_place(f, err);
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
    int error;

    if (!f->fp || !(f->tmp_path || f->unnamed))
        return NB_OK;
    if (nb_outfile_flush(f, 1, err) != NB_OK)
        return err->status;
    if ((error = place(f)) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot put the new file in place: %s",
                            f->path, strerror(error));
    free(f->tmp_path);
    f->tmp_path = NULL;
    f->unnamed = 0;
    f->published = 1;
    return NB_OK;
}

enum nb_status nb_outfile_flush(struct nb_outfile *f, int sync, struct nb_error *err)
{
    int error;

    if (!f->fp)
        return NB_OK;
    error = flush_file(f, sync && f->path && (f->tmp_path || f->unnamed ||
                                               f->published));
    if (error)
        return nb_error_set(err, NB_ERR_IO, "%s: write error: %s",
                            f->path ? f->path : "stdout", strerror(error));
    return NB_OK;
}

long long nb_outfile_size(struct nb_outfile *f)
{
    if (!f->fp || !f->path || !(f->tmp_path || f->unnamed || f->published))
        return -1;
    return (long long)ftello(f->fp);
}

enum nb_status nb_outfile_check(const char *path, struct nb_error *err)
{
    struct stat st;
    char *target, *slash;
    int ok;

    if (is_stdout(path))
        return NB_OK;
    if (!*path)
        return refuse_empty(err);
    if (!(target = follow_links(path, err)))
        return err ? err->status : NB_ERR_IO;
    if (stat(target, &st) == 0 || stat(path, &st) == 0) {
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
    char *target = path && !is_stdout(path) && *path ? follow_links(path, &quiet) : NULL;
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
