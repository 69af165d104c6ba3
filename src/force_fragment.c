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
 *    Automatic passes shorten the draws on a GPU where they run long. */
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
    int pos_rows;                   /* rows of pos_tex as allocated */
    size_t n;
    int npad, rows;                 /* stream length padded to 4, its rows */
    struct target_set sets[SET_COUNT];
    int result_set;
    struct nb_gpu_timer timer;
    double seconds;
    float *staging;
    size_t staging_count;
    char variant[48];
};

static enum nb_status parse_variant(struct fragment *f, const char *name,
                                    struct nb_error *err)
{
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
                            "-p<passes>, or auto)", name);
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

static GLuint new_texture(int width, int height)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, width, height);
    /* texelFetch needs a complete texture: no mipmaps. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
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

/* The particle stream: whole rows, padding particles after the last. */
static enum nb_status fragment_set_particles(void *state, size_t n,
                                             const double *x, const double *m,
                                             struct nb_error *err)
{
    struct fragment *f = state;
    size_t npad = (n + 3) / 4 * 4;
    size_t rows = npad ? (npad + NB_STREAM_WIDTH - 1) / NB_STREAM_WIDTH : 1;
    if (n > INT_MAX / 8 || rows > (size_t)max_texture_size())
        return nb_error_set(err, NB_ERR_LIMIT, "%zu particles need a %dx%zu texture, "
                            "over this GL's GL_MAX_TEXTURE_SIZE of %d", n,
                            NB_STREAM_WIDTH, rows, max_texture_size());
    size_t texels = rows * NB_STREAM_WIDTH;
    if (ensure_staging(f, texels, err) != NB_OK)
        return err->status;
    nb_gl_pack_particles(f->staging, n, x, m);
    for (size_t t = n; t < texels; t++) {
        float *p = f->staging + 4 * t;
        p[0] = p[1] = p[2] = (float)NB_PAD_COORD;
        p[3] = (float)NB_PAD_MASS;
    }
    if (f->pos_tex && f->pos_rows != (int)rows) {
        glDeleteTextures(1, &f->pos_tex);
        f->pos_tex = 0;
    }
    if (!f->pos_tex)
        f->pos_tex = new_texture(NB_STREAM_WIDTH, (int)rows);
    glBindTexture(GL_TEXTURE_2D, f->pos_tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, NB_STREAM_WIDTH, (int)rows, GL_RGBA,
                    GL_FLOAT, f->staging);
    f->pos_rows = (int)rows;
    f->n = n;
    f->npad = (int)npad;
    f->rows = (int)rows;
    return nb_gl_check("uploading the particle texture", err);
}

/* Replicas fill the GPU with fragments; passes bound a draw's length. */
static void choose_split(struct fragment *f)
{
    int fragments = NB_STREAM_WIDTH / f->per_frag * f->rows;
    int r = f->replicas ? f->replicas : nb_gl_ceil_div(NB_FRAGMENT_FILL, fragments);
    int r_max = max_texture_size() / f->rows;
    if (!f->replicas && r > f->npad / NB_FRAGMENT_MIN_SLICE)
        r = f->npad / NB_FRAGMENT_MIN_SLICE;
    r = r < 1 ? 1 : r > r_max ? r_max : r;
    double total = (double)f->npad * f->npad;
    int p = f->passes ? f->passes : (int)(total / f->draw_budget) + 1;
    /* Every slice keeps at least one 4-particle block. */
    while (r * p > f->npad / 4 && (p > 1 || r > 1))
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

/* Builds the programs and the render targets the current variant needs,
 * so that compilation and allocation stay out of the timings. */
static enum nb_status prepare(struct fragment *f, GLuint *ga, GLuint *reduce,
                              struct nb_error *err)
{
    char name[32];
    int width = NB_STREAM_WIDTH / f->per_frag, r = f->used_replicas;
    snprintf(name, sizeof name, "ga_frag_%dx%d", f->per_frag, f->unroll);
    if (nb_gl_program(f->gl, name, ga, err) != NB_OK)
        return err->status;
    snprintf(name, sizeof name, "reduce_frag_%d", f->per_frag);
    if (nb_gl_program(f->gl, name, reduce, err) != NB_OK)
        return err->status;
    for (int s = SET_PING; s <= (f->used_passes > 1 ? SET_PONG : SET_PING); s++)
        if (ensure_set(&f->sets[s], width, f->rows * r, f->per_frag, err) != NB_OK)
            return err->status;
    if (r > 1 && ensure_set(&f->sets[SET_FINAL], width, f->rows, f->per_frag, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static void draw_passes(struct fragment *f, GLuint prog, float eps2)
{
    int r = f->used_replicas, p = f->used_passes, width = NB_STREAM_WIDTH / f->per_frag;
    int slice_len = nb_gl_ceil_div(nb_gl_ceil_div(f->npad, r * p), 4) * 4;
    glUseProgram(prog);
    glUniform1f(NB_LOC_EPS2, eps2);
    glUniform1i(NB_LOC_NPAD, f->npad);
    glUniform1i(NB_LOC_SLICE_LEN, slice_len);
    glUniform1i(NB_LOC_PASSES, p);
    glUniform1i(NB_LOC_ROWS, f->rows);
    glActiveTexture(GL_TEXTURE0 + NB_UNIT_POS);
    glBindTexture(GL_TEXTURE_2D, f->pos_tex);
    glViewport(0, 0, width, f->rows * r);
    for (int pass = 0; pass < p; pass++) {
        int cur = pass & 1;
        bind_textures(NB_UNIT_PREV, pass ? &f->sets[!cur] : NULL, f->per_frag);
        glBindFramebuffer(GL_FRAMEBUFFER, f->sets[cur].fbo);
        glUniform1i(NB_LOC_PASS, pass);
        glUniform1i(NB_LOC_ACCUMULATE, pass > 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    f->result_set = (p - 1) & 1;
}

/* Sums the replicas into the final set. */
static void reduce_replicas(struct fragment *f, GLuint prog)
{
    glUseProgram(prog);
    glUniform1i(NB_LOC_ROWS, f->rows);
    glUniform1i(NB_LOC_REPLICAS, f->used_replicas);
    bind_textures(NB_UNIT_PREV, &f->sets[f->result_set], f->per_frag);
    glBindFramebuffer(GL_FRAMEBUFFER, f->sets[SET_FINAL].fbo);
    glViewport(0, 0, NB_STREAM_WIDTH / f->per_frag, f->rows);
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

static enum nb_status run_timed(struct fragment *f, float eps2, struct nb_error *err)
{
    GLuint ga, reduce;
    choose_split(f);
    if (prepare(f, &ga, &reduce, err) != NB_OK)
        return err->status;
    glBindVertexArray(f->vao);
    nb_gpu_timer_start(&f->timer);
    draw_passes(f, ga, eps2);
    if (f->used_replicas > 1)
        reduce_replicas(f, reduce);
    f->seconds = nb_gpu_timer_stop(&f->timer);
    adapt_draw_budget(f);
    return nb_gl_check("fragment GA draws", err);
}

static enum nb_status run_state(void *state, float eps2, struct nb_error *err)
{
    return run_timed(state, eps2, err);
}

static double fragment_last_seconds(void *state) { return ((struct fragment *)state)->seconds; }

static enum nb_status fragment_compute(void *state, enum nb_kernel kernel,
                                       double eps, struct nb_error *err)
{
    struct fragment *f = state;
    if (kernel != NB_KERNEL_GA)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "fragment backend: kernel %d "
                            "not implemented", (int)kernel);
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


/* The variant as run: "4x4-r4-p1". */
static const char *fragment_variant(void *state)
{
    struct fragment *f = state;
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
    glDeleteVertexArrays(1, &f->vao);
    nb_gpu_timer_free(&f->timer);
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
        .set_particles = fragment_set_particles, .compute = fragment_compute,
        .read = fragment_read, .last_seconds = fragment_last_seconds,
        .variant = fragment_variant, .renderer = fragment_renderer,
        .variants = fragment_variant_list, .destroy = fragment_destroy };
    return NB_OK;
}
