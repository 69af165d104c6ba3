/* md_compute.c - the compute pipeline's molecular-dynamics engine.
 *
 * Forces over all pairs (md_pairs.comp) or through cell lists rebuilt on
 * the device before every evaluation (md_cells.comp: hash, scan, place,
 * sort, gather; md_cellforce.comp: 27-cell traversal), and velocity
 * Verlet as seed 002's kernels (md_verlet.comp: K1 kick-drift-wrap, K2
 * kick after the forces), so that positions, velocities and forces stay on
 * the GPU between steps; the host reads them back only for output.  The
 * cell-list build (nb_gl_md_cells_*) also serves the precision kernels'
 * cell-list path (md_precision.c).
 *
 * x and v live on the device in double (GL 4.0 made fp64 shaders core), so
 * that long runs do not lose the small position increments of a float
 * state; the force kernels read a float copy (x, y, z, q) that K1 rewrites.
 * Cell lists are rebuilt every evaluation rather than kept with a skin:
 * the build is O(N) and a few percent of the force pass (see the README's
 * MD timings), and it needs no displacement check read back per step.
 *
 * Accumulation modes (nb_md_engine_compute_set_precision, `glnbody md
 * --precision B..H`): each evaluation runs md_precision.c's kernel for the
 * mode (md_precision.comp over all pairs, md_cell_precision.comp through
 * the cells just built) into a raw buffer of eight words per particle,
 * then md_prec_finish.comp turns them into the float (F, pe) that K2
 * reads (H: double(int64) 2^-k, a function of the exact sum only), still
 * with nothing read back per step.  The scales 2^k of E, F and H come from
 * one magnitude pre-pass (mode M) at load, with a headroom below the
 * scale rule's limit (prec_default_headroom); the finish kernel flags a
 * sum past half its range, and the flag is read with the state at output
 * steps (read_results), which then fail with NB_ERR_NUMERIC naming the
 * step.  H's per-term limit (2^61, the three-chunk split) has no check of
 * its own in acc_add: a flag there (|y| > 2^61, or-ed per term) cost 3.3%
 * of the all-pairs force time and 0.7% with cells on the H200 (driver
 * 580, 4000 and 16384 atoms), so it relies on the sum check, whose
 * threshold 2^60 sits below that limit: a pair term that large dominates
 * its particle's sum, and the headroom leaves 2^8 between the measured
 * bound and it.  The
 * per-particle virial of such a run is mode A's float one, evaluated only
 * when read (virial_pass). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

/* Invocations per work group of the O(N) passes and of the force kernels
 * (the programs' NB_GROUP and NB_TILE). */
#define MD_GROUP 256
#define MD_TILE 128
/* Dispatch limit: 65535 work groups along x. */
#define MD_MAX_PARTICLES ((size_t)65535 * MD_TILE)
#define MD_MAX_CELLS ((size_t)65535 * MD_GROUP)
/* GPU timestamps kept before their results are read. */
#define CLOCK_RING 512

enum {
    B_POS, B_TYPE, B_COEFF, B_FORCE, B_VIRIAL, B_X, B_V, B_CELL_OF, B_CELL_COUNT,
    B_CELL_START, B_CELL_FILL, B_PERM, B_SPOS, B_STYPE, B_RAW, B_FLAG, B_DCOEFF, B_COUNT
};
/* Precision modes: the raw sums (eight words a particle) and the finish
 * kernel's flag, at md_prec_finish.comp's bindings (programs.c); the
 * double coefficients of mode G are bound at NB_BIND_MD_V only for the
 * precision pass (bind_all leaves them out). */
#define BIND_PREC_RAW 14
#define BIND_PREC_FLAG 15
#define LOC_PREC_LOG2 30
#define LOC_PREC_STEP 31
static const GLuint binding[B_COUNT] = {
    NB_BIND_MD_POS, NB_BIND_MD_TYPE, NB_BIND_MD_COEFF, NB_BIND_MD_FORCE,
    NB_BIND_MD_VIRIAL, NB_BIND_MD_X, NB_BIND_MD_V, NB_BIND_MD_CELL_OF,
    NB_BIND_MD_CELL_COUNT, NB_BIND_MD_CELL_START, NB_BIND_MD_SCAN, NB_BIND_MD_PERM,
    NB_BIND_MD_SPOS, NB_BIND_MD_STYPE, BIND_PREC_RAW, BIND_PREC_FLAG, NB_BIND_MD_V
};

enum phase { PH_START = -1, PH_K1, PH_CELLS, PH_FORCE, PH_K2, PH_COUNT };

/* Device seconds per phase from GL timestamps between the passes (on
 * NVIDIA, results read in batches), or glFinish and the wall clock on the
 * software renderers, whose timestamps do not cover compute work. */
struct phase_clock {
    int use_query;
    GLuint query[CLOCK_RING];
    int label[CLOCK_RING];      /* phase that ended at this stamp */
    int used;
    double wall_prev;
    double sum[PH_COUNT];
};

struct md_compute {
    struct nb_gl *gl;
    GLuint buf[B_COUNT];
    size_t cap[B_COUNT];
    size_t n;
    int ntypes, cell_list;
    struct nb_gl_md_params params;
    struct nb_gl_md_cells grid; /* the cells (one without cell lists) */
    double lo_d[3], len_d[3];
    double *inv_mass, *charge;
    char force_name[40];
    int loaded;                 /* X and V on the device (load) */
    /* Accumulation mode (A: the force kernel's float sums). */
    enum nb_precision prec;
    int headroom;               /* log2 of the margin below the scale rule */
    int scaled;                 /* log2 measured (once, at load) */
    int log2[2];                /* E, F, H: scales of forces, energies */
    uint32_t step;              /* evaluations' step (the flag names it) */
    uint64_t host_calls;        /* forces calls (host-integrated runs) */
    char prec_name[48], mag_name[48], finish_name[32];
    struct phase_clock clock;
    struct nb_md_timings t;
};

/* ---- timing ------------------------------------------------------------ */

static void clock_drain(struct phase_clock *pc)
{
    GLuint64 prev = 0;
    for (int k = 0; k < pc->used; k++) {
        GLuint64 stamp;
        glGetQueryObjectui64v(pc->query[k], GL_QUERY_RESULT, &stamp);
        if (k > 0 && pc->label[k] >= 0)
            pc->sum[pc->label[k]] += (double)(stamp - prev) * 1e-9;
        prev = stamp;
    }
    if (pc->used > 0) {         /* the last stamp starts the next batch */
        GLuint last = pc->query[pc->used - 1];
        pc->query[pc->used - 1] = pc->query[0];
        pc->query[0] = last;
        pc->label[0] = PH_START;
        pc->used = 1;
    }
}

/* Marks the end of phase `label` (PH_START: the start of a sequence). */
static void clock_mark(struct phase_clock *pc, int label)
{
    if (!pc->use_query) {
        glFinish();
        double now = nb_clock_seconds();
        if (label >= 0)
            pc->sum[label] += now - pc->wall_prev;
        pc->wall_prev = now;
        return;
    }
    if (pc->used == CLOCK_RING)
        clock_drain(pc);
    if (label == PH_START && pc->used > 0 && pc->label[pc->used - 1] == PH_START)
        pc->used--;             /* two starts in a row: keep the later */
    glQueryCounter(pc->query[pc->used], GL_TIMESTAMP);
    pc->label[pc->used++] = label;
}

/* ---- buffers and uploads ----------------------------------------------- */

static enum nb_status grow(struct md_compute *c, int which, size_t bytes, const char *what,
                           struct nb_error *err)
{
    return nb_gl_ensure_buffer(&c->buf[which], &c->cap[which], bytes ? bytes : 16, what, err);
}

static void upload(struct md_compute *c, int which, const void *data, size_t bytes)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[which]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
}

static enum nb_status download(struct md_compute *c, int which, void *data, size_t bytes,
                               const char *what, struct nb_error *err)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[which]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, data);
    return nb_gl_check(what, err);
}

static void bind_all(const struct md_compute *c)
{
    for (int b = 0; b < B_DCOEFF; b++)
        if (c->buf[b])
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding[b], c->buf[b]);
}

/* The float stream the force kernels read: (x, y, z, q). */
static enum nb_status upload_positions(struct md_compute *c, const double *x,
                                       struct nb_error *err)
{
    float *p = nb_alloc(c->n ? 4 * c->n : 4, sizeof *p, "MD position stream", err);
    if (!p)
        return err->status;
    for (size_t i = 0; i < c->n; i++) {
        for (int a = 0; a < 3; a++)
            p[4 * i + a] = (float)x[3 * i + a];
        p[4 * i + 3] = (float)c->charge[i];
    }
    upload(c, B_POS, p, 16 * c->n);
    free(p);
    return nb_gl_check("uploading MD positions", err);
}

/* ---- setup ------------------------------------------------------------- */

enum nb_status nb_gl_md_cells_geometry(struct nb_gl_md_cells *g, const struct nb_md_system *sys,
                                       const char *who, struct nb_error *err)
{
    const struct nb_md_box *box = sys->box;
    double rc = sys->pot->cutoff;
    g->n = sys->n;
    g->total = 1;
    for (int a = 0; a < 3; a++) {
        double len = box->hi[a] - box->lo[a];
        g->periodic[a] = box->periodic[a] != 0;
        g->lo[a] = (float)box->lo[a];
        g->cells[a] = 1;
        if (sys->cell_list) {
            double k = floor(len / rc);
            g->cells[a] = k < 1 ? 1 : k > 65535 ? 65535 : (int)k;
        }
        g->inv[a] = (float)(g->cells[a] / len);
        g->total *= (size_t)g->cells[a];
    }
    if (g->total > MD_MAX_CELLS)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu cells exceed the dispatch limit "
                            "of %zu; use a larger cutoff or fewer cells", who, g->total,
                            MD_MAX_CELLS);
    return NB_OK;
}

static enum nb_status set_geometry(struct md_compute *c, const struct nb_md_system *sys,
                                   struct nb_error *err)
{
    for (int a = 0; a < 3; a++) {
        c->lo_d[a] = sys->box->lo[a];
        c->len_d[a] = sys->box->hi[a] - sys->box->lo[a];
    }
    return nb_gl_md_cells_geometry(&c->grid, sys, "compute MD", err);
}

static enum nb_status upload_coefficients(struct md_compute *c, struct nb_error *err)
{
    size_t bytes = sizeof(float) * 8 * (size_t)(c->ntypes * c->ntypes);
    if (grow(c, B_COEFF, bytes, "MD coefficient buffer", err) != NB_OK)
        return err->status;
    upload(c, B_COEFF, c->params.coeff, bytes);
    return NB_OK;
}

static enum nb_status allocate(struct md_compute *c, struct nb_error *err)
{
    size_t n = c->n, cells = c->grid.total;
    if (grow(c, B_POS, 16 * n, "MD position buffer", err) != NB_OK ||
        grow(c, B_TYPE, 4 * n, "MD type buffer", err) != NB_OK ||
        grow(c, B_FORCE, 16 * n, "MD force buffer", err) != NB_OK ||
        grow(c, B_VIRIAL, 4 * n, "MD virial buffer", err) != NB_OK)
        return err->status;
    if (c->cell_list &&
        (grow(c, B_CELL_OF, 4 * n, "cell index buffer", err) != NB_OK ||
         grow(c, B_CELL_COUNT, 4 * cells, "cell count buffer", err) != NB_OK ||
         grow(c, B_CELL_START, 4 * cells, "cell start buffer", err) != NB_OK ||
         grow(c, B_CELL_FILL, 4 * cells, "cell fill buffer", err) != NB_OK ||
         grow(c, B_PERM, 4 * n, "cell permutation buffer", err) != NB_OK ||
         grow(c, B_SPOS, 16 * n, "sorted position buffer", err) != NB_OK ||
         grow(c, B_STYPE, 4 * n, "sorted type buffer", err) != NB_OK))
        return err->status;
    return NB_OK;
}

/* Builds every program a step uses, so that compilation stays out of the
 * timings and a shader error shows at setup. */
static enum nb_status build_programs(struct md_compute *c, struct nb_error *err)
{
    GLuint prog;
    if (nb_gl_program(c->gl, c->force_name, &prog, err) != NB_OK ||
        nb_gl_program(c->gl, "md_k1", &prog, err) != NB_OK ||
        nb_gl_program(c->gl, "md_k2", &prog, err) != NB_OK)
        return err->status;
    if (c->prec != NB_PRECISION_A &&
        (nb_gl_program(c->gl, c->prec_name, &prog, err) != NB_OK ||
         (c->mag_name[0] && nb_gl_program(c->gl, c->mag_name, &prog, err) != NB_OK) ||
         nb_gl_program(c->gl, c->finish_name, &prog, err) != NB_OK))
        return err->status;
    return c->cell_list ? nb_gl_md_cells_programs(c->gl, err) : NB_OK;
}

/* The scaled modes, whose sums have a fixed range. */
static int prec_scaled(enum nb_precision m)
{
    return m == NB_PRECISION_E || m == NB_PRECISION_F || m == NB_PRECISION_H;
}

/* Headroom of the scales below the scale rule (nb_prec_scales_measured:
 * the magnitude bound, already doubled, at most 2^61 for H, 2^19 for E and
 * F), as a power of two.  The bound is measured once, at load; particles
 * then move and a per-particle sum grows where two approach (LJ's r^-13:
 * 16-fold between the fcc neighbour distance at rho 0.8442 and a thermal
 * close approach at T ~ 1).  H: 2^-8 costs nothing, its quantum is then
 * still 2^-52 of the bound, far below a float pair term's rounding.  E, F:
 * 2^-4 keeps 2^14 of their 2^20 range, the quantum (F 2^-27 of it, E
 * through its low float) still below the float terms' rounding. */
static int prec_default_headroom(enum nb_precision m)
{
    return m == NB_PRECISION_H ? 8 : 4;
}

/* Mode B..H's programs and buffers (mode A: nothing). */
static enum nb_status prec_setup(struct md_compute *c, const struct nb_md_system *sys,
                                 struct nb_error *err)
{
    const char *law = nb_gl_md_law_suffix(sys->pot->law);
    char m = (char)('a' + (int)c->prec);
    size_t coeffs = (size_t)(c->ntypes * c->ntypes);

    c->scaled = 0;
    c->log2[0] = c->log2[1] = 0;
    c->mag_name[0] = 0;
    if (c->prec == NB_PRECISION_A)
        return NB_OK;
    if (nb_md_prec_check(sys, c->prec, err) != NB_OK)
        return err->status;
    snprintf(c->prec_name, sizeof c->prec_name, "%s_%s_%c",
             c->cell_list ? "md_cellprec" : "md_prec", law, m);
    if (prec_scaled(c->prec))
        snprintf(c->mag_name, sizeof c->mag_name, "%s_%s_m",
                 c->cell_list ? "md_cellprec" : "md_prec", law);
    snprintf(c->finish_name, sizeof c->finish_name, "md_prec_finish_%c", m);
    if (grow(c, B_RAW, 32 * c->n, "MD precision sums", err) != NB_OK ||
        grow(c, B_FLAG, 16, "MD precision flag", err) != NB_OK ||
        (c->prec == NB_PRECISION_G &&
         grow(c, B_DCOEFF, 64 * coeffs, "MD double coefficients", err) != NB_OK))
        return err->status;
    if (c->prec == NB_PRECISION_G)
        upload(c, B_DCOEFF, c->params.dcoeff, 64 * coeffs);
    return NB_OK;
}

static enum nb_status md_setup(void *state, const struct nb_md_system *sys,
                               struct nb_error *err)
{
    struct md_compute *c = state;
    const struct nb_md_types *types = &sys->pot->types;

    if (nb_md_system_require(sys, err) != NB_OK)
        return err->status;
    if (sys->n > MD_MAX_PARTICLES)
        return nb_error_set(err, NB_ERR_LIMIT, "compute MD: %zu particles exceed the "
                            "dispatch limit of %zu", sys->n, MD_MAX_PARTICLES);
    c->n = sys->n;
    c->ntypes = types->count;
    c->cell_list = sys->cell_list;
    c->loaded = 0;
    if (set_geometry(c, sys, err) != NB_OK)
        return err->status;
    nb_gl_md_params(&c->params, sys);
    snprintf(c->force_name, sizeof c->force_name, "%s_%s",
             c->cell_list ? "md_cellforce" : "md_pairs", nb_gl_md_law_suffix(sys->pot->law));

    free(c->inv_mass);
    free(c->charge);
    c->inv_mass = nb_alloc(c->n ? c->n : 1, sizeof *c->inv_mass, "inverse masses", err);
    c->charge = nb_alloc(c->n ? c->n : 1, sizeof *c->charge, "charges", err);
    int *type0 = nb_alloc(c->n ? c->n : 1, sizeof *type0, "MD types", err);
    if (!c->inv_mass || !c->charge || !type0) {
        free(type0);
        return NB_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->n; i++) {
        type0[i] = sys->type[i] - 1;
        c->inv_mass[i] = 1.0 / sys->m[i];
        c->charge[i] = sys->q ? sys->q[i] : types->charge[type0[i]];
    }
    enum nb_status st = allocate(c, err);
    if (st == NB_OK) {
        upload(c, B_TYPE, type0, 4 * c->n);
        st = upload_coefficients(c, err);
    }
    if (st == NB_OK)
        st = prec_setup(c, sys, err);
    free(type0);
    memset(&c->t, 0, sizeof c->t);
    if (st != NB_OK || build_programs(c, err) != NB_OK)
        return err->status;
    return nb_gl_check("setting up the MD system", err);
}

/* ---- passes ------------------------------------------------------------ */

/* Makes program `name` current; its active uniforms (nb_gl_uniforms_of). */
static uint64_t use(struct nb_gl *gl, const char *name)
{
    GLuint prog = 0;
    struct nb_error ignored;
    nb_gl_program(gl, name, &prog, &ignored);        /* built in setup */
    glUseProgram(prog);
    return nb_gl_uniforms_of(gl, prog);
}

static void dispatch(size_t items, int group)
{
    glDispatchCompute((GLuint)((items + (size_t)group - 1) / (size_t)group), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void clear_ints(GLuint buf, size_t count)
{
    const GLint zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32I, 0, (GLsizeiptr)(4 * count),
                         GL_RED_INTEGER, GL_INT, &zero);
}

static const char *const cell_passes[] = {
    "md_cell_hash", "md_cell_scan", "md_cell_place", "md_cell_sort", "md_cell_gather"
};

enum nb_status nb_gl_md_cells_programs(struct nb_gl *gl, struct nb_error *err)
{
    GLuint prog;
    for (size_t k = 0; k < sizeof cell_passes / sizeof *cell_passes; k++)
        if (nb_gl_program(gl, cell_passes[k], &prog, err) != NB_OK)
            return err->status;
    return NB_OK;
}

/* Hash, scan, place, sort, gather (md_cells.comp).  Each pass is given
 * only the uniforms it uses: SPIR-V programs drop the others, and setting
 * a dropped location is an error. */
void nb_gl_md_cells_build(struct nb_gl *gl, const struct nb_gl_md_cells *g, GLuint count,
                          GLuint fill)
{
    int n = (int)g->n, cells = (int)g->total;
    clear_ints(count, g->total);
    clear_ints(fill, g->total);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    use(gl, cell_passes[0]);
    glUniform1i(NB_LOC_MD_COUNT, n);
    glUniform3f(NB_LOC_MD_LO, g->lo[0], g->lo[1], g->lo[2]);
    glUniform3f(NB_LOC_MD_CELL_INV, g->inv[0], g->inv[1], g->inv[2]);
    glUniform3i(NB_LOC_MD_CELLS, g->cells[0], g->cells[1], g->cells[2]);
    dispatch(g->n, MD_GROUP);
    use(gl, cell_passes[1]);
    glUniform1i(NB_LOC_MD_COUNT, cells);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    use(gl, cell_passes[2]);
    glUniform1i(NB_LOC_MD_COUNT, n);
    dispatch(g->n, MD_GROUP);
    use(gl, cell_passes[3]);
    glUniform1i(NB_LOC_MD_COUNT, cells);
    dispatch(g->total, MD_GROUP);
    use(gl, cell_passes[4]);
    glUniform1i(NB_LOC_MD_COUNT, n);
    dispatch(g->n, MD_GROUP);
}

static void force_pass(struct md_compute *c)
{
    uint64_t active = use(c->gl, c->force_name);
    glUniform1i(NB_LOC_N, (int)c->n);
    nb_gl_md_set_uniforms(&c->params, active);
    if (c->cell_list) {
        const struct nb_gl_md_cells *g = &c->grid;
        glUniform3i(NB_LOC_MD_CELLS, g->cells[0], g->cells[1], g->cells[2]);
        glUniform3i(NB_LOC_MD_PERIODIC, g->periodic[0], g->periodic[1], g->periodic[2]);
    }
    dispatch(c->n, MD_TILE);
}

/* The precision kernel of program `name` (mode c->prec, or the magnitude
 * sums), md_precision.c's dispatch: its sums into B_RAW, the buffers of
 * the force pass otherwise (G: the double state x with q in w, and the
 * double coefficients in place of V for this pass). */
static void prec_pass(struct md_compute *c, const char *name)
{
    float sa = ldexpf(1.0f, c->log2[0]), sp = ldexpf(1.0f, c->log2[1]);
    uint64_t active = use(c->gl, name);
    glUniform1i(NB_LOC_N, (int)c->n);
    nb_gl_md_set_uniforms(&c->params, active);
    if (active >> NB_LOC_PREC_SCALE & 1)
        glUniform4f(NB_LOC_PREC_SCALE, sa, sa, sa, sp);
    if (c->cell_list) {
        const struct nb_gl_md_cells *g = &c->grid;
        if (active >> NB_LOC_MD_CELLS & 1)
            glUniform3i(NB_LOC_MD_CELLS, g->cells[0], g->cells[1], g->cells[2]);
        if (active >> NB_LOC_MD_PERIODIC & 1)
            glUniform3i(NB_LOC_MD_PERIODIC, g->periodic[0], g->periodic[1], g->periodic[2]);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_RAW]);
    if (c->prec == NB_PRECISION_G)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_V, c->buf[B_DCOEFF]);
    dispatch(c->n, NB_PREC_TILE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_FORCE]);
    if (c->prec == NB_PRECISION_G)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_V, c->buf[B_V]);
}

/* md_prec_finish.comp: B_RAW into B_FORCE, the range flag into B_FLAG. */
static void finish_pass(struct md_compute *c)
{
    uint64_t active = use(c->gl, c->finish_name);
    glUniform1i(NB_LOC_MD_COUNT, (int)c->n);
    if (active >> LOC_PREC_LOG2 & 1)        /* B, C, D, G: unscaled */
        glUniform2i(LOC_PREC_LOG2, c->log2[0], c->log2[1]);
    if (active >> LOC_PREC_STEP & 1)
        glUniform1ui(LOC_PREC_STEP, c->step);
    dispatch(c->n, MD_GROUP);
}

/* Mode A's virials (the precision kernels sum F and u only), its forces
 * into B_RAW, whose sums the next evaluation rewrites anyway. */
static void virial_pass(struct md_compute *c)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_RAW]);
    force_pass(c);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_FORCE]);
}

/* Cell lists (when used) and forces for the current float positions. */
static void evaluate(struct md_compute *c)
{
    if (c->cell_list) {
        nb_gl_md_cells_build(c->gl, &c->grid, c->buf[B_CELL_COUNT], c->buf[B_CELL_FILL]);
        clock_mark(&c->clock, PH_CELLS);
    }
    if (c->prec == NB_PRECISION_A) {
        force_pass(c);
    } else {
        prec_pass(c, c->prec_name);
        finish_pass(c);
    }
    clock_mark(&c->clock, PH_FORCE);
    c->t.evaluations++;
}

/* Once, before the first evaluation: the scales of E, F and H from the
 * magnitude sums at the loaded positions (nb_prec_scales_measured's rule,
 * less the headroom), and a clear flag. */
static enum nb_status measure_scales(struct md_compute *c, struct nb_error *err)
{
    const uint32_t clear[4] = { 0, UINT32_MAX, UINT32_MAX, 0 };
    if (c->prec == NB_PRECISION_A || c->scaled)
        return NB_OK;
    upload(c, B_FLAG, clear, sizeof clear);
    c->log2[0] = c->log2[1] = 0;
    if (prec_scaled(c->prec) && c->n > 0) {
        float *sums = nb_alloc(4 * c->n, sizeof *sums, "MD magnitude sums", err);
        int log2[2];
        if (!sums)
            return err->status;
        if (c->cell_list)
            nb_gl_md_cells_build(c->gl, &c->grid, c->buf[B_CELL_COUNT],
                                 c->buf[B_CELL_FILL]);
        prec_pass(c, c->mag_name);
        if (download(c, B_RAW, sums, 16 * c->n, "reading MD magnitude sums", err) == NB_OK)
            nb_prec_scales_measured(c->prec, sums, c->n, "", log2, err);
        free(sums);
        if (err->status != NB_OK)
            return err->status;
        c->log2[0] = log2[0] + c->headroom;
        c->log2[1] = log2[1] + c->headroom;
    }
    c->scaled = 1;
    return nb_gl_check("measuring the MD precision scales", err);
}

/* The finish kernel's flag, read with the state: NB_ERR_NUMERIC naming
 * the step where a sum first left its range. */
static enum nb_status check_flag(struct md_compute *c, struct nb_error *err)
{
    uint32_t flag[4];
    if (c->prec == NB_PRECISION_A)
        return NB_OK;
    if (download(c, B_FLAG, flag, sizeof flag, "reading the MD precision flag", err) != NB_OK)
        return err->status;
    if (flag[0] & 1u)
        return nb_error_set(err, NB_ERR_NUMERIC, "precision %s: at step %u (seen at step "
                            "%u) the sums of particle %u passed half of their fixed range, "
                            "which the scales 2^%d (forces) and 2^%d (energies) measured at "
                            "the start set with a headroom of 2^%d: the forces grew past it "
                            "(particles colliding, or the system heating), so the run stops "
                            "rather than wrap; use a smaller time step, or mode B, C, D or "
                            "G, which have no fixed range", nb_precision_name(c->prec),
                            flag[2], c->step, flag[1], c->log2[0], c->log2[1], c->headroom);
    if (flag[0] & 2u)
        return nb_error_set(err, NB_ERR_NUMERIC, "precision %s: at step %u (seen at step "
                            "%u) particle %u has a non-finite force: the time step may be "
                            "too large, or particles overlap", nb_precision_name(c->prec),
                            flag[2], c->step, flag[1]);
    return NB_OK;
}

/* K1 (drift) or K2 (kick only: no box uniforms, see nb_gl_md_cells_build). */
static void verlet_pass(struct md_compute *c, int drift, double dt)
{
    use(c->gl, drift ? "md_k1" : "md_k2");
    glUniform1i(NB_LOC_MD_COUNT, (int)c->n);
    glUniform2d(NB_LOC_MD_DT, 0.5 * dt, dt);
    if (drift) {
        glUniform3d(NB_LOC_MD_LO, c->lo_d[0], c->lo_d[1], c->lo_d[2]);
        glUniform3d(NB_LOC_MD_BOX, c->len_d[0], c->len_d[1], c->len_d[2]);
        glUniform3i(NB_LOC_MD_PERIODIC, c->grid.periodic[0], c->grid.periodic[1],
                    c->grid.periodic[2]);
    }
    dispatch(c->n, MD_GROUP);
}

/* ---- the engine's entries ---------------------------------------------- */

static enum nb_status read_results(struct md_compute *c, double *f, double *pe, double *vir,
                                   struct nb_error *err)
{
    if (c->prec != NB_PRECISION_A) {
        if (check_flag(c, err) != NB_OK)
            return err->status;
        virial_pass(c);
    }
    float *fv = nb_alloc(c->n ? 5 * c->n : 5, sizeof *fv, "MD force readback", err);
    if (!fv)
        return err->status;
    if (download(c, B_FORCE, fv, 16 * c->n, "reading MD forces", err) == NB_OK &&
        download(c, B_VIRIAL, fv + 4 * c->n, 4 * c->n, "reading MD virials", err) == NB_OK)
        for (size_t i = 0; i < c->n; i++) {
            for (int a = 0; a < 3; a++)
                f[3 * i + a] = fv[4 * i + a];
            pe[i] = fv[4 * i + 3];
            vir[i] = fv[4 * c->n + i];
        }
    free(fv);
    return err->status;
}

/* Mode G on the host path: the double positions with q in w. */
static enum nb_status upload_state_x(struct md_compute *c, const double *x,
                                     struct nb_error *err)
{
    double *xq = nb_alloc(c->n ? 4 * c->n : 4, sizeof *xq, "MD double positions", err);
    if (!xq || grow(c, B_X, 32 * c->n, "MD position state", err) != NB_OK) {
        free(xq);
        return err->status;
    }
    for (size_t i = 0; i < c->n; i++)
        for (int a = 0; a < 4; a++)
            xq[4 * i + a] = a < 3 ? x[3 * i + a] : c->charge[i];
    upload(c, B_X, xq, 32 * c->n);
    free(xq);
    return NB_OK;
}

static enum nb_status md_forces(void *state, const double *x, double *f, double *pe,
                                double *vir, struct nb_error *err)
{
    struct md_compute *c = state;
    err->status = NB_OK;
    c->loaded = 0;              /* the float copy no longer matches X */
    if (upload_positions(c, x, err) != NB_OK ||
        (c->prec == NB_PRECISION_G && upload_state_x(c, x, err) != NB_OK))
        return err->status;
    bind_all(c);
    c->step = (uint32_t)c->host_calls++;
    if (measure_scales(c, err) != NB_OK)
        return err->status;
    clock_mark(&c->clock, PH_START);
    evaluate(c);
    if (nb_gl_check("evaluating MD forces", err) != NB_OK)
        return err->status;
    return read_results(c, f, pe, vir, err);
}

static enum nb_status md_load(void *state, const double *x, const double *v,
                              struct nb_error *err)
{
    struct md_compute *c = state;
    double *xv = nb_alloc(c->n ? 8 * c->n : 8, sizeof *xv, "MD state upload", err);
    if (!xv)
        return err->status;
    err->status = NB_OK;
    for (size_t i = 0; i < c->n; i++)
        for (int a = 0; a < 4; a++) {
            xv[4 * i + a] = a < 3 ? x[3 * i + a] : c->charge[i];
            xv[4 * (c->n + i) + a] = a < 3 ? v[3 * i + a] : c->inv_mass[i];
        }
    if (grow(c, B_X, 32 * c->n, "MD position state", err) == NB_OK &&
        grow(c, B_V, 32 * c->n, "MD velocity state", err) == NB_OK &&
        upload_positions(c, x, err) == NB_OK) {
        upload(c, B_X, xv, 32 * c->n);
        upload(c, B_V, xv + 4 * c->n, 32 * c->n);
        bind_all(c);
        c->step = 0;
        c->scaled = 0;      /* measured at the loaded state */
        if (measure_scales(c, err) == NB_OK) {
            clock_mark(&c->clock, PH_START);
            evaluate(c);
            c->loaded = nb_gl_check("loading the MD state", err) == NB_OK;
        }
    }
    free(xv);
    return err->status;
}

static enum nb_status md_steps(void *state, double dt, uint64_t count, struct nb_error *err)
{
    struct md_compute *c = state;
    if (!c->loaded)
        return nb_error_set(err, NB_ERR_ARGS, "compute MD: steps before load");
    bind_all(c);
    clock_mark(&c->clock, PH_START);
    for (uint64_t s = 0; s < count; s++) {
        verlet_pass(c, 1, dt);
        clock_mark(&c->clock, PH_K1);
        c->step++;
        evaluate(c);
        verlet_pass(c, 0, dt);
        clock_mark(&c->clock, PH_K2);
    }
    return nb_gl_check("velocity Verlet steps", err);
}

static enum nb_status md_fetch(void *state, double *x, double *v, double *f, double *pe,
                               double *vir, struct nb_error *err)
{
    struct md_compute *c = state;
    if (!c->loaded)
        return nb_error_set(err, NB_ERR_ARGS, "compute MD: fetch before load");
    double *xv = nb_alloc(c->n ? 8 * c->n : 8, sizeof *xv, "MD state readback", err);
    if (!xv)
        return err->status;
    err->status = NB_OK;
    if (download(c, B_X, xv, 32 * c->n, "reading MD positions", err) == NB_OK &&
        download(c, B_V, xv + 4 * c->n, 32 * c->n, "reading MD velocities", err) == NB_OK)
        for (size_t i = 0; i < c->n; i++)
            for (int a = 0; a < 3; a++) {
                x[3 * i + a] = xv[4 * i + a];
                v[3 * i + a] = xv[4 * (c->n + i) + a];
            }
    free(xv);
    if (err->status != NB_OK)
        return err->status;
    return read_results(c, f, pe, vir, err);
}

static void md_timings(void *state, struct nb_md_timings *t)
{
    struct md_compute *c = state;
    if (c->clock.use_query)
        clock_drain(&c->clock);
    c->t.k1 = c->clock.sum[PH_K1];
    c->t.cells = c->clock.sum[PH_CELLS];
    c->t.force = c->clock.sum[PH_FORCE];
    c->t.k2 = c->clock.sum[PH_K2];
    *t = c->t;
}

static const char *md_renderer(void *state)
{
    return nb_gl_renderer(((struct md_compute *)state)->gl);
}

static void md_destroy(void *state)
{
    struct md_compute *c = state;
    if (!c)
        return;
    glDeleteBuffers(B_COUNT, c->buf);
    if (c->clock.use_query)
        glDeleteQueries(CLOCK_RING, c->clock.query);
    free(c->inv_mass);
    free(c->charge);
    free(c);
}

static enum nb_status md_set_precision(void *state, enum nb_precision mode,
                                       struct nb_error *err);

enum nb_status nb_md_engine_compute_create(struct nb_md_engine *e, struct nb_gl *gl,
                                           struct nb_error *err)
{
    struct md_compute *c = nb_alloc(1, sizeof *c, "compute MD engine", err);
    if (!c)
        return err->status;
    memset(c, 0, sizeof *c);
    c->gl = gl;
    c->clock.use_query = nb_gl_is_nvidia(gl);
    if (c->clock.use_query)
        glGenQueries(CLOCK_RING, c->clock.query);
    memset(e, 0, sizeof *e);
    e->name = "compute";
    e->caps = NB_MD_ENGINE_CELL_LISTS;
    e->state = c;
    e->setup = md_setup;
    e->forces = md_forces;
    e->load = md_load;
    e->steps = md_steps;
    e->fetch = md_fetch;
    e->timings = md_timings;
    e->renderer = md_renderer;
    e->set_precision = md_set_precision;
    e->destroy = md_destroy;
    return NB_OK;
}

/* The engine's state, or NULL (with err) unless e is the compute engine. */
static struct md_compute *compute_state(struct nb_md_engine *e, const char *what,
                                        struct nb_error *err)
{
    if (!e || !e->name || strcmp(e->name, "compute") != 0 || !e->state) {
        nb_error_set(err, NB_ERR_ARGS, "%s: only the compute MD engine has accumulation "
                     "modes (engine %s)", what, e && e->name ? e->name : "none");
        return NULL;
    }
    return e->state;
}

static enum nb_status md_set_precision(void *state, enum nb_precision mode,
                                       struct nb_error *err)
{
    struct md_compute *c = state;
    if (mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "precision: no mode %d", (int)mode);
    if (mode != NB_PRECISION_A && nb_prec_supported(mode, err) != NB_OK)
        return err->status;
    c->prec = mode;
    c->headroom = -prec_default_headroom(mode);
    return NB_OK;
}

enum nb_status nb_md_engine_compute_set_prec_headroom(struct nb_md_engine *e, int log2,
                                                      struct nb_error *err)
{
    struct md_compute *c = compute_state(e, "precision headroom", err);
    if (!c)
        return err->status;
    c->headroom = log2;
    return NB_OK;
}
