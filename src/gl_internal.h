/* gl_internal.h - state shared by the files of the GL layer (not public). */
#ifndef NB_GL_INTERNAL_H
#define NB_GL_INTERNAL_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include "nb_config.h"
#include "nb_gl.h"

/* A program built once and kept for the life of the context. */
struct nb_gl_cached_program {
    const char *name;       /* the catalogue's string */
    GLuint program;
};

struct nb_gl {
    EGLDisplay display;
    EGLContext context;
    char renderer[512];
    int nvidia;
    int use_spirv;          /* shaders come from spirv/ */
    char *shader_dir;
    struct nb_gl_cached_program *programs;
    size_t program_count;
};

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

/* A host<->GPU transfer area (staging.c): a persistently mapped buffer
 * with GL 4.4 buffer storage, a malloc'd block with plain copies before.
 * Upload: p = write(bytes); fill p; send(dst, offset in p, bytes) for each
 * piece; sent().  The next write waits until the GPU has copied.
 * Download: reserve(bytes); fetch(src, offset in the area, bytes) for each
 * piece; arrived() waits and returns the area. */
struct nb_gl_staging {
    GLuint buffer;          /* 0: the fallback, map is malloc'd */
    void *map;
    size_t capacity;
    GLsync fence;
    int download;
};
void nb_gl_staging_init(struct nb_gl_staging *s, int download);
void *nb_gl_staging_write(struct nb_gl_staging *s, size_t bytes, struct nb_error *err);
enum nb_status nb_gl_staging_send(struct nb_gl_staging *s, GLuint dst, size_t offset,
                                  size_t bytes, const char *what, struct nb_error *err);
void nb_gl_staging_sent(struct nb_gl_staging *s);
enum nb_status nb_gl_staging_reserve(struct nb_gl_staging *s, size_t bytes,
                                     struct nb_error *err);
enum nb_status nb_gl_staging_fetch(struct nb_gl_staging *s, GLuint src, size_t offset,
                                   size_t bytes, const char *what, struct nb_error *err);
const void *nb_gl_staging_arrived(struct nb_gl_staging *s, struct nb_error *err);
void nb_gl_staging_free(struct nb_gl_staging *s);

static inline int nb_gl_ceil_div(int a, int b) { return (a + b - 1) / b; }

/* Converts n particles to (x, y, z, m) float quadruples. */
void nb_gl_pack_particles(float *dst, size_t n, const double *x, const double *m);

/* The GAJ kernel and device-resident Hermite state of the compute pipeline
 * (gaj_compute.c); the compute backend forwards its GAJ entries here. */
struct nb_gaj_compute;
struct nb_gaj_compute *nb_gaj_compute_create(struct nb_gl *gl, struct nb_error *err);
void nb_gaj_compute_destroy(struct nb_gaj_compute *g);
enum nb_status nb_gaj_compute_set_j(struct nb_gaj_compute *g, size_t n,
                                    const double *x, const double *v,
                                    const double *m, struct nb_error *err);
enum nb_status nb_gaj_compute_run(struct nb_gaj_compute *g, int tile, double eps,
                                  size_t n_active, const uint32_t *active,
                                  struct nb_error *err);
enum nb_status nb_gaj_compute_read(struct nb_gaj_compute *g, double *acc,
                                   double *jerk, double *pot, struct nb_error *err);
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
enum nb_status nb_gaj_compute_predict(struct nb_gaj_compute *g, double t,
                                      struct nb_error *err);
/* The last GAJ evaluation as a variant name: "gaj-t<T>-s<S>". */
void nb_gaj_compute_describe(const struct nb_gaj_compute *g, char *buf, size_t size);
/* Device seconds of the last GAJ evaluation. */
double nb_gaj_compute_seconds(struct nb_gaj_compute *g);   /* may wait */

/* The GA kernel with an accumulation mode B..H (force_precision.c); the
 * compute backend forwards to it when its precision is not A. */
struct nb_prec;
/* NB_ERR_UNSUPPORTED naming the missing extension where mode cannot run. */
enum nb_status nb_prec_supported(enum nb_precision mode, struct nb_error *err);
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

/* The explicit locations (below 64) of program's active uniforms, as bits.
 * SPIR-V programs drop the uniforms a variant never reads (the dielectric
 * of the LJ law, say), and setting an absent location is
 * GL_INVALID_OPERATION, so callers set only these. */
uint64_t nb_gl_active_uniforms(GLuint program);

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
 * cutoff, law, sigmoid, types), given its nb_gl_active_uniforms mask
 * (queried once per program: it is a round of GL queries). */
void nb_gl_md_set_uniforms(const struct nb_gl_md_params *p, uint64_t active);
/* The law's part of program names: "lj", "ljc_constant", ... */
const char *nb_gl_md_law_suffix(enum nb_md_law law);

/* A width x height texture of format, one level, nearest filtering
 * (texelFetch needs a complete texture). */
GLuint nb_gl_new_texture(int width, int height, GLenum format);

/* Precision helpers shared by the GA and MD precision kernels
 * (force_precision.c): the k of the scale 2^k that puts bound at most
 * 2^bits, and component c (0..3) of one particle's (hi, lo) result words
 * of mode C..F finished in double, divided by 2^k. */
int nb_prec_scale_log2(double bound, int bits);
double nb_prec_finish_words(enum nb_precision mode, const uint32_t *words, int c, int k);

/* Deletes every cached program (the context must be current). */
void nb_gl_programs_release(struct nb_gl *gl);

#endif
