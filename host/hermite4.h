/* hermite4.h - what integrator_hermite4.c and hermite_device.c (the
 * corrector on the device) share: the integrator's state, the time split
 * of a step, and the step's bookkeeping. */
#ifndef NB_HERMITE4_H
#define NB_HERMITE4_H

#include "nb_host.h"

struct hermite4 {
    double *a, *jerk;       /* at t0, 3n each */
    double *a2, *a3;        /* 2nd, 3rd derivative of a at t0 from the last
                               correction (0 before the first), 3n each */
    double *xp, *vp;        /* predicted positions and velocities, 3n */
    uint8_t *level;         /* nb_step_level of each particle's dt */
    uint32_t *active;       /* the block, ascending */
    size_t n_active;
    double *ba, *bj, *bpot; /* the block's GAJ result, in block order */
    double *bx, *bv, *bt;   /* the corrected block for update_state */
    double *crit;           /* eq. 9 step of each block particle */
    size_t *range_hits;     /* block members per thread range (collect) */
    /* --correct gpu (hermite_device.c): the device corrects and keeps
     * the levels; the particles at each level after the last block, and
     * whether the host's x, v, a, jerk, a2, a3, t0, dt and levels lag the
     * device's.  dw: each slot's m a1.(x1 - xp) of a block of everyone. */
    int device_corrects, stale;
    uint32_t level_count[NB_STEP_LEVELS];
    double *dw;
    /* the next evaluation readies the device's block steps while its
     * forces are computed (the initial forces of --predict gpu) */
    int prepare_steps;
};

/* Seconds spent in backend calls during one step, for the time split. */
struct split {
    double wall;            /* wall seconds inside backend calls */
    double device;          /* of which compute_gaj's last_seconds */
    double reduce;          /* of which in the partition's callback (MPI) */
};

/* Particle i's step and level (dt a power of two, NB_DT_FLOOR..). */
void nb_hermite4_set_step(struct nb_sim *s, struct hermite4 *h, size_t i, double dt);
/* The errors of a step: a non-finite result, a step below the floor. */
enum nb_status nb_hermite4_not_finite(const struct nb_sim *s, size_t i, double t,
                                      struct nb_error *err);
enum nb_status nb_hermite4_too_small(const struct nb_sim *s, size_t i, double crit,
                                     double t, struct nb_error *err);

/* ---- the corrector on the device (hermite_device.c) ---- */

/* The device's state made whole after load_state: v, a, jerk, a2, a3 and
 * the steps' levels. */
enum nb_status nb_hermite4_device_load(struct nb_sim *s, struct hermite4 *h,
                                       struct split *sp, struct nb_error *err);
/* The block due at t1 (predicted on the device, the j-set issued by the
 * caller): found, its forces evaluated and corrected on the device; the
 * host keeps the counts of the levels and sets s->t_next from them. */
enum nb_status nb_hermite4_device_block(struct nb_sim *s, struct hermite4 *h, double t1,
                                        struct split *sp, struct nb_error *err);
/* The host's x, v, a, jerk, a2, a3, t0, dt and levels brought up to the device's
 * (a copy of the whole state), where they lag. */
enum nb_status nb_hermite4_device_sync(const struct nb_sim *s, struct hermite4 *h,
                                       struct nb_error *err);

#endif
