/* gaj_compute.c - the GAJ kernel and the device-resident Hermite state of
 * the compute pipeline (glsl/gaj.comp, predict.comp, scatter.comp).
 *
 * Two ways to feed it, as seed 001 has them and as its section 6 wished:
 *  - the host predicts every particle and uploads the j-set (set_j);
 *  - the state (x, v, a, jerk, t0) stays on the GPU: the host uploads only
 *    the corrected block (update_state), predict.comp makes the j-set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gaj_internal.h"

/* Offsets of the transfers in a staging area, 256-byte aligned. */
static size_t align256(size_t bytes) { return (bytes + 255) & ~(size_t)255; }

/* count vec4s: xyz from v3 (3 per element), w from w1 (or 0). */
static void pack_vec4(float *dst, size_t count, const double *v3, const double *w1)
{
    for (size_t i = 0; i < count; i++) {
        dst[4 * i + 0] = (float)v3[3 * i + 0];
        dst[4 * i + 1] = (float)v3[3 * i + 1];
        dst[4 * i + 2] = (float)v3[3 * i + 2];
        dst[4 * i + 3] = w1 ? (float)w1[i] : 0.0f;
    }
}

/* count vec3s of v3 as double-single pairs: the hi parts as pack_vec4
 * writes them (w from w1), the lo parts float(v - hi) to lo, every
 * `stride` floats from `at`. */
static void pack_ds(float *hi, float *lo, int stride, int at, size_t count, const double *v3,
                    const double *w1)
{
    pack_vec4(hi, count, v3, w1);
    for (size_t i = 0; i < count; i++) {
        for (int d = 0; d < 3; d++)
            lo[stride * i + at + d] = (float)(v3[3 * i + d] - (double)hi[4 * i + d]);
        lo[stride * i + at + 3] = 0.0f;
    }
}

/* One part of a staged upload: `bytes` for buffer `which`, at offset `at`
 * of the staging area (set by stage()). */
struct transfer {
    int which;
    size_t bytes, at;
};

/* Lays the transfers out 256-byte aligned, grows their buffers, and sets
 * *total to the bytes of the whole. */
static enum nb_status lay_out(struct nb_gaj_compute *g, struct transfer *p, size_t count,
                              size_t *total, const char *what, struct nb_error *err)
{
    *total = 0;
    for (size_t k = 0; k < count; k++) {
        p[k].at = *total;
        *total += align256(p[k].bytes);
        if (nb_gaj_grow(g, p[k].which, p[k].bytes, what, err) != NB_OK)
            return err->status;
    }
    return NB_OK;
}

/* The transfers laid out in area s, for the caller to fill. */
static char *stage(struct nb_gaj_compute *g, struct nb_gl_staging *s, struct transfer *p,
                   size_t count, const char *what, struct nb_error *err)
{
    size_t total;
    return lay_out(g, p, count, &total, what, err) == NB_OK
        ? nb_gl_staging_write(s, total, err) : NULL;
}

static enum nb_status send(struct nb_gaj_compute *g, struct nb_gl_staging *s,
                           const struct transfer *p, size_t count, const char *what,
                           struct nb_error *err)
{
    for (size_t k = 0; k < count; k++)
        if (nb_gl_staging_send(s, g->buf[p[k].which].id, p[k].at, p[k].bytes, what,
                               err) != NB_OK)
            return err->status;
    nb_gl_staging_sent(s);
    return NB_OK;
}

/* NB_ERR_ARGS unless every index names one of the n particles. */
static enum nb_status check_indices(const struct nb_gaj_compute *g, size_t count,
                                    const uint32_t *index, struct nb_error *err)
{
    for (size_t k = 0; k < count; k++)
        if (index[k] >= g->n)
            return nb_error_set(err, NB_ERR_ARGS, "GAJ: particle index %u out of "
                                "range (%zu particles)", (unsigned)index[k], g->n);
    return NB_OK;
}

/* The block's indices into B_ACTIVE. */
static enum nb_status upload_indices(struct nb_gaj_compute *g, size_t count,
                                     const uint32_t *index, struct nb_error *err)
{
    struct transfer p[] = { { B_ACTIVE, 4 * count, 0 } };
    char *area;
    if (check_indices(g, count, index, err) != NB_OK ||
        !(area = stage(g, &g->up_index, p, 1, "active indices", err)))
        return err->status;
    memcpy(area, index, 4 * count);
    return send(g, &g->up_index, p, 1, "active indices", err);
}

enum nb_status nb_gaj_compute_set_j(struct nb_gaj_compute *g, size_t n,
                                    const double *x, const double *v,
                                    const double *m, struct nb_error *err)
{
    struct transfer p[] = { { B_POS, 16 * n, 0 }, { B_VEL, 16 * n, 0 }, { B_JLO, 32 * n, 0 } };
    size_t parts = g->ds ? 3 : 2;
    char *area;
    if (n > (size_t)INT32_MAX / 64)
        return nb_error_set(err, NB_ERR_LIMIT, "%zu particles: too many to index", n);
    g->n = n;
    g->planned = 0;
    if (!(area = stage(g, &g->up_j, p, parts, "GAJ j-particles", err)))
        return err->status;
    if (g->ds) {        /* lo parts: x_j's at jlo[2 j], v_j's at jlo[2 j + 1] */
        pack_ds((float *)(area + p[0].at), (float *)(area + p[2].at), 8, 0, n, x, m);
        pack_ds((float *)(area + p[1].at), (float *)(area + p[2].at), 8, 4, n, v, NULL);
    } else {
        pack_vec4((float *)(area + p[0].at), n, x, m);
        pack_vec4((float *)(area + p[1].at), n, v, NULL);
    }
    return send(g, &g->up_j, p, parts, "GAJ j-particles", err);
}

/* Slices so that about `fill` groups run, at most one per tile. */
static int slice_tiles(int fill, int groups, int tiles)
{
    int s = nb_gl_ceil_div(fill, groups);
    s = s < 1 ? 1 : s > tiles ? tiles : s;
    return nb_gl_ceil_div(tiles, s);
}

static void bind_range(GLuint binding, GLuint buffer, size_t at, size_t bytes)
{
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buffer, (GLintptr)at,
                      (GLsizeiptr)(bytes ? bytes : 16));
}

/* Where a piece's results go: bytes at and at2 of buffers out and out2 (a
 * mapped transfer area, or B_OUT and B_OUT2). */
struct results_at {
    GLuint out, out2;
    size_t at, at2;
};

/* Sums `slices` partial results of count particles, at byte part_at of
 * B_PART and of B_PART2, into `to`, in one dispatch. */
static void reduce_pair(struct nb_gaj_compute *g, GLuint program, size_t part_at, int count,
                        int slices, const struct results_at *to)
{
    size_t part_bytes = 16 * (size_t)count * (size_t)slices;
    glUseProgram(program);
    glUniform1i(nb_gl_loc(NB_LOC_N), count);
    glUniform1i(nb_gl_loc(NB_LOC_SLICES), slices);
    bind_range(NB_BIND_PARTIAL, g->buf[B_PART].id, part_at, part_bytes);
    bind_range(NB_BIND_PARTIAL2, g->buf[B_PART2].id, part_at, part_bytes);
    bind_range(NB_BIND_OUT, to->out, to->at, 16 * (size_t)count);
    bind_range(NB_BIND_OUT2, to->out2, to->at2, 16 * (size_t)count);
    glDispatchCompute((GLuint)nb_gl_ceil_div(count, NB_REDUCE_ITEMS), 1, 1);
}

void nb_gaj_compute_set_j_range(struct nb_gaj_compute *g, size_t first, size_t end)
{
    g->j_first = first;
    g->j_end = end;
}

/* Cuts the block into pieces: `wanted` of them, or for 0 as
 * GLNBODY_BLOCK_PIECES says (unset: 1; auto: one per NB_GAJ_PIECE_MIN
 * particles on a GPU, one on a CPU renderer, whose cores also correct). */
static void cut_block(struct nb_gaj_compute *g, size_t n_active, int wanted)
{
    const char *env = getenv("GLNBODY_BLOCK_PIECES");
    long pieces = wanted;
    if (pieces <= 0 && env && strcmp(env, "auto") == 0)
        pieces = nb_gl_is_software(g->gl) ? 1 : (long)(n_active / NB_GAJ_PIECE_MIN);
    else if (pieces <= 0)       /* gl_env.c refused values but 1-8 and auto */
        pieces = (long)nb_gl_env_long("GLNBODY_BLOCK_PIECES", 1);
    pieces = pieces < 1 ? 1 : pieces > NB_GAJ_PIECES_MAX ? NB_GAJ_PIECES_MAX : pieces;
    size_t step = (n_active + (size_t)pieces - 1) / (size_t)pieces;
    step = (step + NB_GAJ_PIECE_ALIGN - 1) / NB_GAJ_PIECE_ALIGN * NB_GAJ_PIECE_ALIGN;
    int k = 0;
    g->piece_at[0] = 0;
    do {
        size_t next = g->piece_at[k] + step;
        g->piece_at[++k] = next < n_active ? next : n_active;
    } while (g->piece_at[k] < n_active);
    g->pieces = k;
}

/* How one piece runs: its dispatches of `per` particles, their j-slices,
 * and where its partial sums lie in B_PART and B_PART2. */
struct piece_plan {
    size_t first, count, per, part_at;
    int per_slice, slices;
};

/* A long piece comes in dispatches of `per` (gl_dispatch.c); the j-slices
 * fill the GPU for one dispatch's groups. */
static void plan_piece(int tile, int fill, size_t j_count, size_t first, size_t count,
                       size_t part_at, struct piece_plan *p)
{
    size_t per = nb_gl_dispatch_items(j_count, tile);
    int chunk = (int)(per < count ? per : count);
    int groups = nb_gl_ceil_div(chunk, tile), tiles = nb_gl_ceil_div((int)j_count, tile);
    tiles = tiles < 1 ? 1 : tiles;      /* an empty slice: zeros, one pass */
    *p = (struct piece_plan){ first, count, per, part_at, 0, 0 };
    p->per_slice = slice_tiles(fill, groups, tiles);
    p->slices = nb_gl_ceil_div(tiles, p->per_slice);
}

/* `down` holds a block's results as its accelerations (with potentials)
 * for the slots rounded up to 16, then its jerks, so that every piece's
 * part starts 256-byte aligned (its first slot is a multiple of 64). */
static size_t jerks_at(size_t n_active) { return 16 * ((n_active + 15) & ~(size_t)15); }

/* Piece p's GAJ: its i-particles against every j-slice, the slices summed
 * by the reduction straight into the mapped transfer area where there is
 * one (no copy after), else into B_OUT and B_OUT2.  Returns 1 where the
 * results went to the mapped area. */
static int dispatch_piece(struct nb_gaj_compute *g, GLuint gaj, GLuint red,
                          const struct piece_plan *p)
{
    int split = p->slices > 1, mapped = split && g->down.buffer && !g->keep_results;
    size_t out_at = 16 * p->first, out_bytes = 16 * p->count;
    size_t at = split ? p->part_at : out_at;
    size_t bytes = split ? out_bytes * (size_t)p->slices : out_bytes;
    glUseProgram(gaj);
    glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), p->per_slice);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)p->count);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_POS, g->buf[B_POS].id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_VEL, g->buf[B_VEL].id);
    if (g->ds)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_JLO, g->buf[B_JLO].id);
    bind_range(NB_BIND_ACTIVE, g->buf[B_ACTIVE].id, 4 * p->first, 4 * p->count);
    bind_range(NB_BIND_OUT, g->buf[split ? B_PART : B_OUT].id, at, bytes);
    bind_range(NB_BIND_OUT2, g->buf[split ? B_PART2 : B_OUT2].id, at, bytes);
    for (size_t k0 = 0; k0 < p->count; k0 += p->per) {
        size_t count = p->count - k0 < p->per ? p->count - k0 : p->per;
        glUniform1i(nb_gl_loc(NB_LOC_K_FIRST), (int)k0);
        glDispatchCompute((GLuint)nb_gl_ceil_div((int)count, g->tile), (GLuint)p->slices, 1);
        if (k0 + count < p->count)
            glFinish();     /* gl_dispatch.c: never much work queued */
    }
    if (split) {
        struct results_at to = { g->buf[B_OUT].id, g->buf[B_OUT2].id, out_at, out_at };
        if (mapped)
            to = (struct results_at){ g->down.buffer, g->down.buffer, out_at,
                                      jerks_at(g->n_active) + out_at };
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        reduce_pair(g, red, p->part_at, (int)p->count, p->slices, &to);
    }
    return mapped;
}

/* Piece k's results on their way to `down` (copied, unless the reduction
 * wrote them there), fenced so that the host can wait for this piece
 * alone.  Without a mapped area the copy is a read, done at once. */
static enum nb_status send_back_piece(struct nb_gaj_compute *g, int k, int in_down,
                                      struct nb_error *err)
{
    size_t first = g->piece_at[k], count = g->piece_at[k + 1] - first;
    if (g->keep_results)
        return NB_OK;
    if (in_down) {
        glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    } else {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        if (nb_gl_staging_fetch_from(&g->down, g->buf[B_OUT].id, 16 * first, 16 * first,
                                     16 * count, "reading GAJ results", err) != NB_OK ||
            nb_gl_staging_fetch_from(&g->down, g->buf[B_OUT2].id, 16 * first,
                                     jerks_at(g->n_active) + 16 * first, 16 * count,
                                     "reading GAJ results", err) != NB_OK)
            return err->status;
    }
    if (g->down.buffer)
        g->piece_fence[k] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    return NB_OK;
}

void nb_gaj_forget_pieces(struct nb_gaj_compute *g)
{
    for (int k = 0; k < NB_GAJ_PIECES_MAX; k++)
        if (g->piece_fence[k]) {
            glDeleteSync(g->piece_fence[k]);
            g->piece_fence[k] = NULL;
        }
}

/* Grows B_OUT, B_OUT2 and, where a piece has j-slices, B_PART and
 * B_PART2 for the plans (to nb_gaj_slices_bound at least). */
static enum nb_status grow_outputs(struct nb_gaj_compute *g, const struct piece_plan *plan,
                                   struct nb_error *err)
{
    size_t out_bytes = 16 * g->n_active, part_bytes = 0;
    for (int k = 0; k < g->pieces; k++)
        if (plan[k].slices > 1)
            part_bytes = plan[k].part_at + 16 * plan[k].count * (size_t)plan[k].slices;
    if (part_bytes && part_bytes < nb_gaj_slices_bound(g))
        part_bytes = nb_gaj_slices_bound(g);
    if (nb_gaj_grow(g, B_OUT, out_bytes, "GAJ results", err) != NB_OK ||
        nb_gaj_grow(g, B_OUT2, out_bytes, "GAJ results", err) != NB_OK ||
        (part_bytes && (nb_gaj_grow(g, B_PART, part_bytes, "GAJ slices", err) != NB_OK ||
                        nb_gaj_grow(g, B_PART2, part_bytes, "GAJ slices", err) != NB_OK)))
        return err->status;
    return NB_OK;
}

enum nb_status nb_gaj_compute_run(struct nb_gaj_compute *g, int tile, double eps,
                                  size_t n_active, const uint32_t *active, int pieces,
                                  struct nb_error *err)
{
    char name[48];
    GLuint gaj, red;
    struct piece_plan plan[NB_GAJ_PIECES_MAX];
    size_t first, end, part_at = 0;
    nb_gaj_j_range(g, &first, &end);
    nb_gaj_forget_pieces(g);
    g->eps = eps;
    g->planned = 0;
    g->n_active = n_active;
    g->pieces = 1;
    g->piece_at[0] = g->piece_at[1] = 0;
    g->in_down = 0;
    if (n_active == 0)
        return NB_OK;
    cut_block(g, n_active, pieces);
    for (int k = 0; k < g->pieces; k++) {
        plan_piece(tile, g->fill, end - first, g->piece_at[k], g->piece_at[k + 1] - g->piece_at[k],
                   part_at, &plan[k]);
        if (plan[k].slices > 1)
            part_at += align256(16 * plan[k].count * (size_t)plan[k].slices);
    }
    char base[32];
    snprintf(base, sizeof base, "gaj_comp_t%d_i%d", tile, NB_GAJ_IPT);
    nb_gaj_program_name(g, base, name, sizeof name);
    g->tile = tile;
    g->slices = plan[0].slices;
    /* gaj.comp: positions and velocities of a j-tile in shared memory,
     * five storage blocks (ES 3.1 promises only four); in ds their lo
     * parts too, and a sixth block. */
    if (nb_gl_compute_fits(g->gl, "the compute GAJ kernel", tile / NB_GAJ_IPT,
                           (g->ds ? 64 : 32) * tile, g->ds ? 6 : 5, err) != NB_OK ||
        (active && upload_indices(g, n_active, active, err) != NB_OK) ||
        nb_gl_program(g->gl, name, &gaj, err) != NB_OK ||
        nb_gl_program(g->gl, "reduce_pair_comp", &red, err) != NB_OK ||
        grow_outputs(g, plan, err) != NB_OK ||
        nb_gl_staging_reserve(&g->down, jerks_at(n_active) + 16 * n_active, err) != NB_OK)
        return err->status;

    nb_gpu_timer_start(&g->timer);
    glUseProgram(gaj);
    glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)(eps * eps));
    glUniform2i(nb_gl_loc(NB_LOC_J_RANGE), (int)first, (int)end);
    for (int k = 0; k < g->pieces; k++) {
        g->in_down = dispatch_piece(g, gaj, red, &plan[k]);
        if (send_back_piece(g, k, g->in_down, err) != NB_OK)
            return err->status;
    }
    /* The timer's result is asked for after the read-back, which waits
     * anyway: one CPU-GPU round trip per block step, not two. */
    nb_gpu_timer_end(&g->timer);
    glFlush();              /* the first piece starts while the host waits */
    return nb_gl_check("GAJ dispatch", err);
}

GLuint nb_gaj_compute_block_buffer(struct nb_gaj_compute *g, size_t count,
                                   struct nb_error *err)
{
    return nb_gaj_grow(g, B_ACTIVE, 4 * count, "block indices", err) == NB_OK
               ? g->buf[B_ACTIVE].id : 0;
}

enum nb_status nb_gaj_compute_inputs(struct nb_gaj_compute *g, size_t n_active,
                                     const uint32_t *active, struct nb_gaj_inputs *in,
                                     struct nb_error *err)
{
    g->n_active = 0;        /* the float kernel's results are not this block's */
    if (n_active && upload_indices(g, n_active, active, err) != NB_OK)
        return err->status;
    *in = (struct nb_gaj_inputs){ g->buf[B_POS].id, g->buf[B_VEL].id,
                                  g->buf[B_ACTIVE].id, g->n, 0, 0 };
    nb_gaj_j_range(g, &in->j_first, &in->j_end);
    return NB_OK;
}

int nb_gaj_compute_stream(const struct nb_gaj_compute *g, struct nb_gl_particles *out)
{
    if (!g || g->n == 0)
        return 0;
    *out = (struct nb_gl_particles){ .n = g->n, .pos_buffer = g->buf[B_POS].id,
                                     .vel_buffer = g->buf[B_VEL].id };
    return 1;
}

int nb_gaj_compute_results(const struct nb_gaj_compute *g, struct nb_gl_results *out)
{
    size_t na = g ? g->n_active : 0;
    if (na == 0 || (g->in_down && g->pieces > 1))
        return 0;           /* pieces: each piece's results apart in `down` */
    memset(out, 0, sizeof *out);
    if (g->in_down) {
        out->panel[0] = nb_gl_buffer_panel("acceleration", "potential", g->down.buffer, na,
                                           1, 0);
        out->panel[1] = nb_gl_buffer_panel("jerk", "", g->down.buffer, na, 1,
                                           (int)(jerks_at(na) / 16));
    } else {
        out->panel[0] = nb_gl_buffer_panel("acceleration", "potential", g->buf[B_OUT].id,
                                           na, 1, 0);
        out->panel[1] = nb_gl_buffer_panel("jerk", "", g->buf[B_OUT2].id, na, 1, 0);
    }
    out->count = 2;
    if (g->slices > 1 && g->pieces == 1) {  /* the j-slices' partial sums */
        out->panel[2] = nb_gl_buffer_panel("partial accelerations, slice after slice",
                                     "partial potentials", g->buf[B_PART].id,
                                     na * (size_t)g->slices, 1, 0);
        out->count = 3;
    }
    snprintf(out->shape, sizeof out->shape, "compute GAJ gaj-t%d-s%d: %zu active of %zu "
             "in %d piece%s, %d i a thread, j in shared-memory tiles of %d, %d j-slice%s "
             "summed by a reduction pass", g->tile, g->slices, na, g->n, g->pieces,
             g->pieces > 1 ? "s" : "", NB_GAJ_IPT, g->tile, g->slices,
             g->slices > 1 ? "s" : "");
    return 1;
}

/* count results as `down` holds them (accelerations with potentials from
 * f, jerks from fj) into slots [0, count) of acc, jerk, pot. */
static void unpack_results(const float *f, const float *fj, size_t count, double *acc,
                           double *jerk, double *pot)
{
    #pragma omp parallel for schedule(static) if (count > NB_GAJ_PARALLEL_MIN)
    for (size_t k = 0; k < count; k++) {
        for (int d = 0; d < 3; d++) {
            acc[3 * k + d] = f[4 * k + d];
            jerk[3 * k + d] = fj[4 * k + d];
        }
        pot[k] = f[4 * k + 3];
    }
}

int nb_gaj_compute_pieces(const struct nb_gaj_compute *g)
{
    return g->pieces;
}

enum nb_status nb_gaj_compute_read_piece(struct nb_gaj_compute *g, int k, double *acc,
                                         double *jerk, double *pot, size_t *first,
                                         size_t *count, struct nb_error *err)
{
    if (k < 0 || k >= g->pieces)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ piece %d of %d", k, g->pieces);
    *first = g->piece_at[k];
    *count = g->piece_at[k + 1] - *first;
    if (*count == 0)
        return NB_OK;
    if (nb_gl_fence_wait(&g->piece_fence[k], err) != NB_OK)
        return err->status;
    const char *area = g->down.map;
    unpack_results((const float *)(area + 16 * *first),
                   (const float *)(area + jerks_at(g->n_active) + 16 * *first), *count,
                   acc + 3 * *first, jerk + 3 * *first, pot + *first);
    return NB_OK;
}

enum nb_status nb_gaj_compute_read(struct nb_gaj_compute *g, double *acc,
                                   double *jerk, double *pot, struct nb_error *err)
{
    size_t first, count;
    for (int k = 0; k < g->pieces; k++)
        if (nb_gaj_compute_read_piece(g, k, acc, jerk, pot, &first, &count, err) != NB_OK)
            return err->status;
    return NB_OK;
}

enum nb_status nb_gaj_compute_load_state(struct nb_gaj_compute *g, size_t n,
                                         const double *x, const double *v,
                                         const double *a, const double *jerk,
                                         const double *t0, const double *m,
                                         struct nb_error *err)
{
    struct transfer p[] = { { B_SX, 24 * n, 0 }, { B_ST0, 8 * n, 0 }, { B_SV, 16 * n, 0 },
                         { B_SA, 16 * n, 0 }, { B_SJ, 16 * n, 0 }, { B_SVLO, 16 * n, 0 } };
    int parts = g->ds ? 6 : 5;
    g->planned = 0;
    /* predict.comp keeps positions and times in double. */
    if (nb_gl_require(g->gl, "--predict gpu on the compute backend (double positions "
                      "and times, GL_ARB_gpu_shader_fp64)", 43, 0, err) != NB_OK)
        return err->status;
    size_t total;
    g->n = n;
    if (lay_out(g, p, (size_t)parts, &total, "Hermite state", err) != NB_OK ||
        nb_gaj_grow(g, B_POS, 16 * n, "GAJ positions", err) != NB_OK ||
        nb_gaj_grow(g, B_VEL, 16 * n, "GAJ velocities", err) != NB_OK ||
        (g->ds && nb_gaj_grow(g, B_JLO, 32 * n, "GAJ lo parts", err) != NB_OK))
        return err->status;
    /* Once a run, through the driver's copy: a mapped area of this size
     * would be pinned for one upload, and pinning costs more than the copy. */
    char *area = nb_alloc(total ? total : 1, 1, "the Hermite state's upload", err);
    if (!area)
        return err->status;
    #pragma omp parallel for schedule(static) if (n > NB_GAJ_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++) {
        memcpy(area + p[0].at + 24 * i, x + 3 * i, 24);
        memcpy(area + p[1].at + 8 * i, t0 + i, 8);
        if (g->ds)
            pack_ds((float *)(area + p[2].at) + 4 * i, (float *)(area + p[5].at) + 4 * i, 4,
                    0, 1, v + 3 * i, m + i);
        else
            pack_vec4((float *)(area + p[2].at) + 4 * i, 1, v + 3 * i, m + i);
        pack_vec4((float *)(area + p[3].at) + 4 * i, 1, a + 3 * i, NULL);
        pack_vec4((float *)(area + p[4].at) + 4 * i, 1, jerk + 3 * i, NULL);
    }
    for (int k = 0; k < parts; k++) {
        glBindBuffer(GL_COPY_WRITE_BUFFER, g->buf[p[k].which].id);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)p[k].bytes, area + p[k].at);
    }
    free(area);
    return nb_gl_check("uploading the Hermite state", err);
}

/* The corrected block into its transfer area (transfers p of update_state):
 * indices, x and t0 as they are, v, a and jerk as three vec4 a particle
 * (`w` = 12 floats), or in double-single (w = 16) with v's lo part fourth. */
static void pack_block(char *area, const struct transfer *p, size_t nb, const uint32_t *idx,
                       const double *x, const double *v, const double *a,
                       const double *jerk, const double *t0, int w)
{
    uint32_t *ia = (uint32_t *)(area + p[0].at);
    double *xa = (double *)(area + p[1].at), *ta = (double *)(area + p[2].at);
    float *vaj = (float *)(area + p[3].at);

    #pragma omp parallel for schedule(static) if (nb > NB_GAJ_PARALLEL_MIN)
    for (size_t k = 0; k < nb; k++) {
        ia[k] = idx[k];
        ta[k] = t0[k];
        for (int d = 0; d < 3; d++) {
            xa[3 * k + d] = x[3 * k + d];
            vaj[w * k + d] = (float)v[3 * k + d];
            vaj[w * k + 4 + d] = (float)a[3 * k + d];
            vaj[w * k + 8 + d] = (float)jerk[3 * k + d];
            if (w == 16)
                vaj[w * k + 12 + d] = (float)(v[3 * k + d] - (double)vaj[w * k + d]);
        }
        vaj[w * k + 3] = vaj[w * k + 7] = vaj[w * k + 11] = vaj[w * k + w - 1] = 0.0f;
    }
}

enum nb_status nb_gaj_compute_update_state(struct nb_gaj_compute *g, size_t nb,
                                           const uint32_t *idx, const double *x,
                                           const double *v, const double *a,
                                           const double *jerk, const double *t0,
                                           struct nb_error *err)
{
    struct transfer p[] = { { B_ACTIVE, 4 * nb, 0 }, { B_BX, 24 * nb, 0 },
                         { B_BT0, 8 * nb, 0 }, { B_BVAJ, (g->ds ? 64 : 48) * nb, 0 } };
    GLuint prog;
    char name[48];
    nb_gaj_program_name(g, "scatter_comp", name, sizeof name);
    char *area;
    if (nb == 0)
        return NB_OK;
    if (!g->buf[B_SX].id)
        return nb_error_set(err, NB_ERR_ARGS, "update_state before load_state");
    if (check_indices(g, nb, idx, err) != NB_OK ||
        nb_gl_program(g->gl, name, &prog, err) != NB_OK ||
        !(area = stage(g, &g->up_block, p, 4, "corrected block", err)))
        return err->status;
    pack_block(area, p, nb, idx, x, v, a, jerk, t0, g->ds ? 16 : 12);
    static const GLuint block_binding[] = { NB_BIND_ACTIVE, NB_BIND_BLOCK_X,
                                            NB_BIND_BLOCK_T0, NB_BIND_BLOCK_VAJ };
    static const struct { int binding, which; } state[] = {
        { NB_BIND_STATE_X, B_SX }, { NB_BIND_STATE_T0, B_ST0 }, { NB_BIND_STATE_V, B_SV },
        { NB_BIND_STATE_A, B_SA }, { NB_BIND_STATE_J, B_SJ }, { NB_BIND_STATE_VLO, B_SVLO } };
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)nb);
    for (size_t k = 0; k < sizeof state / sizeof state[0] - !g->ds; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)state[k].binding,
                         g->buf[state[k].which].id);
    if (g->up_block.buffer) {   /* scatter.comp reads the mapped area: no copies */
        for (int k = 0; k < 4; k++)
            bind_range(block_binding[k], g->up_block.buffer, p[k].at, p[k].bytes);
    } else {
        if (send(g, &g->up_block, p, 4, "corrected block", err) != NB_OK)
            return err->status;
        for (int k = 0; k < 4; k++)
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, block_binding[k],
                             g->buf[p[k].which].id);
    }
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)nb, 256), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (g->up_block.buffer)
        nb_gl_staging_sent(&g->up_block);   /* the next write waits for this scatter */
    return nb_gl_check("scattering the corrected block", err);
}

enum nb_status nb_gaj_compute_predict(struct nb_gaj_compute *g, double t, GLuint dstate,
                                      GLuint block_state, int ahead, struct nb_error *err)
{
    GLuint prog;
    char name[48];
    if (!g->buf[B_SX].id)
        return nb_error_set(err, NB_ERR_ARGS, "predict_j before load_state");
    nb_gaj_program_name(g, dstate ? "predict_ds_comp" : "predict_comp", name, sizeof name);
    if (nb_gl_program(g->gl, name, &prog, err) != NB_OK)
        return err->status;
    static const struct { int binding, which; } bind[] = {
        { NB_BIND_STATE_X, B_SX }, { NB_BIND_STATE_T0, B_ST0 }, { NB_BIND_STATE_V, B_SV },
        { NB_BIND_STATE_A, B_SA }, { NB_BIND_STATE_J, B_SJ }, { NB_BIND_POS, B_POS },
        { NB_BIND_VEL, B_VEL }, { NB_BIND_JLO, B_JLO }, { NB_BIND_STATE_VLO, B_SVLO } };
    /* Not timed: a timer would add a second CPU-GPU sync to every block
     * step; the prediction's GPU time shows in the caller's wall clock. */
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)g->n);
    glUniform1d(nb_gl_loc(NB_LOC_TIME), t);
    for (size_t k = 0; k < sizeof bind / sizeof bind[0] - (g->ds ? 0 : 2); k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)bind[k].binding,
                         g->buf[bind[k].which].id);
    if (dstate) {
        glUniform1i(nb_gl_loc(NB_LOC_AHEAD), ahead);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_DSTATE, dstate);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_BLOCK_STATE, block_state);
    }
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)g->n, 256), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glFlush();      /* the GPU predicts while the host finds the block */
    return nb_gl_check("device prediction", err);
}

void nb_gaj_compute_set_ds(struct nb_gaj_compute *g, int ds)
{
    g->ds = ds;
}

void nb_gaj_compute_keep_results(struct nb_gaj_compute *g, int keep)
{
    g->keep_results = keep;
}

void nb_gaj_compute_state_view(const struct nb_gaj_compute *g, struct nb_gaj_state_view *out)
{
    int mapped = g->in_down && g->pieces == 1;
    *out = (struct nb_gaj_state_view){
        .x = g->buf[B_SX].id, .t0 = g->buf[B_ST0].id, .v = g->buf[B_SV].id,
        .active = g->buf[B_ACTIVE].id, .n = g->n, .n_active = g->n_active,
        .acc = mapped ? g->down.buffer : g->buf[B_OUT].id,
        .jerk = mapped ? g->down.buffer : g->buf[B_OUT2].id,
        .jerk_at = mapped ? jerks_at(g->n_active) : 0 };
}

double nb_gaj_compute_seconds(struct nb_gaj_compute *g)
{
    return nb_gpu_timer_result(&g->timer);
}

void nb_gaj_compute_describe(const struct nb_gaj_compute *g, char *buf, size_t size)
{
    snprintf(buf, size, "gaj-t%d-s%d", g->tile, g->slices ? g->slices : 1);
}

struct nb_gaj_compute *nb_gaj_compute_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_gaj_compute *g = nb_alloc(1, sizeof *g, "GAJ pipeline", err);
    if (!g)
        return NULL;
    g->gl = gl;
    g->j_end = SIZE_MAX;
    g->pieces = 1;
    /* GLNBODY_GAJ_FILL_GROUPS: tests put several tiles in a slice with it */
    g->fill = (int)nb_gl_env_long("GLNBODY_GAJ_FILL_GROUPS", NB_GAJ_FILL_GROUPS);
    nb_gpu_timer_init(&g->timer, gl);
    nb_gl_staging_init(&g->up_j, 0);
    nb_gl_staging_init(&g->up_index, 0);
    nb_gl_staging_init(&g->up_block, 0);
    nb_gl_staging_init(&g->down, 1);
    return g;
}

void nb_gaj_compute_destroy(struct nb_gaj_compute *g)
{
    if (!g)
        return;
    for (int k = 0; k < B_COUNT; k++)
        if (g->buf[k].id)
            glDeleteBuffers(1, &g->buf[k].id);
    nb_gaj_forget_pieces(g);
    nb_gpu_timer_free(&g->timer);
    nb_gl_staging_free(&g->up_j);
    nb_gl_staging_free(&g->up_index);
    nb_gl_staging_free(&g->up_block);
    nb_gl_staging_free(&g->down);
    free(g);
}
