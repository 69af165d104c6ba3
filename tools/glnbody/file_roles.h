/* file_roles.h - the files a command reads and writes, checked together
 * before any work (file_roles.c): no two outputs, and no output and input,
 * may be one file, however their paths are spelt. */
#ifndef NB_FILE_ROLES_H
#define NB_FILE_ROLES_H

#include "cli.h"

enum nb_file_role {
    NB_FILE_IN,         /* read (several inputs may be one file) */
    NB_FILE_OUT,        /* written or replaced */
    NB_FILE_DIR         /* a directory of numbered outputs prefix_NNNNN.suffix */
};

/* One file option of a command.  Unset entries (path NULL) are skipped,
 * and so is "-" (stdout, which several outputs may share). */
struct nb_file_use {
    const char *option;         /* without "--" */
    const char *path;
    enum nb_file_role role;
    const char *prefix, *suffix;    /* NB_FILE_DIR: its files' names */
    int group;                  /* > 0: entries of one group may be one file
                                   (--restart reads the checkpoint that
                                   --checkpoint then replaces) */
};

/* Refuses (NB_ERR_ARGS, naming both options and the file) two outputs, or
 * an output and an input, that name one file: paths are resolved through
 * symbolic links, "." and "..", hard links (by device and inode), and a
 * file not made yet by its directory and name; an output inside a
 * NB_FILE_DIR directory named as one of its numbered files; a NB_FILE_DIR
 * that names a file; an empty path.  command prefixes the message. */
enum nb_status nb_check_file_uses(const char *command, const struct nb_file_use *uses,
                                  size_t n, struct nb_error *err);

/* 1 when the two paths name one file (existing or to be made), as
 * nb_check_file_uses resolves them; 0 when not or when either cannot be
 * resolved. */
int nb_same_file(const char *a, const char *b);

#endif
