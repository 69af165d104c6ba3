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

/* ---- text files: the one reader of every text format ----------------- */

/* Where '#' starts a comment. */
enum nb_text_comments {
    NB_TEXT_NO_COMMENTS,        /* '#' is data (LAMMPS dumps) */
    NB_TEXT_COMMENT_LINES,      /* a line whose first field starts with '#'
                                   (snapshots, which read a declaration
                                   there: its fields stay split) */
    NB_TEXT_COMMENT_ANYWHERE    /* '#' ends the data of any line
                                   (coefficient tables, exclusion lists) */
};

/* A text file read line by line.  After nb_text_next the current line is
 * in line (trailing whitespace, so LF or CRLF, stripped) and split into
 * nfield whitespace-separated fields (NUL-terminated copies) starting at
 * the 1-based byte columns column[]; at the end of the file at_end is set
 * and nfield is 0.  Lines have any length. */
struct nb_text {
    const char *path;
    FILE *fp;
    enum nb_text_comments comments;
    size_t lineno;              /* 1-based number of the current line */
    char *line;
    size_t length;              /* of line */
    int nfield;
    char **field;
    size_t *column;
    int is_comment;             /* a comment line (NB_TEXT_COMMENT_LINES) */
    int at_end;                 /* no line left */
    int newline;                /* the current line ended in '\n' */
    size_t line_cap, split_cap, field_cap;
    char *split;                /* the fields' storage */
};

/* Opens path (NB_ERR_IO "path: cannot open: ..."). */
enum nb_status nb_text_open(struct nb_text *t, const char *path,
                            enum nb_text_comments comments,
                            struct nb_error *err);
void nb_text_close(struct nb_text *t);

/* The next line, or at_end; NB_ERR_IO on a read error. */
enum nb_status nb_text_next(struct nb_text *t, struct nb_error *err);

/* The next line with data: blank and comment lines skipped. */
enum nb_status nb_text_next_data(struct nb_text *t, struct nb_error *err);

/* NB_ERR_PARSE with "path:line:column: reason", the column that of field
 * (past the last field: just after it; at the end of the file: the start
 * of the line after the last newline, or just after the text of a last
 * line without one). */
enum nb_status nb_text_error(const struct nb_text *t, int field,
                             struct nb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* min..max fields, else "missing field: expected N fields (what), found
 * M" at the end of the line or "extra field 'F': ..." at the first one
 * too many. */
enum nb_status nb_text_expect_fields(const struct nb_text *t, int min, int max,
                                     const char *what, struct nb_error *err);

/* Field number field as a finite double, the whole field; name says what
 * it is in the message ("NAME: not a number: 'F'", "NAME: not finite",
 * "NAME: out of range: 'F' overflows/underflows a double", "missing
 * field: NAME").  Subnormal values are read; underflow to 0 is refused. */
enum nb_status nb_text_double(const struct nb_text *t, int field,
                              const char *name, double *out,
                              struct nb_error *err);

/* Field number field as a decimal integer in lo..hi ("NAME: not an
 * integer: 'F'", "NAME: out of range: 'F' is outside LO..HI"). */
enum nb_status nb_text_int(const struct nb_text *t, int field,
                           const char *name, long long lo, long long hi,
                           long long *out, struct nb_error *err);

/* ---- snapshot files ---------------------------------------------------- */

/* Reads a text snapshot: one particle a line, `id m x y z vx vy vz`,
 * `id type m x y z vx vy vz` or `id type q m x y z vx vy vz` (charges in
 * p->q; this form only after a `#` line ending in those ten names, which
 * nb_snapshot_write writes), blank and `#` lines ignored; all data lines
 * must have the same column count (read by nb_text).  Errors (NB_ERR_IO,
 * NB_ERR_PARSE) name file:line:column and the reason: a malformed,
 * non-finite or out-of-range number, a negative mass, a missing or extra
 * field; or the file and an empty file. */
enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                struct nb_error *err);

/* Writes p (%.17g: reads back exactly) through nb_outfile, so the file
 * appears whole or not at all: `id m x y z vx vy vz` lines, `id type m x
 * y z vx vy vz` when p->type is set, `id type q m x y z vx vy vz` when
 * p->q is set too, each of the last two after a `#` line naming the
 * columns.  comment (may be NULL) becomes a first `# ` line.  Errors:
 * NB_ERR_ARGS (charges without types), NB_ERR_IO, NB_ERR_NOMEM. */
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

/* What a force backend can do that its vtable's optional (NULL) entries
 * do not tell: bits of struct nb_force_backend.caps. */
enum nb_backend_caps {
    NB_BACKEND_DOUBLE = 1u << 0,    /* GA results summed in double (the CPU
                                       reference): worth printing with %.17g */
    NB_BACKEND_GAJ_MODES = 1u << 1  /* set_precision reaches the GAJ kernel
                                       too: block steps in modes B..H */
};

/* One force engine: cpu (src-free, always there), compute or fragment.
 * Usage: set_variant (optional), set_particles, compute, read. */
struct nb_force_backend {
    const char *name;                   /* "cpu", "compute", "fragment" */
    void *state;                        /* owned by the backend */
    unsigned caps;                      /* enum nb_backend_caps bits */
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
     * GA kernel for the next set_particles and compute, and of the GAJ
     * kernel for the next set_j or load_state and compute_gaj; call it
     * before set_particles, set_j or load_state (compute_gaj refuses a
     * j-set set before it with NB_ERR_ARGS).  GAJ in precision G needs
     * set_j (host prediction): on a predict_j j-set NB_ERR_UNSUPPORTED.
     * NB_ERR_UNSUPPORTED naming what is missing (a GL extension) where the
     * mode cannot run. */
    enum nb_status (*set_precision)(void *state, enum nb_precision mode,
                                    struct nb_error *err);
    /* Optional (NULL: always NB_PRECISION_A): the mode set_precision set. */
    enum nb_precision (*get_precision)(void *state);

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
 * terms and sums; b is left in the precision it had: get_precision, or A
 * without it), else on the CPU reference
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
 * NB_OK or the status of the message they set in err. */
struct nb_integrator {
    const char *name;
    enum nb_status (*create)(struct nb_sim *s, void **state, struct nb_error *err);
    enum nb_status (*step)(struct nb_sim *s, void *state, struct nb_error *err);
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

/* ---- molecular dynamics: force laws (seeds 000, 002, 003) --------------- */

/* Reduced units (sigma = epsilon = m = 1, Boltzmann and Coulomb constants
 * 1).  Every law is a central pair force F_i = fr(r) (x_i - x_j) derived
 * exactly from its pair energy u(r), so that MD conserves energy:
 *   LJ        u = c12/r^12 - c6/r^6, c12 = 4 eps sigma^12, c6 = 4 eps sigma^6
 *             (seed 002 eqs. 9-10)
 *   LJC       LJ + q_i q_j / (D(r) r), seed 000 Table 1, with D(r) = D
 *             (constant), D r (linear) or zeta(r) = exp(a r^3 + b r^2 +
 *             c r + d) (sigmoidal).  Table 1 writes the Coulomb force as
 *             q_i q_j r_ij / (D(r) r^3), which omits D'(r); we keep the
 *             derivative (linear: twice Table 1's force), so u and F agree.
 *   ionic     seed 003: F_i = (x_i - x_j) (cx / r^3 + (cy / r)^cz), per
 *             type pair (cx = q_i q_j of the pair), u = cx / r + cy^cz
 *             r^(2-cz) / (cz - 2), cz > 2.
 * With a cutoff rc, pairs at r >= rc contribute nothing; with shift, u(rc)
 * is subtracted inside (seed 002 eq. 10; forces unchanged). */
enum nb_md_law {
    NB_LAW_LJ,
    NB_LAW_LJC_CONSTANT,
    NB_LAW_LJC_LINEAR,
    NB_LAW_LJC_SIGMOIDAL,
    NB_LAW_IONIC,
    NB_LAW_COUNT
};

/* "lj", "ljc-constant", "ljc-linear", "ljc-sigmoidal", "ionic". */
const char *nb_md_law_name(enum nb_md_law law);
/* The reverse; NB_ERR_ARGS naming the text and the choices. */
enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law,
                               struct nb_error *err);

#define NB_MD_MAX_TYPES 16

/* Per-type and per-pair parameters.  Type t of a particle (1..count, as in
 * LAMMPS) is row t-1.  Pair tables are symmetric. */
struct nb_md_types {
    int count;                                  /* 1..NB_MD_MAX_TYPES */
    double mass[NB_MD_MAX_TYPES];               /* for inputs without masses */
    double charge[NB_MD_MAX_TYPES];             /* for inputs without charges */
    double eps[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];   /* LJ well depth */
    double sigma[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES]; /* LJ zero crossing */
    double ionic[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES][3]; /* cx, cy, cz */
};

/* A force law with its parameters. */
struct nb_md_potential {
    enum nb_md_law law;
    struct nb_md_types types;
    double dielectric;      /* D of ljc-constant and ljc-linear (> 0) */
    double sigmoid[4];      /* a, b, c, d of ljc-sigmoidal's zeta(r) */
    double cutoff;          /* rc > 0, or 0 for none */
    int shift;              /* 1: u(rc) subtracted inside the cutoff */
};

/* count types of mass 1, charge 0, eps = sigma = 1, ionic (0, 0, 12);
 * dielectric 1, sigmoid (0, 0, 1, 0), no cutoff, no shift. */
void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law,
                             int count);

/* How a pair table is completed from the diagonal. */
enum nb_md_mixing {
    NB_MIX_ARITHMETIC,      /* Lorentz-Berthelot: sigma mean, eps geometric */
    NB_MIX_GEOMETRIC        /* both geometric (OPLS) */
};
/* Fills the off-diagonal eps and sigma of pot from the diagonal. */
void nb_md_potential_mix(struct nb_md_potential *pot, enum nb_md_mixing mix);

/* Reads a coefficient table (text, `#` comments), one entry a line:
 *   types T                          (first; 1..NB_MD_MAX_TYPES)
 *   mass I M | charge I Q
 *   lj I J EPS SIGMA                 (I == J: the type; mixing fills pairs)
 *   mix arithmetic|geometric         (applied to pairs not given)
 *   ionic I J CX CY CZ               (pair I-J and J-I)
 * into pot->types (law and the other fields untouched).  Errors
 * (NB_ERR_IO, NB_ERR_PARSE) name file:line:column and the reason (read
 * by nb_text, '#' comments anywhere). */
enum nb_status nb_md_types_read(const char *path, struct nb_md_potential *pot,
                                struct nb_error *err);

/* Checks the parameters: count, finite values, eps >= 0, sigma > 0,
 * dielectric > 0, cz > 2, cutoff >= 0; NB_ERR_ARGS naming the entry. */
enum nb_status nb_md_potential_check(const struct nb_md_potential *pot,
                                     struct nb_error *err);

/* What the kernels read for an ordered type pair. */
struct nb_md_pair_coeff {
    double c12, c6;         /* 4 eps sigma^12, 4 eps sigma^6 */
    double cx, a, cz;       /* ionic: cx, cy^cz, cz */
    double u_shift;         /* the LJ or ionic u(rc) when shifting, else 0 */
};
/* count^2 coefficients, row-major by (type i - 1, type j - 1); also the
 * Coulomb shift u_c(rc) / (q_i q_j) in *coulomb_shift (0 without shift). */
void nb_md_pair_coeffs(const struct nb_md_potential *pot,
                       struct nb_md_pair_coeff *out, double *coulomb_shift);

/* One pair in double at squared distance r2 > 0 inside the cutoff:
 * F_i = *fr (x_i - x_j), *u the pair energy (shifted where asked). */
void nb_md_pair(const struct nb_md_potential *pot,
                const struct nb_md_pair_coeff *c, double coulomb_shift,
                double qq, double r2, double *fr, double *u);

/* A rectangular box, periodic or open along each axis. */
struct nb_md_box {
    double lo[3], hi[3];
    int periodic[3];
};
/* Checks lo < hi, finite bounds, and for a periodic axis that cutoff
 * (> 0 required) is at most half its length; NB_ERR_ARGS naming it. */
enum nb_status nb_md_box_check(const struct nb_md_box *box, double cutoff,
                               struct nb_error *err);
/* Wraps the periodic coordinates of n positions (3n) into [lo, hi). */
void nb_md_box_wrap(const struct nb_md_box *box, size_t n, double *x);

/* What a force engine evaluates. */
struct nb_md_system {
    size_t n;
    const int *type;        /* 1..pot->types.count */
    const double *m;        /* masses */
    const double *q;        /* charges (NULL: the type table's) */
    const struct nb_md_potential *pot;
    const struct nb_md_box *box;
    int cell_list;          /* 1: cell lists (cutoff required), 0: all pairs */
    size_t n_excluded;      /* bonded pairs left out of the sums ... */
    const uint32_t *excluded;   /* ... as 2 n_excluded particle indices */
    int checked;            /* 1: nb_md_system_check accepted it as it is
                               (nb_md_sim_prepare sets it; whoever changes a
                               field after that clears it): engines and
                               nb_md_cpu_forces then skip the O(n) check */
};
/* Checks sys: types in range, positive finite masses, finite charges,
 * excluded pairs of two distinct particles < n, the potential and the box; a cell list needs a cutoff and at least 3
 * cells of width >= rc along each periodic axis.  NB_ERR_ARGS. */
enum nb_status nb_md_system_check(const struct nb_md_system *sys,
                                  struct nb_error *err);
/* nb_md_system_check unless sys->checked: what every engine's setup and
 * nb_md_cpu_forces call, so that a run checks its system once. */
enum nb_status nb_md_system_require(const struct nb_md_system *sys,
                                    struct nb_error *err);
/* The first particle with a non-finite value in a or b (3n each), or
 * SIZE_MAX. */
size_t nb_md_first_nonfinite(size_t n, const double *a, const double *b);

/* Exclusions, seed 004's 'exclude afterwards': every engine (and
 * nb_md_cpu_forces) sums all pairs; nb_md_sim then subtracts the excluded
 * pairs (minimum image, inside the cutoff) here on the host in double, so
 * the inner loops carry no mask.  Each excluded pair i-j takes F_ij off
 * f_i and adds it to f_j, and half of u_ij and of r.F_ij off pe and vir of
 * both. */
void nb_md_subtract_excluded(const struct nb_md_system *sys, const double *x,
                             double *f, double *pe, double *vir);

/* CPU reference in double for positions x (3n): forces f (3n), per-particle
 * energy pe (n: half of each pair energy) and virial vir (n: half of each
 * pair's r_ij . F_ij); minimum image along periodic axes.  All pairs, or
 * cell lists when sys->cell_list (same sums to rounding).  OpenMP. */
enum nb_status nb_md_cpu_forces(const struct nb_md_system *sys, const double *x,
                                double *f, double *pe, double *vir,
                                struct nb_error *err);
/* The same, and in *pairs the ordered pairs (i, j != i) inside the cutoff
 * that the sums took (n (n - 1) without one). */
enum nb_status nb_md_cpu_forces_counted(const struct nb_md_system *sys, const double *x,
                                        double *f, double *pe, double *vir, double *pairs,
                                        struct nb_error *err);

/* ---- molecular dynamics: engines and velocity Verlet (seed 002) -------- */

/* Device seconds by phase, summed since setup. */
struct nb_md_timings {
    double k1;              /* kick + drift + wrap (seed 002 K1) */
    double cells;           /* cell-list build: hash, sort, reorder */
    double force;           /* pair forces */
    double k2;              /* second kick (seed 002 K2 less the forces) */
    uint64_t evaluations;   /* force evaluations */
};

/* What an MD engine can do beyond its vtable: bits of nb_md_engine.caps. */
enum nb_md_engine_caps {
    NB_MD_ENGINE_CELL_LISTS = 1u << 0   /* sums through cell lists
                                           (nb_md_system.cell_list) */
};

/* A force engine for MD: cpu, compute or fragment. */
struct nb_md_engine {
    const char *name;
    void *state;
    unsigned caps;          /* enum nb_md_engine_caps bits */
    /* Takes the system (copied: the caller may free its arrays). */
    enum nb_status (*setup)(void *state, const struct nb_md_system *sys,
                            struct nb_error *err);
    /* Forces, energies and virials (as nb_md_cpu_forces) at x. */
    enum nb_status (*forces)(void *state, const double *x, double *f,
                             double *pe, double *vir, struct nb_error *err);
    /* Optional (NULL: the host integrates): velocity Verlet on the device.
     * load uploads x, v (3n each) and evaluates the forces; steps advances
     * count steps of dt (kick dt/2, drift dt, wrap, forces, kick dt/2)
     * with nothing read back; fetch reads the current x, v, f, pe, vir. */
    enum nb_status (*load)(void *state, const double *x, const double *v,
                           struct nb_error *err);
    enum nb_status (*steps)(void *state, double dt, uint64_t count,
                            struct nb_error *err);
    enum nb_status (*fetch)(void *state, double *x, double *v, double *f,
                            double *pe, double *vir, struct nb_error *err);
    void (*timings)(void *state, struct nb_md_timings *t);
    const char *(*renderer)(void *state);
    /* Optional (NULL: mode A only, the engine's own sums): the
     * accumulation mode of the forces (seed 004 Table 1), before setup;
     * NB_ERR_UNSUPPORTED where the mode's extension is missing. */
    enum nb_status (*set_precision)(void *state, enum nb_precision mode,
                                    struct nb_error *err);
    void (*destroy)(void *state);
};

/* e->set_precision, or NB_ERR_ARGS naming the engine where it has no
 * accumulation modes and mode is not A. */
enum nb_status nb_md_engine_set_precision(struct nb_md_engine *e, enum nb_precision mode,
                                          struct nb_error *err);

/* The CPU engine (nb_md_cpu_forces, OpenMP). */
enum nb_status nb_md_engine_cpu_create(struct nb_md_engine *e,
                                       struct nb_error *err);

struct nb_md_sim;

/* An MD integrator: a private state behind four functions, the shape of
 * struct nb_integrator.  create chooses how the steps run (the host loop
 * or the engine's device steps: s->device) and evaluates the initial
 * forces or loads the device; step advances count steps; sync makes x, v,
 * f, pe, vir current (a device fetch where needed); free takes the state
 * (NULL too).  All report through err. */
struct nb_md_integrator {
    const char *name;
    enum nb_status (*create)(struct nb_md_sim *s, void **state, struct nb_error *err);
    enum nb_status (*step)(struct nb_md_sim *s, void *state, uint64_t count,
                           struct nb_error *err);
    enum nb_status (*sync)(struct nb_md_sim *s, void *state, struct nb_error *err);
    void (*free)(void *state);
};

/* Velocity Verlet (Swope, Andersen, Berens and Wilson 1982). */
extern const struct nb_md_integrator nb_integrator_verlet;

/* One MD run: the state in double on the host, the engine borrowed. */
struct nb_md_sim {
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;    /* points at the arrays below */
    size_t n;
    int *type;
    double *m, *q;
    double *x, *v, *f, *pe, *vir;   /* current where synced */
    double dt;
    uint64_t step;
    int synced;                 /* 1: x..vir are the state at step */
    int device;                 /* 1: the engine integrates on the device */
    uint32_t *excluded;         /* 2 n_excluded particle indices (sys too) */
    struct nb_md_engine *engine;
    const struct nb_md_integrator *integrator;
    void *integrator_state;
};

/* Copies p (types required; masses and charges from p, or from the type
 * table where p has no charges), wraps x into the box, sets the engine up
 * and evaluates the initial forces.  Errors: the checks above, the
 * engine's.  Call nb_md_sim_free even after a failure. */
enum nb_status nb_md_sim_init(struct nb_md_sim *s, const struct nb_particles *p,
                              const struct nb_md_potential *pot,
                              const struct nb_md_box *box, int cell_list,
                              double dt, struct nb_md_engine *engine,
                              struct nb_error *err);
/* nb_md_sim_init with n_excluded bonded pairs (2 n_excluded particle
 * indices, copied) left out: the host subtracts them after every force
 * evaluation (nb_md_subtract_excluded), so the run integrates on the host
 * even with an engine that could integrate on the device. */
enum nb_status nb_md_sim_init_excluding(struct nb_md_sim *s, const struct nb_particles *p,
                                        const struct nb_md_potential *pot,
                                        const struct nb_md_box *box, int cell_list,
                                        double dt, struct nb_md_engine *engine,
                                        size_t n_excluded, const uint32_t *excluded,
                                        struct nb_error *err);
/* nb_md_sim_init_excluding in two halves, so that a program can check the
 * system (once: sys.checked) before it creates a GL context and an engine.
 * prepare copies p, wraps x and checks everything but the engine, with
 * cell lists as cell_list says; start sets the engine up on that system
 * and evaluates the initial forces.  start's cell_list is prepare's, or 0
 * to drop the cell lists prepared (for an engine without them: caps);
 * NB_ERR_ARGS for 1 after 0 or an unprepared sim.  Call nb_md_sim_free
 * even after a failure. */
enum nb_status nb_md_sim_prepare(struct nb_md_sim *s, const struct nb_particles *p,
                                 const struct nb_md_potential *pot,
                                 const struct nb_md_box *box, int cell_list, double dt,
                                 size_t n_excluded, const uint32_t *excluded,
                                 struct nb_error *err);
enum nb_status nb_md_sim_start(struct nb_md_sim *s, struct nb_md_engine *engine,
                               int cell_list, struct nb_error *err);
/* Advances count velocity Verlet steps (on the device where the engine
 * can); NB_ERR_NUMERIC when a force or velocity goes non-finite. */
enum nb_status nb_md_sim_advance(struct nb_md_sim *s, uint64_t count,
                                 struct nb_error *err);
/* Makes x, v, f, pe, vir current (a device fetch where needed). */
enum nb_status nb_md_sim_sync(struct nb_md_sim *s, struct nb_error *err);
void nb_md_sim_free(struct nb_md_sim *s);

/* The thermodynamic state and first integrals of a synced sim. */
struct nb_md_thermo {
    uint64_t step;
    double time;
    double temp;            /* 2 ke / (3n - 3), as LAMMPS counts (n > 1) */
    double pe, ke, etotal;  /* totals */
    double press;           /* (2 ke + W) / (3 V), W = sum_pairs r.F, V the
                               box volume */
    double p[3], l[3];      /* linear, angular momentum (about the origin) */
    double com[3];          /* centre of mass */
};
void nb_md_thermo(const struct nb_md_sim *s, struct nb_md_thermo *th);

/* ---- molecular dynamics: initial conditions and files ------------------- */

/* fcc lattice of cells^3 unit cells (4 atoms each) at number density rho,
 * type 1, mass 1, box [0, L)^3 periodic; Maxwell velocities at temperature
 * T, zero total momentum, rescaled to exactly T (3n - 3 degrees).  Errors:
 * NB_ERR_ARGS, NB_ERR_NOMEM. */
enum nb_status nb_md_fcc(struct nb_particles *p, struct nb_md_box *box,
                         int cells, double rho, double temp, uint64_t seed,
                         struct nb_error *err);
/* Simple cubic grid of side^3 particles (seed 002) at number density rho:
 * spacing h = rho^(-1/3), sites at the cell centres of the periodic box
 * [-L/2, L/2)^3, L = side h (seed 002's [-1, 1)^3 is rho = side^3 / 8; with
 * LJ sigma = 1 and rc = 2.5 it needs L >= 5).  Type 1 with pot's type-1
 * mass (charges: the type table's, p->q NULL).  Gaussian velocities, zero
 * momentum, rescaled so that the total energy is e_target (seed 002 eqs.
 * 12-14), the potential energy summed by nb_md_cpu_forces under pot in that
 * box.  Deterministic for a seed.  Errors: NB_ERR_ARGS (bad side or rho,
 * pot or box refused by nb_md_system_check, e_target below the potential
 * energy), NB_ERR_NOMEM. */
enum nb_status nb_md_grid(struct nb_particles *p, struct nb_md_box *box,
                          int side, double rho,
                          const struct nb_md_potential *pot, double e_target,
                          uint64_t seed, struct nb_error *err);
/* The 12-particle two-type cubic cell of seed 003 (fluorite, as UO2: 4
 * type-1 cations at the fcc sites and 8 type-2 anions at (1/4 | 3/4)^3,
 * types in ratio 2:1) repeated cells^3 times with lattice constant a; the
 * corner cation of each cell sits at (a, a, a) rather than the origin, so
 * that the cell has no dipole moment and the finite crystal is not
 * polarised.  ids 1..n, zero velocities, masses and charges (p->q) from
 * pot's type table; the box is the crystal's extent with a margin of a,
 * open on every axis.  Errors: NB_ERR_ARGS (cells, a, fewer than 2 types,
 * pot refused by nb_md_potential_check), NB_ERR_NOMEM. */
enum nb_status nb_md_ionic_crystal(struct nb_particles *p, struct nb_md_box *box,
                                   int cells, double a,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err);
/* Default ionic coefficients for the crystal, 2 types: charges +2 and -1,
 * masses 238/16 and 1 (U and O in units of the anion), cx = q_i q_j for
 * every pair, cation-cation pure Coulomb (cy = 0), and a repulsion cz = 12
 * with one cy on the cation-anion and anion-anion pairs, fitted so that
 * lattice constant 1 is the equilibrium of the infinite crystal (the
 * derivation is in md_ic.c); no cutoff. */
void nb_md_ionic_default(struct nb_md_potential *pot);

/* LAMMPS `write_dump ... custom` text, its first timestep: ITEM: TIMESTEP,
 * NUMBER OF ATOMS (>= 1, matched by the atom lines), BOX BOUNDS with its
 * flags (pp periodic; two of f, s, m open; none, as before 2010:
 * periodic; triclinic refused), ITEM: UNITS and TIME skipped; ITEM: ATOMS
 * columns by name in any order: id, type (1..pot's count), x y z (or xu,
 * or scaled xs) required; mass, q (into p->q), vx vy vz (all or none)
 * optional, others ignored; masses from pot's table when absent (pot may
 * be NULL only with a mass column), zero velocities.  Errors: NB_ERR_IO,
 * NB_ERR_PARSE naming file:line:column and reason (read by nb_text);
 * p is then empty. */
enum nb_status nb_lammps_dump_read(const char *path, struct nb_particles *p,
                                   struct nb_md_box *box,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err);
/* Reads an exclusion list (--exclude): one bonded pair a line, `ID_I
 * ID_J`, the ids of particles of p, '#' comments anywhere; into *pairs,
 * 2 * *count particle indices (malloc'd, the caller frees; NULL and 0 on
 * error).  Errors (NB_ERR_IO, NB_ERR_PARSE, NB_ERR_NOMEM) name
 * file:line:column: a malformed id, one no particle has, a pair of one
 * particle with itself, a missing or extra field. */
enum nb_status nb_md_exclusions_read(const char *path,
                                     const struct nb_particles *p,
                                     uint32_t **pairs, size_t *count,
                                     struct nb_error *err);
/* Appends one timestep as `ITEM: ATOMS id type mass x y z vx vy vz`
 * (%.17g: reads back exactly; type 1 where p has no types), box bounds
 * with pp or ff flags.  Errors: NB_ERR_IO. */
enum nb_status nb_lammps_dump_write(FILE *fp, uint64_t step,
                                    const struct nb_particles *p,
                                    const struct nb_md_box *box,
                                    struct nb_error *err);
/* Appends one extended-XYZ frame: Lattice, Origin (box lo), Properties=
 * species:S:1:pos:R:3:velo:R:3:Z:I:1, pbc, Time; species "T<type>" for
 * OVITO's type names and Z = type because ASE needs atomic numbers or
 * element symbols.  Readable by OVITO and by current ASE (which takes Z
 * over species; older ASE insists on element symbols).  NB_ERR_IO. */
enum nb_status nb_extxyz_write(FILE *fp, double time, const struct nb_particles *p,
                               const struct nb_md_box *box, struct nb_error *err);

/* ---- timing and statistics --------------------------------------------- */

/* Monotonic clock in seconds. */
double nb_clock_seconds(void);
/* Median of n values (sorts a copy); 0 for n == 0. */
double nb_median(const double *values, size_t n);

#endif
