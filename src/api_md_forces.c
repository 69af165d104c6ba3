/* api_md_forces.c - section 12 of glnbody.h: the MD force kernels for
 * research.  struct nb_md_forces evaluates one system's forces in every
 * accumulation mode of a pipeline (mode A: its MD engine; B..H:
 * md_precision.c's kernels), timed, as `glnbody precision --ic lj16|ionic`
 * reports them; nb_newton3_* are md_triangular.c's kernels (`glnbody
 * newton3`) with the context made current. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "md_triangular.h"

struct nb_md_forces {
    struct nb_gl *gl;               /* borrowed */
    enum nb_engine engine;
    struct nb_md_engine e;          /* mode A */
    const struct nb_md_system *sys; /* the caller's */
    double *vir;                    /* mode A's virials, not returned */
};

static enum nb_status enter(struct nb_gl *gl, const char *func, struct nb_error *err)
{
    if (nb_api_need(gl, func, "gl", err) != NB_OK)
        return err->status;
    return nb_gl_make_current(gl, err);
}

enum nb_status nb_md_forces_create(struct nb_md_forces **out, struct nb_gl *gl,
                                   enum nb_engine engine, const struct nb_md_system *sys,
                                   struct nb_error *err)
{
    const char *func = "nb_md_forces_create";
    struct nb_error e = { 0 };
    if (nb_api_need(out, func, "mf", &e) != NB_OK)
        return nb_error_copy(err, &e);
    *out = NULL;
    if (nb_api_need(sys, func, "sys", &e) != NB_OK ||
        nb_api_choices(engine, NB_PRECISION_A, func, &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (!nb_engine_needs_gl(engine))
        return nb_error_set(err, NB_ERR_ARGS, "%s: the %s engine has no accumulation "
                            "modes (compute or fragment)", func, nb_engine_name(engine));
    if (enter(gl, func, &e) != NB_OK)
        return nb_error_copy(err, &e);
    struct nb_md_forces *mf = nb_alloc(1, sizeof *mf, "MD forces", &e);
    if (!mf)
        return nb_error_copy(err, &e);
    mf->gl = gl;
    mf->engine = engine;
    mf->sys = sys;
    if (!(mf->vir = nb_alloc(sys->n, sizeof *mf->vir, "virials", &e)) ||
        nb_md_engine_create_engine(&mf->e, engine, gl, &e) != NB_OK ||
        mf->e.setup(mf->e.state, sys, &e) != NB_OK) {
        nb_md_forces_destroy(mf);
        return nb_error_copy(err, &e);
    }
    *out = mf;
    return NB_OK;
}

void nb_md_forces_destroy(struct nb_md_forces *mf)
{
    if (!mf)
        return;
    if (mf->e.destroy && nb_gl_make_current(mf->gl, NULL) == NB_OK)
        mf->e.destroy(mf->e.state);
    free(mf->vir);
    free(mf);
}

const char *nb_md_forces_renderer(const struct nb_md_forces *mf)
{
    return mf ? mf->e.renderer(mf->e.state) : "none";
}

/* Mode A: the MD engine's own kernel, its force phase timed. */
static enum nb_status engine_forces(struct nb_md_forces *mf, const double *x, double *f,
                                    double *pe, double seconds[2], struct nb_error *err)
{
    struct nb_md_timings t0, t1;
    mf->e.timings(mf->e.state, &t0);
    if (mf->e.forces(mf->e.state, x, f, pe, mf->vir, err) != NB_OK)
        return err->status;
    mf->e.timings(mf->e.state, &t1);
    seconds[0] = t1.force - t0.force;
    seconds[1] = 0.0;
    return NB_OK;
}

enum nb_status nb_md_forces_eval(struct nb_md_forces *mf, const double *x,
                                 enum nb_precision mode, double *f, double *pe,
                                 double seconds[2], struct nb_error *err)
{
    const char *func = "nb_md_forces_eval";
    struct nb_error e = { 0 };
    if (nb_api_need(mf, func, "mf", &e) != NB_OK || nb_api_need(x, func, "x", &e) != NB_OK ||
        nb_api_need(f, func, "f", &e) != NB_OK || nb_api_need(pe, func, "pe", &e) != NB_OK ||
        nb_api_need(seconds, func, "seconds", &e) != NB_OK ||
        nb_api_choices(mf->engine, mode, func, &e) != NB_OK ||
        enter(mf->gl, func, &e) != NB_OK)
        return nb_error_copy(err, &e);
    seconds[0] = seconds[1] = 0.0;
    enum nb_status st;
    if (mode == NB_PRECISION_A)
        st = engine_forces(mf, x, f, pe, seconds, &e);
    else if (mf->engine == NB_ENGINE_COMPUTE)
        st = nb_md_prec_forces(mf->gl, mf->sys, x, mode, f, pe, seconds, NULL, NULL, &e);
    else    /* passes 0: the pipeline chooses how many draws a frame takes */
        st = nb_md_prec_forces_fragment(mf->gl, mf->sys, x, mode, 0, f, pe, seconds, NULL,
                                        NULL, &e);
    return st == NB_OK ? NB_OK : nb_error_copy(err, &e);
}

const char *const *nb_newton3_variants(void)
{
    return nb_md_tri_variants();
}

enum nb_status nb_newton3_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, const char *variant, enum nb_precision mode,
                                 const int scale_log2[2], double *f, double *pe,
                                 int64_t *fixed, double *seconds, struct nb_error *err)
{
    const char *func = "nb_newton3_forces";
    struct nb_error e = { 0 };
    if (enter(gl, func, &e) != NB_OK || nb_api_need(sys, func, "sys", &e) != NB_OK ||
        nb_api_need(variant, func, "variant", &e) != NB_OK ||
        nb_md_tri_forces_prec(gl, sys, x, variant, mode, scale_log2, f, pe, fixed, seconds,
                              &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

enum nb_status nb_newton3_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                 const double *x, enum nb_precision mode, int log2[2],
                                 struct nb_error *err)
{
    const char *func = "nb_newton3_scales";
    struct nb_error e = { 0 };
    if (enter(gl, func, &e) != NB_OK || nb_api_need(sys, func, "sys", &e) != NB_OK ||
        nb_md_tri_scales(gl, sys, x, mode, log2, &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}
