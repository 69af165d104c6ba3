/* run_fixtures.h - what the Hermite suites (check_run, check_run_gpu)
 * share: small systems with known answers, a simulation on a named
 * backend, and the Kepler and Plummer runs both suites measure.
 * Header-only, one copy per suite; include it after <check.h>. */
#ifndef NB_TEST_RUN_FIXTURES_H
#define NB_TEST_RUN_FIXTURES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"

#define PI 3.14159265358979323846
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- helpers: systems ---------------------------------------------------- */

/* Equal masses 1/2 on a Kepler orbit of e = 0.5, a = 1 (G = M = 1, so the
 * period is 2 pi and E = -1/8), both at pericentre on the x axis at t = 0,
 * the centre of mass at rest at the origin. */
static void make_kepler(struct nb_particles *p)
{
    struct nb_error err = { 0 };
    double e = 0.5, r = 1.0 - e, vrel = sqrt((1.0 + e) / (1.0 - e));

    ck_assert_int_eq(nb_particles_alloc(p, 2, &err), NB_OK);
    p->m[0] = p->m[1] = 0.5;
    p->x[0] = -0.5 * r;
    p->x[3] = 0.5 * r;
    p->v[1] = -0.5 * vrel;
    p->v[4] = 0.5 * vrel;
}

static void make_plummer(struct nb_particles *p, size_t n, uint64_t seed)
{
    struct nb_error err = { 0 };
    ck_assert_msg(nb_plummer(p, n, seed, NULL, &err) == NB_OK, "%s", err.message);
}

/* E = K + W in double, summed here pair by pair (independent of the code
 * under test). */
static double energy(size_t n, const double *m, const double *x, const double *v,
                     double eps)
{
    double k = 0.0, w = 0.0;
    for (size_t i = 0; i < n; i++) {
        k += 0.5 * m[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] +
                           v[3 * i + 2] * v[3 * i + 2]);
        for (size_t j = i + 1; j < n; j++) {
            double r2 = eps * eps;
            for (int c = 0; c < 3; c++)
                r2 += (x[3 * j + c] - x[3 * i + c]) * (x[3 * j + c] - x[3 * i + c]);
            w -= m[i] * m[j] / sqrt(r2);
        }
    }
    return k + w;
}

/* ---- helpers: simulations ----------------------------------------------- */

struct run {
    struct nb_force_backend b;
    struct nb_gl *gl;
    struct nb_sim s;
    double *x, *v;          /* a predicted state, 3n each */
};

static struct nb_gl *gl_open(void)
{
    struct nb_gl_options opt;
    struct nb_gl *gl = NULL;
    struct nb_error err = { 0 };
    nb_gl_options_default(&opt);
    ck_assert_msg(nb_gl_create(&gl, &opt, &err) == NB_OK, "%s", err.message);
    return gl;
}

/* A simulation of p on backend `name`; a GPU backend uses gl when given
 * (one context for several runs: backends expect theirs to be current),
 * else a context of its own. */
static void run_start_gl(struct run *r, const char *name, const struct nb_particles *p,
                         const struct nb_sim_params *par, struct nb_gl *gl)
{
    struct nb_error err = { 0 };
    memset(r, 0, sizeof *r);
    if (strcmp(name, "cpu") != 0 && !gl)
        gl = r->gl = gl_open();
    ck_assert_msg(nb_backend_create(&r->b, name, gl, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(nb_sim_init(&r->s, p, par, &r->b, &err) == NB_OK, "%s", err.message);
    r->x = calloc(3 * p->n, sizeof *r->x);
    r->v = calloc(3 * p->n, sizeof *r->v);
    ck_assert(r->x && r->v);
}

static void run_start(struct run *r, const char *name, const struct nb_particles *p,
                      const struct nb_sim_params *par)
{
    run_start_gl(r, name, p, par, NULL);
}

static void run_end(struct run *r)
{
    nb_sim_free(&r->s);
    if (r->b.destroy)
        r->b.destroy(r->b.state);
    nb_gl_destroy(r->gl);
    free(r->x);
    free(r->v);
}

static void step(struct run *r)
{
    struct nb_error err = { 0 };
    ck_assert_msg(nb_sim_step(&r->s, &err) == NB_OK, "t = %.17g: %s", r->s.t,
                  err.message);
}

/* Steps up to the last block time <= t, then predicts everyone to t. */
static void advance_to(struct run *r, double t)
{
    struct nb_error err = { 0 };
    while (nb_sim_next_time(&r->s) <= t)
        step(r);
    ck_assert_msg(nb_sim_predict(&r->s, t, r->x, r->v, &err) == NB_OK, "%s",
                  err.message);
}

static double run_energy(const struct run *r)
{
    return energy(r->s.p.n, r->s.p.m, r->x, r->v, r->s.par.eps);
}

static struct nb_sim_params params(double eta, double eps)
{
    struct nb_sim_params par;
    nb_sim_params_default(&par);
    par.eta = eta;
    par.eps = eps;
    return par;
}

/* ---- shared runs ---------------------------------------------------------- */

/* Cubic Hermite interpolation of y between (ta, ya, dya) and (tb, yb, dyb):
 * the time in [ta, tb] where it crosses zero, by bisection. */
static double hermite_root(double ta, double ya, double dya, double tb, double yb,
                           double dyb)
{
    double h = tb - ta, lo = 0.0, hi = 1.0;
    for (int it = 0; it < 100; it++) {
        double s = 0.5 * (lo + hi), s2 = s * s, s3 = s2 * s;
        double y = (2 * s3 - 3 * s2 + 1) * ya + (s3 - 2 * s2 + s) * h * dya +
                   (-2 * s3 + 3 * s2) * yb + (s3 - s2) * h * dyb;
        if ((y < 0) == (ya < 0))
            lo = s;
        else
            hi = s;
    }
    return ta + 0.5 * (lo + hi) * h;
}

/* Integrates the Kepler pair until the relative vector has come back to
 * the +x axis `orbits` times; returns the mean period (return of the phase
 * angle, interpolated) and the relative energy error at the last block. */
static void kepler_orbits(struct run *r, int orbits, double *period, double *de)
{
    double e0 = energy(2, r->s.p.m, r->s.p.x, r->s.p.v, r->s.par.eps);
    double t_prev = 0.0, y_prev = 0.0, vy_prev = 0.0, t_cross = 0.0;
    int crossings = 0;
    while (crossings < orbits) {
        step(r);
        ck_assert_msg(r->s.t < 2 * PI * (orbits + 1), "no return of the phase");
        ck_assert_int_eq(nb_sim_predict(&r->s, r->s.t, r->x, r->v, NULL), NB_OK);
        double y = r->x[4] - r->x[1], vy = r->v[4] - r->v[1], x = r->x[3] - r->x[0];
        if (y_prev < 0.0 && y >= 0.0 && x > 0.0) {
            t_cross = hermite_root(t_prev, y_prev, vy_prev, r->s.t, y, vy);
            crossings++;
        }
        t_prev = r->s.t, y_prev = y, vy_prev = vy;
    }
    *period = t_cross / orbits;
    *de = (run_energy(r) - e0) / fabs(e0);
}

/* Plummer N = 256 to t = 1, eta 0.01, eps 0.01; the bound is the issue's. */
static void plummer_energy(const char *backend, enum nb_predict predict, double bound)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct run r;
    par.predict = predict;
    make_plummer(&p, 256, 11);
    double e0 = energy(p.n, p.m, p.x, p.v, 0.01);
    run_start(&r, backend, &p, &par);
    advance_to(&r, 1.0);
    double de = (run_energy(&r) - e0) / fabs(e0);
    ck_assert_msg(fabs(de) <= bound, "%s: relative energy error %.3e at t = 1 (bound "
                  "%.0e)", backend, de, bound);
    ck_assert_uint_gt(r.s.stats.block_steps, 100);
    run_end(&r);
    nb_particles_free(&p);
}

#endif
