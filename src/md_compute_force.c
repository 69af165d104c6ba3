/* md_compute_force.c - one force evaluation of the compute MD engine:
 * mode A's float kernel (md_pairs.comp or md_cellforce.comp) or a
 * precision mode's kernel and finish pass, the cell lists built first
 * where the system has them, and the forces read back.
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
 * steps (nb_md_compute_read_results), which then fail with NB_ERR_NUMERIC
 * naming the step.  H's per-term limit (2^61, the three-chunk split) has no check of
 * its own in acc_add: a flag there (|y| > 2^61, or-ed per term) costs
 * every pair term time, so it relies on the sum check, whose
 * threshold 2^60 sits below that limit: a pair term that large dominates
 * its particle's sum, and the headroom leaves 2^8 between the measured
 * bound and it.  The per-particle virial of such a run is mode A's float one, evaluated only
 * when read (virial_pass). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "md_compute_internal.h"
#include "nb_precision.h"

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
enum nb_status nb_md_compute_prec_setup(struct md_compute *c, const struct nb_md_system *sys,
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
    if (md_buffer_grow(c, B_RAW, 32 * c->n, "MD precision sums", err) != NB_OK ||
        md_buffer_grow(c, B_FLAG, 16, "MD precision flag", err) != NB_OK ||
        (c->prec == NB_PRECISION_G &&
         md_buffer_grow(c, B_DCOEFF, 64 * coeffs, "MD double coefficients", err) != NB_OK))
        return err->status;
    if (c->prec == NB_PRECISION_G)
        md_buffer_upload(c, B_DCOEFF, c->params.dcoeff, 64 * coeffs);
    return NB_OK;
}

static void force_pass(struct md_compute *c)
{
    uint64_t active = nb_gl_use_program(c->gl, c->force_name);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)c->n);
    nb_gl_md_set_uniforms(&c->params, active);
    if (c->cell_list)
        nb_gl_md_cells_set_uniforms(&c->grid, active);
    nb_gl_dispatch(c->n, MD_TILE);
}

/* The precision kernel of program `name` (mode c->prec, or the magnitude
 * sums), md_precision.c's dispatch: its sums into B_RAW, the buffers of
 * the force pass otherwise (G: the double state x with q in w, and the
 * double coefficients in place of V for this pass). */
static void prec_pass(struct md_compute *c, const char *name)
{
    float sa = ldexpf(1.0f, c->log2[0]), sp = ldexpf(1.0f, c->log2[1]);
    uint64_t active = nb_gl_use_program(c->gl, name);
    glUniform1i(nb_gl_loc(NB_LOC_N), (int)c->n);
    nb_gl_md_set_uniforms(&c->params, active);
    if (active >> NB_LOC_PREC_SCALE & 1)
        glUniform4f(nb_gl_loc(NB_LOC_PREC_SCALE), sa, sa, sa, sp);
    if (c->cell_list)
        nb_gl_md_cells_set_uniforms(&c->grid, active);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_RAW]);
    if (c->prec == NB_PRECISION_G)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_V, c->buf[B_DCOEFF]);
    nb_gl_dispatch(c->n, NB_PREC_TILE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_FORCE, c->buf[B_FORCE]);
    if (c->prec == NB_PRECISION_G)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, NB_BIND_MD_V, c->buf[B_V]);
}

/* md_prec_finish.comp: B_RAW into B_FORCE, the range flag into B_FLAG. */
static void finish_pass(struct md_compute *c)
{
    uint64_t active = nb_gl_use_program(c->gl, c->finish_name);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), (int)c->n);
    if (active >> NB_LOC_MD_PREC_LOG2 & 1)        /* B, C, D, G: unscaled */
        glUniform2i(nb_gl_loc(NB_LOC_MD_PREC_LOG2), c->log2[0], c->log2[1]);
    if (active >> NB_LOC_MD_PREC_STEP & 1)
        glUniform1ui(nb_gl_loc(NB_LOC_MD_PREC_STEP), c->step);
    nb_gl_dispatch(c->n, NB_GL_MD_GROUP);
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
void nb_md_compute_evaluate(struct md_compute *c)
{
    if (c->cell_list) {
        nb_gl_md_cells_build(c->gl, &c->grid, c->buf[B_CELL_COUNT], c->buf[B_CELL_FILL]);
        nb_md_clock_mark(&c->clock, PH_CELLS);
    }
    if (c->prec == NB_PRECISION_A) {
        force_pass(c);
    } else {
        prec_pass(c, c->prec_name);
        finish_pass(c);
    }
    nb_md_clock_mark(&c->clock, PH_FORCE);
    c->t.evaluations++;
}

/* Once, before the first evaluation: the scales of E, F and H from the
 * magnitude sums at the loaded positions (nb_prec_scales_measured's rule,
 * less the headroom), and a clear flag. */
enum nb_status nb_md_compute_measure_scales(struct md_compute *c, struct nb_error *err)
{
    const uint32_t clear[4] = { 0, UINT32_MAX, UINT32_MAX, 0 };
    if (c->prec == NB_PRECISION_A || c->scaled)
        return NB_OK;
    md_buffer_upload(c, B_FLAG, clear, sizeof clear);
    if (c->given) {             /* a restart: the saved run's scales */
        c->log2[0] = c->given_log2[0];
        c->log2[1] = c->given_log2[1];
        c->scaled = 1;
        return nb_gl_check("setting the MD precision scales", err);
    }
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
        if (md_buffer_download(c, B_RAW, sums, 16 * c->n, "reading MD magnitude sums",
                               err) == NB_OK)
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
    if (md_buffer_download(c, B_FLAG, flag, sizeof flag, "reading the MD precision flag",
                           err) != NB_OK)
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

enum nb_status nb_md_compute_read_results(struct md_compute *c, double *f, double *pe,
                                          double *vir, struct nb_error *err)
{
    if (c->prec != NB_PRECISION_A) {
        if (check_flag(c, err) != NB_OK)
            return err->status;
        virial_pass(c);
    }
    float *fv = nb_alloc(c->n ? 5 * c->n : 5, sizeof *fv, "MD force readback", err);
    if (!fv)
        return err->status;
    if (md_buffer_download(c, B_FORCE, fv, 16 * c->n, "reading MD forces", err) == NB_OK &&
        md_buffer_download(c, B_VIRIAL, fv + 4 * c->n, 4 * c->n, "reading MD virials",
                           err) == NB_OK)
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

enum nb_status nb_md_compute_set_precision(void *state, enum nb_precision mode,
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
