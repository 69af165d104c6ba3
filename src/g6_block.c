/* g6_block.c - the j-memory of glnbody.h's block steps: what
 * the GRAPE-6 interface of libg6gl (tools/g6/) stands on.
 *
 * The j-memory lives on the device as Taylor coefficients in double, four
 * dvec4 per address: (x, t), (v, m), (a/2, id), (jerk/6, 0).  Updates
 * queue, one per address, and go out with the next block: up to 64 in
 * host memory, carried in a small block's i-area (g6_jmemory.glsl); more
 * straight in a mapped transfer area that one scatter dispatch reads
 * (g6_scatter.comp).  The block itself is
 * g6_launch.c's.  Neighbour lists are a second pass (g6_neighbours.comp)
 * over the j-set the block predicted, run only when asked for. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "g6_internal.h"

enum nb_status nb_g6_need_compute(const struct nb_forces *f, const char *func,
                                  struct nb_error *err)
{
    if (f->engine == NB_ENGINE_COMPUTE)
        return NB_OK;
    return nb_error_set(err, NB_ERR_UNSUPPORTED, "%s: j-memory block steps need the compute "
                        "engine (the %s engine has none)", func, f->b.name);
}

struct nb_g6_block *nb_g6_block_called(struct nb_forces *f, const char *func,
                                       struct nb_error *err)
{
    if (nb_api_need(f, func, "f", err) != NB_OK || nb_g6_need_compute(f, func, err) != NB_OK)
        return NULL;
    return f->g6;
}

static void block_free(struct nb_g6_block *g)
{
    if (!g)
        return;
    for (int k = 0; k < BUFFERS; k++)
        if (g->buf[k])
            glDeleteBuffers(1, &g->buf[k]);
    nb_gl_staging_free(&g->up_i);
    nb_gl_staging_free(&g->area[0]);
    nb_gl_staging_free(&g->area[1]);
    nb_gl_staging_free(&g->down);
    nb_gpu_timer_free(&g->timer);
    free(g->queued_bits);
    free(g->slot_address);
    free(g->mass);
    free(g->hint);
    free(g->own_log2);
    free(g);
}

struct nb_g6_block *nb_g6_block_of(struct nb_forces *f, struct nb_error *err)
{
    if (f->g6)
        return f->g6;
    struct nb_g6_block *g = nb_alloc(1, sizeof *g, "the j-memory", err);
    if (!g)
        return NULL;
    nb_gl_staging_init(&g->up_i, 0);
    nb_gl_staging_init(&g->area[0], 0);
    nb_gl_staging_init(&g->area[1], 0);
    nb_gl_staging_init(&g->down, 1);
    nb_gpu_timer_init(&g->timer, f->gl);
    g->mass_known = 1;          /* no mass yet */
    g->slot_address = nb_alloc(NB_G6_INLINE_MAX, sizeof *g->slot_address, "the j-memory",
                               err);
    if (!g->slot_address) {
        nb_gpu_timer_free(&g->timer);
        free(g);
        return NULL;
    }
    f->g6_free = block_free;
    return f->g6 = g;
}

/* A storage buffer of `bytes`, its first `keep` bytes copied from the old
 * one (the rest undefined). */
static enum nb_status regrow(struct nb_g6_block *g, int which, size_t bytes, size_t keep,
                             struct nb_error *err)
{
    GLuint old = g->buf[which];
    size_t old_size = g->size[which];
    if (old_size >= bytes)
        return NB_OK;
    g->buf[which] = 0;
    g->size[which] = 0;
    if (nb_gl_ensure_buffer(&g->buf[which], &g->size[which], bytes, "the j-memory",
                            err) != NB_OK) {
        if (g->buf[which])
            glDeleteBuffers(1, &g->buf[which]);
        g->buf[which] = old;
        g->size[which] = old_size;
        return err->status;
    }
    if (old && keep) {
        glBindBuffer(GL_COPY_READ_BUFFER, old);
        glBindBuffer(GL_COPY_WRITE_BUFFER, g->buf[which]);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                            (GLsizeiptr)keep);
    }
    if (old)
        glDeleteBuffers(1, &old);
    return nb_gl_check("growing the j-memory", err);
}

/* Addresses from..to-1 of a new j-memory: far away (NB_PAD_COORD), at rest,
 * massless, id 0: no force, never a neighbour. */
static void clear_addresses(struct nb_g6_block *g, size_t from, size_t to)
{
    double far = NB_PAD_COORD;
    uint32_t w[4];
    memcpy(w, &far, 8);
    memcpy(w + 2, &far, 8);
    for (int k = J_X; k <= J_J; k++) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->buf[k]);
        glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_RGBA32UI, (GLintptr)(32 * from),
                             (GLsizeiptr)(32 * (to - from)), GL_RGBA_INTEGER,
                             GL_UNSIGNED_INT, k == J_X ? w : NULL);
    }
}

static enum nb_status grow_host(void **p, size_t count, size_t size, struct nb_error *err)
{
    void *q = realloc(*p, count * size);
    if (!q)
        return nb_error_set(err, NB_ERR_NOMEM, "out of memory for the j-memory's "
                            "host side (%zu addresses)", count);
    *p = q;
    return NB_OK;
}

static enum nb_status reserve(struct nb_forces *f, size_t capacity, struct nb_error *err)
{
    struct nb_g6_block *g = nb_g6_block_of(f, err);
    if (!g)
        return err->status;
    if (capacity <= g->capacity)
        return NB_OK;
    if (capacity > JMEM_MAX)
        return nb_error_set(err, NB_ERR_LIMIT, "%zu j-addresses: at most %zu", capacity,
                            JMEM_MAX);
    size_t old = g->capacity;
    for (int k = J_X; k <= J_J; k++)
        if (regrow(g, k, 32 * capacity, 32 * old, err) != NB_OK)
            return err->status;
    size_t words = (capacity + 63) / 64, old_words = (old + 63) / 64;
    if (regrow(g, J_P, 32 * capacity, 0, err) != NB_OK ||     /* (hi, id), (lo, 0) */
        grow_host((void **)&g->mass, capacity, sizeof *g->mass, err) != NB_OK ||
        grow_host((void **)&g->queued_bits, words, sizeof *g->queued_bits, err) != NB_OK)
        return err->status;
    clear_addresses(g, old, capacity);
    for (size_t a = old; a < capacity; a++)
        g->mass[a] = 0.0;
    memset(g->queued_bits + old_words, 0, (words - old_words) * sizeof *g->queued_bits);
    g->capacity = capacity;
    return nb_gl_check("clearing the j-memory", err);
}

enum nb_status nb_forces_jmem_reserve(struct nb_forces *f, size_t capacity,
                                      struct nb_error *err)
{
    const char *func = "nb_forces_jmem_reserve";
    struct nb_error e = { 0 };
    if (nb_api_need(f, func, "f", &e) != NB_OK || nb_g6_need_compute(f, func, &e) != NB_OK ||
        nb_api_forces_enter(f, &e) != NB_OK || reserve(f, capacity, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    return NB_OK;
}

/* Whether a j-particle's fourteen numbers are all finite: their sum is,
 * unless one is not (or the sum overflows: check_jparticle then looks at
 * each).  Summed as a tree: a chain of thirteen dependent adds was about
 * half of a put. */
static inline int parts_finite(double t, double mass, const double *x, const double *v,
                               const double *a2, const double *j6)
{
    double sx = (x[0] + x[1]) + (x[2] + t);
    double sv = (v[0] + v[1]) + (v[2] + mass);
    double sa = (a2[0] + a2[1]) + a2[2];
    double sj = (j6[0] + j6[1]) + j6[2];
    double sum = (sx + sv) + (sa + sj);
    return sum - sum == 0.0;
}

static int all_finite(const struct nb_jparticle *p)
{
    return parts_finite(p->t, p->mass, p->x, p->v, p->a2, p->j6);
}

static enum nb_status check_jparticle(const struct nb_jparticle *p, size_t k,
                                      struct nb_error *err)
{
    if (all_finite(p) && p->mass >= 0.0)
        return NB_OK;
    const double *parts[] = { p->x, p->v, p->a2, p->j6 };
    for (int q = 0; q < 4; q++)
        for (int c = 0; c < 3; c++)
            if (!isfinite(parts[q][c]))
                return nb_error_set(err, NB_ERR_ARGS, "j-particle %zu has a non-finite "
                                    "coefficient", k);
    if (!isfinite(p->t) || !isfinite(p->mass) || p->mass < 0.0)
        return nb_error_set(err, NB_ERR_ARGS, "j-particle %zu: time %g, mass %g (the mass "
                            "must be finite and >= 0)", k, p->t, p->mass);
    return NB_OK;
}

/* Room in the batch's transfer area for `count` updates; the first time,
 * the updates waiting in `first` move there.  A grown area holds four
 * times the count (at most the j-memory): a GRAPE code puts its particles
 * one call each, and each growth makes a new mapped area and copies the
 * old one on the GPU (at 262,144 particles, the first puts of everyone
 * grew each area some twenty times, 1.5 times the last each time). */
static enum nb_status area_room(struct nb_g6_block *g, size_t count, struct nb_error *err)
{
    const size_t each = UPDATE_DOUBLES * sizeof(double);
    size_t keep = g->in_area ? each * g->queued : 0;
    size_t want = count < g->capacity / 4 ? 4 * count : g->capacity;
    want = want > count ? want : count;
    void *map = nb_gl_staging_grow(&g->area[g->batch & 1], each * want, keep, err);
    if (!map)
        return err->status;
    size_t slots = g->area[g->batch & 1].capacity / each;
    /* slot_address serves both areas and the inline queue: never fewer
     * than NB_G6_INLINE_MAX, which the next batch may fill before any
     * area_room (a small area, 32 slots, used to shrink it below that) */
    size_t room = slots > NB_G6_INLINE_MAX ? slots : NB_G6_INLINE_MAX;
    if (grow_host((void **)&g->slot_address, room, sizeof *g->slot_address, err) != NB_OK)
        return err->status;
    if (!g->in_area)
        memcpy(map, g->first, each * g->queued);
    g->area_map = map;
    g->area_slots = slots;
    g->in_area = 1;
    return NB_OK;
}

/* An update as g6_scatter.comp reads it, eight pairs of doubles: (x, t),
 * (v, m), (a/2, id), (jerk/6, address).  Pairs of the vector extension of
 * GCC and Clang (SSE2 on x86-64, NEON on AArch64), loaded from the
 * caller's arrays and stored 16 bytes at a time into the queue's next
 * slot, which a put takes only once its numbers have passed. */
typedef double pair2 __attribute__((vector_size(16)));

static inline pair2 pair_at(const double *p)
{
    pair2 r;
    memcpy(&r, p, sizeof r);
    return r;
}

static inline void pair_to(double *to, pair2 w)
{
    memcpy(to, &w, sizeof w);
}

/* The next slot of the queue (in the batch's area past the inline ones). */
static inline double *next_slot(struct nb_g6_block *g)
{
    return (g->in_area ? g->area_map : g->first) + UPDATE_DOUBLES * g->queued;
}

/* The update written at `to`; whether its numbers are all finite (a tree
 * of sums, as parts_finite; id and address are), and *v2 its squared
 * speed. */
static inline int write_update(double *to, uint32_t address, int32_t id, double t,
                               double mass, const double *x, const double *v,
                               const double *a2, const double *j6, double *v2)
{
    pair2 w0 = pair_at(x), w1 = { x[2], t }, w2 = pair_at(v), w3 = { v[2], mass };
    pair2 w4 = pair_at(a2), w5 = { a2[2], (double)id }, w6 = pair_at(j6);
    pair2 w7 = { j6[2], (double)address };
    pair_to(to, w0), pair_to(to + 2, w1), pair_to(to + 4, w2), pair_to(to + 6, w3);
    pair_to(to + 8, w4), pair_to(to + 10, w5), pair_to(to + 12, w6), pair_to(to + 14, w7);
    pair2 sum = ((w0 + w1) + (w2 + w3)) + ((w4 + w5) + (w6 + w7));
    pair2 zero = sum - sum, vv = w2 * w2;
    *v2 = vv[0] + vv[1] + v[2] * v[2];
    return zero[0] + zero[1] == 0.0;
}

/* The update written at next_slot, taken: its address marked queued. */
static inline void take_slot(struct nb_g6_block *g, int track_mass, uint32_t address,
                             double mass, double v2)
{
    uint64_t *word = &g->queued_bits[address >> 6], bit = (uint64_t)1 << (address & 63);
    g->duplicates |= (*word & bit) != 0;
    *word |= bit;
    g->slot_address[g->queued++] = address;
    if (!track_mass) {
        g->mass_known = 0;
    } else if (g->mass_known) {
        g->mass_sum += mass - g->mass[address];
        g->mass[address] = mass;
    }
    g->v2_max = v2 > g->v2_max ? v2 : g->v2_max;    /* finite: no fmax call */
}

static void queue_one(struct nb_g6_block *g, int track_mass, uint32_t address,
                      const struct nb_jparticle *p)
{
    double v2;
    write_update(next_slot(g), address, p->id, p->t, p->mass, p->x, p->v, p->a2, p->j6, &v2);
    take_slot(g, track_mass, address, p->mass, v2);
}

/* The j-memory of a put that the quick test did not pass: its refusal in
 * e (f, address or jp unusable), or the block made at the first put. */
static struct nb_g6_block *put_block(struct nb_forces *f, size_t count,
                                     const uint32_t *address, const struct nb_jparticle *jp,
                                     const char *func, struct nb_error *e)
{
    if (nb_api_need(f, func, "f", e) != NB_OK || nb_g6_need_compute(f, func, e) != NB_OK ||
        (count && (nb_api_need(address, func, "address", e) != NB_OK ||
                   nb_api_need(jp, func, "jp", e) != NB_OK)))
        return NULL;
    return nb_g6_block_of(f, e);
}

/* The quick tests first (no call, no message), the refusal's words only
 * where one fails. */
enum nb_status nb_forces_jmem_put(struct nb_forces *f, size_t count, const uint32_t *address,
                                  const struct nb_jparticle *jp, struct nb_error *err)
{
    const char *func = "nb_forces_jmem_put";
    struct nb_error e;
    struct nb_g6_block *g = f && f->engine == NB_ENGINE_COMPUTE ? f->g6 : NULL;
    if (!g || (count && (!address || !jp))) {
        nb_error_empty(&e);
        if (!(g = put_block(f, count, address, jp, func, &e)))
            return nb_api_fail(err, &e, func);
    }
    for (size_t k = 0; k < count; k++) {
        if (address[k] >= g->capacity)
            return nb_error_set(err, NB_ERR_ARGS, "%s: address %u out of range (the "
                                "j-memory holds %zu; nb_forces_jmem_reserve)", func,
                                (unsigned)address[k], g->capacity);
        if (!(all_finite(&jp[k]) && jp[k].mass >= 0.0)) {
            nb_error_empty(&e);
            if (check_jparticle(&jp[k], k, &e) != NB_OK)
                return nb_api_fail(err, &e, func);
        }
    }
    size_t most = g->queued + count;
    if (most > NB_G6_INLINE_MAX && (!g->in_area || most > g->area_slots)) {
        nb_error_empty(&e);
        if (nb_api_forces_enter(f, &e) != NB_OK)
            return nb_api_fail(err, &e, func);
        /* a queue grown past twice the addresses by duplicates goes out
         * first: no more room than that for puts that replace puts */
        if (g->duplicates && most > 2 * g->capacity) {
            if (nb_g6_flush_queue(f, g, 1, &e) != NB_OK)
                return nb_api_fail(err, &e, func);
            most = count;
        }
        if (most > NB_G6_INLINE_MAX && area_room(g, most, &e) != NB_OK)
            return nb_api_fail(err, &e, func);
    }
    int track = nb_g6_needs_mass(f->precision);
    for (size_t k = 0; k < count; k++)
        queue_one(g, track, address[k], &jp[k]);
    return NB_OK;
}

/* nb_forces_jmem_put_one past its quick test, for its refusals and for
 * making room: apart, so that the quick path saves no registers for it. */
static __attribute__((noinline)) enum nb_status
put_one_general(struct nb_forces *f, uint32_t address, int32_t id, double t, double mass,
                const double *x, const double *v, const double *a2, const double *j6,
                struct nb_error *err)
{
    struct nb_jparticle p = { .t = t, .mass = mass, .id = id };
    const double *from[] = { x, v, a2, j6 };
    double *to[] = { p.x, p.v, p.a2, p.j6 };
    for (int q = 0; q < 4; q++)
        if (!from[q])
            return nb_error_set(err, NB_ERR_ARGS, "nb_forces_jmem_put_one: a coefficient "
                                "array is NULL");
    for (int q = 0; q < 4; q++)
        memcpy(to[q], from[q], 3 * sizeof(double));
    return nb_forces_jmem_put(f, 1, &address, &p, err);
}

enum nb_status nb_forces_jmem_put_one(struct nb_forces *f, uint32_t address, int32_t id,
                                      double t, double mass, const double x[3],
                                      const double v[3], const double a2[3],
                                      const double j6[3], struct nb_error *err)
{
    struct nb_g6_block *g = f && f->engine == NB_ENGINE_COMPUTE ? f->g6 : NULL;
    /* the common case: room for it where it goes (a slot past the inline
     * ones needs the transfer area), and every number fine */
    double v2;
    if (g && x && v && a2 && j6 && address < g->capacity &&
        g->queued < (g->in_area ? g->area_slots : NB_G6_INLINE_MAX) &&
        write_update(next_slot(g), address, id, t, mass, x, v, a2, j6, &v2) &&
        mass >= 0.0) {
        take_slot(g, nb_g6_needs_mass(f->precision), address, mass, v2);
        return NB_OK;
    }
    return put_one_general(f, address, id, t, mass, x, v, a2, j6, err);
}

/* A new batch: no address is queued in it (its area the other one). */
static void empty_queue(struct nb_g6_block *g)
{
    g->queued = 0;
    g->in_area = 0;
    g->duplicates = 0;
    g->batch++;
}

/* The queue's marks cleared, last slot first: the last put of an address
 * finds its bit and clears it; an earlier one, with duplicates, finds it
 * clear and is made dead (address -1, which g6_scatter.comp and
 * nb_g6_carry_queue skip). */
static void settle_queue(struct nb_g6_block *g, double *queue)
{
    for (size_t k = g->queued; k-- > 0;) {
        uint32_t a = g->slot_address[k];
        uint64_t *word = &g->queued_bits[a >> 6], bit = (uint64_t)1 << (a & 63);
        if (*word & bit)
            *word &= ~bit;
        else
            queue[UPDATE_DOUBLES * k + 15] = -1.0;
    }
}

/* The queued updates (at most NB_G6_INLINE_MAX) into dst, ascending by
 * address, each address's last, for the block to carry (g6_jmemory.glsl);
 * then an empty queue. */
void nb_g6_carry_queue(struct nb_g6_block *g, double *dst)
{
    int order[NB_G6_INLINE_MAX];
    int n = 0;
    const double *queue = g->first;
    settle_queue(g, g->first);
    for (int q = 0; q < (int)g->queued; q++) {   /* insertion sort: a few dozen */
        double at = queue[UPDATE_DOUBLES * (size_t)q + 15];
        if (at < 0.0)
            continue;
        int k = n++;
        for (; k > 0 && queue[UPDATE_DOUBLES * (size_t)order[k - 1] + 15] > at; k--)
            order[k] = order[k - 1];
        order[k] = q;
    }
    for (int q = 0; q < n; q++)
        memcpy(dst + UPDATE_DOUBLES * (size_t)q, queue + UPDATE_DOUBLES * (size_t)order[q],
               UPDATE_DOUBLES * sizeof(double));
    g->carried = (size_t)n;
    empty_queue(g);
}

/* The queued updates onto the device, then an empty queue. */
enum nb_status nb_g6_flush_queue(struct nb_forces *f, struct nb_g6_block *g, int fence,
                                 struct nb_error *err)
{
    size_t bytes = UPDATE_DOUBLES * sizeof(double) * g->queued;
    struct nb_gl_staging *area = &g->area[g->batch & 1];
    GLuint prog;
    if (g->queued == 0)
        return NB_OK;
    if (nb_gl_program(f->gl, "g6_scatter", &prog, err) != NB_OK ||
        (!g->in_area && area_room(g, g->queued, err) != NB_OK))
        return err->status;
    settle_queue(g, g->area_map);
    GLuint updates = area->buffer;
    if (!updates) {             /* no buffer storage: a copy into B_UPDATE */
        if (nb_gl_ensure_buffer(&g->buf[B_UPDATE], &g->size[B_UPDATE], bytes, "j-updates",
                                err) != NB_OK ||
            nb_gl_staging_send(area, g->buf[B_UPDATE], 0, bytes, "sending j-updates",
                               err) != NB_OK)
            return err->status;
        updates = g->buf[B_UPDATE];
    }
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)g->queued);
    for (int k = J_X; k <= J_J; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_JX + (GLuint)k, g->buf[k]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_UPDATE, updates);
    nb_gl_dispatch(g->queued, 256);
    g->scatters++;
    if (fence)
        nb_gl_staging_sent(area);
    empty_queue(g);
    return nb_gl_check("scattering j-updates", err);
}

enum nb_status nb_g6_know_mass(struct nb_forces *f, struct nb_g6_block *g,
                               struct nb_error *err)
{
    if (g->mass_known || g->capacity == 0)
        return NB_OK;
    if (nb_g6_flush_queue(f, g, 1, err) != NB_OK)
        return err->status;
    double *vm = nb_alloc(g->capacity, 4 * sizeof *vm, "reading the masses back", err);
    if (!vm)
        return err->status;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, g->buf[J_V]);     /* (v, m) by address */
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, 32 * g->capacity, vm);
    double sum = 0.0;
    for (size_t a = 0; a < g->capacity; a++)
        sum += g->mass[a] = vm[4 * a + 3];
    free(vm);
    g->mass_sum = sum;
    g->mass_known = 1;
    return nb_gl_check("reading the j-memory's masses", err);
}

static int compare_ids(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static enum nb_status search(struct nb_forces *f, struct nb_g6_block *g, size_t room,
                             uint32_t *count, int32_t *list, struct nb_error *err)
{
    GLuint prog;
    size_t ni = g->ni;
    /* mode G's i-area and fixed64's are double */
    const char *name = g->mode == NB_PRECISION_G ||
                       nb_g6_positions(g) == NB_POSITIONS_FIXED64 ? "g6_neighbours_d"
                     : nb_g6_float_positions(g) ? "g6_neighbours_pf" : "g6_neighbours";
    if (nb_gl_program(f->gl, name, &prog, err) != NB_OK ||
        nb_gl_ensure_buffer(&g->buf[B_COUNT], &g->size[B_COUNT], 4 * ni, "neighbour counts",
                            err) != NB_OK ||
        nb_gl_ensure_buffer(&g->buf[B_LIST], &g->size[B_LIST], 4 * ni * (room ? room : 1),
                            "neighbour lists", err) != NB_OK)
        return err->status;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->buf[B_COUNT]);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, (GLsizeiptr)(4 * ni),
                         GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    uint64_t mask = nb_gl_use_program(f->gl, name);
    (void)prog;
    if (HAS(mask, NB_LOC_N))
        glUniform1i(nb_gl_loc(NB_LOC_N), (int)g->nj);
    if (HAS(mask, NB_LOC_G6_NB_MAX))
        glUniform1i(nb_gl_loc(NB_LOC_G6_NB_MAX), (int)room);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_JP, g->buf[J_P]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_I, g->i_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_IF, g->i_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_NB_COUNT, g->buf[B_COUNT]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_G6_NB_LIST, g->buf[B_LIST]);
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)g->nj, 256), (GLuint)ni, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, g->buf[B_COUNT]);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, 4 * ni, count);
    if (room) {
        glBindBuffer(GL_COPY_READ_BUFFER, g->buf[B_LIST]);
        nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, 4 * ni * room, list);
    }
    if (nb_gl_check("the neighbour search", err) != NB_OK)
        return err->status;
    for (size_t k = 0; k < ni && room; k++)
        qsort(list + k * room, count[k] < room ? count[k] : room, sizeof *list, compare_ids);
    return NB_OK;
}

enum nb_status nb_forces_block_neighbours(struct nb_forces *f, size_t room, uint32_t *count,
                                          int32_t *list, struct nb_error *err)
{
    const char *func = "nb_forces_block_neighbours";
    struct nb_error e;
    nb_error_empty(&e);
    struct nb_g6_block *g = nb_g6_block_called(f, func, &e);
    if (e.status != NB_OK)
        return nb_api_fail(err, &e, func);
    if (!g || !g->finished)
        return nb_error_set(err, NB_ERR_ARGS, "%s: no block was finished "
                            "(nb_forces_block_finish)", func);
    if (!g->has_h2)
        return nb_error_set(err, NB_ERR_ARGS, "%s: the block was started without h2",
                            func);
    if (g->ni && (nb_api_need(count, func, "count", &e) != NB_OK ||
                  (room && nb_api_need(list, func, "list", &e) != NB_OK)))
        return nb_api_fail(err, &e, func);
    if (room > (size_t)INT32_MAX / (g->ni ? g->ni : 1) / 4)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: room %zu is too large", func, room);
    if (g->ni == 0)
        return NB_OK;
    if (g->nj == 0) {
        memset(count, 0, g->ni * sizeof *count);
        return NB_OK;
    }
    if (nb_api_forces_enter(f, &e) != NB_OK || search(f, g, room, count, list, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    return NB_OK;
}

size_t nb_forces_block_size(const struct nb_forces *f)
{
    return f && f->engine == NB_ENGINE_COMPUTE ? BLOCK_MAX : 0;
}
