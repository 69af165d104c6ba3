/* g6_launch.c - one block step on the j-memory (g6_block.c
 * keeps the j-memory): one upload of the block's i-particles (and of its
 * j-updates when they ride along), one dispatch that predicts each j-tile
 * as it loads it and evaluates the forces (g6_block.comp), in mode A one
 * reduction of the j-slices (g6_reduce.comp) unless the block adds them
 * itself, and the results written into a persistently mapped buffer
 * (staging.c); start fences the results, flushes and returns, finish
 * waits on that fence. */
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "g6_internal.h"

/* Copying more i-particles or results than this is shared among the
 * host's threads (below it, waking them costs more than the copy). */
#define NB_G6_PARALLEL_MIN 2048
/* OpenMP's idle threads go to sleep after a while (libgomp's spin), and
 * waking them costs far more than the unpack itself: a long block's wait
 * lets them fall asleep, a short one leaves them spinning.  A block
 * expected to take longer than WAKE_AFTER has its threads woken WAKE_LEAD
 * before its results should arrive (unpack_large); shorter ones don't
 * (woken early at 64k, where they were awake anyway, the next block's
 * puts came 35-50% slower). */
#define WAKE_LEAD 300e-6
#define WAKE_AFTER 2e-3

/* A spinning thread's pause (it yields the core's other hyperthread). */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static enum nb_status check_block(struct nb_g6_block *g, size_t nj, double ti, double eps2,
                                  size_t ni, const int32_t *id, const double *x,
                                  const double *v, const char *func, struct nb_error *err)
{
    if (nj > g->capacity)
        return nb_error_set(err, NB_ERR_ARGS, "%s: nj = %zu is above the j-memory's %zu "
                            "addresses", func, nj, g->capacity);
    if (ni > BLOCK_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "%s: ni = %zu is above the block size %d",
                            func, ni, BLOCK_MAX);
    if (!isfinite(ti) || !isfinite(eps2) || eps2 < 0.0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: ti = %g, eps2 = %g (finite, eps2 >= 0)",
                            func, ti, eps2);
    if (ni && (nb_api_need(id, func, "id", err) != NB_OK ||
               nb_api_need(x, func, "x", err) != NB_OK ||
               nb_api_need(v, func, "v", err) != NB_OK))
        return err->status;
    return NB_OK;
}

/* The culprit, where send_i found a number that is not finite. */
static enum nb_status refuse_block(size_t ni, const double *x, const double *v,
                                   const double *h2, const char *func,
                                   struct nb_error *err)
{
    if (nb_api_finite(x, 3 * ni, func, "x", err) != NB_OK ||
        nb_api_finite(v, 3 * ni, func, "v", err) != NB_OK ||
        (h2 && nb_api_finite(h2, ni, func, "h2", err) != NB_OK))
        return err->status;
    return NB_OK;
}

/* Bytes an i-particle takes in the i-area (g6_jmemory.glsl): doubles
 * (mode G, and fixed64, whose kernels convert them), 64; the others' float
 * (x hi, h2), (v, id), (x lo, 0), (v lo, 0), 64, or, with positions
 * rounded to float, the first two, 32. */
static size_t i_bytes(const struct nb_g6_block *g)
{
    return nb_g6_float_positions(g) ? 32 : 64;
}

/* The i-area's layouts (i_bytes). */
enum i_layout { I_FLOAT, I_DS, I_DOUBLE };

/* x as a double-single pair: hi = float(x), lo = float(x - hi). */
static inline float lo_part(double x, float hi)
{
    return (float)(x - (double)hi);
}

/* i-particle k into the i-area in layout `how`, with the id's bits in
 * float; *zero gains 0 x for each of its numbers and *v2_max its squared
 * speed. */
static inline void put_i(void *area, enum i_layout how, long k, const int32_t *id,
                         const double *x, const double *v, const double *h2, double *zero,
                         double *v2_max)
{
    const double *xk = x + 3 * k, *vk = v + 3 * k;
    double hk = h2 ? h2[k] : 0.0;
    /* made in registers, then stored whole: write-combined memory takes
     * 16-byte stores several times faster than four-byte ones */
    if (how == I_DOUBLE) {
        double d[8] = { xk[0], xk[1], xk[2], hk, vk[0], vk[1], vk[2], (double)id[k] };
        memcpy((double *)area + 8 * k, d, sizeof d);
    } else if (how == I_DS) {
        float d[16] = { (float)xk[0], (float)xk[1], (float)xk[2], (float)hk,
                        (float)vk[0], (float)vk[1], (float)vk[2], 0.0f };
        memcpy(&d[7], &id[k], sizeof d[7]);
        for (int c = 0; c < 3; c++) {
            d[8 + c] = lo_part(xk[c], d[c]);
            d[12 + c] = lo_part(vk[c], d[4 + c]);
        }
        d[11] = d[15] = 0.0f;
        memcpy((float *)area + 16 * k, d, sizeof d);
    } else {
        float d[8] = { (float)xk[0], (float)xk[1], (float)xk[2], (float)hk,
                       (float)vk[0], (float)vk[1], (float)vk[2], 0.0f };
        memcpy(&d[7], &id[k], sizeof d[7]);
        memcpy((float *)area + 8 * k, d, sizeof d);
    }
    *zero += 0.0 * (xk[0] + vk[0]) + 0.0 * (xk[1] + vk[1]) + 0.0 * (xk[2] + vk[2]) +
             0.0 * hk;
    double v2 = vk[0] * vk[0] + vk[1] * vk[1] + vk[2] * vk[2];
    *v2_max = v2 > *v2_max ? v2 : *v2_max;
}

/* The i-particles, (x, h2), (v, id) each (i_bytes), then the queued
 * updates where they ride along (carry).  The mapped area is only written,
 * in order: reading it back (write-combined memory) is slow.  The copy
 * also tests the numbers: 0 x is 0 for a finite x and NaN for any other
 * (one pass over the particles instead of three). */
static enum nb_status send_i(struct nb_g6_block *g, size_t ni, const int32_t *id,
                             const double *x, const double *v, const double *h2,
                             int carry, double *vi_max, const char *func,
                             struct nb_error *err)
{
    size_t each = i_bytes(g);
    size_t bytes = each * ni + (carry ? UPDATE_DOUBLES * sizeof(double) * g->queued : 0) +
                   (g->own ? 4 * sizeof(float) * ni : 0);
    enum nb_positions pos = nb_g6_positions(g);
    enum i_layout how = g->mode == NB_PRECISION_G || pos == NB_POSITIONS_FIXED64 ? I_DOUBLE
                      : each == 64 ? I_DS : I_FLOAT;
    char *area;
    double zero = 0.0, v2_max = 0.0;
    if (!(area = nb_gl_staging_write(&g->up_i, bytes, err)))
        return err->status;
    long count = (long)ni;
    if (count > NB_G6_PARALLEL_MIN) {
#pragma omp parallel for schedule(static) reduction(+ : zero) reduction(max : v2_max)
        for (long k = 0; k < count; k++)
            put_i(area, how, k, id, x, v, h2, &zero, &v2_max);
    } else {                    /* an idle region outweighs a small copy */
        for (long k = 0; k < count; k++)
            put_i(area, how, k, id, x, v, h2, &zero, &v2_max);
    }
    /* a sum of finite numbers may overflow: the culprit search decides */
    if (zero != 0.0 && refuse_block(ni, x, v, h2, func, err) != NB_OK)
        return err->status;
    *vi_max = sqrt(v2_max);
    g->carried = 0;
    if (carry)      /* from a dvec4 boundary: each is 32 or 64 bytes */
        nb_g6_carry_queue(g, (double *)(void *)(area + each * ni));
    else if (g->own)    /* mode H: the particles' own scales (never carries) */
        nb_g6_own_scales(g, (float *)(void *)(area + each * ni));
    g->i_buffer = g->up_i.buffer;
    if (!g->i_buffer) {         /* no buffer storage: a copy into B_I */
        if (nb_gl_ensure_buffer(&g->buf[B_I], &g->size[B_I], bytes, "the i-particles",
                                err) != NB_OK ||
            nb_gl_staging_send(&g->up_i, g->buf[B_I], 0, bytes, "sending the i-particles",
                               err) != NB_OK)
            return err->status;
        g->i_buffer = g->buf[B_I];
    }
    return NB_OK;
}

static void set_uniforms(const struct nb_g6_block *g, uint64_t mask, double ti, double eps2,
                         int per_slice)
{
    if (HAS(mask, NB_LOC_EPS2))
        glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)eps2);
    if (HAS(mask, NB_LOC_N))
        glUniform1i(nb_gl_loc(NB_LOC_N), (int)g->nj);
    if (HAS(mask, NB_LOC_N_ACTIVE))
        glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)g->ni);
    if (HAS(mask, NB_LOC_SLICE_LEN))
        glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), per_slice);
    if (HAS(mask, NB_LOC_TIME))
        glUniform1d(nb_gl_loc(NB_LOC_TIME), ti);
    if (HAS(mask, NB_LOC_PREC_EPS2D))
        glUniform1d(nb_gl_loc(NB_LOC_PREC_EPS2D), eps2);
    if (HAS(mask, NB_LOC_PREC_SCALE)) {
        float s = ldexpf(1.0f, g->log2[0]);
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), s, s, s, ldexpf(1.0f, g->log2[1]));
    }
    if (HAS(mask, NB_LOC_PREC_SCALE_J)) {
        float s = ldexpf(1.0f, g->log2[2]);
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE_J), s, s, s, s);
    }
    if (HAS(mask, NB_LOC_G6_SCALES_AT))
        glUniform1i(nb_gl_loc(NB_LOC_G6_SCALES_AT), g->own ? (int)(i_bytes(g) / 16 * g->ni)
                                                           : -1);
}

/* The sums of a block that adds its own slices (g6_block.comp's
 * NB_G6_FUSED): NB_G6_FUSED_COUNTERS arrival counters, zero between blocks
 * (the last arrivals reset them), then the slices' and the batches' sums. */
static enum nb_status fused_slices(struct nb_g6_block *g, size_t sum_bytes,
                                   struct nb_error *err)
{
    GLuint before = g->buf[B_FUSED];
    size_t size_before = g->size[B_FUSED], header = 4 * NB_G6_FUSED_COUNTERS;
    if (nb_gl_ensure_buffer(&g->buf[B_FUSED], &g->size[B_FUSED], header + sum_bytes,
                            "block slices", err) != NB_OK)
        return err->status;
    if (g->buf[B_FUSED] != before || g->size[B_FUSED] != size_before) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->buf[B_FUSED]);
        glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_RGBA32UI, 0, (GLsizeiptr)header,
                             GL_RGBA_INTEGER, GL_UNSIGNED_INT, NULL);
    }
    return NB_OK;
}

/* How a block runs on the device. */
struct block_plan {
    int tile, lanes, groups, slices, per_slice;
    int fused;          /* its slices added in its own dispatch */
    int carry;          /* the queued j-updates ride in its i-area */
};

/* A mode-A block of up to FUSED_MAX i-particles is one work group of
 * `tile` invocations, `lanes` (g6_block.comp's NB_LANES) to an i-particle,
 * each taking every lanes-th j of a tile: no padding i-particles, and
 * short sums of slices where lanes share them. */
static const int small_shapes[][3] = {  /* up to ni: tile, lanes */
    { 1, 64, 64 }, { 4, 64, 16 }, { 16, 64, 4 }, { 32, 128, 4 }, { FUSED_MAX, 128, 2 },
};
#define SMALL_SHAPES (sizeof small_shapes / sizeof small_shapes[0])
/* Mode H's blocks of up to FUSED_MAX: one work group of 128 invocations,
 * `lanes` an i-particle (up to ni: lanes).  Its slices are added in
 * g6_reduce.comp. */
static const int small_h_shapes[][2] = { { 1, 128 }, { 8, 16 }, { FUSED_MAX, 2 } };
#define SMALL_H_SHAPES (sizeof small_h_shapes / sizeof small_h_shapes[0])

static void small_block_shape(int ni, struct block_plan *p)
{
    size_t k = 0;
    while (ni > small_shapes[k][0])
        k++;
    p->tile = small_shapes[k][1];
    p->lanes = small_shapes[k][2];
}

static struct block_plan plan_block(const struct nb_g6_block *g)
{
    struct block_plan p = { .tile = 256, .lanes = 1 };
    int a = g->mode == NB_PRECISION_A, ni = (int)g->ni, nj = (int)g->nj;
    p.fused = a && ni <= FUSED_MAX;
    if (!a)
        p.tile = 128;
    else if (p.fused)
        small_block_shape(ni, &p);
    for (size_t k = 0; g->mode == NB_PRECISION_H && ni <= FUSED_MAX; k++)
        if (ni <= small_h_shapes[k][0]) {
            p.lanes = small_h_shapes[k][1];
            break;
        }
    p.groups = nb_gl_ceil_div(ni, p.tile / p.lanes);
    int tiles = nb_gl_ceil_div(nj > 0 ? nj : 1, p.tile);
    int slices = !p.fused ? nb_gl_ceil_div(FILL_GROUPS, p.groups)
               : tiles > FUSED_SLICES * FUSED_SLICE_TILES ? tiles / FUSED_SLICE_TILES
               : FUSED_SLICES;
    int most = p.fused ? NB_G6_FUSED_BATCH * NB_G6_FUSED_BATCH : tiles;   /* two levels */
    slices = slices > most ? most : slices;
    slices = slices < 1 ? 1 : slices > tiles ? tiles : slices;
    p.per_slice = nb_gl_ceil_div(tiles, slices);
    p.slices = nb_gl_ceil_div(tiles, p.per_slice);
    /* the fused block's last group writes them in, after every read */
    p.carry = p.fused && nb_g6_queue_carriable(g);
    return p;
}

static void set_carried(const struct nb_g6_block *g, uint64_t mask)
{
    if (HAS(mask, NB_LOC_G6_UPDATES))
        glUniform1i(nb_gl_loc(NB_LOC_G6_UPDATES), (int)g->carried);
    if (HAS(mask, NB_LOC_G6_UPDATES_AT))
        glUniform1i(nb_gl_loc(NB_LOC_G6_UPDATES_AT), (int)(i_bytes(g) / 32 * g->ni));
}

/* The program names' suffix of g's position format. */
static const char *positions_suffix(const struct nb_g6_block *g)
{
    static const char *const suffix[] = { "", "_pf", "_px" };
    return suffix[nb_g6_positions(g)];
}

static void program_name(const struct nb_g6_block *g, const struct block_plan *p, char *name,
                         size_t size)
{
    const char *nn = g->flags & NB_BLOCK_NEAREST ? "_nn" : "";
    const char *pf = positions_suffix(g);
    if (g->mode != NB_PRECISION_A && p->lanes > 1)
        snprintf(name, size, "g6_block_%c_l%d%s%s", 'a' + (int)g->mode, p->lanes, nn, pf);
    else if (g->mode != NB_PRECISION_A)
        snprintf(name, size, "g6_block_%c%s%s", 'a' + (int)g->mode, nn, pf);
    else if (p->fused)
        snprintf(name, size, "g6_block_a_t%d_l%d%s%s", p->tile, p->lanes, nn, pf);
    else
        snprintf(name, size, "g6_block_a_t%d_i2%s%s", p->tile, nn, pf);
}

/* Every program a block of g's mode and nearest flag may run, warmed
 * (nb_gl_compute_warm) once, while the GPU computes the first such block:
 * a GRAPE code's blocks come in every size, and each shape's first use
 * paid for its program there. */
static void warm_programs(struct nb_forces *f, struct nb_g6_block *g)
{
    int nearest = (g->flags & NB_BLOCK_NEAREST) != 0;
    uint64_t bit = (uint64_t)1 << (2 * (3 * (int)g->mode + (int)nb_g6_positions(g)) + nearest);
    const char *nn = nearest ? "_nn" : "", *pfs = positions_suffix(g);
    char name[40];
    if (g->warmed & bit)
        return;
    g->warmed |= bit;
    if (g->mode == NB_PRECISION_A) {
        for (size_t k = 0; k < SMALL_SHAPES; k++) {
            snprintf(name, sizeof name, "g6_block_a_t%d_l%d%s%s", small_shapes[k][1],
                     small_shapes[k][2], nn, pfs);
            nb_gl_compute_warm(f->gl, name);
        }
        snprintf(name, sizeof name, "g6_block_a_t256_i2%s%s", nn, pfs);
    } else if (g->mode == NB_PRECISION_H) {
        for (size_t k = 0; k < SMALL_H_SHAPES; k++) {
            snprintf(name, sizeof name, "g6_block_h_l%d%s%s", small_h_shapes[k][1], nn, pfs);
            nb_gl_compute_warm(f->gl, name);
        }
        snprintf(name, sizeof name, "g6_block_h%s%s", nn, pfs);
    } else {
        snprintf(name, sizeof name, "g6_block_%c%s%s", 'a' + (int)g->mode, nn, pfs);
    }
    nb_gl_compute_warm(f->gl, name);
    snprintf(name, sizeof name, "g6_reduce_%c", 'a' + (int)g->mode);
    nb_gl_compute_warm(f->gl, name);
    nb_gl_compute_warm(f->gl, "g6_scatter");
    while (glGetError() != GL_NO_ERROR)
        continue;               /* a failed build says so again where it is used */
}

static enum nb_status dispatch(struct nb_forces *f, struct nb_g6_block *g,
                               const struct block_plan *p, double ti, double eps2,
                               struct nb_error *err)
{
    int a = g->mode == NB_PRECISION_A, ni = (int)g->ni;
    int reduce = !p->fused && p->slices > 1;
    char name[40], reduce_name[24];
    GLuint prog, red = 0;
    program_name(g, p, name, sizeof name);
    snprintf(reduce_name, sizeof reduce_name, "g6_reduce_%c", 'a' + (int)g->mode);
    size_t out_bytes = (a ? 16 * NB_G6_A_VEC4S : 80) * (size_t)ni;
    size_t part_bytes = out_bytes * (size_t)p->slices;
    size_t fused_bytes = 16 * NB_G6_A_PART_VEC4S * (size_t)ni *
                         (size_t)(p->slices + nb_gl_ceil_div(p->slices, NB_G6_FUSED_BATCH));
    if (nb_g6_positions(g) == NB_POSITIONS_FIXED64 &&
        !epoxy_has_gl_extension("GL_ARB_gpu_shader_int64"))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "fixed64 positions need "
                            "GL_ARB_gpu_shader_int64, which this GL (%s) lacks",
                            (const char *)glGetString(GL_RENDERER));
    if ((!a && nb_prec_supported(g->mode, err) != NB_OK) ||
        nb_gl_program(f->gl, name, &prog, err) != NB_OK ||
        (reduce && nb_gl_program(f->gl, reduce_name, &red, err) != NB_OK) ||
        nb_gl_staging_reserve(&g->down, out_bytes, err) != NB_OK)
        return err->status;
    /* the results straight into the mapped buffer, else into B_OUT */
    GLuint out = g->down.buffer;
    if ((!out && nb_gl_ensure_buffer(&g->buf[B_OUT], &g->size[B_OUT], out_bytes,
                                     "block results", err) != NB_OK) ||
        (p->fused && fused_slices(g, fused_bytes, err) != NB_OK) ||
        (reduce && nb_gl_ensure_buffer(&g->buf[B_PART], &g->size[B_PART], part_bytes,
                                       "block slices", err) != NB_OK))
        return err->status;
    out = out ? out : g->buf[B_OUT];
    uint64_t mask = nb_gl_use_program(f->gl, name);
    set_uniforms(g, mask, ti, eps2, p->per_slice);
    set_carried(g, mask);
    for (int k = J_X; k <= J_J; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_JX + (GLuint)k, g->buf[k]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_I, g->i_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_IF, g->i_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_JP, g->buf[J_P]);
    if (p->fused)               /* the slices added in the same dispatch */
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_PART, g->buf[B_FUSED]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_OUT, reduce ? g->buf[B_PART] : out);
    glDispatchCompute((GLuint)p->groups, (GLuint)p->slices, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (reduce) {
        mask = nb_gl_use_program(f->gl, reduce_name);
        glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), ni);
        glUniform1i(nb_gl_loc(NB_LOC_SLICES), p->slices);
        set_carried(g, mask);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_PART, g->buf[B_PART]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_OUT, out);
        glDispatchCompute((GLuint)ni, 1, 1);   /* a work group an i-particle */
    }
    /* No fences of their own for the uploads (each costs GPU time):
     * the next start writes up_i only after this block's results have
     * arrived (finish, or start's own wait), and this batch's queue area
     * is written again two batches on, later still.  Carried updates were
     * written into the j-memory by the last pass. */
    GLbitfield jmem = g->carried ? GL_SHADER_STORAGE_BARRIER_BIT : 0;
    if (g->down.buffer) {
        glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT | jmem);
    } else {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | jmem);
        if (nb_gl_staging_fetch(&g->down, out, 0, out_bytes, "reading block results",
                                err) != NB_OK)
            return err->status;
    }
    snprintf(f->variant, sizeof f->variant, "g6-%s-s%d%s", name + 9, p->slices,
             g->carried ? "-carry" : "");
    return nb_gl_check("the block step", err);
}

enum nb_status nb_forces_block_start(struct nb_forces *f, size_t nj, double ti, double eps2,
                                     size_t ni, const int32_t *id, const double *x,
                                     const double *v, const double *h2, unsigned flags,
                                     struct nb_error *err)
{
    const char *func = "nb_forces_block_start";
    struct nb_error e;
    struct nb_g6_block *g;
    double vi_max = 0.0;
    nb_error_empty(&e);
    if (nb_api_need(f, func, "f", &e) != NB_OK || nb_g6_need_compute(f, func, &e) != NB_OK ||
        nb_api_forces_enter(f, &e) != NB_OK || !(g = nb_g6_block_of(f, &e)) ||
        check_block(g, nj, ti, eps2, ni, id, x, v, func, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (g->started) {           /* a block never finished: let its copy land */
        /* (a block without results, ni or nj 0, has none: the wait then
         * found no area and returned without starting this block) */
        if (g->ni && g->nj && !nb_gl_staging_arrived(&g->down, &e))
            return nb_api_fail(err, &e, func);
        g->started = 0;
    }
    g->finished = 0;
    g->ni = ni;
    g->nj = nj;
    g->flags = flags;
    g->has_h2 = h2 != NULL;
    g->mode = f->precision;
    g->positions = f->positions;
    g->carried = 0;
    g->ti = ti;
    g->eps2 = eps2;
    if (nb_g6_take_hint(g, &e) != NB_OK ||
        (nb_g6_needs_mass(g->mode) && nb_g6_know_mass(f, g, &e) != NB_OK))
        return nb_api_fail(err, &e, func);
    if (ni == 0 || nj == 0) {  /* no results to wait for: fence the updates */
        if (refuse_block(ni, x, v, h2, func, &e) != NB_OK ||
            nb_g6_flush_queue(f, g, 1, &e) != NB_OK)
            return nb_api_fail(err, &e, func);
        g->started = 1;
        return NB_OK;
    }
    struct block_plan plan = plan_block(g);
    if (!plan.carry && nb_g6_flush_queue(f, g, 0, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    g->scatters_at = g->scatters;
    if (send_i(g, ni, id, x, v, h2, plan.carry, &vi_max, func, &e) != NB_OK ||
        nb_g6_choose_scales(g, eps2, vi_max, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (flags & NB_BLOCK_TIMED)
        nb_gpu_timer_start(&g->timer);
    enum nb_status st = dispatch(f, g, &plan, ti, eps2, &e);
    if (flags & NB_BLOCK_TIMED)
        nb_gpu_timer_end(&g->timer);    /* also on failure: no query left open */
    if (st != NB_OK)
        return nb_api_fail(err, &e, func);
    /* The results' fence travels with the block: made in finish, it took
     * a submission of its own, and the wait outlasted the GPU's work. */
    nb_gl_staging_sent(&g->down);
    glFlush();              /* the GPU starts now; the host goes on */
    g->started = 1;
    g->started_at = nb_clock_seconds();
    warm_programs(f, g);
    return NB_OK;
}

/* Component c of accumulator q (0: a and phi, 1: jerk) of i-particle i's
 * words w in modes B..H. */
static double finish_word(const struct nb_g6_block *g, size_t i, const uint32_t *w, int q,
                          int c)
{
    int k = g->mode == NB_PRECISION_H || g->mode == NB_PRECISION_E ||
            g->mode == NB_PRECISION_F ? nb_g6_log2_of(g, i, q ? 2 : c == 3 ? 1 : 0) : 0;
    return nb_prec_finish(g->mode, w + 8 * q, c, k);
}

static void unpack(const struct nb_g6_block *g, const void *raw, size_t k, double *acc,
                   double *jerk, double *pot, int32_t *nearest, double *nearest_r2)
{
    float ds2;
    int32_t nn;
    if (g->mode == NB_PRECISION_A) {     /* hi + lo, nb_config.h's layout */
        const float *r = (const float *)raw + 4 * NB_G6_A_VEC4S * k;
        for (int c = 0; c < 3; c++) {
            if (acc)
                acc[3 * k + c] = (double)r[c] + (double)r[4 + c];
            if (jerk)
                jerk[3 * k + c] = (double)r[8 + c] + (double)r[12 + c];
        }
        if (pot)
            pot[k] = (double)r[3] + (double)r[7];
        ds2 = r[11];
        memcpy(&nn, &r[15], 4);
    } else {
        const uint32_t *w = (const uint32_t *)raw + 20 * k;
        for (int c = 0; c < 3; c++) {
            if (acc)
                acc[3 * k + c] = finish_word(g, k, w, 0, c);
            if (jerk)
                jerk[3 * k + c] = finish_word(g, k, w, 1, c);
        }
        if (pot)
            pot[k] = finish_word(g, k, w, 0, 3);
        memcpy(&ds2, &w[16], 4);
        memcpy(&nn, &w[17], 4);
    }
    if (nearest)
        nearest[k] = nn;
    if (nearest_r2)
        nearest_r2[k] = nn < 0 ? INFINITY : ds2;
}

/* A large block's results unpacked by OpenMP's threads. */
static void unpack_all(const struct nb_g6_block *g, const void *raw, double *acc,
                       double *jerk, double *pot, int32_t *nearest, double *nearest_r2)
{
    long ni = (long)g->ni;
#pragma omp for schedule(static)
    for (long k = 0; k < ni; k++)
        unpack(g, raw, (size_t)k, acc, jerk, pot, nearest, nearest_r2);
}

/* A large block's results, waited for and unpacked.  Where waits poll, the
 * threads are woken WAKE_LEAD before the block should be done at the rate
 * of the last large block of its mode: the calling thread (the GL
 * context's) waits for the fence inside the parallel region while the
 * others spin on `ready`, a few hundred microseconds, not the whole
 * block. */
static const void *unpack_large(struct nb_g6_block *g, double *acc, double *jerk,
                                double *pot, int32_t *nearest, double *nearest_r2,
                                struct nb_error *err)
{
    const void *raw = NULL;
    if (!nb_gl_waits_spin()) {
        if ((raw = nb_gl_staging_arrived(&g->down, err))) {
#pragma omp parallel
            unpack_all(g, raw, acc, jerk, pot, nearest, nearest_r2);
        }
        return raw;
    }
    double interactions = (double)g->ni * (double)g->nj;
    double expect = g->wake_rate > 0.0 && g->wake_mode == g->mode
                  ? interactions / g->wake_rate : 0.0;
    double wake_at = expect > WAKE_AFTER ? g->started_at + expect - WAKE_LEAD : 0.0;
    while (!nb_gl_staging_done(&g->down) && nb_clock_seconds() < wake_at)
        spin_pause();
    atomic_int ready = 0;       /* 1: the results are there, -1: the wait failed */
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            raw = nb_gl_staging_arrived(&g->down, err);
            atomic_store_explicit(&ready, raw ? 1 : -1, memory_order_release);
        }
        while (atomic_load_explicit(&ready, memory_order_acquire) == 0)
            spin_pause();
        if (atomic_load_explicit(&ready, memory_order_relaxed) > 0)
            unpack_all(g, raw, acc, jerk, pot, nearest, nearest_r2);
    }
    double seconds = nb_clock_seconds() - g->started_at;
    if (raw && seconds > 0.0) {
        g->wake_rate = interactions / seconds;
        g->wake_mode = g->mode;
    }
    return raw;
}

/* The results of a block whose i-particles take their own scales (mode
 * H), computed again (up to REFINE_PASSES times) while nb_g6_refine
 * changes a scale: a particle whose sums left its range at the bound's
 * scale, which they cannot leave; one that its scale does not resolve at
 * a finer one, from its result.  The j-memory must be as the first run
 * found it. */
#define REFINE_PASSES 3
static const void *own_results(struct nb_forces *f, struct nb_g6_block *g,
                               struct nb_error *err)
{
    const void *raw = nb_gl_staging_arrived(&g->down, err);
    for (int pass = 0; raw && pass < REFINE_PASSES && nb_g6_refine(g, raw) > 0; pass++) {
        if (g->scatters != g->scatters_at) {
            nb_error_set(err, NB_ERR_LIMIT, "mode H must compute the block again (a "
                         "particle's fixed-point range did not fit its sums), and the "
                         "j-memory has changed since the block began (put no j-particles "
                         "between the start and the finish of a block)");
            return NULL;
        }
        size_t each = i_bytes(g), bytes = (each + 4 * sizeof(float)) * g->ni;
        nb_g6_own_scales(g, (float *)(void *)((char *)g->up_i.map + each * g->ni));
        if (!g->up_i.buffer &&
            nb_gl_staging_send(&g->up_i, g->buf[B_I], 0, bytes, "sending the i-particles",
                               err) != NB_OK)
            return NULL;
        struct block_plan plan = plan_block(g);
        if (dispatch(f, g, &plan, g->ti, g->eps2, err) != NB_OK)
            return NULL;
        nb_gl_staging_sent(&g->down);
        raw = nb_gl_staging_arrived(&g->down, err);
    }
    return raw;
}

enum nb_status nb_forces_block_finish(struct nb_forces *f, double *acc, double *jerk,
                                      double *pot, int32_t *nearest, double *nearest_r2,
                                      struct nb_error *err)
{
    const char *func = "nb_forces_block_finish";
    struct nb_error e;
    const void *raw = NULL;
    nb_error_empty(&e);
    struct nb_g6_block *g = nb_g6_block_called(f, func, &e);
    if (e.status != NB_OK)
        return nb_api_fail(err, &e, func);
    if (!g || !g->started)
        return nb_error_set(err, NB_ERR_ARGS, "%s: no block was started "
                            "(nb_forces_block_start)", func);
    if ((nearest || nearest_r2) && !(g->flags & NB_BLOCK_NEAREST))
        return nb_error_set(err, NB_ERR_ARGS, "%s: the block was started without "
                            "NB_BLOCK_NEAREST", func);
    if (nb_api_forces_enter(f, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    g->started = 0;
    if (g->nj && g->ni && g->own) {
        if (!(raw = own_results(f, g, &e)))
            return nb_api_fail(err, &e, func);
        long ni = (long)g->ni;
#pragma omp parallel for schedule(static) if (ni > NB_G6_PARALLEL_MIN)
        for (long k = 0; k < ni; k++)
            unpack(g, raw, (size_t)k, acc, jerk, pot, nearest, nearest_r2);
    } else if (g->nj && g->ni > NB_G6_PARALLEL_MIN) {
        if (!(raw = unpack_large(g, acc, jerk, pot, nearest, nearest_r2, &e)))
            return nb_api_fail(err, &e, func);
    } else if (g->ni && g->nj) {
        if (!(raw = nb_gl_staging_arrived(&g->down, &e)))
            return nb_api_fail(err, &e, func);
        for (size_t k = 0; k < g->ni; k++)
            unpack(g, raw, k, acc, jerk, pot, nearest, nearest_r2);
    }
    for (size_t k = 0; !raw && k < g->ni; k++) {
        for (int c = 0; c < 3; c++) {   /* nothing to feel: no j-particle */
            if (acc)
                acc[3 * k + c] = 0.0;
            if (jerk)
                jerk[3 * k + c] = 0.0;
        }
        if (pot)
            pot[k] = 0.0;
        if (nearest)
            nearest[k] = -1;
        if (nearest_r2)
            nearest_r2[k] = INFINITY;
    }
    f->seconds = raw && (g->flags & NB_BLOCK_TIMED) ? nb_gpu_timer_result(&g->timer) : 0.0;
    g->finished = 1;
    return NB_OK;
}
