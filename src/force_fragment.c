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
 *    driver's watchdog (a seconds-long draw can return garbage).
 *    Automatic passes shorten the draws on a GPU where they run long.
 * The GA kernel's accumulation modes B..H (set_precision) run the
 * precision kernel of fragment_precision.c instead, variant
 * "prec1x1-p<P>"; the GAJ kernel stays in float (A).
 *
 * This file is the backend: its variants, the GA evaluation and the
 * precision modes; the passes that run a kernel are fragment_passes.c's,
 * the GAJ kernel and the Hermite state fragment_hermite.c's. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fragment_internal.h"

#define NB_FRAGMENT_PROBE_SECONDS 0.1

static const char *const fragment_variants[] = { "1x1", "1x4", "4x4", NULL };
#define NB_FRAGMENT_DEFAULT "4x4"

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

static enum nb_status fragment_set_particles(void *state, size_t n,
                                             const double *x, const double *m,
                                             struct nb_error *err)
{
    struct fragment *f = state;
    int rows = 0;
    if (nb_fragment_stream_rows(n, &rows, err) != NB_OK ||
        nb_fragment_ensure_staging(f, (size_t)rows * NB_STREAM_WIDTH, err) != NB_OK ||
        (f->prec && nb_frag_prec_set_particles(f->prec, n, x, m, err) != NB_OK))
        return err->status;
    return nb_fragment_upload_positions(f, n, x, m, rows, f->staging, err);
}

/* Replicas fill the GPU with fragments; passes bound a draw's length. */
static enum nb_status run_timed(struct fragment *f, float eps2, struct nb_error *err)
{
    char kernel[32], reduce[32];
    snprintf(kernel, sizeof kernel, "ga_frag_%dx%d", f->per_frag, f->unroll);
    snprintf(reduce, sizeof reduce, "reduce_frag_%d", f->per_frag);
    const struct shape sh = { kernel, reduce, f->per_frag, NB_STREAM_WIDTH / f->per_frag,
                              f->rows, f->npad, (double)f->npad * f->npad, 0, { 0 }, { 0 },
                              0, 0 };
    return nb_fragment_run_shape(f, &sh, eps2, err);
}

static enum nb_status run_state(void *state, float eps2, struct nb_error *err)
{
    return run_timed(state, eps2, err);
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
        nb_fragment_release_set(&f->sets[s]);
    glDeleteTextures(1, &f->pos_tex);
    glDeleteTextures(1, &f->vel_tex);
    glDeleteTextures(1, &f->ipos_tex);
    glDeleteTextures(1, &f->ivel_tex);
    free(f->host_pos);
    free(f->host_vel);
    free(f->host_xlo);
    free(f->host_vlo);
    GLuint lo[4] = { f->jxlo_tex, f->jvlo_tex, f->ixlo_tex, f->ivlo_tex };
    glDeleteTextures(4, lo);
    glDeleteVertexArrays(1, &f->vao);
    nb_gpu_timer_free(&f->timer);
    nb_frag_prec_destroy(f->prec);
    free(f->staging);
    free(f);
}

/* The render targets of the last pass (the replicas' sum where there
 * were replicas): GA's NB_I_PER_FRAG targets of (a, phi), one per
 * i-particle of a fragment, or GAJ's two, (a, phi) and jerk. */
static int fragment_gl_results(void *state, struct nb_gl_results *out)
{
    struct fragment *f = state;
    const struct target_set *s = &f->sets[f->result_set];
    memset(out, 0, sizeof *out);
    if (!s->fbo || s->count == 0)
        return 0;
    for (int k = 0; k < s->count && k < NB_GL_PANELS; k++) {
        struct nb_gl_panel *p = &out->panel[k];
        p->texture = s->tex[k];
        p->width = s->width;
        p->height = s->height;
        if (f->last_gaj)
            snprintf(p->name, sizeof p->name, "%s", k == 0 ? "acceleration" : "jerk");
        else
            snprintf(p->name, sizeof p->name, "target %d: acceleration of i %d of each "
                     "fragment", k, k);
        snprintf(p->w_name, sizeof p->w_name, "%s", k == 0 || !f->last_gaj ? "potential"
                                                                           : "");
        out->count++;
    }
    snprintf(out->shape, sizeof out->shape, "fragment %s %dx%d: %d i a fragment, %d j a "
             "step, %d replica%s, %d pass%s; targets %dx%d texels", f->last_gaj ? "GAJ"
             : "GA", f->per_frag, f->unroll, f->per_frag, f->unroll, f->used_replicas,
             f->used_replicas == 1 ? "" : "s", f->used_passes, f->used_passes == 1 ? ""
             : "es", s->width, s->height);
    return 1;
}

/* The j-set's textures: set_j's upload or predict_j's render targets. */
static int fragment_gl_particles(void *state, struct nb_gl_particles *out)
{
    struct fragment *f = state;
    if (!f->pos_tex || f->n == 0)
        return 0;
    *out = (struct nb_gl_particles){ .n = f->n, .pos_texture = f->pos_tex,
                                     .vel_texture = f->vel_rows == f->rows ? f->vel_tex : 0,
                                     .width = NB_STREAM_WIDTH };
    return 1;
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
    f->j_end = SIZE_MAX;
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
        .set_positions = nb_fragment_set_positions, .set_j = nb_fragment_set_j,
        .compute_gaj = nb_fragment_gaj, .read_gaj = nb_fragment_read_gaj,
        .set_j_range = nb_fragment_set_j_range,
        .load_state = nb_fragment_load_state, .update_state = nb_fragment_update_state,
        .predict_j = nb_fragment_predict_j, .gl_particles = fragment_gl_particles,
        .gl_results = fragment_gl_results,
        .destroy = fragment_destroy };
    return NB_OK;
}

