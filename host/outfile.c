/* outfile.c - output files that appear complete or not at all.
 *
 * Data goes to "<path>.tmp.XXXXXX" in the same directory (so that rename
 * stays within one file system and is atomic) and is renamed onto path
 * only after every write, flush and close has succeeded.
 */
#include "nb_host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path,
                               struct nb_error *err)
{
    int fd;

    memset(f, 0, sizeof *f);
    if (is_stdout(path)) {
        f->fp = stdout;
        return NB_OK;
    }
    f->path = copy_string(path, 0, err);
    f->tmp_path = f->path ? copy_string(path, 11, err) : NULL;
    if (!f->tmp_path) {
        release(f);
        return NB_ERR_NOMEM;
    }
    strcat(f->tmp_path, ".tmp.XXXXXX");
    fd = mkstemp(f->tmp_path);
    if (fd < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot create temporary file: %s",
                     path, strerror(errno));
        release(f);
        return NB_ERR_IO;
    }
    /* mkstemp makes the file 0600; give the result the permissions a
     * plain fopen would under the usual umask.  Failure is harmless. */
    (void)fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    f->fp = fdopen(fd, "w");
    if (!f->fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open temporary file: %s",
                     path, strerror(errno));
        close(fd);
        unlink(f->tmp_path);
        release(f);
        return NB_ERR_IO;
    }
    return NB_OK;
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
    if (!f->tmp_path)
        return commit_stdout(f, err);
    errno = 0;
    error = flush_and_close(f->fp);
    if (error)
        st = nb_error_set(err, NB_ERR_IO, "%s: write error: %s", f->path,
                          strerror(error));
    else if (rename(f->tmp_path, f->path) != 0)
        st = nb_error_set(err, NB_ERR_IO, "%s: cannot rename %s into place: "
                          "%s", f->path, f->tmp_path, strerror(errno));
    if (st != NB_OK)
        unlink(f->tmp_path);
    release(f);
    return st;
}

void nb_outfile_abort(struct nb_outfile *f)
{
    if (f->fp && f->tmp_path) {
        fclose(f->fp);
        unlink(f->tmp_path);
    }
    release(f);
}
