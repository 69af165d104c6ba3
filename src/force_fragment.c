/* force_fragment.c - the fragment-shader stream pipeline (glsl/ga.frag).
 *
 * The Brook/Cg model of seeds 000 and 001: the particle stream is an
 * RGBA32F texture, a kernel is a fragment program drawn over off-screen
 * RGBA32F render targets (four at once for the 4x4 MRT kernel), results are
 * read back with glReadPixels.  Two knobs from the papers:
 *  - i-replication R (seed 000 section 3.4): the target holds R copies of
 *    the i-stream, copy r sums 1/R of the j-stream, reduce.frag adds them,
 *    so small N still gives enough fragments to fill the GPU;
 *  - passes P: the j-stream is also cut into P chunks drawn one after the
 *    other, each adding the previous pass's sum read from the other of two
 *    ping-pong framebuffers, so that no draw lasts long enough for a
 *    driver's watchdog (a seconds-long draw returned garbage on the H200).
 *    Automatic passes shorten the draws on a GPU where they run long.
 * The GA kernel's accumulation modes B..H (set_precision) run the
 * precision kernel of fragment_precision.c instead, variant
 * "prec1x1-p<P>"; the GAJ kernel stays in float (A). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

/* Draw length: automatic passes give a draw at most 2^28 interactions
 * (5 ms on the H200's graphics share) and halve that after an evaluation
 * whose draws took over 100 ms, so no draw nears a driver's watchdog.
 * Longer draws did not pay on the H200: 4x4 at N = 65536 ran 4.7e10
 * interactions/s with 17 passes, 4.1e10 with 4 and 3.6e10 with 3. */
#define NB_FRAGMENT_DRAW_START (1.0 * (1 << 28))
#define NB_FRAGMENT_DRAW_MIN (1.0 * (1 << 20))
#define NB_FRAGMENT_DRAW_SECONDS 0.1
/* Fragments that keep a GPU's fragment units busy; replication aims here
 * (on the H200, 4x4 at N = 65536: 3.9e10 interactions/s with 16384
 * fragments, 4.7e10 with 65536). */
#define NB_FRAGMENT_FILL 65536
/* Replication stops where a copy would see fewer j-particles than this. */
#define NB_FRAGMENT_MIN_SLICE 256
#define NB_FRAGMENT_PROBE_SECONDS 0.1

enum { SET_PING, SET_PONG, SET_FINAL, SET_COUNT };

static const char *const fragment_variants[] = { "1x1", "1x4", "4x4", NULL };
#define NB_FRAGMENT_DEFAULT "4x4"

struct target_set {
    GLuint fbo;
    GLuint tex[NB_MRT_MAX];
    int width, height, count;
};

struct fragment {
    struct nb_gl *gl;
    int per_frag, unroll;           /* i per fragment, j unroll: 4x4 -> 4, 4 */
    int replicas, passes;           /* 0: automatic */
    int used_replicas, used_passes;
    double draw_budget;             /* interactions a draw, automatic passes */
    struct nb_gl_choice choice;     /* "auto" and what it chose for */
    GLuint pos_tex, vao;
    size_t n;
    int npad, rows;                 /* stream length padded to 4, its rows */
    struct target_set sets[SET_COUNT];
    int result_set;
    struct nb_gpu_timer timer;
    double seconds;
    float *staging;
    size_t staging_count;
    char variant[48];
    /* GAJ: the j-set's velocities, the gathered active block, and host
     * copies of the packed j-set that the gather reads. */
    GLuint vel_tex, ipos_tex, ivel_tex;
    int vel_rows, i_rows;           /* rows of those textures as allocated */
    size_t n_active;
    float *host_pos, *host_vel;
    size_t host_count;
    /* Hermite state on the device (--predict gpu): five state textures
     * (x_hi+m, x_lo, v+t0_hi, a+t0_lo, j), a corrected block in the same
     * layout, index textures, and framebuffers over state, j-set, i-set. */
    GLuint state_tex[NB_STATE_TARGETS], block_tex[NB_STATE_TARGETS];
    GLuint block_index_tex, active_index_tex;
    int state_rows, block_rows, block_index_rows, active_rows;
    GLuint state_fbo, jset_fbo, iset_fbo;
    int j_on_device;                /* the j-set was predicted on the GPU */
    int last_gaj;                   /* the last evaluation was GAJ (for variant()) */
    /* GA accumulation modes B..H (fragment_precision.c), created on first
     * use; the variant "prec1x1[-p<P>]" names that kernel. */
    enum nb_precision precision;
    struct nb_frag_prec *prec;
    int prec_variant;
};

/* The shape of one kernel run over the streams: what choose_split,
 * prepare and draw_passes need, the same for GA and GAJ. */
struct shape {
    const char *kernel;             /* program names */
    const char *reduce;
    int targets;                    /* render targets written per fragment */
    int width, rows;                /* fragments of one replica */
    int npad;                       /* j-stream length, a multiple of 4 */
    double interactions;            /* per evaluation */
    int extra_count;                /* textures the kernel reads beside pos */
    int extra_units[3];
    GLuint extra_textures[3];
};

/* "prec1x1[-p<P>]": the precision kernel (one i per fragment), P passes. */
static enum nb_status parse_prec_variant(struct fragment *f, const char *name,
                                         struct nb_error *err)
{
    int p = 0, used = 0;
    if (name[7] && (sscanf(name + 7, "-p%d%n", &p, &used) != 1 || p < 1 || name[7 + used]))
        return nb_error_set(err, NB_ERR_ARGS, "unknown fragment variant '%s' "
                            "(prec1x1, then optionally -p<passes>)", name);
    f->per_frag = f->unroll = 1;
    f->replicas = 0;
    f->passes = p;
    f->prec_variant = 1;
    f->choice.automatic = 0;
    return NB_OK;
}

static enum nb_status parse_variant(struct fragment *f, const char *name,
                                    struct nb_error *err)
{
    if (strncmp(name, "prec1x1", 7) == 0)
        return parse_prec_variant(f, name, err);
    int i, j, r = 0, p = 0, used = 0, ok = sscanf(name, "%dx%d%n", &i, &j, &used) == 2;
    const char *rest = name + used;
    if (ok && rest[0] == '-' && rest[1] == 'r')
        ok = sscanf(rest, "-r%d%n", &r, &used) == 1 && r >= 1, rest += used;
    if (ok && rest[0] == '-' && rest[1] == 'p')
        ok = sscanf(rest, "-p%d%n", &p, &used) == 1 && p >= 1, rest += used;
    char program[32];
    snprintf(program, sizeof program, "ga_frag_%dx%d", ok ? i : 0, ok ? j : 0);
    if (!ok || *rest || !nb_gl_program_find(program))
        return nb_error_set(err, NB_ERR_ARGS, "unknown fragment variant '%s' "
                            "(1x1, 1x4 or 4x4, then optionally -r<replicas> and "
                            "-p<passes>, or auto; prec1x1[-p<passes>] with "
                            "--precision B..H)", name);
    f->prec_variant = 0;
    f->per_frag = i;
    f->unroll = j;
    f->replicas = r;
    f->passes = p;
    f->choice.automatic = 0;
    return NB_OK;
}

static enum nb_status parse_variant_state(void *state, const char *name,
                                          struct nb_error *err)
{
    return parse_variant(state, name, err);
}

static enum nb_status fragment_set_variant(void *state, const char *name,
                                           struct nb_error *err)
{
    struct fragment *f = state;
    if (strcmp(name, "auto") != 0)
        return parse_variant(f, name, err);
    if (parse_variant(f, NB_FRAGMENT_DEFAULT, err) != NB_OK)
        return err->status;
    f->choice = (struct nb_gl_choice){ 1, 0 };
    return NB_OK;
}

static int max_texture_size(void)
{
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    return max;
}

GLuint nb_gl_new_texture(int width, int height, GLenum format)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, width, height);
    /* texelFetch needs a complete texture: no mipmaps. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

static GLuint new_texture(int width, int height)
{
    return nb_gl_new_texture(width, height, GL_RGBA32F);
}

static void release_set(struct target_set *s)
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
    static const GLenum attachments[NB_MRT_MAX] = {
        GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1,
        GL_COLOR_ATTACHMENT2, GL_COLOR_ATTACHMENT3 };
    if (s->fbo && s->width == width && s->height == height && s->count == count)
        return NB_OK;
    release_set(s);
    glGenFramebuffers(1, &s->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    for (int k = 0; k < count; k++) {
        s->tex[k] = new_texture(width, height);
        glFramebufferTexture2D(GL_FRAMEBUFFER, attachments[k], GL_TEXTURE_2D, s->tex[k], 0);
    }
    s->width = width, s->height = height, s->count = count;
    glDrawBuffers(count, attachments);
    if (nb_gl_check("allocating render targets", err) != NB_OK)
        return err->status;
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return nb_error_set(err, NB_ERR_GL, "framebuffer of %d RGBA32F targets "
                            "%dx%d incomplete (0x%04x)", count, width, height, status);
    return NB_OK;
}

static enum nb_status ensure_staging(struct fragment *f, size_t texels,
                                     struct nb_error *err)
{
    if (f->staging_count >= texels)
        return NB_OK;
    free(f->staging);
    f->staging = nb_alloc(4 * texels, sizeof(float), "texture staging", err);
    f->staging_count = f->staging ? texels : 0;
    return f->staging ? NB_OK : NB_ERR_NOMEM;
}

/* Uploads rows x NB_STREAM_WIDTH texels, re-creating the texture when its
 * height changes (immutable storage). */
static void upload_stream(GLuint *tex, int old_rows, int rows, const float *texels)
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

/* Rows of a stream of n particles padded to 4; NB_ERR_LIMIT past the
 * texture size. */
enum nb_status nb_gl_stream_rows(size_t n, size_t pad, size_t max_n, const char *what,
                                 int *rows, struct nb_error *err)
{
    size_t npad = (n + pad - 1) / pad * pad;
    size_t r = npad ? (npad + NB_STREAM_WIDTH - 1) / NB_STREAM_WIDTH : 1;
    if (r > (size_t)max_texture_size())
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu particles need a %dx%zu texture, "
                            "over this GL's GL_MAX_TEXTURE_SIZE of %d", what, n,
                            NB_STREAM_WIDTH, r, max_texture_size());
    if (n > max_n)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu particles, more than the %zu its "
                            "indices reach", what, n, max_n);
    *rows = (int)r;
    return NB_OK;
}

/* The GA and GAJ streams: padded to the 4 i-particles of a fragment. */
static enum nb_status stream_rows(size_t n, int *rows, struct nb_error *err)
{
    return nb_gl_stream_rows(n, 4, INT_MAX / 8, "fragment backend", rows, err);
}

/* Texels t >= from of a packed stream become padding: far away, no mass
 * (w = pad_w: the mass, or -1 as the index of an i-stream). */
static void pad_stream(float *texels, size_t from, size_t to, float pad_w)
{
    for (size_t t = from; t < to; t++) {
        float *p = texels + 4 * t;
        p[0] = p[1] = p[2] = (float)NB_PAD_COORD;
        p[3] = pad_w;
    }
}

/* The particle stream: whole rows, padding particles after the last. */
/* Packs the positions and masses into `texels` (rows whole rows, padded)
 * and uploads them as the j-stream. */
static enum nb_status upload_positions(struct fragment *f, size_t n, const double *x,
                                       const double *m, int rows, float *texels,
                                       struct nb_error *err)
{
    nb_gl_pack_particles(texels, n, x, m);
    pad_stream(texels, n, (size_t)rows * NB_STREAM_WIDTH, (float)NB_PAD_MASS);
    upload_stream(&f->pos_tex, f->rows, rows, texels);
    f->n = n;
    f->npad = (int)((n + 3) / 4 * 4);
    f->rows = rows;
    return nb_gl_check("uploading the particle texture", err);
}

static enum nb_status fragment_set_particles(void *state, size_t n,
                                             const double *x, const double *m,
                                             struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (stream_rows(n, &rows, err) != NB_OK ||
        ensure_staging(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        (f->prec && nb_frag_prec_set_particles(f->prec, n, x, m, err) != NB_OK))
        return err->status;
    return upload_positions(f, n, x, m, rows, f->staging, err);
}

/* Replicas fill the GPU with fragments; passes bound a draw's length. */
static void choose_split(struct fragment *f, const struct shape *sh)
{
    int fragments = sh->width * sh->rows;
    int r = f->replicas ? f->replicas : nb_gl_ceil_div(NB_FRAGMENT_FILL, fragments);
    int r_max = max_texture_size() / sh->rows;
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
    int slice_len = nb_gl_ceil_div(nb_gl_ceil_div(sh->npad, r * p), 4) * 4;
    glUseProgram(prog);
    glUniform1f(NB_LOC_EPS2, eps2);
    glUniform1i(NB_LOC_NPAD, sh->npad);
    glUniform1i(NB_LOC_SLICE_LEN, slice_len);
    glUniform1i(NB_LOC_PASSES, p);
    glUniform1i(NB_LOC_ROWS, sh->rows);
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
        glUniform1i(NB_LOC_PASS, pass);
        glUniform1i(NB_LOC_ACCUMULATE, pass > 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    f->result_set = (p - 1) & 1;
}

/* Sums the replicas into the final set. */
static void reduce_replicas(struct fragment *f, const struct shape *sh, GLuint prog)
{
    glUseProgram(prog);
    glUniform1i(NB_LOC_ROWS, sh->rows);
    glUniform1i(NB_LOC_REPLICAS, f->used_replicas);
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
static enum nb_status run_shape(struct fragment *f, const struct shape *sh, float eps2,
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
static enum nb_status run_timed(struct fragment *f, float eps2, struct nb_error *err)
{
    char kernel[32], reduce[32];
    snprintf(kernel, sizeof kernel, "ga_frag_%dx%d", f->per_frag, f->unroll);
    snprintf(reduce, sizeof reduce, "reduce_frag_%d", f->per_frag);
    const struct shape sh = { kernel, reduce, f->per_frag, NB_STREAM_WIDTH / f->per_frag,
                              f->rows, f->npad, (double)f->npad * f->npad, 0, { 0 }, { 0 } };
    return run_shape(f, &sh, eps2, err);
}

static enum nb_status run_state(void *state, float eps2, struct nb_error *err)
{
    return run_timed(state, eps2, err);
}

/* ---- GAJ: the Hermite kernel on an active block (gaj.frag) ------------ */

static enum nb_status ensure_host_copies(struct fragment *f, size_t texels,
                                         struct nb_error *err)
{
    if (f->host_count >= texels)
        return NB_OK;
    free(f->host_pos);
    free(f->host_vel);
    glDeleteTextures(NB_STATE_TARGETS, f->state_tex);
    glDeleteTextures(NB_STATE_TARGETS, f->block_tex);
    glDeleteTextures(1, &f->block_index_tex);
    glDeleteTextures(1, &f->active_index_tex);
    GLuint fbos[3] = { f->state_fbo, f->jset_fbo, f->iset_fbo };
    glDeleteFramebuffers(3, fbos);
    f->host_pos = nb_alloc(4 * texels, sizeof(float), "GAJ host stream", err);
    f->host_vel = f->host_pos ? nb_alloc(4 * texels, sizeof(float), "GAJ host stream", err)
                              : NULL;
    f->host_count = f->host_vel ? texels : 0;
    return f->host_vel ? NB_OK : NB_ERR_NOMEM;
}

/* The j-set: positions as for GA, velocities beside them, both packed
 * straight into the host copies that the gather of the active blocks
 * reads. */
static enum nb_status fragment_set_j(void *state, size_t n, const double *x,
                                     const double *v, const double *m,
                                     struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (stream_rows(n, &rows, err) != NB_OK ||
        ensure_host_copies(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        upload_positions(f, n, x, m, rows, f->host_pos, err) != NB_OK)
        return err->status;
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    memset(f->host_vel, 0, 16 * texels);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
            f->host_vel[4 * i + d] = (float)v[3 * i + d];
    upload_stream(&f->vel_tex, f->vel_rows, f->rows, f->host_vel);
    f->vel_rows = f->rows;
    f->j_on_device = 0;
    return nb_gl_check("uploading the velocity texture", err);
}

/* Gathers the active block into the i-textures; position w carries the
 * particle's index (exact in float below 2^24), -1 marks padding. */
static enum nb_status gather_block(struct fragment *f, size_t na, const uint32_t *active,
                                   struct nb_error *err)
{
    int rows = 0;
    if (stream_rows(na, &rows, err) != NB_OK)
        return err->status;
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    if (ensure_staging(f, 2 * texels, err) != NB_OK)
        return err->status;
    float *ipos = f->staging, *ivel = f->staging + 4 * texels;
    for (size_t k = 0; k < na; k++) {
        if (active[k] >= f->n || active[k] >= (1u << 24))
            return nb_error_set(err, active[k] >= f->n ? NB_ERR_ARGS : NB_ERR_LIMIT,
                                "GAJ: active index %u out of range (%zu particles, "
                                "at most 2^24 in the fragment pipeline)",
                                (unsigned)active[k], f->n);
        memcpy(ipos + 4 * k, f->host_pos + 4 * (size_t)active[k], 12);
        ipos[4 * k + 3] = (float)active[k];
        memcpy(ivel + 4 * k, f->host_vel + 4 * (size_t)active[k], 16);
    }
    pad_stream(ipos, na, texels, -1.0f);
    memset(ivel + 4 * na, 0, 16 * (texels - na));
    upload_stream(&f->ipos_tex, f->i_rows, rows, ipos);
    upload_stream(&f->ivel_tex, f->i_rows, rows, ivel);
    f->i_rows = rows;
    f->n_active = na;
    return nb_gl_check("uploading the active block", err);
}

/* ---- the Hermite state on the device (--predict gpu) ------------------ */

/* A framebuffer over `count` textures (re-attached on every call: cheap,
 * and the textures may have been re-made). */
static enum nb_status attach(GLuint *fbo, const GLuint *tex, int count,
                             struct nb_error *err)
{
    static const GLenum slots[] = {
        GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2,
        GL_COLOR_ATTACHMENT3, GL_COLOR_ATTACHMENT4 };
    if (!*fbo)
        glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    for (int k = 0; k < count; k++)
        glFramebufferTexture2D(GL_FRAMEBUFFER, slots[k], GL_TEXTURE_2D, tex[k], 0);
    glDrawBuffers(count, slots);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return nb_error_set(err, NB_ERR_GL, "framebuffer over %d stream textures "
                            "incomplete (0x%04x)", count, status);
    return nb_gl_check("state framebuffer", err);
}

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
 * split into float hi/lo pairs (x = hi + lo, about 48 bits). */
static void pack_state(float *out[NB_STATE_TARGETS], size_t count, size_t texels,
                       const double *x, const double *v, const double *a,
                       const double *jerk, const double *t0, const double *m)
{
    for (size_t k = 0; k < texels; k++)
        for (int q = 0; q < NB_STATE_TARGETS; q++)
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
        }
        float t_hi = (float)t0[k];
        out[0][4 * k + 3] = m ? (float)m[k] : 0.0f;
        out[2][4 * k + 3] = t_hi;
        out[3][4 * k + 3] = (float)(t0[k] - t_hi);
    }
}

/* Packs and uploads five textures of `rows` rows (state or block). */
static enum nb_status upload_state_set(struct fragment *f, GLuint tex[NB_STATE_TARGETS],
                                       int old_rows, int rows, size_t count,
                                       const double *x, const double *v, const double *a,
                                       const double *jerk, const double *t0,
                                       const double *m, struct nb_error *err)
{
    size_t texels = (size_t)rows * NB_STREAM_WIDTH;
    if (ensure_staging(f, NB_STATE_TARGETS * texels, err) != NB_OK)
        return err->status;
    float *planes[NB_STATE_TARGETS];
    for (int q = 0; q < NB_STATE_TARGETS; q++)
        planes[q] = f->staging + 4 * texels * (size_t)q;
    pack_state(planes, count, texels, x, v, a, jerk, t0, m);
    for (int q = 0; q < NB_STATE_TARGETS; q++)
        upload_stream(&tex[q], old_rows, rows, planes[q]);
    return nb_gl_check("uploading Hermite state", err);
}

static enum nb_status fragment_load_state(void *state, size_t n, const double *x,
                                          const double *v, const double *a,
                                          const double *jerk, const double *t0,
                                          const double *m, struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (stream_rows(n, &rows, err) != NB_OK ||
        upload_state_set(f, f->state_tex, f->state_rows, rows, n, x, v, a, jerk, t0, m,
                         err) != NB_OK)
        return err->status;
    f->state_rows = rows;
    /* The j-textures the predictor writes: made to size if set_j was not. */
    if (f->rows != rows || !f->pos_tex || f->vel_rows != rows) {
        float *pad = f->staging;
        memset(pad, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        upload_stream(&f->pos_tex, f->rows, rows, pad);
        upload_stream(&f->vel_tex, f->vel_rows, rows, pad);
        f->vel_rows = rows;
    }
    f->n = n;
    f->npad = (int)((n + 3) / 4 * 4);
    f->rows = rows;
    return attach(&f->state_fbo, f->state_tex, NB_STATE_TARGETS, err);
}

/* Scatter: one point per block particle onto its texel of the state. */
static enum nb_status fragment_update_state(void *state, size_t nb, const uint32_t *idx,
                                            const double *x, const double *v,
                                            const double *a, const double *jerk,
                                            const double *t0, struct nb_error *err)
{
    struct fragment *f = state;
    GLuint prog;
    int rows = 0;
    if (nb == 0)
        return NB_OK;
    if (!f->state_fbo)
        return nb_error_set(err, NB_ERR_ARGS, "update_state before load_state");
    for (size_t k = 0; k < nb; k++)
        if (idx[k] >= f->n)
            return nb_error_set(err, NB_ERR_ARGS, "update_state: index %u out of range",
                                (unsigned)idx[k]);
    if (stream_rows(nb, &rows, err) != NB_OK ||
        nb_gl_program(f->gl, "scatter_frag", &prog, err) != NB_OK ||
        upload_state_set(f, f->block_tex, f->block_rows, rows, nb, x, v, a, jerk, t0,
                         NULL, err) != NB_OK)
        return err->status;
    f->block_rows = rows;
    upload_indices(f, &f->block_index_tex, &f->block_index_rows, rows, nb, idx);
    if (attach(&f->state_fbo, f->state_tex, NB_STATE_TARGETS, err) != NB_OK)
        return err->status;
    glUseProgram(prog);
    glUniform1i(NB_LOC_ROWS, f->state_rows);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_INDEX);
    glBindTexture(GL_TEXTURE_2D, f->block_index_tex);
    for (int q = 0; q < NB_STATE_TARGETS; q++) {
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

static enum nb_status fragment_predict_j(void *state, double t, struct nb_error *err)
{
    struct fragment *f = state;
    GLuint prog;
    if (!f->state_fbo)
        return nb_error_set(err, NB_ERR_ARGS, "predict_j before load_state");
    const GLuint jset[2] = { f->pos_tex, f->vel_tex };
    if (nb_gl_program(f->gl, "predict_frag", &prog, err) != NB_OK ||
        attach(&f->jset_fbo, jset, 2, err) != NB_OK)
        return err->status;
    float t_hi = (float)t;
    glUseProgram(prog);
    glUniform1f(NB_LOC_TIME_HI, t_hi);
    glUniform1f(NB_LOC_TIME_LO, (float)(t - t_hi));
    for (int q = 0; q < NB_STATE_TARGETS; q++) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_STATE + (GLenum)q);
        glBindTexture(GL_TEXTURE_2D, f->state_tex[q]);
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
    for (size_t k = 0; k < na; k++)
        if (active[k] >= f->n || active[k] >= (1u << 24))
            return nb_error_set(err, NB_ERR_ARGS, "GAJ: active index %u out of range",
                                (unsigned)active[k]);
    if (stream_rows(na, &rows, err) != NB_OK ||
        ensure_staging(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        nb_gl_program(f->gl, "gather_frag", &prog, err) != NB_OK)
        return err->status;
    upload_indices(f, &f->active_index_tex, &f->active_rows, rows, na, active);
    if (f->i_rows != rows || !f->ipos_tex) {
        memset(f->staging, 0, 16 * (size_t)rows * NB_STREAM_WIDTH);
        upload_stream(&f->ipos_tex, f->i_rows, rows, f->staging);
        upload_stream(&f->ivel_tex, f->i_rows, rows, f->staging);
        f->i_rows = rows;
    }
    const GLuint iset[2] = { f->ipos_tex, f->ivel_tex };
    if (attach(&f->iset_fbo, iset, 2, err) != NB_OK)
        return err->status;
    glUseProgram(prog);
    static const int units[] = { NB_UNIT_POS, NB_UNIT_VEL, NB_UNIT_INDEX };
    const GLuint tex[] = { f->pos_tex, f->vel_tex, f->active_index_tex };
    for (int k = 0; k < 3; k++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)units[k]);
        glBindTexture(GL_TEXTURE_2D, tex[k]);
    }
    glViewport(0, 0, NB_STREAM_WIDTH, rows);
    glBindVertexArray(f->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    f->n_active = na;
    return nb_gl_check("gathering the active block", err);
}

static enum nb_status fragment_gaj(void *state, double eps, size_t na,
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
    const struct shape sh = {
        "gaj_frag_1x4", "reduce_frag_2", 2, NB_STREAM_WIDTH, f->i_rows, f->npad,
        (double)na * f->npad, 3, { NB_UNIT_VEL, NB_UNIT_IPOS, NB_UNIT_IVEL },
        { f->vel_tex, f->ipos_tex, f->ivel_tex } };
    f->last_gaj = 1;
    return run_shape(f, &sh, (float)(eps * eps), err);
}

/* Target 0 holds acc + pot, target 1 jerk, at texel k of the block. */
static enum nb_status fragment_read_gaj(void *state, double *acc, double *jerk,
                                        double *pot, struct nb_error *err)
{
    struct fragment *f = state;
    const struct target_set *s = &f->sets[f->result_set];
    size_t texels = (size_t)f->i_rows * NB_STREAM_WIDTH;
    if (f->n_active == 0)
        return NB_OK;
    if (ensure_staging(f, 2 * texels, err) != NB_OK)
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

static double fragment_last_seconds(void *state)
{
    struct fragment *f = state;
    if (!f->last_gaj && f->precision != NB_PRECISION_A)
        return nb_frag_prec_seconds(f->prec);
    return f->seconds;
}

static enum nb_status fragment_compute(void *state, enum nb_kernel kernel,
                                       double eps, struct nb_error *err)
{
    struct fragment *f = state;
    if (kernel != NB_KERNEL_GA)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "fragment backend: kernel %d "
                            "not implemented", (int)kernel);
    f->last_gaj = 0;
    if (f->precision != NB_PRECISION_A)     /* B..H: the -p of the variant, or auto */
        return nb_frag_prec_run(f->prec, f->precision, f->n, eps, f->passes, err);
    if (f->prec_variant)
        return nb_error_set(err, NB_ERR_ARGS, "fragment variant prec1x1 is the kernel "
                            "of the accumulation modes: it needs precision B..H");
    if (f->n == 0)
        return NB_OK;
    float eps2 = (float)(eps * eps);
    const struct nb_gl_tunable t = { f, fragment_variants, parse_variant_state, run_state,
                                     fragment_last_seconds, NB_FRAGMENT_PROBE_SECONDS };
    return nb_gl_evaluate(&t, &f->choice, f->n, eps2, err);
}

/* Target k of a set holds i = (row * width + x) * per_frag + k. */
static enum nb_status fragment_read(void *state, double *acc, double *pot,
                                    struct nb_error *err)
{
    struct fragment *f = state;
    const struct target_set *s = &f->sets[f->result_set];
    int width = NB_STREAM_WIDTH / f->per_frag;
    if (f->precision != NB_PRECISION_A)
        return nb_frag_prec_read(f->prec, acc, pot, err);
    if (f->n == 0)
        return NB_OK;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = 0; k < f->per_frag; k++) {
        glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)k);
        glReadPixels(0, 0, width, f->rows, GL_RGBA, GL_FLOAT, f->staging);
        if (nb_gl_check("reading the render targets", err) != NB_OK)
            return err->status;
        for (size_t t = 0; t < (size_t)width * (size_t)f->rows; t++) {
            size_t i = t * (size_t)f->per_frag + (size_t)k;
            if (i >= f->n)
                break;
            for (int d = 0; d < 3; d++)
                acc[3 * i + d] = f->staging[4 * t + d];
            pot[i] = f->staging[4 * t + 3];
        }
    }
    return NB_OK;
}


/* Selects the accumulation mode of the GA kernel; B..H run
 * ga_precision.frag (fragment_precision.c). */
static enum nb_status fragment_set_precision(void *state, enum nb_precision mode,
                                             struct nb_error *err)
{
    struct fragment *f = state;
    if (mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "fragment backend: precision %d", (int)mode);
    if (mode != NB_PRECISION_A &&
        (nb_prec_supported(mode, err) != NB_OK ||
         (!f->prec && !(f->prec = nb_frag_prec_create(f->gl, err)))))
        return err->status;
    f->precision = mode;
    return NB_OK;
}

enum nb_status nb_backend_fragment_read_fixed(const struct nb_force_backend *b,
                                              int64_t *fixed, int *acc_log2,
                                              int *pot_log2, struct nb_error *err)
{
    const struct fragment *f = b->state;
    if (strcmp(b->name, "fragment") != 0 || f->precision != NB_PRECISION_H || !f->prec)
        return nb_error_set(err, NB_ERR_ARGS, "fixed-point sums: not a fragment backend "
                            "in precision H");
    return nb_frag_prec_read_fixed(f->prec, fixed, acc_log2, pot_log2, err);
}

/* The variant as run: "4x4-r4-p1"; the precision kernel "prec1x1-p3". */
static const char *fragment_variant(void *state)
{
    struct fragment *f = state;
    if (f->last_gaj) {
        snprintf(f->variant, sizeof f->variant, "gaj-1x4-r%d-p%d", f->used_replicas,
                 f->used_passes);
        return f->variant;
    }
    if (f->precision != NB_PRECISION_A || f->prec_variant) {
        int p = f->prec ? nb_frag_prec_passes(f->prec) : 0;
        snprintf(f->variant, sizeof f->variant, "prec1x1-p%d",
                 p ? p : f->passes ? f->passes : 1);
        return f->variant;
    }
    snprintf(f->variant, sizeof f->variant, "%dx%d-r%d-p%d", f->per_frag, f->unroll,
             f->used_replicas ? f->used_replicas : f->replicas ? f->replicas : 1,
             f->used_passes ? f->used_passes : f->passes ? f->passes : 1);
    return f->variant;
}

static const char *fragment_renderer(void *state)
{
    return nb_gl_renderer(((struct fragment *)state)->gl);
}

static const char *const *fragment_variant_list(void *state)
{
    (void)state;
    return fragment_variants;
}

static void fragment_destroy(void *state)
{
    struct fragment *f = state;
    if (!f)
        return;
    for (int s = 0; s < SET_COUNT; s++)
        release_set(&f->sets[s]);
    glDeleteTextures(1, &f->pos_tex);
    glDeleteTextures(1, &f->vel_tex);
    glDeleteTextures(1, &f->ipos_tex);
    glDeleteTextures(1, &f->ivel_tex);
    free(f->host_pos);
    free(f->host_vel);
    glDeleteVertexArrays(1, &f->vao);
    nb_gpu_timer_free(&f->timer);
    nb_frag_prec_destroy(f->prec);
    free(f->staging);
    free(f);
}

enum nb_status nb_backend_fragment_create(struct nb_force_backend *b,
                                          struct nb_gl *gl, struct nb_error *err)
{
    GLint draw_buffers = 0;
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &draw_buffers);
    if (draw_buffers < NB_MRT_MAX)
        return nb_error_set(err, NB_ERR_LIMIT, "the 4x4 kernel needs %d render "
                            "targets; this GL allows %d", NB_MRT_MAX, draw_buffers);
    struct fragment *f = nb_alloc(1, sizeof *f, "fragment backend", err);
    if (!f)
        return NB_ERR_NOMEM;
    f->gl = gl;
    f->draw_budget = NB_FRAGMENT_DRAW_START;
    glGenVertexArrays(1, &f->vao);      /* core profile: draws need a VAO */
    nb_gpu_timer_init(&f->timer, gl);
    fragment_set_variant(f, "auto", err);
    *b = (struct nb_force_backend){
        .name = "fragment", .state = f, .set_variant = fragment_set_variant,
        .caps = 0,      /* GA modes only; float sums, no cell lists */
        .set_particles = fragment_set_particles, .compute = fragment_compute,
        .read = fragment_read, .last_seconds = fragment_last_seconds,
        .variant = fragment_variant, .renderer = fragment_renderer,
        .variants = fragment_variant_list, .set_precision = fragment_set_precision,
        .set_j = fragment_set_j,
        .compute_gaj = fragment_gaj, .read_gaj = fragment_read_gaj,
        .load_state = fragment_load_state, .update_state = fragment_update_state,
        .predict_j = fragment_predict_j, .destroy = fragment_destroy };
    return NB_OK;
}
