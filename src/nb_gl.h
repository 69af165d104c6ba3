/* nb_gl.h - public header of the OpenGL layer of glnbody.
 *
 * A headless OpenGL 3.3+ or OpenGL ES 3.0+ context (EGL), shader programs
 * loaded from SPIR-V or GLSL files, and the two force pipelines (fragment
 * streams, compute shaders) offered to the host as struct nb_force_backend.
 */
#ifndef NB_GL_H
#define NB_GL_H

#include "nb_host.h"

/* The context itself (struct nb_gl, nb_gl_create, nb_gl_destroy,
 * nb_gl_renderer, nb_gl_device_count) is declared in glnbody.h. */

/* Makes the context current on the calling thread. */
enum nb_status nb_gl_make_current(struct nb_gl *gl, struct nb_error *err);

/* 1 when the renderer is NVIDIA's (GL timer queries measure compute). */
int nb_gl_is_nvidia(const struct nb_gl *gl);
int nb_gl_is_software(const struct nb_gl *gl);

/* ---- programs ---------------------------------------------------------- */

/* Shader stages of a program description. */
enum nb_stage { NB_STAGE_VERTEX, NB_STAGE_FRAGMENT, NB_STAGE_COMPUTE };

/* A program of the catalogue: named, one or two stages, each stage a list
 * of source files under glsl/ preceded by #version, the program's defines
 * and nb_config.h (in that order; the same for the GLSL and SPIR-V paths). */
#define NB_PROGRAM_FILES 6          /* files of a program's main stage, at most */
struct nb_program_desc {
    const char *name;               /* e.g. "ga_frag_4x4", "ga_comp_t256_i4" */
    const char *defines;            /* "#define ...\n" lines */
    const char *vertex[3];          /* glsl files of the vertex stage or {0} */
    const char *main[NB_PROGRAM_FILES];     /* glsl files of the fragment or compute stage */
    enum nb_stage main_stage;
};

/* The catalogue, NULL-name terminated. */
const struct nb_program_desc *nb_gl_programs(void);
/* The catalogue entry called name, or NULL. */
const struct nb_program_desc *nb_gl_program_find(const char *name);

/* Writes one stage of a program, assembled exactly as the GLSL loader does,
 * to out (the build feeds these to glslangValidator). */
enum nb_status nb_gl_program_emit(const struct nb_program_desc *desc,
                                  enum nb_stage stage, const char *shader_dir,
                                  FILE *out, struct nb_error *err);
/* File name extension of a stage: "vert", "frag", "comp". */
const char *nb_gl_stage_extension(enum nb_stage stage);

/* The linked GL program object for a catalogue name, built on first use and
 * cached in gl.  Errors name the program and the failing file with the
 * driver's log: NB_ERR_GL (compile/link), NB_ERR_IO (missing file). */
enum nb_status nb_gl_program(struct nb_gl *gl, const char *name,
                             unsigned *program, struct nb_error *err);
/* nb_gl_program of a compute program, then a dispatch of it over no work
 * groups: NVIDIA's driver (580) finishes a program at its first dispatch,
 * which then takes milliseconds, and an empty one does that ahead of
 * time.  A failure is not reported (the program's first real use
 * reports it); the current program changes. */
void nb_gl_compute_warm(struct nb_gl *gl, const char *name);

/* Checks glGetError after an allocation or a pass; maps GL_OUT_OF_MEMORY to
 * NB_ERR_NOMEM and other errors to NB_ERR_GL, naming what was done. */
enum nb_status nb_gl_check(const char *what, struct nb_error *err);

/* ---- timing ------------------------------------------------------------ */

/* Times GPU work: GL_TIME_ELAPSED queries on hardware (NVIDIA's agree with
 * the wall clock within 1%), glFinish and the monotonic clock on Mesa's
 * software renderers, whose queries read 0 or 1 ns for compute work. */
struct nb_gpu_timer {
    unsigned query;
    int use_query;
    double t0;          /* wall clock at start */
    double seconds;     /* the last result */
    int pending;        /* a query ended whose result was not fetched */
};
void nb_gpu_timer_init(struct nb_gpu_timer *t, const struct nb_gl *gl);
void nb_gpu_timer_start(struct nb_gpu_timer *t);
/* Ends the stretch without waiting for it (on a software renderer, waits). */
void nb_gpu_timer_end(struct nb_gpu_timer *t);
/* The seconds of the last ended stretch; waits for its work if needed. */
double nb_gpu_timer_result(struct nb_gpu_timer *t);
/* end, then result. */
double nb_gpu_timer_stop(struct nb_gpu_timer *t);
void nb_gpu_timer_free(struct nb_gpu_timer *t);

/* ---- force pipelines as backends --------------------------------------- */

/* The compute-shader pipeline; variants "t<T>i<I>[-s<S>]": tile width T,
 * I i-particles per invocation, S j-slices (default: enough work groups to
 * fill the device).  "auto" times the candidates on the first particle set. */
enum nb_status nb_backend_compute_create(struct nb_force_backend *b,
                                         struct nb_gl *gl,
                                         struct nb_error *err);

/* The fragment-shader stream pipeline; variants "1x1", "1x4", "4x4" with
 * optional "-r<R>" (i-replication) and "-p<P>" (j-passes through ping-pong
 * framebuffers); by default R fills the device and P keeps each draw short.
 * Its set_precision takes A..H for the GA kernel: B..H run
 * ga_precision.frag (one i per fragment, the accumulator state in two
 * RGBA32UI targets through ping-pong passes), variant "prec1x1-p<P>"; the
 * -p<P> of the variant set (any name, or "prec1x1-p<P>") fixes their
 * passes, else they are automatic. */
enum nb_status nb_backend_fragment_create(struct nb_force_backend *b,
                                          struct nb_gl *gl,
                                          struct nb_error *err);

/* ---- accumulation modes (seed 004 Table 1; src/precision.c) ---- */

/* Test hook: the raw int64 sums of the last mode-H evaluation of a compute
 * backend: fixed (4n: F_x, F_y, F_z, m_i phi_i per particle, each in units
 * of 2^-acc_log2 or 2^-pot_log2).  NB_ERR_ARGS when the last evaluation was
 * not mode H on the compute backend. */
enum nb_status nb_backend_compute_read_fixed(const struct nb_force_backend *b,
                                             int64_t *fixed, int *acc_log2,
                                             int *pot_log2, struct nb_error *err);
/* The same of a fragment backend (ga_precision.frag): the same layout and
 * scales, and for the same input the same bits as the compute backend's.
 * NB_ERR_ARGS when the last evaluation was not mode H on a fragment
 * backend. */
enum nb_status nb_backend_fragment_read_fixed(const struct nb_force_backend *b,
                                              int64_t *fixed, int *acc_log2,
                                              int *pot_log2, struct nb_error *err);
/* Test hook: the raw int64 sums of the last GAJ evaluation of a compute
 * backend in precision H: fixed (8 per active particle, in active order:
 * m_i a_x, m_i a_y, m_i a_z, m_i phi_i, m_i j_x, m_i j_y, m_i j_z, 0), in
 * units of 2^-log2[0] (acceleration), 2^-log2[1] (potential), 2^-log2[2]
 * (jerk).  NB_ERR_ARGS when that evaluation was not precision H. */
enum nb_status nb_backend_compute_read_gaj_fixed(const struct nb_force_backend *b,
                                                 int64_t *fixed, int log2[3],
                                                 struct nb_error *err);
/* Test hook: the j-slices of the GAJ precision kernel (0: automatic, as
 * gaj_compute.c chooses; clamped to the j-tiles of NB_PREC_TILE).
 * NB_ERR_ARGS unless b is a compute backend. */
enum nb_status nb_backend_compute_set_gaj_slices(struct nb_force_backend *b, int slices,
                                                 struct nb_error *err);

/* ---- molecular dynamics engines ---------------------------------------- */

/* The compute pipeline's MD engine: all-pairs tiles or cell lists (hash,
 * counting sort, reorder, 27-cell traversal), velocity Verlet K1/K2 on the
 * device with x and v in double, forces in float. */
enum nb_status nb_md_engine_compute_create(struct nb_md_engine *e, struct nb_gl *gl,
                                           struct nb_error *err);
/* Its set_precision, the accumulation mode of the forces (`glnbody md
 * --precision`; before setup; A, the default: md_pairs / md_cellforce's
 * float sums): B..H run md_precision.c's kernels (all pairs or cells, as
 * the system) and a finish pass on the device, nothing read back per
 * step; the scales of E, F, H are measured once at load with a headroom
 * (2^-8 for H, 2^-4 for E, F) and a sum past half its range fails the run
 * at the next read of the state (NB_ERR_NUMERIC naming the step).  The
 * virials are mode A's.  NB_ERR_UNSUPPORTED where the mode's extension is
 * missing; setup refuses G for the ionic and sigmoidal laws.
 * Test hook: the scales' headroom as a power of two (after set_precision;
 * e.g. +12 puts the sums past their range at once). */
enum nb_status nb_md_engine_compute_set_prec_headroom(struct nb_md_engine *e, int log2,
                                                      struct nb_error *err);
/* The fragment pipeline's MD engine: all-pairs forces as a stream kernel
 * (the host integrates); cell lists refused with NB_ERR_UNSUPPORTED. */
enum nb_status nb_md_engine_fragment_create(struct nb_md_engine *e, struct nb_gl *gl,
                                            struct nb_error *err);

/* The MD forces of sys at x (3n) with accumulation mode B..H on the
 * compute pipeline, over all pairs (glsl/md_precision.comp) or, when
 * sys->cell_list, through cell lists built as the compute MD engine builds
 * them (glsl/md_cell_precision.comp; the build is not timed); A is the
 * compute MD engine's own kernel, nb_md_prec_forces_fragment below the
 * fragment pipeline's: f (3n), pe (n, half of each pair energy), and the
 * device seconds of the mode's kernel (seconds[0]) and of the magnitude
 * pre-pass that sets the scales of E, F and H (seconds[1], else 0; an MD
 * run could measure it once and keep the scale for many steps).
 * Mode H can also return its raw int64 sums (fixed: 4n, F_x, F_y, F_z and
 * sum u per particle; may be NULL) and their scales fixed_log2[2] (units
 * 2^-k of the forces and energies).  Both kernels take the scales from the
 * same magnitude sums (the cell kernel's adds in the all-pairs order), so
 * with cell lists H returns the all-pairs kernel's sums bit for bit.
 * NB_ERR_ARGS for a system nb_md_system_check refuses (cell lists need a
 * cutoff and 3 cells along periodic axes), NB_ERR_LIMIT past the dispatch
 * limits, NB_ERR_UNSUPPORTED for G with the ionic and sigmoidal laws (GLSL
 * has no double exp or pow) and where an extension is missing. */
enum nb_status nb_md_prec_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, enum nb_precision mode, double *f,
                                 double *pe, double seconds[2], int64_t *fixed,
                                 int *fixed_log2, struct nb_error *err);
/* The same on the fragment pipeline (glsl/md_precision.frag; A is the
 * fragment MD engine's own kernel): one i per fragment, the accumulator
 * state in two RGBA32UI targets through `passes` ping-pong passes over the
 * j-tiles (0: automatic; at most one per tile of NB_PREC_TILE).  Same
 * arguments, results, scales and refusals as nb_md_prec_forces, and for
 * the same input mode H's int64 sums are the compute pipeline's, bit for
 * bit, whatever the passes. */
enum nb_status nb_md_prec_forces_fragment(struct nb_gl *gl, const struct nb_md_system *sys,
                                          const double *x, enum nb_precision mode,
                                          int passes, double *f, double *pe,
                                          double seconds[2], int64_t *fixed,
                                          int *fixed_log2, struct nb_error *err);

/* ---- engines by name (backends.c) -------------------------------------- */

/* Creates a backend or an MD engine; gl may be NULL for NB_ENGINE_CPU, and
 * is made current for the others (NB_ERR_ARGS without one). */
enum nb_status nb_backend_create_engine(struct nb_force_backend *b, enum nb_engine engine,
                                        struct nb_gl *gl, struct nb_error *err);
enum nb_status nb_md_engine_create_engine(struct nb_md_engine *e, enum nb_engine engine,
                                          struct nb_gl *gl, struct nb_error *err);
/* The same by name: nb_engine_parse, then the above. */
enum nb_status nb_backend_create(struct nb_force_backend *b, const char *name,
                                 struct nb_gl *gl, struct nb_error *err);
enum nb_status nb_md_engine_create(struct nb_md_engine *e, const char *name,
                                   struct nb_gl *gl, struct nb_error *err);

#endif
