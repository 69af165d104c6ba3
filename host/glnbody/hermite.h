/* glnbody/hermite.h - part of glnbody.h, the public C API of glnbody:
 * Hermite block steps (struct nb_hermite): section 9.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_HERMITE_H
#define GLNBODY_HERMITE_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/hermite.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 9. Hermite block steps ============================ core ========== */
/* Stable: nb_hermite and its calls; new fields go at the end of the
 * parameter and statistics structs. */

/* What a Hermite run is asked to do. */
struct nb_hermite_params {
    double eta;         /* accuracy parameter of the time-step criterion
                           (Aarseth 1985), > 0; default 0.02 */
    double eps;         /* Plummer softening, >= 0; default 0.01 */
    double dt_max;      /* largest step, rounded down to a power of two;
                           default 0.125 */
    int shared_dt;      /* 1: every particle takes the smallest step */
    int predict_on_device;  /* 1: the j-particles are predicted on the GPU
                               (the compute and fragment engines); 2: also
                               corrected there (the compute engine in
                               precision A, individual steps, one GPU):
                               nothing is read back but each block
                               particle's new step */
    enum nb_positions positions;    /* how the GAJ kernel keeps positions and
                               velocities: NB_POSITIONS_FLOAT (default;
                               x_j - x_i errs by ~6e-8 |x|) or
                               NB_POSITIONS_DS (double-single, ~48 bits;
                               the GPU engines in precision A); the CPU
                               engine sums in double whichever is asked
                               (NB_ERR_UNSUPPORTED for fixed64 on a GPU
                               engine, and for ds in modes B..H).  Kept by
                               checkpoints.  (nb_forces_set_positions is
                               libg6gl's, not a run's.) */
};
NB_API void nb_hermite_params_default(struct nb_hermite_params *par);

/* The smallest step (a particle asking for less stops the run) and the
 * largest time: block times are exact binary fractions only below it. */
#define NB_HERMITE_DT_FLOOR 0x1p-40
#define NB_HERMITE_T_MAX 8192.0

/* An equal-mass Plummer sphere of n >= 2 particles in Henon units (total
 * mass 1, E = -1/4; Aarseth, Henon & Wielen 1974), drawn with seed; its
 * potential energy is summed in double on f's engine (f NULL: the CPU),
 * so f's engine sets its last bits. */
NB_API enum nb_status nb_particles_plummer(struct nb_particles *p, size_t n, uint64_t seed,
                                           struct nb_forces *f, struct nb_error *err);

/* A run of n bodies; the run borrows the force engine f, which may serve
 * other work between the run's calls.  A run with predict_on_device keeps
 * its state in f's engine: give each such run a force handle of its own
 * and use it for nothing else. */
struct nb_hermite;

/* From arrays: masses m (n >= 1), positions x and velocities v (3n each)
 * at time 0.  Evaluates the initial forces and steps (Portegies Zwart,
 * Belleman & Geldof 2007, section 2).  The caller owns *h. */
NB_API enum nb_status nb_hermite_create(struct nb_hermite **h, struct nb_forces *f,
                                        size_t n, const double *m, const double *x,
                                        const double *v,
                                        const struct nb_hermite_params *par,
                                        struct nb_error *err);
/* From a particle set (copied, ids kept for nb_hermite_particles). */
NB_API enum nb_status nb_hermite_create_particles(struct nb_hermite **h, struct nb_forces *f,
                                                  const struct nb_particles *p,
                                                  const struct nb_hermite_params *par,
                                                  struct nb_error *err);
/* From nb_particles_plummer's sphere. */
NB_API enum nb_status nb_hermite_create_plummer(struct nb_hermite **h, struct nb_forces *f,
                                                size_t n, uint64_t seed,
                                                const struct nb_hermite_params *par,
                                                struct nb_error *err);
NB_API void nb_hermite_destroy(struct nb_hermite *h);

/* Takes block steps up to time t (>= the current time, below 8192) and
 * ends there: the state reads as of t.  NB_ERR_NUMERIC where a step falls
 * below 2^-40 or a value goes non-finite. */
NB_API enum nb_status nb_hermite_integrate(struct nb_hermite *h, double t,
                                           struct nb_error *err);
/* One block at a time: the time of the next block step, and the step
 * itself (the state then reads as of that time).  After a failed step
 * every stepping call refuses with its status. */
NB_API double nb_hermite_next_time(const struct nb_hermite *h);
NB_API enum nb_status nb_hermite_step(struct nb_hermite *h, struct nb_error *err);
/* The time the state is at. */
NB_API double nb_hermite_time(const struct nb_hermite *h);
/* Positions and velocities (3n each; either may be NULL) at that time. */
NB_API enum nb_status nb_hermite_state(struct nb_hermite *h, double *x, double *v,
                                       struct nb_error *err);
/* Every particle predicted in double to t, from the time of the last block
 * step up to the next (x, v: 3n each), without changing the run: outputs
 * between block times.  NB_ERR_ARGS for t out of that range. */
NB_API enum nb_status nb_hermite_predict(const struct nb_hermite *h, double t, double *x,
                                         double *v, struct nb_error *err);
/* The run's particles (ids, masses; x and v as of each particle's last
 * correction), owned by h.  With predict_on_device 2 the device holds x and
 * v: here they are as of the last nb_hermite_state, nb_hermite_predict,
 * nb_hermite_energy or checkpoint. */
NB_API const struct nb_particles *nb_hermite_particles(const struct nb_hermite *h);
/* The parameters in use (dt_max rounded to a power of two). */
NB_API void nb_hermite_get_params(const struct nb_hermite *h, struct nb_hermite_params *par);
/* Kinetic and potential energy at that time; either may be NULL.  The
 * potential has double pair terms and sums: the engine's precision-G
 * kernel where it has one (compute), else the CPU, as `glnbody run`
 * reports it. */
NB_API enum nb_status nb_hermite_energy(struct nb_hermite *h, double *kinetic,
                                        double *potential, struct nb_error *err);
/* Block steps taken and particle steps (particles corrected) so far. */
NB_API void nb_hermite_counts(const struct nb_hermite *h, uint64_t *block_steps,
                              uint64_t *particle_steps);

/* The counters and the time split of Portegies Zwart et al. 2007 eq. 10. */
struct nb_hermite_stats {
    uint64_t block_steps;       /* the initial evaluation not counted */
    uint64_t particle_steps;    /* particles corrected, summed over blocks */
    double t_host;              /* wall s on the host: predict, correct, steps */
    double t_force;             /* device s of the GAJ kernel */
    double t_comm;              /* wall s in engine calls less t_force and
                                   t_reduce: uploads, read-back (PCIe); with
                                   GLNBODY_BLOCK_PIECES, the correction of
                                   every piece but the last, done while the
                                   GPU computes, falls in here, not t_host */
    double t_reduce;            /* wall s in a partition's callbacks (the
                                   exchange of section 13), else 0 */
    uint64_t split_blocks[3];   /* evaluations under NB_SPLIT_J, I, WHOLE */
    double t_model[4];          /* the split cost model's force and exchange
                                   seconds of the same evaluations on 1, 2,
                                   4 and 8 ranks (nb_partition_model, AUTO);
                                   zeros without a partition */
};
NB_API void nb_hermite_stats(const struct nb_hermite *h, struct nb_hermite_stats *st);

/* One row of an energy log. */
struct nb_diag {
    double t, ekin, epot, etot;
    double de_rel;          /* (etot - e0) / |e0| */
    double virial;          /* 2 ekin / |epot| (1 in virial equilibrium) */
    double p_abs, l_abs;    /* |sum m v|, |sum m x cross v| */
    double com[3];          /* sum m x / sum m */
    uint64_t block_steps, particle_steps;
    int epot_from_gaj;      /* 1: from the GAJ potentials of a block of
                               every particle; 0: an O(n^2) sum in double */
};
/* The row of the run's state x, v (3n each, from nb_hermite_predict at t)
 * against the reference energy e0.  exact 1: the potential summed in
 * double (O(n^2)); 0: the GAJ potentials of the last block where it held
 * every particle at t, else as exact. */
NB_API enum nb_status nb_hermite_diag(struct nb_hermite *h, double t, const double *x,
                                      const double *v, double e0, int exact,
                                      struct nb_diag *d, struct nb_error *err);
/* The CSV header `t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,
 * com_z,block_steps,particle_steps` and one row (%.17g), each a line. */
NB_API void nb_diag_csv_header(FILE *fp);
NB_API void nb_diag_csv_row(FILE *fp, const struct nb_diag *d);

#ifdef __cplusplus
}
#endif

#endif
