/* gl_internal.h - state shared by the files of the GL layer (not public). */
#ifndef NB_GL_INTERNAL_H
#define NB_GL_INTERNAL_H

#include "gl_api.h"

#include "nb_config.h"
#include "nb_gl.h"

/* The uniform locations and sampler units of a program whose GLSL level
 * has no explicit ones (below OpenGL 4.3 / OpenGL ES 3.1): loc[L] is the
 * linker's location of the uniform the kernel declared at NB_LOC L (-1:
 * none or inactive). */
#define NB_GL_MAX_LOCATIONS 64
struct nb_gl_cached_program {
    const char *name;       /* the catalogue's string */
    GLuint program;
    uint64_t active;        /* nb_gl_uniforms_of's mask, queried once at the build */
    GLint *loc;             /* NB_GL_MAX_LOCATIONS entries, NULL: explicit locations */
};

/* An API level: OpenGL (core) or OpenGL ES, major.minor. */
struct nb_gl_level {
    int es, major, minor;
};

/* GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, _WORK_GROUP_INVOCATIONS,
 * _WORK_GROUP_SIZE[0] and _SHARED_MEMORY_SIZE (0 without compute). */
struct nb_gl_compute_limits {
    int known;
    GLint blocks, invocations, size_x, shared;
};

struct nb_gl {
    EGLDisplay display;
    EGLContext context;
    EGLSurface draw, read;  /* EGL_NO_SURFACE, or a window's (borrowed) */
    int borrowed;           /* the context is a window library's: not destroyed */
    struct nb_gl_level asked;   /* the level EGL was asked for */
    int es;                     /* 1: OpenGL ES */
    int version;                /* 10 major + minor: the level glnbody uses */
    int obtained;               /* the same, as the driver gave it (>= version) */
    int glsl;                   /* the #version of the shaders: 330, 430, 300 (ES) */
    char short_renderer[256];   /* GL_RENDERER */
    char renderer[512];
    int nvidia;
    int use_spirv;          /* shaders come from spirv/ */
    int spirv_only;         /* asked for SPIR-V: no fallback to GLSL */
    char *shader_dir;
    struct nb_gl_cached_program *programs;
    size_t program_count;
    struct nb_gl_compute_limits compute;    /* nb_gl_compute_fits's, asked once */
};

/* What every context records once it is current (context_describe.c):
 * its level and GLSL (capped at opt's version), renderer, shader source
 * and directory; NB_ERR_UNSUPPORTED below OpenGL 3.3 / ES 3.0, NB_ERR_IO
 * without the shaders. */
enum nb_status nb_gl_describe(struct nb_gl *gl, const struct nb_gl_options *opt,
                              struct nb_error *err);

/* The default shader directory (src/shader_dir.c): $GLNBODY_SHADER_DIR,
 * else the installed copy beside the library, else the build tree. */
const char *nb_gl_shader_dir_default(void);
/* NB_OK when dir holds the shaders a context loads (spirv/ with SPIR-V,
 * else glsl/); otherwise NB_ERR_IO naming dir and where the default looks. */
enum nb_status nb_gl_shader_dir_check(const char *dir, int spirv, struct nb_error *err);
/* dir/spirv/ holds at least one .spv file: a build without glslangValidator
 * leaves none, and the automatic choice then loads GLSL. */
int nb_gl_shader_dir_has_spirv(const char *dir);

/* NB_OK when the SPIR-V module at path (size bytes of data) is the one
 * the build listed in dir/spirv/MANIFEST (size and POSIX cksum CRC) and
 * is well formed; else NB_ERR_IO naming path and what is wrong
 * (spirv_check.c). */
enum nb_status nb_gl_spirv_check(const char *dir, const char *path,
                                 const unsigned char *data, size_t size,
                                 struct nb_error *err);

/* NB_ERR_ARGS naming the first GLNBODY_* variable whose value is outside
 * its bounds (gl_env.c); NB_OK when all are unset or good. */
enum nb_status nb_gl_env_check(struct nb_error *err);
/* The integer value of a checked GLNBODY_* variable, or fallback when it
 * is unset or a word (such as auto). */
long long nb_gl_env_long(const char *name, long long fallback);

/* What the automatic variant choice needs of a pipeline. */
struct nb_gl_tunable {
    void *state;
    const char *const *candidates;      /* variant names, NULL-terminated */
    enum nb_status (*set_variant)(void *state, const char *name,
                                  struct nb_error *err);
    /* One evaluation, timed; its seconds come back through seconds(). */
    enum nb_status (*run)(void *state, float eps2, struct nb_error *err);
    double (*seconds)(void *state);
    double probe_limit;                 /* seconds; see nb_gl_evaluate */
};

/* Whether a pipeline chooses its variant itself ("auto"), and for which
 * particle count it last chose. */
struct nb_gl_choice {
    int automatic;
    size_t chosen_for;
};

/* ---- gl_buffers.c: what every pipeline leans on ---- */

/* One evaluation of n particles.  Under "auto", when n is new: one
 * evaluation with the current variant; if it took longer than probe_limit
 * it stands (probing would cost more than it saves), otherwise every
 * candidate runs once to build its program and once timed, and the fastest
 * is set and evaluated. */
enum nb_status nb_gl_evaluate(const struct nb_gl_tunable *t, struct nb_gl_choice *choice,
                              size_t n, float eps2, struct nb_error *err);

/* Grows a shader storage buffer to at least `bytes` (contents lost),
 * reporting GPU memory exhaustion and the storage-block size limit. */
enum nb_status nb_gl_ensure_buffer(GLuint *buf, size_t *capacity, size_t bytes,
                                   const char *what, struct nb_error *err);
/* A host area of at least `quads` float quadruples (*count of them now),
 * re-allocated (contents lost) when smaller; NB_ERR_NOMEM naming what. */
enum nb_status nb_gl_ensure_host_quads(float **area, size_t *count, size_t quads,
                                       const char *what, struct nb_error *err);
/* Converts n particles to (x, y, z, m) float quadruples. */
void nb_gl_pack_particles(float *dst, size_t n, const double *x, const double *m);
/* A results panel (struct nb_gl_panel) of a shader storage buffer: count
 * vec4s, stride apart from offset, laid out in a near-square of rows. */
struct nb_gl_panel nb_gl_buffer_panel(const char *name, const char *w_name, unsigned buffer,
                                      size_t count, int stride, int offset);

/* A host<->GPU transfer area (staging.c): a persistently mapped buffer
 * with GL 4.4 buffer storage, a malloc'd block with plain copies before.
 * Upload: p = write(bytes); fill p; send(dst, offset in p, bytes) for each
 * piece; sent().  The next write waits until the GPU has copied.
 * Download: reserve(bytes); fetch(src, offset in the area, bytes) for each
 * piece (or shaders write the mapped buffer); arrived() waits and returns
 * the area.  sent() on a download fences it at once, so that the fence
 * goes to the GPU with the work before it (arrived() then makes none). */
struct nb_gl_staging {
    GLuint buffer;          /* 0: the fallback, map is malloc'd */
    void *map;
    size_t capacity;
    GLsync fence;
    int download;
};
void nb_gl_staging_init(struct nb_gl_staging *s, int download);
void *nb_gl_staging_write(struct nb_gl_staging *s, size_t bytes, struct nb_error *err);
/* As write, but the first `keep` bytes written before stay (an area that
 * fills while the host writes it). */
void *nb_gl_staging_grow(struct nb_gl_staging *s, size_t bytes, size_t keep,
                         struct nb_error *err);
enum nb_status nb_gl_staging_send(struct nb_gl_staging *s, GLuint dst, size_t offset,
                                  size_t bytes, const char *what, struct nb_error *err);
void nb_gl_staging_sent(struct nb_gl_staging *s);
enum nb_status nb_gl_staging_reserve(struct nb_gl_staging *s, size_t bytes,
                                     struct nb_error *err);
enum nb_status nb_gl_staging_fetch(struct nb_gl_staging *s, GLuint src, size_t offset,
                                   size_t bytes, const char *what, struct nb_error *err);
/* As fetch, from src_offset of src rather than its start. */
enum nb_status nb_gl_staging_fetch_from(struct nb_gl_staging *s, GLuint src,
                                        size_t src_offset, size_t offset, size_t bytes,
                                        const char *what, struct nb_error *err);
const void *nb_gl_staging_arrived(struct nb_gl_staging *s, struct nb_error *err);
/* Whether arrived() would return at once (no fence, or the GPU past it;
 * a failed wait too, which arrived() then reports). */
int nb_gl_staging_done(struct nb_gl_staging *s);
/* Whether waits on the GPU poll (a GPU, GLNBODY_WAIT not `block`): on a
 * software renderer a polling thread takes a core from its workers. */
int nb_gl_waits_spin(void);
void nb_gl_staging_free(struct nb_gl_staging *s);
/* Waits for *fence (polled on a GPU, as staging's own), deletes it and
 * sets it to NULL; NB_OK at once for NULL. */
enum nb_status nb_gl_fence_wait(GLsync *fence, struct nb_error *err);

static inline int nb_gl_ceil_div(int a, int b) { return (a + b - 1) / b; }
/* i-particles a dispatch may take when each sums pairs_per_item pair
 * terms, a multiple of tile (gl_dispatch.c: long evaluations are cut). */
size_t nb_gl_dispatch_items(size_t pairs_per_item, int tile);

/* One compute dispatch of `items` invocations in groups of `group`, then
 * a storage barrier so that the next pass sees its writes. */
static inline void nb_gl_dispatch(size_t items, int group)
{
    glDispatchCompute((GLuint)((items + (size_t)group - 1) / (size_t)group), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* The GAJ kernel and device-resident Hermite state of the compute pipeline
 * (gaj_compute.c); the compute backend forwards its GAJ entries here. */
struct nb_gaj_compute;
struct nb_gaj_compute *nb_gaj_compute_create(struct nb_gl *gl, struct nb_error *err);
void nb_gaj_compute_destroy(struct nb_gaj_compute *g);
enum nb_status nb_gaj_compute_set_j(struct nb_gaj_compute *g, size_t n,
                                    const double *x, const double *v,
                                    const double *m, struct nb_error *err);
/* GAJ of the block active[0..n_active) in `pieces` pieces (1: whole; 0:
 * as GLNBODY_BLOCK_PIECES says, whole where it is unset), all queued at
 * once; each piece's results come back on their own, so that
 * read_piece(k) waits for piece k alone. */
enum nb_status nb_gaj_compute_run(struct nb_gaj_compute *g, int tile, double eps,
                                  size_t n_active, const uint32_t *active, int pieces,
                                  struct nb_error *err);
/* Pieces of the last run (1 before any). */
int nb_gaj_compute_pieces(const struct nb_gaj_compute *g);
/* Piece k's results into block slots [*first, *first + *count) of acc
 * (3 a slot), jerk (3) and pot (1), which span the whole block. */
enum nb_status nb_gaj_compute_read_piece(struct nb_gaj_compute *g, int k, double *acc,
                                         double *jerk, double *pot, size_t *first,
                                         size_t *count, struct nb_error *err);
/* Every piece's results. */
enum nb_status nb_gaj_compute_read(struct nb_gaj_compute *g, double *acc,
                                   double *jerk, double *pot, struct nb_error *err);
/* The j-particles the next runs sum: [first, end) clipped to the j-set
 * (0, SIZE_MAX: all of them, the default); the i-particles stay anywhere. */
void nb_gaj_compute_set_j_range(struct nb_gaj_compute *g, size_t first, size_t end);
enum nb_status nb_gaj_compute_load_state(struct nb_gaj_compute *g, size_t n,
                                         const double *x, const double *v,
                                         const double *a, const double *jerk,
                                         const double *t0, const double *m,
                                         struct nb_error *err);
enum nb_status nb_gaj_compute_update_state(struct nb_gaj_compute *g, size_t nb,
                                           const uint32_t *idx, const double *x,
                                           const double *v, const double *a,
                                           const double *jerk, const double *t0,
                                           struct nb_error *err);
/* The j-set at t from the device-resident state; dstate: the device
 * corrector's double state (gaj_correct.c) to take v, a, jerk from, else 0
 * (load_state's and update_state's float copies).  With dstate, its block
 * state too; ahead 1: at the block time after t, read from its levels. */
enum nb_status nb_gaj_compute_predict(struct nb_gaj_compute *g, double t, GLuint dstate,
                                      GLuint block_state, int ahead, struct nb_error *err);
/* What the device corrector reads of g: the state buffers (x0 and t0 in
 * double, v0 with the masses), the last block's indices, and where that
 * block's accelerations (with potentials) and jerks are, a vec4 a slot
 * from byte acc_at and jerk_at. */
struct nb_gaj_state_view {
    GLuint x, t0, v, active, acc, jerk;
    size_t n, n_active, acc_at, jerk_at;
};
void nb_gaj_compute_state_view(const struct nb_gaj_compute *g, struct nb_gaj_state_view *out);
/* The buffer of the block's indices, grown to `count` (contents lost;
 * 0 on failure): where find_block.comp writes a block for a run with
 * active NULL. */
GLuint nb_gaj_compute_block_buffer(struct nb_gaj_compute *g, size_t count,
                                   struct nb_error *err);
/* keep 1: the next runs leave their results on the GPU, for the device
 * corrector alone (read_piece and read then have none to give). */
void nb_gaj_compute_keep_results(struct nb_gaj_compute *g, int keep);
/* ds 1: the next set_j, load_state and the passes after them keep
 * positions and velocities as double-single pairs (NB_GAJ_DS), 0: float. */
void nb_gaj_compute_set_ds(struct nb_gaj_compute *g, int ds);
/* How a force pass planned on the device (gaj.comp and reduce.comp with
 * NB_FORCE_PLANNED, gaj_planned.c) runs: on the j-set of n, as
 * nb_gaj_compute_run would run a block of up to `most` particles (0: no
 * plan, for a block in pieces, a j-range or before a first run), with
 * the tile, the work groups to fill and the softening of the last run. */
struct nb_gaj_plan {
    size_t n, most;
    int tile, fill;
    double eps;
};
/* 1 where the next block's force pass can be planned, *p how. */
int nb_gaj_compute_plan(const struct nb_gaj_compute *g, struct nb_gaj_plan *p);
/* The planned pass queued: the GAJ kernel and the slices' sums from the
 * plan buffer (nb_config.h's NB_BIND_FORCE_PLAN), timed by timer; the
 * results' buffers grown first (call it after the corrector's dispatch). */
enum nb_status nb_gaj_compute_queue_planned(struct nb_gaj_compute *g,
                                            const struct nb_gaj_plan *p, GLuint plan,
                                            struct nb_gpu_timer *timer, struct nb_error *err);
/* 1, and g's last evaluation is now the planned pass of n_active
 * particles, where one was queued since the last run with this eps. */
int nb_gaj_compute_take_planned(struct nb_gaj_compute *g, size_t n_active, double eps);

/* The Hermite corrector on the device (gaj_correct.c, correct.comp,
 * find_block.comp): it keeps v, a, jerk, a2, a3 in double and each step's
 * level (x0 and t0 are the pipeline's), finds the next block, corrects the
 * last GAJ block in place and reports the levels' counts after it. */
struct nb_gaj_corrector;
/* Loads and warms (nb_gl_compute_warm) the programs of the device's block
 * steps (tile: the GAJ pass's), the corrector's where correct is 1;
 * failures are left to their use. */
void nb_gaj_steps_prepare(struct nb_gl *gl, int tile, int correct, int ds);
struct nb_gaj_corrector *nb_gaj_corrector_create(struct nb_gl *gl, struct nb_error *err);
void nb_gaj_corrector_destroy(struct nb_gaj_corrector *c);
enum nb_status nb_gaj_corrector_load(struct nb_gaj_corrector *c, size_t n, const double *v,
                                     const double *a, const double *jerk, const double *a2,
                                     const double *a3, const uint8_t *level,
                                     struct nb_error *err);
GLuint nb_gaj_corrector_state(const struct nb_gaj_corrector *c);
GLuint nb_gaj_corrector_block_state(const struct nb_gaj_corrector *c);
/* 1 where the prediction and the finding of the block at t are queued
 * already (run queues them for the block after its own); 0, and any
 * queued ones forgotten, otherwise. */
int nb_gaj_corrector_ahead(struct nb_gaj_corrector *c, double t);
/* 1 where the force pass of the block of n_active at the time ahead took
 * was queued too (run plans it behind the finding); its device seconds. */
int nb_gaj_corrector_forces_ahead(struct nb_gaj_corrector *c, size_t n_active);
double nb_gaj_corrector_forces_seconds(struct nb_gaj_corrector *c);
enum nb_status nb_gaj_corrector_find(struct nb_gaj_corrector *c, struct nb_gaj_compute *g,
                                     int due, size_t n_block, struct nb_error *err);
enum nb_status nb_gaj_corrector_run(struct nb_gaj_corrector *c,
                                    struct nb_gaj_compute *g, double t1, double eta,
                                    double dt_max, struct nb_block_report *report,
                                    double *crit, double *dw, struct nb_error *err);
enum nb_status nb_gaj_corrector_read(struct nb_gaj_corrector *c,
                                     const struct nb_gaj_compute *g, double *x, double *v,
                                     double *a, double *jerk, double *a2, double *a3,
                                     double *t0, uint8_t *level, struct nb_error *err);
/* The last GAJ evaluation's output buffers, for the texture inspector
 * (0 where the float kernel did not run last). */
int nb_gaj_compute_results(const struct nb_gaj_compute *g, struct nb_gl_results *out);
/* The j-set's position and velocity buffers (0 before any set_j). */
int nb_gaj_compute_stream(const struct nb_gaj_compute *g, struct nb_gl_particles *out);
/* The last GAJ evaluation as a variant name: "gaj-t<T>-s<S>". */
void nb_gaj_compute_describe(const struct nb_gaj_compute *g, char *buf, size_t size);
/* Device seconds of the last GAJ evaluation. */
double nb_gaj_compute_seconds(struct nb_gaj_compute *g);   /* may wait */
/* What the GAJ precision kernels read of this pipeline: the j-set (float
 * positions with mass, and velocities: set_j's or predict_j's), and the
 * block's indices, uploaded here (NB_ERR_ARGS unless each is < n). */
struct nb_gaj_inputs {
    GLuint pos, vel, active;
    size_t n;
    size_t j_first, j_end;      /* the j-slice summed, within 0..n */
};
enum nb_status nb_gaj_compute_inputs(struct nb_gaj_compute *g, size_t n_active,
                                     const uint32_t *active, struct nb_gaj_inputs *in,
                                     struct nb_error *err);

/* The GAJ kernel with an accumulation mode B..H (gaj_precision.c); the
 * compute backend forwards compute_gaj and read_gaj to it when its
 * precision is not A, and tells it of the j-set: set_j (masses; with
 * with_double, the double copy mode G reads), set_state (load_state's
 * masses; the j-set is then the device's float prediction), predicted
 * (predict_j), forget (a j-set it was not told of: mode A's set_j). */
struct nb_gaj_prec;
struct nb_gaj_prec *nb_gaj_prec_create(struct nb_gl *gl, struct nb_error *err);
void nb_gaj_prec_destroy(struct nb_gaj_prec *p);
enum nb_status nb_gaj_prec_set_j(struct nb_gaj_prec *p, size_t n, const double *x,
                                 const double *v, const double *m, int with_double,
                                 struct nb_error *err);
enum nb_status nb_gaj_prec_set_state(struct nb_gaj_prec *p, size_t n, const double *m,
                                     struct nb_error *err);
void nb_gaj_prec_predicted(struct nb_gaj_prec *p);
void nb_gaj_prec_forget(struct nb_gaj_prec *p);         /* p may be NULL */
/* Evaluates mode on the block; NB_ERR_ARGS when the j-set was not set
 * after set_precision, NB_ERR_UNSUPPORTED for G on a predicted j-set, H
 * with eps = 0 or a mass <= 0, or a missing extension; NB_ERR_NUMERIC for
 * non-finite pair terms (E, F) or inputs (H). */
enum nb_status nb_gaj_prec_run(struct nb_gaj_prec *p, enum nb_precision mode, double eps,
                               const struct nb_gaj_inputs *in, size_t n_active,
                               const uint32_t *active, struct nb_error *err);
/* The last result in active order, finished in double (read_gaj's form). */
enum nb_status nb_gaj_prec_read(struct nb_gaj_prec *p, double *acc, double *jerk,
                                double *pot, struct nb_error *err);
/* Mode H's raw sums (8 per active particle) and scales; see
 * nb_backend_compute_read_gaj_fixed. */
enum nb_status nb_gaj_prec_read_fixed(struct nb_gaj_prec *p, int64_t *fixed, int log2[3],
                                      struct nb_error *err);
/* Device seconds of the last run, pre-pass included (may wait). */
double nb_gaj_prec_seconds(struct nb_gaj_prec *p);
/* Forces the j-slices (clamped to the tiles; 0: automatic). */
void nb_gaj_prec_set_slices(struct nb_gaj_prec *p, int slices);
/* "gaj-prec<M>-t<tile>-s<slices>". */
void nb_gaj_prec_describe(const struct nb_gaj_prec *p, char *buf, size_t size);

/* The GA kernel with an accumulation mode B..H (force_precision.c); the
 * compute backend forwards to it when its precision is not A. */
struct nb_prec;
struct nb_prec *nb_prec_create(struct nb_gl *gl, struct nb_error *err);
void nb_prec_destroy(struct nb_prec *p);
enum nb_status nb_prec_set_particles(struct nb_prec *p, size_t n, const double *x,
                                     const double *m, struct nb_error *err);
/* Evaluates mode on the particles last set (n must match). */
enum nb_status nb_prec_run(struct nb_prec *p, enum nb_precision mode, size_t n,
                           double eps, struct nb_error *err);
enum nb_status nb_prec_read(struct nb_prec *p, double *acc, double *pot,
                            struct nb_error *err);
enum nb_status nb_prec_read_fixed(struct nb_prec *p, int64_t *fixed, int *acc_log2,
                                  int *pot_log2, struct nb_error *err);
double nb_prec_seconds(const struct nb_prec *p);
/* The i-particles [first, end) whose results the next runs must give (the
 * magnitude pre-pass of E and F still covers all); (0, SIZE_MAX): all. */
void nb_prec_set_i_range(struct nb_prec *p, size_t first, size_t end);

/* The explicit locations (below 64) of the active uniforms of program, a
 * program nb_gl_program built, as bits (0 for any other).  SPIR-V
 * programs drop the uniforms a variant never reads (the dielectric of the
 * LJ law, say), and setting an absent location is GL_INVALID_OPERATION,
 * so callers set only these.  Queried once per program, when it is
 * built: callers need keep no copy. */
uint64_t nb_gl_uniforms_of(const struct nb_gl *gl, GLuint program);
/* Makes program `name`, one built before (a failure is not reported),
 * current; its nb_gl_uniforms_of mask. */
uint64_t nb_gl_use_program(struct nb_gl *gl, const char *name);

/* ---- MD kernels (md_params.c) ---- */

/* An MD system as every MD kernel reads it: uniforms and the coefficient
 * table (2 vec4 per ordered type pair: (c12, c6, u_shift, 0), (cx, cy^cz,
 * cz, 0)), in float and, for precision G, in double.  Box lengths and
 * their inverses are 0 along open axes; no cutoff is FLT_MAX. */
struct nb_gl_md_params {
    int types;
    float box[3], inv_box[3], rc2, law[4], sigmoid[4];
    float coeff[8 * NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double dcoeff[8 * NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
};
void nb_gl_md_params(struct nb_gl_md_params *p, const struct nb_md_system *sys);
/* Sets on the program in use the MD uniforms it keeps (box, inverse box,
 * cutoff, law, sigmoid, types), given its nb_gl_uniforms_of mask. */
void nb_gl_md_set_uniforms(const struct nb_gl_md_params *p, uint64_t active);
/* The law's part of program names: "lj", "ljc_constant", ... */
const char *nb_gl_md_law_suffix(enum nb_md_law law);

/* Invocations per work group of the MD engine's O(N) passes (the
 * programs' NB_GROUP). */
#define NB_GL_MD_GROUP 256

/* Cell lists on the compute pipeline (md_cells.c, glsl/md_cells.comp),
 * built the same way for the MD engine and the precision kernels. */
struct nb_gl_md_cells {
    size_t n, total;            /* particles; cells */
    int cells[3], periodic[3];  /* per axis: cells (1 without cell lists), periodic */
    float lo[3], inv[3];        /* box corner; cells per unit length */
};
/* The grid of sys: floor(L / cutoff) cells per axis with sys->cell_list,
 * else one.  NB_ERR_LIMIT, prefixed with who, past the dispatch limit. */
enum nb_status nb_gl_md_cells_geometry(struct nb_gl_md_cells *g, const struct nb_md_system *sys,
                                       const char *who, struct nb_error *err);
/* Loads (or compiles) the five pass programs; a shader error shows here. */
enum nb_status nb_gl_md_cells_programs(struct nb_gl *gl, struct nb_error *err);
/* Hash, scan, place, sort, gather: from the float positions and types at
 * NB_BIND_MD_POS and NB_BIND_MD_TYPE into the buffers bound at
 * NB_BIND_MD_CELL_OF, _CELL_COUNT, _CELL_START, _SCAN, _PERM, _SPOS and
 * _STYPE; count and fill (the buffers at _CELL_COUNT and _SCAN, g->total
 * ints) are cleared first.  Ends with a storage barrier. */
void nb_gl_md_cells_build(struct nb_gl *gl, const struct nb_gl_md_cells *g, GLuint count,
                          GLuint fill);
/* Sets the grid's uniforms that the program in use keeps (cells per
 * axis, periodic axes), given its nb_gl_uniforms_of mask. */
void nb_gl_md_cells_set_uniforms(const struct nb_gl_md_cells *g, uint64_t active);

/* ---- gl_targets.c: textures and render targets of the stream pipelines ---- */

/* GL_MAX_TEXTURE_SIZE. */
int nb_gl_max_texture_size(void);
/* A width x height texture of format, one level, nearest filtering
 * (texelFetch needs a complete texture). */
GLuint nb_gl_new_texture(int width, int height, GLenum format);
/* Rows of an NB_STREAM_WIDTH-wide stream of n particles padded to a
 * multiple of pad (at least one row), or NB_ERR_LIMIT naming `what` where
 * they pass GL_MAX_TEXTURE_SIZE or n passes max_n (the kernel's indices). */
enum nb_status nb_gl_stream_rows(size_t n, size_t pad, size_t max_n, const char *what,
                                 int *rows, struct nb_error *err);
/* The framebuffer *fbo (made if 0) drawing into tex[0..count-1], color
 * attachments 0 on (re-attached on every call: cheap, and the textures may
 * have been re-made); NB_ERR_GL naming `what` on a GL error or an
 * incomplete framebuffer. */
enum nb_status nb_gl_attach_targets(GLuint *fbo, const GLuint *tex, int count,
                                    const char *what, struct nb_error *err);
/* count new textures of width x height and format into tex, attached. */
enum nb_status nb_gl_new_targets(GLuint *fbo, GLuint *tex, int count, int width, int height,
                                 GLenum format, const char *what, struct nb_error *err);

/* ---- precision.c: the host side every precision kernel shares ---- */

/* NB_ERR_UNSUPPORTED naming the missing extension where mode cannot run. */
enum nb_status nb_prec_supported(enum nb_precision mode, struct nb_error *err);
/* *k_out = the largest k (at most 100, so 2^k is a float) with bound 2^k
 * <= 2^bits, or NB_ERR_LIMIT naming `what` where even k = -100 leaves it
 * above; and component c (0..3) of one particle's eight result words
 * finished in double, divided by 2^k (B, G: a double; C..F: a float pair;
 * H: the int64 sum, not divided by any mass). */
enum nb_status nb_prec_scale(enum nb_precision mode, const char *what, double bound,
                             int bits, int *log2, struct nb_error *err);
double nb_prec_finish(enum nb_precision mode, const uint32_t *words, int c, int k);

/* The scale rule of E, F and H, one for both pipelines, so that one input
 * gets the same 2^k on each (and H the same int64 sums).  From the
 * magnitude kernel's sums (4 floats a particle: |a| or |F| components,
 * |phi| or |u|), twice their maximum at 2^NB_PREC_BITS_LARGE (E, F) or
 * 2^NB_PREC_BITS_FIXED (H): log2[0] forces, log2[1] potentials;
 * NB_ERR_NUMERIC naming the particle for a non-finite sum (hint is added
 * to "two particles at one place"), NB_ERR_LIMIT out of range. */
enum nb_status nb_prec_scales_measured(enum nb_precision mode, const float *sums,
                                       size_t n, const char *hint, int log2[2],
                                       struct nb_error *err);
/* The GA kernel's mode H: from the analytic bound m_max M 0.385 / eps^2
 * (m_max M / eps for phi); NB_ERR_UNSUPPORTED for eps <= 0 or a mass <= 0. */
enum nb_status nb_prec_scales_ga_fixed(size_t n, const double *m, double eps, int log2[2],
                                       struct nb_error *err);
/* The GA kernel's results from the raw words (8 a particle, as the
 * precision kernels of either pipeline write them), finished in double:
 * acc (3n), pot (n); m the masses (H divides by m_i). */
void nb_prec_ga_finish(enum nb_precision mode, const void *raw, size_t n, const double *m,
                       const int log2[2], double *acc, double *pot);
/* The MD kernel's: f (3n), pe (n, half the sum of u), and for H the raw
 * sums in fixed (4n, may be NULL). */
void nb_md_prec_finish(enum nb_precision mode, const void *raw, size_t n, const int log2[2],
                       double *f, double *pe, int64_t *fixed);
/* Whether the MD precision kernels take sys in mode (B..H): NB_ERR_ARGS,
 * NB_ERR_UNSUPPORTED (G of the ionic and sigmoidal laws, a missing
 * extension), NB_ERR_LIMIT.  Cell lists are the caller's: the compute
 * kernels have them, the fragment ones refuse them. */
enum nb_status nb_md_prec_check(const struct nb_md_system *sys, enum nb_precision mode,
                                struct nb_error *err);
/* The scales nb_md_prec_forces would take for sys at x in mode (E, F, H:
 * its magnitude pass and rule; 0 and 0 otherwise), without its kernel:
 * log2[0] forces, log2[1] energies.  Errors as nb_md_prec_forces'. */
enum nb_status nb_md_prec_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, enum nb_precision mode, int log2[2],
                                 struct nb_error *err);

/* The precision kernels on the fragment pipeline (fragment_precision.c):
 * ga_precision.frag, one i per fragment, the accumulator state in two
 * RGBA32UI targets carried through ping-pong passes; the fragment backend
 * forwards to it when its precision is not A.  The calls mirror nb_prec_*;
 * passes 0 is automatic (draws of at most NB_FRAG_PREC_DRAW pair terms),
 * else exactly that many (at most one per tile of NB_PREC_TILE j). */
struct nb_frag_prec;
struct nb_frag_prec *nb_frag_prec_create(struct nb_gl *gl, struct nb_error *err);
void nb_frag_prec_destroy(struct nb_frag_prec *p);
enum nb_status nb_frag_prec_set_particles(struct nb_frag_prec *p, size_t n, const double *x,
                                          const double *m, struct nb_error *err);
enum nb_status nb_frag_prec_run(struct nb_frag_prec *p, enum nb_precision mode, size_t n,
                                double eps, int passes, struct nb_error *err);
enum nb_status nb_frag_prec_read(struct nb_frag_prec *p, double *acc, double *pot,
                                 struct nb_error *err);
enum nb_status nb_frag_prec_read_fixed(struct nb_frag_prec *p, int64_t *fixed,
                                       int *acc_log2, int *pot_log2, struct nb_error *err);
double nb_frag_prec_seconds(const struct nb_frag_prec *p);
/* Passes of the last run (0 before any). */
int nb_frag_prec_passes(const struct nb_frag_prec *p);

/* ---- gl_level.c: what the context's API level offers ---- */

/* The context made current on this thread by nb_gl_make_current. */
extern _Thread_local struct nb_gl *nb_gl_current;
/* "OpenGL 3.3" or "OpenGL ES 3.1": the level glnbody uses (a buffer of
 * the calling thread, valid until its next call). */
const char *nb_gl_level_name(const struct nb_gl *gl);
/* 1 where gl is at least OpenGL gl_version or OpenGL ES es_version (10
 * major + minor; 0: never on that API). */
int nb_gl_at_least(const struct nb_gl *gl, int gl_version, int es_version);
/* NB_OK where nb_gl_at_least, else NB_ERR_UNSUPPORTED with one line:
 * "FEATURE needs OpenGL 4.3 or OpenGL ES 3.1; this context is OpenGL 3.3
 * (softpipe)". */
enum nb_status nb_gl_require(const struct nb_gl *gl, const char *feature, int gl_version,
                             int es_version, struct nb_error *err);
/* Compute shaders and storage buffers: OpenGL 4.3, OpenGL ES 3.1. */
int nb_gl_has_compute(const struct nb_gl *gl);
/* Float render targets for the stream path: core in desktop GL, in ES
 * 3.2, else EXT_color_buffer_float; NB_ERR_UNSUPPORTED naming it. */
enum nb_status nb_gl_require_float_targets(const struct nb_gl *gl, const char *who,
                                           struct nb_error *err);
/* The location of uniform NB_LOC_x in the program in use: x itself where
 * the shaders carry explicit locations, else the linker's, looked up by
 * name when the program was built (-1 where inactive: glUniform ignores
 * it).  Wrap every NB_LOC_ constant handed to glUniform* in it. */
GLint nb_gl_loc(GLint loc);
/* NB_OK where a work group of `invocations` using `shared_bytes` of
 * shared memory and `blocks` shader storage blocks fits the context, else
 * NB_ERR_LIMIT naming the limit, its value and the level ("t256i8: a work
 * group of 256 invocations, over this context's GL_MAX_COMPUTE_WORK_GROUP_
 * INVOCATIONS = 128 (OpenGL ES 3.1, ...)"). */
enum nb_status nb_gl_compute_fits(const struct nb_gl *gl, const char *what, int invocations,
                                  int shared_bytes, int blocks, struct nb_error *err);
/* A texture of one level (glTexStorage2D where the level has it, else
 * glTexImage2D with the format's own pixel type). */
void nb_gl_texture_storage(GLenum internal, int width, int height);

/* ---- shader_names.c: uniforms by name below the explicit-layout levels ---- */

/* A uniform a kernel declared as NB_LOCATION(SYM) or NB_BINDING(SYM)
 * uniform TYPE NAME: its name and SYM's value (a location, or the first
 * texture unit of a sampler or sampler array). */
#define NB_GL_MAX_NAMED 48
struct nb_gl_named {
    char name[40];
    int value;
    int sampler;
};
struct nb_gl_names {
    struct nb_gl_named u[NB_GL_MAX_NAMED];
    int count;
};
/* 1 where gl's shaders carry layout(location) and layout(binding) on
 * uniforms: OpenGL 4.3, OpenGL ES 3.1. */
int nb_gl_explicit_layouts(const struct nb_gl *gl);
/* Adds the declarations of a stage's source strings (the #define lines
 * of integers among them resolve SYM). */
void nb_gl_names_scan(struct nb_gl_names *names, const char *const *strings, int count);
/* After the link: binds each sampler (array element k to unit value + k)
 * with glUniform1i, and returns the location map (NB_GL_MAX_LOCATIONS
 * entries, -1 for none), or NULL with NB_ERR_NOMEM. */
GLint *nb_gl_names_apply(const struct nb_gl_names *names, GLuint program,
                         const char *program_name, struct nb_error *err);

/* glGetBufferSubData of the buffer bound at target; OpenGL ES has no such
 * call, and maps the range for reading instead. */
void nb_gl_get_buffer(GLenum target, size_t offset, size_t bytes, void *dst);

/* Deletes every cached program (the context must be current). */
void nb_gl_programs_release(struct nb_gl *gl);

#endif
