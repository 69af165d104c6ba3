/* nb_forces.h - gravitational forces: the double-precision CPU
 * reference, accuracy against it, and the force-backend vtable that the CPU
 * and the GL pipelines fill. */
#ifndef NB_FORCES_H
#define NB_FORCES_H

#include "nb_base.h"

/* ---- CPU reference forces ---------------------------------------------- */

/* GAJ kernel in double precision for the i-particles active[0..n_active)
 * (indices into the n j-particles) against all j != i: acc (3 n_active),
 * jerk (3 n_active), pot (n_active), formulas as in struct
 * nb_force_backend.compute_gaj.  OpenMP over i; deterministic. */
enum nb_status nb_cpu_gaj(size_t n, const double *x, const double *v,
                          const double *m, double eps, size_t n_active,
                          const uint32_t *active, double *acc, double *jerk,
                          double *pot, struct nb_error *err);

/* nb_cpu_gaj over the j-particles [j_first, j_end) only (clipped to n):
 * one rank's partial sums in a j-parallel run. */
enum nb_status nb_cpu_gaj_slice(size_t n, const double *x, const double *v,
                                const double *m, double eps, size_t j_first,
                                size_t j_end, size_t n_active,
                                const uint32_t *active, double *acc, double *jerk,
                                double *pot, struct nb_error *err);

/* The scales of the GAJ errors, for the i-particles active[0..n_active):
 * acc_abs[k] = sum_j |a_ij| and jerk_abs[k] = sum_j m_j (|v_ij| +
 * 3 |r_ij . v_ij| r / (r^2 + eps^2)) / (r^2 + eps^2)^{3/2}, a bound on
 * sum_j |jerk_ij| (each jerk term's two parts taken apart), j != i. */
void nb_cpu_gaj_magnitudes(size_t n, const double *x, const double *v, const double *m,
                           double eps, size_t n_active, const uint32_t *active,
                           double *acc_abs, double *jerk_abs);

/* ---- accuracy against the reference ----------------------------------- */

/* ---- force backends ---------------------------------------------------- */

/* What the device corrector reports of a block (correct_block): the
 * count of particles at each step level (nb_step_level, NB_STEP_LEVELS of
 * them) after it, the first slot whose result is not finite and the first
 * whose step fell below the floor (n_block: none), and their particles. */
#define NB_BLOCK_LEVELS 64
struct nb_block_report {
    uint32_t level_count[NB_BLOCK_LEVELS];
    size_t bad, small;
    uint32_t bad_particle, small_particle;
};

/* The kernels a backend can evaluate. */
enum nb_kernel {
    NB_KERNEL_GA,       /* acceleration and potential */
    NB_KERNEL_GAJ       /* acceleration, jerk and potential (Hermite) */
};

/* How the GA kernel sums its pair terms (seed 004 Table 1, plus H) is
 * enum nb_precision of glnbody.h. */

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
/* The particle stream an engine holds on the GPU, for pictures drawn
 * from it without copying it to the host (src/render.c): GL object names,
 * 0 where the engine has none.  Buffers hold one vec4 of floats a
 * particle (positions: x y z m; velocities: vx vy vz -, or dvec4s where
 * vel_double); textures the same as RGBA32F texels, `width` a row. */
struct nb_gl_particles {
    size_t n;
    unsigned pos_buffer, vel_buffer, type_buffer;   /* type_buffer: uint, from 0 */
    unsigned pos_texture, vel_texture;
    int width;
    int vel_double;
};

/* What the last force pass left on the GPU, for the texture inspector
 * (src/render_inspect.c): each panel one RGBA32F render target of the
 * fragment pipeline (texture, width x height texels) or one output
 * quantity of the compute pipeline (buffer: count elements of stride
 * vec4s, the offset-th shown), xyz a vector (acceleration, jerk, force)
 * and w a scalar (potential, energy) where w_name is not empty. */
#define NB_GL_PANELS 8
struct nb_gl_panel {
    char name[48];          /* what xyz holds */
    char w_name[24];        /* what w holds, "" for nothing */
    unsigned texture, buffer;
    int width, height;      /* texture size; buffer: shown as width x height */
    size_t count;
    int stride, offset;
};
struct nb_gl_results {
    int count;
    struct nb_gl_panel panel[NB_GL_PANELS];
    char shape[160];        /* the variant's shape, in words */
};

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
    /* Optional (NULL: NB_POSITIONS_FLOAT only, or, for a backend that sums
     * in double, any): how the GAJ kernel keeps positions and velocities,
     * for the next set_j or load_state and the block steps after it:
     * NB_POSITIONS_FLOAT (rounded to float) or NB_POSITIONS_DS
     * (double-single, x_j - x_i to ~48 bits).  NB_ERR_UNSUPPORTED naming
     * what the backend cannot keep. */
    enum nb_status (*set_positions)(void *state, enum nb_positions format,
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
     * v_ij = v_j - v_i.  Indices must be distinct and < n; active NULL:
     * the block of the last find_block (backends with one). */
    enum nb_status (*compute_gaj)(void *state, double eps, size_t n_active,
                                  const uint32_t *active, struct nb_error *err);
    /* The last GAJ result in active order: acc (3 n_active), jerk
     * (3 n_active), pot (n_active). */
    enum nb_status (*read_gaj)(void *state, double *acc, double *jerk,
                               double *pot, struct nb_error *err);
    /* Optional (NULL: whole blocks only): compute_gaj cut into pieces of
     * the block that finish one after another, so that the caller can
     * correct piece k while the device computes the rest; *pieces gets
     * their number (1 where the backend keeps the block whole).  Then
     * read_gaj_piece(k) for each k in order waits for piece k alone and
     * writes its slots [*first, *first + *count) of acc, jerk and pot,
     * arrays that span the block as read_gaj's do. */
    enum nb_status (*compute_gaj_pieces)(void *state, double eps, size_t n_active,
                                         const uint32_t *active, int *pieces,
                                         struct nb_error *err);
    enum nb_status (*read_gaj_piece)(void *state, int k, double *acc, double *jerk,
                                     double *pot, size_t *first, size_t *count,
                                     struct nb_error *err);

    /* ---- optional: a j-parallel decomposition (nb_partition.h) ----
     * NULL where a backend does not offer it. */
    /* The j-particles the next compute_gaj calls sum: [first, end) of the
     * j-set, clipped to it; (0, SIZE_MAX) restores all.  The i-particles
     * (active) may lie anywhere in the j-set; each still excludes itself. */
    void (*set_j_range)(void *state, size_t first, size_t end);
    /* The i-particles [first, end) whose GA results the next compute must
     * give (others may be left unspecified); (0, SIZE_MAX) restores all.
     * Lets the ranks share the precision-G potentials (potential.c). */
    void (*set_i_range)(void *state, size_t first, size_t end);
    /* Precision H only: the last GAJ result as its exact int64 sums, 8 per
     * active particle (acc x y z, pot, jerk x y z, 0; each m_i m_j times
     * the pair terms, scaled by 2^log2[0] for acc, 2^log2[1] for pot and
     * 2^log2[2] for jerk), so that partial sums add exactly.  NB_ERR_ARGS
     * when the last evaluation was not precision H. */
    enum nb_status (*read_gaj_fixed)(void *state, int64_t *words, int log2[3],
                                     struct nb_error *err);

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

    /* ---- optional: the corrector on the device too (--correct gpu) ----
     * NULL where a backend does not offer it; precision A only.
     * load_corrector follows load_state with the rest of the state: v, a,
     * jerk, a2, a3 (3n each) in double and each step's level (n,
     * nb_step_level); predict_j then predicts from that double state, and
     * the levels stay on the device.
     * find_block finds there the block of the next compute_gaj, whose
     * active is then NULL: the n_block particles of level <= due,
     * ascending (n_block: the caller's count from the last report).
     * correct_block corrects the block of the last compute_gaj at t1 on
     * the device (Makino & Aarseth 1992 eqs. 5-9, the step from eq. 9
     * quantised as nb_step_next with eta and dt_max; the same operations
     * as the host's; a failed particle's state unchanged) and reports the
     * levels after it and its failures; crit[k], eq. 9 of slot k
     * (INFINITY where it has none), and dw[k] = m a1.(x1 - xp), the
     * first-order change of the potential energy between predicted and
     * corrected position, both only where a slot failed or the block
     * holds every particle.
     * read_corrected copies the whole state back: x, v, a, jerk, a2, a3
     * (3n each), t0 and each step's level (n). */
    enum nb_status (*load_corrector)(void *state, const double *v, const double *a,
                                     const double *jerk, const double *a2,
                                     const double *a3, const uint8_t *level,
                                     struct nb_error *err);
    enum nb_status (*find_block)(void *state, int due, size_t n_block,
                                 struct nb_error *err);
    enum nb_status (*correct_block)(void *state, double t1, double eta, double dt_max,
                                    struct nb_block_report *report, double *crit,
                                    double *dw, struct nb_error *err);
    enum nb_status (*read_corrected)(void *state, double *x, double *v, double *a,
                                     double *jerk, double *a2, double *a3, double *t0,
                                     uint8_t *level, struct nb_error *err);

    /* Optional (NULL: none): readies what the block steps on the device
     * will run (--predict gpu, and --correct gpu where correct is 1): their
     * programs, loaded while the GPU works on what was issued before.  A
     * failure is left to the call that runs the program. */
    void (*prepare_steps)(void *state, int correct);

    /* Optional (NULL: none): the j-set as it stands on the GPU (the last
     * set_j or predict_j); returns 0 where there is none yet. */
    int (*gl_particles)(void *state, struct nb_gl_particles *out);
    /* Optional (NULL: none): the last evaluation's results on the GPU;
     * returns 0 where there are none. */
    int (*gl_results)(void *state, struct nb_gl_results *out);

    void (*destroy)(void *state);

    /* The j-parallel decomposition the GAJ evaluations of the integrator
     * and of the API run under (partition.c); ranks == 0: none. */
    struct nb_partition partition;
    double partition_seconds;   /* wall seconds in its callbacks, summed */
    uint64_t partition_blocks[3];   /* evaluations by enum nb_split J, I, WHOLE */
    double partition_model[4];      /* the model's seconds on 1, 2, 4, 8 ranks */
};

/* ---- j-parallel evaluations (partition.c; Harfst et al. 2007) ---------- */

/* Checks part (ranks >= 1, 0 <= rank < ranks, both callbacks) and that b
 * can sum a slice where ranks > 1 (set_j_range), then stores it in b. */
enum nb_status nb_partition_attach(struct nb_force_backend *b,
                                   const struct nb_partition *part,
                                   struct nb_error *err);
/* compute_gaj and read_gaj under b->partition: this rank's slice of the n
 * j-particles last set (masses m, n), one callback adding the partial
 * sums over the ranks (in precision H the exact int64 words, finished
 * here as the backend would: sum 2^-k / m_i).  acc, jerk (3 n_active),
 * pot (n_active) are the totals, the same on every rank. */
enum nb_status nb_partition_gaj(struct nb_force_backend *b, double eps, size_t n,
                                const double *m, size_t n_active,
                                const uint32_t *active, double *acc, double *jerk,
                                double *pot, struct nb_error *err);
/* GA (acc 3n, pot n; either may be NULL) of n particles under
 * b->partition, through the GAJ kernel with zero velocities: set_j, every
 * particle active, nb_partition_gaj. */
enum nb_status nb_partition_ga(struct nb_force_backend *b, size_t n, const double *x,
                               const double *m, double eps, double *acc, double *pot,
                               struct nb_error *err);

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

#endif
