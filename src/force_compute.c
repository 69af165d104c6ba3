/* force_compute.c - the compute-shader force pipeline (glsl/ga.comp).
 *
 * Particles live in a shader storage buffer as (x, y, z, m) floats.  A
 * variant is a tile width T (work-group size, shared-memory tile), I
 * i-particles per invocation and S j-slices; with S > 1 each slice writes
 * its own partial result and reduce.comp sums them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

/* Work groups that keep a large GPU busy (about 8 groups on each of ~130
 * multiprocessors); the automatic slice count aims at this many. */
#define NB_COMPUTE_FILL_GROUPS 1024
/* The automatic choice probes every variant when one evaluation is cheaper
 * than this; otherwise it keeps the large-N default. */
#define NB_COMPUTE_PROBE_SECONDS 0.1

static const char *const compute_variants[] = {
    "t64i1", "t64i2", "t64i4", "t64i8", "t128i1", "t128i2", "t128i4", "t128i8",
    "t256i1", "t256i2", "t256i4", "t256i8",
    /* 16 i per invocation: faster than the above on llvmpipe, where each
     * shared load feeds more pairs.  A candidate for "auto" only; the
     * large-N default stays. */
    "t64i16", "t128i16", "t256i16", NULL
};
/* The fastest at large N on a large GPU, GLSL and SPIR-V alike; "auto"
 * keeps it where probing costs too much. */
#define NB_COMPUTE_DEFAULT "t256i8"

struct compute {
    struct nb_gl *gl;
    GLuint pos_buf, out_buf, partial_buf;
    size_t pos_capacity, out_capacity, partial_capacity;   /* bytes */
    size_t n;
    int tile, ipt, slices;          /* slices 0: automatic */
    int used_slices;                /* slices of the last dispatch */
    struct nb_gl_choice choice;     /* "auto" and what it chose for */
    char variant[48];
    struct nb_gpu_timer timer;
    double seconds;
    float *staging;
    size_t staging_count;
    struct nb_gaj_compute *gaj;     /* created on the first GAJ call */
    struct nb_gaj_corrector *corr;  /* made by load_corrector */
    int last_gaj;                   /* the last evaluation was GAJ (for variant()) */
    enum nb_precision precision;    /* A: the kernels above */
    struct nb_prec *prec;           /* modes B..H, created on first use */
    struct nb_gaj_prec *gaj_prec;   /* GAJ in modes B..H, made by set_j/load_state */
    int gaj_prec_ran;               /* the last GAJ evaluation was gaj_prec's */
    int gaj_planned;                /* it was queued by the device corrector */
    size_t gaj_active;              /* particles of the last GAJ block */
    int gaj_prec_slices;            /* its forced j-slices, 0: automatic */
    size_t i_first, i_end;          /* set_i_range, passed on to prec */
    enum nb_positions positions;    /* the GAJ j-set's (float or ds) */
};

static enum nb_status parse_variant(struct compute *c, const char *name,
                                    struct nb_error *err)
{
    int tile, ipt, slices = 0, used = 0;
    char program[48];
    if (sscanf(name, "t%di%d%n", &tile, &ipt, &used) != 2 ||
        (name[used] && (sscanf(name + used, "-s%d%n", &slices, &used) != 1 ||
                        slices < 1)))
        used = -1;
    snprintf(program, sizeof program, "ga_comp_t%d_i%d", tile, ipt);
    if (used < 0 || !nb_gl_program_find(program))
        return nb_error_set(err, NB_ERR_ARGS, "unknown compute variant '%s' "
                            "(t<T>i<I>[-s<S>] with T in 64, 128, 256 and I in "
                            "1, 2, 4, 8, 16, or auto)", name);
    /* One vec4 a j-particle in the shared tile (ga.comp). */
    if (nb_gl_compute_fits(c->gl, name, tile, 16 * tile, 2, err) != NB_OK)
        return err->status;
    c->tile = tile;
    c->ipt = ipt;
    c->slices = slices;
    c->choice.automatic = 0;
    return NB_OK;
}

static enum nb_status parse_variant_state(void *state, const char *name,
                                          struct nb_error *err)
{
    return parse_variant(state, name, err);
}

static enum nb_status compute_set_variant(void *state, const char *name,
                                          struct nb_error *err)
{
    struct compute *c = state;
    if (strcmp(name, "auto") != 0)
        return parse_variant(c, name, err);
    /* The default, or a narrower tile where the work group is too large
     * (OpenGL ES 3.1 promises only 128 invocations). */
    if (parse_variant(c, NB_COMPUTE_DEFAULT, err) != NB_OK &&
        (err->status != NB_ERR_LIMIT ||
         (*err = (struct nb_error){ 0 }, parse_variant(c, "t128i8", err)) != NB_OK) &&
        (err->status != NB_ERR_LIMIT ||
         (*err = (struct nb_error){ 0 }, parse_variant(c, "t64i8", err)) != NB_OK))
        return err->status;
    c->choice = (struct nb_gl_choice){ 1, 0 };
    return NB_OK;
}

static enum nb_status ensure_staging(struct compute *c, size_t n,
                                     struct nb_error *err)
{
    return nb_gl_ensure_host_quads(&c->staging, &c->staging_count, n, "particle staging",
                                   err);
}

static enum nb_status compute_set_particles(void *state, size_t n,
                                            const double *x, const double *m,
                                            struct nb_error *err)
{
    struct compute *c = state;
    if (n > INT_MAX / 64)
        return nb_error_set(err, NB_ERR_LIMIT, "%zu particles: over the %d the "
                            "compute pipeline indexes", n, INT_MAX / 64);
    if (ensure_staging(c, n, err) != NB_OK ||
        nb_gl_ensure_buffer(&c->pos_buf, &c->pos_capacity, 16 * (n ? n : 1),
                      "particle buffer", err) != NB_OK)
        return err->status;
    if (c->prec && nb_prec_set_particles(c->prec, n, x, m, err) != NB_OK)
        return err->status;
    nb_gl_pack_particles(c->staging, n, x, m);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->pos_buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(16 * n), c->staging);
    c->n = n;
    return nb_gl_check("uploading particles", err);
}

/* Slices: as many as it takes to reach NB_COMPUTE_FILL_GROUPS work groups,
 * at most one per tile. */
static int slice_count(const struct compute *c, int groups, int tiles)
{
    int s = c->slices ? c->slices : nb_gl_ceil_div(NB_COMPUTE_FILL_GROUPS, groups);
    return s < 1 ? 1 : s > tiles ? tiles : s;
}

/* What one evaluation dispatches, settled before any timing. */
struct plan {
    GLuint ga, reduce;
    int groups, slices, slice_tiles;
};

/* Builds the programs and grows the buffers the current variant needs, so
 * that shader compilation and allocation stay out of the timings. */
static enum nb_status prepare(struct compute *c, struct plan *pl, struct nb_error *err)
{
    char name[48];
    int n = (int)c->n, tiles = nb_gl_ceil_div(n, c->tile);
    pl->groups = nb_gl_ceil_div(n, c->tile * c->ipt);
    pl->slice_tiles = nb_gl_ceil_div(tiles, slice_count(c, pl->groups, tiles));
    pl->slices = nb_gl_ceil_div(tiles, pl->slice_tiles);      /* no empty slice */
    if (pl->slices > 65535)
        return nb_error_set(err, NB_ERR_LIMIT, "%d j-slices exceed the work-group "
                            "count limit", pl->slices);
    c->used_slices = pl->slices;
    snprintf(name, sizeof name, "ga_comp_t%d_i%d", c->tile, c->ipt);
    size_t bytes = 16 * (size_t)n;
    if (nb_gl_program(c->gl, name, &pl->ga, err) != NB_OK ||
        nb_gl_program(c->gl, "reduce_comp", &pl->reduce, err) != NB_OK ||
        nb_gl_ensure_buffer(&c->out_buf, &c->out_capacity, bytes, "result buffer", err) != NB_OK ||
        (pl->slices > 1 && nb_gl_ensure_buffer(&c->partial_buf, &c->partial_capacity,
                                         bytes * (size_t)pl->slices, "slice buffer",
                                         err) != NB_OK))
        return err->status;
    return NB_OK;
}

static void dispatch_ga(const struct compute *c, const struct plan *pl, float eps2)
{
    int n = (int)c->n;
    glUseProgram(pl->ga);
    glUniform1f(nb_gl_loc(NB_LOC_EPS2), eps2);
    glUniform1i(nb_gl_loc(NB_LOC_N), n);
    glUniform1i(nb_gl_loc(NB_LOC_SLICE_LEN), pl->slice_tiles);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_POS, c->pos_buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT,
                     pl->slices > 1 ? c->partial_buf : c->out_buf);
    glDispatchCompute((GLuint)pl->groups, (GLuint)pl->slices, 1);
    if (pl->slices > 1) {
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glUseProgram(pl->reduce);
        glUniform1i(nb_gl_loc(NB_LOC_N), n);
        glUniform1i(nb_gl_loc(NB_LOC_SLICES), pl->slices);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_PARTIAL, c->partial_buf);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_OUT, c->out_buf);
        glDispatchCompute((GLuint)nb_gl_ceil_div(n, NB_REDUCE_ITEMS), 1, 1);
    }
}

static enum nb_status run_timed(struct compute *c, float eps2, struct nb_error *err)
{
    struct plan pl;
    if (prepare(c, &pl, err) != NB_OK)
        return err->status;
    nb_gpu_timer_start(&c->timer);
    dispatch_ga(c, &pl, eps2);
    c->seconds = nb_gpu_timer_stop(&c->timer);
    return nb_gl_check("compute GA dispatch", err);
}

static enum nb_status run_state(void *state, float eps2, struct nb_error *err)
{
    return run_timed(state, eps2, err);
}

static double compute_last_seconds(void *state)
{
    struct compute *c = state;
    if (c->last_gaj && c->gaj_planned)
        return nb_gaj_corrector_forces_seconds(c->corr);
    if (c->last_gaj)
        return c->gaj_prec_ran ? nb_gaj_prec_seconds(c->gaj_prec)
                               : nb_gaj_compute_seconds(c->gaj);
    return c->seconds;
}

static enum nb_status compute_compute(void *state, enum nb_kernel kernel,
                                      double eps, struct nb_error *err)
{
    struct compute *c = state;
    if (kernel != NB_KERNEL_GA)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "compute backend: kernel %d "
                            "not implemented", (int)kernel);
    c->last_gaj = 0;
    if (c->precision != NB_PRECISION_A) {
        enum nb_status st = nb_prec_run(c->prec, c->precision, c->n, eps, err);
        c->seconds = nb_prec_seconds(c->prec);
        return st;
    }
    if (c->n == 0)
        return NB_OK;
    float eps2 = (float)(eps * eps);
    const struct nb_gl_tunable t = { c, compute_variants, parse_variant_state, run_state,
                                     compute_last_seconds, NB_COMPUTE_PROBE_SECONDS };
    return nb_gl_evaluate(&t, &c->choice, c->n, eps2, err);
}

static enum nb_status compute_read(void *state, double *acc, double *pot,
                                   struct nb_error *err)
{
    struct compute *c = state;
    if (c->precision != NB_PRECISION_A)
        return nb_prec_read(c->prec, acc, pot, err);
    if (c->n == 0)
        return NB_OK;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->out_buf);
    nb_gl_get_buffer(GL_SHADER_STORAGE_BUFFER, 0, 16 * c->n, c->staging);
    if (nb_gl_check("reading results", err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < c->n; i++) {
        for (int d = 0; d < 3; d++)
            acc[3 * i + d] = c->staging[4 * i + d];
        pot[i] = c->staging[4 * i + 3];
    }
    return NB_OK;
}

/* Selects the accumulation mode of GA and GAJ; B..H run ga_precision.comp
 * and gaj_precision.comp. */
static enum nb_status compute_set_precision(void *state, enum nb_precision mode,
                                            struct nb_error *err)
{
    struct compute *c = state;
    if (mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "compute backend: precision %d", (int)mode);
    if (mode != NB_PRECISION_A &&
        (nb_prec_supported(mode, err) != NB_OK ||
         (!c->prec && !(c->prec = nb_prec_create(c->gl, err)))))
        return err->status;
    if (c->prec)
        nb_prec_set_i_range(c->prec, c->i_first, c->i_end);
    c->precision = mode;
    return NB_OK;
}

/* ds runs gaj.comp's NB_GAJ_DS programs (precision A: the modes round x). */
static enum nb_status compute_set_positions(void *state, enum nb_positions format,
                                            struct nb_error *err)
{
    struct compute *c = state;
    if (format != NB_POSITIONS_FLOAT && format != NB_POSITIONS_DS)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "positions %s: the compute engine's GAJ "
                            "kernel keeps ds or float", nb_positions_name(format));
    c->positions = format;
    if (c->gaj)
        nb_gaj_compute_set_ds(c->gaj, format == NB_POSITIONS_DS);
    return NB_OK;
}

static enum nb_precision compute_get_precision(void *state)
{
    return ((const struct compute *)state)->precision;
}

enum nb_status nb_backend_compute_read_fixed(const struct nb_force_backend *b,
                                             int64_t *fixed, int *acc_log2,
                                             int *pot_log2, struct nb_error *err)
{
    const struct compute *c = b->state;
    if (strcmp(b->name, "compute") != 0 || c->precision != NB_PRECISION_H || !c->prec)
        return nb_error_set(err, NB_ERR_ARGS, "fixed-point sums: not a compute backend "
                            "in precision H");
    return nb_prec_read_fixed(c->prec, fixed, acc_log2, pot_log2, err);
}

/* The GAJ counterpart of nb_backend_compute_read_fixed. */
enum nb_status nb_backend_compute_read_gaj_fixed(const struct nb_force_backend *b,
                                                 int64_t *fixed, int log2[3],
                                                 struct nb_error *err)
{
    const struct compute *c = b->state;
    if (strcmp(b->name, "compute") != 0 || !c->last_gaj || !c->gaj_prec_ran ||
        c->precision != NB_PRECISION_H)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ fixed-point sums: not a compute "
                            "backend whose last GAJ evaluation was precision H");
    return nb_gaj_prec_read_fixed(c->gaj_prec, fixed, log2, err);
}

enum nb_status nb_backend_compute_set_gaj_slices(struct nb_force_backend *b, int slices,
                                                 struct nb_error *err)
{
    if (strcmp(b->name, "compute") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ slices: not a compute backend");
    ((struct compute *)b->state)->gaj_prec_slices = slices > 0 ? slices : 0;
    return NB_OK;
}

/* The variant as run, with its slice count: "t64i1-s16"; the precision
 * kernels run "t128i1-s1" (GA) and "gaj-prec<M>-t128-s<S>" (GAJ). */
static const char *compute_variant(void *state)
{
    struct compute *c = state;
    if (c->last_gaj && c->gaj_prec_ran) {
        nb_gaj_prec_describe(c->gaj_prec, c->variant, sizeof c->variant);
        return c->variant;
    }
    if (c->last_gaj) {
        nb_gaj_compute_describe(c->gaj, c->variant, sizeof c->variant);
        return c->variant;
    }
    if (c->precision != NB_PRECISION_A)
        return "t128i1-s1";
    snprintf(c->variant, sizeof c->variant, "t%di%d-s%d", c->tile, c->ipt,
             c->used_slices ? c->used_slices : c->slices ? c->slices : 1);
    return c->variant;
}
static const char *compute_renderer(void *state)
{
    return nb_gl_renderer(((struct compute *)state)->gl);
}
static const char *const *compute_variant_list(void *state)
{
    (void)state;
    return compute_variants;
}

/* ---- GAJ: forwarded to gaj_compute.c, on the variant's tile width, or
 * in precision B..H to gaj_precision.c ---- */

static struct nb_gaj_compute *gaj_of(struct compute *c, struct nb_error *err)
{
    if (!c->gaj && (c->gaj = nb_gaj_compute_create(c->gl, err)))
        nb_gaj_compute_set_ds(c->gaj, c->positions == NB_POSITIONS_DS);
    return c->gaj;
}

/* The GAJ precision driver when the precision is not A (made then), else
 * NULL after telling an existing one that the j-set changed unseen. */
static struct nb_gaj_prec *gaj_prec_of(struct compute *c, struct nb_error *err)
{
    if (c->precision == NB_PRECISION_A) {
        nb_gaj_prec_forget(c->gaj_prec);
        return NULL;
    }
    if (!c->gaj_prec)
        c->gaj_prec = nb_gaj_prec_create(c->gl, err);
    return c->gaj_prec;
}

static enum nb_status compute_set_j(void *state, size_t n, const double *x,
                                    const double *v, const double *m,
                                    struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_compute *g = gaj_of(c, err);
    struct nb_gaj_prec *p;
    if (!g || nb_gaj_compute_set_j(g, n, x, v, m, err) != NB_OK)
        return err->status;
    if ((p = gaj_prec_of(c, err)))
        return nb_gaj_prec_set_j(p, n, x, v, m, c->precision == NB_PRECISION_G, err);
    return c->precision == NB_PRECISION_A ? NB_OK : err->status;
}

/* The block in `pieces` pieces (gaj_compute.c); the precision modes run
 * it whole. */
static enum nb_status run_gaj(void *state, double eps, size_t n_active,
                              const uint32_t *active, int pieces, struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_compute *g = gaj_of(c, err);
    struct nb_gaj_inputs in;
    c->last_gaj = 0;
    c->gaj_prec_ran = c->precision != NB_PRECISION_A;
    c->gaj_active = n_active;
    c->gaj_planned = 0;
    if (!g)
        return err->status;
    /* the found block's pass, queued behind the last corrector already */
    if (!active && c->corr && !c->gaj_prec_ran && pieces == 1 &&
        nb_gaj_corrector_forces_ahead(c->corr, n_active) &&
        nb_gaj_compute_take_planned(g, n_active, eps)) {
        c->gaj_planned = c->last_gaj = 1;
        return NB_OK;
    }
    if (c->gaj_prec_ran && c->positions == NB_POSITIONS_DS)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "positions ds: the GAJ kernel keeps "
                            "double-single positions in precision A only (this engine is "
                            "in %s)", nb_precision_name(c->precision));
    if (c->gaj_prec_ran && !c->gaj_prec)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ precision %s: call set_j or "
                            "load_state after set_precision",
                            nb_precision_name(c->precision));
    if (!active && (c->gaj_prec_ran || !c->corr))
        return nb_error_set(err, NB_ERR_ARGS, "GAJ of the found block: needs the device "
                            "corrector in precision A (find_block)");
    if (!c->gaj_prec_ran) {
        struct nb_gaj_state_view sv;
        nb_gaj_compute_state_view(g, &sv);
        /* a block short of everyone is read by the device corrector alone;
         * everyone's potentials go to the energy (read_gaj) */
        nb_gaj_compute_keep_results(g, c->corr && n_active < sv.n);
        if (nb_gaj_compute_run(g, c->tile, eps, n_active, active, pieces, err) != NB_OK)
            return err->status;
    } else {
        nb_gaj_prec_set_slices(c->gaj_prec, c->gaj_prec_slices);
        if (nb_gaj_compute_inputs(g, n_active, active, &in, err) != NB_OK ||
            nb_gaj_prec_run(c->gaj_prec, c->precision, eps, &in, n_active, active,
                            err) != NB_OK)
            return err->status;
    }
    c->last_gaj = 1;
    return NB_OK;
}

static enum nb_status compute_gaj(void *state, double eps, size_t n_active,
                                  const uint32_t *active, struct nb_error *err)
{
    return run_gaj(state, eps, n_active, active, 1, err);
}

static enum nb_status compute_gaj_pieces(void *state, double eps, size_t n_active,
                                         const uint32_t *active, int *pieces,
                                         struct nb_error *err)
{
    struct compute *c = state;
    *pieces = 1;
    if (run_gaj(state, eps, n_active, active, 0, err) != NB_OK)
        return err->status;
    if (!c->gaj_prec_ran)
        *pieces = nb_gaj_compute_pieces(c->gaj);
    return NB_OK;
}

static enum nb_status compute_read_gaj(void *state, double *acc, double *jerk,
                                       double *pot, struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_compute *g = gaj_of(c, err);
    if (c->gaj_prec_ran)        /* no driver: its compute_gaj failed, nothing to read */
        return c->gaj_prec ? nb_gaj_prec_read(c->gaj_prec, acc, jerk, pot, err) : NB_OK;
    return g ? nb_gaj_compute_read(g, acc, jerk, pot, err) : NB_ERR_NOMEM;
}

static enum nb_status compute_read_gaj_piece(void *state, int k, double *acc,
                                             double *jerk, double *pot, size_t *first,
                                             size_t *count, struct nb_error *err)
{
    struct compute *c = state;
    if (c->gaj_prec_ran || !c->gaj) {
        if (k != 0)
            return nb_error_set(err, NB_ERR_ARGS, "GAJ piece %d of 1", k);
        *first = 0;
        *count = c->gaj_active;
        return compute_read_gaj(state, acc, jerk, pot, err);
    }
    return nb_gaj_compute_read_piece(c->gaj, k, acc, jerk, pot, first, count, err);
}

static void compute_set_j_range(void *state, size_t first, size_t end)
{
    struct nb_error err;
    struct nb_gaj_compute *g = gaj_of(state, &err);
    if (g)          /* without it, compute_gaj fails with the same cause */
        nb_gaj_compute_set_j_range(g, first, end);
}

/* Only the precision kernels cut the i-particles: mode A's GA is the
 * benchmark kernel and is left whole. */
static void compute_set_i_range(void *state, size_t first, size_t end)
{
    struct compute *c = state;
    c->i_first = first;
    c->i_end = end;
    if (c->prec)
        nb_prec_set_i_range(c->prec, first, end);
}

static enum nb_status compute_read_gaj_fixed(void *state, int64_t *words, int log2[3],
                                             struct nb_error *err)
{
    struct compute *c = state;
    if (!c->last_gaj || !c->gaj_prec_ran || c->precision != NB_PRECISION_H || !c->gaj_prec)
        return nb_error_set(err, NB_ERR_ARGS, "GAJ fixed-point sums: the last GAJ "
                            "evaluation was not precision H");
    return nb_gaj_prec_read_fixed(c->gaj_prec, words, log2, err);
}

static enum nb_status compute_load_state(void *state, size_t n, const double *x,
                                         const double *v, const double *a,
                                         const double *jerk, const double *t0,
                                         const double *m, struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_compute *g = gaj_of(c, err);
    struct nb_gaj_prec *p;
    nb_gaj_corrector_destroy(c->corr);  /* the host corrects until load_corrector */
    c->corr = NULL;
    if (!g || nb_gaj_compute_load_state(g, n, x, v, a, jerk, t0, m, err) != NB_OK)
        return err->status;
    if ((p = gaj_prec_of(c, err)))
        return nb_gaj_prec_set_state(p, n, m, err);
    return c->precision == NB_PRECISION_A ? NB_OK : err->status;
}

static enum nb_status compute_update_state(void *state, size_t nb, const uint32_t *idx,
                                           const double *x, const double *v,
                                           const double *a, const double *jerk,
                                           const double *t0, struct nb_error *err)
{
    struct nb_gaj_compute *g = gaj_of(state, err);
    return g ? nb_gaj_compute_update_state(g, nb, idx, x, v, a, jerk, t0, err)
             : NB_ERR_NOMEM;
}

static enum nb_status compute_predict_j(void *state, double t, struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_compute *g = gaj_of(c, err);
    if (c->gaj_prec)
        nb_gaj_prec_predicted(c->gaj_prec);
    if (c->corr && nb_gaj_corrector_ahead(c->corr, t))
        return NB_OK;
    return g ? nb_gaj_compute_predict(g, t, nb_gaj_corrector_state(c->corr),
                                      nb_gaj_corrector_block_state(c->corr), 0, err)
             : NB_ERR_NOMEM;
}

static enum nb_status compute_load_corrector(void *state, const double *v, const double *a,
                                             const double *jerk, const double *a2,
                                             const double *a3, const uint8_t *level,
                                             struct nb_error *err)
{
    struct compute *c = state;
    struct nb_gaj_state_view sv;
    if (c->precision != NB_PRECISION_A)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the corrector on the device sums "
                            "in precision A only (this engine is in %s)",
                            nb_precision_name(c->precision));
    if (!c->gaj || (nb_gaj_compute_state_view(c->gaj, &sv), !sv.x))
        return nb_error_set(err, NB_ERR_ARGS, "load_corrector before load_state");
    if (!c->corr && !(c->corr = nb_gaj_corrector_create(c->gl, err)))
        return err->status;
    return nb_gaj_corrector_load(c->corr, sv.n, v, a, jerk, a2, a3, level, err);
}

static void compute_prepare_steps(void *state, int correct)
{
    struct compute *c = state;
    nb_gaj_steps_prepare(c->gl, c->tile, correct, c->positions == NB_POSITIONS_DS);
}

static enum nb_status compute_find_block(void *state, int due, size_t n_block,
                                         struct nb_error *err)
{
    struct compute *c = state;
    if (!c->corr || !c->gaj)
        return nb_error_set(err, NB_ERR_ARGS, "find_block before load_corrector");
    return nb_gaj_corrector_find(c->corr, c->gaj, due, n_block, err);
}

static enum nb_status compute_correct_block(void *state, double t1, double eta,
                                            double dt_max, struct nb_block_report *report,
                                            double *crit, double *dw, struct nb_error *err)
{
    struct compute *c = state;
    if (!c->corr || !c->last_gaj || c->gaj_prec_ran || nb_gaj_compute_pieces(c->gaj) != 1)
        return nb_error_set(err, NB_ERR_ARGS, "correct_block: no whole precision-A GAJ "
                            "block after load_corrector");
    return nb_gaj_corrector_run(c->corr, c->gaj, t1, eta, dt_max, report, crit, dw, err);
}

static enum nb_status compute_read_corrected(void *state, double *x, double *v, double *a,
                                             double *jerk, double *a2, double *a3,
                                             double *t0, uint8_t *level,
                                             struct nb_error *err)
{
    struct compute *c = state;
    if (!c->corr)
        return nb_error_set(err, NB_ERR_ARGS, "read_corrected before load_corrector");
    return nb_gaj_corrector_read(c->corr, c->gaj, x, v, a, jerk, a2, a3, t0, level, err);
}

static void compute_destroy(void *state)
{
    struct compute *c = state;
    if (!c)
        return;
    GLuint bufs[3] = { c->pos_buf, c->out_buf, c->partial_buf };
    glDeleteBuffers(3, bufs);
    nb_gpu_timer_free(&c->timer);
    nb_gaj_compute_destroy(c->gaj);
    nb_gaj_corrector_destroy(c->corr);
    nb_gaj_prec_destroy(c->gaj_prec);
    nb_prec_destroy(c->prec);
    free(c->staging);
    free(c);
}

/* The last evaluation's outputs: GAJ's (gaj_compute.c), or GA's
 * accelerations and potentials; the accumulation modes B..H finish their
 * sums on the host, so only their shape is told. */
static int compute_gl_results(void *state, struct nb_gl_results *out)
{
    struct compute *c = state;
    memset(out, 0, sizeof *out);
    if ((c->last_gaj && c->gaj_prec_ran) || (!c->last_gaj && c->precision != NB_PRECISION_A)) {
        snprintf(out->shape, sizeof out->shape, "compute, accumulation mode %s: its "
                 "float and integer words are finished on the host (no panels)",
                 nb_precision_name(c->precision));
        return 1;
    }
    if (c->last_gaj)
        return nb_gaj_compute_results(c->gaj, out);
    if (!c->out_buf || c->n == 0)
        return 0;
    out->panel[0] = nb_gl_buffer_panel("acceleration", "potential", c->out_buf, c->n, 1, 0);
    out->count = 1;
    snprintf(out->shape, sizeof out->shape, "compute GA t%di%d-s%d: %zu particles, %d i a "
             "thread, j in shared-memory tiles of %d, %d j-slice%s", c->tile, c->ipt,
             c->used_slices, c->n, c->ipt, c->tile, c->used_slices,
             c->used_slices > 1 ? "s" : "");
    return 1;
}

static int compute_gl_particles(void *state, struct nb_gl_particles *out)
{
    return nb_gaj_compute_stream(((struct compute *)state)->gaj, out);
}

enum nb_status nb_backend_compute_create(struct nb_force_backend *b,
                                         struct nb_gl *gl, struct nb_error *err)
{
    struct compute *c = nb_alloc(1, sizeof *c, "compute backend", err);
    if (!c)
        return NB_ERR_NOMEM;
    c->gl = gl;
    c->i_end = SIZE_MAX;
    c->positions = NB_POSITIONS_FLOAT;
    nb_gpu_timer_init(&c->timer, gl);
    compute_set_variant(c, "auto", err);
    *b = (struct nb_force_backend){
        .name = "compute", .state = c, .set_variant = compute_set_variant,
        .caps = NB_BACKEND_GAJ_MODES,
        .set_particles = compute_set_particles, .compute = compute_compute,
        .read = compute_read, .last_seconds = compute_last_seconds,
        .variant = compute_variant, .renderer = compute_renderer,
        .variants = compute_variant_list, .set_precision = compute_set_precision,
        .get_precision = compute_get_precision, .set_positions = compute_set_positions,
        .set_j = compute_set_j,
        .compute_gaj = compute_gaj, .read_gaj = compute_read_gaj,
        .compute_gaj_pieces = compute_gaj_pieces, .read_gaj_piece = compute_read_gaj_piece,
        .set_j_range = compute_set_j_range, .set_i_range = compute_set_i_range,
        .read_gaj_fixed = compute_read_gaj_fixed,
        .load_state = compute_load_state, .update_state = compute_update_state,
        .predict_j = compute_predict_j, .load_corrector = compute_load_corrector,
        .find_block = compute_find_block, .correct_block = compute_correct_block,
        .read_corrected = compute_read_corrected, .prepare_steps = compute_prepare_steps,
        .gl_particles = compute_gl_particles,
        .gl_results = compute_gl_results,
        .destroy = compute_destroy };
    return NB_OK;
}
