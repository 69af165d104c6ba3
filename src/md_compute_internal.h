/* md_compute_internal.h - what the files of the compute MD engine share
 * (not public): its device state, the phase clock and the buffer helpers.
 * md_compute.c is the engine (setup, device state, velocity Verlet, its
 * entries), md_compute_force.c one force evaluation (mode A or a precision
 * mode), md_clock.c the device seconds per phase. */
#ifndef NB_MD_COMPUTE_INTERNAL_H
#define NB_MD_COMPUTE_INTERNAL_H

#include "gl_internal.h"

/* Invocations per work group of the force kernels (the programs' NB_TILE). */
#define MD_TILE 128
/* GPU timestamps kept before their results are read. */
#define CLOCK_RING 512

enum {
    B_POS, B_TYPE, B_COEFF, B_FORCE, B_VIRIAL, B_X, B_V, B_CELL_OF, B_CELL_COUNT,
    B_CELL_START, B_CELL_FILL, B_PERM, B_SPOS, B_STYPE, B_RAW, B_FLAG, B_DCOEFF, B_COUNT
};
enum phase { PH_START = -1, PH_K1, PH_CELLS, PH_FORCE, PH_K2, PH_COUNT };

/* Device seconds per phase from GL timestamps between the passes (on
 * NVIDIA, results read in batches), or glFinish and the wall clock on the
 * software renderers, whose timestamps do not cover compute work. */
struct phase_clock {
    int use_query;
    GLuint query[CLOCK_RING];
    int label[CLOCK_RING];      /* phase that ended at this stamp */
    int used;
    double wall_prev;
    double sum[PH_COUNT];
};

struct md_compute {
    struct nb_gl *gl;
    GLuint buf[B_COUNT];
    size_t cap[B_COUNT];
    size_t n;
    int ntypes, cell_list;
    struct nb_gl_md_params params;
    struct nb_gl_md_cells grid; /* the cells (one without cell lists) */
    double lo_d[3], len_d[3];
    double *inv_mass, *charge;
    char force_name[40];
    int loaded;                 /* X and V on the device (load) */
    /* Accumulation mode (A: the force kernel's float sums). */
    enum nb_precision prec;
    int headroom;               /* log2 of the margin below the scale rule */
    int scaled;                 /* log2 measured (once, at load) */
    int given, given_log2[2];   /* set_scales: the scales load takes, unmeasured */
    int log2[2];                /* E, F, H: scales of forces, energies */
    uint32_t step;              /* evaluations' step (the flag names it) */
    uint64_t host_calls;        /* forces calls (host-integrated runs) */
    char prec_name[48], mag_name[48], finish_name[32];
    struct phase_clock clock;
    struct nb_md_timings t;
};

/* ---- buffers: grown to size, filled from and read back to the host ---- */

static inline enum nb_status md_buffer_grow(struct md_compute *c, int which, size_t bytes,
                                            const char *what, struct nb_error *err)
{
    return nb_gl_ensure_buffer(&c->buf[which], &c->cap[which], bytes ? bytes : 16, what, err);
}

static inline void md_buffer_upload(struct md_compute *c, int which, const void *data,
                                    size_t bytes)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[which]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
}

static inline enum nb_status md_buffer_download(struct md_compute *c, int which, void *data,
                                                size_t bytes, const char *what,
                                                struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[which]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
    return nb_gl_check(what, err);
}

/* ---- md_clock.c ---- */

/* GL timestamps where the renderer's cover compute work (NVIDIA), else
 * glFinish and the wall clock. */
void nb_md_clock_init(struct phase_clock *pc, struct nb_gl *gl);
void nb_md_clock_free(struct phase_clock *pc);
/* Marks the end of phase `label` (PH_START: the start of a sequence). */
void nb_md_clock_mark(struct phase_clock *pc, int label);
/* Adds the stamps taken so far into pc->sum. */
void nb_md_clock_drain(struct phase_clock *pc);

/* ---- md_compute_force.c ---- */

/* Mode B..H's program names and buffers for sys (mode A: nothing). */
enum nb_status nb_md_compute_prec_setup(struct md_compute *c, const struct nb_md_system *sys,
                                        struct nb_error *err);
/* Once after a load: the scales of E, F and H, and a clear range flag. */
enum nb_status nb_md_compute_measure_scales(struct md_compute *c, struct nb_error *err);
/* Cell lists (when used) and forces for the current float positions. */
void nb_md_compute_evaluate(struct md_compute *c);
/* Forces, energies and virials of the last evaluation (B..H: its range
 * flag checked first). */
enum nb_status nb_md_compute_read_results(struct md_compute *c, double *f, double *pe,
                                          double *vir, struct nb_error *err);
/* The engine's set_precision entry. */
enum nb_status nb_md_compute_set_precision(void *state, enum nb_precision mode,
                                           struct nb_error *err);

#endif
