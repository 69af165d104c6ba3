/* ckpt_text.c - the program's section of a checkpoint: "name=value" lines
 * (the options as typed, the outputs' state), built here and handed to
 * nb_hermite_checkpoint or nb_md_checkpoint, read back by
 * nb_checkpoint_app. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt_text.h"

enum nb_status nb_ckpt_text_add(struct ckpt_text *t, const char *key, const char *value,
                                struct nb_error *err)
{
    size_t len = strlen(key) + strlen(value) + 2;
    if (strchr(value, '\n'))
        return nb_error_set(err, NB_ERR_ARGS, "--%s: a value with a newline cannot go "
                            "into a checkpoint", key);
    if (t->size + len + 1 > t->capacity) {
        size_t cap = (t->size + len + 1) * 2;
        char *grown = realloc(t->text, cap);
        if (!grown)
            return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for a checkpoint");
        t->text = grown;
        t->capacity = cap;
    }
    t->size += (size_t)snprintf(t->text + t->size, len + 1, "%s=%s\n", key, value);
    return NB_OK;
}

enum nb_status nb_ckpt_text_add_real(struct ckpt_text *t, const char *key, double value,
                                     struct nb_error *err)
{
    char text[64];
    snprintf(text, sizeof text, "%a", value);
    return nb_ckpt_text_add(t, key, text, err);
}

enum nb_status nb_ckpt_text_add_int(struct ckpt_text *t, const char *key, long long value,
                                    struct nb_error *err)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    return nb_ckpt_text_add(t, key, text, err);
}

enum nb_status nb_ckpt_text_add_hash(struct ckpt_text *t, const char *key, uint64_t value,
                                     struct nb_error *err)
{
    char text[32];
    snprintf(text, sizeof text, "%016llx", (unsigned long long)value);
    return nb_ckpt_text_add(t, key, text, err);
}

int nb_ckpt_text_hash(const struct ckpt_text *t, const char *key, uint64_t *out)
{
    const char *text = nb_ckpt_text_get(t, key);
    char *end;

    *out = 0;
    if (!text || strlen(text) != 16 || strspn(text, "0123456789abcdef") != 16)
        return 0;
    *out = (uint64_t)strtoull(text, &end, 16);
    return 1;
}

enum nb_status nb_ckpt_text_read(struct ckpt_text *t, const char *path,
                                 enum nb_checkpoint_kind kind, uint64_t *n,
                                 struct nb_error *err)
{
    memset(t, 0, sizeof *t);
    if (nb_checkpoint_app(path, kind, &t->text, &t->size, n, err) != NB_OK)
        return err->status;
    if (t->size == 0 || t->text[t->size - 1] != '\n' || strlen(t->text) != t->size)
        return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: it holds no "
                            "options of `glnbody %s` (written by another program?)", path,
                            kind == NB_CHECKPOINT_MD ? "md" : "run");
    for (size_t k = 0; k < t->size; k++)
        if (t->text[k] == '\n')
            t->text[k] = '\0';
    return NB_OK;
}

const char *nb_ckpt_text_get(const struct ckpt_text *t, const char *key)
{
    size_t klen = strlen(key);

    for (size_t at = 0; t->text && at < t->size; at += strlen(t->text + at) + 1)
        if (strncmp(t->text + at, key, klen) == 0 && t->text[at + klen] == '=')
            return t->text + at + klen + 1;
    return NULL;
}

double nb_ckpt_text_real(const struct ckpt_text *t, const char *key)
{
    const char *text = nb_ckpt_text_get(t, key);
    char *end;
    double v = text ? strtod(text, &end) : NAN;
    return text && *text && *end == '\0' ? v : NAN;
}

long long nb_ckpt_text_int(const struct ckpt_text *t, const char *key, long long fallback)
{
    const char *text = nb_ckpt_text_get(t, key);
    char *end;
    long long v = text ? strtoll(text, &end, 10) : 0;
    return text && *text && *end == '\0' ? v : fallback;
}

void nb_ckpt_text_free(struct ckpt_text *t)
{
    free(t->text);
    memset(t, 0, sizeof *t);
}

void nb_ckpt_text_note(const char *command, const char *what, const char *now,
                       const char *then, const char *path)
{
    if (then && strcmp(now, then) != 0)
        fprintf(stderr, "glnbody %s: note: %s %s, where the run in %s used %s: the "
                "results will differ from an uninterrupted run's\n", command, what, now,
                path, then);
}

/* "<prefix>_" five digits "." an extension ".tmp." and mkstemp's six. */
static int numbered_temporary(const char *name, const char *prefix)
{
    size_t len = strlen(prefix);
    const char *tmp = strstr(name, ".tmp.");
    if (strncmp(name, prefix, len) != 0 || name[len] != '_' || !tmp ||
        strlen(tmp + 5) != 6)
        return 0;
    for (int k = 1; k <= 5; k++)
        if (!isdigit((unsigned char)name[len + k]))
            return 0;
    return name[len + 6] == '.';
}

void nb_ckpt_remove_numbered_temporaries(const char *dir, const char *prefix)
{
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        if (numbered_temporary(e->d_name, prefix) &&
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(d);
}
