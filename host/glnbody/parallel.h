/* glnbody/parallel.h - part of glnbody.h, the public C API of glnbody:
 * j-parallel runs over processes: section 13.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_PARALLEL_H
#define GLNBODY_PARALLEL_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/parallel.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 13. j-parallel runs (Harfst et al. 2007) ========== research ====== */
/* Research: the j-partition of a run over several processes; its calls
 * may change as multi-GPU runs are measured. */

/* A force evaluation or a Hermite run shared by P cooperating processes
 * ("ranks", e.g. of MPI), each with its own force engine and the same
 * particles.  Rank r sums the forces from its slice of the j-particles
 * only (nb_partition_slice: contiguous, balanced by count), for the whole
 * block of i-particles; the caller's callbacks add the partial sums over
 * the ranks, so that every rank gets the same totals and integrates the
 * same way.  The library knows nothing of the transport: the callbacks
 * wrap MPI_Allreduce or whatever the caller uses.
 *
 * Each evaluation makes exactly one callback, on every rank, with the same
 * count: one per block step of a Hermite run.  It carries the block's
 * partial acceleration, jerk and potential: 7 doubles per i-particle
 * (sum_double), or in precision H their exact fixed-point sums, 8 int64
 * per i-particle (sum_int64), which add exactly and in any order, so a
 * run in precision H is bit for bit the same for any P.  A callback that
 * fails returns its status and fills err; the evaluation then fails with
 * that error (the caller must then stop the other ranks, which wait in
 * their own callbacks). */
struct nb_partition {
    int ranks;                  /* P >= 1 */
    int rank;                   /* this caller's, 0..P-1 */
    /* values[0..count) := their sum over the ranks, on every rank. */
    enum nb_status (*sum_double)(void *user, double *values, size_t count,
                                 struct nb_error *err);
    /* The same for the int64 words of precision H. */
    enum nb_status (*sum_int64)(void *user, int64_t *values, size_t count,
                                struct nb_error *err);
    void *user;                 /* passed to the callbacks */
};

/* Rank r's slice [*first, *end) of n j-particles over P ranks:
 * first = floor(n r / P), end = floor(n (r + 1) / P). */
NB_API void nb_partition_slice(size_t n, int ranks, int rank, size_t *first,
                               size_t *end);
/* Puts f's GAJ evaluations (nb_forces_gaj, Hermite runs on f) and its GA
 * evaluations (nb_forces_ga, then through the GAJ kernel with zero
 * velocities) under part, copied; NULL removes it.  With P = 1 the same
 * path runs with the one slice of everything.  NB_ERR_ARGS for a bad
 * partition (a callback NULL, rank out of range).  Every engine sums
 * slices: the CPU, compute (modes A..H) and fragment (A) engines.  Set it
 * before nb_hermite_create (its initial forces are the first evaluation);
 * every rank passes all n particles, as without a partition: each engine
 * keeps the whole j-set (any particle may be an i-particle, and precision
 * H's fixed-point ranges come from the whole set, the same on every rank)
 * and sums only its slice. */
NB_API enum nb_status nb_forces_set_partition(struct nb_forces *f,
                                              const struct nb_partition *part,
                                              struct nb_error *err);

#ifdef __cplusplus
}
#endif

#endif
