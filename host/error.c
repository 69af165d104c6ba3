/* error.c - status plus formatted message, and allocation that reports. */
#include "nb_host.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

enum nb_status nb_error_set(struct nb_error *err, enum nb_status status,
                            const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->status = status;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

enum nb_status nb_error_copy(struct nb_error *dst, const struct nb_error *src)
{
    if (dst)
        *dst = *src;
    return src->status;
}

void *nb_alloc(size_t count, size_t size, const char *what,
               struct nb_error *err)
{
    void *ptr;

    if (size != 0 && count > SIZE_MAX / size) {
        nb_error_set(err, NB_ERR_NOMEM,
                     "out of host memory allocating %s (%zu x %zu bytes)",
                     what, count, size);
        return NULL;
    }
    /* A zero-sized request still yields a pointer, so NULL always means
     * failure to the caller. */
    if (count == 0 || size == 0) {
        count = 1;
        size = 1;
    }
    ptr = calloc(count, size);
    if (!ptr)
        nb_error_set(err, NB_ERR_NOMEM,
                     "out of host memory allocating %s (%zu bytes)",
                     what, count * size);
    return ptr;
}
