/* check_run.c - the Hermite integrator, the Plummer model and the
 * diagnostics on the CPU backend.  The `glnbody run` command line is
 * check_run_cli's, the GPU backends' runs check_run_gpu's.
 *
 * Test cases:
 *   gaj      the CPU GAJ kernel and the CPU backend's GAJ calls;
 *   physics  Kepler, figure-eight, Plummer runs on the CPU backend (double
 *            precision: tight bounds), block-step invariants, two
 *            simulations in one process, the step floor;
 *   ic       Plummer initial conditions, snapshot writing.
 */
#include <check.h>

#include <math.h>
#include <time.h>
#include <unistd.h>

#include "run_fixtures.h"

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

/* The block clock's levels (block_clock.c) against the times themselves,
 * on random clocks: steps 2^e over a window of up to 11 exponents within
 * 2^-40..2^13, each t0 the multiple of its step with t0 <= t < t0 + dt.
 * The particles whose level is at most the dividing level of
 * t1 = min(t0 + dt) must be exactly those with t0 + dt == t1, and
 * nb_step_next_ends of the others' levels their earliest t0 + dt.  Sizes
 * 1 to 97. */
START_TEST(test_block_clock_levels)
{
    struct nb_rng rng;
    uint64_t seed = (uint64_t)time(NULL);
    double dt[97], t0[97];
    nb_rng_seed(&rng, seed);
    for (int trial = 0; trial < 5000; trial++) {
        size_t n = 1 + (size_t)(nb_rng_uniform(&rng) * 97);
        int emax = -40 + (int)(nb_rng_uniform(&rng) * 54), emin = emax - 10;
        emin = emin < -40 ? -40 : emin;
        double span = ldexp(1.0, emax + 1 < 13 ? emax + 1 : 13);
        double t = floor(nb_rng_uniform(&rng) * ldexp(span, -emin)) * ldexp(1.0, emin);
        double t1 = INFINITY, rest = INFINITY;
        uint64_t waiting = 0;
        for (size_t i = 0; i < n; i++) {
            dt[i] = ldexp(1.0, emin + (int)(nb_rng_uniform(&rng) * (emax - emin + 1)));
            t0[i] = floor(t / dt[i]) * dt[i];
            t1 = fmin(t1, t0[i] + dt[i]);
        }
        int due = nb_step_dividing_level(t1);
        for (size_t i = 0; i < n; i++) {
            int level = nb_step_level(dt[i]);
            ck_assert_msg((t0[i] + dt[i] == t1) == (level <= due), "seed %llu trial %d: "
                          "t %.17g, dt %.17g, t0 %.17g, t1 %.17g: level %d, due to %d",
                          (unsigned long long)seed, trial, t, dt[i], t0[i], t1, level, due);
            if (level > due) {
                waiting |= (uint64_t)1 << level;
                rest = fmin(rest, t0[i] + dt[i]);
            }
        }
        ck_assert_msg(nb_step_next_ends(waiting, t1) == rest, "seed %llu trial %d: next "
                      "%.17g, expected %.17g", (unsigned long long)seed, trial,
                      nb_step_next_ends(waiting, t1), rest);
    }
}
END_TEST

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

/* ---- the suite ----------------------------------------------------------- */

static Suite *run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc;

    tc = tcase_create("gaj");
    tcase_add_loop_test(tc, test_cpu_gaj_kernel, 0, 2);
    tcase_add_test(tc, test_cpu_backend_gaj);
    suite_add_tcase(s, tc);

    tc = tcase_create("physics");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_kepler_cpu);
    tcase_add_test(tc, test_figure8_cpu);
    tcase_add_test(tc, test_plummer_cpu);
    tcase_add_loop_test(tc, test_block_invariants, 0, 3);
    tcase_add_test(tc, test_block_clock_levels);
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
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(run_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
