/* md_triangular.c - Newton's-third-law ("triangular") MD forces on the
 * compute pipeline, seed 003 section 6.4, next to the square loop.
 *
 * The square loop and the seed's three triangular versions, each on one
 * work group (-wg, the seed's single-multiprocessor experiment of Table 5)
 * and across the whole device (-gpu), plus lean-gpu: the square loop with
 * the triangles' pair code, so that a speed-up over square-gpu (the MD
 * engine's md_pairs.comp, which also pays a minimum image and a cutoff
 * test per pair) can be split into the law's share and the pair code's.
 * md_triangular.h lists them; the kernels' comments (glsl/md_tri*.comp)
 * say why each is correct and what synchronisation it needs.
 *
 * Versions 1 and 2 pass the reactions through global memory, so they
 * spread over the device unchanged (one i per invocation, many work
 * groups, a dispatch boundary where the -wg kernels have a barrier), but
 * their pair matrix (16 n^2 bytes, or half) bounds n by the storage-block
 * limit.  Version 3 passes them through shared memory, which a work group
 * owns, so across the device it becomes a decomposition into tile pairs.
 *
 * tri3-gpu's reactions reach their particles through a partial-sum buffer
 * and a reduction pass rather than atomics: float atomics are not in GL
 * 4.3 core (GL_NV_shader_atomic_float is an extension) and their order
 * changes from run to run; 64-bit integer atomics are NVIDIA's extension
 * only, and fixed point would need a scale chosen from the data (an ionic
 * crystal's forces are small differences of large terms).  The partial
 * buffer is core GL, gives the same bits every run, and costs 16 n^2 /
 * NB_TRI_TILE bytes (n = 100k: 0.3 GB) and one streaming pass over them.
 *
 * Accumulation modes B..H (seed 004 Table 1; mode A, float sums, is the
 * default): the same kernel sources built with NB_PRECISION_<M> ("_<m>"
 * programs, glsl/md_tri.glsl says how), every partial sum an
 * accumulate.glsl state of eight words, merged with acc_merge where mode
 * A adds two float sums; E, F and H at md_precision.c's scales 2^k
 * (nb_md_tri_scales: its magnitude pass and rule, nb_md_prec_scales), and the host finishes the words as md_precision.c
 * does (nb_md_prec_finish).  tri1's pair matrix holds float terms (mode
 * A's pairs pass), G's double terms, H's int64 terms and their exact
 * negations (twice the bytes); tri2's holds the float (G: double) terms,
 * each added once where it is summed, and its row states; tri3 keeps
 * states in shared memory, which holds half as many (tri3-wg: n <=
 * NB_TRI_WG_MAX_H), and state partials (twice the bytes); square-gpu is
 * md_precision.comp's kernel of the mode and lean-gpu md_tri_square.comp's.
 * H sums exactly: every version's int64 sums are the square loop's and
 * nb_md_prec_forces' bit for bit.  G (double pair terms, double positions
 * and coefficients) exists for LJ only: the ionic law needs a double pow. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "md_triangular.h"
#include "nb_precision.h"

/* md_pairs_*'s work group (its NB_TILE in programs.c). */
#define PAIRS_TILE 128
/* One work group runs on one multiprocessor: above this many particles a
 * single dispatch of the O(n^2) -wg kernels would run for seconds, where
 * drivers' watchdogs stop it. */
#define WG_LONGEST 16384
#define MAX_PASSES 2

_Static_assert(NB_TRI_WG_MAX == NB_TRI_WG_GROUP * NB_TRI_WG_IPT,
               "tri3-wg holds NB_TRI_WG_IPT particles per invocation");
_Static_assert(NB_TRI_TILE == NB_TRI_TILE_GROUP * NB_TRI_TILE_IPT,
               "tri3-gpu holds NB_TRI_TILE_IPT particles per invocation");

enum kind { K_SQUARE, K_LEAN, K_TRI1, K_TRI2, K_TRI3 };

struct variant {
    const char *name;
    enum kind kind;
    int gpu;                    /* 1: whole device, 0: one work group */
};

#define VARIANTS(X)                                                          \
    X("square-wg", K_SQUARE, 0) X("tri1-wg", K_TRI1, 0) X("tri2-wg", K_TRI2, 0)    \
    X("tri3-wg", K_TRI3, 0) X("square-gpu", K_SQUARE, 1) X("tri1-gpu", K_TRI1, 1)  \
    X("tri2-gpu", K_TRI2, 1) X("tri3-gpu", K_TRI3, 1) X("lean-gpu", K_LEAN, 1)
#define VARIANT_ENTRY(name, kind, gpu) { name, kind, gpu },
#define VARIANT_NAME(name, kind, gpu) name,
static const struct variant variants[] = { VARIANTS(VARIANT_ENTRY) };
static const char *const variant_names[] = { VARIANTS(VARIANT_NAME) NULL };
#define VARIANT_COUNT (sizeof variants / sizeof variants[0])

const char *const *nb_md_tri_variants(void)
{
    return variant_names;
}

enum {
    B_TPOS, B_QPOS, B_TYPE, B_COEFF, B_FORCE, B_VIRIAL, B_SCRATCH, B_DPOS, B_DCOEFF, B_COUNT
};
/* B_DPOS, B_DCOEFF: md_precision.comp's double positions and coefficients
 * (square-gpu in mode G). */
static const GLuint binding[B_COUNT] = {
    NB_BIND_TRI_POS, NB_BIND_MD_POS, NB_BIND_MD_TYPE, NB_BIND_MD_COEFF,
    NB_BIND_MD_FORCE, NB_BIND_MD_VIRIAL, NB_BIND_TRI_SCRATCH, NB_BIND_MD_X, NB_BIND_MD_V
};

/* One pass: a program and its work groups. */
struct pass {
    char program[40];
    GLuint groups;
};

/* One evaluation: what it runs and the buffers it owns. */
struct job {
    const struct variant *v;
    const struct nb_md_system *sys;
    size_t n;
    enum nb_precision mode;
    int prec;                   /* a mode other than A: eight-word states */
    int dbl;                    /* mode G: double positions, coefficients, terms */
    int log2[2];                /* E, F, H: 2^log2[0] forces, [1] energies */
    int tiles;                  /* tri3-gpu */
    size_t scratch_bytes;
    struct nb_gl_md_params params;      /* uniforms and coefficient table */
    struct pass pass[MAX_PASSES];
    int passes;
    GLuint buf[B_COUNT];
    size_t cap[B_COUNT];
};

/* ---- what a variant can run -------------------------------------------- */

static enum nb_status find_variant(const char *name, const struct variant **v,
                                   struct nb_error *err)
{
    for (size_t k = 0; k < VARIANT_COUNT; k++)
        if (name && strcmp(name, variants[k].name) == 0) {
            *v = &variants[k];
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "triangular MD: unknown variant '%s' (known: "
                        "square, tri1, tri2, tri3, each with -wg or -gpu, and lean-gpu)",
                        name ? name : "(null)");
}

static enum nb_status check_system(const struct nb_md_system *sys, struct nb_error *err)
{
    const struct nb_md_potential *pot = sys->pot;
    if (nb_md_system_require(sys, err) != NB_OK)
        return err->status;
    if (pot->law != NB_LAW_IONIC && pot->law != NB_LAW_LJ)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "triangular MD: the %s law is not "
                            "built (ionic and lj only)", nb_md_law_name(pot->law));
    for (int a = 0; a < 3; a++)
        if (sys->box->periodic[a])
            return nb_error_set(err, NB_ERR_UNSUPPORTED, "triangular MD: open boxes only "
                                "(axis %c is periodic)", "xyz"[a]);
    if (pot->cutoff > 0.0 || sys->cell_list)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "triangular MD: all pairs without "
                            "cutoff only (the cutoff is %g%s)", pot->cutoff,
                            sys->cell_list ? ", cell lists asked for" : "");
    return NB_OK;
}

/* The largest n with need(n) <= limit bytes, for the messages. */
static size_t largest_n(size_t (*need)(size_t), size_t limit)
{
    size_t lo = 0, hi = 1;
    while (need(hi) <= limit && hi < ((size_t)1 << 31))
        hi *= 2;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (need(mid) <= limit)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static size_t tri1_bytes(size_t n) { return 16 * n * n; }
static size_t tri1_bytes_h(size_t n) { return 32 * n * n; }     /* H int64, G double */
static size_t tri2_bytes(size_t n) { return n ? 16 * (n * (n - 1) / 2) : 0; }
static size_t tri2_bytes_g(size_t n) { return 2 * tri2_bytes(n); }
static size_t tri3_bytes(size_t n)
{
    size_t tiles = (n + NB_TRI_TILE - 1) / NB_TRI_TILE;
    return 16 * tiles * tiles * NB_TRI_TILE;
}
static size_t tri3_bytes_h(size_t n) { return 2 * tri3_bytes(n); }     /* states */

static enum nb_status scratch_limit(struct job *j, size_t (*need)(size_t), const char *what,
                                    struct nb_error *err)
{
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    j->scratch_bytes = need(j->n);
    if (max_block > 0 && j->scratch_bytes <= (size_t)max_block)
        return NB_OK;
    return nb_error_set(err, NB_ERR_LIMIT, "%s: n = %zu needs %s of %zu bytes, over this "
                        "GL's GL_MAX_SHADER_STORAGE_BLOCK_SIZE of %lld (n <= %zu here)",
                        j->v->name, j->n, what, j->scratch_bytes, (long long)max_block,
                        largest_n(need, (size_t)(max_block > 0 ? max_block : 0)));
}

static enum nb_status check_limits(struct job *j, struct nb_error *err)
{
    GLint max_groups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &max_groups);
    int wg_max = j->prec ? NB_TRI_WG_MAX_H : NB_TRI_WG_MAX;
    if (!j->v->gpu && j->v->kind == K_TRI3 && j->n > (size_t)wg_max)
        return nb_error_set(err, NB_ERR_LIMIT, "tri3-wg: n = %zu exceeds the %d particles "
                            "whose reactions fit the work group's 32 KiB of shared memory "
                            "(%s); use tri3-gpu", j->n, wg_max,
                            j->prec ? "NB_TRI_WG_MAX_H, eight-word states in modes B..H" :
                            "NB_TRI_WG_MAX");
    if (!j->v->gpu && j->n > WG_LONGEST)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: n = %zu exceeds %d, beyond which one "
                            "work group's dispatch would run for seconds; use the -gpu "
                            "variant", j->v->name, j->n, WG_LONGEST);
    int wide = j->mode == NB_PRECISION_H || j->dbl;
    if (j->v->kind == K_TRI1)
        return scratch_limit(j, wide ? tri1_bytes_h : tri1_bytes,
                             j->dbl ? "an n x n double pair matrix" : wide ?
                             "an n x n int64 pair matrix" : "an n x n pair matrix", err);
    if (j->v->kind == K_TRI2)
        return scratch_limit(j, j->dbl ? tri2_bytes_g : tri2_bytes,
                             "a packed lower-triangle pair matrix", err);
    size_t group = j->v->kind == K_LEAN ? NB_TRI_WG_GROUP : PAIRS_TILE;
    if ((j->v->kind == K_LEAN || (j->v->kind == K_SQUARE && j->v->gpu)) &&
        (j->n + group - 1) / group > (size_t)max_groups)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: n = %zu needs more than %d work groups",
                            j->v->name, j->n, max_groups);
    if (j->v->kind == K_TRI3 && j->v->gpu) {
        size_t tiles = (j->n + NB_TRI_TILE - 1) / NB_TRI_TILE;
        if (tiles * (tiles + 1) / 2 > (size_t)max_groups)
            return nb_error_set(err, NB_ERR_LIMIT, "tri3-gpu: n = %zu makes %zu tile pairs, "
                                "over the %d work groups of one dispatch", j->n,
                                tiles * (tiles + 1) / 2, max_groups);
        j->tiles = (int)tiles;
        return scratch_limit(j, j->prec ? tri3_bytes_h : tri3_bytes,
                             "per-tile partial sums", err);
    }
    return NB_OK;
}

/* ---- passes ------------------------------------------------------------ */

/* stem_law, with "_<m>" in modes B..H unless float (mode A's program). */
static void add_pass_of(struct job *j, const char *stem, const char *law, size_t groups,
                        int float_pass)
{
    struct pass *p = &j->pass[j->passes++];
    char suffix[3] = "";
    if (j->prec && !float_pass)
        snprintf(suffix, sizeof suffix, "_%c", 'a' + (int)j->mode);
    snprintf(p->program, sizeof p->program, "%s%s%s%s", stem, law ? "_" : "", law ? law : "",
             suffix);
    p->groups = (GLuint)(groups ? groups : 1);
}

static void add_pass(struct job *j, const char *stem, const char *law, size_t groups)
{
    add_pass_of(j, stem, law, groups, 0);
}

static void plan_passes(struct job *j)
{
    const char *law = j->sys->pot->law == NB_LAW_IONIC ? "ionic" : "lj";
    size_t gpu_groups = (j->n + NB_TRI_GPU_GROUP - 1) / NB_TRI_GPU_GROUP;
    size_t tiles = (size_t)j->tiles;
    int gpu = j->v->gpu;
    j->passes = 0;
    switch (j->v->kind) {
    case K_SQUARE:
        if (gpu && j->prec)     /* md_precision.comp's kernel of the mode */
            add_pass(j, "md_prec", law, (j->n + NB_PREC_TILE - 1) / NB_PREC_TILE);
        else if (gpu)
            add_pass(j, "md_pairs", law, (j->n + PAIRS_TILE - 1) / PAIRS_TILE);
        else
            add_pass(j, "md_tri_square_wg", law, 1);
        break;
    case K_LEAN:            /* the same program, one round per work group */
        add_pass(j, "md_tri_square_wg", law, (j->n + NB_TRI_WG_GROUP - 1) / NB_TRI_WG_GROUP);
        break;
    case K_TRI1:            /* B..F: mode A's pairs pass, float terms */
        add_pass_of(j, gpu ? "md_tri1_pairs_gpu" : "md_tri1_pairs_wg", law,
                    gpu ? gpu_groups : 1, j->mode != NB_PRECISION_H && !j->dbl);
        add_pass(j, gpu ? "md_tri1_sum_gpu" : "md_tri1_sum_wg", NULL, gpu ? gpu_groups : 1);
        break;
    case K_TRI2:
        if (gpu) {
            add_pass(j, "md_tri2_rows_gpu", law, gpu_groups);
            add_pass(j, "md_tri2_columns_gpu", NULL, gpu_groups);
        } else {
            add_pass(j, "md_tri2_wg", law, 1);
        }
        break;
    case K_TRI3:
        if (gpu) {
            add_pass(j, "md_tri3_tiles", law, tiles * (tiles + 1) / 2);
            add_pass(j, "md_tri3_reduce", NULL, gpu_groups);
        } else {
            add_pass(j, "md_tri3_wg", law, 1);
        }
        break;
    }
}

/* Uniforms of one pass: n, the MD uniforms its program keeps (md_pairs_*
 * takes the compute engine's geometry: here an open box and no cutoff),
 * and tri3-gpu's tile count. */
static void set_uniforms(const struct nb_gl *gl, const struct job *j, GLuint program)
{
    uint64_t active = nb_gl_uniforms_of(gl, program);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)j->n);
    nb_gl_md_set_uniforms(&j->params, active);
    if ((active >> NB_LOC_TRI_TILES) & 1u)
        glUniform1i(nb_gl_loc(NB_LOC_TRI_TILES), j->tiles);
    if (j->prec && ((active >> NB_LOC_PREC_SCALE) & 1u)) {
        float sa = ldexpf(1.0f, j->log2[0]), sp = ldexpf(1.0f, j->log2[1]);
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
    }
}

/* ---- buffers ----------------------------------------------------------- */

static enum nb_status upload(struct job *j, int which, const void *data, size_t bytes,
                             const char *what, struct nb_error *err)
{
    if (nb_gl_ensure_buffer(&j->buf[which], &j->cap[which], bytes ? bytes : 16, what,
                            err) != NB_OK)
        return err->status;
    if (data && bytes) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, j->buf[which]);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
    }
    return nb_gl_check(what, err);
}

/* The float table; in G also the double one, which the md_tri kernels
 * read at B_COEFF's binding and md_precision.comp at B_DCOEFF's. */
static enum nb_status upload_coefficients(struct job *j, struct nb_error *err)
{
    size_t pairs;
    int square_gpu = j->v->kind == K_SQUARE && j->v->gpu;
    nb_gl_md_params(&j->params, j->sys);
    pairs = (size_t)(j->params.types * j->params.types);
    if (j->dbl && upload(j, square_gpu ? B_DCOEFF : B_COEFF, j->params.dcoeff,
                         sizeof(double) * 8 * pairs, "triangular MD double coefficients",
                         err) != NB_OK)
        return err->status;
    if (j->dbl && !square_gpu)
        return NB_OK;
    return upload(j, B_COEFF, j->params.coeff, sizeof(float) * 8 * pairs,
                  "triangular MD coefficients", err);
}

/* G: (x, y, z, type - 1) in double for the md_tri kernels, (x, y, z, q)
 * for md_precision.comp. */
static enum nb_status upload_double_positions(struct job *j, const double *x,
                                              const float *qpos, const int32_t *type,
                                              struct nb_error *err)
{
    double *d = nb_alloc(4 * j->n, sizeof *d, "triangular MD double positions", err);
    int square_gpu = j->v->kind == K_SQUARE && j->v->gpu;
    if (!d)
        return err->status;
    for (size_t i = 0; i < j->n; i++) {
        for (int a = 0; a < 3; a++)
            d[4 * i + a] = x[3 * i + a];
        d[4 * i + 3] = square_gpu ? (double)qpos[4 * i + 3] : (double)type[i];
    }
    enum nb_status st = upload(j, square_gpu ? B_DPOS : B_TPOS, d, 32 * j->n,
                               "triangular MD double positions", err);
    free(d);
    return st;
}

/* (x, y, z, type - 1 as int bits) for the md_tri kernels; for md_pairs,
 * (x, y, z, q) and the types apart. */
static enum nb_status upload_particles(struct job *j, const double *x, struct nb_error *err)
{
    size_t n = j->n;
    const struct nb_md_system *sys = j->sys;
    float *p = nb_alloc(4 * n, sizeof *p, "triangular MD positions", err);
    int32_t *type = p ? nb_alloc(n, sizeof *type, "triangular MD types", err) : NULL;
    enum nb_status st = type ? NB_OK : NB_ERR_NOMEM;
    int pairs = j->v->kind == K_SQUARE && j->v->gpu;
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        type[i] = sys->type[i] - 1;
        for (int a = 0; a < 3; a++)
            p[4 * i + a] = (float)x[3 * i + a];
        if (pairs)
            p[4 * i + 3] = (float)(sys->q ? sys->q[i] : sys->pot->types.charge[type[i]]);
        else
            memcpy(&p[4 * i + 3], &type[i], sizeof type[i]);
    }
    if (st == NB_OK && j->dbl)
        st = upload_double_positions(j, x, p, type, err);
    if (st == NB_OK && (!j->dbl || pairs))
        st = upload(j, pairs ? B_QPOS : B_TPOS, p, 16 * n, "triangular MD positions", err);
    if (st == NB_OK && pairs)
        st = upload(j, B_TYPE, type, 4 * n, "triangular MD types", err);
    free(p);
    free(type);
    return st;
}

static enum nb_status allocate(struct job *j, const double *x, struct nb_error *err)
{
    if (upload_particles(j, x, err) != NB_OK || upload_coefficients(j, err) != NB_OK ||
        upload(j, B_FORCE, NULL, (j->prec ? 32 : 16) * j->n, "triangular MD forces",
               err) != NB_OK)
        return err->status;
    if (j->v->kind == K_SQUARE && j->v->gpu &&
        upload(j, B_VIRIAL, NULL, 4 * j->n, "triangular MD virials", err) != NB_OK)
        return err->status;
    if (j->scratch_bytes &&
        upload(j, B_SCRATCH, NULL, j->scratch_bytes, "triangular MD pair scratch", err) != NB_OK)
        return err->status;
    for (int b = 0; b < B_COUNT; b++)
        if (j->buf[b])
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding[b], j->buf[b]);
    return NB_OK;
}

/* Modes B..H: the eight words of (F, sum u) per particle finished as
 * md_precision.c does. */
static enum nb_status read_states(struct job *j, double *f, double *pe, int64_t *fixed,
                                  struct nb_error *err)
{
    uint32_t *raw = nb_alloc(8 * j->n, sizeof *raw, "triangular MD readback", err);
    if (!raw)
        return err->status;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, j->buf[B_FORCE]);
    nb_gl_get_buffer(GL_SHADER_STORAGE_BUFFER, 0, 32 * j->n, raw);
    if (nb_gl_check("reading triangular MD forces", err) == NB_OK)
        nb_md_prec_finish(j->mode, raw, j->n, j->log2, f, pe, fixed);
    free(raw);
    return err->status;
}

static enum nb_status read_forces(struct job *j, double *f, double *pe, struct nb_error *err)
{
    float *fv = nb_alloc(4 * j->n, sizeof *fv, "triangular MD readback", err);
    if (!fv)
        return err->status;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, j->buf[B_FORCE]);
    nb_gl_get_buffer(GL_SHADER_STORAGE_BUFFER, 0, 16 * j->n, fv);
    if (nb_gl_check("reading triangular MD forces", err) == NB_OK)
        for (size_t i = 0; i < j->n; i++) {
            for (int a = 0; a < 3; a++)
                f[3 * i + a] = fv[4 * i + a];
            pe[i] = fv[4 * i + 3];
        }
    free(fv);
    return err->status;
}

/* ---- the entry --------------------------------------------------------- */

static enum nb_status run_passes(struct nb_gl *gl, struct job *j, GLuint *prog,
                                 double *seconds, struct nb_error *err)
{
    struct nb_gpu_timer timer;
    nb_gpu_timer_init(&timer, gl);
    nb_gpu_timer_start(&timer);
    for (int p = 0; p < j->passes; p++) {
        glUseProgram(prog[p]);
        set_uniforms(gl, j, prog[p]);
        glDispatchCompute(j->pass[p].groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    *seconds = nb_gpu_timer_stop(&timer);
    nb_gpu_timer_free(&timer);
    return nb_gl_check(j->v->name, err);
}

enum nb_status nb_md_tri_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                const double *x, enum nb_precision mode, int log2[2],
                                struct nb_error *err)
{
    log2[0] = log2[1] = 0;
    err->status = NB_OK;
    if (check_system(sys, err) != NB_OK)
        return err->status;
    return nb_md_prec_scales(gl, sys, x, mode, log2, err);
}

enum nb_status nb_md_tri_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                const double *x, const char *variant, double *f,
                                double *pe, double *seconds, struct nb_error *err)
{
    return nb_md_tri_forces_prec(gl, sys, x, variant, NB_PRECISION_A, NULL, f, pe, NULL,
                                 seconds, err);
}

enum nb_status nb_md_tri_forces_prec(struct nb_gl *gl, const struct nb_md_system *sys,
                                     const double *x, const char *variant,
                                     enum nb_precision mode, const int scale_log2[2],
                                     double *f, double *pe, int64_t *fixed,
                                     double *seconds, struct nb_error *err)
{
    struct job j;
    GLuint prog[MAX_PASSES];
    memset(&j, 0, sizeof j);
    err->status = NB_OK;
    *seconds = 0.0;
    if (find_variant(variant, &j.v, err) != NB_OK || check_system(sys, err) != NB_OK)
        return err->status;
    if ((int)mode < NB_PRECISION_A || (int)mode > NB_PRECISION_H)
        return nb_error_set(err, NB_ERR_ARGS, "triangular MD: precision %d is not a mode "
                            "(A..H)", (int)mode);
    j.mode = mode;
    j.prec = mode != NB_PRECISION_A;
    j.dbl = mode == NB_PRECISION_G;
    if (j.prec && nb_md_prec_check(sys, mode, err) != NB_OK)   /* G's laws, extensions */
        return err->status;
    j.sys = sys;
    j.n = sys->n;
    if (j.n > (size_t)INT_MAX / 16)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: n = %zu is too large", j.v->name, j.n);
    if (check_limits(&j, err) != NB_OK)
        return err->status;
    plan_passes(&j);
    for (int p = 0; p < j.passes; p++)
        if (nb_gl_program(gl, j.pass[p].program, &prog[p], err) != NB_OK)
            return err->status;
    if (j.n == 0)
        return NB_OK;
    int scaled = mode == NB_PRECISION_E || mode == NB_PRECISION_F || mode == NB_PRECISION_H;
    if (scaled && scale_log2) {
        j.log2[0] = scale_log2[0];
        j.log2[1] = scale_log2[1];
    } else if (scaled && nb_md_tri_scales(gl, sys, x, mode, j.log2, err) != NB_OK) {
        return err->status;
    }
    while (glGetError() != GL_NO_ERROR)
        ;                       /* errors of earlier calls are not ours */
    if (allocate(&j, x, err) == NB_OK && run_passes(gl, &j, prog, seconds, err) == NB_OK)
        (void)(j.prec ? read_states(&j, f, pe, fixed, err) : read_forces(&j, f, pe, err));
    glDeleteBuffers(B_COUNT, j.buf);
    return err->status;
}
