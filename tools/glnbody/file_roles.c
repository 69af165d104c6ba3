/* file_roles.c - one file, one role: the files of a command checked
 * together before any work.  A path is resolved as the kernel would open
 * it: symbolic links at its end followed by hand (so that a link to a file
 * not made yet resolves to where that file will be), the directory part
 * through stat (which resolves "." and ".." and links inside it), and a
 * file compared by device and inode (so hard links are one file).  A file
 * not made yet is known by its directory's device and inode and its name. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_roles.h"

enum { MAX_LINKS = 40 };

struct file_id {
    int ok;                 /* resolved */
    int exists, device, is_dir;
    dev_t dev;              /* the file's (exists) */
    ino_t ino;
    dev_t dir_dev;          /* the directory that holds it */
    ino_t dir_ino;
    char name[NAME_MAX + 1];    /* its name there */
};

/* path with the symbolic links at its end followed, into out. */
static int follow(const char *path, char *out, size_t size)
{
    struct stat st;
    char target[PATH_MAX];

    if (snprintf(out, size, "%s", path) >= (int)size)
        return 0;
    for (int hops = 0; lstat(out, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        ssize_t len = readlink(out, target, sizeof target - 1);
        char *slash = strrchr(out, '/');
        if (hops >= MAX_LINKS || len < 0)
            return 0;
        target[len] = '\0';
        if (target[0] == '/' || !slash)
            slash = out - 1;
        if ((size_t)(slash + 1 - out) + (size_t)len + 1 > size)
            return 0;
        memcpy(slash + 1, target, (size_t)len + 1);
    }
    return 1;
}

static struct file_id resolve(const char *path)
{
    struct file_id id = { 0 };
    char final[PATH_MAX + 1], dir[PATH_MAX + 1];
    struct stat st;

    if (!follow(path, final, sizeof final))
        return id;
    const char *slash = strrchr(final, '/');
    const char *base = slash ? slash + 1 : final;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
        strlen(base) > NAME_MAX)
        return id;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == final ? 1 : slash - final)
                                            : 1, slash ? final : ".");
    if (stat(dir, &st) != 0)
        return id;
    id.dir_dev = st.st_dev;
    id.dir_ino = st.st_ino;
    strcpy(id.name, base);
    if (stat(path, &st) == 0) {
        id.exists = 1;
        id.device = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
        id.is_dir = S_ISDIR(st.st_mode);
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    }
    id.ok = 1;
    return id;
}

static int same_id(const struct file_id *a, const struct file_id *b)
{
    if (!a->ok || !b->ok || a->device || b->device || a->exists != b->exists)
        return 0;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return a->dir_dev == b->dir_dev && a->dir_ino == b->dir_ino &&
           strcmp(a->name, b->name) == 0;
}

int nb_same_file(const char *a, const char *b)
{
    struct file_id ia = resolve(a), ib = resolve(b);
    return same_id(&ia, &ib);
}

/* name is prefix, five digits, suffix. */
static int numbered(const char *name, const char *prefix, const char *suffix)
{
    size_t lp = strlen(prefix);
    if (strncmp(name, prefix, lp) != 0 || strlen(name) != lp + 5 + strlen(suffix))
        return 0;
    for (size_t k = lp; k < lp + 5; k++)
        if (name[k] < '0' || name[k] > '9')
            return 0;
    return strcmp(name + lp + 5, suffix) == 0;
}

/* "--" before an option's name; none before a description ("the report"). */
static const char *dash(const char *option)
{
    return strchr(option, ' ') ? "" : "--";
}

static int is_stdout(const char *path)
{
    return strcmp(path, "-") == 0;
}

/* The file of use f inside directory d (NB_FILE_DIR), as one of its
 * numbered files. */
static int inside(const struct nb_file_use *d, const struct file_id *did,
                  const struct nb_file_use *f)
{
    char final[PATH_MAX + 1];
    if (!follow(f->path, final, sizeof final))
        return 0;
    char *slash = strrchr(final, '/');
    if (!numbered(slash ? slash + 1 : final, d->prefix, d->suffix))
        return 0;
    if (slash == final)
        final[1] = '\0';
    else if (slash)
        *slash = '\0';
    /* The file's directory, made yet or not, is the numbered outputs'. */
    struct file_id in = resolve(slash ? final : ".");
    return same_id(did, &in);
}

static enum nb_status check_pair(const char *command, const struct nb_file_use *a,
                                 const struct file_id *ia, const struct nb_file_use *b,
                                 const struct file_id *ib, struct nb_error *err)
{
    if (a->group > 0 && a->group == b->group)
        return NB_OK;
    if (a->role == NB_FILE_DIR || b->role == NB_FILE_DIR) {
        const struct nb_file_use *d = a->role == NB_FILE_DIR ? a : b, *f = d == a ? b : a;
        const struct file_id *id = d == a ? ia : ib, *fid = d == a ? ib : ia;
        if (f->role == NB_FILE_DIR || !(inside(d, id, f) || same_id(id, fid)))
            return NB_OK;
        if (same_id(id, fid))
            return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s %s and --%s %s are one path: "
                                "give each its own", command, dash(f->option), f->option,
                                f->path, d->option, d->path);
        return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s %s is one of the numbered files "
                            "(%sNNNNN%s) that --%s %s holds: give it another name", command,
                            dash(f->option), f->option, f->path, d->prefix, d->suffix,
                            d->option, d->path);
    }
    if ((a->role == NB_FILE_IN && b->role == NB_FILE_IN) || !same_id(ia, ib))
        return NB_OK;
    if (a->role == NB_FILE_OUT && b->role == NB_FILE_OUT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s %s and %s%s %s are one file: "
                            "each output needs a file of its own", command, dash(a->option),
                            a->option, a->path, dash(b->option), b->option, b->path);
    const struct nb_file_use *in = a->role == NB_FILE_IN ? a : b, *out = in == a ? b : a;
    return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s %s would replace %s%s %s, which "
                        "this command reads: give the output another file", command,
                        dash(out->option), out->option, out->path, dash(in->option),
                        in->option, in->path);
}

enum nb_status nb_check_file_uses(const char *command, const struct nb_file_use *uses,
                                  size_t n, struct nb_error *err)
{
    struct file_id ids[32];

    if (n > sizeof ids / sizeof ids[0])
        return nb_error_set(err, NB_ERR_ARGS, "%s: too many files to check", command);
    for (size_t i = 0; i < n; i++) {
        const struct nb_file_use *u = &uses[i];
        if (u->path && !*u->path)
            return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s: an empty file name", command,
                                dash(u->option), u->option);
        ids[i] = u->path && !is_stdout(u->path) ? resolve(u->path) : (struct file_id){ 0 };
        if (u->role == NB_FILE_DIR && ids[i].exists && !ids[i].is_dir)
            return nb_error_set(err, NB_ERR_ARGS, "%s: %s%s %s: not a directory (a file of "
                                "that name is there)", command, dash(u->option), u->option,
                                u->path);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (uses[i].path && uses[j].path && !is_stdout(uses[i].path) &&
                !is_stdout(uses[j].path) &&
                check_pair(command, &uses[i], &ids[i], &uses[j], &ids[j], err) != NB_OK)
                return err->status;
    return NB_OK;
}
