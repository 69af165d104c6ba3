/* check_run.c - the Hermite integrator, the Plummer model, the diagnostics
 * and the `glnbody run` command line.
 *
 * Test cases:
 *   gaj      the CPU GAJ kernel and the CPU backend's GAJ calls;
 *   physics  Kepler, figure-eight, Plummer runs on the CPU backend (double
 *            precision: tight bounds), block-step invariants, two
 *            simulations in one process, the step floor;
 *   ic       Plummer initial conditions, snapshot writing;
 *   cli      `glnbody run` through the real binary (GLNBODY_BIN, default
 *            ./glnbody): refusals, outputs, the no-option default;
 *   gpu      the same physics on the compute and fragment backends (single
 *            precision: looser bounds, argued where they are set).
 * Each GPU test makes its own GL context inside its forked test process.
 */
#include <check.h>

#include <math.h>

#include "cli_harness.h"
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

/* Chenciner and Montgomery's figure-eight: masses 1, G = 1, not Henon
 * units (the integrator must take any units). */
#define FIGURE8_PERIOD 6.32591398
static void make_figure8(struct nb_particles *p)
{
    struct nb_error err = { 0 };
    const double x1[2] = { 0.97000436, -0.24308753 };
    const double v3[2] = { -0.93240737, -0.86473146 };

    ck_assert_int_eq(nb_particles_alloc(p, 3, &err), NB_OK);
    for (int k = 0; k < 3; k++)
        p->m[k] = 1.0;
    for (int c = 0; c < 2; c++) {
        p->x[c] = x1[c];
        p->x[3 + c] = -x1[c];
        p->v[6 + c] = v3[c];
        p->v[c] = p->v[3 + c] = -0.5 * v3[c];
    }
}

static void make_plummer(struct nb_particles *p, size_t n, uint64_t seed)
{
    struct nb_error err = { 0 };
    ck_assert_msg(nb_plummer(p, n, seed, NULL, &err) == NB_OK, "%s", err.message);
}

/* A Plummer sphere, or for n = 1 (which it refuses) one particle. */
static void make_plummer_or_pair(struct nb_particles *p, size_t n, uint64_t seed)
{
    struct nb_error err = { 0 };
    if (n >= 2) {
        make_plummer(p, n, seed);
        return;
    }
    ck_assert_int_eq(nb_particles_alloc(p, 1, &err), NB_OK);
    p->m[0] = 1.0;
    p->x[0] = p->x[1] = p->x[2] = 0.25;
    p->v[0] = p->v[1] = p->v[2] = 0.0;
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

/* ---- gaj: the CPU kernel and backend ------------------------------------ */

/* Acceleration and potential agree with nb_cpu_ga; the jerk is the time
 * derivative of the acceleration along the motion (central difference). */
START_TEST(test_cpu_gaj_kernel)
{
    struct nb_particles p;
    struct nb_error err = { 0 };
    const size_t n = 40;
    const double eps = _i ? 0.05 : 0.0, h = 1e-5;
    make_plummer(&p, n, 7);
    uint32_t active[40];
    double acc[120], jerk[120], pot[40], ga[120], gp[40], ap[120], am[120];
    double xs[120], scratch[40];
    for (size_t i = 0; i < n; i++)
        active[i] = (uint32_t)i;
    ck_assert_int_eq(nb_cpu_gaj(n, p.x, p.v, p.m, eps, n, active, acc, jerk, pot,
                                &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, eps, ga, gp, &err), NB_OK);
    for (int sign = -1; sign <= 1; sign += 2) {
        for (size_t k = 0; k < 3 * n; k++)
            xs[k] = p.x[k] + sign * h * p.v[k];
        ck_assert_int_eq(nb_cpu_ga(n, xs, p.m, eps, sign < 0 ? am : ap, scratch,
                                   &err), NB_OK);
    }
    for (size_t k = 0; k < 3 * n; k++) {
        double fd = (ap[k] - am[k]) / (2 * h);
        ck_assert_msg(fabs(acc[k] - ga[k]) <= 1e-13 * (1 + fabs(ga[k])),
                      "acc[%zu] %.17g vs %.17g", k, acc[k], ga[k]);
        ck_assert_msg(fabs(jerk[k] - fd) <= 1e-5 * (1 + fabs(fd)),
                      "jerk[%zu] %.17g vs finite difference %.17g", k, jerk[k], fd);
    }
    for (size_t i = 0; i < n; i++)
        ck_assert(fabs(pot[i] - gp[i]) <= 1e-13 * fabs(gp[i]));
    nb_particles_free(&p);
}
END_TEST

/* A subset through the backend table, ascending, equals the kernel's rows;
 * an index out of range is refused. */
START_TEST(test_cpu_backend_gaj)
{
    struct nb_particles p;
    struct nb_error err = { 0 };
    struct nb_force_backend b;
    const uint32_t active[] = { 0, 3, 4, 17, 63 }, bad[] = { 64 };
    double acc[15], jerk[15], pot[5], ka[15], kj[15], kp[5];
    make_plummer(&p, 64, 3);
    ck_assert_int_eq(nb_backend_cpu_create(&b, &err), NB_OK);
    ck_assert(b.load_state == NULL && b.update_state == NULL && b.predict_j == NULL);
    ck_assert_int_eq(b.set_j(b.state, p.n, p.x, p.v, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute_gaj(b.state, 0.01, 5, active, &err), NB_OK);
    ck_assert_int_eq(b.read_gaj(b.state, acc, jerk, pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_gaj(p.n, p.x, p.v, p.m, 0.01, 5, active, ka, kj, kp,
                                &err), NB_OK);
    ck_assert(memcmp(acc, ka, sizeof acc) == 0 && memcmp(jerk, kj, sizeof jerk) == 0 &&
              memcmp(pot, kp, sizeof pot) == 0);
    ck_assert(b.last_seconds(b.state) >= 0.0);
    ck_assert_int_eq(b.compute_gaj(b.state, 0.01, 1, bad, &err), NB_ERR_ARGS);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- physics on the CPU backend ----------------------------------------- */

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

/* eta = 0.0002: about 1270 block steps an orbit.  The fourth-order error
 * falls as eta^2 (dt^4, dt ~ sqrt(eta)); measured |dE/E| after 10 orbits:
 * 6.9e-8 at eta = 0.002, 2.2e-9 at 0.0005, 2.0e-10 at 0.0002 (5x below the
 * bound); the position error at t = 20 pi is 4e-8, so the period is good
 * to ~1e-9. */
#define KEPLER_ETA 0.0002
START_TEST(test_kepler_cpu)
{
    struct nb_particles p;
    struct nb_sim_params par = params(KEPLER_ETA, 0.0);
    struct run r;
    double period, de;
    make_kepler(&p);
    run_start(&r, "cpu", &p, &par);
    kepler_orbits(&r, 10, &period, &de);
    ck_assert_msg(fabs(de) <= 1e-9, "relative energy error %.3e after 10 orbits", de);
    ck_assert_msg(fabs(period / (2 * PI) - 1) <= 1e-6, "period %.12f, expected %.12f",
                  period, 2 * PI);
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

/* After one period every body is back where it started, to 1e-3 (the
 * published initial conditions and period carry 8 digits). */
START_TEST(test_figure8_cpu)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.0);
    struct run r;
    make_figure8(&p);
    run_start(&r, "cpu", &p, &par);
    advance_to(&r, FIGURE8_PERIOD);
    for (size_t k = 0; k < 9; k++) {
        ck_assert_msg(fabs(r.x[k] - p.x[k]) <= 1e-3, "x[%zu] %.9f, started %.9f", k,
                      r.x[k], p.x[k]);
        ck_assert_msg(fabs(r.v[k] - p.v[k]) <= 1e-3, "v[%zu] %.9f, started %.9f", k,
                      r.v[k], p.v[k]);
    }
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

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

START_TEST(test_plummer_cpu)
{
    plummer_energy("cpu", NB_PREDICT_HOST, 1e-5);
}
END_TEST

/* After every block step: each step a power of two in [floor, dt_max]
 * dividing its particle's time, t0 <= t < t0 + dt, the block just taken
 * at t and counted, no step more than doubled. */
static void check_invariants(const struct run *r, const double *dt_before,
                             uint64_t particle_steps_before)
{
    const struct nb_sim *s = &r->s;
    uint64_t in_block = 0;
    for (size_t i = 0; i < s->p.n; i++) {
        int e;
        double dt = s->dt[i];
        ck_assert_msg(frexp(dt, &e) == 0.5, "dt[%zu] = %.17g is not a power of 2", i, dt);
        ck_assert(dt >= NB_DT_FLOOR && dt <= s->par.dt_max);
        ck_assert_msg(fmod(s->t0[i], dt) == 0.0, "t0 %.17g not a multiple of dt %.17g",
                      s->t0[i], dt);
        ck_assert(s->t0[i] <= s->t && s->t < s->t0[i] + dt);
        if (s->t0[i] == s->t) {
            in_block++;
            ck_assert_msg(dt <= 2 * dt_before[i], "step of %zu more than doubled", i);
        } else {
            ck_assert(dt == dt_before[i]);
        }
    }
    ck_assert_uint_eq(s->stats.particle_steps - particle_steps_before, in_block);
}

/* Cases: 128 particles with individual and with shared steps, and 4099
 * (above the thresholds where the block is collected and corrected by
 * threads) for a few steps. */
START_TEST(test_block_invariants)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.02, 0.01);
    struct run r;
    double t_end = _i < 2 ? 0.5 : 0.01;
    par.dt_max = 0.1;           /* rounded down to 1/16 */
    par.shared_dt = _i == 1;
    make_plummer(&p, _i < 2 ? 128 : 4099, 5);
    run_start(&r, "cpu", &p, &par);
    ck_assert(r.s.par.dt_max == 0.0625);
    double *before = calloc(p.n, sizeof *before);
    ck_assert_ptr_nonnull(before);
    size_t distinct_max = 0;
    while (r.s.t < t_end) {
        memcpy(before, r.s.dt, p.n * sizeof *before);
        uint64_t ps = r.s.stats.particle_steps;
        double next = nb_sim_next_time(&r.s);
        step(&r);
        ck_assert(r.s.t == next);
        check_invariants(&r, before, ps);
        double scan = INFINITY;         /* the integrator keeps it without one */
        for (size_t i = 0; i < p.n; i++)
            scan = fmin(scan, r.s.t0[i] + r.s.dt[i]);
        ck_assert(nb_sim_next_time(&r.s) == scan);
        size_t distinct = 0;
        for (size_t i = 0; i < p.n; i++)
            distinct += r.s.dt[i] != r.s.dt[0];
        distinct_max = distinct > distinct_max ? distinct : distinct_max;
    }
    if (par.shared_dt)
        ck_assert_uint_eq(distinct_max, 0);     /* everyone on one step */
    else
        ck_assert_uint_gt(distinct_max, 0);     /* really individual steps */
    free(before);
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

/* Two simulations stepped in turn in one process are bit-identical: no
 * state is shared. */
START_TEST(test_two_sims)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.02, 0.01);
    struct run a, b;
    make_plummer(&p, 64, 9);
    run_start(&a, "cpu", &p, &par);
    run_start(&b, "cpu", &p, &par);
    for (int k = 0; k < 300; k++) {
        step(&a);
        step(&b);
        ck_assert(a.s.t == b.s.t);
        ck_assert(memcmp(a.s.p.x, b.s.p.x, 3 * p.n * sizeof(double)) == 0);
        ck_assert(memcmp(a.s.p.v, b.s.p.v, 3 * p.n * sizeof(double)) == 0);
        ck_assert(memcmp(a.s.dt, b.s.dt, p.n * sizeof(double)) == 0);
    }
    run_end(&a);
    run_end(&b);
    nb_particles_free(&p);
}
END_TEST

/* With shared steps every block holds everyone, and the potential energy
 * kept from the GAJ potentials (first-order corrected) matches the exact
 * double sum at the corrected positions. */
START_TEST(test_sync_potential)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.02, 0.01);
    struct nb_error err = { 0 };
    struct nb_diag gaj, cpu;
    struct run r;
    par.shared_dt = 1;
    make_plummer(&p, 64, 2);
    run_start(&r, "cpu", &p, &par);
    for (int k = 0; k < 50; k++) {
        step(&r);
        ck_assert(r.s.sync_t == r.s.t);
        ck_assert_int_eq(nb_sim_predict(&r.s, r.s.t, r.x, r.v, NULL), NB_OK);
        ck_assert_int_eq(nb_diag_compute(&r.s, r.s.t, r.x, r.v, -0.25, NB_EPOT_AUTO,
                                         &gaj, &err), NB_OK);
        ck_assert_int_eq(nb_diag_compute(&r.s, r.s.t, r.x, r.v, -0.25, NB_EPOT_DOUBLE,
                                         &cpu, &err), NB_OK);
        ck_assert(gaj.epot_from_gaj && !cpu.epot_from_gaj);
        ck_assert_msg(fabs(gaj.epot - cpu.epot) <= 1e-12 * fabs(cpu.epot),
                      "epot %.17g (GAJ) vs %.17g (CPU)", gaj.epot, cpu.epot);
    }
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

/* A binary far too tight for the floor (period ~1e-13) is refused at the
 * start; a head-on fall from rest with eps = 0 stops mid-run.  Both name
 * the particle; neither is clamped silently. */
START_TEST(test_step_floor)
{
    struct nb_particles p;
    struct nb_error err = { 0 };
    struct nb_force_backend b;
    struct nb_sim s;
    struct nb_sim_params par = params(0.02, 0.0);
    ck_assert_int_eq(nb_particles_alloc(&p, 2, &err), NB_OK);
    p.id[0] = 41, p.id[1] = 42;
    p.m[0] = p.m[1] = 0.5;
    p.x[0] = -0.5e-9, p.x[3] = 0.5e-9;
    p.v[1] = -0.5 * sqrt(1e9), p.v[4] = 0.5 * sqrt(1e9);
    ck_assert_int_eq(nb_backend_cpu_create(&b, &err), NB_OK);
    ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "particle 41") &&
                  strstr(err.message, "floor"), "%s", err.message);
    nb_sim_free(&s);

    p.x[0] = -1e-3, p.x[3] = 1e-3;
    p.v[1] = p.v[4] = 0.0;
    ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_OK);
    enum nb_status st = NB_OK;
    for (int k = 0; k < 100000 && st == NB_OK; k++)
        st = nb_sim_step(&s, &err);
    ck_assert_int_eq(st, NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "particle 4"), "%s", err.message);
    ck_assert_int_eq(nb_sim_step(&s, &err), NB_ERR_NUMERIC);      /* sticky */
    ck_assert_int_eq(nb_sim_predict(&s, s.t, p.x, p.v, &err), NB_ERR_NUMERIC);
    nb_sim_free(&s);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* Bad parameters and a backend without device state under --predict gpu
 * are refused by nb_sim_init with messages naming them. */
START_TEST(test_sim_refusals)
{
    struct nb_particles p;
    struct nb_error err = { 0 };
    struct nb_force_backend b;
    struct nb_sim s;
    struct nb_sim_params par = params(0.0, 0.01);
    make_kepler(&p);
    ck_assert_int_eq(nb_backend_cpu_create(&b, &err), NB_OK);
    ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_ERR_ARGS);
    ck_assert(strstr(err.message, "eta") != NULL);
    nb_sim_free(&s);
    par = params(0.01, 0.01);
    par.predict = NB_PREDICT_GPU;
    ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "backend cpu") &&
                  strstr(err.message, "load_state"), "%s", err.message);
    nb_sim_free(&s);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- initial conditions and snapshots ------------------------------------ */

/* Henon units exactly as promised: E = -1/4 and 2K/|W| = 1 to rounding
 * (the scaling forces both), centre of mass and momentum zero, equal
 * masses summing to 1; the same seed gives the same sphere. */
START_TEST(test_plummer_ic)
{
    const size_t sizes[] = { 2, 100, 1000 };
    struct nb_particles p, q;
    struct nb_error err = { 0 };
    size_t n = sizes[_i];
    make_plummer(&p, n, 42);
    double k = 0.0, mass = 0.0, com[3] = { 0 }, mom[3] = { 0 };
    for (size_t i = 0; i < n; i++) {
        ck_assert(p.m[i] == 1.0 / (double)n);
        mass += p.m[i];
        for (int c = 0; c < 3; c++) {
            k += 0.5 * p.m[i] * p.v[3 * i + c] * p.v[3 * i + c];
            com[c] += p.m[i] * p.x[3 * i + c];
            mom[c] += p.m[i] * p.v[3 * i + c];
        }
    }
    double e = energy(n, p.m, p.x, p.v, 0.0), w = e - k;
    ck_assert_msg(fabs(e + 0.25) <= 1e-12, "E = %.17g", e);
    ck_assert_msg(fabs(2 * k / fabs(w) - 1) <= 1e-12, "2K/|W| = %.17g", 2 * k / fabs(w));
    ck_assert(fabs(mass - 1) <= 1e-14);
    for (int c = 0; c < 3; c++)
        ck_assert(fabs(com[c]) <= 1e-14 && fabs(mom[c]) <= 1e-14);
    make_plummer(&q, n, 42);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof(double)) == 0 &&
              memcmp(p.v, q.v, 3 * n * sizeof(double)) == 0);
    nb_particles_free(&q);
    make_plummer(&q, n, 43);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof(double)) != 0);
    nb_particles_free(&q);
    nb_particles_free(&p);
    ck_assert_int_eq(nb_plummer(&p, 1, 1, NULL, &err), NB_ERR_ARGS);
}
END_TEST

/* A Plummer sphere of 20000: the half-mass radius is 0.769 in Henon units
 * (0.7686 analytically for the truncated model; 2% allows the sample). */
START_TEST(test_plummer_profile)
{
    struct nb_particles p;
    const size_t n = 20000;
    make_plummer(&p, n, 1);
    double *r = malloc(n * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++)
        r[i] = sqrt(p.x[3 * i] * p.x[3 * i] + p.x[3 * i + 1] * p.x[3 * i + 1] +
                    p.x[3 * i + 2] * p.x[3 * i + 2]);
    double half = nb_median(r, n);
    ck_assert_msg(fabs(half / 0.769 - 1) < 0.02, "half-mass radius %.4f", half);
    free(r);
    nb_particles_free(&p);
}
END_TEST

/* nb_snapshot_write reads back exactly, the comment first. */
START_TEST(test_snapshot_write)
{
    struct nb_particles p, q;
    struct nb_error err = { 0 };
    char dir[] = "/tmp/check_run.XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s.txt", dir);
    make_plummer(&p, 50, 4);
    p.id[7] = -12345678901234LL;
    ck_assert_int_eq(nb_snapshot_write(path, &p, "hello t=0", &err), NB_OK);
    ck_assert_int_eq(nb_snapshot_read(path, &q, &err), NB_OK);
    ck_assert_uint_eq(q.n, p.n);
    ck_assert(q.type == NULL);
    ck_assert(memcmp(p.id, q.id, p.n * sizeof *p.id) == 0);
    ck_assert(memcmp(p.m, q.m, p.n * sizeof *p.m) == 0);
    ck_assert(memcmp(p.x, q.x, 3 * p.n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    FILE *fp = fopen(path, "r");
    char line[64];
    ck_assert(fp && fgets(line, sizeof line, fp));
    ck_assert_str_eq(line, "# hello t=0\n");
    fclose(fp);
    unlink(path);
    rmdir(dir);
    nb_particles_free(&p);
    nb_particles_free(&q);
}
END_TEST

/* ---- cli: the real binary ------------------------------------------------- */

static char g_dir[1100];  /* the current CLI test's working directory */

/* Runs `g_bin run ARGS` in g_dir. */
static void run_cli(struct cli_run *r, const char *const *args)
{
    const char *argv[64] = { "run" };
    int n = 1;
    for (; args[n - 1]; n++) {
        ck_assert_int_lt(n, 63);
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    cli_run_in(r, g_dir, NULL, argv);
}

#define RUN_CLI(pr, ...) run_cli((pr), (const char *const[]){ __VA_ARGS__, NULL })

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL)
        count += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return count;
}

static void cli_setup(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/test.XXXXXX", g_root);
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

static void cli_teardown(void)
{
    remove_tree(g_dir);
}

static void write_text(const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    write_file(path, text);
}

/* Every refusal: exit 2, one line on stderr naming the problem, nothing on
 * stdout and no file made, though each asks for an energy log, an output
 * and (most) snapshots. */
static const struct {
    const char *args[8];
    const char *needle;
} refusals[] = {
    { { "--eta", "0" }, "--eta" },
    { { "--eta", "-0.1" }, "--eta" },
    { { "--eta", "nan" }, "--eta" },
    { { "--t-end", "-1" }, "--t-end" },
    { { "--t-end", "1e6" }, "--t-end" },
    { { "--n", "0" }, "--n" },
    { { "--n", "1" }, "--n" },
    { { "--n", "12x" }, "--n" },
    { { "--seed", "-3" }, "--seed" },
    { { "--dt-max", "0" }, "--dt-max" },
    { { "--dt-max", "1e-20" }, "--dt-max" },
    { { "--softening", "-0.01" }, "--softening" },
    { { "--snapshot-every", "0.1" }, "--snapshot-dir" },
    { { "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--snapshot-every", "0", "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--snapshot-every", "1e-7", "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--log-every", "0" }, "--log-every" },
    { { "--input", "in.txt", "--ic", "plummer" }, "--input" },
    { { "--input", "in.txt", "--n", "10" }, "--input" },
    { { "--ic", "king" }, "king" },
    { { "--predict", "cpu" }, "--predict" },
    { { "--backend", "cpu", "--predict", "gpu" }, "load_state" },
    { { "--backend", "gpu" }, "'gpu'" },
    { { "--backend", "cpu", "--variant", "nope" }, "nope" },
    { { "--shaders", "dxil" }, "--shaders" },
    { { "--frobnicate" }, "--frobnicate" },
};

START_TEST(test_cli_refused)
{
    struct cli_run run = { 0 }, *pr = &run;
    const char *args[16];
    int n = 0;
    write_text("in.txt", "0 1 0 0 0 0 0 0\n1 1 1 0 0 0 1 0\n");
    for (const char *const *a = refusals[_i].args; *a; a++)
        args[n++] = *a;
    const char *extra[] = { "--energy-log", "e.csv", "--output", "out.txt", NULL };
    int snaps = 0;
    for (const char *const *a = extra; *a; a++)
        args[n++] = *a;
    for (int k = 0; k < n; k++)
        snaps |= strncmp(args[k], "--snapshot", 10) == 0;
    if (!snaps) {               /* ask for snapshots too, where legal */
        args[n++] = "--snapshot-every";
        args[n++] = "0.5";
        args[n++] = "--snapshot-dir";
        args[n++] = "snaps";
    }
    args[n] = NULL;
    run_cli(pr, args);
    ck_assert_msg(pr->status == 2, "case %d: exit %d, stderr %s", _i, pr->status,
                  pr->err);
    ck_assert_msg(pr->out[0] == '\0', "stdout: %s", pr->out);
    ck_assert_msg(strncmp(pr->err, "glnbody: ", 9) == 0 &&
                  strchr(pr->err, '\n') == pr->err + strlen(pr->err) - 1,
                  "not one message line: %s", pr->err);
    ck_assert_msg(strstr(pr->err, refusals[_i].needle), "'%s' not named: %s",
                  refusals[_i].needle, pr->err);
    ck_assert_msg(dir_entries(g_dir) == 1, "files left after a refusal (%s)", pr->err);
    cli_run_free(pr);
}
END_TEST

/* Counts the lines of text. */
static int line_count(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* A CPU run with every output: the log's exact header and rows at 0, 0.1,
 * ..., 0.5 with small de_rel and growing step counts, snapshots
 * snap_00000..00002 at t = 0, 0.25, 0.5, the final state, the summary. */
START_TEST(test_cli_outputs)
{
    struct cli_run run = { 0 }, *pr = &run;
    char path[1200];
    struct nb_particles p;
    struct nb_error err = { 0 };
    RUN_CLI(pr, "--backend", "cpu", "--n", "64", "--t-end", "0.5", "--energy-log",
            "e.csv", "--log-every", "0.1", "--snapshot-every", "0.25",
            "--snapshot-dir", "snaps", "--output", "final.txt");
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    ck_assert_msg(pr->err[0] == '\0', "stderr: %s", pr->err);
    ck_assert(strstr(pr->out, "relative energy error") && strstr(pr->out, "t_host") &&
              strstr(pr->out, "t_force") && strstr(pr->out, "t_comm"));
    snprintf(path, sizeof path, "%s/e.csv", g_dir);
    char *text = read_file(path);
    ck_assert_ptr_nonnull(text);
    const char *header = "t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,"
                         "com_z,block_steps,particle_steps\n";
    ck_assert(strncmp(text, header, strlen(header)) == 0);
    ck_assert_int_eq(line_count(text), 7);
    const char *row = strchr(text, '\n') + 1;
    for (int k = 0; k < 6; k++, row = strchr(row, '\n') + 1) {
        double v[13];
        ck_assert_int_eq(sscanf(row, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,"
                                "%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                                &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12]), 13);
        ck_assert(fabs(v[0] - 0.1 * k) < 1e-15);
        ck_assert(fabs(v[3] - v[1] - v[2]) < 1e-15);
        ck_assert_msg(fabs(v[4]) < 1e-5, "de_rel %g", v[4]);
        ck_assert(k > 0 || (v[4] == 0.0 && v[11] == 0.0));
        ck_assert(fabs(v[5] - 2 * v[1] / fabs(v[2])) < 1e-12);
        /* Blocks feel forces from particles at other times, so Newton's
         * third law holds only to the integration error: |P| ~ 5e-8. */
        ck_assert_msg(v[6] < 1e-6 && fabs(v[8]) < 1e-6, "|P| %g, com_x %g", v[6], v[8]);
    }
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/snaps/snap_%05d.txt", g_dir, k);
        ck_assert_msg(nb_snapshot_read(path, &p, &err) == NB_OK, "%s", err.message);
        ck_assert_uint_eq(p.n, 64);
        nb_particles_free(&p);
    }
    snprintf(path, sizeof path, "%s/snaps", g_dir);
    ck_assert_int_eq(dir_entries(path), 3);
    snprintf(path, sizeof path, "%s/final.txt", g_dir);
    ck_assert_int_eq(nb_snapshot_read(path, &p, &err), NB_OK);
    ck_assert_uint_eq(p.n, 64);
    nb_particles_free(&p);
    ck_assert_int_eq(dir_entries(g_dir), 3);       /* no temporary left */
    free(text);
    cli_run_free(pr);
}
END_TEST

/* Input files are taken in their own units, never rescaled: with t-end 0
 * the output is the input, digit for digit, ids kept. */
START_TEST(test_cli_input_not_rescaled)
{
    struct cli_run run = { 0 }, *pr = &run;
    char path[1200];
    struct nb_particles p;
    struct nb_error err = { 0 };
    write_text("in.txt", "# two\n7 3 0.1 0 0 0 0.2 0\n9 5 -1 0.5 0 0.3 0 0.1\n");
    RUN_CLI(pr, "--backend", "cpu", "--input", "in.txt", "--t-end", "0", "--output",
            "out.txt", "--softening", "0");
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    snprintf(path, sizeof path, "%s/out.txt", g_dir);
    ck_assert_int_eq(nb_snapshot_read(path, &p, &err), NB_OK);
    ck_assert(p.n == 2 && p.id[0] == 7 && p.id[1] == 9 && p.m[0] == 3 && p.m[1] == 5);
    ck_assert(p.x[0] == 0.1 && p.x[3] == -1 && p.x[4] == 0.5 && p.v[1] == 0.2 &&
              p.v[3] == 0.3 && p.v[5] == 0.1);
    nb_particles_free(&p);
    cli_run_free(pr);
}
END_TEST

/* A run that hits the step floor fails with exit 1, names the particle
 * and leaves neither the log nor the output behind. */
START_TEST(test_cli_floor)
{
    struct cli_run run = { 0 }, *pr = &run;
    write_text("in.txt", "5 0.5 -0.001 0 0 0 0 0\n6 0.5 0.001 0 0 0 0 0\n");
    RUN_CLI(pr, "--backend", "cpu", "--input", "in.txt", "--softening", "0",
            "--energy-log", "e.csv", "--output", "out.txt");
    ck_assert_msg(pr->status == 1, "exit %d: %s", pr->status, pr->err);
    ck_assert_msg(strstr(pr->err, "particle") && strstr(pr->err, "floor"), "%s",
                  pr->err);
    ck_assert_int_eq(dir_entries(g_dir), 1);
    cli_run_free(pr);
}
END_TEST

START_TEST(test_cli_help)
{
    struct cli_run run = { 0 }, *pr = &run;
    const char *options[] = { "--input", "--ic", "--n", "--seed", "--t-end", "--eta",
                              "--softening", "--dt-max", "--shared-dt", "--backend",
                              "--predict", "--energy-log", "--log-every",
                              "--snapshot-every", "--snapshot-dir", "--output",
                              "--variant", "--gpu", "--shaders", "--debug" };
    RUN_CLI(pr, "--help");
    ck_assert_int_eq(pr->status, 0);
    for (int k = 0; k < COUNT(options); k++)
        ck_assert_msg(strstr(pr->out, options[k]), "help lacks %s", options[k]);
    cli_run_free(pr);
}
END_TEST

/* `glnbody run` with no option: a Plummer sphere on the default (compute)
 * backend to t = 1, the energy error and the time split on stdout. */
START_TEST(test_cli_default)
{
    struct cli_run run = { 0 }, *pr = &run;
    double de;
    run_cli(pr, (const char *const[]){ NULL });
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    ck_assert(strstr(pr->out, "N = 512, seed 1") && strstr(pr->out, "backend compute"));
    const char *e = strstr(pr->out, "(E - E0)/|E0| = ");
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(sscanf(e + 16, "%lf", &de), 1);
    ck_assert_msg(fabs(de) < 1e-5, "energy error %g", de);
    ck_assert(strstr(pr->out, "t_host") && strstr(pr->out, "t_force"));
    cli_run_free(pr);
}
END_TEST

/* ---- the same physics on the GPU backends -------------------------------- */

static const char *const gpu_backends[] = { "compute", "fragment" };

/* Kepler on a float kernel, eta = 0.002.  Not the CPU test's 0.0002:
 * a2 and a3 come from differences of accelerations over a step, and below
 * eta ~ 1e-3 float rounding of a (~1e-7 |a|) outgrows a3 dt^3, eq. 9 sees
 * noise and the steps collapse (measured on llvmpipe: 120 times the CPU's
 * block steps at eta = 0.0002) - seed 001's saturation of GPU accuracy.
 * At eta = 0.002 the fourth-order error is 7e-8 after 10 orbits and float
 * forces add ~5e-8 (measured 1.2e-7 on both pipelines): bound 1e-6, the
 * issue's "1e-6 level".  The period is a phase, of the same relative
 * size: bound 1e-6 too. */
#define GPU_KEPLER_ETA 0.002
START_TEST(test_kepler_gpu)
{
    struct nb_particles p;
    struct nb_sim_params par = params(GPU_KEPLER_ETA, 0.0);
    struct run r;
    double period, de;
    make_kepler(&p);
    run_start(&r, gpu_backends[_i], &p, &par);
    kepler_orbits(&r, 10, &period, &de);
    ck_assert_msg(fabs(de) <= 1e-6, "%s: relative energy error %.3e after 10 orbits",
                  gpu_backends[_i], de);
    ck_assert_msg(fabs(period / (2 * PI) - 1) <= 1e-6, "%s: period %.12f",
                  gpu_backends[_i], period);
    ck_assert_msg(r.s.stats.block_steps < 6000, "%s: %llu block steps (CPU: 3936)",
                  gpu_backends[_i], (unsigned long long)r.s.stats.block_steps);
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

/* Both GPU pipelines keep the Hermite state on the device: nb_sim_init
 * accepts --predict gpu for them (the cpu backend's refusal is a CLI
 * test). */
static void require_device_state(const char *name, const struct nb_particles *p)
{
    struct nb_sim_params par = params(0.01, 0.01);
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_gl *gl = gl_open();
    struct nb_sim s;
    ck_assert_msg(nb_backend_create(&b, name, gl, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b.load_state && b.update_state && b.predict_j,
                  "%s has no device-resident Hermite state", name);
    par.predict = NB_PREDICT_GPU;
    ck_assert_msg(nb_sim_init(&s, p, &par, &b, &err) == NB_OK, "%s", err.message);
    nb_sim_free(&s);
    b.destroy(b.state);
    nb_gl_destroy(gl);
}

/* Plummer on a float kernel, 1e-5 as on the CPU: the integration error of
 * eta = 0.01 is ~1e-7 and float forces add about that much (seed 001
 * saw GPU energy errors saturate near 1e-6 at eta ~ 0.01-0.001).  Cases:
 * compute and fragment, each with --predict host and gpu. */
START_TEST(test_plummer_gpu)
{
    const char *name = gpu_backends[_i % 2];
    enum nb_predict predict = _i < 2 ? NB_PREDICT_HOST : NB_PREDICT_GPU;
    struct nb_particles p;
    make_plummer(&p, 8, 1);
    if (predict == NB_PREDICT_GPU)
        require_device_state(name, &p);
    nb_particles_free(&p);
    plummer_energy(name, predict, 1e-5);
}
END_TEST

/* --predict host and --predict gpu on one backend: the same trajectory up
 * to float rounding of the j-particles (the device predicts with float
 * increments on double (compute) or hi/lo float (fragment) positions, the
 * host in double then rounds), which chaos amplifies
 * only a little by t = 0.125; bound 1e-4 on positions (measured ~1e-6 on
 * llvmpipe), both energies within 1e-5. */
START_TEST(test_predict_host_vs_gpu)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct run host, dev;
    make_plummer(&p, 256, 13);
    require_device_state(gpu_backends[_i], &p);
    struct nb_gl *gl = gl_open();
    run_start_gl(&host, gpu_backends[_i], &p, &par, gl);
    par.predict = NB_PREDICT_GPU;
    run_start_gl(&dev, gpu_backends[_i], &p, &par, gl);
    advance_to(&host, 0.125);
    advance_to(&dev, 0.125);
    double dmax = 0.0, e0 = energy(p.n, p.m, p.x, p.v, 0.01);
    for (size_t k = 0; k < 3 * p.n; k++)
        dmax = fmax(dmax, fabs(host.x[k] - dev.x[k]));
    ck_assert_msg(dmax <= 1e-4, "%s: host and gpu prediction differ by %.3e",
                  gpu_backends[_i], dmax);
    ck_assert(fabs(run_energy(&host) / e0 - 1) <= 1e-5);
    ck_assert(fabs(run_energy(&dev) / e0 - 1) <= 1e-5);
    run_end(&host);
    run_end(&dev);
    nb_gl_destroy(gl);
    nb_particles_free(&p);
}
END_TEST

/* nb_potential_energy on each GPU backend (compute: its precision-G
 * kernel; fragment: none, so the CPU) and with no backend, against the
 * pair sum above, on unequal masses at odd sizes: 1e-13 relative (double
 * sums of n ~ 1e3 terms with ~1e-16 rounding each; measured ~1e-15).  The
 * compute backend must come back in precision A: its next GA is the
 * float kernel's. */
static enum nb_status precision_unsupported(void *state, enum nb_precision mode,
                                            struct nb_error *err)
{
    (void)state;
    return nb_error_set(err, NB_ERR_UNSUPPORTED, "no precision %d here", (int)mode);
}

static enum nb_status precision_broken(void *state, enum nb_precision mode,
                                       struct nb_error *err)
{
    (void)state;
    (void)mode;
    return nb_error_set(err, NB_ERR_GL, "broken backend");
}

START_TEST(test_potential_energy)
{
    static const size_t sizes[] = { 1, 2, 3, 257, 1031 };
    struct nb_gl *gl = gl_open();
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_backend_create(&b, gpu_backends[_i], gl, &err) == NB_OK, "%s",
                  err.message);
    for (size_t k = 0; k < COUNT(sizes); k++) {
        struct nb_particles p;
        size_t n = sizes[k];
        double w_gpu, w_cpu, zero[3 * 1031] = { 0 };
        make_plummer_or_pair(&p, n, 40 + k);
        for (size_t i = 0; i < n; i++)
            p.m[i] *= 0.5 + (double)(i % 7) / 4.0;
        double w_ref = energy(n, p.m, p.x, zero, 0.01);
        ck_assert_msg(nb_potential_energy(&b, n, p.x, p.m, 0.01, &w_gpu, &err) == NB_OK,
                      "%s", err.message);
        ck_assert_int_eq(nb_potential_energy(NULL, n, p.x, p.m, 0.01, &w_cpu, &err), NB_OK);
        ck_assert_msg(fabs(w_gpu - w_ref) <= 1e-13 * fabs(w_ref) &&
                      fabs(w_cpu - w_ref) <= 1e-13 * fabs(w_ref),
                      "%s, n = %zu: W %.17g (backend), %.17g (cpu), %.17g (pairs)",
                      gpu_backends[_i], n, w_gpu, w_cpu, w_ref);
        nb_particles_free(&p);
    }
    /* The dispatch: a backend without the mode falls back to the CPU (bit for
     * bit the CPU's W), a backend that fails reports its failure. */
    struct nb_force_backend fake = b;
    struct nb_particles p;
    double w_fake, w_cpu;
    make_plummer(&p, 64, 7);
    ck_assert_int_eq(nb_potential_energy(NULL, p.n, p.x, p.m, 0.01, &w_cpu, &err), NB_OK);
    fake.set_precision = precision_unsupported;
    ck_assert_int_eq(nb_potential_energy(&fake, p.n, p.x, p.m, 0.01, &w_fake, &err), NB_OK);
    ck_assert(w_fake == w_cpu);
    fake.set_precision = precision_broken;
    ck_assert_int_eq(nb_potential_energy(&fake, p.n, p.x, p.m, 0.01, &w_fake, &err),
                     NB_ERR_GL);
    ck_assert_msg(strstr(err.message, "broken"), "%s", err.message);
    nb_particles_free(&p);
    if (b.set_precision) {      /* back in A: a float GA, not a double one */
        const double x[6] = { 0, 0, 0, 1, 0, 0 }, m[2] = { 1.0 / 3.0, 1 };
        double acc[6], pot[2];
        ck_assert_int_eq(b.set_particles(b.state, 2, x, m, &err), NB_OK);
        ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.1, &err), NB_OK);
        ck_assert_int_eq(b.read(b.state, acc, pot, &err), NB_OK);
        ck_assert(pot[1] == (double)(float)pot[1]);
    }
    b.destroy(b.state);
    nb_gl_destroy(gl);
}
END_TEST

/* ---- the suite ----------------------------------------------------------- */

static Suite *run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("gaj");
    tcase_add_loop_test(tc, test_cpu_gaj_kernel, 0, 2);
    tcase_add_test(tc, test_cpu_backend_gaj);
    suite_add_tcase(s, tc);

    tc = tcase_create("physics");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_kepler_cpu);
    tcase_add_test(tc, test_figure8_cpu);
    tcase_add_test(tc, test_plummer_cpu);
    tcase_add_loop_test(tc, test_block_invariants, 0, 3);
    tcase_add_test(tc, test_two_sims);
    tcase_add_test(tc, test_sync_potential);
    tcase_add_test(tc, test_step_floor);
    tcase_add_test(tc, test_sim_refusals);
    suite_add_tcase(s, tc);

    tc = tcase_create("ic");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_plummer_ic, 0, 3);
    tcase_add_test(tc, test_plummer_profile);
    tcase_add_test(tc, test_snapshot_write);
    suite_add_tcase(s, tc);

    tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_cli_refused, 0, COUNT(refusals));
    tcase_add_test(tc, test_cli_outputs);
    tcase_add_test(tc, test_cli_input_not_rescaled);
    tcase_add_test(tc, test_cli_floor);
    tcase_add_test(tc, test_cli_help);
    tcase_add_test(tc, test_cli_default);
    suite_add_tcase(s, tc);

    tc = tcase_create("gpu");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_kepler_gpu, 0, COUNT(gpu_backends));
    tcase_add_loop_test(tc, test_plummer_gpu, 0, 4);
    tcase_add_loop_test(tc, test_predict_host_vs_gpu, 0, COUNT(gpu_backends));
    tcase_add_loop_test(tc, test_potential_energy, 0, COUNT(gpu_backends));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_run") != 0)
        return EXIT_FAILURE;
    SRunner *sr = srunner_create(run_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_tree(g_root);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
