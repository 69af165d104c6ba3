/* g6_internal.h - what g6_block.c (the j-memory) and g6_launch.c (the
 * block steps) share. */
#ifndef NB_G6_INTERNAL_H
#define NB_G6_INTERNAL_H

#include "api_internal.h"
#include "nb_precision.h"

/* The most addresses: 2^26 x 128 bytes of coefficients = 8 GiB. */
#define JMEM_MAX ((size_t)1 << 26)
/* i-particles per block: the block size that fills a large GPU (the
 * forces of 16384 i-particles on 64k j-particles outlast a block's fixed
 * costs many times over), and the most a start takes. */
#define BLOCK_MAX 16384
/* Work groups that fill a large GPU; mode A's j-slices aim at this many
 * (more were no faster). */
#define FILL_GROUPS 1024
/* The largest block that adds its slices itself (mode A): one work group
 * holds all its i-particles. */
#define FUSED_MAX 64
/* Slices of such a block: at least FUSED_SLICES, and more where a slice
 * would pass FUSED_SLICE_TILES tiles (up to NB_G6_FUSED_BATCH^2): a small
 * block has few i-particles, so only many short j-slices fill the GPU, and
 * slices of fewer tiles keep the added partial sums from outweighing them. */
#define FUSED_SLICES 512
#define FUSED_SLICE_TILES 4
/* Doubles per queued update: four dvec4 (g6_scatter.comp). */
#define UPDATE_DOUBLES 16

enum { J_X, J_V, J_A, J_J, J_P, B_I, B_OUT, B_PART, B_FUSED, B_UPDATE, B_COUNT, B_LIST,
       BUFFERS };

struct nb_g6_block {
    GLuint buf[BUFFERS];
    size_t size[BUFFERS];
    size_t capacity;            /* addresses */
    /* The queue: UPDATE_DOUBLES per update, in the order of the puts; a
     * put touches no per-address memory but one bit of `queued_bits`
     * (capacity bits, 32 KB at 262,144): the first put of an address in
     * a batch sets it, a second marks the batch as holding duplicates.
     * Settling the queue (at its flush or carry) clears the bits and makes
     * every update but an address's last dead (address -1), so that a
     * later put wins.  Emptying the queue starts a new batch.  Up to
     * NB_G6_INLINE_MAX updates wait in `first` (host memory, for a small
     * block to carry sorted); past that the batch writes straight into its
     * transfer area, area[batch & 1] (in_area, at area_map): the host fills
     * one while the GPU may still read the other's scatter.  At random
     * addresses a per-address record cost a put a cache miss. */
    double first[UPDATE_DOUBLES * NB_G6_INLINE_MAX];
    double *area_map;
    size_t area_slots;          /* updates the area holds */
    int in_area;
    size_t queued;
    uint32_t batch;
    int duplicates;             /* an address was put twice in this batch */
    uint64_t *queued_bits;
    uint32_t *slot_address;     /* each slot's address (area_slots of them) */
    /* The total mass and the largest squared speed, for E, F, H; the
     * masses by address are kept (mass_known) only while f's mode is one
     * of those: in the others a put reads nothing, and the masses are read
     * back from the device once a block needs them again. */
    double mass_sum, v2_max;
    double *mass;
    int mass_known;
    /* Persistently mapped where GL 4.4 buffer storage is there: the
     * shaders then read the i-particles and the updates from, and write
     * the results into, these very buffers (no copy, no extra pass). */
    struct nb_gl_staging up_i, area[2], down;
    GLuint i_buffer;            /* the i-particles' buffer: up_i's or B_I */
    struct nb_gpu_timer timer;
    /* The block in flight or finished: its start on the host's clock, and
     * the interactions a second from start to results of the last large
     * block (wake_rate, in mode wake_mode), when its threads are woken. */
    int started, finished, has_h2;
    double started_at, wake_rate;
    enum nb_precision wake_mode;
    size_t carried;             /* j-updates riding in the i-area */
    size_t ni, nj;
    unsigned flags;
    enum nb_precision mode;
    enum nb_positions positions;    /* the block's (f's at its start) */
    int log2[3];                /* E, F, H: scales of (a), (phi), (jerk) */
    /* Mode H: each i-particle's own scales (own_log2, three each, as
     * log2), from the magnitudes of its last values that
     * nb_forces_block_hint left in `hint` (three each) for a block of
     * hint_ni (both made for BLOCK_MAX at first use); `own` while the block
     * uses them.  The block's ti and eps2,
     * and the scatters since the j-memory began (`scatters`, at the start:
     * `scatters_at`), for a block that must run again. */
    double *hint;
    int *own_log2;
    size_t hint_ni;
    int hinted, own;
    double ti, eps2;
    unsigned long scatters, scatters_at;
    uint64_t warmed;            /* bit 2 (3 mode + positions) + nearest: warmed */
};

/* Sets a uniform only where the program kept it (SPIR-V drops unused ones). */
#define HAS(mask, loc) ((mask) >> (loc) & 1u)

enum nb_status nb_g6_need_compute(const struct nb_forces *f, const char *func,
                                  struct nb_error *err);
/* f's j-memory for a call on its last block (finish, neighbours): NULL
 * with err set where f is NULL or not the compute engine, and NULL with
 * err untouched where f has none yet (no block was started). */
struct nb_g6_block *nb_g6_block_called(struct nb_forces *f, const char *func,
                                       struct nb_error *err);
/* f's j-memory, made empty on first use; NULL (err set) without memory. */
struct nb_g6_block *nb_g6_block_of(struct nb_forces *f, struct nb_error *err);
/* The queued updates onto the device (a scatter pass), then an empty
 * queue; with `fence`, the area is fenced (no block's results will be). */
enum nb_status nb_g6_flush_queue(struct nb_forces *f, struct nb_g6_block *g, int fence,
                                 struct nb_error *err);
/* The position format of g's block: mode G's pair terms are double
 * whatever was asked (NB_POSITIONS_DS stands for that). */
static inline enum nb_positions nb_g6_positions(const struct nb_g6_block *g)
{
    return g->mode == NB_PRECISION_G ? NB_POSITIONS_DS : g->positions;
}
/* Whether g's block forms x_j - x_i from positions rounded to float
 * (the programs named "_pf"). */
static inline int nb_g6_float_positions(const struct nb_g6_block *g)
{
    return nb_g6_positions(g) == NB_POSITIONS_FLOAT;
}
/* Whether the queued updates can ride with a small block (in `first`). */
static inline int nb_g6_queue_carriable(const struct nb_g6_block *g)
{
    return !g->in_area;
}
/* Whether mode m needs the total mass (its fixed-point bounds). */
static inline int nb_g6_needs_mass(enum nb_precision m)
{
    return m == NB_PRECISION_E || m == NB_PRECISION_F || m == NB_PRECISION_H;
}
/* The total mass of the j-memory for a block in mode E, F or H, read back
 * from the device where puts in another mode left it unknown. */
enum nb_status nb_g6_know_mass(struct nb_forces *f, struct nb_g6_block *g,
                               struct nb_error *err);
/* E, F, H: g's scales 2^k (g->log2) from bounds on every partial sum. */
enum nb_status nb_g6_choose_scales(struct nb_g6_block *g, double eps2, double vi_max,
                                   struct nb_error *err);
/* g's block in mode H takes each i-particle's own scales (g->own set,
 * own_log2 filled: from the hint given for ni i-particles, else none);
 * NB_ERR_NOMEM without memory for them. */
enum nb_status nb_g6_take_hint(struct nb_g6_block *g, struct nb_error *err);
/* The own scales of g's i-particles into dst, a vec4 (2^k of a, phi,
 * jerk, 0) each, 0 where none (the bound's then). */
void nb_g6_own_scales(const struct nb_g6_block *g, float *dst);
/* The scale (log2) of i-particle k's quantity q (0 a, 1 phi, 2 jerk). */
int nb_g6_log2_of(const struct nb_g6_block *g, size_t k, int q);
/* From the results raw of g's block: the particles whose sums left their
 * own range take the bound's scale; those whose results the scale does not
 * resolve take a finer one, from those results.  The count of particles
 * that changed (0: the results are final). */
size_t nb_g6_refine(struct nb_g6_block *g, const void *raw);

/* The queued updates (at most NB_G6_INLINE_MAX) into dst, ascending by
 * address, for the block to carry; g->carried their count; an empty queue. */
void nb_g6_carry_queue(struct nb_g6_block *g, double *dst);

#endif
