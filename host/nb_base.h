/* nb_base.h - errors, particle sets, random numbers, output files
 * written under a temporary name, and the clock: what every other host
 * header builds on. */
#ifndef NB_BASE_H
#define NB_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "glnbody.h"     /* enum nb_status, struct nb_error: the public API's */

/* ---- errors ------------------------------------------------------------ */

/* Functions that can fail take a struct nb_error * last, fill it and
 * return its status. */
/* Sets err (if not NULL) and returns status. */
enum nb_status nb_error_set(struct nb_error *err, enum nb_status status,
                            const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies src into dst (if not NULL) and returns src's status: how a
 * public call hands the error of its internal calls to a caller whose err
 * may be NULL. */
enum nb_status nb_error_copy(struct nb_error *dst, const struct nb_error *src);
/* Malloc that reports exhaustion through err; NULL on failure. */
void *nb_alloc(size_t count, size_t size, const char *what,
               struct nb_error *err);

/* ---- particles --------------------------------------------------------- */

/* A particle set in double precision, structure of arrays. */
struct nb_particles {
    size_t n;           /* number of particles */
    int64_t *id;        /* identifiers, as read or 0..n-1 */
    int *type;          /* types, or NULL when the set has no type column;
                           molecular dynamics numbers them from 1 (LAMMPS) */
    double *q;          /* charges, or NULL when the set has none */
    double *m;          /* masses, n */
    double *x;          /* positions, 3n: x0 y0 z0 x1 ... */
    double *v;          /* velocities, 3n */
};

/* Allocates a set of n particles (zeroed, ids 0..n-1, no types). */
enum nb_status nb_particles_alloc(struct nb_particles *p, size_t n,
                                  struct nb_error *err);
/* Adds the type column (zeroed). */
enum nb_status nb_particles_add_types(struct nb_particles *p,
                                      struct nb_error *err);
/* Adds the charge column (zeroed). */
enum nb_status nb_particles_add_charges(struct nb_particles *p,
                                        struct nb_error *err);
void nb_particles_free(struct nb_particles *p);
/* Two particles at exactly the same position (*found = 1; indices in
 * *first < *second in sorted order), where softening 0 makes their force
 * infinite.  O(n log n); NB_ERR_NOMEM. */
enum nb_status nb_particles_coincident(const struct nb_particles *p,
                                       size_t *first, size_t *second,
                                       int *found, struct nb_error *err);

/* n particles with masses 1/n, positions uniform in [-1, 1]^3 rounded to
 * the nearest float, zero velocities: the benchmark and test input.
 * Deterministic for a given seed. */
enum nb_status nb_particles_random_cube(struct nb_particles *p, size_t n,
                                        uint64_t seed, struct nb_error *err);

/* ---- random numbers (xoshiro256**, deterministic across platforms) ----- */

struct nb_rng { uint64_t s[4]; };
void nb_rng_seed(struct nb_rng *rng, uint64_t seed);
uint64_t nb_rng_next(struct nb_rng *rng);
double nb_rng_uniform(struct nb_rng *rng);      /* in [0, 1) */

/* ---- output files ------------------------------------------------------ */

/* A file written under a temporary name in the same directory and renamed
 * into place by nb_outfile_commit, so that a failed or killed run never
 * leaves a partial file.  A path of "-" or NULL writes to stdout.  A
 * symbolic link is followed to the file it names; a path that exists and
 * is not a regular file (a device, a FIFO) is written directly, since
 * renaming over it would replace it; a directory is refused at open. */
struct nb_outfile {
    FILE *fp;
    char *path;         /* final name (links followed), NULL for stdout */
    char *tmp_path;     /* temporary name, NULL for stdout or direct */
};
enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path,
                               struct nb_error *err);
/* Flushes, checks for write errors and renames into place. */
enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err);
/* Closes and removes the temporary file (no-op after commit). */
void nb_outfile_abort(struct nb_outfile *f);
/* The outputs of one run, all or none: each file (those with fp NULL are
 * skipped) is flushed and synced first, so that a full disk or a device
 * error on any of them leaves no file committed; only then are they
 * committed in turn.  After an error every file not yet committed is
 * aborted. */
enum nb_status nb_outfile_commit_all(struct nb_outfile *const *files, size_t n,
                                     struct nb_error *err);

/* ---- timing and statistics --------------------------------------------- */

/* Monotonic clock in seconds. */
double nb_clock_seconds(void);
/* Median of n values (sorts a copy); 0 for n == 0. */
double nb_median(const double *values, size_t n);

#endif
