/* force_precision.c - the GA kernel with a selectable accumulation mode
 * (seed 004 Table 1: B..G, and H: int64 fixed point), glsl/ga_precision.comp.
 *
 * One program per mode ("ga_prec_comp_<m>"), tile NB_PREC_TILE, one
 * i-particle per invocation, no j-splitting.  Results come back at their
 * full precision and are finished on the host in double:
 *   B, G  dvec4 sums;
 *   C, D  hs + ls (floats);
 *   E     (hs - LARGE) + ls, divided by the input scale 2^k;
 *   F     (hs - LARGE) + li 2^-27 (LOWER_FACTOR_1), divided by 2^k;
 *   H     int64 sums of m_i m_j f_ij 2^k, times 2^-k, divided by m_i.
 * The scales 2^k of E, F and H (nb_precision.h) come from a bound on every
 * partial sum.  H has 62 bits and takes the analytic bound |a_ij| <= m_j
 * 2 / (3 sqrt 3) / eps^2 (the maximum of r / (r^2 + eps^2)^{3/2}) and
 * |phi_ij| <= m_j / eps, summed over j (mass M), times m_max for its
 * forces; so it needs eps > 0 and every mass > 0 (it divides by m_i).  E
 * and F have only 2^20 above a quantum of 2^-27 (F) or ulp(LARGE) (E):
 * the analytic bound is ~2^11 above the actual sums of a Plummer sphere or
 * a random cube at eps = 0.01, and those 11 bits came straight off their
 * accuracy (f_err 2e-7 for F instead of B's 3e-8).  So they first run the
 * magnitude kernel ("m": float sums of |pair term| per particle, the
 * largest possible partial sum) and take the scale from its maximum, twice
 * over for the float rounding of those sums.  The pre-pass is a full O(N^2)
 * pass of its own and is counted in their time.  The rules themselves are
 * precision.c's, shared with the other precision kernels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

struct nb_prec {
    struct nb_gl *gl;
    GLuint pos_buf, dpos_buf, out_buf;
    size_t pos_capacity, dpos_capacity, out_capacity;
    size_t n;
    double *m;                  /* host copy of the masses (mode H) */
    void *staging;              /* 32 bytes a particle */
    size_t staging_n;
    enum nb_precision mode;     /* of the last run */
    size_t run_n;
    int acc_log2, pot_log2;     /* scales 2^k of the last run */
    size_t i_first, i_end;      /* the i-particles the main pass must cover */
    struct nb_gpu_timer timer;
    double seconds;
};

struct nb_prec *nb_prec_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_prec *p = nb_alloc(1, sizeof *p, "precision kernel", err);
    if (!p)
        return NULL;
    p->gl = gl;
    p->i_end = SIZE_MAX;
    nb_gpu_timer_init(&p->timer, gl);
    return p;
}

void nb_prec_destroy(struct nb_prec *p)
{
    if (!p)
        return;
    GLuint bufs[3] = { p->pos_buf, p->dpos_buf, p->out_buf };
    glDeleteBuffers(3, bufs);
    nb_gpu_timer_free(&p->timer);
    free(p->m);
    free(p->staging);
    free(p);
}

static enum nb_status ensure_host(struct nb_prec *p, size_t n, struct nb_error *err)
{
    if (p->staging_n >= n && p->staging)
        return NB_OK;
    free(p->staging);
    free(p->m);
    p->staging = nb_alloc(n ? n : 1, 32, "precision staging", err);
    p->m = nb_alloc(n ? n : 1, sizeof *p->m, "precision masses", err);
    p->staging_n = p->staging && p->m ? n : 0;
    return p->staging_n == n ? NB_OK : NB_ERR_NOMEM;
}

enum nb_status nb_prec_set_particles(struct nb_prec *p, size_t n, const double *x,
                                     const double *m, struct nb_error *err)
{
    size_t bytes = n ? n : 1;
    if (ensure_host(p, n, err) != NB_OK ||
        nb_gl_ensure_buffer(&p->pos_buf, &p->pos_capacity, 16 * bytes,
                            "precision particle buffer", err) != NB_OK ||
        nb_gl_ensure_buffer(&p->dpos_buf, &p->dpos_capacity, 32 * bytes,
                            "double particle buffer", err) != NB_OK)
        return err->status;
    double *d = p->staging;
    for (size_t i = 0; i < n; i++) {
        d[4 * i] = x[3 * i], d[4 * i + 1] = x[3 * i + 1], d[4 * i + 2] = x[3 * i + 2];
        d[4 * i + 3] = p->m[i] = m[i];
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->dpos_buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(32 * n), d);
    nb_gl_pack_particles(p->staging, n, x, m);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->pos_buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(16 * n), p->staging);
    p->n = n;
    return nb_gl_check("uploading particles (precision kernel)", err);
}

/* Dispatches program `name` over the i-particles [lo, hi) (every j of the
 * n) into out_buf, timed, cut as gl_dispatch.c says. */
static enum nb_status dispatch(struct nb_prec *p, const char *name, enum nb_precision mode,
                               size_t n, size_t lo, size_t hi, double eps, double *seconds,
                               struct nb_error *err)
{
    GLuint program;
    if (nb_gl_program(p->gl, name, &program, err) != NB_OK)
        return err->status;
    float sa = ldexpf(1.0f, p->acc_log2), sp = ldexpf(1.0f, p->pot_log2);
    glUseProgram(program);
    if (mode != NB_PRECISION_G)     /* G's law reads the double eps2d */
        glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)(eps * eps));
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)n);
    if (mode == NB_PRECISION_E || mode == NB_PRECISION_F || mode == NB_PRECISION_H)
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
    if (mode == NB_PRECISION_G)
        glUniform1d(nb_gl_loc(NB_LOC_PREC_EPS2D), eps * eps);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_POS, p->pos_buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_PREC_DPOS, p->dpos_buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT, p->out_buf);
    nb_gpu_timer_start(&p->timer);
    for (size_t first = lo, chunk = nb_gl_dispatch_items(n, NB_PREC_TILE); first < hi;
         first += chunk) {
        size_t count = hi - first < chunk ? hi - first : chunk;
        glUniform1i(nb_gl_loc(NB_LOC_PREC_I_FIRST), (int)first);
        glDispatchCompute((GLuint)nb_gl_ceil_div((int)count, NB_PREC_TILE), 1, 1);
        if (first + count < hi)
            glFinish();     /* gl_dispatch.c: never much work queued */
    }
    *seconds += nb_gpu_timer_stop(&p->timer);
    return nb_gl_check("precision GA dispatch", err);
}

/* The first `bytes` of the result buffer into the host staging. */
static enum nb_status fetch(struct nb_prec *p, size_t bytes, const char *what,
                            struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->out_buf);
    nb_gl_get_buffer(GL_SHADER_STORAGE_BUFFER, 0, bytes, p->staging);
    return nb_gl_check(what, err);
}

/* The input scales of E, F (from the magnitude kernel's sums) and H (the
 * analytic bound), or a refusal: the rule the fragment pipeline shares. */
static enum nb_status choose_scales(struct nb_prec *p, enum nb_precision mode,
                                    size_t n, double eps, struct nb_error *err)
{
    int log2[2] = { 0, 0 };
    enum nb_status st = NB_OK;
    if (mode == NB_PRECISION_E || mode == NB_PRECISION_F) {
        /* As mode A for its uniforms: a float eps^2, no scale. */
        if (dispatch(p, "ga_prec_comp_m", NB_PRECISION_A, n, 0, n, eps, &p->seconds,
                     err) != NB_OK ||
            fetch(p, 16 * n, "reading the magnitude sums", err) != NB_OK)
            return err->status;
        st = nb_prec_scales_measured(mode, p->staging, n, " with softening 0", log2, err);
    } else if (mode == NB_PRECISION_H) {
        st = nb_prec_scales_ga_fixed(n, p->m, eps, log2, err);
    }
    p->acc_log2 = log2[0];
    p->pot_log2 = log2[1];
    return st;
}

enum nb_status nb_prec_run(struct nb_prec *p, enum nb_precision mode, size_t n,
                           double eps, struct nb_error *err)
{
    char name[32];
    if (mode == NB_PRECISION_A || mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "precision kernel: mode %d", (int)mode);
    if (n != p->n)
        return nb_error_set(err, NB_ERR_ARGS, "precision %s: call set_particles after "
                            "set_precision", nb_precision_name(mode));
    GLuint program;     /* built here so that a broken shader fails even at n = 0 */
    snprintf(name, sizeof name, "ga_prec_comp_%c", 'a' + (int)mode);
    p->seconds = 0.0;
    p->run_n = 0;
    if (nb_prec_supported(mode, err) != NB_OK ||
        nb_gl_program(p->gl, name, &program, err) != NB_OK ||
        nb_gl_ensure_buffer(&p->out_buf, &p->out_capacity, 32 * (n ? n : 1),
                            "precision result buffer", err) != NB_OK)
        return err->status;
    p->mode = mode;
    if (n == 0)
        return NB_OK;
    size_t lo = p->i_first < n ? p->i_first : n, hi = p->i_end < n ? p->i_end : n;
    if (choose_scales(p, mode, n, eps, err) != NB_OK ||
        dispatch(p, name, mode, n, lo, hi > lo ? hi : lo, eps, &p->seconds, err) != NB_OK)
        return err->status;
    p->run_n = n;
    return NB_OK;
}

double nb_prec_seconds(const struct nb_prec *p) { return p->seconds; }

void nb_prec_set_i_range(struct nb_prec *p, size_t first, size_t end)
{
    p->i_first = first;
    p->i_end = end;
}

enum nb_status nb_prec_read(struct nb_prec *p, double *acc, double *pot,
                            struct nb_error *err)
{
    const int log2[2] = { p->acc_log2, p->pot_log2 };
    if (p->run_n == 0)
        return NB_OK;
    if (fetch(p, 32 * p->run_n, "reading results (precision kernel)", err) != NB_OK)
        return err->status;
    nb_prec_ga_finish(p->mode, p->staging, p->run_n, p->m, log2, acc, pot);
    return NB_OK;
}

enum nb_status nb_prec_read_fixed(struct nb_prec *p, int64_t *fixed, int *acc_log2,
                                  int *pot_log2, struct nb_error *err)
{
    if (p->mode != NB_PRECISION_H)
        return nb_error_set(err, NB_ERR_ARGS, "fixed-point sums: the last evaluation "
                            "was not precision H");
    if (p->run_n && fetch(p, 32 * p->run_n, "reading results (precision kernel)",
                          err) != NB_OK)
        return err->status;
    memcpy(fixed, p->staging, 32 * p->run_n);
    *acc_log2 = p->acc_log2;
    *pot_log2 = p->pot_log2;
    return NB_OK;
}
