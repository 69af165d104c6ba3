/* md_compute.c - the compute pipeline's molecular-dynamics engine.
 *
 * Forces over all pairs (md_pairs.comp) or through cell lists rebuilt on
 * the device before every evaluation (md_cells.comp: hash, scan, place,
 * sort, gather; md_cellforce.comp: 27-cell traversal), and velocity
 * Verlet as seed 002's kernels (md_verlet.comp: K1 kick-drift-wrap, K2
 * kick after the forces), so that positions, velocities and forces stay on
 * the GPU between steps; the host reads them back only for output.  The
 * cell-list build is md_cells.c's, shared with the precision kernels'
 * cell-list path (md_precision.c).
 *
 * x and v live on the device in double (GL 4.0 made fp64 shaders core), so
 * that long runs do not lose the small position increments of a float
 * state; the force kernels read a float copy (x, y, z, q) that K1 rewrites.
 * Cell lists are rebuilt every evaluation rather than kept with a skin:
 * the build is O(N), a fraction of the force pass, and it needs no
 * displacement check read back per step.
 *
 *
 * This file is the engine: its setup, the device state and velocity
 * Verlet, and its entries; one force evaluation is md_compute_force.c's
 * (with the accumulation modes), the phase clock md_clock.c's. */
#include <stdlib.h>
#include <string.h>

#include "md_compute_internal.h"

/* Dispatch limit: 65535 work groups along x. */
#define MD_MAX_PARTICLES ((size_t)65535 * MD_TILE)

/* ---- buffers and uploads ----------------------------------------------- */

/* Precision modes: the raw sums and the finish kernel's flag at
 * md_prec_finish.comp's bindings; the double coefficients of mode G are
 * bound at NB_BIND_MD_V only for the precision pass (bind_all leaves them
 * out). */
static const GLuint binding[B_COUNT] = {
    NB_BIND_MD_POS, NB_BIND_MD_TYPE, NB_BIND_MD_COEFF, NB_BIND_MD_FORCE,
    NB_BIND_MD_VIRIAL, NB_BIND_MD_X, NB_BIND_MD_V, NB_BIND_MD_CELL_OF,
    NB_BIND_MD_CELL_COUNT, NB_BIND_MD_CELL_START, NB_BIND_MD_SCAN, NB_BIND_MD_PERM,
    NB_BIND_MD_SPOS, NB_BIND_MD_STYPE, NB_BIND_MD_PREC_RAW, NB_BIND_MD_PREC_FLAG, NB_BIND_MD_V
};

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
    md_buffer_upload(c, B_POS, p, 16 * c->n);
    free(p);
    return nb_gl_check("uploading MD positions", err);
}

/* ---- setup ------------------------------------------------------------- */

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
    if (md_buffer_grow(c, B_COEFF, bytes, "MD coefficient buffer", err) != NB_OK)
        return err->status;
    md_buffer_upload(c, B_COEFF, c->params.coeff, bytes);
    return NB_OK;
}

static enum nb_status allocate(struct md_compute *c, struct nb_error *err)
{
    size_t n = c->n, cells = c->grid.total;
    if (md_buffer_grow(c, B_POS, 16 * n, "MD position buffer", err) != NB_OK ||
        md_buffer_grow(c, B_TYPE, 4 * n, "MD type buffer", err) != NB_OK ||
        md_buffer_grow(c, B_FORCE, 16 * n, "MD force buffer", err) != NB_OK ||
        md_buffer_grow(c, B_VIRIAL, 4 * n, "MD virial buffer", err) != NB_OK)
        return err->status;
    if (c->cell_list &&
        (md_buffer_grow(c, B_CELL_OF, 4 * n, "cell index buffer", err) != NB_OK ||
         md_buffer_grow(c, B_CELL_COUNT, 4 * cells, "cell count buffer", err) != NB_OK ||
         md_buffer_grow(c, B_CELL_START, 4 * cells, "cell start buffer", err) != NB_OK ||
         md_buffer_grow(c, B_CELL_FILL, 4 * cells, "cell fill buffer", err) != NB_OK ||
         md_buffer_grow(c, B_PERM, 4 * n, "cell permutation buffer", err) != NB_OK ||
         md_buffer_grow(c, B_SPOS, 16 * n, "sorted position buffer", err) != NB_OK ||
         md_buffer_grow(c, B_STYPE, 4 * n, "sorted type buffer", err) != NB_OK))
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
        md_buffer_upload(c, B_TYPE, type0, 4 * c->n);
        st = upload_coefficients(c, err);
    }
    if (st == NB_OK)
        st = nb_md_compute_prec_setup(c, sys, err);
    free(type0);
    memset(&c->t, 0, sizeof c->t);
    if (st != NB_OK || build_programs(c, err) != NB_OK)
        return err->status;
    return nb_gl_check("setting up the MD system", err);
}

/* ---- the engine's entries ---------------------------------------------- */

/* K1 (drift) or K2 (kick only: no box uniforms, see nb_gl_md_cells_build). */
static void verlet_pass(struct md_compute *c, int drift, double dt)
{
    nb_gl_use_program(c->gl, drift ? "md_k1" : "md_k2");
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), (int)c->n);
    glUniform2d(nb_gl_loc(NB_LOC_MD_DT), 0.5 * dt, dt);
    if (drift) {
        glUniform3d(nb_gl_loc(NB_LOC_MD_LO), c->lo_d[0], c->lo_d[1], c->lo_d[2]);
        glUniform3d(nb_gl_loc(NB_LOC_MD_BOX), c->len_d[0], c->len_d[1], c->len_d[2]);
        glUniform3i(nb_gl_loc(NB_LOC_MD_PERIODIC), c->grid.periodic[0], c->grid.periodic[1],
                    c->grid.periodic[2]);
    }
    nb_gl_dispatch(c->n, NB_GL_MD_GROUP);
}

static enum nb_status upload_state_x(struct md_compute *c, const double *x,
                                     struct nb_error *err)
{
    double *xq = nb_alloc(c->n ? 4 * c->n : 4, sizeof *xq, "MD double positions", err);
    if (!xq || md_buffer_grow(c, B_X, 32 * c->n, "MD position state", err) != NB_OK) {
        free(xq);
        return err->status;
    }
    for (size_t i = 0; i < c->n; i++)
        for (int a = 0; a < 4; a++)
            xq[4 * i + a] = a < 3 ? x[3 * i + a] : c->charge[i];
    md_buffer_upload(c, B_X, xq, 32 * c->n);
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
    if (nb_md_compute_measure_scales(c, err) != NB_OK)
        return err->status;
    nb_md_clock_mark(&c->clock, PH_START);
    nb_md_compute_evaluate(c);
    if (nb_gl_check("evaluating MD forces", err) != NB_OK)
        return err->status;
    return nb_md_compute_read_results(c, f, pe, vir, err);
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
    if (md_buffer_grow(c, B_X, 32 * c->n, "MD position state", err) == NB_OK &&
        md_buffer_grow(c, B_V, 32 * c->n, "MD velocity state", err) == NB_OK &&
        upload_positions(c, x, err) == NB_OK) {
        md_buffer_upload(c, B_X, xv, 32 * c->n);
        md_buffer_upload(c, B_V, xv + 4 * c->n, 32 * c->n);
        bind_all(c);
        c->step = 0;
        c->scaled = 0;      /* measured at the loaded state */
        if (nb_md_compute_measure_scales(c, err) == NB_OK) {
            nb_md_clock_mark(&c->clock, PH_START);
            nb_md_compute_evaluate(c);
            c->loaded = nb_gl_check("loading the MD state", err) == NB_OK;
        }
    }
    free(xv);
    return err->status;
}

/* The scales of a scaled mode, measured at load (or given). */
static int md_get_scales(void *state, int log2[2])
{
    const struct md_compute *c = state;
    if (!c->scaled || c->prec == NB_PRECISION_A)
        return 0;
    log2[0] = c->log2[0];
    log2[1] = c->log2[1];
    return 1;
}

static void md_set_scales(void *state, const int log2[2])
{
    struct md_compute *c = state;
    c->given_log2[0] = log2[0];
    c->given_log2[1] = log2[1];
    c->given = 1;
}

static enum nb_status md_steps(void *state, double dt, uint64_t count, struct nb_error *err)
{
    struct md_compute *c = state;
    if (!c->loaded)
        return nb_error_set(err, NB_ERR_ARGS, "compute MD: steps before load");
    bind_all(c);
    nb_md_clock_mark(&c->clock, PH_START);
    for (uint64_t s = 0; s < count; s++) {
        verlet_pass(c, 1, dt);
        nb_md_clock_mark(&c->clock, PH_K1);
        c->step++;
        nb_md_compute_evaluate(c);
        verlet_pass(c, 0, dt);
        nb_md_clock_mark(&c->clock, PH_K2);
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
    if (md_buffer_download(c, B_X, xv, 32 * c->n, "reading MD positions", err) == NB_OK &&
        md_buffer_download(c, B_V, xv + 4 * c->n, 32 * c->n, "reading MD velocities",
                           err) == NB_OK)
        for (size_t i = 0; i < c->n; i++)
            for (int a = 0; a < 3; a++) {
                x[3 * i + a] = xv[4 * i + a];
                v[3 * i + a] = xv[4 * (c->n + i) + a];
            }
    free(xv);
    if (err->status != NB_OK)
        return err->status;
    return nb_md_compute_read_results(c, f, pe, vir, err);
}

static void md_timings(void *state, struct nb_md_timings *t)
{
    struct md_compute *c = state;
    if (c->clock.use_query)
        nb_md_clock_drain(&c->clock);
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
    nb_md_clock_free(&c->clock);
    free(c->inv_mass);
    free(c->charge);
    free(c);
}

/* The force buffer of the last evaluation: (F, u) per atom, float. */
static int md_gl_results(void *state, struct nb_gl_results *out)
{
    struct md_compute *c = state;
    memset(out, 0, sizeof *out);
    if (c->n == 0 || !c->buf[B_FORCE])
        return 0;
    out->panel[0] = nb_gl_buffer_panel("force", "energy", c->buf[B_FORCE], c->n, 1, 0);
    out->count = 1;
    snprintf(out->shape, sizeof out->shape, "compute MD %s: %zu atoms, %s, mode %s%s",
             c->prec == NB_PRECISION_A ? c->force_name : c->prec_name, c->n,
             c->cell_list ? "cell lists" : "all pairs", nb_precision_name(c->prec),
             c->prec == NB_PRECISION_A ? "" : " (its sums finished into float forces)");
    return 1;
}

/* The float positions the forces read, the types, and the double
 * velocities where the device integrates (load). */
static int md_gl_particles(void *state, struct nb_gl_particles *out)
{
    struct md_compute *c = state;
    if (c->n == 0 || !c->buf[B_POS])
        return 0;
    *out = (struct nb_gl_particles){ .n = c->n, .pos_buffer = c->buf[B_POS],
                                     .type_buffer = c->buf[B_TYPE],
                                     .vel_buffer = c->loaded ? c->buf[B_V] : 0,
                                     .vel_double = 1 };
    return 1;
}

enum nb_status nb_md_engine_compute_create(struct nb_md_engine *e, struct nb_gl *gl,
                                           struct nb_error *err)
{
    /* K1 and K2 (md_verlet.comp) keep positions and velocities in double. */
    if (nb_gl_require(gl, "the compute MD engine (velocity Verlet in double, "
                      "GL_ARB_gpu_shader_fp64)", 43, 0, err) != NB_OK)
        return err->status;
    struct md_compute *c = nb_alloc(1, sizeof *c, "compute MD engine", err);
    if (!c)
        return err->status;
    memset(c, 0, sizeof *c);
    c->gl = gl;
    nb_md_clock_init(&c->clock, gl);
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
    e->set_precision = nb_md_compute_set_precision;
    e->gl_particles = md_gl_particles;
    e->gl_results = md_gl_results;
    e->get_scales = md_get_scales;
    e->set_scales = md_set_scales;
    e->destroy = md_destroy;
    return NB_OK;
}
