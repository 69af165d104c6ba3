/* nb_host.h - public header of the host layer of glnbody.
 *
 * Everything on the CPU: errors, particle sets, snapshot files, the
 * double-precision reference forces, the force-backend table, timing.
 * No OpenGL type appears here; the GPU backends live in src/ behind the
 * same struct nb_force_backend.  Every public symbol starts with nb_.
 */
#ifndef NB_HOST_H
#define NB_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors ------------------------------------------------------------ */

/* What went wrong, as a category; the text is in struct nb_error. */
enum nb_status {
    NB_OK = 0,
    NB_ERR_ARGS,        /* a bad option or value on the command line */
    NB_ERR_IO,          /* a file could not be opened, read or written */
    NB_ERR_PARSE,       /* a malformed input file */
    NB_ERR_NOMEM,       /* host or GPU memory exhausted */
    NB_ERR_GL,          /* the GL context, a shader or a GL call failed */
    NB_ERR_LIMIT,       /* a GL implementation limit would be exceeded */
    NB_ERR_UNSUPPORTED, /* the request needs something this system lacks */
    NB_ERR_NUMERIC      /* the integration broke down: a time step below
                           NB_DT_FLOOR or a non-finite value */
};

/* A status and one formatted message naming the cause.  Functions that can
 * fail take a struct nb_error * last, fill it and return its status. */
struct nb_error {
    enum nb_status status;
    char message[1024];
};

/* Sets err (if not NULL) and returns status. */
enum nb_status nb_error_set(struct nb_error *err, enum nb_status status,
                            const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Malloc that reports exhaustion through err; NULL on failure. */
void *nb_alloc(size_t count, size_t size, const char *what,
               struct nb_error *err);

/* ---- particles --------------------------------------------------------- */

/* A particle set in double precision, structure of arrays. */
struct nb_particles {
    size_t n;           /* number of particles */
    int64_t *id;        /* identifiers, as read or 0..n-1 */
    int *type;          /* types, or NULL when the set has no type column */
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
void nb_particles_free(struct nb_particles *p);

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

/* ---- snapshot files ---------------------------------------------------- */

/* Reads a text snapshot: one particle a line, `id m x y z vx vy vz` or
 * `id type m x y z vx vy vz`, blank and `#` lines ignored; all data lines
 * must have the same column count.  Errors (NB_ERR_IO, NB_ERR_PARSE) name
 * the file, the line and the reason: a malformed or non-finite number, a
 * negative mass, a wrong column count, an empty file. */
enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                struct nb_error *err);

/* Writes p as `id m x y z vx vy vz` lines (%.17g: reads back exactly; the
 * type column is not written) through nb_outfile, so the file appears
 * whole or not at all.  comment (may be NULL) becomes a first `# ` line.
 * Errors: NB_ERR_IO, NB_ERR_NOMEM. */
enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                 const char *comment, struct nb_error *err);

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

/* ---- output files ------------------------------------------------------ */

/* A file written under a temporary name in the same directory and renamed
 * into place by nb_outfile_commit, so that a failed or killed run never
 * leaves a partial file.  A path of "-" or NULL writes to stdout. */
struct nb_outfile {
    FILE *fp;
    char *path;         /* final name, NULL for stdout */
    char *tmp_path;     /* temporary name, NULL for stdout */
};
enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path,
                               struct nb_error *err);
/* Flushes, checks for write errors and renames into place. */
enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err);
/* Closes and removes the temporary file (no-op after commit). */
void nb_outfile_abort(struct nb_outfile *f);

/* ---- CPU reference forces ---------------------------------------------- */

/* GA kernel in double precision with Newton's third law (triangular loop,
 * OpenMP): acc[3i..3i+2] = sum_{j != i} m_j r_ij / (r_ij^2 + eps^2)^{3/2},
 * pot[i] = -sum_{j != i} m_j / (r_ij^2 + eps^2)^{1/2}, r_ij = x_j - x_i.
 * The result does not depend on the number of threads. */
enum nb_status nb_cpu_ga(size_t n, const double *x, const double *m,
                         double eps, double *acc, double *pot,
                         struct nb_error *err);

/* GAJ kernel in double precision for the i-particles active[0..n_active)
 * (indices into the n j-particles) against all j != i: acc (3 n_active),
 * jerk (3 n_active), pot (n_active), formulas as in struct
 * nb_force_backend.compute_gaj.  OpenMP over i; deterministic. */
enum nb_status nb_cpu_gaj(size_t n, const double *x, const double *v,
                          const double *m, double eps, size_t n_active,
                          const uint32_t *active, double *acc, double *jerk,
                          double *pot, struct nb_error *err);

/* Sums of the magnitudes of the pair terms, sum_j |a_ij| and
 * sum_j |phi_ij|: the scale that bounds float rounding in a_i and phi_i. */
enum nb_status nb_cpu_ga_magnitudes(size_t n, const double *x,
                                    const double *m, double eps,
                                    double *acc_abs, double *pot_abs,
                                    struct nb_error *err);

/* ---- accuracy against the reference ----------------------------------- */

/* How far a GA result is from the double-precision reference. */
struct nb_accuracy {
    double acc_rel_max;     /* max_i |a_i - ref| / sum_j |a_ij| */
    double pot_rel_max;     /* max_i |phi_i - ref| / sum_j |phi_ij| */
    size_t acc_worst;       /* the particle of acc_rel_max */
    double f_err;           /* seed 004 eq. 10: sum |F - F_ref| / sum |F_ref| */
    double f_offset;        /* seed 004 eq. 11: |sum F| / sum |F| */
    size_t nonfinite;       /* particles with a NaN or infinite component */
};

/* Compares acc/pot with the reference ref_acc/ref_pot, scaled by the pair
 * magnitudes of nb_cpu_ga_magnitudes; forces F = m a. */
void nb_accuracy_ga(size_t n, const double *m, const double *acc,
                    const double *pot, const double *ref_acc,
                    const double *ref_pot, const double *acc_abs,
                    const double *pot_abs, struct nb_accuracy *out);

/* ---- force backends ---------------------------------------------------- */

/* The kernels a backend can evaluate. */
enum nb_kernel {
    NB_KERNEL_GA,       /* acceleration and potential */
    NB_KERNEL_GAJ       /* acceleration, jerk and potential (Hermite) */
};

/* How the GA kernel sums its pair terms: seed 004 Table 1, plus H. */
enum nb_precision {
    NB_PRECISION_A,     /* float pair terms, float sums (the fast kernels) */
    NB_PRECISION_B,     /* float pair terms, double sums */
    NB_PRECISION_C,     /* float pair terms, Takahashi & Iitaka float pair */
    NB_PRECISION_D,     /* float pair terms, Nitadori's trick */
    NB_PRECISION_E,     /* float pair terms, modified Nitadori (LARGE) */
    NB_PRECISION_F,     /* float pair terms, Narumi's float + int32 pair */
    NB_PRECISION_G,     /* double pair terms, double sums */
    NB_PRECISION_H,     /* float pair forces m_i m_j f_ij rounded to int64
                           fixed point: exact, order-independent sums */
    NB_PRECISION_COUNT
};

/* One force engine: cpu (src-free, always there), compute or fragment.
 * Usage: set_variant (optional), set_particles, compute, read. */
struct nb_force_backend {
    const char *name;                   /* "cpu", "compute", "fragment" */
    void *state;                        /* owned by the backend */
    /* Chooses a variant by name ("auto" lets the backend decide for the
     * next particle count); NB_ERR_ARGS for an unknown name. */
    enum nb_status (*set_variant)(void *state, const char *variant,
                                  struct nb_error *err);
    /* Uploads positions (3n) and masses (n); the i- and j-streams. */
    enum nb_status (*set_particles)(void *state, size_t n, const double *x,
                                    const double *m, struct nb_error *err);
    /* Evaluates a kernel on the particles last set. */
    enum nb_status (*compute)(void *state, enum nb_kernel kernel, double eps,
                              struct nb_error *err);
    /* Copies the last result to the host: acc (3n), pot (n). */
    enum nb_status (*read)(void *state, double *acc, double *pot,
                           struct nb_error *err);
    /* Seconds the last compute or compute_gaj took on the device (timer
     * query where it works, else glFinish and a monotonic clock); may wait
     * for that work, so callers ask after reading its result. */
    double (*last_seconds)(void *state);
    /* The variant in use, resolved ("auto" never comes back). */
    const char *(*variant)(void *state);
    /* The renderer string, "cpu (N threads)" for the CPU. */
    const char *(*renderer)(void *state);
    /* Every variant name, NULL-terminated, for --variant all. */
    const char *const *(*variants)(void *state);
    /* Optional (NULL: only NB_PRECISION_A): the accumulation mode of the
     * GA kernel for the next set_particles and compute; call it before
     * set_particles.  NB_ERR_UNSUPPORTED naming what is missing (a GL
     * extension) where the mode cannot run. */
    enum nb_status (*set_precision)(void *state, enum nb_precision mode,
                                    struct nb_error *err);

    /* ---- the GAJ kernel for block time steps (seed 001) ---- */
    /* Uploads the j-particles: positions (3n), velocities (3n), masses. */
    enum nb_status (*set_j)(void *state, size_t n, const double *x,
                            const double *v, const double *m,
                            struct nb_error *err);
    /* GAJ for the i-particles active[0..n_active), indices into the
     * j-set (each i excludes itself), against all j-particles:
     * a_i   = sum_j m_j r_ij / (r^2+eps^2)^{3/2}
     * jerk_i = sum_j m_j [v_ij / (r^2+eps^2)^{3/2}
     *                    - 3 (r_ij . v_ij) r_ij / (r^2+eps^2)^{5/2}]
     * phi_i = -sum_j m_j / (r^2+eps^2)^{1/2},  r_ij = x_j - x_i,
     * v_ij = v_j - v_i.  Indices must be distinct and < n. */
    enum nb_status (*compute_gaj)(void *state, double eps, size_t n_active,
                                  const uint32_t *active, struct nb_error *err);
    /* The last GAJ result in active order: acc (3 n_active), jerk
     * (3 n_active), pot (n_active). */
    enum nb_status (*read_gaj)(void *state, double *acc, double *jerk,
                               double *pot, struct nb_error *err);

    /* ---- optional: Hermite state kept on the device (--predict gpu) ----
     * NULL where a backend does not offer it. */
    /* Uploads the whole state: x, v, a, jerk (3n each), the time of each
     * particle's last correction t0 (n) and masses (n). */
    enum nb_status (*load_state)(void *state, size_t n, const double *x,
                                 const double *v, const double *a,
                                 const double *jerk, const double *t0,
                                 const double *m, struct nb_error *err);
    /* Replaces the state of the n_block particles idx[] (corrected block),
     * arrays in idx order. */
    enum nb_status (*update_state)(void *state, size_t n_block,
                                   const uint32_t *idx, const double *x,
                                   const double *v, const double *a,
                                   const double *jerk, const double *t0,
                                   struct nb_error *err);
    /* Predicts every particle to time t on the device (x + v dt + a dt^2/2
     * + j dt^3/6, v + a dt + j dt^2/2) and makes that the j-set. */
    enum nb_status (*predict_j)(void *state, double t, struct nb_error *err);

    void (*destroy)(void *state);
};

/* W = 1/2 sum_i m_i phi_i of n particles (x 3n, m n) with softening eps,
 * in double: on b's GA kernel in precision G where b has it (fp64 pair
 * terms and sums; b is left in precision A), else on the CPU reference
 * (b may be NULL).  Errors: NB_ERR_NOMEM, the backend's. */
enum nb_status nb_potential_energy(struct nb_force_backend *b, size_t n,
                                   const double *x, const double *m, double eps,
                                   double *w, struct nb_error *err);

/* The CPU reference backend (variant "newton3"). */
enum nb_status nb_backend_cpu_create(struct nb_force_backend *b,
                                     struct nb_error *err);

/* ---- simulation: Hermite block steps (seed 001, section 2) -------------- */

/* The smallest time step.  A particle whose criterion asks for less stops
 * the run with NB_ERR_NUMERIC naming it: never a silent clamp. */
#define NB_DT_FLOOR 0x1p-40
/* The largest end time: block times are multiples of NB_DT_FLOOR, exact in
 * a double only below 2^13. */
#define NB_T_MAX 8192.0

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
};
/* eta 0.02, eps 0.01, dt_max 0.125, individual steps, host prediction. */
void nb_sim_params_default(struct nb_sim_params *par);

/* Counters and the time split of seed 001 eq. 10, summed over the steps. */
struct nb_sim_stats {
    uint64_t block_steps;       /* block steps taken (the initial force
                                   evaluation of all n is not counted) */
    uint64_t particle_steps;    /* particles corrected, summed over blocks */
    double t_host;      /* wall seconds on the host: prediction, correction,
                           time steps (everything not in a backend call) */
    double t_force;     /* device seconds of compute_gaj (last_seconds) */
    double t_comm;      /* wall seconds in backend calls minus t_force:
                           uploads, predict_j, readback, waiting */
};

struct nb_sim;

/* An integrator: a private state behind four functions (one file each, no
 * GL type).  create evaluates the initial forces and steps; step advances
 * one block (indices passed to compute_gaj in ascending order); predict
 * writes every particle at a time t between s->t and the next block time
 * (x, v: 3n each) without changing the state.  create and step return
 * NB_OK or the status of the message they left in s->err. */
struct nb_integrator {
    const char *name;
    enum nb_status (*create)(struct nb_sim *s, void **state);
    enum nb_status (*step)(struct nb_sim *s, void *state);
    void (*predict)(const struct nb_sim *s, const void *state, double t,
                    double *x, double *v);
    void (*free)(void *state);
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
    enum nb_status status;      /* of the last call; NB_OK or err.status */
    struct nb_error err;        /* the last error's message */
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
                           struct nb_force_backend *b);
/* Advances the block of particles due at nb_sim_next_time(s); s->t becomes
 * that time.  NB_ERR_NUMERIC when a step falls below NB_DT_FLOOR. */
enum nb_status nb_sim_step(struct nb_sim *s);
/* The time of the next block step: min_i t0[i] + dt[i]. */
double nb_sim_next_time(const struct nb_sim *s);
/* Every particle predicted in double to t, s->t <= t <= the next block
 * time (x, v: 3n each), from a, jerk and the corrector's a2, a3; the
 * state is unchanged.  NB_ERR_ARGS for t out of that range. */
enum nb_status nb_sim_predict(struct nb_sim *s, double t, double *x,
                              double *v);
void nb_sim_free(struct nb_sim *s);

/* ---- diagnostics ------------------------------------------------------- */

/* One row of the energy log (header in nb_diag_csv_header). */
struct nb_diag {
    double t, ekin, epot, etot;
    double de_rel;          /* (etot - e0) / |e0| */
    double virial;          /* 2 ekin / |epot| (1 in virial equilibrium) */
    double p_abs, l_abs;    /* |sum m v|, |sum m x cross v| */
    double com[3];          /* sum m x / sum m */
    uint64_t block_steps, particle_steps;
    int epot_from_gaj;      /* 1: s->sync_epot; 0: nb_potential_energy */
};

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
/* `t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,com_z,
 * block_steps,particle_steps` and a newline. */
void nb_diag_csv_header(FILE *fp);
/* One row, %.17g for the reals. */
void nb_diag_csv_row(FILE *fp, const struct nb_diag *d);

/* ---- timing and statistics --------------------------------------------- */

/* Monotonic clock in seconds. */
double nb_clock_seconds(void);
/* Median of n values (sorts a copy); 0 for n == 0. */
double nb_median(const double *values, size_t n);

#endif
