/* api_hermite.c - struct nb_hermite of glnbody.h: a Hermite block-step run
 * (struct nb_sim) on a borrowed force handle.  nb_hermite_integrate steps
 * exactly as `glnbody run` does up to --t-end (every block whose time is
 * <= t), and the state and energies at t are predictions in double from
 * each particle's last correction, as the program's final row is: the
 * same inputs give the program's numbers bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "render_internal.h"

struct nb_hermite {
    struct nb_sim sim;
    struct nb_forces *f;    /* borrowed */
    double t;               /* the time the state reads as of */
    double *x, *v;          /* every particle predicted to t (3n each) */
};

/* predict_on_device of sim parameters: 0 host, 1 predicted on the
 * device, 2 predicted and corrected there. */
static int device_level(const struct nb_sim_params *sim)
{
    return sim->predict != NB_PREDICT_GPU ? 0 : sim->correct_gpu ? 2 : 1;
}

void nb_hermite_params_default(struct nb_hermite_params *par)
{
    struct nb_sim_params sim;
    if (!par)
        return;
    nb_sim_params_default(&sim);
    par->eta = sim.eta;
    par->eps = sim.eps;
    par->dt_max = sim.dt_max;
    par->shared_dt = sim.shared_dt;
    par->predict_on_device = device_level(&sim);
    par->positions = sim.positions;
}

static void sim_params(const struct nb_hermite_params *par, struct nb_sim_params *sim)
{
    nb_sim_params_default(sim);
    if (!par)
        return;
    sim->eta = par->eta;
    sim->eps = par->eps;
    sim->dt_max = par->dt_max;
    sim->shared_dt = par->shared_dt;
    sim->predict = par->predict_on_device ? NB_PREDICT_GPU : NB_PREDICT_HOST;
    sim->correct_gpu = par->predict_on_device == 2;
    sim->positions = par->positions;
}

/* The run's engine, its context made current; the force handle's own
 * j-set is gone once the run has used the backend. */
static enum nb_status enter(struct nb_hermite *h, struct nb_error *err)
{
    h->f->n_j = 0;
    return nb_api_forces_enter(h->f, err);
}

/* enter, and the run's position format handed to the engine again: a
 * handle that serves other runs between this one's calls (host
 * prediction) may have been set to theirs. */
static enum nb_status enter_steps(struct nb_hermite *h, struct nb_error *err)
{
    return enter(h, err) == NB_OK ? nb_sim_apply_positions(&h->sim.par, &h->f->b, err)
                                  : err->status;
}

/* A run of the particles p on f: the checks nb_sim_init does not make
 * (dt_max's range, as `glnbody run --dt-max` has it), then nb_sim_init. */
static enum nb_status start(struct nb_hermite **out, struct nb_forces *f,
                            const struct nb_particles *p,
                            const struct nb_hermite_params *par, struct nb_error *err)
{
    struct nb_sim_params sp;
    sim_params(par, &sp);
    if (par && (par->predict_on_device < 0 || par->predict_on_device > 2))
        return nb_error_set(err, NB_ERR_ARGS, "nb_hermite_create: predict_on_device = %d "
                            "is not 0, 1 or 2", par->predict_on_device);
    if (par && (unsigned)par->positions >= NB_POSITIONS_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "nb_hermite_create: positions = %d is not "
                            "a position format", (int)par->positions);
    if (!(sp.dt_max >= NB_DT_FLOOR && sp.dt_max <= NB_T_MAX))
        return nb_error_set(err, NB_ERR_ARGS, "nb_hermite_create: dt_max = %g is "
                            "outside 2^-40..%g", sp.dt_max, NB_T_MAX);
    struct nb_hermite *h = nb_alloc(1, sizeof *h, "a Hermite run", err);
    if (!h)
        return NB_ERR_NOMEM;
    h->f = f;
    if (!(h->x = nb_alloc(p->n, 3 * sizeof *h->x, "predicted positions", err)) ||
        !(h->v = nb_alloc(p->n, 3 * sizeof *h->v, "predicted velocities", err)) ||
        enter(h, err) != NB_OK || nb_sim_init(&h->sim, p, &sp, &f->b, err) != NB_OK) {
        nb_hermite_destroy(h);
        return err->status;
    }
    *out = h;
    return NB_OK;
}

static enum nb_status check_create(struct nb_hermite **out, struct nb_forces *f,
                                   const char *func, struct nb_error *err)
{
    if (nb_api_need(out, func, "h", err) != NB_OK)
        return err->status;
    *out = NULL;
    if (nb_api_need(f, func, "f", err) != NB_OK ||
        nb_api_gaj_mode_check(f, func, err) != NB_OK)
        return err->status;
    return NB_OK;
}

enum nb_status nb_hermite_create(struct nb_hermite **out, struct nb_forces *f, size_t n,
                                 const double *m, const double *x, const double *v,
                                 const struct nb_hermite_params *par,
                                 struct nb_error *err)
{
    const char *func = "nb_hermite_create";
    struct nb_error e = { 0 };
    struct nb_particles p = { 0 };
    if (check_create(out, f, func, &e) != NB_OK || nb_api_need(m, func, "m", &e) != NB_OK ||
        nb_api_need(x, func, "x", &e) != NB_OK || nb_api_need(v, func, "v", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: n is 0", func);
    if (nb_api_finite(m, n, func, "m", &e) == NB_OK &&
        nb_api_finite(x, 3 * n, func, "x", &e) == NB_OK &&
        nb_api_finite(v, 3 * n, func, "v", &e) == NB_OK &&
        nb_particles_alloc(&p, n, &e) == NB_OK) {
        memcpy(p.m, m, n * sizeof *m);
        memcpy(p.x, x, 3 * n * sizeof *x);
        memcpy(p.v, v, 3 * n * sizeof *v);
        start(out, f, &p, par, &e);
    }
    nb_particles_free(&p);
    return nb_api_fail(err, &e, func);
}

enum nb_status nb_hermite_create_plummer(struct nb_hermite **out, struct nb_forces *f,
                                         size_t n, uint64_t seed,
                                         const struct nb_hermite_params *par,
                                         struct nb_error *err)
{
    struct nb_error e = { 0 };
    struct nb_particles p = { 0 };
    /* As the program: the sphere's Henon scaling sums W on f's engine. */
    if (check_create(out, f, "nb_hermite_create_plummer", &e) == NB_OK &&
        nb_api_forces_enter(f, &e) == NB_OK && nb_plummer(&p, n, seed, &f->b, &e) == NB_OK)
        start(out, f, &p, par, &e);
    nb_particles_free(&p);
    return nb_api_fail(err, &e, "nb_hermite_create_plummer");
}

void nb_hermite_destroy(struct nb_hermite *h)
{
    if (!h)
        return;
    if (enter(h, NULL) == NB_OK) {
        nb_sim_free(&h->sim);
        /* the handle's own GAJ calls are float again, as before the run */
        if (h->f->b.set_positions)
            h->f->b.set_positions(h->f->b.state, NB_POSITIONS_FLOAT, NULL);
    }
    free(h->x);
    free(h->v);
    free(h);
}

enum nb_status nb_hermite_integrate(struct nb_hermite *h, double t, struct nb_error *err)
{
    const char *func = "nb_hermite_integrate";
    struct nb_error e = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (!(t >= h->t && t <= NB_T_MAX))
        return nb_error_set(err, NB_ERR_ARGS, "%s: t = %.17g is not between the "
                            "current time %.17g and %g", func, t, h->t, NB_T_MAX);
    if (h->sim.failed != NB_OK)
        return nb_error_set(err, h->sim.failed, "%s: the run failed earlier and "
                            "cannot go on", func);
    if (enter_steps(h, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    /* cmd_run.c's loop: every block whose time is <= t, then stop. */
    while (nb_sim_next_time(&h->sim) <= t)
        if (nb_sim_step(&h->sim, &e) != NB_OK)
            return nb_api_fail(err, &e, func);
    h->t = t;
    return NB_OK;
}

double nb_hermite_time(const struct nb_hermite *h)
{
    return h ? h->t : 0.0;
}

/* Every particle predicted to h->t into h->x, h->v. */
static enum nb_status predict(struct nb_hermite *h, struct nb_error *err)
{
    return nb_sim_predict(&h->sim, h->t, h->x, h->v, err);
}

enum nb_status nb_hermite_state(struct nb_hermite *h, double *x, double *v,
                                struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(h, "nb_hermite_state", "h", &e) != NB_OK || predict(h, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_hermite_state");
    if (x)
        memcpy(x, h->x, 3 * h->sim.p.n * sizeof *x);
    if (v)
        memcpy(v, h->v, 3 * h->sim.p.n * sizeof *v);
    return NB_OK;
}

enum nb_status nb_hermite_energy(struct nb_hermite *h, double *kinetic, double *potential,
                                 struct nb_error *err)
{
    struct nb_error e = { 0 };
    struct nb_diag d;
    /* The program's exact row: W summed in double (NB_EPOT_DOUBLE). */
    if (nb_api_need(h, "nb_hermite_energy", "h", &e) != NB_OK || predict(h, &e) != NB_OK ||
        enter(h, &e) != NB_OK ||
        nb_diag_compute(&h->sim, h->t, h->x, h->v, 1.0, NB_EPOT_DOUBLE, &d, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_hermite_energy");
    if (kinetic)
        *kinetic = d.ekin;
    if (potential)
        *potential = d.epot;
    return NB_OK;
}

void nb_hermite_counts(const struct nb_hermite *h, uint64_t *block_steps,
                       uint64_t *particle_steps)
{
    if (block_steps)
        *block_steps = h ? h->sim.stats.block_steps : 0;
    if (particle_steps)
        *particle_steps = h ? h->sim.stats.particle_steps : 0;
}

/* ---- one block at a time (what `glnbody run` steps with) ---------------- */

enum nb_status nb_hermite_create_particles(struct nb_hermite **out, struct nb_forces *f,
                                           const struct nb_particles *p,
                                           const struct nb_hermite_params *par,
                                           struct nb_error *err)
{
    const char *func = "nb_hermite_create_particles";
    struct nb_error e = { 0 };
    if (check_create(out, f, func, &e) != NB_OK || nb_api_need(p, func, "p", &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (p->n == 0 || !p->m || !p->x || !p->v)
        return nb_error_set(err, NB_ERR_ARGS, "%s: the particle set is empty", func);
    if (nb_api_finite(p->m, p->n, func, "p->m", &e) == NB_OK &&
        nb_api_finite(p->x, 3 * p->n, func, "p->x", &e) == NB_OK &&
        nb_api_finite(p->v, 3 * p->n, func, "p->v", &e) == NB_OK)
        start(out, f, p, par, &e);
    return nb_error_copy(err, &e);
}

double nb_hermite_next_time(const struct nb_hermite *h)
{
    return h ? nb_sim_next_time(&h->sim) : 0.0;
}

enum nb_status nb_hermite_step(struct nb_hermite *h, struct nb_error *err)
{
    const char *func = "nb_hermite_step";
    struct nb_error e = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK || enter_steps(h, &e) != NB_OK ||
        nb_sim_step(&h->sim, &e) != NB_OK)
        return nb_error_copy(err, &e);
    h->t = h->sim.t;
    /* The force handle reports the GAJ variant of the block just taken. */
    snprintf(h->f->variant, sizeof h->f->variant, "%s",
             h->f->b.variant(h->f->b.state));
    return NB_OK;
}

enum nb_status nb_hermite_predict(const struct nb_hermite *h, double t, double *x, double *v,
                                  struct nb_error *err)
{
    const char *func = "nb_hermite_predict";
    struct nb_error e = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK || nb_api_need(x, func, "x", &e) != NB_OK ||
        nb_api_need(v, func, "v", &e) != NB_OK ||
        nb_sim_predict(&h->sim, t, x, v, &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

const struct nb_particles *nb_hermite_particles(const struct nb_hermite *h)
{
    return h ? &h->sim.p : NULL;
}

void nb_hermite_get_params(const struct nb_hermite *h, struct nb_hermite_params *par)
{
    if (!h || !par)
        return;
    par->eta = h->sim.par.eta;
    par->eps = h->sim.par.eps;
    par->dt_max = h->sim.par.dt_max;
    par->shared_dt = h->sim.par.shared_dt;
    par->predict_on_device = device_level(&h->sim.par);
    par->positions = h->sim.par.positions;
}

void nb_hermite_stats(const struct nb_hermite *h, struct nb_hermite_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!h)
        return;
    st->block_steps = h->sim.stats.block_steps;
    st->particle_steps = h->sim.stats.particle_steps;
    st->t_host = h->sim.stats.t_host;
    st->t_force = h->sim.stats.t_force;
    st->t_comm = h->sim.stats.t_comm;
    st->t_reduce = h->sim.stats.t_reduce;
    if (h->sim.backend) {
        memcpy(st->split_blocks, h->sim.backend->partition_blocks, sizeof st->split_blocks);
        memcpy(st->t_model, h->sim.backend->partition_model, sizeof st->t_model);
    }
}

enum nb_status nb_hermite_diag(struct nb_hermite *h, double t, const double *x,
                               const double *v, double e0, int exact, struct nb_diag *d,
                               struct nb_error *err)
{
    const char *func = "nb_hermite_diag";
    struct nb_error e = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK || nb_api_need(x, func, "x", &e) != NB_OK ||
        nb_api_need(v, func, "v", &e) != NB_OK || nb_api_need(d, func, "d", &e) != NB_OK ||
        enter(h, &e) != NB_OK ||
        nb_diag_compute(&h->sim, t, x, v, e0, exact ? NB_EPOT_DOUBLE : NB_EPOT_AUTO, d,
                        &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

enum nb_status nb_render_draw_hermite(struct nb_render *r, struct nb_hermite *h,
                                      struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !h)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_draw_hermite: %s is NULL",
                            r ? "h" : "r");
    if (h->f->gl && h->f->gl != r->gl)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_draw_hermite: the renderer and "
                            "the run are on different GL contexts (the run's buffers "
                            "live in its own)");
    if (nb_render_draw_sim(r, &h->sim, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_render_draw_hermite");
    return NB_OK;
}

enum nb_status nb_render_inspect_hermite(struct nb_render *r, struct nb_hermite *h, char *text,
                                         size_t size, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !h)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_inspect_hermite: %s is NULL",
                            r ? "h" : "r");
    if (h->f->gl && h->f->gl != r->gl)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_inspect_hermite: the renderer and "
                            "the run are on different GL contexts");
    if (nb_render_inspect_sim(r, &h->sim, text, size, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_render_inspect_hermite");
    return NB_OK;
}

enum nb_status nb_hermite_inspect_panel(struct nb_hermite *h, int k,
                                        struct nb_inspect_panel *info, float *values,
                                        size_t room, struct nb_error *err)
{
    const char *func = "nb_hermite_inspect_panel";
    struct nb_error e = { 0 };
    struct nb_gl_results res = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK || nb_api_need(info, func, "info", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    struct nb_force_backend *b = h->sim.backend;
    if (!b->gl_results || !b->gl_results(b->state, &res))
        res.count = 0;
    if (nb_render_read_panel(h->f->gl, &res, k, info, values, room, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    return NB_OK;
}

/* ---- checkpoints -------------------------------------------------------- */

enum nb_status nb_hermite_checkpoint(struct nb_hermite *h, const char *path,
                                     const void *app, size_t app_size,
                                     struct nb_error *err)
{
    const char *func = "nb_hermite_checkpoint";
    struct nb_error e = { 0 };
    struct nb_ckpt c = { 0 };
    if (nb_api_need(h, func, "h", &e) != NB_OK || nb_api_need(path, func, "path", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (nb_ckpt_begin(&c, NB_CKPT_RUN, h->sim.p.n, &e) == NB_OK &&
        nb_ckpt_put(&c, "APP ", app, app ? app_size : 0, &e) == NB_OK &&
        nb_ckpt_put(&c, "HAPI", &h->t, sizeof h->t, &e) == NB_OK &&
        nb_sim_checkpoint(&h->sim, &c, &e) == NB_OK)
        nb_ckpt_write(&c, path, &e);
    nb_ckpt_free(&c);
    return nb_api_fail(err, &e, func);
}

enum nb_status nb_hermite_restore(struct nb_hermite **out, struct nb_forces *f,
                                  const char *path, int predict_on_device,
                                  struct nb_error *err)
{
    const char *func = "nb_hermite_restore";
    struct nb_error e = { 0 };
    struct nb_ckpt c = { 0 };
    struct nb_sim_params sp;
    struct nb_hermite *h = NULL;
    size_t size = 0;
    const double *t;

    if (check_create(out, f, func, &e) != NB_OK || nb_api_need(path, func, "path", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (predict_on_device < -1 || predict_on_device > 2)
        return nb_error_set(err, NB_ERR_ARGS, "%s: predict_on_device = %d is not -1, 0, 1 "
                            "or 2", func, predict_on_device);
    if (nb_ckpt_read(&c, path, NB_CKPT_RUN, &e) != NB_OK ||
        nb_sim_checkpoint_params(&c, path, &sp, &e) != NB_OK ||
        !(h = nb_alloc(1, sizeof *h, "a Hermite run", &e)))
        goto done;
    if (predict_on_device >= 0) {
        sp.predict = predict_on_device ? NB_PREDICT_GPU : NB_PREDICT_HOST;
        sp.correct_gpu = predict_on_device == 2;
    }
    h->f = f;
    if (!(h->x = nb_alloc(c.n, 3 * sizeof *h->x, "predicted positions", &e)) ||
        !(h->v = nb_alloc(c.n, 3 * sizeof *h->v, "predicted velocities", &e)) ||
        enter(h, &e) != NB_OK || nb_sim_restore(&h->sim, &c, path, &sp, &f->b, &e) != NB_OK)
        goto done;
    t = nb_ckpt_find(&c, "HAPI", &size);
    h->t = t && size == sizeof *t && *t >= h->sim.t && *t < h->sim.t_next ? *t : h->sim.t;
    *out = h;
    h = NULL;
done:
    nb_hermite_destroy(h);
    nb_ckpt_free(&c);
    return nb_api_fail(err, &e, func);
}
