/* nb_hermite.h - collisional N-body runs: Plummer initial conditions,
 * Hermite block steps behind the integrator vtable, and diagnostics. */
#ifndef NB_HERMITE_H
#define NB_HERMITE_H

#include "nb_forces.h"

/* ---- initial conditions ------------------------------------------------ */

/* An equal-mass Plummer sphere of n >= 2 particles by the rejection method
 * of Aarseth, Henon and Wielen (1974), the outer 0.1% of the mass cut,
 * moved to the centre-of-mass frame and scaled to Henon units exactly:
 * positions so that the (unsoftened, eps = 0) potential energy W = -1/2,
 * velocities so that the kinetic energy K = 1/4, hence 2K/|W| = 1 and
 * E = -1/4 to rounding.  Masses 1/n, ids 0..n-1.  Deterministic for a
 * seed (nb_rng).  W is summed in O(n^2) in double by
 * nb_potential_energy on backend b (NULL: the CPU).
 * Errors: NB_ERR_ARGS (n < 2), NB_ERR_NOMEM, the backend's. */
struct nb_force_backend;
enum nb_status nb_plummer(struct nb_particles *p, size_t n, uint64_t seed,
                          struct nb_force_backend *b, struct nb_error *err);

/* ---- simulation: Hermite block steps (seed 001, section 2) -------------- */

/* The smallest time step.  A particle whose criterion asks for less stops
 * the run with NB_ERR_NUMERIC naming it: never a silent clamp. */
#define NB_DT_FLOOR NB_HERMITE_DT_FLOOR
/* The largest end time: block times are multiples of NB_DT_FLOOR, exact in
 * a double only below 2^13. */
#define NB_T_MAX NB_HERMITE_T_MAX

/* The block clock (block_clock.c; Makino and Aarseth 1992, McMillan and
 * Aarseth 1993).  Eq. 2's first step criterion (infinite for a particle
 * that feels nothing), eq. 9's, and the quantised steps: nb_step_next
 * halves while above the criterion or doubles where the criterion, dt_max
 * and t1 allow (below NB_DT_FLOOR: the caller reports it), nb_step_first
 * is the largest power of two <= crit and dt_max (0 for crit <= 0). */
double nb_step_initial_criterion(double eta, const double *a, const double *j, double pot);
double nb_step_aarseth_criterion(double eta, const double *a, const double *j,
                                 const double *a2, const double *a3);
double nb_step_next(double dt, double crit, double t1, double dt_max);
double nb_step_first(double crit, double dt_max);
/* Levels: a step 2^k has level k + NB_STEP_LEVEL_OF_ONE, 0 (NB_DT_FLOOR) to 53
 * (NB_T_MAX), so that a set of levels fits 64 bits.  With every t0 a
 * multiple of its step and t0 <= t < t0 + dt, the particles due at the
 * next block time t1 are those whose level is at most
 * nb_step_dividing_level(t1) (the largest power of two dividing t1), and
 * the others' steps end at nb_step_next_ends(their levels, t1). */
#define NB_STEP_LEVEL_OF_ONE 40
#define NB_STEP_LEVELS 64
int nb_step_level(double dt);
int nb_step_dividing_level(double t1);
double nb_step_next_ends(uint64_t levels, double t1);

/* How the j-particles reach the force backend each block step. */
enum nb_predict {
    NB_PREDICT_HOST,    /* the host predicts all n and calls set_j */
    NB_PREDICT_GPU      /* load_state once, update_state after each block,
                           predict_j(t) before each force evaluation */
};

/* What a run is asked to do; nb_sim_params_default fills the defaults. */
struct nb_sim_params {
    double eta;         /* accuracy parameter of eqs. 2 and 9 (> 0) */
    double eps;         /* Plummer softening (>= 0) */
    double dt_max;      /* largest step; nb_sim_init rounds it down to a
                           power of two (default 0.125) */
    int shared_dt;      /* 1: every particle takes the smallest step */
    enum nb_predict predict;
    int correct_gpu;    /* with NB_PREDICT_GPU: the backend corrects too
                           (correct_block); the host keeps t0, dt, levels */
    enum nb_positions positions;    /* how the GAJ kernel keeps x and v
                                       (backend set_positions); float */
};
/* eta 0.02, eps 0.01, dt_max 0.125, individual steps, host prediction,
 * float positions. */
void nb_sim_params_default(struct nb_sim_params *par);
/* NB_ERR_ARGS naming what par or b lacks for correct_gpu (the device
 * prediction, individual steps, a backend with correct_block, one rank);
 * NB_OK without correct_gpu (hermite_device.c). */
/* Hands par->positions to b (set_positions); NB_ERR_UNSUPPORTED naming
 * the format where b cannot keep it (a backend without set_positions
 * keeps float, or any format where it sums in double). */
enum nb_status nb_sim_apply_positions(const struct nb_sim_params *par,
                                      struct nb_force_backend *b, struct nb_error *err);
enum nb_status nb_sim_check_device_correct(const struct nb_sim_params *par,
                                           const struct nb_force_backend *b,
                                           struct nb_error *err);

/* Counters and the time split of seed 001 eq. 10, summed over the steps. */
struct nb_sim_stats {
    uint64_t block_steps;       /* block steps taken (the initial force
                                   evaluation of all n is not counted) */
    uint64_t particle_steps;    /* particles corrected, summed over blocks */
    double t_host;      /* wall seconds on the host: prediction, correction,
                           time steps (everything not in a backend call) */
    double t_force;     /* device seconds of compute_gaj (last_seconds) */
    double t_comm;      /* wall seconds in backend calls minus t_force and
                           t_reduce: uploads, predict_j, readback, waiting
                           (PCIe); a block in pieces counts from its
                           queueing to its last piece, the host's
                           correction of the others inside (hidden) */
    double t_reduce;    /* wall seconds in the j-parallel partition's
                           callbacks (the MPI_Allreduce), 0 without one */
};

struct nb_sim;
struct nb_ckpt;

/* An integrator: a private state behind four functions (one file each, no
 * GL type).  create evaluates the initial forces and steps; step advances
 * one block (indices passed to compute_gaj in ascending order); predict
 * writes every particle at a time t between s->t and the next block time
 * (x, v: 3n each) without changing the state.  create and step return
 * NB_OK or the status of the message they set in err. */
struct nb_integrator {
    const char *name;
    enum nb_status (*create)(struct nb_sim *s, void **state, struct nb_error *err);
    enum nb_status (*step)(struct nb_sim *s, void *state, struct nb_error *err);
    /* Brings the host's copy of the state (s->p, and what predict and save
     * read) up to date where the device keeps it (--correct gpu); the sim
     * calls it before reading them. */
    enum nb_status (*sync)(const struct nb_sim *s, void *state, struct nb_error *err);
    void (*predict)(const struct nb_sim *s, const void *state, double t,
                    double *x, double *v);
    void (*free)(void *state);
    /* Checkpoints: save puts the integrator's own state into c; restore
     * makes the state from c (name labels errors) with s's particles,
     * times and steps already restored, and hands the backend what it
     * keeps (load_state with NB_PREDICT_GPU), so that the next step is
     * the one the saved run would have taken. */
    enum nb_status (*save)(const struct nb_sim *s, const void *state,
                           struct nb_ckpt *c, struct nb_error *err);
    enum nb_status (*restore)(struct nb_sim *s, void **state, const struct nb_ckpt *c,
                              const char *name, struct nb_error *err);
};

/* Fourth-order Hermite with block time steps (Makino and Aarseth 1992). */
extern const struct nb_integrator nb_integrator_hermite4;

/* One simulation: all of its state, no globals, so that any number can run
 * in one process.  Fields are read-only outside sim.c and the integrator. */
struct nb_sim {
    struct nb_particles p;      /* particle i as of its time t0[i] */
    double *t0;                 /* time of each particle's last correction */
    double *dt;                 /* each particle's step: a power of two that
                                   divides t0[i], NB_DT_FLOOR..dt_max */
    double t;                   /* time of the last block step */
    double t_next;              /* min_i t0[i] + dt[i], kept by the integrator */
    struct nb_sim_params par;   /* dt_max rounded to a power of two */
    struct nb_force_backend *backend;   /* borrowed, not freed */
    const struct nb_integrator *integrator;
    void *integrator_state;
    enum nb_status failed;      /* NB_OK, or the status of the failed init or
                                   step after which the sim refuses to go on */
    struct nb_sim_stats stats;
    /* Potential energy at sync_t (< 0: none) from the GAJ potentials of a
     * block that held every particle, corrected to first order for the
     * corrector's displacement: W(x1) = W(xp) - sum_i m_i a_i.(x1 - xp). */
    double sync_t, sync_epot;
};

/* Copies p (any units, G = 1, no rescaling), then the integrator's create:
 * initial forces through b and steps (eq. 2).  b must have the GAJ kernel
 * (else NB_ERR_UNSUPPORTED); NB_PREDICT_GPU needs load_state, update_state
 * and predict_j (else NB_ERR_ARGS naming the backend).  NB_ERR_ARGS for a
 * bad parameter.  Call nb_sim_free even after a failure. */
enum nb_status nb_sim_init(struct nb_sim *s, const struct nb_particles *p,
                           const struct nb_sim_params *par,
                           struct nb_force_backend *b, struct nb_error *err);
/* Advances the block of particles due at nb_sim_next_time(s); s->t becomes
 * that time.  NB_ERR_NUMERIC when a step falls below NB_DT_FLOOR.  After a
 * failed init or step, refuses with that status (the state is half-made). */
enum nb_status nb_sim_step(struct nb_sim *s, struct nb_error *err);
/* The time of the next block step: min_i t0[i] + dt[i]. */
double nb_sim_next_time(const struct nb_sim *s);
/* Every particle predicted in double to t, s->t <= t <= the next block
 * time (x, v: 3n each), from a, jerk and the corrector's a2, a3; the
 * state is unchanged.  NB_ERR_ARGS for t out of that range. */
enum nb_status nb_sim_predict(const struct nb_sim *s, double t, double *x,
                              double *v, struct nb_error *err);
void nb_sim_free(struct nb_sim *s);

/* Checkpoints (sim_checkpoint.c, format in nb_files.h): the particles,
 * their times and steps, the block clock, the counters, the parameters
 * and the integrator's state (a, jerk, a2, a3) into c, a checkpoint of
 * kind NB_CKPT_RUN begun by the caller. */
enum nb_status nb_sim_checkpoint(const struct nb_sim *s, struct nb_ckpt *c,
                                 struct nb_error *err);
/* The parameters saved in c (name labels errors). */
enum nb_status nb_sim_checkpoint_params(const struct nb_ckpt *c, const char *name,
                                        struct nb_sim_params *par, struct nb_error *err);
/* A sim continued from c on backend b with parameters par (those of the
 * checkpoint, or a changed predict mode): the state the saved sim had,
 * so that its steps from here are those the saved run would take.  Call
 * nb_sim_free even after a failure. */
enum nb_status nb_sim_restore(struct nb_sim *s, const struct nb_ckpt *c, const char *name,
                              const struct nb_sim_params *par,
                              struct nb_force_backend *b, struct nb_error *err);

/* ---- diagnostics ------------------------------------------------------- */

/* Where the potential energy of a row comes from. */
enum nb_epot_source {
    NB_EPOT_AUTO,   /* s->sync_epot when t == s->sync_t, else as DOUBLE */
    NB_EPOT_DOUBLE  /* always nb_potential_energy, O(n^2) in double */
};

/* The row for the state x, v (3n each) of s at time t (from
 * nb_sim_predict), against the reference energy e0.  NB_ERR_NOMEM. */
enum nb_status nb_diag_compute(const struct nb_sim *s, double t,
                               const double *x, const double *v, double e0,
                               enum nb_epot_source source, struct nb_diag *d,
                               struct nb_error *err);

#endif
