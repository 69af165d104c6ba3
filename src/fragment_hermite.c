/* fragment_hermite.c - the fragment backend's Hermite side: the GAJ
 * kernel (gaj.frag: acceleration, jerk and potential of an active block
 * against the j-set) with the block gathered on the host from packed
 * copies, and the device-resident Hermite state of --predict gpu: five
 * state textures per particle, corrected blocks scattered into them
 * (scatter.frag), the j-set predicted (predict.frag) and the active block
 * gathered (gather.frag) on the GPU.  The GAJ kernel sums in float (A).
 * With double-single positions (set_positions ds) every pass is its
 * "_pds" program, and the lo parts travel beside the hi parts: two more
 * j-textures, two more i-textures, a sixth state texture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fragment_internal.h"

/* ---- GAJ: the Hermite kernel on an active block (gaj.frag) ------------ */

/* Deletes the device-resident Hermite state and forgets its names and
 * sizes, so that the next load_state makes fresh objects and
 * update_state or predict_j before it are refused. */
static void forget_device_state(struct fragment *f)
{
    glDeleteTextures(NB_STATE_TARGETS_DS, f->state_tex);
    glDeleteTextures(NB_STATE_TARGETS_DS, f->block_tex);
    glDeleteTextures(1, &f->block_index_tex);
    glDeleteTextures(1, &f->active_index_tex);
    GLuint fbos[3] = { f->state_fbo, f->jset_fbo, f->iset_fbo };
    glDeleteFramebuffers(3, fbos);
    memset(f->state_tex, 0, sizeof f->state_tex);
    memset(f->block_tex, 0, sizeof f->block_tex);
    f->block_index_tex = f->active_index_tex = 0;
    f->state_fbo = f->jset_fbo = f->iset_fbo = 0;
    f->state_rows = f->block_rows = f->block_index_rows = f->active_rows = 0;
}

/* State textures a particle: five, six with v's lo part (ds). */
static int state_targets(const struct fragment *f)
{
    return f->ds ? NB_STATE_TARGETS_DS : NB_STATE_TARGETS;
}

/* Program `base` in the position format: "_pds" for double-single. */
static const char *program(const struct fragment *f, const char *base, char *name,
                           size_t size)
{
    snprintf(name, size, "%s%s", base, f->ds ? "_pds" : "");
    return name;
}

enum nb_status nb_fragment_set_positions(void *state, enum nb_positions format,
                                         struct nb_error *err)
{
    struct fragment *f = state;
    if (format != NB_POSITIONS_FLOAT && format != NB_POSITIONS_DS)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "positions %s: the fragment engine's "
                            "GAJ kernel keeps positions as ds or float",
                            nb_positions_name(format));
    if (f->ds != (format == NB_POSITIONS_DS))
        forget_device_state(f);     /* its state textures are the other format's */
    f->ds = format == NB_POSITIONS_DS;
    return NB_OK;
}

static enum nb_status ensure_host_copies(struct fragment *f, size_t texels,
                                         struct nb_error *err)
{
    if (f->host_count >= texels)
        return NB_OK;
    float **copy[4] = { &f->host_pos, &f->host_vel, &f->host_xlo, &f->host_vlo };
    forget_device_state(f);
    f->host_count = 0;
    for (int k = 0; k < 4; k++) {
        free(*copy[k]);
        if (!(*copy[k] = nb_alloc(4 * texels, sizeof(float), "GAJ host stream", err)))
            return NB_ERR_NOMEM;
    }
    f->host_count = texels;
    return NB_OK;
}

/* The lo parts of count double vec3s whose hi parts are at hi (a stream,
 * 4 floats a texel) into lo, the rest of `texels` zero. */
static void lo_parts(float *lo, const float *hi, const double *v3, size_t count,
                     size_t texels)
{
    memset(lo, 0, 16 * texels);
    for (size_t i = 0; i < count; i++)
        for (int d = 0; d < 3; d++)
            lo[4 * i + d] = (float)(v3[3 * i + d] - (double)hi[4 * i + d]);
}

/* The j-set: positions as for GA, velocities beside them, both packed
 * straight into the host copies that the gather of the active blocks
 * reads. */
enum nb_status nb_fragment_set_j(void *state, size_t n, const double *x,
                                 const double *v, const double *m,
                                 struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (nb_fragment_stream_rows(n, &rows, err) != NB_OK ||
        ensure_host_copies(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        nb_fragment_upload_positions(f, n, x, m, rows, f->host_pos, err) != NB_OK)
        return err->status;
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    memset(f->host_vel, 0, 16 * texels);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
            f->host_vel[4 * i + d] = (float)v[3 * i + d];
    nb_fragment_upload_stream(&f->vel_tex, f->vel_rows, f->rows, f->host_vel);
    f->vel_rows = f->rows;
    if (f->ds) {
        lo_parts(f->host_xlo, f->host_pos, x, n, texels);
        lo_parts(f->host_vlo, f->host_vel, v, n, texels);
        nb_fragment_upload_stream(&f->jxlo_tex, f->lo_rows, f->rows, f->host_xlo);
        nb_fragment_upload_stream(&f->jvlo_tex, f->lo_rows, f->rows, f->host_vlo);
        f->lo_rows = f->rows;
    }
    f->j_on_device = 0;
    return nb_gl_check("uploading the velocity texture", err);
}

/* Gathers the active block into the i-textures; position w carries the
 * particle's index (exact in float below 2^24), -1 marks padding. */
static enum nb_status gather_block(struct fragment *f, size_t na, const uint32_t *active,
                                   struct nb_error *err)
{
    int rows = 0;
    if (nb_fragment_stream_rows(na, &rows, err) != NB_OK)
        return err->status;
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    if (nb_fragment_ensure_staging(f, 4 * texels, err) != NB_OK)
        return err->status;
    float *ipos = f->staging, *ivel = f->staging + 4 * texels;
    float *ixlo = f->staging + 8 * texels, *ivlo = f->staging + 12 * texels;
    for (size_t k = 0; k < na; k++) {
        if (active[k] >= f->n || active[k] >= (1u << 24))
            return nb_error_set(err, active[k] >= f->n ? NB_ERR_ARGS : NB_ERR_LIMIT,
                                "GAJ: active index %u out of range (%zu particles, "
                                "at most 2^24 in the fragment pipeline)",
                                (unsigned)active[k], f->n);
        memcpy(ipos + 4 * k, f->host_pos + 4 * (size_t)active[k], 12);
        ipos[4 * k + 3] = (float)active[k];
        memcpy(ivel + 4 * k, f->host_vel + 4 * (size_t)active[k], 16);
        if (f->ds) {
            memcpy(ixlo + 4 * k, f->host_xlo + 4 * (size_t)active[k], 16);
            memcpy(ivlo + 4 * k, f->host_vlo + 4 * (size_t)active[k], 16);
        }
    }
    nb_fragment_pad_stream(ipos, na, texels, -1.0f);
    memset(ivel + 4 * na, 0, 16 * (texels - na));
    nb_fragment_upload_stream(&f->ipos_tex, f->i_rows, rows, ipos);
    nb_fragment_upload_stream(&f->ivel_tex, f->i_rows, rows, ivel);
    if (f->ds) {
        memset(ixlo + 4 * na, 0, 16 * (texels - na));
        memset(ivlo + 4 * na, 0, 16 * (texels - na));
        nb_fragment_upload_stream(&f->ixlo_tex, f->ilo_rows, rows, ixlo);
        nb_fragment_upload_stream(&f->ivlo_tex, f->ilo_rows, rows, ivlo);
        f->ilo_rows = rows;
    }
    f->i_rows = rows;
    f->n_active = na;
    return nb_gl_check("uploading the active block", err);
}

/* ---- the Hermite state on the device (--predict gpu) ------------------ */

/* Indices as an R32I stream texture, -1 after the last. */
static void upload_indices(struct fragment *f, GLuint *tex, int *allocated, int rows,
                           size_t count, const uint32_t *index)
{
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    int32_t *dst = (int32_t *)f->staging;         /* ensured by the caller */
    for (size_t k = 0; k < texels; k++)
        dst[k] = k < count ? (int32_t)index[k] : -1;
    if (*tex && *allocated != rows) {
        glDeleteTextures(1, tex);
        *tex = 0;
    }
    if (!*tex)
        *tex = nb_gl_new_texture(NB_STREAM_WIDTH, rows, GL_R32I);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, NB_STREAM_WIDTH, rows, GL_RED_INTEGER,
                    GL_INT, dst);
    *allocated = rows;
}

/* Five state texels per particle from double arrays: positions and times
 * split into float hi/lo pairs (x = hi + lo, about 48 bits); with six
 * (ds), v's lo part in the sixth. */
static void pack_state(float *out[NB_STATE_TARGETS_DS], int targets, size_t count,
                       size_t texels, const double *x, const double *v, const double *a,
                       const double *jerk, const double *t0, const double *m)
{
    for (size_t k = 0; k < texels; k++)
        for (int q = 0; q < targets; q++)
            for (int c = 0; c < 4; c++)
                out[q][4 * k + c] = k >= count && q == 0 && c < 3 ? (float)NB_PAD_COORD : 0.0f;
    for (size_t k = 0; k < count; k++) {
        for (int c = 0; c < 3; c++) {
            float hi = (float)x[3 * k + c];
            out[0][4 * k + c] = hi;
            out[1][4 * k + c] = (float)(x[3 * k + c] - hi);
            out[2][4 * k + c] = (float)v[3 * k + c];
            out[3][4 * k + c] = (float)a[3 * k + c];
            out[4][4 * k + c] = (float)jerk[3 * k + c];
            if (targets > NB_STATE_TARGETS)
                out[5][4 * k + c] = (float)(v[3 * k + c] - (double)out[2][4 * k + c]);
        }
        float t_hi = (float)t0[k];
        out[0][4 * k + 3] = m ? (float)m[k] : 0.0f;
        out[2][4 * k + 3] = t_hi;
        out[3][4 * k + 3] = (float)(t0[k] - t_hi);
    }
}

/* Packs and uploads the state textures of `rows` rows (state or block). */
static enum nb_status upload_state_set(struct fragment *f, GLuint tex[NB_STATE_TARGETS_DS],
                                       int old_rows, int rows, size_t count,
                                       const double *x, const double *v, const double *a,
                                       const double *jerk, const double *t0,
                                       const double *m, struct nb_error *err)
{
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    int targets = state_targets(f);
    if (nb_fragment_ensure_staging(f, (size_t)targets * texels, err) != NB_OK)
        return err->status;
    float *planes[NB_STATE_TARGETS_DS];
    for (int q = 0; q < targets; q++)
        planes[q] = f->staging + 4 * texels * (size_t)q;
    pack_state(planes, targets, count, texels, x, v, a, jerk, t0, m);
    for (int q = 0; q < targets; q++)
        nb_fragment_upload_stream(&tex[q], old_rows, rows, planes[q]);
    return nb_gl_check("uploading Hermite state", err);
}

enum nb_status nb_fragment_load_state(void *state, size_t n, const double *x,
                                      const double *v, const double *a,
                                      const double *jerk, const double *t0,
                                      const double *m, struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (nb_fragment_stream_rows(n, &rows, err) != NB_OK ||
        upload_state_set(f, f->state_tex, f->state_rows, rows, n, x, v, a, jerk, t0, m,
                         err) != NB_OK)
        return err->status;
    f->state_rows = rows;
    /* The j-textures the predictor writes: made to size if set_j was not. */
    if (f->rows != rows || !f->pos_tex || f->vel_rows != rows) {
        float *pad = f->staging;
        memset(pad, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        nb_fragment_upload_stream(&f->pos_tex, f->rows, rows, pad);
        nb_fragment_upload_stream(&f->vel_tex, f->vel_rows, rows, pad);
        f->vel_rows = rows;
    }
    if (f->ds && (f->lo_rows != rows || !f->jxlo_tex)) {
        memset(f->staging, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        nb_fragment_upload_stream(&f->jxlo_tex, f->lo_rows, rows, f->staging);
        nb_fragment_upload_stream(&f->jvlo_tex, f->lo_rows, rows, f->staging);
        f->lo_rows = rows;
    }
    f->n = n;
    f->npad = (int)((n + 3) / 4 * 4);
    f->rows = rows;
    return nb_gl_attach_targets(&f->state_fbo, f->state_tex, state_targets(f),
                             "state framebuffer", err);
}

/* Scatter: one point per block particle onto its texel of the state. */
enum nb_status nb_fragment_update_state(void *state, size_t nb, const uint32_t *idx,
                                        const double *x, const double *v,
                                        const double *a, const double *jerk,
                                        const double *t0, struct nb_error *err)
{
    struct fragment *f = state;
    GLuint prog;
    int rows = 0, targets = state_targets(f);
    char name[32];
    if (nb == 0)
        return NB_OK;
    if (!f->state_fbo)
        return nb_error_set(err, NB_ERR_ARGS, "update_state before load_state");
    for (size_t k = 0; k < nb; k++)
        if (idx[k] >= f->n)
            return nb_error_set(err, NB_ERR_ARGS, "update_state: index %u out of range",
                                (unsigned)idx[k]);
    if (nb_fragment_stream_rows(nb, &rows, err) != NB_OK ||
        nb_gl_program(f->gl, program(f, "scatter_frag", name, sizeof name), &prog,
                      err) != NB_OK ||
        upload_state_set(f, f->block_tex, f->block_rows, rows, nb, x, v, a, jerk, t0,
                         NULL, err) != NB_OK)
        return err->status;
    f->block_rows = rows;
    upload_indices(f, &f->block_index_tex, &f->block_index_rows, rows, nb, idx);
    if (nb_gl_attach_targets(&f->state_fbo, f->state_tex, targets, "state framebuffer",
                             err) != NB_OK)
        return err->status;
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_ROWS), f->state_rows);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_INDEX);
    glBindTexture(GL_TEXTURE_2D, f->block_index_tex);
    for (int q = 0; q < targets; q++) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_BLOCK + (GLenum)q);
        glBindTexture(GL_TEXTURE_2D, f->block_tex[q]);
    }
    glViewport(0, 0, NB_STREAM_WIDTH, f->state_rows);
    glBindVertexArray(f->vao);
    /* The masses live in w of target 0 and the block carries none: keep them. */
    glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
    glDrawArrays(GL_POINTS, 0, (GLsizei)nb);
    glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    return nb_gl_check("scattering the corrected block", err);
}

enum nb_status nb_fragment_predict_j(void *state, double t, struct nb_error *err)
{
    struct fragment *f = state;
    GLuint prog;
    char name[32];
    if (!f->state_fbo)
        return nb_error_set(err, NB_ERR_ARGS, "predict_j before load_state");
    const GLuint jset[4] = { f->pos_tex, f->vel_tex, f->jxlo_tex, f->jvlo_tex };
    if (nb_gl_program(f->gl, program(f, "predict_frag", name, sizeof name), &prog,
                      err) != NB_OK ||
        nb_gl_attach_targets(&f->jset_fbo, jset, f->ds ? 4 : 2, "state framebuffer",
                             err) != NB_OK)
        return err->status;
    float t_hi = (float)t;
    glUseProgram(prog);
    glUniform1f(nb_gl_loc(NB_LOC_TIME_HI), t_hi);
    glUniform1f(nb_gl_loc(NB_LOC_TIME_LO), (float)(t - t_hi));
    for (int q = 0; q < NB_STATE_TARGETS; q++) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_STATE + (GLenum)q);
        glBindTexture(GL_TEXTURE_2D, f->state_tex[q]);
    }
    if (f->ds) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_STATE_VLO);
        glBindTexture(GL_TEXTURE_2D, f->state_tex[NB_STATE_TARGETS]);
    }
    glViewport(0, 0, NB_STREAM_WIDTH, f->rows);
    glBindVertexArray(f->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    f->j_on_device = 1;
    return nb_gl_check("device prediction", err);
}

/* The active block into the i-textures on the device (gather.frag). */
static enum nb_status gather_on_device(struct fragment *f, size_t na,
                                       const uint32_t *active, struct nb_error *err)
{
    GLuint prog;
    int rows = 0;
    char name[32];
    for (size_t k = 0; k < na; k++)
        if (active[k] >= f->n || active[k] >= (1u << 24))
            return nb_error_set(err, NB_ERR_ARGS, "GAJ: active index %u out of range",
                                (unsigned)active[k]);
    if (nb_fragment_stream_rows(na, &rows, err) != NB_OK ||
        nb_fragment_ensure_staging(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        nb_gl_program(f->gl, program(f, "gather_frag", name, sizeof name), &prog,
                      err) != NB_OK)
        return err->status;
    upload_indices(f, &f->active_index_tex, &f->active_rows, rows, na, active);
    if (f->i_rows != rows || !f->ipos_tex) {
        memset(f->staging, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        nb_fragment_upload_stream(&f->ipos_tex, f->i_rows, rows, f->staging);
        nb_fragment_upload_stream(&f->ivel_tex, f->i_rows, rows, f->staging);
        f->i_rows = rows;
    }
    if (f->ds && (f->ilo_rows != rows || !f->ixlo_tex)) {
        memset(f->staging, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        nb_fragment_upload_stream(&f->ixlo_tex, f->ilo_rows, rows, f->staging);
        nb_fragment_upload_stream(&f->ivlo_tex, f->ilo_rows, rows, f->staging);
        f->ilo_rows = rows;
    }
    const GLuint iset[4] = { f->ipos_tex, f->ivel_tex, f->ixlo_tex, f->ivlo_tex };
    if (nb_gl_attach_targets(&f->iset_fbo, iset, f->ds ? 4 : 2, "state framebuffer",
                             err) != NB_OK)
        return err->status;
    glUseProgram(prog);
    static const int units[] = { NB_UNIT_POS, NB_UNIT_VEL, NB_UNIT_INDEX, NB_UNIT_JXLO,
                                 NB_UNIT_JVLO };
    const GLuint tex[] = { f->pos_tex, f->vel_tex, f->active_index_tex, f->jxlo_tex,
                           f->jvlo_tex };
    for (int k = 0; k < (f->ds ? 5 : 3); k++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)units[k]);
        glBindTexture(GL_TEXTURE_2D, tex[k]);
    }
    glViewport(0, 0, NB_STREAM_WIDTH, rows);
    glBindVertexArray(f->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    f->n_active = na;
    return nb_gl_check("gathering the active block", err);
}

enum nb_status nb_fragment_gaj(void *state, double eps, size_t na,
                               const uint32_t *active, struct nb_error *err)
{
    struct fragment *f = state;
    if (f->precision != NB_PRECISION_A)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "fragment backend: precision %s "
                            "runs on the GA kernel only; its GAJ kernel sums in float "
                            "(A)", nb_precision_name(f->precision));
    if (!f->vel_tex)
        return nb_error_set(err, NB_ERR_ARGS, "compute_gaj before set_j");
    if ((f->j_on_device ? gather_on_device(f, na, active, err)
                        : gather_block(f, na, active, err)) != NB_OK || na == 0)
        return err->status;
    /* The j-range: its end is the stream's (npad, padding) when it reaches n. */
    size_t end = f->j_end < f->n ? f->j_end : f->n;
    size_t first = f->j_first < end ? f->j_first : end;
    const struct shape sh = {
        f->ds ? "gaj_frag_1x4_pds" : "gaj_frag_1x4", "reduce_frag_2", 2, NB_STREAM_WIDTH,
        f->i_rows, f->npad, (double)na * f->npad, f->ds ? 7 : 3,
        { NB_UNIT_VEL, NB_UNIT_IPOS, NB_UNIT_IVEL, NB_UNIT_JXLO, NB_UNIT_JVLO, NB_UNIT_IXLO,
          NB_UNIT_IVLO },
        { f->vel_tex, f->ipos_tex, f->ivel_tex, f->jxlo_tex, f->jvlo_tex, f->ixlo_tex,
          f->ivlo_tex }, (int)first, end == f->n ? f->npad : (int)end };
    f->last_gaj = 1;
    return nb_fragment_run_shape(f, &sh, (float)(eps * eps), err);
}

void nb_fragment_set_j_range(void *state, size_t first, size_t end)
{
    struct fragment *f = state;
    f->j_first = first;
    f->j_end = end;
}

/* Target 0 holds acc + pot, target 1 jerk, at texel k of the block. */
enum nb_status nb_fragment_read_gaj(void *state, double *acc, double *jerk,
                                    double *pot, struct nb_error *err)
{
    struct fragment *f = state;
    const struct target_set *s = &f->sets[f->result_set];
    size_t texels = (size_t)f->i_rows * NB_STREAM_WIDTH;
    if (f->n_active == 0)
        return NB_OK;
    if (nb_fragment_ensure_staging(f, 2 * texels, err) != NB_OK)
        return err->status;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = 0; k < 2; k++) {
        glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)k);
        glReadPixels(0, 0, NB_STREAM_WIDTH, f->i_rows, GL_RGBA, GL_FLOAT,
                     f->staging + 4 * texels * (size_t)k);
    }
    if (nb_gl_check("reading the GAJ targets", err) != NB_OK)
        return err->status;
    const float *ap = f->staging, *jk = f->staging + 4 * texels;
    for (size_t k = 0; k < f->n_active; k++) {
        for (int d = 0; d < 3; d++) {
            acc[3 * k + d] = ap[4 * k + d];
            jerk[3 * k + d] = jk[4 * k + d];
        }
        pot[k] = ap[4 * k + 3];
    }
    return NB_OK;
}

