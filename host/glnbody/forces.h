/* glnbody/forces.h - part of glnbody.h, the public C API of glnbody:
 * force engines (struct nb_forces), their GRAPE-6 style j-memory, CPU reference forces and accuracy: sections 7, 7a and 8.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_FORCES_H
#define GLNBODY_FORCES_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/forces.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 7. force engines ================================== core ========== */
/* Stable: nb_forces and its calls; variants are named by strings that may
 * change between versions (nb_forces_variants lists them). */

/* A force engine of one kind on one context (gl may be NULL for
 * NB_ENGINE_CPU).  The engine borrows gl. */
struct nb_forces;

NB_API enum nb_status nb_forces_create(struct nb_forces **f, struct nb_gl *gl,
                                       enum nb_engine engine, struct nb_error *err);
NB_API void nb_forces_destroy(struct nb_forces *f);

/* What an engine can do: bits of nb_forces_caps. */
enum nb_forces_caps {
    NB_FORCES_DOUBLE = 1u << 0,     /* GA sums in double (the CPU): results
                                       worth printing with %.17g */
    NB_FORCES_MODES = 1u << 1,      /* GA accumulation modes B..H */
    NB_FORCES_GAJ_MODES = 1u << 2   /* modes B..H reach the GAJ kernel too */
};
NB_API unsigned nb_forces_caps(const struct nb_forces *f);
/* The renderer ("cpu (N threads)" for the CPU), owned by f. */
NB_API const char *nb_forces_renderer(const struct nb_forces *f);
/* Every variant name of the engine, NULL-terminated, owned by f. */
NB_API const char *const *nb_forces_variants(const struct nb_forces *f);

/* A kernel variant ("auto", the default, times the candidates on the
 * first particle set; compute: "t<T>i<I>[-s<S>]", fragment:
 * "1x1|1x4|4x4[-r<R>][-p<P>]"); NB_ERR_ARGS for an unknown name. */
NB_API enum nb_status nb_forces_set_variant(struct nb_forces *f, const char *variant,
                                            struct nb_error *err);
/* The accumulation mode (default A), for the next nb_forces_ga and
 * nb_forces_set_j; NB_ERR_ARGS where the engine has no modes (the CPU sums
 * in double), NB_ERR_UNSUPPORTED where the mode's GL extension is missing.
 * Modes B..H reach the GAJ kernel on NB_ENGINE_COMPUTE only: elsewhere
 * nb_forces_set_j and nb_hermite_create refuse them (NB_ERR_ARGS) rather
 * than sum in A. */
NB_API enum nb_status nb_forces_set_precision(struct nb_forces *f, enum nb_precision mode,
                                              struct nb_error *err);

/* How the j-memory block steps (nb_forces_block_start) form x_j - x_i and
 * v_j - v_i in the modes whose pair terms are float (all but G): each
 * position and velocity as a double-single pair, hi + lo, two floats
 * (Gaburov, Harfst & Portegies Zwart 2009), so that the difference keeps
 * ~48 bits of |x| however close the pair (the default); or rounded to
 * float before the difference, fewer operations a pair, but a pair's
 * separation r then errs by ~6e-8 |x| / r, and its relative velocity u by
 * ~6e-8 |v| / u.  Largest error of a particle's force over the sum of
 * |terms|, N = 4096 on llvmpipe (tests/check_g6_accuracy): ds 1.3e-7 to
 * 3.7e-7 on every system tested; float 5e-6 on a uniform sphere, 5e-3 with
 * a binary of separation 1e-5 at |x| = 1. */
enum nb_positions {
    NB_POSITIONS_DS,        /* double-single (hi, lo) */
    NB_POSITIONS_FLOAT,     /* rounded to float */
    NB_POSITIONS_FIXED64,   /* GRAPE-6's 64-bit fixed point (Makino et al.
                               2003), units of 2^-48, |x| up to 2^14, x_j - x_i
                               exact, then float; velocities double-single;
                               needs GL_ARB_gpu_shader_int64 */
    NB_POSITIONS_COUNT
};
/* The position format of the next block steps (default NB_POSITIONS_DS);
 * NB_ERR_ARGS for a value outside the enum (a block in NB_POSITIONS_FIXED64
 * fails with NB_ERR_UNSUPPORTED where GL_ARB_gpu_shader_int64 is missing). */
NB_API enum nb_status nb_forces_set_positions(struct nb_forces *f, enum nb_positions format,
                                              struct nb_error *err);
/* "ds", "float" or "fixed64" to a format; NB_ERR_ARGS naming option
 * otherwise. */
NB_API enum nb_status nb_positions_parse(const char *option, const char *text,
                                         enum nb_positions *format, struct nb_error *err);
/* "ds", "float", "fixed64". */
NB_API const char *nb_positions_name(enum nb_positions format);

/* GA: for n particles at x (3n) with masses m (n), the acceleration
 * acc (3n) and potential pot (n) of each, softened by the Plummer length
 * eps >= 0 (the self term is excluded).  acc or pot may be NULL. */
NB_API enum nb_status nb_forces_ga(struct nb_forces *f, size_t n, const double *x,
                                   const double *m, double eps, double *acc, double *pot,
                                   struct nb_error *err);
/* GA timed: uploads once, evaluates warmup times untimed and runs >= 1
 * times timed; *median is the median device seconds of the timed runs,
 * acc and pot (either may be NULL) the last result. */
NB_API enum nb_status nb_forces_time_ga(struct nb_forces *f, size_t n, const double *x,
                                        const double *m, double eps, int warmup, int runs,
                                        double *acc, double *pot, double *median,
                                        struct nb_error *err);

/* GAJ, for Hermite block steps: sets the j-particles (positions x, 3n,
 * velocities v, 3n, masses m, n; f keeps a copy) that later nb_forces_gaj
 * calls act from, in the mode set now.  GA calls on f in between leave
 * them (the copy is uploaded again where the engine shares its streams);
 * a Hermite run on f or a new mode replaces them: nb_forces_gaj then
 * refuses with NB_ERR_ARGS until the next set_j. */
NB_API enum nb_status nb_forces_set_j(struct nb_forces *f, size_t n, const double *x,
                                      const double *v, const double *m,
                                      struct nb_error *err);
/* The acceleration acc, jerk (3 n_active each) and potential pot (n_active)
 * of the j-particles whose indices are in active (ascending, each < n),
 * from every other j-particle.  jerk or pot may be NULL. */
NB_API enum nb_status nb_forces_gaj(struct nb_forces *f, double eps, size_t n_active,
                                    const uint32_t *active, double *acc, double *jerk,
                                    double *pot, struct nb_error *err);

/* The variant the last evaluation ran (owned by f; "none" before any),
 * and its device seconds (GL timer queries on hardware; 0 before any). */
NB_API const char *nb_forces_variant(const struct nb_forces *f);
NB_API double nb_forces_seconds(const struct nb_forces *f);

/* ==== 7a. j-memory block steps, GRAPE-6 style ============ core ==========
 * Stable: libg6gl stands on these calls alone.
 *
 * What the GRAPE-6 interface (Makino et al. 2003; Sapporo2, Gaburov et al.
 * 2009, Bedorf et al. 2015) asks of a force engine, on nb_forces: a
 * j-memory of particles kept as Taylor coefficients at their own times,
 * updated a few addresses at a time; each block step predicts the whole
 * j-memory to the block time on the device and evaluates the GAJ law on
 * i-particles given by position and velocity (not by j-address), excluding
 * the pairs whose ids match.  Start and finish are apart so that the host
 * can work while the GPU does.  NB_ENGINE_COMPUTE only: the other engines
 * refuse with NB_ERR_UNSUPPORTED (the fragment pipeline has no atomics for
 * neighbour lists and no double for the Taylor coefficients; the CPU
 * engine has nothing to overlap).  All modes A..H of
 * nb_forces_set_precision apply; E, F and H need eps2 > 0 (their
 * fixed-point scales come from the bounds M 0.385 / eps^2 on |a|, M / eps
 * on |phi|, and 1.56 M v / eps^3 on |jerk| with v twice the fastest
 * j-particle's speed plus the fastest i-particle's). */

/* One j-particle: position x, velocity v, a2 = acceleration / 2 and
 * j6 = jerk / 6 at its time t (GRAPE-6's own scaling), mass and id. */
struct nb_jparticle {
    double x[3], v[3], a2[3], j6[3];
    double t, mass;
    int32_t id;
};

/* Makes the j-memory hold at least addresses 0..capacity-1: the addresses
 * held keep their particles, new ones are massless and far away (no force,
 * never a neighbour).  NB_ERR_UNSUPPORTED off the compute engine,
 * NB_ERR_LIMIT past 2^26 addresses, NB_ERR_NOMEM. */
NB_API enum nb_status nb_forces_jmem_reserve(struct nb_forces *f, size_t capacity,
                                             struct nb_error *err);
/* Queues count j-particles for the addresses address[] (each below the
 * capacity; a later one for the same address replaces an earlier one).
 * They reach the device with the next nb_forces_block_start, or at once
 * where puts that replace puts grow the queue past twice the capacity.
 * A put reads no per-address memory, except in modes E, F and H, which
 * keep the total mass for their bounds (after puts in another mode, their
 * next block reads the masses back from the device once). */
NB_API enum nb_status nb_forces_jmem_put(struct nb_forces *f, size_t count,
                                         const uint32_t *address,
                                         const struct nb_jparticle *jp,
                                         struct nb_error *err);
/* nb_forces_jmem_put of one j-particle given by its parts, as the GRAPE-6
 * interface's g6_set_j_particle receives them (x, v, a2, j6: three doubles
 * each): no struct to fill, and about a third of the work of a put of one,
 * which matters at one call per corrected particle. */
NB_API enum nb_status nb_forces_jmem_put_one(struct nb_forces *f, uint32_t address,
                                             int32_t id, double t, double mass,
                                             const double x[3], const double v[3],
                                             const double a2[3], const double j6[3],
                                             struct nb_error *err);

/* What nb_forces_block_start computes besides acc, jerk and potential. */
enum nb_block_flags {
    NB_BLOCK_NEAREST = 1u << 0,    /* the nearest j-particle of each i */
    NB_BLOCK_TIMED = 1u << 1       /* its device seconds, for nb_forces_seconds
                                      (a GL timer query, which lengthens
                                      each block, so only when asked for) */
};

/* Starts a block and returns without waiting for it: sends the queued
 * j-particles, predicts addresses 0..nj-1 to time ti on the device, and
 * evaluates for the ni i-particles (id[ni], x and v 3 ni, h2[ni] the
 * neighbour radii squared, may be NULL) the softened (eps2 = eps^2 >= 0)
 * acceleration, jerk and potential from every j-particle of another id.
 * ni at most nb_forces_block_size.  NB_ERR_ARGS for bad arguments or
 * nj above the capacity. */
NB_API enum nb_status nb_forces_block_start(struct nb_forces *f, size_t nj, double ti,
                                            double eps2, size_t ni, const int32_t *id,
                                            const double *x, const double *v,
                                            const double *h2, unsigned flags,
                                            struct nb_error *err);
/* For the next nb_forces_block_start of ni i-particles only: each one's
 * acceleration, jerk and potential at its last step (3 ni, 3 ni and ni;
 * GRAPE-6's aold, jold and phiold), from which mode H sets that
 * particle's fixed-point range (as GRAPE-6 did, Makino et al. 2003)
 * instead of from a bound on every pair term, which at small softening
 * leaves the jerk too few bits (its bound grows as 1 / eps^3).  A NULL
 * array, or a value 0 or not finite, leaves that quantity at the bound's
 * range.  Where a sum leaves the range so set, the finish computes that
 * particle again at the bound's range.  The other modes ignore it.
 * NB_ERR_ARGS for ni above nb_forces_block_size or f not the compute
 * engine. */
NB_API enum nb_status nb_forces_block_hint(struct nb_forces *f, size_t ni,
                                           const double *acc_old, const double *jerk_old,
                                           const double *pot_old, struct nb_error *err);
/* Waits for the block started last and writes acc, jerk (3 ni each), pot
 * (ni) and, when it was started with NB_BLOCK_NEAREST, nearest (ni ids;
 * -1 where no other j-particle exists) and nearest_r2 (ni squared
 * unsoftened distances); any pointer may be NULL.  nb_forces_seconds is
 * then the block's device time where it was started with NB_BLOCK_TIMED,
 * else 0.  NB_ERR_ARGS without a started block, or for nearest without
 * NB_BLOCK_NEAREST. */
NB_API enum nb_status nb_forces_block_finish(struct nb_forces *f, double *acc, double *jerk,
                                             double *pot, int32_t *nearest,
                                             double *nearest_r2, struct nb_error *err);
/* The neighbours of the block finished last: for each i-particle k, the
 * ids of the j-particles of other ids within sqrt(h2[k]) (unsoftened, at
 * ti), ascending, in list[k * room ..], at most room of them, and their
 * true number in count[k] (above room: the list was cut).  NB_ERR_ARGS
 * without a finished block or without h2. */
NB_API enum nb_status nb_forces_block_neighbours(struct nb_forces *f, size_t room,
                                                 uint32_t *count, int32_t *list,
                                                 struct nb_error *err);
/* The block size (i-particles per start) that fills the engine's device,
 * and the most a start takes. */
NB_API size_t nb_forces_block_size(const struct nb_forces *f);

/* ==== 8. CPU reference forces, accuracy ================= utility ======= */
/* Utility: the double-precision oracle of the tests and of glnbody
 * compare; kept, but its helpers may change with the program's needs. */

/* GA in double with Newton's third law (OpenMP; the result does not depend
 * on the thread count): acc (3n), pot (n), as nb_forces_ga. */
NB_API enum nb_status nb_cpu_ga(size_t n, const double *x, const double *m, double eps,
                                double *acc, double *pot, struct nb_error *err);
/* The sums of the pair terms' magnitudes, sum_j |a_ij| and sum_j |phi_ij|:
 * the scale that bounds float rounding in a_i and phi_i. */
NB_API enum nb_status nb_cpu_ga_magnitudes(size_t n, const double *x, const double *m,
                                           double eps, double *acc_abs, double *pot_abs,
                                           struct nb_error *err);

/* How far a GA result is from the reference (Narumi et al. eqs. 10-11). */
struct nb_accuracy {
    double acc_rel_max;     /* max_i |a_i - ref| / sum_j |a_ij| */
    double pot_rel_max;     /* max_i |phi_i - ref| / sum_j |phi_ij| */
    size_t acc_worst;       /* the particle of acc_rel_max */
    double f_err;           /* eq. 10: sum |F - F_ref| / sum |F_ref| */
    double f_offset;        /* eq. 11: |sum F| / sum |F| */
    size_t nonfinite;       /* particles with a NaN or infinite component */
};
/* acc/pot against ref_acc/ref_pot, scaled by the magnitudes of
 * nb_cpu_ga_magnitudes; forces F = m a. */
NB_API void nb_accuracy_ga(size_t n, const double *m, const double *acc, const double *pot,
                           const double *ref_acc, const double *ref_pot,
                           const double *acc_abs, const double *pot_abs,
                           struct nb_accuracy *out);

#ifdef __cplusplus
}
#endif

#endif
