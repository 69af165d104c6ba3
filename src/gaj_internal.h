/* gaj_internal.h - the compute GAJ pipeline's state (gaj_compute.c), which
 * gaj_planned.c's force pass, planned on the device, also fills. */
#ifndef NB_GAJ_INTERNAL_H
#define NB_GAJ_INTERNAL_H

#include "gl_internal.h"

/* Work groups that fill a large GPU; j-slices aim at this many (unless
 * GLNBODY_GAJ_FILL_GROUPS says otherwise). */
#define NB_GAJ_FILL_GROUPS 4096
/* i-particles an invocation (gaj.comp's NB_IPT): a tile's shared loads
 * each feed this many interactions. */
#define NB_GAJ_IPT 2
/* Packing or unpacking more block particles than this is shared among
 * the host's threads (below it, waking them costs more than the work). */
#define NB_GAJ_PARALLEL_MIN 2048
/* A block in pieces (nb_gaj_compute_run): at most NB_GAJ_PIECES_MAX, and
 * with GLNBODY_BLOCK_PIECES=auto one per NB_GAJ_PIECE_MIN particles; each
 * but the last a multiple of NB_GAJ_PIECE_ALIGN (256 bytes of indices:
 * the largest SSBO offset alignment GL allows).  Whole blocks unless asked:
 * each piece past the first costs GPU time (its own dispatches and
 * barriers), more than the host's corrector work that it hides. */
#define NB_GAJ_PIECES_MAX 8
#define NB_GAJ_PIECE_MIN 1024
#define NB_GAJ_PIECE_ALIGN 64

enum {
    B_POS, B_VEL, B_ACTIVE, B_OUT, B_OUT2, B_PART, B_PART2,
    B_SX, B_ST0, B_SV, B_SA, B_SJ, B_BX, B_BT0, B_BVAJ, B_JLO, B_SVLO, B_COUNT
};

struct buffer { GLuint id; size_t capacity; };

struct nb_gaj_compute {
    struct nb_gl *gl;
    struct buffer buf[B_COUNT];
    size_t n, n_active;
    size_t j_first, j_end;          /* the j-slice summed (set_j_range) */
    int tile, slices;               /* of the last evaluation */
    int pieces;                     /* of the last evaluation, >= 1 */
    size_t piece_at[NB_GAJ_PIECES_MAX + 1];   /* piece k: slots [at[k], at[k+1]) */
    GLsync piece_fence[NB_GAJ_PIECES_MAX];    /* its results in `down` */
    int in_down;                    /* the last piece's reduction wrote its
                                       results there (the inspector's panels) */
    int keep_results;               /* the results stay on the GPU (for the
                                       device corrector): none go to `down` */
    /* Transfers, one area per purpose so that none waits for another's
     * copy: the j-set (set_j), the block's indices (run), the corrected
     * block (update_state), the results (read). */
    struct nb_gl_staging up_j, up_index, up_block, down;
    struct nb_gpu_timer timer;
    int fill;                       /* work groups a pass aims at (NB_GAJ_FILL_GROUPS) */
    double eps;                     /* of the last run */
    int planned;                    /* a planned pass (gaj_correct.c) is queued */
    int ds;                         /* double-single positions and velocities:
                                       the lo parts in B_JLO (j-set) and B_SVLO
                                       (state velocities), the "_pds" programs */
};

/* Program `base` as the position format wants it ("_pds" appended for
 * double-single) into name. */
static inline void nb_gaj_program_name(const struct nb_gaj_compute *g, const char *base,
                                       char *name, size_t size)
{
    snprintf(name, size, "%s%s", base, g->ds ? "_pds" : "");
}

/* The buffers' storage grown to `bytes` (contents lost). */
static inline enum nb_status nb_gaj_grow(struct nb_gaj_compute *g, int which, size_t bytes,
                                         const char *what, struct nb_error *err)
{
    return nb_gl_ensure_buffer(&g->buf[which].id, &g->buf[which].capacity,
                               bytes ? bytes : 16, what, err);
}

/* Bytes of j-slice sums that any one-piece pass on the whole j-set may
 * need (a block of s particles in slices of fill: s * slices <= tile
 * (fill + 1) + n): the planned pass's room, and the least a pass with
 * slices grows to, so that the first planned pass finds it made. */
static inline size_t nb_gaj_slices_bound(const struct nb_gaj_compute *g)
{
    return 16 * ((size_t)g->tile * ((size_t)g->fill + 1) + g->n);
}

/* The j-slice clipped to the j-set. */
static inline void nb_gaj_j_range(const struct nb_gaj_compute *g, size_t *first, size_t *end)
{
    *end = g->j_end < g->n ? g->j_end : g->n;
    *first = g->j_first < *end ? g->j_first : *end;
}

/* The pieces' fences deleted. */
void nb_gaj_forget_pieces(struct nb_gaj_compute *g);

#endif
