/* md_precision.c - the MD force with an accumulation mode of seed 004
 * Table 1: over all pairs (glsl/md_precision.comp: the kernels of its
 * System 2, LJ, 16 types, no cutoff, and of seed 003's ionic crystals) or,
 * for a system with cell lists, through them (md_cell_precision.comp,
 * after the compute MD engine's own cell build, nb_gl_md_cells_build).
 *
 * Mode A is the compute MD engine's own kernel (md_pairs.comp or
 * md_cellforce.comp: float sums); B..H run the precision kernels, one
 * i-particle per invocation.  E, F
 * and H scale the pair terms by 2^k taken from the magnitude pass (mode M:
 * float sums of |F_ij| components and |u_ij|, the largest partial sum any
 * order can reach), twice over for those sums' own rounding, as the GA
 * precision kernel does; the pass is counted in their time.  H sums the
 * pair *forces* (MD terms are forces already) and the pair energies in
 * int64: exact, independent of order, and Sum_i F_i is exactly zero.
 * The cell kernel's magnitude pass adds its terms in the all-pairs
 * kernel's order, so both take the same scales from the same rule
 * (choose_scales) and, with the same pairs inside the cutoff, H's sums
 * agree bit for bit.  The cell build is not counted in the kernel's time,
 * as the MD engine's force time (mode A) leaves it out too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

enum {
    B_POS, B_TYPE, B_COEFF, B_OUT, B_DPOS, B_DCOEFF, B_CELL_OF, B_CELL_COUNT, B_CELL_START,
    B_CELL_FILL, B_PERM, B_SPOS, B_STYPE, B_COUNT
};
/* The cell buffers' bindings, from B_CELL_OF on (md_cells.comp's). */
static const GLuint cell_binding[B_COUNT - B_CELL_OF] = {
    NB_BIND_MD_CELL_OF, NB_BIND_MD_CELL_COUNT, NB_BIND_MD_CELL_START, NB_BIND_MD_SCAN,
    NB_BIND_MD_PERM, NB_BIND_MD_SPOS, NB_BIND_MD_STYPE
};

struct md_prec {
    struct nb_gl *gl;
    GLuint buf[B_COUNT];
    size_t cap[B_COUNT];
    size_t n;
    int cell_list;
    struct nb_gl_md_cells grid;     /* with cell_list */
    struct nb_gl_md_params params;
    int acc_log2, pot_log2;
    struct nb_gpu_timer timer;
};

static enum nb_status grow(struct md_prec *p, int which, size_t bytes, struct nb_error *err)
{
    return nb_gl_ensure_buffer(&p->buf[which], &p->cap[which], bytes ? bytes : 16,
                               "MD precision buffer", err);
}

static void upload(struct md_prec *p, int which, const void *data, size_t bytes)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf[which]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
}

static enum nb_status grow_cells(struct md_prec *p, struct nb_error *err)
{
    size_t n = p->n, cells = p->grid.total;
    if (grow(p, B_CELL_OF, 4 * n, err) != NB_OK ||
        grow(p, B_CELL_COUNT, 4 * cells, err) != NB_OK ||
        grow(p, B_CELL_START, 4 * cells, err) != NB_OK ||
        grow(p, B_CELL_FILL, 4 * cells, err) != NB_OK ||
        grow(p, B_PERM, 4 * n, err) != NB_OK ||
        grow(p, B_SPOS, 16 * n, err) != NB_OK ||
        grow(p, B_STYPE, 4 * n, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static void bind_cells(const struct md_prec *p)
{
    for (int b = B_CELL_OF; b < B_COUNT; b++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, cell_binding[b - B_CELL_OF], p->buf[b]);
}

/* The cell lists of the float positions, once per call (md_cells.c's
 * passes; not timed). */
static enum nb_status build_cells(struct md_prec *p, struct nb_error *err)
{
    if (nb_gl_md_cells_programs(p->gl, err) != NB_OK)
        return err->status;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_POS, p->buf[B_POS]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_TYPE, p->buf[B_TYPE]);
    bind_cells(p);
    nb_gl_md_cells_build(p->gl, &p->grid, p->buf[B_CELL_COUNT], p->buf[B_CELL_FILL]);
    return nb_gl_check("building the MD precision cell lists", err);
}

/* Positions and charges (float and double), types, the coefficient table
 * (float and double). */
static enum nb_status upload_system(struct md_prec *p, const struct nb_md_system *sys,
                                    const double *x, struct nb_error *err)
{
    size_t n = sys->n, pairs = (size_t)(p->params.types * p->params.types);
    double *dpos = nb_alloc(4 * n + 4, sizeof *dpos, "MD precision positions", err);
    float *fpos = nb_alloc(4 * n + 4, sizeof *fpos, "MD precision positions", err);
    int *type0 = nb_alloc(n + 1, sizeof *type0, "MD precision types", err);
    enum nb_status st = dpos && fpos && type0 ? NB_OK : NB_ERR_NOMEM;
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        type0[i] = sys->type[i] - 1;
        for (int a = 0; a < 3; a++)
            dpos[4 * i + a] = x[3 * i + a];
        dpos[4 * i + 3] = sys->q ? sys->q[i] : sys->pot->types.charge[type0[i]];
        for (int a = 0; a < 4; a++)
            fpos[4 * i + a] = (float)dpos[4 * i + a];
    }
    if (st == NB_OK && (grow(p, B_POS, 16 * n, err) != NB_OK ||
                        grow(p, B_DPOS, 32 * n, err) != NB_OK ||
                        grow(p, B_TYPE, 4 * n, err) != NB_OK ||
                        grow(p, B_COEFF, 32 * pairs, err) != NB_OK ||
                        grow(p, B_DCOEFF, 64 * pairs, err) != NB_OK ||
                        grow(p, B_OUT, 32 * n, err) != NB_OK ||
                        (p->cell_list && grow_cells(p, err) != NB_OK)))
        st = err->status;
    if (st == NB_OK) {
        upload(p, B_POS, fpos, 16 * n);
        upload(p, B_DPOS, dpos, 32 * n);
        upload(p, B_TYPE, type0, 4 * n);
        upload(p, B_COEFF, p->params.coeff, 32 * pairs);
        upload(p, B_DCOEFF, p->params.dcoeff, 64 * pairs);
        st = nb_gl_check("uploading the MD precision system", err);
    }
    free(dpos);
    free(fpos);
    free(type0);
    return st;
}

/* One timed dispatch of the program for mode m ('b'..'h', or 'm'): all
 * pairs, or through the cells (one invocation per sorted slot). */
static enum nb_status dispatch(struct md_prec *p, enum nb_md_law law, char m,
                               double *seconds, struct nb_error *err)
{
    char name[48];
    GLuint program;
    snprintf(name, sizeof name, "%s_%s_%c", p->cell_list ? "md_cellprec" : "md_prec",
             nb_gl_md_law_suffix(law), m);
    if (nb_gl_program(p->gl, name, &program, err) != NB_OK)
        return err->status;
    uint64_t active = nb_gl_uniforms_of(p->gl, program);
    float sa = ldexpf(1.0f, p->acc_log2), sp = ldexpf(1.0f, p->pot_log2);
    glUseProgram(program);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)p->n);
    nb_gl_md_set_uniforms(&p->params, active);
    if (active >> NB_LOC_PREC_SCALE & 1)
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
    if (p->cell_list) {
        nb_gl_md_cells_set_uniforms(&p->grid, active);
        bind_cells(p);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_POS, p->buf[B_POS]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_TYPE, p->buf[B_TYPE]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_COEFF, p->buf[B_COEFF]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, p->buf[B_OUT]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_X, p->buf[B_DPOS]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_V, p->buf[B_DCOEFF]);
    nb_gpu_timer_start(&p->timer);
    glDispatchCompute((GLuint)((p->n + NB_PREC_TILE - 1) / NB_PREC_TILE), 1, 1);
    *seconds += nb_gpu_timer_stop(&p->timer);
    return nb_gl_check("MD precision dispatch", err);
}

static enum nb_status fetch(struct md_prec *p, void *out, size_t bytes, struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf[B_OUT]);
    nb_gl_get_buffer(GL_SHADER_STORAGE_BUFFER, 0, bytes, out);
    return nb_gl_check("reading MD precision results", err);
}

/* E, F, H: the scales from the magnitude pass (the rule the fragment
 * pipeline shares: nb_prec_scales_measured). */
static enum nb_status choose_scales(struct md_prec *p, enum nb_md_law law,
                                    enum nb_precision mode, float *work, double *prepass,
                                    struct nb_error *err)
{
    int log2[2] = { 0, 0 };
    p->acc_log2 = p->pot_log2 = 0;
    if (mode != NB_PRECISION_E && mode != NB_PRECISION_F && mode != NB_PRECISION_H)
        return NB_OK;
    if (dispatch(p, law, 'm', prepass, err) != NB_OK ||
        fetch(p, work, 16 * p->n, err) != NB_OK ||
        nb_prec_scales_measured(mode, work, p->n, "", log2, err) != NB_OK)
        return err->status;
    p->acc_log2 = log2[0];
    p->pot_log2 = log2[1];
    return NB_OK;
}

enum nb_status nb_md_prec_check(const struct nb_md_system *sys, enum nb_precision mode,
                                struct nb_error *err)
{
    if (nb_md_system_require(sys, err) != NB_OK)
        return err->status;
    if (mode == NB_PRECISION_A || mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "MD precision kernel: mode %s is the "
                            "compute MD engine's own", nb_precision_name(mode));
    if (mode == NB_PRECISION_G && (sys->pot->law == NB_LAW_IONIC ||
                                   sys->pot->law == NB_LAW_LJC_SIGMOIDAL))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision G (double pair terms) "
                            "needs exp or pow in double, which GLSL lacks; the %s law "
                            "has G only on the CPU", nb_md_law_name(sys->pot->law));
    if (sys->n > (size_t)INT32_MAX / 64)
        return nb_error_set(err, NB_ERR_LIMIT, "MD precision kernel: %zu particles", sys->n);
    return nb_prec_supported(mode, err);
}

/* The system on the device (cell lists built where it has them) and a
 * work area of 32 bytes a particle (*raw), ready for choose_scales and
 * dispatch; release() undoes it, also after a failure. */
static enum nb_status prepare(struct md_prec *p, struct nb_gl *gl,
                              const struct nb_md_system *sys, const double *x,
                              enum nb_precision mode, void **raw, struct nb_error *err)
{
    memset(p, 0, sizeof *p);
    *raw = NULL;
    p->gl = gl;
    p->n = sys->n;
    p->cell_list = sys->cell_list;
    nb_gl_md_params(&p->params, sys);
    nb_gpu_timer_init(&p->timer, gl);
    if (nb_md_prec_check(sys, mode, err) != NB_OK ||
        nb_gl_md_cells_geometry(&p->grid, sys, "MD precision kernel", err) != NB_OK)
        return err->status;
    if (p->n > (size_t)65535 * NB_PREC_TILE)     /* work groups along x */
        return nb_error_set(err, NB_ERR_LIMIT, "MD precision kernel: %zu particles exceed "
                            "the dispatch limit of %zu", p->n, (size_t)65535 * NB_PREC_TILE);
    if (upload_system(p, sys, x, err) != NB_OK ||
        (p->cell_list && build_cells(p, err) != NB_OK))
        return err->status;
    if (!(*raw = nb_alloc(p->n + 1, 32, "MD precision results", err)))
        return NB_ERR_NOMEM;
    return NB_OK;
}

static void release(struct md_prec *p, void *raw)
{
    free(raw);
    glDeleteBuffers(B_COUNT, p->buf);
    nb_gpu_timer_free(&p->timer);
}

enum nb_status nb_md_prec_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, enum nb_precision mode, double *f,
                                 double *pe, double seconds[2], int64_t *fixed,
                                 int *fixed_log2, struct nb_error *err)
{
    struct md_prec p;
    void *raw;

    seconds[0] = seconds[1] = 0.0;
    err->status = NB_OK;
    if (prepare(&p, gl, sys, x, mode, &raw, err) == NB_OK &&
        (p.n == 0 ||
         (choose_scales(&p, sys->pot->law, mode, raw, &seconds[1], err) == NB_OK &&
          dispatch(&p, sys->pot->law, (char)('a' + (int)mode), &seconds[0], err) == NB_OK &&
          fetch(&p, raw, 32 * p.n, err) == NB_OK))) {
        const int log2[2] = { p.acc_log2, p.pot_log2 };
        nb_md_prec_finish(mode, raw, p.n, log2, f, pe, fixed);
        if (fixed_log2) {
            fixed_log2[0] = p.acc_log2;
            fixed_log2[1] = p.pot_log2;
        }
    }
    release(&p, raw);
    return err->status;
}

enum nb_status nb_md_prec_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, enum nb_precision mode, int log2[2],
                                 struct nb_error *err)
{
    struct md_prec p;
    void *raw;
    double seconds;

    log2[0] = log2[1] = 0;
    err->status = NB_OK;
    if (mode != NB_PRECISION_E && mode != NB_PRECISION_F && mode != NB_PRECISION_H)
        return NB_OK;           /* unscaled: 2^0 */
    if (prepare(&p, gl, sys, x, mode, &raw, err) == NB_OK && p.n > 0 &&
        choose_scales(&p, sys->pot->law, mode, raw, &seconds, err) == NB_OK) {
        log2[0] = p.acc_log2;
        log2[1] = p.pot_log2;
    }
    release(&p, raw);
    return err->status;
}
