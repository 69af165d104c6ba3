/* nb_base.h - what every other host header builds on.  The particle sets,
 * random numbers, output files and the clock are public (glnbody.h); here
 * are the library's own helpers for errors and allocation. */
#ifndef NB_BASE_H
#define NB_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "glnbody.h"     /* the public types and functions every layer shares */

/* Functions that can fail take a struct nb_error * last, fill it
 * (nb_error_set) and return its status. */

/* Copies src into dst (if not NULL) and returns src's status: how a
 * public call hands the error of its internal calls to a caller whose err
 * may be NULL. */
enum nb_status nb_error_copy(struct nb_error *dst, const struct nb_error *src);
/* Malloc that reports exhaustion through err; NULL on failure. */
void *nb_alloc(size_t count, size_t size, const char *what,
               struct nb_error *err);

/* Adds the charge column (zeroed) to a particle set. */
enum nb_status nb_particles_add_charges(struct nb_particles *p,
                                        struct nb_error *err);

#endif
