/* fragment_passes.c - how the fragment backend runs one kernel over its
 * streams (struct shape, for GA and GAJ alike): the particle streams as
 * RGBA32F textures, the split into i-replicas R and j-passes P (seed 000
 * section 3.4; passes keep every draw short of a driver's watchdog), the
 * ping-pong target sets, the passes themselves and the reduction of the
 * replicas, timed on the GPU. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fragment_internal.h"

static GLuint new_texture(int width, int height)
{
    return nb_gl_new_texture(width, height, GL_RGBA32F);
}

void nb_fragment_release_set(struct target_set *s)
{
    glDeleteTextures(s->count, s->tex);
    if (s->fbo)
        glDeleteFramebuffers(1, &s->fbo);
    memset(s, 0, sizeof *s);
}

/* `count` RGBA32F textures of width x height behind one framebuffer. */
static enum nb_status ensure_set(struct target_set *s, int width, int height,
                                 int count, struct nb_error *err)
{
    if (s->fbo && s->width == width && s->height == height && s->count == count)
        return NB_OK;
    nb_fragment_release_set(s);
    s->width = width, s->height = height, s->count = count;
    return nb_gl_new_targets(&s->fbo, s->tex, count, width, height, GL_RGBA32F,
                             "allocating render targets", err);
}

enum nb_status nb_fragment_ensure_staging(struct fragment *f, size_t texels,
                                          struct nb_error *err)
{
    return nb_gl_ensure_host_quads(&f->staging, &f->staging_count, texels,
                                   "texture staging", err);
}

/* Uploads rows x NB_STREAM_WIDTH texels, re-creating the texture when its
 * height changes (immutable storage). */
void nb_fragment_upload_stream(GLuint *tex, int old_rows, int rows, const float *texels)
{
    if (*tex && old_rows != rows) {
        glDeleteTextures(1, tex);
        *tex = 0;
    }
    if (!*tex)
        *tex = new_texture(NB_STREAM_WIDTH, rows);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, NB_STREAM_WIDTH, rows, GL_RGBA, GL_FLOAT,
                    texels);
}

/* The GA and GAJ streams: padded to the 4 i-particles of a fragment. */
enum nb_status nb_fragment_stream_rows(size_t n, int *rows, struct nb_error *err)
{
    return nb_gl_stream_rows(n, 4, INT_MAX / 8, "fragment backend", rows, err);
}

/* Texels t >= from of a packed stream become padding: far away, no mass
 * (w = pad_w: the mass, or -1 as the index of an i-stream). */
void nb_fragment_pad_stream(float *texels, size_t from, size_t to, float pad_w)
{
    for (size_t t = from; t < to; t++) {
        float *p = texels + 4 * t;
        p[0] = p[1] = p[2] = (float)NB_PAD_COORD;
        p[3] = pad_w;
    }
}

/* Packs the positions and masses into `texels` (rows whole rows, padded)
 * and uploads them as the j-stream. */
enum nb_status nb_fragment_upload_positions(struct fragment *f, size_t n, const double *x,
                                            const double *m, int rows, float *texels,
                                            struct nb_error *err)
{
    nb_gl_pack_particles(texels, n, x, m);
    nb_fragment_pad_stream(texels, n, (size_t)rows * NB_STREAM_WIDTH, (float)NB_PAD_MASS);
    nb_fragment_upload_stream(&f->pos_tex, f->rows, rows, texels);
    f->n = n;
    f->npad = (int)((n + 3) / 4 * 4);
    f->rows = rows;
    return nb_gl_check("uploading the particle texture", err);
}

static void choose_split(struct fragment *f, const struct shape *sh)
{
    int fragments = sh->width * sh->rows;
    int r = f->replicas ? f->replicas : nb_gl_ceil_div(NB_FRAGMENT_FILL, fragments);
    int r_max = nb_gl_max_texture_size() / sh->rows;
    if (!f->replicas && r > sh->npad / NB_FRAGMENT_MIN_SLICE)
        r = sh->npad / NB_FRAGMENT_MIN_SLICE;
    r = r < 1 ? 1 : r > r_max ? r_max : r;
    int p = f->passes ? f->passes : (int)(sh->interactions / f->draw_budget) + 1;
    /* Every slice keeps at least one 4-particle block. */
    while (r * p > sh->npad / 4 && (p > 1 || r > 1))
        p > 1 ? p-- : r--;
    f->used_replicas = r;
    f->used_passes = p;
}

static void bind_textures(int first_unit, const struct target_set *s, int count)
{
    for (int k = 0; k < count; k++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)(first_unit + k));
        glBindTexture(GL_TEXTURE_2D, s ? s->tex[k] : 0);
    }
}

/* Builds the programs and the render targets a run needs, so that
 * compilation and allocation stay out of the timings. */
static enum nb_status prepare(struct fragment *f, const struct shape *sh, GLuint *kernel,
                              GLuint *reduce, struct nb_error *err)
{
    int r = f->used_replicas;
    if (nb_gl_program(f->gl, sh->kernel, kernel, err) != NB_OK ||
        nb_gl_program(f->gl, sh->reduce, reduce, err) != NB_OK)
        return err->status;
    for (int s = SET_PING; s <= (f->used_passes > 1 ? SET_PONG : SET_PING); s++)
        if (ensure_set(&f->sets[s], sh->width, sh->rows * r, sh->targets, err) != NB_OK)
            return err->status;
    if (r > 1 && ensure_set(&f->sets[SET_FINAL], sh->width, sh->rows, sh->targets,
                            err) != NB_OK)
        return err->status;
    return NB_OK;
}

/* The passes over the j-stream; the kernel's own textures are bound. */
static void draw_passes(struct fragment *f, const struct shape *sh, GLuint prog, float eps2)
{
    int r = f->used_replicas, p = f->used_passes;
    /* the 4-blocks of the j-range (GAJ's slice of a j-parallel run) */
    int span = sh->j_hi ? ((sh->j_hi + 3) & ~3) - (sh->j_lo & ~3) : sh->npad;
    int slice_len = nb_gl_ceil_div(nb_gl_ceil_div(span, r * p), 4) * 4;
    glUseProgram(prog);
    if (sh->j_hi)
        glUniform2i(nb_gl_loc(NB_LOC_J_RANGE), sh->j_lo, sh->j_hi);
    glUniform1f(nb_gl_loc(NB_LOC_EPS2), eps2);
    glUniform1i(nb_gl_loc(NB_LOC_NPAD), sh->npad);
    glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), slice_len);
    glUniform1i(nb_gl_loc(NB_LOC_PASSES), p);
    glUniform1i(nb_gl_loc(NB_LOC_ROWS), sh->rows);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_POS);
    glBindTexture(GL_TEXTURE_2D, f->pos_tex);
    for (int k = 0; k < sh->extra_count; k++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)sh->extra_units[k]);
        glBindTexture(GL_TEXTURE_2D, sh->extra_textures[k]);
    }
    glViewport(0, 0, sh->width, sh->rows * r);
    for (int pass = 0; pass < p; pass++) {
        int cur = pass & 1;
        bind_textures(NB_UNIT_PREV, pass ? &f->sets[!cur] : NULL, sh->targets);
        glBindFramebuffer(GL_FRAMEBUFFER, f->sets[cur].fbo);
        glUniform1i(nb_gl_loc(NB_LOC_PASS), pass);
        glUniform1i(nb_gl_loc(NB_LOC_ACCUMULATE), pass > 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    f->result_set = (p - 1) & 1;
}

/* Sums the replicas into the final set. */
static void reduce_replicas(struct fragment *f, const struct shape *sh, GLuint prog)
{
    glUseProgram(prog);
    glUniform1i(nb_gl_loc(NB_LOC_ROWS), sh->rows);
    glUniform1i(nb_gl_loc(NB_LOC_REPLICAS), f->used_replicas);
    bind_textures(NB_UNIT_PREV, &f->sets[f->result_set], sh->targets);
    glBindFramebuffer(GL_FRAMEBUFFER, f->sets[SET_FINAL].fbo);
    glViewport(0, 0, sh->width, sh->rows);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    f->result_set = SET_FINAL;
}

/* Shortens the automatic draws when the last evaluation's draws took longer
 * than NB_FRAGMENT_DRAW_SECONDS (a slow GPU). */
static void adapt_draw_budget(struct fragment *f)
{
    double per_draw = f->seconds / f->used_passes;
    if (!f->passes && per_draw > NB_FRAGMENT_DRAW_SECONDS &&
        f->draw_budget > NB_FRAGMENT_DRAW_MIN)
        f->draw_budget *= 0.5;
}

/* One evaluation of a shape: passes, then the replicas' reduction. */
enum nb_status nb_fragment_run_shape(struct fragment *f, const struct shape *sh, float eps2,
                                     struct nb_error *err)
{
    GLuint kernel, reduce;
    choose_split(f, sh);
    if (prepare(f, sh, &kernel, &reduce, err) != NB_OK)
        return err->status;
    glBindVertexArray(f->vao);
    nb_gpu_timer_start(&f->timer);
    draw_passes(f, sh, kernel, eps2);
    if (f->used_replicas > 1)
        reduce_replicas(f, sh, reduce);
    f->seconds = nb_gpu_timer_stop(&f->timer);
    adapt_draw_budget(f);
    return nb_gl_check(sh->kernel, err);
}

/* The GA kernel: the i-stream is the j-stream itself. */
