/* fragment_precision.c - the accumulation modes of seed 004 Table 1 (B..H,
 * and the magnitude sums M) on the fragment pipeline: the GA kernel
 * (glsl/ga_precision.frag, behind the fragment backend's set_precision)
 * and the MD all-pairs kernel (glsl/md_precision.frag,
 * nb_md_prec_forces_fragment).
 *
 * Stream style, as the rest of the fragment pipeline: particles are
 * NB_STREAM_WIDTH-wide textures, one i-particle per fragment, the j-loop
 * cut into P passes through a pair of ping-pong framebuffers.  Each holds
 * two RGBA32UI render targets, w0 and w1: the accumulator's whole state as
 * eight 32-bit words (accumulate.glsl's acc_pack), which is what lets a
 * pass resume the sums of the previous one bit for bit in every mode (a
 * double or int64 sum does not fit a float target; Narumi's int32 part
 * needs an integer one).  The words read back are interleaved into the
 * layout the compute kernels store (8 words a particle), so the compute
 * pipeline's host finishing (nb_prec_ga_finish, nb_md_prec_finish) and
 * its scale rule (nb_prec_scales_measured, nb_prec_scales_ga_fixed) serve
 * both: one input gets the same 2^k on both pipelines.
 *
 * The passes cut the j-tiles of NB_PREC_TILE, not the j-particles, and
 * each tile ends with acc_tile_end: Narumi's carries fall on the same j
 * whatever P is, so every mode gives the same bits for every P, and the
 * same as the compute kernel where the driver rounds each pair term
 * alike (H then gives the compute pipeline's int64 sums). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

/* Automatic passes: at most this many pair terms a draw (a precision term
 * costs several times a mode-A one, whose draws stop at 2^28), so that no
 * draw nears a driver's watchdog; at most one pass per tile. */
#define NB_FRAG_PREC_DRAW (1.0 * (1 << 26))

/* Two RGBA32UI targets (w0, w1) of NB_STREAM_WIDTH x rows behind one
 * framebuffer. */
struct word_targets {
    GLuint fbo;
    GLuint tex[2];
    int rows;
};

static void release_targets(struct word_targets *t)
{
    glDeleteTextures(2, t->tex);
    if (t->fbo)
        glDeleteFramebuffers(1, &t->fbo);
    memset(t, 0, sizeof *t);
}

static enum nb_status ensure_targets(struct word_targets *t, int rows, struct nb_error *err)
{
    if (t->fbo && t->rows == rows)
        return NB_OK;
    release_targets(t);
    t->rows = rows;
    return nb_gl_new_targets(&t->fbo, t->tex, 2, NB_STREAM_WIDTH, rows, GL_RGBA32UI,
                             "precision fragment kernel: allocating render targets", err);
}

/* Rows of a stream of n particles (the double stream is two texels a
 * particle, twice as wide: GL 4.3's smallest GL_MAX_TEXTURE_SIZE, 16384,
 * holds that). */
static enum nb_status stream_rows(size_t n, int *rows, struct nb_error *err)
{
    return nb_gl_stream_rows(n, 1, INT32_MAX / 64, "precision fragment kernel", rows, err);
}

/* A width x height texture of format (re-made when its size changes),
 * filled from data. */
static void upload_texture(GLuint *tex, int *size, int width, int height, GLenum format,
                           GLenum data_format, GLenum type, const void *data)
{
    if (*tex && size[0] == width && size[1] == height) {
        glBindTexture(GL_TEXTURE_2D, *tex);
    } else {
        glDeleteTextures(1, tex);
        *tex = nb_gl_new_texture(width, height, format);
        size[0] = width, size[1] = height;
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, data_format, type, data);
}

/* P: `requested`, or enough that a draw stays within NB_FRAG_PREC_DRAW;
 * at most one per tile, at least one. */
static int choose_passes(size_t n, int requested)
{
    double tiles = ceil((double)n / NB_PREC_TILE);
    double p = requested > 0 ? requested
                             : floor((double)n * tiles * NB_PREC_TILE / NB_FRAG_PREC_DRAW) + 1;
    return (int)fmax(1.0, fmin(p, tiles));
}

/* The program in use, its other uniforms set: `passes` draws over the
 * targets, pass p > 0 reading pass p - 1's words.  Returns the set that
 * holds the result.  Timed into *seconds. */
static int draw_passes(GLuint vao, struct word_targets sets[2], int rows, int passes,
                       struct nb_gpu_timer *timer, double *seconds)
{
    glUniform1i(nb_gl_loc(NB_LOC_PASSES), passes);
    glViewport(0, 0, NB_STREAM_WIDTH, rows);
    glBindVertexArray(vao);
    nb_gpu_timer_start(timer);
    for (int pass = 0; pass < passes; pass++) {
        int cur = pass & 1;
        for (int k = 0; k < 2; k++) {
            glActiveTexture(GL_TEXTURE0 + NB_UNIT_PREC_PREV + (GLenum)k);
            glBindTexture(GL_TEXTURE_2D, pass ? sets[!cur].tex[k] : 0);
        }
        glBindFramebuffer(GL_FRAMEBUFFER, sets[cur].fbo);
        glUniform1i(nb_gl_loc(NB_LOC_PASS), pass);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    *seconds += nb_gpu_timer_stop(timer);
    for (int k = 0; k < 2; k++) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_PREC_PREV + (GLenum)k);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    return (passes - 1) & 1;
}

/* The words of n particles from targets t into raw (8 a particle: w0 then
 * w1, the compute kernels' layout); plane holds 8 words a texel.  With
 * only_w0, raw gets w0 alone, 4 words a particle (the magnitude sums). */
static enum nb_status read_words(const struct word_targets *t, size_t n, uint32_t *plane,
                                 uint32_t *raw, int only_w0, struct nb_error *err)
{
    size_t texels = (size_t)t->rows * NB_STREAM_WIDTH;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = 0; k < (only_w0 ? 1 : 2); k++) {
        glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)k);
        glReadPixels(0, 0, NB_STREAM_WIDTH, t->rows, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                     plane + 4 * texels * (size_t)k);
    }
    if (nb_gl_check("precision fragment kernel: reading the state words", err) != NB_OK)
        return err->status;
    if (only_w0) {
        memcpy(raw, plane, 16 * n);
        return NB_OK;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(raw + 8 * i, plane + 4 * i, 16);
        memcpy(raw + 8 * i + 4, plane + 4 * (texels + i), 16);
    }
    return NB_OK;
}

/* Sets the scale uniform of modes E, F, H (m: 'a' + mode, or 'm'); the
 * others' programs have none.  By mode, not by the active-uniform mask:
 * SPIR-V gives the samplers implicit locations, which may take a location
 * a mode's program does not keep. */
static void set_scale(char m, const int log2[2])
{
    float sa = ldexpf(1.0f, log2[0]), sp = ldexpf(1.0f, log2[1]);
    if (m == 'e' || m == 'f' || m == 'h')
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
}

/* ---- the GA kernel ------------------------------------------------------ */

struct nb_frag_prec {
    struct nb_gl *gl;
    GLuint vao, pos_tex, dpos_tex;
    int pos_size[2], dpos_size[2];
    struct word_targets sets[2];
    int result;                     /* set holding the last result */
    size_t n;
    int rows;
    double *m;                      /* host copy of the masses (H divides by m_i) */
    void *staging;                  /* 64 bytes a texel */
    size_t staging_texels;
    enum nb_precision mode;         /* of the last run */
    size_t run_n;
    int log2[2];                    /* scales 2^k of the last run */
    int passes;
    struct nb_gpu_timer timer;
    double seconds;
};

struct nb_frag_prec *nb_frag_prec_create(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_frag_prec *p = nb_alloc(1, sizeof *p, "fragment precision kernel", err);
    if (!p)
        return NULL;
    p->gl = gl;
    glGenVertexArrays(1, &p->vao);      /* core profile: draws need a VAO */
    nb_gpu_timer_init(&p->timer, gl);
    return p;
}

void nb_frag_prec_destroy(struct nb_frag_prec *p)
{
    if (!p)
        return;
    for (int s = 0; s < 2; s++)
        release_targets(&p->sets[s]);
    GLuint tex[2] = { p->pos_tex, p->dpos_tex };
    glDeleteTextures(2, tex);
    glDeleteVertexArrays(1, &p->vao);
    nb_gpu_timer_free(&p->timer);
    free(p->m);
    free(p->staging);
    free(p);
}

static enum nb_status ensure_host(struct nb_frag_prec *p, size_t n, int rows,
                                  struct nb_error *err)
{
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    if (p->staging_texels < texels) {
        free(p->staging);
        p->staging = nb_alloc(texels, 64, "fragment precision staging", err);
        p->staging_texels = p->staging ? texels : 0;
        if (!p->staging)
            return NB_ERR_NOMEM;
    }
    free(p->m);
    p->m = nb_alloc(n ? n : 1, sizeof *p->m, "fragment precision masses", err);
    return p->m ? NB_OK : NB_ERR_NOMEM;
}

/* The float stream (x, y, z, m) and the double stream (two texels a
 * particle), padded as the compute kernel pads: zero mass far away. */
enum nb_status nb_frag_prec_set_particles(struct nb_frag_prec *p, size_t n, const double *x,
                                          const double *m, struct nb_error *err)
{
    int rows;
    if (stream_rows(n, &rows, err) != NB_OK || ensure_host(p, n, rows, err) != NB_OK)
        return err->status;
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    double *d = p->staging;
    for (size_t t = 0; t < texels; t++) {
        for (int c = 0; c < 3; c++)
            d[4 * t + c] = t < n ? x[3 * t + c] : (double)(float)NB_PAD_COORD;
        d[4 * t + 3] = t < n ? (p->m[t] = m[t]) : NB_PAD_MASS;
    }
    upload_texture(&p->dpos_tex, p->dpos_size, 2 * NB_STREAM_WIDTH, rows, GL_RGBA32UI,
                   GL_RGBA_INTEGER, GL_UNSIGNED_INT, d);
    float *f = p->staging;      /* as ga_precision.comp's buffer: the floats of x, m */
    for (size_t t = 0; t < 4 * texels; t++)
        f[t] = (float)d[t];
    upload_texture(&p->pos_tex, p->pos_size, NB_STREAM_WIDTH, rows, GL_RGBA32F, GL_RGBA,
                   GL_FLOAT, f);
    p->n = n;
    p->rows = rows;
    return nb_gl_check("precision fragment kernel: uploading particles", err);
}

/* One run of program `name` over the particles: mode, or M as A. */
static enum nb_status ga_draw(struct nb_frag_prec *p, const char *name, enum nb_precision mode,
                              double eps, struct nb_error *err)
{
    GLuint program;
    if (nb_gl_program(p->gl, name, &program, err) != NB_OK)
        return err->status;
    glUseProgram(program);
    if (mode == NB_PRECISION_G)         /* G's law reads the double eps2d */
        glUniform1d(nb_gl_loc(NB_LOC_PREC_EPS2D), eps * eps);
    else
        glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)(eps * eps));
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)p->n);
    set_scale(mode == NB_PRECISION_A ? 'm' : (char)('a' + (int)mode), p->log2);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_PREC_POS);
    glBindTexture(GL_TEXTURE_2D, p->pos_tex);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_PREC_DPOS);
    glBindTexture(GL_TEXTURE_2D, p->dpos_tex);
    p->result = draw_passes(p->vao, p->sets, p->rows, p->passes, &p->timer, &p->seconds);
    return nb_gl_check("precision fragment kernel: GA passes", err);
}

/* The scales of E, F (magnitude pass) and H (analytic), the compute
 * pipeline's rule. */
static enum nb_status ga_scales(struct nb_frag_prec *p, enum nb_precision mode, double eps,
                                struct nb_error *err)
{
    p->log2[0] = p->log2[1] = 0;
    if (mode == NB_PRECISION_H)
        return nb_prec_scales_ga_fixed(p->n, p->m, eps, p->log2, err);
    if (mode != NB_PRECISION_E && mode != NB_PRECISION_F)
        return NB_OK;
    size_t texels = (size_t)p->rows * NB_STREAM_WIDTH;
    uint32_t *plane = p->staging, *sums = plane + 8 * texels;
    if (ga_draw(p, "ga_prec_frag_m", NB_PRECISION_A, eps, err) != NB_OK ||
        read_words(&p->sets[p->result], p->n, plane, sums, 1, err) != NB_OK)
        return err->status;
    return nb_prec_scales_measured(mode, (const float *)sums, p->n, " with softening 0",
                                   p->log2, err);
}

enum nb_status nb_frag_prec_run(struct nb_frag_prec *p, enum nb_precision mode, size_t n,
                                double eps, int passes, struct nb_error *err)
{
    char name[32];
    GLuint program;
    if (mode == NB_PRECISION_A || mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "precision fragment kernel: mode %d",
                            (int)mode);
    if (n != p->n || !p->pos_tex)
        return nb_error_set(err, NB_ERR_ARGS, "precision %s: call set_particles after "
                            "set_precision", nb_precision_name(mode));
    snprintf(name, sizeof name, "ga_prec_frag_%c", 'a' + (int)mode);
    p->seconds = 0.0;
    p->run_n = 0;
    /* built here so that a broken shader fails even at n = 0 */
    if (nb_prec_supported(mode, err) != NB_OK ||
        nb_gl_program(p->gl, name, &program, err) != NB_OK ||
        ensure_targets(&p->sets[0], p->rows, err) != NB_OK ||
        ensure_targets(&p->sets[1], p->rows, err) != NB_OK)
        return err->status;
    p->mode = mode;
    p->passes = choose_passes(n, passes);
    if (n == 0)
        return NB_OK;
    if (ga_scales(p, mode, eps, err) != NB_OK || ga_draw(p, name, mode, eps, err) != NB_OK)
        return err->status;
    p->run_n = n;
    return NB_OK;
}

/* The last run's words, interleaved, in the staging after the planes. */
static enum nb_status ga_fetch(struct nb_frag_prec *p, uint32_t **raw, struct nb_error *err)
{
    size_t texels = (size_t)p->rows * NB_STREAM_WIDTH;
    uint32_t *plane = p->staging;
    *raw = plane + 8 * texels;
    return read_words(&p->sets[p->result], p->run_n, plane, *raw, 0, err);
}

enum nb_status nb_frag_prec_read(struct nb_frag_prec *p, double *acc, double *pot,
                                 struct nb_error *err)
{
    uint32_t *raw;
    if (p->run_n == 0)
        return NB_OK;
    if (ga_fetch(p, &raw, err) != NB_OK)
        return err->status;
    nb_prec_ga_finish(p->mode, raw, p->run_n, p->m, p->log2, acc, pot);
    return NB_OK;
}

enum nb_status nb_frag_prec_read_fixed(struct nb_frag_prec *p, int64_t *fixed,
                                       int *acc_log2, int *pot_log2, struct nb_error *err)
{
    uint32_t *raw;
    if (p->mode != NB_PRECISION_H)
        return nb_error_set(err, NB_ERR_ARGS, "fixed-point sums: the last evaluation "
                            "was not precision H");
    if (p->run_n && ga_fetch(p, &raw, err) != NB_OK)
        return err->status;
    if (p->run_n)
        memcpy(fixed, raw, 32 * p->run_n);
    *acc_log2 = p->log2[0];
    *pot_log2 = p->log2[1];
    return NB_OK;
}

double nb_frag_prec_seconds(const struct nb_frag_prec *p) { return p->seconds; }

int nb_frag_prec_passes(const struct nb_frag_prec *p) { return p->passes; }

/* ---- the MD all-pairs kernel ------------------------------------------- */

enum { T_POS, T_DPOS, T_TYPE, T_COEFF, T_DCOEFF, T_COUNT };

struct md_frag_prec {
    struct nb_gl *gl;
    GLuint vao, tex[T_COUNT];
    int size[T_COUNT][2];
    struct word_targets sets[2];
    int result;
    size_t n;
    int rows, passes;
    struct nb_gl_md_params params;
    int log2[2];
    uint32_t *staging;              /* 16 words a texel */
    struct nb_gpu_timer timer;
};

/* The streams in the caller's order: (x, y, z, q) in double and in float
 * (the floats md_precision.comp gets), type - 1, and the coefficient
 * tables; padding texels are never read (the j-loop stops at n). */
static enum nb_status md_upload(struct md_frag_prec *p, const struct nb_md_system *sys,
                                const double *x, struct nb_error *err)
{
    size_t texels = (size_t)p->rows * NB_STREAM_WIDTH;
    int t = p->params.types;
    double *d = (double *)p->staging;
    float *f = (float *)(d + 4 * texels);
    int32_t *type = (int32_t *)(f + 4 * texels);
    memset(p->staging, 0, 64 * texels);
    for (size_t i = 0; i < sys->n; i++) {
        type[i] = sys->type[i] - 1;
        for (int a = 0; a < 3; a++)
            d[4 * i + a] = x[3 * i + a];
        d[4 * i + 3] = sys->q ? sys->q[i] : sys->pot->types.charge[type[i]];
        for (int a = 0; a < 4; a++)
            f[4 * i + a] = (float)d[4 * i + a];
    }
    upload_texture(&p->tex[T_DPOS], p->size[T_DPOS], 2 * NB_STREAM_WIDTH, p->rows,
                   GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, d);
    upload_texture(&p->tex[T_POS], p->size[T_POS], NB_STREAM_WIDTH, p->rows, GL_RGBA32F,
                   GL_RGBA, GL_FLOAT, f);
    upload_texture(&p->tex[T_TYPE], p->size[T_TYPE], NB_STREAM_WIDTH, p->rows, GL_R32I,
                   GL_RED_INTEGER, GL_INT, type);
    upload_texture(&p->tex[T_COEFF], p->size[T_COEFF], 2 * t, t, GL_RGBA32F, GL_RGBA,
                   GL_FLOAT, p->params.coeff);
    upload_texture(&p->tex[T_DCOEFF], p->size[T_DCOEFF], 4 * t, t, GL_RGBA32UI,
                   GL_RGBA_INTEGER, GL_UNSIGNED_INT, p->params.dcoeff);
    return nb_gl_check("precision fragment kernel: uploading the MD system", err);
}

/* One run of the program for mode m ('b'..'h', or 'm'), timed. */
static enum nb_status md_draw(struct md_frag_prec *p, enum nb_md_law law, char m,
                              double *seconds, struct nb_error *err)
{
    static const GLenum units[T_COUNT] = { NB_UNIT_PREC_POS, NB_UNIT_PREC_DPOS,
                                           NB_UNIT_PREC_TYPE, NB_UNIT_PREC_COEFF,
                                           NB_UNIT_PREC_DCOEFF };
    char name[48];
    GLuint program;
    snprintf(name, sizeof name, "md_prec_frag_%s_%c", nb_gl_md_law_suffix(law), m);
    if (nb_gl_program(p->gl, name, &program, err) != NB_OK)
        return err->status;
    uint64_t active = nb_gl_uniforms_of(p->gl, program);
    glUseProgram(program);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)p->n);
    nb_gl_md_set_uniforms(&p->params, active);
    set_scale(m, p->log2);
    for (int k = 0; k < T_COUNT; k++) {
        glActiveTexture(GL_TEXTURE0 + units[k]);
        glBindTexture(GL_TEXTURE_2D, p->tex[k]);
    }
    p->result = draw_passes(p->vao, p->sets, p->rows, p->passes, &p->timer, seconds);
    return nb_gl_check("precision fragment kernel: MD passes", err);
}

/* E, F, H: the scales from the magnitude pass, the compute pipeline's rule. */
static enum nb_status md_scales(struct md_frag_prec *p, enum nb_md_law law,
                                enum nb_precision mode, double *prepass, struct nb_error *err)
{
    size_t texels = (size_t)p->rows * NB_STREAM_WIDTH;
    uint32_t *sums = p->staging + 8 * texels;
    p->log2[0] = p->log2[1] = 0;
    if (mode != NB_PRECISION_E && mode != NB_PRECISION_F && mode != NB_PRECISION_H)
        return NB_OK;
    if (md_draw(p, law, 'm', prepass, err) != NB_OK ||
        read_words(&p->sets[p->result], p->n, p->staging, sums, 1, err) != NB_OK)
        return err->status;
    return nb_prec_scales_measured(mode, (const float *)sums, p->n, "", p->log2, err);
}

static enum nb_status md_run(struct md_frag_prec *p, const struct nb_md_system *sys,
                             const double *x, enum nb_precision mode, double *f, double *pe,
                             double seconds[2], int64_t *fixed, struct nb_error *err)
{
    size_t texels = (size_t)p->rows * NB_STREAM_WIDTH;
    if (!(p->staging = nb_alloc(texels, 64, "fragment MD precision staging", err)))
        return NB_ERR_NOMEM;
    uint32_t *raw = p->staging + 8 * texels;
    if (ensure_targets(&p->sets[0], p->rows, err) != NB_OK ||
        ensure_targets(&p->sets[1], p->rows, err) != NB_OK ||
        md_upload(p, sys, x, err) != NB_OK)
        return err->status;
    if (p->n == 0)
        return NB_OK;
    if (md_scales(p, sys->pot->law, mode, &seconds[1], err) != NB_OK ||
        md_draw(p, sys->pot->law, (char)('a' + (int)mode), &seconds[0], err) != NB_OK ||
        read_words(&p->sets[p->result], p->n, p->staging, raw, 0, err) != NB_OK)
        return err->status;
    nb_md_prec_finish(mode, raw, p->n, p->log2, f, pe, fixed);
    return NB_OK;
}

enum nb_status nb_md_prec_forces_fragment(struct nb_gl *gl, const struct nb_md_system *sys,
                                          const double *x, enum nb_precision mode,
                                          int passes, double *f, double *pe,
                                          double seconds[2], int64_t *fixed,
                                          int *fixed_log2, struct nb_error *err)
{
    struct md_frag_prec p;
    seconds[0] = seconds[1] = 0.0;
    if (mode == NB_PRECISION_A)
        return nb_error_set(err, NB_ERR_ARGS, "MD precision kernel: mode A is the "
                            "fragment MD engine's own");
    if (nb_md_prec_check(sys, mode, err) != NB_OK)
        return err->status;
    if (sys->cell_list)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision %s: the fragment pipeline "
                            "runs the accumulation modes over all pairs only (cell lists "
                            "on the compute pipeline); use --cells-list off",
                            nb_precision_name(mode));
    memset(&p, 0, sizeof p);
    p.gl = gl;
    p.n = sys->n;
    if (stream_rows(p.n, &p.rows, err) != NB_OK)
        return err->status;
    p.passes = choose_passes(p.n, passes);
    nb_gl_md_params(&p.params, sys);
    glGenVertexArrays(1, &p.vao);
    nb_gpu_timer_init(&p.timer, gl);
    enum nb_status st = md_run(&p, sys, x, mode, f, pe, seconds, fixed, err);
    if (st == NB_OK && fixed_log2) {
        fixed_log2[0] = p.log2[0];
        fixed_log2[1] = p.log2[1];
    }
    for (int s = 0; s < 2; s++)
        release_targets(&p.sets[s]);
    glDeleteTextures(T_COUNT, p.tex);
    glDeleteVertexArrays(1, &p.vao);
    nb_gpu_timer_free(&p.timer);
    free(p.staging);
    return st;
}
