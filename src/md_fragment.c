/* md_fragment.c - the fragment pipeline's MD force engine (glsl/md.frag).
 *
 * All pairs as a stream kernel in the Brook/Cg style of seeds 000 and 001:
 * the particles are an RGBA32F texture (x, y, z, q), the force kernel a
 * fragment program drawn over five off-screen RGBA32F render targets at
 * once (MRT): each fragment owns four i-particles, targets 0..3 receive
 * (F, sum of pair energies) of each, target 4 their four virial sums.
 *
 * The stream is sorted by type once, at setup (a counting sort, stable):
 * each type is one segment of the stream, so the kernel fetches a pair's
 * coefficients once per segment rather than once per pair, and the results
 * are put back in the caller's order on the way out.  The j-stream is cut
 * into passes drawn one after the other, each adding the previous pass's
 * sums read from the other of two ping-pong framebuffers, so that no draw
 * nears a driver's watchdog (see fragment_passes.c): automatically at
 * most MD_DRAW_START pairs a draw, fewer after slow draws, or exactly
 * $GLNBODY_MD_PASSES passes when set (tests, measurements).
 *
 * Positions go to float relative to the box centre (the minimum image is
 * translation invariant, and the centre halves the coordinates' size);
 * the sums come back in float and become double on the host: pe = half
 * the sum of pair energies, vir = half the sum of fr r^2, as
 * nb_md_cpu_forces.  The host integrates (no load/steps/fetch).  The
 * context is made current at creation (as the backends are); every call
 * expects it current. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

#define MD_I 4                              /* i-particles per fragment */
#define MD_TARGETS NB_UNIT_MD_PREV_COUNT    /* 4 (F, u) targets + virials */
#define MD_OUT_WIDTH (NB_STREAM_WIDTH / MD_I)

/* Automatic passes: a draw covers at most this many pairs (half the GA
 * pipeline's 2^28, an MD pair costing about twice a gravity pair), halved
 * after an evaluation whose draws took longer than MD_DRAW_SECONDS. */
#define MD_DRAW_START (1.0 * (1 << 27))
#define MD_DRAW_MIN (1.0 * (1 << 20))
#define MD_DRAW_SECONDS 0.1

/* Fixed pass count for tests and measurements; automatic when unset. */
#define MD_PASSES_ENV "GLNBODY_MD_PASSES"

struct md_targets {
    GLuint fbo;
    GLuint tex[MD_TARGETS];
};

struct md_frag {
    struct nb_gl *gl;
    GLuint vao, program;
    GLuint pos_tex, coeff_tex, segment_tex;
    struct md_targets sets[2];          /* ping-pong */
    int result_set;
    int ready;                          /* setup succeeded */
    size_t n;
    int rows;                           /* stream rows of the padded stream */
    int types;
    struct nb_gl_md_params params;      /* uniforms and coefficient table */
    uint32_t *perm;                     /* stream slot -> particle */
    float *charge;                      /* charge of each slot */
    float *staging;                     /* 5 * rows * NB_STREAM_WIDTH floats */
    double centre[3];
    int fixed_passes;                   /* 0: automatic */
    int passes;                         /* of the last evaluation */
    double draw_budget;                 /* pairs per draw, automatic passes */
    struct nb_gpu_timer timer;
    struct nb_md_timings timings;
};

static void release_targets(struct md_targets *s)
{
    glDeleteTextures(MD_TARGETS, s->tex);
    if (s->fbo)
        glDeleteFramebuffers(1, &s->fbo);
    memset(s, 0, sizeof *s);
}

/* Everything that depends on the system; the VAO and timer stay. */
static void release_system(struct md_frag *m)
{
    for (int s = 0; s < 2; s++)
        release_targets(&m->sets[s]);
    GLuint tex[3] = { m->pos_tex, m->coeff_tex, m->segment_tex };
    glDeleteTextures(3, tex);
    m->pos_tex = m->coeff_tex = m->segment_tex = 0;
    free(m->perm);
    free(m->charge);
    free(m->staging);
    m->perm = NULL;
    m->charge = m->staging = NULL;
    m->ready = 0;
    m->n = 0;
}

/* MD_TARGETS RGBA32F targets of MD_OUT_WIDTH x rows behind one framebuffer. */
static enum nb_status make_targets(struct md_targets *s, int rows, struct nb_error *err)
{
    return nb_gl_new_targets(&s->fbo, s->tex, MD_TARGETS, MD_OUT_WIDTH, rows, GL_RGBA32F,
                             "MD fragment: allocating render targets", err);
}

/* Rows of the stream of n particles padded to MD_I; NB_ERR_LIMIT past the
 * texture size or the int indices of the kernel. */
static enum nb_status stream_rows(size_t n, int *rows, struct nb_error *err)
{
    return nb_gl_stream_rows(n, MD_I, INT_MAX / 4, "MD fragment", rows, err);
}

/* Counting sort of the particles by type (stable): m->perm and the first
 * slot of each type in seg (types + 1 entries, seg[types] = n). */
static void sort_by_type(struct md_frag *m, const struct nb_md_system *sys, int32_t *seg)
{
    size_t count[NB_MD_MAX_TYPES + 1] = { 0 };
    for (size_t i = 0; i < sys->n; i++)
        count[sys->type[i]]++;
    seg[0] = 0;
    for (int t = 0; t < m->types; t++)
        seg[t + 1] = seg[t] + (int32_t)count[t + 1];
    size_t next[NB_MD_MAX_TYPES];
    for (int t = 0; t < m->types; t++)
        next[t] = (size_t)seg[t];
    for (size_t i = 0; i < sys->n; i++) {
        size_t s = next[sys->type[i] - 1]++;
        m->perm[s] = (uint32_t)i;
        m->charge[s] = (float)(sys->q ? sys->q[i]
                                      : sys->pot->types.charge[sys->type[i] - 1]);
    }
}

/* The coefficient table (2 texels per ordered type pair, row = type of i)
 * and the segment table as textures. */
static enum nb_status upload_tables(struct md_frag *m, const int32_t *seg,
                                    struct nb_error *err)
{
    int t = m->types;
    m->coeff_tex = nb_gl_new_texture(2 * t, t, GL_RGBA32F);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2 * t, t, GL_RGBA, GL_FLOAT, m->params.coeff);
    m->segment_tex = nb_gl_new_texture(t + 1, 1, GL_R32I);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, t + 1, 1, GL_RED_INTEGER, GL_INT, seg);
    return nb_gl_check("MD fragment: uploading the coefficient tables", err);
}

static void set_uniforms(const struct md_frag *m, int slice)
{
    glUseProgram(m->program);
    nb_gl_md_set_uniforms(&m->params, nb_gl_uniforms_of(m->gl, m->program));
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), (int)m->n);
    glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), slice);
    const GLenum units[3] = { NB_UNIT_MD_POS, NB_UNIT_MD_COEFF, NB_UNIT_MD_SEGMENT };
    const GLuint tex[3] = { m->pos_tex, m->coeff_tex, m->segment_tex };
    for (int k = 0; k < 3; k++) {
        glActiveTexture(GL_TEXTURE0 + units[k]);
        glBindTexture(GL_TEXTURE_2D, tex[k]);
    }
}

/* The previous pass's targets on the NB_UNIT_MD_PREV units (none: 0). */
static void bind_previous(const struct md_targets *s)
{
    for (int k = 0; k < MD_TARGETS; k++) {
        glActiveTexture(GL_TEXTURE0 + NB_UNIT_MD_PREV + (GLenum)k);
        glBindTexture(GL_TEXTURE_2D, s ? s->tex[k] : 0);
    }
}

/* $GLNBODY_MD_PASSES: a positive pass count, or automatic when unset. */
static enum nb_status read_passes(struct md_frag *m, struct nb_error *err)
{
    m->fixed_passes = (int)nb_gl_env_long(MD_PASSES_ENV, 0);
    return nb_gl_env_check(err);
}

/* One empty pass (no j-particles), so that a driver that builds its
 * shader variant at the first draw (llvmpipe does) does so here, not in
 * the timed passes, where it would also shrink the automatic draw budget. */
static enum nb_status warm_up(struct md_frag *m, struct nb_error *err)
{
    set_uniforms(m, 0);
    glViewport(0, 0, MD_OUT_WIDTH, m->rows);
    glBindVertexArray(m->vao);
    bind_previous(NULL);
    glBindFramebuffer(GL_FRAMEBUFFER, m->sets[0].fbo);
    glUniform1i(nb_gl_loc(NB_LOC_PASS), 0);
    glUniform1i(nb_gl_loc(NB_LOC_ACCUMULATE), 0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glFinish();
    return nb_gl_check("MD fragment: first draw", err);
}

static enum nb_status md_setup_system(struct md_frag *m, const struct nb_md_system *sys,
                                      struct nb_error *err)
{
    int32_t seg[NB_MD_MAX_TYPES + 1];
    size_t texels;
    char name[40];
    snprintf(name, sizeof name, "md_frag_%s", nb_gl_md_law_suffix(sys->pot->law));
    m->types = sys->pot->types.count;
    if (read_passes(m, err) != NB_OK ||
        nb_gl_program(m->gl, name, &m->program, err) != NB_OK)
        return err->status;
    texels = (size_t)m->rows * NB_STREAM_WIDTH;
    m->perm = nb_alloc(sys->n ? sys->n : 1, sizeof *m->perm, "MD fragment order", err);
    m->charge = m->perm ? nb_alloc(sys->n ? sys->n : 1, sizeof *m->charge,
                                   "MD fragment charges", err) : NULL;
    m->staging = m->charge ? nb_alloc(MD_TARGETS * texels, sizeof *m->staging,
                                      "MD fragment staging", err) : NULL;
    if (!m->staging)
        return NB_ERR_NOMEM;
    m->n = sys->n;
    sort_by_type(m, sys, seg);
    nb_gl_md_params(&m->params, sys);
    for (int d = 0; d < 3; d++)
        m->centre[d] = 0.5 * (sys->box->lo[d] + sys->box->hi[d]);
    if (upload_tables(m, seg, err) != NB_OK)
        return err->status;
    m->pos_tex = nb_gl_new_texture(NB_STREAM_WIDTH, m->rows, GL_RGBA32F);
    if (nb_gl_check("MD fragment: allocating the particle texture", err) != NB_OK ||
        make_targets(&m->sets[0], m->rows, err) != NB_OK ||
        make_targets(&m->sets[1], m->rows, err) != NB_OK || warm_up(m, err) != NB_OK)
        return err->status;
    m->timings = (struct nb_md_timings){ 0 };
    m->ready = 1;
    return NB_OK;
}

/* The last pass's targets: (F, pair-energy sum) of i-particle k of each
 * fragment in target k, and the virials in the last. */
static int md_gl_results(void *state, struct nb_gl_results *out)
{
    struct md_frag *m = state;
    const struct md_targets *s = &m->sets[m->result_set];
    memset(out, 0, sizeof *out);
    if (!m->ready || !s->fbo)
        return 0;
    for (int k = 0; k < MD_TARGETS && k < NB_GL_PANELS; k++) {
        struct nb_gl_panel *p = &out->panel[k];
        *p = (struct nb_gl_panel){ .texture = s->tex[k], .width = MD_OUT_WIDTH,
                                   .height = m->rows };
        if (k < MD_I) {
            snprintf(p->name, sizeof p->name, "target %d: force on i %d of each fragment",
                     k, k);
            snprintf(p->w_name, sizeof p->w_name, "pair energy");
        } else {
            snprintf(p->name, sizeof p->name, "target %d: virials", k);
        }
        out->count++;
    }
    snprintf(out->shape, sizeof out->shape, "fragment MD: %zu atoms sorted by type, %d i "
             "a fragment in %d targets (and the virials), %d pass%s over the j-stream; "
             "targets %dx%d texels", m->n, MD_I, MD_I, m->passes, m->passes == 1 ? "" : "es",
             MD_OUT_WIDTH, m->rows);
    return 1;
}

static enum nb_status md_setup(void *state, const struct nb_md_system *sys,
                               struct nb_error *err)
{
    struct md_frag *m = state;
    release_system(m);
    if (sys->cell_list)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the fragment pipeline has no "
                            "cell lists; use --backend compute or --cells-list off");
    /* The texture limit first: a refused size is never read. */
    if (stream_rows(sys->n, &m->rows, err) != NB_OK ||
        nb_md_system_require(sys, err) != NB_OK)
        return err->status;
    if (md_setup_system(m, sys, err) != NB_OK) {
        release_system(m);
        return err->status;
    }
    return NB_OK;
}

/* Positions relative to the box centre, in stream order; padding slots far
 * away with no charge (the kernel never pairs with them). */
static enum nb_status upload_positions(struct md_frag *m, const double *x,
                                       struct nb_error *err)
{
    float *p = m->staging;
    size_t texels = (size_t)m->rows * NB_STREAM_WIDTH;
    for (size_t s = 0; s < m->n; s++) {
        const double *xi = x + 3 * (size_t)m->perm[s];
        for (int d = 0; d < 3; d++)
            p[4 * s + d] = (float)(xi[d] - m->centre[d]);
        p[4 * s + 3] = m->charge[s];
    }
    for (size_t s = m->n; s < texels; s++) {
        p[4 * s] = p[4 * s + 1] = p[4 * s + 2] = (float)NB_PAD_COORD;
        p[4 * s + 3] = 0.0f;
    }
    glBindTexture(GL_TEXTURE_2D, m->pos_tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, NB_STREAM_WIDTH, m->rows, GL_RGBA, GL_FLOAT, p);
    return nb_gl_check("MD fragment: uploading positions", err);
}

/* Passes: fixed, or enough that a draw stays within the pair budget; the
 * slice length then fixes the count, so no pass is empty. */
static int choose_slice(struct md_frag *m)
{
    double pairs = (double)m->n * (double)m->n;
    double p = m->fixed_passes ? m->fixed_passes : floor(pairs / m->draw_budget) + 1;
    if (p > (double)m->n)
        p = (double)m->n;
    int slice = (int)ceil((double)m->n / p);
    m->passes = nb_gl_ceil_div((int)m->n, slice);
    return slice;
}

/* The passes, timed; the result lands in m->sets[m->result_set]. */
static enum nb_status draw_passes(struct md_frag *m, struct nb_error *err)
{
    int slice = choose_slice(m);
    set_uniforms(m, slice);
    glViewport(0, 0, MD_OUT_WIDTH, m->rows);
    glBindVertexArray(m->vao);
    nb_gpu_timer_start(&m->timer);
    for (int pass = 0; pass < m->passes; pass++) {
        int cur = pass & 1;
        bind_previous(pass ? &m->sets[!cur] : NULL);
        glBindFramebuffer(GL_FRAMEBUFFER, m->sets[cur].fbo);
        glUniform1i(nb_gl_loc(NB_LOC_PASS), pass);
        glUniform1i(nb_gl_loc(NB_LOC_ACCUMULATE), pass > 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    double seconds = nb_gpu_timer_stop(&m->timer);
    bind_previous(NULL);
    m->result_set = (m->passes - 1) & 1;
    m->timings.force += seconds;
    m->timings.evaluations++;
    if (!m->fixed_passes && seconds / m->passes > MD_DRAW_SECONDS &&
        m->draw_budget > MD_DRAW_MIN)
        m->draw_budget *= 0.5;
    return nb_gl_check("MD fragment: force passes", err);
}

/* Target k holds slot s = MD_I t + k at texel t; target 4 the virials of
 * slots MD_I t .. MD_I t + 3 in its four lanes. */
static enum nb_status read_results(struct md_frag *m, double *f, double *pe, double *vir,
                                   struct nb_error *err)
{
    size_t plane = (size_t)m->rows * NB_STREAM_WIDTH;   /* floats per target */
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m->sets[m->result_set].fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = 0; k < MD_TARGETS; k++) {
        glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)k);
        glReadPixels(0, 0, MD_OUT_WIDTH, m->rows, GL_RGBA, GL_FLOAT,
                     m->staging + plane * (size_t)k);
    }
    if (nb_gl_check("MD fragment: reading the render targets", err) != NB_OK)
        return err->status;
    const float *virials = m->staging + plane * MD_I;
    for (size_t s = 0; s < m->n; s++) {
        size_t i = m->perm[s], t = s / MD_I;
        const float *r = m->staging + plane * (s % MD_I) + 4 * t;
        for (int d = 0; d < 3; d++)
            f[3 * i + d] = r[d];
        pe[i] = 0.5 * (double)r[3];
        vir[i] = 0.5 * (double)virials[s];
    }
    return NB_OK;
}

static enum nb_status md_forces(void *state, const double *x, double *f, double *pe,
                                double *vir, struct nb_error *err)
{
    struct md_frag *m = state;
    if (!m->ready)
        return nb_error_set(err, NB_ERR_ARGS, "MD fragment: forces before a "
                            "successful setup");
    if (m->n == 0)
        return NB_OK;
    if (upload_positions(m, x, err) != NB_OK || draw_passes(m, err) != NB_OK)
        return err->status;
    return read_results(m, f, pe, vir, err);
}

static void md_timings(void *state, struct nb_md_timings *t)
{
    *t = ((struct md_frag *)state)->timings;
}

static const char *md_renderer(void *state)
{
    return nb_gl_renderer(((struct md_frag *)state)->gl);
}

static void md_destroy(void *state)
{
    struct md_frag *m = state;
    if (!m)
        return;
    release_system(m);
    glDeleteVertexArrays(1, &m->vao);
    nb_gpu_timer_free(&m->timer);
    free(m);
}

/* Five render targets and five previous-pass units beyond the kernel's
 * three; GL 4.3 guarantees 8 draw buffers and 16 units, checked anyway. */
static enum nb_status check_limits(struct nb_error *err)
{
    GLint buffers = 0, attachments = 0, units = 0;
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &buffers);
    glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &attachments);
    glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &units);
    if (buffers < MD_TARGETS || attachments < MD_TARGETS ||
        units < NB_UNIT_MD_PREV + MD_TARGETS)
        return nb_error_set(err, NB_ERR_LIMIT, "MD fragment kernel needs %d render "
                            "targets and %d texture units; this GL allows %d draw "
                            "buffers, %d attachments, %d units", MD_TARGETS,
                            NB_UNIT_MD_PREV + MD_TARGETS, buffers, attachments, units);
    return NB_OK;
}

enum nb_status nb_md_engine_fragment_create(struct nb_md_engine *e, struct nb_gl *gl,
                                            struct nb_error *err)
{
    if (!gl)
        return nb_error_set(err, NB_ERR_ARGS, "the fragment MD engine needs a GL context");
    if (nb_gl_make_current(gl, err) != NB_OK || check_limits(err) != NB_OK)
        return err->status;
    struct md_frag *m = nb_alloc(1, sizeof *m, "fragment MD engine", err);
    if (!m)
        return NB_ERR_NOMEM;
    m->gl = gl;
    m->draw_budget = MD_DRAW_START;
    glGenVertexArrays(1, &m->vao);      /* core profile: draws need a VAO */
    nb_gpu_timer_init(&m->timer, gl);
    *e = (struct nb_md_engine){
        .name = "fragment", .state = m, .setup = md_setup, .forces = md_forces,
        .caps = 0,      /* no cell lists */
        .load = NULL, .steps = NULL, .fetch = NULL, .timings = md_timings,
        .renderer = md_renderer, .gl_results = md_gl_results, .destroy = md_destroy };
    return NB_OK;
}
