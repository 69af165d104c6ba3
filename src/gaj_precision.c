/* gaj_precision.c - the GAJ kernel with a selectable accumulation mode
 * (seed 004 Table 1: B..G, and H: int64 fixed point),
 * glsl/gaj_precision.comp, for the compute backend's compute_gaj and
 * read_gaj when its precision is not A.
 *
 * One program per mode ("gaj_prec_comp_<m>"), tile NB_PREC_TILE, one
 * active i-particle per invocation.  The j-range is split into S slices
 * of whole tiles, as gaj_compute.c does (enough work groups to fill about
 * NB_GAJ_PREC_FILL_GROUPS, at most one slice per tile, S = 1 for large
 * blocks), each slice's packed states into part_buf, and
 * "gaj_prec_merge_<m>" adds them per particle in slice order,
 * deterministic (acc_merge: B, G in double; C..F as double-float pairs,
 * within the mode's own bound; H in int64, exact: the sums are bit for
 * bit the one-slice sums).  It reads gaj.comp's
 * j-set (float positions with mass and velocities, from set_j or from the
 * device prediction predict_j) and active indices; mode G reads a double
 * copy of the j-set that set_j uploads here, so G needs host prediction
 * (the device-resident state predicts in float).  Each active particle
 * gets two accumulators, (a, phi) and (jerk, 0), finished on the host in
 * double by precision.c's rule (nb_prec_finish); mode H's int64
 * sums are of m_i m_j times the pair terms and are divided by m_i.
 *
 * Three scales 2^k (nb_precision.h: the bound on every partial sum times
 * 2^k at most 2^NB_PREC_BITS_LARGE for E, F and 2^NB_PREC_BITS_FIXED for
 * H), for a, phi and jerk apart:
 *   E, F  measured: the magnitude kernel ("gaj_prec_comp_m": float sums of
 *         |pair term| of the active particles) twice over, as
 *         force_precision.c's choose_scales; a full pass of its own.
 *   H     analytic, from the whole j-set (never from the block, so a
 *         particle's sums do not depend on which others are active):
 *           |a_ij|   <= m_j 2 / (3 sqrt 3) / eps^2
 *           |phi_ij| <= m_j / eps
 *           |j_ij|   <= m_j |v_ij| / eps^3
 *         each times m_max (H sums m_i m_j terms) and summed over j (mass
 *         M).  The jerk bound: with s = r^2 + eps^2 and v_ij split into
 *         v_par along r_ij and v_perp across it, j_ij / m_j = v_perp /
 *         s^{3/2} + v_par rhat (eps^2 - 2 r^2) / s^{5/2}; both factors are
 *         at most 1 / eps^3 (|1 - 2x| / (1 + x)^{5/2} <= 1 for x = r^2 /
 *         eps^2 >= 0, the maximum at x = 0), and the two parts are
 *         orthogonal, so |j_ij| <= m_j |v_ij| / eps^3.  |v_ij| <= 2 max_j
 *         |v_j|, measured on the device over the very float velocities the
 *         kernel reads (glsl/gaj_vmax.comp, one work group, O(n)), with
 *         2^-20 added for the rounding of |v|.  So H needs eps > 0 and
 *         every mass > 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

enum { S_ACC, S_POT, S_JERK, S_COUNT };     /* the scales 2^k of a run */
#define PROGRAM_M NB_PRECISION_COUNT        /* the magnitude kernel's slot */
/* Work groups that fill a large GPU (132 multiprocessors); j-slices aim at
 * this many, as gaj_compute.c's. */
#define NB_GAJ_PREC_FILL_GROUPS 1024

struct nb_gaj_prec {
    struct nb_gl *gl;
    GLuint out_buf, dpos_buf, dvel_buf, vmax_buf, part_buf;
    size_t out_capacity, dpos_capacity, dvel_capacity, vmax_capacity, part_capacity;
    int force_slices;               /* 0: automatic (nb_gaj_prec_set_slices) */
    int slices;                     /* of the last run */
    /* The j-set as this file knows it: masses (H), and whether the double
     * copy (G) is the current j-set; SIZE_MAX: unknown. */
    size_t n;
    double *m;
    size_t m_cap;
    double mass_sum, mass_max, mass_min;
    int double_valid, predicted;
    /* The last run: mode, block, scales. */
    enum nb_precision mode;
    size_t run_n;
    uint32_t *active;
    size_t active_cap;
    int log2[S_COUNT];
    void *staging;                  /* the double uploads of G */
    size_t staging_cap;             /* bytes */
    struct nb_gl_staging down;      /* results and pre-pass bounds */
    struct nb_gpu_timer timer;
    double pre_seconds;             /* the magnitude or speed pre-pass */
};

/* Grows a host array to at least `bytes`. */
static enum nb_status grow_host(void **ptr, size_t *cap, size_t bytes, const char *what,
                                struct nb_error *err)
{
    if (*cap >= bytes && *ptr)
        return NB_OK;
    free(*ptr);
    *cap = 0;
    if (!(*ptr = nb_alloc(bytes ? bytes : 1, 1, what, err)))
        return NB_ERR_NOMEM;
    *cap = bytes;
    return NB_OK;
}

struct nb_gaj_prec *nb_gaj_prec_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_gaj_prec *p = nb_alloc(1, sizeof *p, "GAJ precision kernel", err);
    if (!p)
        return NULL;
    p->gl = gl;
    p->n = SIZE_MAX;
    nb_gpu_timer_init(&p->timer, gl);
    nb_gl_staging_init(&p->down, 1);
    return p;
}

void nb_gaj_prec_destroy(struct nb_gaj_prec *p)
{
    if (!p)
        return;
    GLuint bufs[5] = { p->out_buf, p->dpos_buf, p->dvel_buf, p->vmax_buf, p->part_buf };
    glDeleteBuffers(5, bufs);
    nb_gpu_timer_free(&p->timer);
    free(p->m);
    free(p->active);
    free(p->staging);
    nb_gl_staging_free(&p->down);
    free(p);
}

/* The masses of the j-set and their sum, largest and smallest. */
static enum nb_status set_masses(struct nb_gaj_prec *p, size_t n, const double *m,
                                 struct nb_error *err)
{
    p->n = SIZE_MAX;
    if (grow_host((void **)&p->m, &p->m_cap, n * sizeof *m, "GAJ precision masses",
                  err) != NB_OK)
        return err->status;
    p->mass_sum = p->mass_max = 0.0;
    p->mass_min = n ? INFINITY : 0.0;
    for (size_t i = 0; i < n; i++) {
        p->m[i] = m[i];
        p->mass_sum += m[i];
        p->mass_max = fmax(p->mass_max, m[i]);
        p->mass_min = fmin(p->mass_min, m[i]);
    }
    p->n = n;
    return NB_OK;
}

/* The j-set in double, (x, m) and (v, 0) per particle, for mode G. */
static enum nb_status upload_double(struct nb_gaj_prec *p, size_t n, const double *x,
                                    const double *v, const double *m,
                                    struct nb_error *err)
{
    size_t bytes = 32 * (n ? n : 1);
    if (grow_host(&p->staging, &p->staging_cap, 2 * bytes, "GAJ precision staging",
                  err) != NB_OK ||
        nb_gl_ensure_buffer(&p->dpos_buf, &p->dpos_capacity, bytes,
                            "double j-positions", err) != NB_OK ||
        nb_gl_ensure_buffer(&p->dvel_buf, &p->dvel_capacity, bytes,
                            "double j-velocities", err) != NB_OK)
        return err->status;
    double *dx = p->staging, *dv = dx + 4 * n;
    for (size_t i = 0; i < n; i++) {
        memcpy(&dx[4 * i], &x[3 * i], 3 * sizeof *x);
        memcpy(&dv[4 * i], &v[3 * i], 3 * sizeof *v);
        dx[4 * i + 3] = m[i];
        dv[4 * i + 3] = 0.0;
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->dpos_buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(32 * n), dx);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->dvel_buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(32 * n), dv);
    return nb_gl_check("uploading the double j-set (precision G)", err);
}

enum nb_status nb_gaj_prec_set_j(struct nb_gaj_prec *p, size_t n, const double *x,
                                 const double *v, const double *m, int with_double,
                                 struct nb_error *err)
{
    p->double_valid = p->predicted = 0;
    if (set_masses(p, n, m, err) != NB_OK ||
        (with_double && upload_double(p, n, x, v, m, err) != NB_OK))
        return err->status;
    p->double_valid = with_double;
    return NB_OK;
}

enum nb_status nb_gaj_prec_set_state(struct nb_gaj_prec *p, size_t n, const double *m,
                                     struct nb_error *err)
{
    p->double_valid = 0;
    p->predicted = 1;
    return set_masses(p, n, m, err);
}

void nb_gaj_prec_forget(struct nb_gaj_prec *p)
{
    if (p)
        p->n = SIZE_MAX;
}

void nb_gaj_prec_predicted(struct nb_gaj_prec *p)
{
    p->double_valid = 0;
    p->predicted = 1;
}

#define HAS(mask, loc) ((mask) >> (loc) & 1)

/* Tiles per slice for a block of n_active against n j-particles: about
 * NB_GAJ_PREC_FILL_GROUPS work groups (or force slices), at most one slice
 * per tile and 65535 (the dispatch limit); all tiles for one slice. */
static int slice_tiles(int n_active, int n, int force)
{
    int groups = nb_gl_ceil_div(n_active, NB_PREC_TILE);
    int tiles = nb_gl_ceil_div(n, NB_PREC_TILE);
    int s = force ? force : nb_gl_ceil_div(NB_GAJ_PREC_FILL_GROUPS, groups);
    if (tiles < 1)
        tiles = 1;
    s = s < 1 ? 1 : s > tiles ? tiles : s > 65535 ? 65535 : s;
    return nb_gl_ceil_div(tiles, s);
}

/* Dispatches program (slot: its mode, or PROGRAM_M) over the block into
 * out (slices of per_slice tiles each, the states of slice y at y
 * n_active), at the scales in p->log2. */
static enum nb_status dispatch(struct nb_gaj_prec *p, GLuint program, int slot,
                               double eps, const struct nb_gaj_inputs *in,
                               size_t n_active, GLuint out, int per_slice, int slices,
                               struct nb_error *err)
{
    uint64_t u = nb_gl_uniforms_of(p->gl, program);
    float sa = ldexpf(1.0f, p->log2[S_ACC]), sp = ldexpf(1.0f, p->log2[S_POT]),
          sj = ldexpf(1.0f, p->log2[S_JERK]);
    glUseProgram(program);
    if (HAS(u, NB_LOC_EPS2))
        glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)(eps * eps));
    if (HAS(u, NB_LOC_PREC_EPS2D))
        glUniform1d(nb_gl_loc(NB_LOC_PREC_EPS2D), eps * eps);
    if (HAS(u, NB_LOC_N))
        glUniform1i(nb_gl_loc(NB_LOC_N), (int)in->n);
    if (HAS(u, NB_LOC_N_ACTIVE))
        glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)n_active);
    if (HAS(u, NB_LOC_SLICE_LEN))
        glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), per_slice);
    if (HAS(u, NB_LOC_J_RANGE))
        glUniform2i(nb_gl_loc(NB_LOC_J_RANGE), (int)in->j_first, (int)in->j_end);
    if (HAS(u, NB_LOC_PREC_SCALE))
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
    if (HAS(u, NB_LOC_PREC_SCALE_J))
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE_J), sj, sj, sj, 1.0f);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_POS, in->pos);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_VEL, in->vel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_ACTIVE, in->active);
    if (slot == NB_PRECISION_G) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_PREC_DPOS, p->dpos_buf);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_PREC_DVEL, p->dvel_buf);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT, out);
    /* A long block (every particle, at start) in several dispatches. */
    size_t per = nb_gl_dispatch_items(in->j_end - in->j_first, NB_PREC_TILE);
    for (size_t k0 = 0; k0 < n_active; k0 += per) {
        size_t count = n_active - k0 < per ? n_active - k0 : per;
        if (HAS(u, NB_LOC_K_FIRST))
            glUniform1i(nb_gl_loc(NB_LOC_K_FIRST), (int)k0);
        glDispatchCompute((GLuint)nb_gl_ceil_div((int)count, NB_PREC_TILE), (GLuint)slices, 1);
        if (k0 + count < n_active)
            glFinish();     /* gl_dispatch.c: never much work queued */
    }
    return nb_gl_check("GAJ precision dispatch", err);
}

/* The first `bytes` of buffer buf, through the mapped download area as
 * gaj_compute.c reads (staging.c: the pageable glGetBufferSubData is slow
 * on NVIDIA); valid until the next fetch, NULL with err on failure. */
static const void *fetch(struct nb_gaj_prec *p, GLuint buf, size_t bytes, const char *what,
                         struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (nb_gl_staging_reserve(&p->down, bytes, err) != NB_OK ||
        nb_gl_staging_fetch(&p->down, buf, 0, bytes, what, err) != NB_OK)
        return NULL;
    return nb_gl_staging_arrived(&p->down, err);
}

/* The k that put each bound at most 2^bits, or NB_ERR_LIMIT. */
static enum nb_status apply_scales(struct nb_gaj_prec *p, const double bound[S_COUNT],
                                   int bits, struct nb_error *err)
{
    static const char *const what[S_COUNT] = { "GAJ acceleration", "GAJ potential",
                                               "GAJ jerk" };
    for (int s = 0; s < S_COUNT; s++)
        if (nb_prec_scale(p->mode, what[s], bound[s], bits, &p->log2[s], err) != NB_OK)
            return err->status;
    return NB_OK;
}

/* program (slot: its mode, or PROGRAM_M) over the block into out_buf, on
 * j-slices merged by `merge` in slice order when there are several
 * (p->slices). */
static enum nb_status run_sliced(struct nb_gaj_prec *p, GLuint program, GLuint merge,
                                 int slot, double eps, const struct nb_gaj_inputs *in,
                                 size_t n_active, struct nb_error *err)
{
    int span = (int)(in->j_end - in->j_first);
    /* j-slices that fill the GPU for one dispatch's share of a long block
     * (gl_dispatch.c; dispatch() cuts it the same way). */
    size_t per = nb_gl_dispatch_items((size_t)span, NB_PREC_TILE);
    int per_slice = slice_tiles((int)(per < n_active ? per : n_active), span, p->force_slices);
    int slices = nb_gl_ceil_div(nb_gl_ceil_div(span, NB_PREC_TILE), per_slice);
    p->slices = slices = slices < 1 ? 1 : slices;
    if (slices == 1)
        return dispatch(p, program, slot, eps, in, n_active, p->out_buf, per_slice, 1, err);
    if (nb_gl_ensure_buffer(&p->part_buf, &p->part_capacity, 64 * n_active * (size_t)slices,
                            "GAJ precision slices", err) != NB_OK ||
        dispatch(p, program, slot, eps, in, n_active, p->part_buf, per_slice, slices,
                 err) != NB_OK)
        return err->status;
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(merge);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)n_active);
    glUniform1i(nb_gl_loc(NB_LOC_SLICES), slices);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_PARTIAL, p->part_buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT, p->out_buf);
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)n_active, 64), 1, 1);
    return nb_gl_check("GAJ precision slice merge", err);
}

/* E, F: the largest float sums of |term| over the block, twice over. */
static enum nb_status measure_bounds(struct nb_gaj_prec *p, double eps,
                                     const struct nb_gaj_inputs *in, size_t n_active,
                                     double bound[S_COUNT], struct nb_error *err)
{
    GLuint program, merge;
    if (nb_gl_program(p->gl, "gaj_prec_comp_m", &program, err) != NB_OK ||
        nb_gl_program(p->gl, "gaj_prec_merge_m", &merge, err) != NB_OK)
        return err->status;
    nb_gpu_timer_start(&p->timer);
    enum nb_status st = run_sliced(p, program, merge, PROGRAM_M, eps, in, n_active, err);
    p->pre_seconds = nb_gpu_timer_stop(&p->timer);
    const float *s = NULL;
    if (st != NB_OK || !(s = fetch(p, p->out_buf, 64 * n_active, "reading the GAJ "
                                   "magnitude sums", err)))
        return err->status;
    bound[S_ACC] = bound[S_POT] = bound[S_JERK] = 0.0;
    for (size_t k = 0; k < n_active; k++, s += 16) {
        for (int c = 0; c < 3; c++) {
            bound[S_ACC] = fmax(bound[S_ACC], s[c]);
            bound[S_JERK] = fmax(bound[S_JERK], s[8 + c]);
        }
        bound[S_POT] = fmax(bound[S_POT], s[3]);
        for (int c = 0; c < 12; c++)
            if (!isfinite(s[c]))
                return nb_error_set(err, NB_ERR_NUMERIC, "GAJ precision %s: the pair "
                                    "terms of particle %u are not finite (two particles "
                                    "at one place with softening 0?)",
                                    nb_precision_name(p->mode), (unsigned)p->active[k]);
    }
    for (int b = 0; b < S_COUNT; b++)
        bound[b] *= 2.0;
    return NB_OK;
}

/* H: 2 max_j |v_j| of the device's j-set (gaj_vmax.comp). */
static enum nb_status relative_speed_bound(struct nb_gaj_prec *p,
                                           const struct nb_gaj_inputs *in, double *vrel,
                                           struct nb_error *err)
{
    GLuint program;
    if (nb_gl_program(p->gl, "gaj_prec_vmax", &program, err) != NB_OK ||
        nb_gl_ensure_buffer(&p->vmax_buf, &p->vmax_capacity, 16, "j-speed bound",
                            err) != NB_OK)
        return err->status;
    nb_gpu_timer_start(&p->timer);
    glUseProgram(program);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)in->n);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_POS, in->pos);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_VEL, in->vel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT, p->vmax_buf);
    glDispatchCompute(1, 1, 1);
    p->pre_seconds = nb_gpu_timer_stop(&p->timer);
    const float *r = NULL;
    if (nb_gl_check("j-speed bound dispatch", err) != NB_OK ||
        !(r = fetch(p, p->vmax_buf, 8, "reading the j-speed bound", err)))
        return err->status;
    if (!isfinite(r[0]) || !isfinite(r[1]))
        return nb_error_set(err, NB_ERR_NUMERIC, "GAJ precision H: a j-particle's "
                            "position or velocity is not finite (or its speed "
                            "overflows float)");
    *vrel = 2.0 * (double)r[0] * (1.0 + 0x1p-20);
    return NB_OK;
}

/* H: the analytic bounds of the header, or a refusal. */
static enum nb_status fixed_bounds(struct nb_gaj_prec *p, double eps,
                                   const struct nb_gaj_inputs *in, double bound[S_COUNT],
                                   struct nb_error *err)
{
    double vrel = 0.0, mm = p->mass_max * p->mass_sum;
    if (!(eps > 0.0))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "GAJ precision H needs softening "
                            "> 0: its fixed-point ranges are set from the bounds M / "
                            "eps^2 (acceleration) and M |v| / eps^3 (jerk)");
    if (!(p->mass_min > 0.0))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "GAJ precision H sums m_i m_j "
                            "times the pair terms and divides by m_i: every mass must "
                            "be > 0 (the smallest is %g)", p->mass_min);
    if (relative_speed_bound(p, in, &vrel, err) != NB_OK)
        return err->status;
    bound[S_ACC] = mm * (2.0 / (3.0 * sqrt(3.0))) / (eps * eps);
    bound[S_POT] = mm / eps;
    bound[S_JERK] = mm * vrel / (eps * eps * eps);
    return NB_OK;
}

static enum nb_status choose_scales(struct nb_gaj_prec *p, double eps,
                                    const struct nb_gaj_inputs *in, size_t n_active,
                                    struct nb_error *err)
{
    double bound[S_COUNT];
    p->log2[S_ACC] = p->log2[S_POT] = p->log2[S_JERK] = 0;
    p->pre_seconds = 0.0;
    if (p->mode == NB_PRECISION_E || p->mode == NB_PRECISION_F) {
        if (measure_bounds(p, eps, in, n_active, bound, err) != NB_OK)
            return err->status;
        return apply_scales(p, bound, NB_PREC_BITS_LARGE, err);
    }
    if (p->mode != NB_PRECISION_H)
        return NB_OK;
    if (fixed_bounds(p, eps, in, bound, err) != NB_OK)
        return err->status;
    return apply_scales(p, bound, NB_PREC_BITS_FIXED, err);
}

/* What a run needs of the j-set, or a refusal naming the missing call. */
static enum nb_status check_j_set(const struct nb_gaj_prec *p,
                                  const struct nb_gaj_inputs *in, struct nb_error *err)
{
    if (p->n != in->n)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ precision %s: call set_j or "
                            "load_state after set_precision",
                            nb_precision_name(p->mode));
    if (p->mode == NB_PRECISION_G && !p->double_valid && p->predicted)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "GAJ precision G needs the "
                            "j-particles in double, and the device-resident Hermite "
                            "state predicts them in float (predict.comp); use "
                            "--predict host");
    if (p->mode == NB_PRECISION_G && !p->double_valid)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ precision G: call set_j after "
                            "set_precision (set_j uploads its double j-set)");
    return NB_OK;
}

enum nb_status nb_gaj_prec_run(struct nb_gaj_prec *p, enum nb_precision mode, double eps,
                               const struct nb_gaj_inputs *in, size_t n_active,
                               const uint32_t *active, struct nb_error *err)
{
    char name[32];
    GLuint program, merge = 0;
    p->run_n = 0;
    p->slices = 1;
    p->pre_seconds = 0.0;
    if (mode == NB_PRECISION_A || mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ precision kernel: mode %d", (int)mode);
    p->mode = mode;
    snprintf(name, sizeof name, "gaj_prec_comp_%c", 'a' + (int)mode);
    /* built first, so that a broken shader fails even for an empty block */
    if (nb_prec_supported(mode, err) != NB_OK ||
        nb_gl_program(p->gl, name, &program, err) != NB_OK)
        return err->status;
    snprintf(name, sizeof name, "gaj_prec_merge_%c", 'a' + (int)mode);
    if (nb_gl_program(p->gl, name, &merge, err) != NB_OK)
        return err->status;
    if (n_active == 0)
        return NB_OK;
    if (check_j_set(p, in, err) != NB_OK ||
        grow_host((void **)&p->active, &p->active_cap, 4 * n_active, "GAJ precision "
                  "block", err) != NB_OK ||
        nb_gl_ensure_buffer(&p->out_buf, &p->out_capacity, 64 * n_active,
                            "GAJ precision results", err) != NB_OK)
        return err->status;
    memcpy(p->active, active, 4 * n_active);
    if (choose_scales(p, eps, in, n_active, err) != NB_OK)
        return err->status;
    nb_gpu_timer_start(&p->timer);
    enum nb_status st = run_sliced(p, program, merge, (int)mode, eps, in, n_active, err);
    nb_gpu_timer_end(&p->timer);
    if (st == NB_OK)
        p->run_n = n_active;
    return st;
}

/* Component c of one accumulator's eight words, finished in double (H
 * sums m_i m_j terms). */
static double finish(enum nb_precision mode, const uint32_t *w, int c, int k, double m_i)
{
    double v = nb_prec_finish(mode, w, c, k);
    return mode == NB_PRECISION_H ? v / m_i : v;
}

enum nb_status nb_gaj_prec_read(struct nb_gaj_prec *p, double *acc, double *jerk,
                                double *pot, struct nb_error *err)
{
    if (p->run_n == 0)
        return NB_OK;
    const uint32_t *words = fetch(p, p->out_buf, 64 * p->run_n, "reading GAJ "
                                  "precision results", err);
    if (!words)
        return err->status;
    for (size_t k = 0; k < p->run_n; k++) {
        const uint32_t *w = words + 16 * k;
        double m_i = p->m[p->active[k]];
        for (int c = 0; c < 3; c++) {
            acc[3 * k + c] = finish(p->mode, w, c, p->log2[S_ACC], m_i);
            jerk[3 * k + c] = finish(p->mode, w + 8, c, p->log2[S_JERK], m_i);
        }
        pot[k] = finish(p->mode, w, 3, p->log2[S_POT], m_i);
    }
    return NB_OK;
}

enum nb_status nb_gaj_prec_read_fixed(struct nb_gaj_prec *p, int64_t *fixed, int log2[3],
                                      struct nb_error *err)
{
    if (p->mode != NB_PRECISION_H)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ fixed-point sums: the last GAJ "
                            "evaluation was not precision H");
    if (p->run_n) {
        const void *words = fetch(p, p->out_buf, 64 * p->run_n, "reading GAJ precision "
                                  "results", err);
        if (!words)
            return err->status;
        memcpy(fixed, words, 64 * p->run_n);
    }
    log2[0] = p->log2[S_ACC];
    log2[1] = p->log2[S_POT];
    log2[2] = p->log2[S_JERK];
    return NB_OK;
}

double nb_gaj_prec_seconds(struct nb_gaj_prec *p)
{
    return p->pre_seconds + (p->run_n ? nb_gpu_timer_result(&p->timer) : 0.0);
}

void nb_gaj_prec_set_slices(struct nb_gaj_prec *p, int slices)
{
    p->force_slices = slices > 0 ? slices : 0;
}

void nb_gaj_prec_describe(const struct nb_gaj_prec *p, char *buf, size_t size)
{
    snprintf(buf, size, "gaj-prec%s-t%d-s%d", nb_precision_name(p->mode), NB_PREC_TILE,
             p->slices ? p->slices : 1);
}
