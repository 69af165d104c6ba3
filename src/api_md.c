/* api_md.c - struct nb_md of glnbody.h: a molecular dynamics system
 * (struct nb_md_sim) on an engine of its own.  It builds the potential and
 * the box from struct nb_md_params, checks the system before any GL work
 * and chooses cell lists exactly as `glnbody md` does (cmd_md.c,
 * md_options.c), so that the same system gives the program's numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "render_internal.h"

#define DEFAULT_CUTOFF 2.5      /* the LJ cutoff of most LAMMPS lj inputs */
#define DEFAULT_DT 0.005        /* LAMMPS' default step in lj units */

struct nb_md {
    struct nb_md_sim sim;       /* points into itself: never moved */
    struct nb_md_engine engine;
    struct nb_gl *gl;           /* borrowed; NULL for the CPU engine */
    int cell_list_auto;         /* cell_list -1: dropped for an engine without */
    int started;                /* nb_md_start succeeded */
    int has_scales, scales[2];  /* a restart: the saved engine's scales */
};

void nb_md_params_default(struct nb_md_params *par)
{
    if (!par)
        return;
    memset(par, 0, sizeof *par);
    par->law = NB_LAW_LJ;
    par->types = 1;
    par->cutoff = DEFAULT_CUTOFF;
    par->cell_list = -1;
    for (int a = 0; a < 3; a++)
        par->periodic[a] = 1;
    par->dt = DEFAULT_DT;
    par->precision = NB_PRECISION_A;
}

static enum nb_status enter(struct nb_md *md, struct nb_error *err)
{
    return md->gl ? nb_gl_make_current(md->gl, err) : NB_OK;
}

/* The law's defaults (the ionic crystal's table for ionic, as the
 * program), the coefficient file, the cutoff; checked. */
static enum nb_status make_potential(const struct nb_md_params *par, const char *func,
                                     struct nb_md_potential *pot, struct nb_error *err)
{
    if ((unsigned)par->law >= NB_LAW_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: law %d is not an enum nb_md_law",
                            func, (int)par->law);
    if (par->types < 1 || par->types > NB_MD_MAX_TYPES)
        return nb_error_set(err, NB_ERR_ARGS, "%s: types = %d is not 1..%d", func,
                            par->types, NB_MD_MAX_TYPES);
    if (!(isfinite(par->cutoff) && par->cutoff >= 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "%s: cutoff = %g must be finite and >= 0 "
                            "(0: none)", func, par->cutoff);
    if (par->shift && par->cutoff == 0.0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: shift needs a cutoff", func);
    nb_md_potential_default(pot, par->law, par->types);
    if (par->law == NB_LAW_IONIC && par->types == 2)
        nb_md_ionic_default(pot);
    if (par->coeffs && nb_md_types_read(par->coeffs, pot, err) != NB_OK)
        return err->status;
    pot->cutoff = par->cutoff;
    pot->shift = par->shift;
    return nb_md_potential_check(pot, err);
}

/* Cell lists wherever the cutoff and the box allow (cell_list -1). */
static int choose_cell_list(int cell_list, double cutoff, const struct nb_md_box *box)
{
    if (cell_list >= 0)
        return cell_list != 0;
    if (!(cutoff > 0))
        return 0;
    for (int a = 0; a < 3; a++)
        if (box->periodic[a] && floor((box->hi[a] - box->lo[a]) / cutoff) < 3)
            return 0;
    return 1;
}

/* The first half of a run: the system of p in box copied and checked on
 * the host. */
static enum nb_status prepare(struct nb_md *md, const struct nb_particles *p,
                              const struct nb_md_potential *pot, const struct nb_md_box *box,
                              int cell_list, double dt, size_t n_excluded,
                              const uint32_t *excluded, struct nb_error *err)
{
    md->cell_list_auto = cell_list < 0;
    return nb_md_sim_prepare(&md->sim, p, pot, box,
                             choose_cell_list(cell_list, pot->cutoff, box), dt,
                             n_excluded, excluded, err);
}

/* The second half: the engine, its precision and the initial forces. */
static enum nb_status start(struct nb_md *md, struct nb_gl *gl, enum nb_engine engine,
                            enum nb_precision precision, struct nb_error *err)
{
    md->gl = nb_engine_needs_gl(engine) ? gl : NULL;
    if (nb_md_engine_create_engine(&md->engine, engine, md->gl, err) != NB_OK ||
        nb_md_engine_set_precision(&md->engine, precision, err) != NB_OK)
        return err->status;
    if (md->has_scales && md->engine.set_scales)
        md->engine.set_scales(md->engine.state, md->scales);
    int cells = md->cell_list_auto && !(md->engine.caps & NB_MD_ENGINE_CELL_LISTS)
                ? 0 : md->sim.sys.cell_list;
    if (nb_md_sim_start(&md->sim, &md->engine, cells, err) != NB_OK)
        return err->status;
    md->started = 1;
    return NB_OK;
}

static enum nb_status check_create(struct nb_md **out, enum nb_engine engine,
                                   const struct nb_md_params *par, const char *func,
                                   struct nb_error *err)
{
    if (nb_api_need(out, func, "md", err) != NB_OK)
        return err->status;
    *out = NULL;
    if (nb_api_need(par, func, "par", err) != NB_OK)
        return err->status;
    return nb_api_choices(engine, par->precision, func, err);
}

/* A new handle on gl running p in box; *out only on success. */
static enum nb_status create(struct nb_md **out, struct nb_gl *gl, enum nb_engine engine,
                             const struct nb_particles *p, const struct nb_md_box *box,
                             const struct nb_md_potential *pot,
                             const struct nb_md_params *par, struct nb_error *err)
{
    if (par->cell_list == 1 && !(par->cutoff > 0))
        return nb_error_set(err, NB_ERR_ARGS, "cell_list 1 needs a cutoff");
    struct nb_md *md = nb_alloc(1, sizeof *md, "an MD system", err);
    if (!md)
        return NB_ERR_NOMEM;
    if (prepare(md, p, pot, box, par->cell_list, par->dt, 0, NULL, err) != NB_OK ||
        start(md, gl, engine, par->precision, err) != NB_OK) {
        nb_md_destroy(md);
        return err->status;
    }
    *out = md;
    return NB_OK;
}

/* n particles of the caller's arrays, masses from the type table. */
static enum nb_status particles_from(size_t n, const int *type, const double *x,
                                     const double *v, const struct nb_md_potential *pot,
                                     struct nb_particles *p, struct nb_error *err)
{
    if (nb_particles_alloc(p, n, err) != NB_OK || nb_particles_add_types(p, err) != NB_OK)
        return err->status;
    memcpy(p->type, type, n * sizeof *type);
    memcpy(p->x, x, 3 * n * sizeof *x);
    memcpy(p->v, v, 3 * n * sizeof *v);
    for (size_t i = 0; i < n; i++)  /* a type out of range: the check says so */
        p->m[i] = type[i] >= 1 && type[i] <= pot->types.count
                  ? pot->types.mass[type[i] - 1] : 1.0;
    return NB_OK;
}

enum nb_status nb_md_create(struct nb_md **out, struct nb_gl *gl, enum nb_engine engine,
                            size_t n, const int *type, const double *x, const double *v,
                            const struct nb_md_params *par, struct nb_error *err)
{
    const char *func = "nb_md_create";
    struct nb_error e = { 0 };
    struct nb_md_potential pot;
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    if (check_create(out, engine, par, func, &e) != NB_OK ||
        nb_api_need(type, func, "type", &e) != NB_OK || nb_api_need(x, func, "x", &e) != NB_OK ||
        nb_api_need(v, func, "v", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: n is 0", func);
    memcpy(box.lo, par->lo, sizeof box.lo);
    memcpy(box.hi, par->hi, sizeof box.hi);
    memcpy(box.periodic, par->periodic, sizeof box.periodic);
    if (nb_api_finite(x, 3 * n, func, "x", &e) == NB_OK &&
        nb_api_finite(v, 3 * n, func, "v", &e) == NB_OK &&
        make_potential(par, func, &pot, &e) == NB_OK &&
        particles_from(n, type, x, v, &pot, &p, &e) == NB_OK)
        create(out, gl, engine, &p, &box, &pot, par, &e);
    nb_particles_free(&p);
    return nb_api_fail(err, &e, func);
}

enum nb_status nb_md_create_fcc(struct nb_md **out, struct nb_gl *gl, enum nb_engine engine,
                                int cells, double rho, double temperature, uint64_t seed,
                                const struct nb_md_params *par, struct nb_error *err)
{
    struct nb_error e = { 0 };
    struct nb_md_potential pot;
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    const char *func = "nb_md_create_fcc";
    if (check_create(out, engine, par, func, &e) == NB_OK &&
        make_potential(par, func, &pot, &e) == NB_OK &&
        nb_md_fcc(&p, &box, cells, rho, temperature, seed, &e) == NB_OK)
        create(out, gl, engine, &p, &box, &pot, par, &e);
    nb_particles_free(&p);
    return nb_api_fail(err, &e, func);
}

void nb_md_destroy(struct nb_md *md)
{
    if (!md)
        return;
    if (enter(md, NULL) == NB_OK) {
        nb_md_sim_free(&md->sim);
        if (md->engine.destroy)
            md->engine.destroy(md->engine.state);
    }
    free(md);
}

enum nb_status nb_md_step(struct nb_md *md, uint64_t count, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(md, "nb_md_step", "md", &e) != NB_OK || enter(md, &e) != NB_OK ||
        nb_md_sim_advance(&md->sim, count, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_md_step");
    return NB_OK;
}

/* The state made current on the host (a device fetch where needed). */
static enum nb_status sync(struct nb_md *md, const char *func, struct nb_error *err)
{
    if (nb_api_need(md, func, "md", err) != NB_OK || enter(md, err) != NB_OK)
        return err->status;
    return nb_md_sim_sync(&md->sim, err);
}

enum nb_status nb_md_get_thermo(struct nb_md *md, struct nb_md_thermo *th,
                                struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(th, "nb_md_get_thermo", "th", &e) != NB_OK ||
        sync(md, "nb_md_get_thermo", &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_md_get_thermo");
    nb_md_thermo(&md->sim, th);
    return NB_OK;
}

size_t nb_md_count(const struct nb_md *md)
{
    return md ? md->sim.n : 0;
}

enum nb_status nb_md_get_state(struct nb_md *md, double *x, double *v, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (sync(md, "nb_md_get_state", &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_md_get_state");
    if (x)
        memcpy(x, md->sim.x, 3 * md->sim.n * sizeof *x);
    if (v)
        memcpy(v, md->sim.v, 3 * md->sim.n * sizeof *v);
    return NB_OK;
}

/* ---- a run in two halves (what `glnbody md` runs) ------------------------ */

enum nb_status nb_md_prepare(struct nb_md **out, const struct nb_particles *p,
                             const struct nb_md_potential *pot, const struct nb_md_box *box,
                             int cell_list, double dt, size_t n_excluded,
                             const uint32_t *excluded, struct nb_error *err)
{
    const char *func = "nb_md_prepare";
    struct nb_error e = { 0 };
    if (nb_api_need(out, func, "md", &e) != NB_OK)
        return nb_error_copy(err, &e);
    *out = NULL;
    if (nb_api_need(p, func, "p", &e) != NB_OK || nb_api_need(pot, func, "pot", &e) != NB_OK ||
        nb_api_need(box, func, "box", &e) != NB_OK ||
        (n_excluded && nb_api_need(excluded, func, "excluded", &e) != NB_OK))
        return nb_error_copy(err, &e);
    struct nb_md *md = nb_alloc(1, sizeof *md, "an MD system", &e);
    if (!md)
        return nb_error_copy(err, &e);
    if (prepare(md, p, pot, box, cell_list, dt, n_excluded, excluded, &e) != NB_OK) {
        nb_md_destroy(md);
        return nb_error_copy(err, &e);
    }
    *out = md;
    return NB_OK;
}

enum nb_status nb_md_start(struct nb_md *md, struct nb_gl *gl, enum nb_engine engine,
                           enum nb_precision precision, struct nb_error *err)
{
    const char *func = "nb_md_start";
    struct nb_error e = { 0 };
    if (nb_api_need(md, func, "md", &e) != NB_OK ||
        nb_api_choices(engine, precision, func, &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (md->started || md->engine.destroy)
        return nb_error_set(err, NB_ERR_ARGS, "%s: the system has an engine already", func);
    if (start(md, gl, engine, precision, &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

uint64_t nb_md_step_count(const struct nb_md *md)
{
    return md ? md->sim.step : 0;
}

int nb_md_uses_cell_lists(const struct nb_md *md)
{
    return md && md->sim.sys.cell_list;
}

const char *nb_md_renderer(const struct nb_md *md)
{
    return md && md->engine.renderer ? md->engine.renderer(md->engine.state) : "none";
}

void nb_md_get_timings(const struct nb_md *md, struct nb_md_timings *t)
{
    if (!t)
        return;
    memset(t, 0, sizeof *t);
    if (md && md->engine.timings)
        md->engine.timings(md->engine.state, t);
}

enum nb_status nb_render_draw_md(struct nb_render *r, struct nb_md *md, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !md)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_draw_md: %s is NULL",
                            r ? "md" : "r");
    if (md->gl && md->gl != r->gl)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_draw_md: the renderer and the "
                            "system are on different GL contexts (the system's buffers "
                            "live in its own)");
    if (nb_render_draw_md_sim(r, &md->sim, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_render_draw_md");
    return NB_OK;
}

enum nb_status nb_render_inspect_md(struct nb_render *r, struct nb_md *md, char *text,
                                    size_t size, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !md)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_inspect_md: %s is NULL",
                            r ? "md" : "r");
    if (md->gl && md->gl != r->gl)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_inspect_md: the renderer and the "
                            "system are on different GL contexts");
    if (nb_render_inspect_md_sim(r, &md->sim, text, size, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_render_inspect_md");
    return NB_OK;
}

enum nb_status nb_md_inspect_panel(struct nb_md *md, int k, struct nb_inspect_panel *info,
                                   float *values, size_t room, struct nb_error *err)
{
    const char *func = "nb_md_inspect_panel";
    struct nb_error e = { 0 };
    struct nb_gl_results res = { 0 };
    if (nb_api_need(md, func, "md", &e) != NB_OK || nb_api_need(info, func, "info", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    struct nb_md_engine *eng = md->sim.engine;
    if (!md->started || !eng || !eng->gl_results || !eng->gl_results(eng->state, &res))
        res.count = 0;
    if (nb_render_read_panel(md->gl, &res, k, info, values, room, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    return NB_OK;
}

/* ---- checkpoints -------------------------------------------------------- */

enum nb_status nb_md_checkpoint(struct nb_md *md, const char *path,
                                const struct nb_particles *p, const void *app,
                                size_t app_size, struct nb_error *err)
{
    const char *func = "nb_md_checkpoint";
    struct nb_error e = { 0 };
    struct nb_ckpt c = { 0 };
    int64_t *ids = NULL;
    if (nb_api_need(md, func, "md", &e) != NB_OK || nb_api_need(path, func, "path", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (!md->started)
        return nb_error_set(err, NB_ERR_ARGS, "%s: the system was not started", func);
    if (p && p->n != md->sim.n)
        return nb_error_set(err, NB_ERR_ARGS, "%s: p has %zu particles, the system %zu",
                            func, p->n, md->sim.n);
    if (enter(md, &e) == NB_OK && (p || (ids = nb_alloc(md->sim.n ? md->sim.n : 1,
                                                           sizeof *ids, "ids", &e)))) {
        for (size_t i = 0; ids && i < md->sim.n; i++)
            ids[i] = (int64_t)i;
        if (nb_ckpt_begin(&c, NB_CKPT_MD, md->sim.n, &e) == NB_OK &&
            nb_ckpt_put(&c, "APP ", app, app ? app_size : 0, &e) == NB_OK &&
            nb_md_sim_checkpoint(&md->sim, p ? p->id : ids, p ? p->q != NULL : 1, &c,
                                 &e) == NB_OK)
            nb_ckpt_write(&c, path, &e);
    }
    free(ids);
    nb_ckpt_free(&c);
    return nb_api_fail(err, &e, func);
}

enum nb_status nb_md_prepare_restart(struct nb_md **out, const char *path, int cell_list,
                                     struct nb_particles *p, struct nb_md_box *box,
                                     struct nb_error *err)
{
    const char *func = "nb_md_prepare_restart";
    struct nb_error e = { 0 };
    struct nb_ckpt c = { 0 };
    struct nb_md_saved m = { 0 };
    if (nb_api_need(out, func, "md", &e) != NB_OK || nb_api_need(path, func, "path", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    *out = NULL;
    if (nb_ckpt_read(&c, path, NB_CKPT_MD, &e) == NB_OK &&
        nb_md_saved_read(&c, path, &m, &e) == NB_OK &&
        nb_md_prepare(out, &m.p, &m.pot, &m.box, cell_list, m.dt, m.n_excluded, m.excluded,
                      &e) == NB_OK) {
        (*out)->sim.step = m.step;
        (*out)->has_scales = m.has_scales;
        (*out)->scales[0] = m.scales[0];
        (*out)->scales[1] = m.scales[1];
        if (box)
            *box = m.box;
        if (p) {
            *p = m.p;           /* handed over */
            memset(&m.p, 0, sizeof m.p);
        }
    }
    nb_md_saved_free(&m);
    nb_ckpt_free(&c);
    return nb_api_fail(err, &e, func);
}
