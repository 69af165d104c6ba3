/* fragment_internal.h - what the files of the fragment-shader stream
 * backend share (not public): its state, the render-target sets its passes
 * draw into, and the shape of one kernel run.  force_fragment.c is the
 * backend (variants, GA evaluation, precision modes), fragment_passes.c
 * the streams and the passes that run a shape, fragment_hermite.c the
 * GAJ kernel and the device-resident Hermite state. */
#ifndef NB_FRAGMENT_INTERNAL_H
#define NB_FRAGMENT_INTERNAL_H

#include "gl_internal.h"

/* Draw length: automatic passes give a draw at most 2^28 interactions
 * (milliseconds on a large GPU) and halve that after an evaluation whose
 * draws took over 100 ms, so no draw nears a driver's watchdog.  Longer
 * draws did not pay: fewer passes ran slower. */
#define NB_FRAGMENT_DRAW_START (1.0 * (1 << 28))
#define NB_FRAGMENT_DRAW_MIN (1.0 * (1 << 20))
#define NB_FRAGMENT_DRAW_SECONDS 0.1
/* Fragments that keep a large GPU's fragment units busy; replication aims
 * here (a quarter of this left them partly idle). */
#define NB_FRAGMENT_FILL 65536
/* Replication stops where a copy would see fewer j-particles than this. */
#define NB_FRAGMENT_MIN_SLICE 256

/* The target sets: two for the passes' ping-pong, one for the replicas'
 * sum. */
enum { SET_PING, SET_PONG, SET_FINAL, SET_COUNT };

/* Render targets of one size behind one framebuffer. */
struct target_set {
    GLuint fbo;
    GLuint tex[NB_MRT_MAX];
    int width, height, count;
};

struct fragment {
    struct nb_gl *gl;
    int per_frag, unroll;           /* i per fragment, j unroll: 4x4 -> 4, 4 */
    int replicas, passes;           /* 0: automatic */
    int used_replicas, used_passes;
    double draw_budget;             /* interactions a draw, automatic passes */
    struct nb_gl_choice choice;     /* "auto" and what it chose for */
    GLuint pos_tex, vao;
    size_t n;
    int npad, rows;                 /* stream length padded to 4, its rows */
    struct target_set sets[SET_COUNT];
    int result_set;
    struct nb_gpu_timer timer;
    double seconds;
    float *staging;
    size_t staging_count;
    char variant[48];
    /* GAJ: the j-set's velocities, the gathered active block, and host
     * copies of the packed j-set that the gather reads. */
    GLuint vel_tex, ipos_tex, ivel_tex;
    int vel_rows, i_rows;           /* rows of those textures as allocated */
    size_t n_active;
    float *host_pos, *host_vel;
    size_t host_count;
    /* Hermite state on the device (--predict gpu): five state textures
     * (x_hi+m, x_lo, v+t0_hi, a+t0_lo, j), a corrected block in the same
     * layout, index textures, and framebuffers over state, j-set, i-set. */
    GLuint state_tex[NB_STATE_TARGETS_DS], block_tex[NB_STATE_TARGETS_DS];
    GLuint block_index_tex, active_index_tex;
    int state_rows, block_rows, block_index_rows, active_rows;
    GLuint state_fbo, jset_fbo, iset_fbo;
    int j_on_device;                /* the j-set was predicted on the GPU */
    /* Double-single positions and velocities (set_positions): the lo
     * parts of the j-set and of the i-set (RGBA32F streams, x and v), their
     * host copies, a sixth state texture (v's lo part), "_pds" programs. */
    int ds;
    GLuint jxlo_tex, jvlo_tex, ixlo_tex, ivlo_tex;
    int lo_rows, ilo_rows;
    float *host_xlo, *host_vlo;
    int last_gaj;                   /* the last evaluation was GAJ (for variant()) */
    size_t j_first, j_end;          /* the GAJ j-slice summed (set_j_range) */
    /* GA accumulation modes B..H (fragment_precision.c), created on first
     * use; the variant "prec1x1[-p<P>]" names that kernel. */
    enum nb_precision precision;
    struct nb_frag_prec *prec;
    int prec_variant;
};

/* The shape of one kernel run over the streams: what choose_split,
 * prepare and draw_passes need, the same for GA and GAJ. */
struct shape {
    const char *kernel;             /* program names */
    const char *reduce;
    int targets;                    /* render targets written per fragment */
    int width, rows;                /* fragments of one replica */
    int npad;                       /* j-stream length, a multiple of 4 */
    double interactions;            /* per evaluation */
    int extra_count;                /* textures the kernel reads beside pos */
    int extra_units[7];
    GLuint extra_textures[7];
    int j_lo, j_hi;                 /* GAJ: the j-range uniform (lo, end or npad);
                                       j_hi 0: none, the whole stream */
};


/* ---- fragment_passes.c: streams and the passes of one run ---- */

void nb_fragment_release_set(struct target_set *s);
/* The host staging area holds at least `texels` RGBA float texels. */
enum nb_status nb_fragment_ensure_staging(struct fragment *f, size_t texels,
                                          struct nb_error *err);
/* Uploads rows x NB_STREAM_WIDTH texels, re-creating the texture when its
 * height changes (immutable storage). */
void nb_fragment_upload_stream(GLuint *tex, int old_rows, int rows, const float *texels);
/* Rows of the GA and GAJ streams: padded to the 4 i-particles of a fragment. */
enum nb_status nb_fragment_stream_rows(size_t n, int *rows, struct nb_error *err);
/* Texels t >= from of a packed stream become padding: far away, no mass
 * (w = pad_w: the mass, or -1 as the index of an i-stream). */
void nb_fragment_pad_stream(float *texels, size_t from, size_t to, float pad_w);
/* Packs the positions and masses into `texels` (rows whole rows, padded)
 * and uploads them as the j-stream. */
enum nb_status nb_fragment_upload_positions(struct fragment *f, size_t n, const double *x,
                                            const double *m, int rows, float *texels,
                                            struct nb_error *err);
/* One evaluation of a shape, timed: passes, then the replicas' reduction. */
enum nb_status nb_fragment_run_shape(struct fragment *f, const struct shape *sh, float eps2,
                                     struct nb_error *err);

/* ---- fragment_hermite.c: the backend's GAJ entries (struct nb_force_backend) ---- */

enum nb_status nb_fragment_set_j(void *state, size_t n, const double *x, const double *v,
                                 const double *m, struct nb_error *err);
void nb_fragment_set_j_range(void *state, size_t first, size_t end);
enum nb_status nb_fragment_gaj(void *state, double eps, size_t na, const uint32_t *active,
                               struct nb_error *err);
enum nb_status nb_fragment_read_gaj(void *state, double *acc, double *jerk, double *pot,
                                    struct nb_error *err);
enum nb_status nb_fragment_load_state(void *state, size_t n, const double *x,
                                      const double *v, const double *a, const double *jerk,
                                      const double *t0, const double *m,
                                      struct nb_error *err);
enum nb_status nb_fragment_update_state(void *state, size_t nb, const uint32_t *idx,
                                        const double *x, const double *v, const double *a,
                                        const double *jerk, const double *t0,
                                        struct nb_error *err);
enum nb_status nb_fragment_predict_j(void *state, double t, struct nb_error *err);
enum nb_status nb_fragment_set_positions(void *state, enum nb_positions format,
                                         struct nb_error *err);

#endif
