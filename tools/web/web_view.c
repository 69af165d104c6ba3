/* web_view.c - the page's live run: a Plummer sphere integrated with
 * Hermite block steps on the fragment engine (predicted on the host),
 * drawn from the engine's textures into the canvas, with its energy error
 * and interactions/s; the texture inspector on request.
 *
 * The browser owns the loop: the page calls web_frame once an animation
 * frame, and each call integrates for about `budget` seconds of wall time
 * before drawing.  Only the public API. */
#include <emscripten/emscripten.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "glnbody.h"
#include "web.h"

struct view {
    struct nb_gl *gl;
    struct nb_forces *forces;
    struct nb_hermite *h;
    struct nb_render *render;
    size_t n;
    double e0, de, t_wall, step_dt;
    uint64_t interactions;
    double stats[WEB_STAT_COUNT];
    char inspect_text[1024];
    int inspect;
};

#define WEB_STEPS_PER_FRAME 16

static struct view v;

struct nb_gl *web_gl(void)
{
    return v.gl;
}

EMSCRIPTEN_KEEPALIVE int web_init(void)
{
    struct nb_error err = { 0 };
    if (v.gl)
        return 0;
    if (nb_gl_create(&v.gl, NULL, &err) != NB_OK)
        return web_fail("WebGL 2", &err);
    printf("glnbody-web: renderer %s\n", nb_gl_renderer(v.gl));
    return 0;
}

static void view_stop(void)
{
    nb_render_destroy(v.render);
    nb_hermite_destroy(v.h);
    nb_forces_destroy(v.forces);
    v.render = NULL;
    v.h = NULL;
    v.forces = NULL;
}

static double total_energy(struct nb_error *err)
{
    double k = 0.0, w = 0.0;
    if (nb_hermite_energy(v.h, &k, &w, err) != NB_OK)
        return NAN;
    return k + w;
}

/* A new run of n bodies drawn with seed, pictures of width x height. */
EMSCRIPTEN_KEEPALIVE int web_start(int n, int seed, int width, int height)
{
    struct nb_error err = { 0 };
    struct nb_hermite_params par;
    struct nb_render_options o;
    if (web_init() != 0)
        return 1;
    view_stop();
    if (n < 2 || n > WEB_MAX_N)
        return web_fail_text("N must be from 2 to %d, not %d", WEB_MAX_N, n);
    nb_hermite_params_default(&par);
    par.predict_on_device = 0;
    nb_render_options_default(&o);
    o.width = width;
    o.height = height;
    if (nb_forces_create(&v.forces, v.gl, NB_ENGINE_FRAGMENT, &err) != NB_OK ||
        nb_hermite_create_plummer(&v.h, v.forces, (size_t)n, (uint64_t)seed, &par,
                                  &err) != NB_OK ||
        nb_render_create(&v.render, v.gl, &o, &err) != NB_OK) {
        view_stop();
        return web_fail("starting the run", &err);
    }
    v.n = (size_t)n;
    v.e0 = total_energy(&err);
    if (!isfinite(v.e0))
        return web_fail("the initial energy", &err);
    v.de = 0.0;
    v.t_wall = 0.0;
    v.interactions = 0;
    v.step_dt = 1.0 / 1024;
    return 0;
}

/* Integrates for about budget seconds (whole steps of step_dt in model
 * time, the step adapting to the budget), then draws. */
static enum nb_status advance(double budget, struct nb_error *err)
{
    uint64_t steps0, steps1, blocks;
    double t0 = nb_clock_seconds();
    nb_hermite_counts(v.h, &blocks, &steps0);
    /* At most WEB_STEPS_PER_FRAME steps: a clock that stands still (a
     * headless browser's virtual time) must not hold the frame for ever. */
    for (int k = 0; k < WEB_STEPS_PER_FRAME && nb_clock_seconds() - t0 < budget; k++) {
        double t = nb_hermite_time(v.h) + v.step_dt;
        double c = nb_clock_seconds();
        if (t >= NB_HERMITE_T_MAX || nb_hermite_integrate(v.h, t, err) != NB_OK)
            return err->status != NB_OK ? err->status
                 : nb_error_set(err, NB_ERR_ARGS, "the run reached its last time");
        double took = nb_clock_seconds() - c;
        if (took > 0.0 && took < 0.25 * budget && v.step_dt < 0.125)
            v.step_dt *= 2;
        else if (took > budget && v.step_dt > 0x1p-20)
            v.step_dt /= 2;
    }
    v.t_wall += nb_clock_seconds() - t0;
    nb_hermite_counts(v.h, &blocks, &steps1);
    v.interactions += (steps1 - steps0) * (uint64_t)v.n;
    return NB_OK;
}

EMSCRIPTEN_KEEPALIVE int web_frame(double budget, int width, int height, int energy)
{
    struct nb_error err = { 0 };
    struct nb_hermite_stats st;
    if (!v.h)
        return 1;
    if (advance(budget, &err) != NB_OK)
        return web_fail("integrating", &err);
    if (energy) {
        double e = total_energy(&err);
        if (!isfinite(e))
            return web_fail("the energy", &err);
        v.de = (e - v.e0) / fabs(v.e0);
    }
    if (nb_render_draw_hermite(v.render, v.h, &err) != NB_OK ||
        (v.inspect && nb_render_inspect_hermite(v.render, v.h, v.inspect_text,
                                                sizeof v.inspect_text, &err) != NB_OK) ||
        nb_render_present(v.render, width, height, &err) != NB_OK)
        return web_fail("drawing", &err);
    nb_hermite_stats(v.h, &st);
    v.stats[WEB_STAT_TIME] = nb_hermite_time(v.h);
    v.stats[WEB_STAT_DE] = v.de;
    v.stats[WEB_STAT_RATE] = v.t_wall > 0 ? (double)v.interactions / v.t_wall : 0.0;
    v.stats[WEB_STAT_FORCE_RATE] = st.t_force > 0
        ? (double)st.particle_steps * (double)v.n / st.t_force : 0.0;
    v.stats[WEB_STAT_BLOCKS] = (double)st.block_steps;
    v.stats[WEB_STAT_STEPS] = (double)st.particle_steps;
    return 0;
}

EMSCRIPTEN_KEEPALIVE double web_stat(int k)
{
    return k >= 0 && k < WEB_STAT_COUNT ? v.stats[k] : NAN;
}

EMSCRIPTEN_KEEPALIVE void web_set_inspect(int on)
{
    v.inspect = on;
    v.inspect_text[0] = '\0';
}

EMSCRIPTEN_KEEPALIVE const char *web_inspect_text(void)
{
    return v.inspect ? v.inspect_text : "";
}

EMSCRIPTEN_KEEPALIVE const char *web_renderer(void)
{
    return v.gl ? nb_gl_renderer(v.gl) : "";
}

/* Baked in by the Makefile from `git describe`, as in native reports. */
#ifndef NB_GIT_COMMIT
#define NB_GIT_COMMIT "unknown"
#endif

EMSCRIPTEN_KEEPALIVE const char *web_version(void)
{
    return nb_version();
}

EMSCRIPTEN_KEEPALIVE const char *web_commit(void)
{
    return NB_GIT_COMMIT;
}
