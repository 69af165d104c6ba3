/* glnbody/parallel.h - part of glnbody.h, the public C API of glnbody:
 * parallel runs over processes: section 13.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_PARALLEL_H
#define GLNBODY_PARALLEL_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/parallel.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 13. parallel runs (Harfst et al. 2007) ============ research ====== */
/* Research: the partition of a run over several processes; its calls
 * may change as multi-GPU runs are measured. */

/* A force evaluation or a Hermite run shared by P cooperating processes
 * ("ranks", e.g. of MPI), each with its own force engine and the same
 * particles.  Under NB_SPLIT_J, rank r sums the forces from its slice of
 * the j-particles only (nb_partition_slice: contiguous, balanced by
 * count), for the whole block of i-particles; the caller's callbacks add
 * the partial sums over the ranks, so that every rank gets the same totals
 * and integrates the same way.  enum nb_split below gives the other ways.
 * The library knows nothing of the transport: the callbacks wrap
 * MPI_Allreduce, MPI_Allgatherv or whatever the caller uses.
 *
 * Each evaluation makes at most one callback, on every rank, with the same
 * count: one per block step of a Hermite run, none for a block computed
 * whole.  Under J it carries the block's partial acceleration, jerk and
 * potential: 7 doubles per i-particle (sum_double), or in precision H
 * their exact fixed-point sums, 8 int64 per i-particle (sum_int64), which
 * add exactly and in any order, so a run in precision H is bit for bit the
 * same for any P.  A callback that fails returns its status and fills err;
 * the evaluation then fails with that error (the caller must then stop the
 * other ranks, which wait in their own callbacks). */
/* How the ranks share one block of n_i i-particles against n_j j-particles
 * (every rank holds the whole j-set and the whole block):
 *   J: each rank sums its j-slice for the whole block; sum_double (or, in
 *      precision H, sum_int64) adds the partial sums (Harfst et al. 2007);
 *   I: each rank sums every j for its i-slice; gather_double collects the
 *      7 results a particle;
 *   WHOLE: every rank computes the whole block itself, with no callback:
 *      no exchange for blocks too small to pay for one;
 *   AUTO: per block, whichever of WHOLE, I (or J without gather_double)
 *      the cost model (nb_partition_model) predicts fastest.
 * The choice depends only on n_i, n_j, ranks and the cost parameters, so
 * every rank makes the same one.  Precision H gives the same bits under
 * every choice: integer sums are exact in any order and cut. */
enum nb_split { NB_SPLIT_J = 0, NB_SPLIT_I, NB_SPLIT_WHOLE, NB_SPLIT_AUTO };

/* The cost model of one block step's force evaluation and exchange on P
 * GPUs: Belleman et al. (2008) eq. 10's t_GPU and t_comm, with the
 * exchange over the ranks added.  A field <= 0 takes its default. */
struct nb_split_cost {
    double rate;        /* pair interactions/s of one GPU (1.7e12) */
    double rate_h;      /* the same in precision H (4.3e11) */
    double latency;     /* s per exchange stage, ceil(log2 P) stages (2e-5) */
    double bandwidth;   /* bytes/s of the exchange between ranks (3.3e9) */
    double pcie;        /* bytes/s over PCIe, upload and read-back (3.5e9) */
    double fixed;       /* s an evaluation costs every rank whatever its
                           size: PCIe round trip and launch (1.44e-4) */
};

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
    /* Optional (NULL: no i-split, NB_SPLIT_I refused): values holds count
     * items of width doubles, of which this rank filled its slice
     * nb_partition_slice(count, ranks, rank); fill in every other rank's
     * slice from that rank's (MPI_Allgatherv), on every rank. */
    enum nb_status (*gather_double)(void *user, double *values, size_t count,
                                    size_t width, struct nb_error *err);
    enum nb_split split;        /* how a block is shared; 0: NB_SPLIT_J */
    struct nb_split_cost cost;  /* NB_SPLIT_AUTO's model; zeros: defaults */
};

/* Rank r's slice [*first, *end) of n j-particles over P ranks:
 * first = floor(n r / P), end = floor(n (r + 1) / P). */
NB_API void nb_partition_slice(size_t n, int ranks, int rank, size_t *first,
                               size_t *end);
/* Predicted seconds of one block (n_i against n_j) in precision mode on
 * P ranks under split (AUTO: the fastest choice), with part's cost
 * parameters. */
NB_API double nb_partition_model(const struct nb_partition *part, enum nb_split split,
                                 int ranks, enum nb_precision mode, size_t n_i,
                                 size_t n_j);
/* What part->split gives for a block of n_i against n_j in precision mode
 * on part->ranks: J, I or WHOLE. */
NB_API enum nb_split nb_partition_choose(const struct nb_partition *part,
                                         enum nb_precision mode, size_t n_i, size_t n_j);
/* Puts f's GAJ evaluations (nb_forces_gaj, Hermite runs on f) and its GA
 * evaluations (nb_forces_ga, then through the GAJ kernel with zero
 * velocities) under part, copied; NULL removes it.  With P = 1 the same
 * path runs with the one slice of everything.  NB_ERR_ARGS for a bad
 * partition (sum_double or sum_int64 NULL, rank out of range, a split not
 * of enum nb_split, NB_SPLIT_I without gather_double).  Every engine sums
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
