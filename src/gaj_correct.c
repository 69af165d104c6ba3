/* gaj_correct.c - the Hermite corrector on the device (correct.comp) and
 * the blocks found where the steps' levels live (find_block.comp): a
 * block step of `glnbody run --predict gpu --correct gpu` sends nothing
 * up and reads back 288 bytes, the counts of the levels after the block
 * and its failures, from which the host takes the next block's time and
 * size.  No index, force or corrected particle crosses the bus.
 *
 * Behind each block's corrector the GPU finds the next block, predicts
 * the j-set to its time, both read from the levels (`ahead`), and runs the
 * next block's force pass as the corrector's last group planned it
 * (gaj_planned.c), while the host waits for the report: the host's next
 * block step then issues nothing before its corrector, and the GPU does
 * not wait for the host between blocks (Makino & Aarseth 1992's steps for
 * block k+1 need only block k's levels).
 *
 * The corrector keeps, a particle, 16 doubles: v, a, jerk, a2, a3 and one
 * unused (the GAJ pipeline's x0 and t0 are the rest of the state); the
 * block state holds the levels and their counts.  predict.comp takes v, a,
 * jerk from here (NB_PREDICT_DSTATE).  The host's copy of the state goes
 * stale and comes back on request (nb_gaj_corrector_read). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaj_internal.h"
#include "nb_hermite.h"

_Static_assert(NB_CORRECT_LEVEL_OF_ONE == NB_STEP_LEVEL_OF_ONE,
               "correct.comp's level of a step of 1");
_Static_assert(NB_CORRECT_LEVELS == NB_STEP_LEVELS && NB_BLOCK_LEVELS == NB_STEP_LEVELS,
               "the block state's levels");
_Static_assert(NB_CORRECT_GROUP >= NB_CORRECT_LEVELS, "correct.comp plans the next block "
               "with an invocation a level");

#define DSTATE_DOUBLES 16
#define HEADER_BYTES (4 * NB_BLOCK_STATE_HEADER)
/* The report (block_state.glsl's header as correct.comp leaves it): after
 * the counts, the first failed slots; from byte NEXT_T_AT, the next
 * block's time (a double); then the failed slots' particles. */
#define FIRST_BAD NB_STEP_LEVELS
#define FIRST_SMALL (NB_STEP_LEVELS + 1)
#define NEXT_T_AT 272
#define BAD_PARTICLE (NB_STEP_LEVELS + 6)
#define SMALL_PARTICLE (NB_STEP_LEVELS + 7)
/* The read-back area: the block state's header (correct.comp's Out),
 * then from here each slot's criterion and m a1.(x1 - xp), two doubles,
 * copied from correct.comp's Aux only where the host reads them. */
#define AUX_AT HEADER_BYTES
/* find_block.comp's chunks (work groups) at most: each sums the counts
 * of the chunks before it. */
#define FIND_CHUNKS_MAX 1024
/* Filling the state (load) is memory bound, page faults included: threads
 * pay above a few thousand particles. */
#define LOAD_PARALLEL_MIN 4096

struct nb_gaj_corrector {
    struct nb_gl *gl;
    GLuint ds;                  /* DSTATE_DOUBLES a particle */
    GLuint block_state;         /* header, then a uint level a particle */
    GLuint chunk_levels;        /* find_block.comp's chunks' counts by level */
    GLuint aux;                 /* correct.comp's two doubles a slot */
    size_t ds_capacity, state_capacity, levels_capacity, aux_capacity, n;
    int per, chunks;            /* find_block.comp's particles an invocation, chunks */
    struct nb_gl_staging out;   /* the header and the aux doubles, read back */
    double ahead_t;             /* the block whose passes are queued (NAN: none) */
    int ahead_taken;            /* its prediction was asked for: find it too */
    /* Its force pass, planned by correct.comp (gaj_planned.c): the plan,
     * two timers used in turn (a pass is queued before the last is read),
     * the one of the pass queued last and of the pass taken; the size of
     * the block queued (0: none) and of the one taken. */
    GLuint plan;
    size_t plan_capacity;
    struct nb_gpu_timer plan_timer[2];
    int queued_timer, taken_timer;
    size_t forces_n, forces_taken_n;
};

struct nb_gaj_corrector *nb_gaj_corrector_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_gaj_corrector *c = nb_alloc(1, sizeof *c, "the device corrector", err);
    if (!c)
        return NULL;
    c->gl = gl;
    c->ahead_t = NAN;
    nb_gl_staging_init(&c->out, 1);
    nb_gpu_timer_init(&c->plan_timer[0], gl);
    nb_gpu_timer_init(&c->plan_timer[1], gl);
    return c;
}

void nb_gaj_corrector_destroy(struct nb_gaj_corrector *c)
{
    if (!c)
        return;
    GLuint bufs[] = { c->ds, c->block_state, c->chunk_levels, c->plan, c->aux };
    nb_gpu_timer_free(&c->plan_timer[0]);
    nb_gpu_timer_free(&c->plan_timer[1]);
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
        if (bufs[k])
            glDeleteBuffers(1, &bufs[k]);
    nb_gl_staging_free(&c->out);
    free(c);
}

GLuint nb_gaj_corrector_state(const struct nb_gaj_corrector *c)
{
    return c ? c->ds : 0;
}

GLuint nb_gaj_corrector_block_state(const struct nb_gaj_corrector *c)
{
    return c ? c->block_state : 0;
}

int nb_gaj_corrector_ahead(struct nb_gaj_corrector *c, double t)
{
    c->ahead_taken = c->ahead_t == t;
    c->forces_taken_n = c->ahead_taken ? c->forces_n : 0;
    c->ahead_t = NAN;
    c->forces_n = 0;
    return c->ahead_taken;
}

int nb_gaj_corrector_forces_ahead(struct nb_gaj_corrector *c, size_t n_active)
{
    int taken = n_active > 0 && c->forces_taken_n == n_active;
    c->forces_taken_n = 0;
    if (taken)
        c->taken_timer = c->queued_timer;
    return taken;
}

double nb_gaj_corrector_forces_seconds(struct nb_gaj_corrector *c)
{
    return nb_gpu_timer_result(&c->plan_timer[c->taken_timer]);
}

static enum nb_status upload(GLuint *buf, size_t *capacity, const void *data, size_t bytes,
                             const char *what, struct nb_error *err)
{
    if (nb_gl_ensure_buffer(buf, capacity, bytes ? bytes : 16, what, err) != NB_OK)
        return err->status;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, *buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
    return nb_gl_check(what, err);
}

/* find_block.comp's chunks for n particles: NB_FIND_GROUP invocations of
 * `per` particles each, at most FIND_CHUNKS_MAX of them. */
static void size_chunks(struct nb_gaj_corrector *c, size_t n)
{
    size_t per_chunk = (size_t)NB_FIND_GROUP * FIND_CHUNKS_MAX;
    c->per = (int)((n + per_chunk - 1) / per_chunk);
    c->per = c->per < 1 ? 1 : c->per;
    c->chunks = nb_gl_ceil_div((int)n, NB_FIND_GROUP * c->per);
}

/* Each chunk's count of particles at each level or below. */
static int32_t *make_chunk_levels(const struct nb_gaj_corrector *c, size_t n,
                                  const uint8_t *level, struct nb_error *err)
{
    size_t chunks = c->chunks > 0 ? (size_t)c->chunks : 1;
    size_t chunk = (size_t)NB_FIND_GROUP * (size_t)c->per;
    int32_t *w = nb_alloc(chunks * NB_CORRECT_LEVELS, sizeof *w, "the device corrector's "
                          "chunk counts", err);
    for (size_t i = 0; w && i < n; i++)
        w[i / chunk * NB_CORRECT_LEVELS + level[i]]++;
    for (size_t k = 0; w && k < chunks; k++)
        for (int l = 1; l < NB_CORRECT_LEVELS; l++)
            w[k * NB_CORRECT_LEVELS + l] += w[k * NB_CORRECT_LEVELS + l - 1];
    return w;
}

/* The block state of n particles: the counts of their levels, no
 * failures, the levels. */
static uint32_t *make_block_state(size_t n, const uint8_t *level, struct nb_error *err)
{
    uint32_t *w = nb_alloc(NB_BLOCK_STATE_HEADER + n, sizeof *w, "the device corrector's "
                           "levels", err);
    if (!w)
        return NULL;
    memset(w, 0, HEADER_BYTES);
    w[FIRST_BAD] = w[FIRST_SMALL] = UINT32_MAX;
    for (size_t i = 0; i < n; i++)
        w[level[i]]++;
    #pragma omp parallel for schedule(static) if (n > LOAD_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++)
        w[NB_BLOCK_STATE_HEADER + i] = level[i];
    return w;
}

enum nb_status nb_gaj_corrector_load(struct nb_gaj_corrector *c, size_t n, const double *v,
                                     const double *a, const double *jerk, const double *a2,
                                     const double *a3, const uint8_t *level,
                                     struct nb_error *err)
{
    const double *parts[] = { v, a, jerk, a2, a3 };
    double *ds = nb_alloc(n ? n : 1, DSTATE_DOUBLES * sizeof(double), "the device "
                          "corrector's state", err);
    uint32_t *bs = ds ? make_block_state(n, level, err) : NULL;
    size_chunks(c, n);
    int32_t *cl = bs ? make_chunk_levels(c, n, level, err) : NULL;
    enum nb_status st = cl ? NB_OK : err->status;
    size_t filled = st == NB_OK ? n : 0;
    #pragma omp parallel for schedule(static) if (filled > LOAD_PARALLEL_MIN)
    for (size_t i = 0; i < filled; i++) {
        for (int q = 0; q < 5; q++)
            memcpy(ds + DSTATE_DOUBLES * i + 3 * q, parts[q] + 3 * i, 3 * sizeof(double));
        ds[DSTATE_DOUBLES * i + 15] = 0.0;
    }
    if (st == NB_OK)
        st = upload(&c->ds, &c->ds_capacity, ds, DSTATE_DOUBLES * sizeof(double) * n,
                    "loading the device corrector's state", err);
    if (st == NB_OK)
        st = upload(&c->block_state, &c->state_capacity, bs, HEADER_BYTES + 4 * n,
                    "loading the device corrector's levels", err);
    if (st == NB_OK)
        st = upload(&c->chunk_levels, &c->levels_capacity, cl,
                    4 * NB_CORRECT_LEVELS * (size_t)(c->chunks > 0 ? c->chunks : 1),
                    "loading the device corrector's chunk counts", err);
    /* the read-back area at its largest, a block of everyone: growing it
     * with the blocks made a new mapped buffer five times a run at 64k */
    if (st == NB_OK)
        st = nb_gl_staging_reserve(&c->out, AUX_AT + 16 * n, err);
    if (st == NB_OK)
        st = nb_gl_ensure_buffer(&c->aux, &c->aux_capacity, 16 * n, "the device "
                                 "corrector's record of each slot", err);
    free(ds);
    free(bs);
    free(cl);
    c->n = st == NB_OK ? n : 0;
    c->ahead_t = NAN;
    c->ahead_taken = 0;
    c->forces_n = c->forces_taken_n = 0;
    return st;
}

static void bind_at(GLuint binding, GLuint buffer, size_t at, size_t bytes)
{
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buffer, (GLintptr)at,
                      (GLsizeiptr)bytes);
}

void nb_gaj_steps_prepare(struct nb_gl *gl, int tile, int correct, int ds)
{
    static const char *const host_corrects[] = { "predict_comp", "scatter_comp" };
    static const char *const device_corrects[] = {
        "predict_ds_comp", "find_block_comp", "find_block_predict_comp", "correct_comp",
        "reduce_pair_planned_comp" };
    const char *const *names = correct ? device_corrects : host_corrects;
    size_t count = correct ? sizeof device_corrects / sizeof *device_corrects
                           : sizeof host_corrects / sizeof *host_corrects;
    char planned[48], name[48];
    for (size_t k = 0; k < count; k++) {
        /* the passes that write or read the j-set come in each format */
        int each = !strncmp(names[k], "predict", 7) || !strcmp(names[k], "scatter_comp") ||
                   !strcmp(names[k], "find_block_predict_comp");
        snprintf(name, sizeof name, "%s%s", names[k], ds && each ? "_pds" : "");
        nb_gl_compute_warm(gl, name);
    }
    snprintf(planned, sizeof planned, "gaj_comp_t%d_i%d_planned%s", tile, NB_GAJ_IPT,
             ds ? "_pds" : "");
    if (correct)
        nb_gl_compute_warm(gl, planned);
    while (glGetError() != GL_NO_ERROR)
        continue;               /* a failed build says so again where it is used */
}

/* The block of level <= due, or with `ahead` the block state's next one,
 * into the GAJ pipeline's block indices, by find_block.comp's pass `name`
 * (find_block_predict_comp predicts the j-set too). */
static enum nb_status find(struct nb_gaj_corrector *c, struct nb_gaj_compute *g, int due,
                           int ahead, const char *name, struct nb_error *err)
{
    GLuint prog;
    /* room for everyone: a block found ahead has no size on the host yet */
    GLuint block = nb_gaj_compute_block_buffer(g, c->n, err);
    due = due < NB_STEP_LEVELS - 1 ? due : NB_STEP_LEVELS - 1;
    if (!block || nb_gl_program(c->gl, name, &prog, err) != NB_OK ||
        nb_gl_compute_fits(c->gl, "finding the block on the device", NB_FIND_GROUP,
                           4 * NB_FIND_GROUP, 9, err) != NB_OK)
        return err->status;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_BLOCK_STATE, c->block_state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_FIND_COUNTS, c->chunk_levels);
    bind_at(NB_BIND_ACTIVE, block, 0, 4 * c->n);
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)c->n);
    glUniform1i(nb_gl_loc(NB_LOC_FIND_DUE), due);
    glUniform1i(nb_gl_loc(NB_LOC_FIND_PER), c->per);
    glUniform1i(nb_gl_loc(NB_LOC_AHEAD), ahead);
    glDispatchCompute((GLuint)c->chunks, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return nb_gl_check("finding the block on the device", err);
}

enum nb_status nb_gaj_corrector_find(struct nb_gaj_corrector *c, struct nb_gaj_compute *g,
                                     int due, size_t n_block, struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    int taken = c->ahead_taken;
    c->ahead_taken = 0;
    nb_gaj_compute_state_view(g, &sv);
    if (sv.n != c->n || !c->block_state)
        return nb_error_set(err, NB_ERR_ARGS, "the device corrector holds %zu particles, "
                            "the j-set %zu (load both)", c->n, sv.n);
    if (n_block > c->n)
        return nb_error_set(err, NB_ERR_ARGS, "a block of %zu of %zu particles", n_block,
                            c->n);
    return taken ? NB_OK : find(c, g, due, 0, "find_block_comp", err);
}

/* Behind the corrector of a block: the next block, as its last group
 * planned it, found, and the j-set predicted to its time in the same
 * pass, on the GPU alone. */
static enum nb_status queue_ahead(struct nb_gaj_corrector *c, struct nb_gaj_compute *g,
                                  struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    struct nb_gl_particles j;
    nb_gaj_compute_state_view(g, &sv);
    if (!nb_gaj_compute_stream(g, &j))
        return nb_error_set(err, NB_ERR_ARGS, "the device corrector before load_state");
    const struct { GLuint binding, buffer; } bind[] = {
        { NB_BIND_STATE_X, sv.x }, { NB_BIND_STATE_T0, sv.t0 }, { NB_BIND_STATE_V, sv.v },
        { NB_BIND_DSTATE, c->ds }, { NB_BIND_POS, j.pos_buffer },
        { NB_BIND_VEL, j.vel_buffer }, { NB_BIND_JLO, g->buf[B_JLO].id } };
    char name[48];
    for (size_t k = 0; k < sizeof bind / sizeof bind[0]; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, bind[k].binding, bind[k].buffer);
    nb_gaj_program_name(g, "find_block_predict_comp", name, sizeof name);
    return find(c, g, 0, 1, name, err);
}

/* The report of a block of nb, as correct.comp's last group wrote it. */
static void take_report(const uint32_t *report, size_t nb, struct nb_block_report *r)
{
    memcpy(r->level_count, report, sizeof r->level_count);
    r->bad = report[FIRST_BAD] < nb ? report[FIRST_BAD] : nb;
    r->small = report[FIRST_SMALL] < nb ? report[FIRST_SMALL] : nb;
    r->bad_particle = report[BAD_PARTICLE];
    r->small_particle = report[SMALL_PARTICLE];
}

/* The time of the block after the one at t1, as the host's clock has it
 * (correct.comp's plan_next_block must agree for the passes queued ahead
 * to count). */
static double next_block_time(const struct nb_block_report *r, double t1)
{
    uint64_t levels = 0;
    for (int l = 0; l < NB_STEP_LEVELS; l++)
        if (r->level_count[l])
            levels |= (uint64_t)1 << l;
    return nb_step_next_ends(levels, t1);
}

/* The most particles correct.comp may plan a force pass for (0: none). */
static int plan_most(const struct nb_gaj_plan *pt)
{
    return pt->most > (size_t)INT32_MAX ? INT32_MAX : (int)pt->most;
}

/* The size of the next block (at `planned`) whose force pass correct.comp
 * planned and queued, as the host's clock has it; 0 where it planned none
 * (plan_forces: a block of everyone, or above a dispatch's share). */
static size_t planned_size(const struct nb_block_report *r, double planned,
                           const struct nb_gaj_plan *pt)
{
    int due = nb_step_dividing_level(planned);
    size_t size = 0;
    for (int l = 0; l <= due && l < NB_STEP_LEVELS; l++)
        size += r->level_count[l];
    return size < pt->n && size <= (size_t)plan_most(pt) ? size : 0;
}

/* The doubles of each slot, where the host needs them (a failed slot, a
 * block of everyone): copied behind the passes queued ahead, waited for. */
static enum nb_status read_aux(struct nb_gaj_corrector *c, size_t nb, double *crit,
                               double *dw, struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (nb_gl_staging_fetch_from(&c->out, c->aux, 0, AUX_AT, 16 * nb,
                                 "reading the device corrector's slots", err) != NB_OK)
        return err->status;
    nb_gl_staging_sent(&c->out);
    const char *area = nb_gl_staging_arrived(&c->out, err);
    if (!area)
        return err->status;
    const double *aux = (const double *)(area + AUX_AT);
    for (size_t k = 0; k < nb; k++) {
        crit[k] = aux[2 * k] < 0.0 ? INFINITY : aux[2 * k];
        dw[k] = aux[2 * k + 1];
    }
    return nb_gl_check("the device corrector", err);
}

enum nb_status nb_gaj_corrector_run(struct nb_gaj_corrector *c,
                                    struct nb_gaj_compute *g, double t1, double eta,
                                    double dt_max, struct nb_block_report *report,
                                    double *crit, double *dw, struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    struct nb_gaj_plan pt;
    GLuint prog;
    nb_gaj_compute_state_view(g, &sv);
    size_t nb = sv.n_active;
    if (nb == 0)
        return NB_OK;
    if (sv.n != c->n || !sv.x || !c->block_state)
        return nb_error_set(err, NB_ERR_ARGS, "the device corrector holds %zu particles, "
                            "the j-set %zu (load both)", c->n, sv.n);
    if (nb_gl_program(c->gl, "correct_comp", &prog, err) != NB_OK ||
        nb_gl_compute_fits(c->gl, "the device corrector", NB_CORRECT_GROUP,
                           24 * NB_CORRECT_LEVELS + 8, 12, err) != NB_OK ||
        nb_gl_staging_reserve(&c->out, AUX_AT + 16 * nb, err) != NB_OK)
        return err->status;
    if (!c->out.buffer)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the device corrector needs "
                            "persistently mapped buffers (OpenGL 4.4 or "
                            "GL_ARB_buffer_storage)");
    int planning = nb_gaj_compute_plan(g, &pt);
    if (nb_gl_ensure_buffer(&c->plan, &c->plan_capacity, 4 * NB_FORCE_PLAN_WORDS,
                            "the next block's force plan", err) != NB_OK)
        return err->status;
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);     /* the block's sums, written */
    glUseProgram(prog);
    glUniform4i(nb_gl_loc(NB_LOC_FORCE_PLAN), pt.tile, pt.fill, plan_most(&pt), (int)pt.n);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_FORCE_PLAN, c->plan);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_FIND_COUNTS, c->chunk_levels);
    glUniform1i(nb_gl_loc(NB_LOC_FIND_CHUNK), NB_FIND_GROUP * c->per);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)nb);
    glUniform1d(nb_gl_loc(NB_LOC_TIME), t1);
    glUniform2d(nb_gl_loc(NB_LOC_CORRECT_STEP), eta, dt_max);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_X, sv.x);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_T0, sv.t0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_V, sv.v);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_DSTATE, c->ds);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_BLOCK_STATE, c->block_state);
    bind_at(NB_BIND_ACTIVE, sv.active, 0, 4 * nb);
    bind_at(NB_BIND_OUT, sv.acc, sv.acc_at, 16 * nb);
    bind_at(NB_BIND_OUT2, sv.jerk, sv.jerk_at, 16 * nb);
    bind_at(NB_BIND_CORRECTED, c->out.buffer, 0, AUX_AT);
    bind_at(NB_BIND_CORRECTED_AUX, c->aux, 0, 16 * nb);
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)nb, NB_CORRECT_GROUP), 1, 1);
    glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    nb_gl_staging_sent(&c->out);
    if (queue_ahead(c, g, err) != NB_OK ||
        (planning && nb_gaj_compute_queue_planned(g, &pt, c->plan,
                                                  &c->plan_timer[c->queued_timer ^ 1],
                                                  err) != NB_OK))
        return err->status;
    c->queued_timer ^= planning;
    glFlush();
    const char *area = nb_gl_staging_arrived(&c->out, err);
    if (!area)
        return err->status;
    take_report((const uint32_t *)area, nb, report);
    double planned;
    memcpy(&planned, area + NEXT_T_AT, sizeof planned);
    if (report->bad == nb && report->small == nb && planned == next_block_time(report, t1)) {
        c->ahead_t = planned;
        c->forces_n = planned_size(report, planned, &pt);
    }
    if (report->bad < nb || report->small < nb || nb == c->n)
        return read_aux(c, nb, crit, dw, err);
    return nb_gl_check("the device corrector", err);
}

enum nb_status nb_gaj_corrector_read(struct nb_gaj_corrector *c,
                                     const struct nb_gaj_compute *g, double *x, double *v,
                                     double *a, double *jerk, double *a2, double *a3,
                                     double *t0, uint8_t *level, struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    double *parts[] = { v, a, jerk, a2, a3 };
    nb_gaj_compute_state_view(g, &sv);
    size_t n = c->n;
    if (n == 0)
        return NB_OK;
    double *ds = nb_alloc(n, DSTATE_DOUBLES * sizeof(double), "the device corrector's "
                          "state", err);
    uint32_t *lv = ds ? nb_alloc(n, sizeof *lv, "the device corrector's levels", err)
                      : NULL;
    if (!lv) {
        free(ds);
        return err->status;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, c->ds);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, DSTATE_DOUBLES * sizeof(double) * n, ds);
    glBindBuffer(GL_COPY_READ_BUFFER, c->block_state);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, HEADER_BYTES, sizeof *lv * n, lv);
    glBindBuffer(GL_COPY_READ_BUFFER, sv.x);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, 3 * sizeof(double) * n, x);
    glBindBuffer(GL_COPY_READ_BUFFER, sv.t0);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, sizeof(double) * n, t0);
    for (size_t i = 0; i < n; i++) {
        for (int q = 0; q < 5; q++)
            memcpy(parts[q] + 3 * i, ds + DSTATE_DOUBLES * i + 3 * q, 3 * sizeof(double));
        level[i] = (uint8_t)lv[i];
    }
    free(ds);
    free(lv);
    return nb_gl_check("reading the device corrector's state", err);
}
