/* api_checkpoint.c - what glnbody.h says of a checkpoint file without
 * restoring it: the application's own section (a program's options), read
 * only after the whole file has been checked. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

enum nb_status nb_checkpoint_app(const char *path, enum nb_checkpoint_kind kind,
                                 char **app, size_t *size, uint64_t *n,
                                 struct nb_error *err)
{
    const char *func = "nb_checkpoint_app";
    struct nb_error e = { 0 };
    struct nb_ckpt c = { 0 };
    const void *data;
    size_t len = 0;

    if (nb_api_need(path, func, "path", &e) != NB_OK || nb_api_need(app, func, "app", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    *app = NULL;
    if (kind != NB_CHECKPOINT_HERMITE && kind != NB_CHECKPOINT_MD)
        return nb_error_set(err, NB_ERR_ARGS, "%s: kind %d is not a checkpoint kind", func,
                            (int)kind);
    if (nb_ckpt_read(&c, path, kind == NB_CHECKPOINT_MD ? NB_CKPT_MD : NB_CKPT_RUN,
                     &e) == NB_OK) {
        data = nb_ckpt_find(&c, "APP ", &len);
        if (!data)
            len = 0;
        if ((*app = nb_alloc(len + 1, 1, "the checkpoint's application data", &e))) {
            memcpy(*app, data ? data : "", len);
            (*app)[len] = '\0';
            if (size)
                *size = len;
            if (n)
                *n = c.n;
        }
    }
    nb_ckpt_free(&c);
    return nb_api_fail(err, &e, func);
}
