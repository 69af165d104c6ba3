/* gaj_correct.c - the Hermite corrector on the device (correct.comp):
 * a block step of `glnbody run --predict gpu --correct gpu` sends nothing
 * up and reads back one 4-byte record a block particle (its new step),
 * instead of the host reading the forces, correcting and sending the
 * block back.
 *
 * The corrector keeps, a particle, 16 doubles: v, a, jerk, a2, a3 and the
 * level of its step (the GAJ pipeline's x0 and t0 are the rest of the
 * state); predict.comp then takes v, a, jerk from here (NB_PREDICT_DSTATE).
 * The host's copy of the state goes stale and comes back on request
 * (nb_gaj_corrector_read). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_hermite.h"

_Static_assert(NB_CORRECT_LEVEL_OF_ONE == NB_STEP_LEVEL_OF_ONE,
               "correct.comp's level of a step of 1");
_Static_assert(NB_CORRECT_NOT_FINITE == NB_LEVEL_NOT_FINITE &&
               NB_CORRECT_TOO_SMALL == NB_LEVEL_TOO_SMALL, "correct.comp's records");

#define DSTATE_DOUBLES 16
/* The records of nb slots: each one's level (a uint), then, from the
 * first 8-byte boundary, each one's criterion and m a1.(x1 - xp) (two
 * doubles). */
static size_t aux_at(size_t nb) { return (nb + 1) & ~(size_t)1; }     /* in uints */
static size_t record_bytes(size_t nb) { return 4 * aux_at(nb) + 16 * nb; }

struct nb_gaj_corrector {
    struct nb_gl *gl;
    GLuint ds;                  /* DSTATE_DOUBLES a particle */
    size_t ds_capacity, n;
    struct nb_gl_staging out;   /* the block's records (record_bytes), read back */
};

struct nb_gaj_corrector *nb_gaj_corrector_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_gaj_corrector *c = nb_alloc(1, sizeof *c, "the device corrector", err);
    if (!c)
        return NULL;
    c->gl = gl;
    nb_gl_staging_init(&c->out, 1);
    return c;
}

void nb_gaj_corrector_destroy(struct nb_gaj_corrector *c)
{
    if (!c)
        return;
    if (c->ds)
        glDeleteBuffers(1, &c->ds);
    nb_gl_staging_free(&c->out);
    free(c);
}

GLuint nb_gaj_corrector_state(const struct nb_gaj_corrector *c)
{
    return c ? c->ds : 0;
}

enum nb_status nb_gaj_corrector_load(struct nb_gaj_corrector *c, size_t n, const double *v,
                                     const double *a, const double *jerk, const double *a2,
                                     const double *a3, const uint8_t *level,
                                     struct nb_error *err)
{
    const double *parts[] = { v, a, jerk, a2, a3 };
    double *ds = nb_alloc(n ? n : 1, DSTATE_DOUBLES * sizeof(double), "the device "
                          "corrector's state", err);
    if (!ds)
        return err->status;
    for (size_t i = 0; i < n; i++) {
        for (int q = 0; q < 5; q++)
            memcpy(ds + DSTATE_DOUBLES * i + 3 * q, parts[q] + 3 * i, 3 * sizeof(double));
        ds[DSTATE_DOUBLES * i + 15] = level[i];
    }
    enum nb_status st = nb_gl_ensure_buffer(&c->ds, &c->ds_capacity,
                                            DSTATE_DOUBLES * sizeof(double) * (n ? n : 1),
                                            "the device corrector's state", err);
    if (st == NB_OK) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->ds);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                        (GLsizeiptr)(DSTATE_DOUBLES * sizeof(double) * n), ds);
        st = nb_gl_check("loading the device corrector's state", err);
    }
    free(ds);
    c->n = st == NB_OK ? n : 0;
    return st;
}

static void bind_at(GLuint binding, GLuint buffer, size_t at, size_t bytes)
{
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buffer, (GLintptr)at,
                      (GLsizeiptr)bytes);
}

enum nb_status nb_gaj_corrector_run(struct nb_gaj_corrector *c,
                                    const struct nb_gaj_compute *g, double t1, double eta,
                                    double dt_max, uint8_t *level, double *crit, double *dw,
                                    struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    GLuint prog;
    nb_gaj_compute_state_view(g, &sv);
    size_t nb = sv.n_active, bytes = record_bytes(nb);
    if (nb == 0)
        return NB_OK;
    if (sv.n != c->n || !sv.x)
        return nb_error_set(err, NB_ERR_ARGS, "the device corrector holds %zu particles, "
                            "the j-set %zu (load both)", c->n, sv.n);
    if (nb_gl_program(c->gl, "correct_comp", &prog, err) != NB_OK ||
        nb_gl_staging_reserve(&c->out, bytes, err) != NB_OK)
        return err->status;
    if (!c->out.buffer)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the device corrector needs "
                            "persistently mapped buffers (OpenGL 4.4 or "
                            "GL_ARB_buffer_storage)");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);     /* the block's sums, written */
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_N_ACTIVE), (int)nb);
    glUniform1d(nb_gl_loc(NB_LOC_TIME), t1);
    glUniform2d(nb_gl_loc(NB_LOC_CORRECT_STEP), eta, dt_max);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_X, sv.x);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_T0, sv.t0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_STATE_V, sv.v);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_DSTATE, c->ds);
    bind_at(NB_BIND_ACTIVE, sv.active, 0, 4 * nb);
    bind_at(NB_BIND_OUT, sv.acc, sv.acc_at, 16 * nb);
    bind_at(NB_BIND_OUT2, sv.jerk, sv.jerk_at, 16 * nb);
    bind_at(NB_BIND_CORRECTED, c->out.buffer, 0, bytes);
    glDispatchCompute((GLuint)nb_gl_ceil_div((int)nb, NB_CORRECT_GROUP), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    nb_gl_staging_sent(&c->out);
    glFlush();
    const uint32_t *rec = nb_gl_staging_arrived(&c->out, err);
    if (!rec)
        return err->status;
    int failed = 0;
    for (size_t k = 0; k < nb; k++) {
        level[k] = (uint8_t)rec[k];
        failed |= rec[k] >= NB_STEP_LEVELS;
    }
    /* The doubles only where the host needs them: 4 bytes a slot read
     * back, not 20 (reading mapped memory costs by the byte). */
    if (failed || nb == c->n) {
        const double *aux = (const double *)(rec + aux_at(nb));
        for (size_t k = 0; k < nb; k++) {
            crit[k] = aux[2 * k] < 0.0 ? INFINITY : aux[2 * k];
            dw[k] = aux[2 * k + 1];
        }
    }
    return nb_gl_check("the device corrector", err);
}

enum nb_status nb_gaj_corrector_read(struct nb_gaj_corrector *c,
                                     const struct nb_gaj_compute *g, double *x, double *v,
                                     double *a, double *jerk, double *a2, double *a3,
                                     double *t0, struct nb_error *err)
{
    struct nb_gaj_state_view sv;
    double *parts[] = { v, a, jerk, a2, a3 };
    nb_gaj_compute_state_view(g, &sv);
    size_t n = c->n;
    if (n == 0)
        return NB_OK;
    double *ds = nb_alloc(n, DSTATE_DOUBLES * sizeof(double), "the device corrector's "
                          "state", err);
    if (!ds)
        return err->status;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, c->ds);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, DSTATE_DOUBLES * sizeof(double) * n, ds);
    glBindBuffer(GL_COPY_READ_BUFFER, sv.x);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, 3 * sizeof(double) * n, x);
    glBindBuffer(GL_COPY_READ_BUFFER, sv.t0);
    nb_gl_get_buffer(GL_COPY_READ_BUFFER, 0, sizeof(double) * n, t0);
    for (size_t i = 0; i < n; i++)
        for (int q = 0; q < 5; q++)
            memcpy(parts[q] + 3 * i, ds + DSTATE_DOUBLES * i + 3 * q, 3 * sizeof(double));
    free(ds);
    return nb_gl_check("reading the device corrector's state", err);
}
