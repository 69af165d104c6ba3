/* check_gaj_positions.c - the Hermite GAJ path in double-single positions
 * and velocities (nb_hermite_params.positions; glsl/gaj.comp and gaj.frag
 * with NB_GAJ_DS) against the double CPU reference, and the float format
 * failing the same check.
 *
 * The system: a Plummer sphere of 4099 (odd: a partial last tile) holding
 * a hard binary (masses 0.01, separation 1e-5, at |x| ~ 1, orbital
 * relative velocity) and a pair of two sphere particles 1e-4 apart near
 * |x| = 54 with relative velocity 1e-3; eps^2 = 1e-12.  Coordinates are
 * doubles with all 53 bits used, so float rounding of x and v shows.
 *
 * Bounds per particle i, with nothing allowed for rounding positions or
 * velocities to float: |da| <= 1e-6 sum_j |a_ij|, |dphi| <= 1e-6 |phi_i|,
 * |djerk| <= 1e-6 sum_j m_j (|v_ij| / s^{3/2} + 3 |r.v| r / s^{5/2}) (each
 * term's two parts in magnitude; s = r^2 + eps^2).  In ds, x_j - x_i keeps
 * ~48 bits (a relative error ~4e-15 |x| / r: 2e-9 for the far pair) and
 * the float pair terms and sums cost a few 2^-24 (check_gaj_precision's
 * 16 u per term; mode A's tile sums).  In float, r errs by ~6e-8 |x| / r:
 * ~6e-3 for the binary and 3e-2 for the far pair, and the test asserts
 * that float's worst error is above the bound, so that the check has
 * teeth.
 *
 * Paths, on the compute and the fragment engine: the j-set from the host
 * (set_j), and predicted on the device (load_state, predict_j) from
 * t0 = 0 to t = 2^-30 (a step the binary could take: the float increments
 * v dt then err by < 1e-15), against the CPU GAJ of the host's double
 * prediction.  fixed64 (libg6gl's) and ds in precision D are refused with
 * one message.  CLI: glnbody run --positions ds integrates a small sphere
 * to a finite energy error (both engines, the host's prediction and the
 * device's, and the device corrector), and refuses a bad value, fixed64
 * and ds with precision D; a ds run restarted from its checkpoint keeps
 * ds (the output byte for byte the uninterrupted run's) and refuses
 * float. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#include "cli_harness.h"
#include "gl_suite.h"

#define N 4099
#define EPS 1e-6            /* eps^2 = 1e-12 */
#define TOL 1e-6
#define T_PREDICT 0x1p-30
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static uint64_t seed;

/* The sphere with the binary (particles 0, 1) and the far pair (2, 3). */
static void make_system(struct nb_particles *p)
{
    struct nb_error err = { 0 };
    ck_assert_msg(nb_plummer(p, N, seed % 1000 + 1, NULL, &err) == NB_OK, "%s", err.message);
    /* centre of mass near |x| = 1, off every float grid point */
    const double c[3] = { 0.7000000123456789, 0.5099999876543211, 0.5000000314159265 };
    const double half = 0.5e-5, vorb = 0.5 * sqrt(0.02 / 1e-5);
    for (int k = 0; k < 2; k++) {
        double s = k ? 1.0 : -1.0;
        p->m[k] = 0.01;
        for (int d = 0; d < 3; d++) {
            p->x[3 * k + d] = c[d] + (d == 0 ? s * half : 0.0);
            p->v[3 * k + d] = p->v[d] + (d == 1 ? s * vorb : 0.0);
        }
    }
    const double far = 54.0 / sqrt(3.0) + 1.234567e-7;
    for (int k = 2; k < 4; k++) {
        double s = k == 3 ? 1.0 : -1.0;
        for (int d = 0; d < 3; d++) {
            p->x[3 * k + d] = far * (d == 2 ? -1.0 : 1.0) + (d == 0 ? s * 0.5e-4 : 0.0);
            p->v[3 * k + d] = p->v[3 * 2 + d] + (d == 1 ? s * 0.5e-3 : 0.0);
        }
    }
}

struct worst {
    double a, phi, jerk;
    size_t ia, iphi, ijerk;
};

/* The GAJ of every particle by b (its j-set set) against the CPU on p:
 * each particle's errors over its scales, the worst of each kind. */
static struct worst evaluate(struct nb_force_backend *b, const struct nb_particles *p,
                             const char *what)
{
    struct nb_error err = { 0 };
    size_t n = p->n;
    uint32_t *all = malloc(n * sizeof *all);
    double *acc = malloc(3 * n * sizeof(double)), *jerk = malloc(3 * n * sizeof(double));
    double *pot = malloc(n * sizeof(double)), *racc = malloc(3 * n * sizeof(double));
    double *rjerk = malloc(3 * n * sizeof(double)), *rpot = malloc(n * sizeof(double));
    double *aabs = malloc(n * sizeof(double)), *jabs = malloc(n * sizeof(double));
    ck_assert(all && acc && jerk && pot && racc && rjerk && rpot && aabs && jabs);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    ck_assert_msg(b->compute_gaj(b->state, EPS, n, all, &err) == NB_OK, "%s: %s", what,
                  err.message);
    ck_assert_int_eq(b->read_gaj(b->state, acc, jerk, pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_gaj(n, p->x, p->v, p->m, EPS, n, all, racc, rjerk, rpot, &err),
                     NB_OK);
    nb_cpu_gaj_magnitudes(n, p->x, p->v, p->m, EPS, n, all, aabs, jabs);
    struct worst w = { 0 };
    for (size_t i = 0; i < n; i++) {
        double da = 0.0, dj = 0.0;
        for (int c = 0; c < 3; c++) {
            da += pow(acc[3 * i + c] - racc[3 * i + c], 2);
            dj += pow(jerk[3 * i + c] - rjerk[3 * i + c], 2);
        }
        double ea = sqrt(da) / aabs[i], ej = sqrt(dj) / jabs[i];
        double ep = fabs(pot[i] - rpot[i]) / fabs(rpot[i]);
        ck_assert_msg(isfinite(ea) && isfinite(ej) && isfinite(ep), "%s: particle %zu: "
                      "not finite", what, i);
        if (ea > w.a) { w.a = ea; w.ia = i; }
        if (ep > w.phi) { w.phi = ep; w.iphi = i; }
        if (ej > w.jerk) { w.jerk = ej; w.ijerk = i; }
    }
    printf("%s: worst a %.3g (particle %zu), phi %.3g (%zu), jerk %.3g (%zu)\n", what, w.a,
           w.ia, w.phi, w.iphi, w.jerk, w.ijerk);
    free(all); free(acc); free(jerk); free(pot); free(racc); free(rjerk); free(rpot);
    free(aabs); free(jabs);
    return w;
}

/* ds within TOL everywhere; float beyond it (the check has teeth). */
static void judge(const struct worst *w, enum nb_positions format, const char *what)
{
    double most = fmax(w->a, fmax(w->phi, w->jerk));
    if (format == NB_POSITIONS_DS)
        ck_assert_msg(w->a <= TOL && w->phi <= TOL && w->jerk <= TOL, "%s: a %.3g (particle "
                      "%zu), phi %.3g (%zu), jerk %.3g (%zu) above %g (seed %llu)", what,
                      w->a, w->ia, w->phi, w->iphi, w->jerk, w->ijerk, TOL,
                      (unsigned long long)seed);
    else
        ck_assert_msg(most > TOL, "%s: float positions within %g (worst %.3g): the system "
                      "does not show their rounding", what, TOL, most);
}

/* Each engine in each format. */
static const struct {
    const char *engine;
    enum nb_positions format;
} cases[] = {
    { "compute", NB_POSITIONS_DS }, { "compute", NB_POSITIONS_FLOAT },
    { "fragment", NB_POSITIONS_DS }, { "fragment", NB_POSITIONS_FLOAT },
};

/* The j-set from the host (set_j). */
START_TEST(host_j_set)
{
    enum nb_positions format = cases[_i].format;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    char what[64];
    make_system(&p);
    ck_assert_msg(nb_backend_create(&b, cases[_i].engine, gl, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b.set_positions && b.set_positions(b.state, format, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_int_eq(b.set_j(b.state, p.n, p.x, p.v, p.m, &err), NB_OK);
    snprintf(what, sizeof what, "%s, set_j, positions %s", cases[_i].engine,
             nb_positions_name(format));
    struct worst w = evaluate(&b, &p, what);
    judge(&w, format, what);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* The j-set predicted on the device from t0 = 0 to T_PREDICT, with a and
 * jerk the CPU's, against the host's double prediction. */
START_TEST(device_prediction)
{
    enum nb_positions format = cases[_i].format;
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, q = { 0 };
    char what[64];
    make_system(&p);
    size_t n = p.n;
    uint32_t *all = malloc(n * sizeof *all);
    double *a = malloc(3 * n * sizeof(double)), *jk = malloc(3 * n * sizeof(double));
    double *pot = malloc(n * sizeof(double)), *t0 = calloc(n, sizeof(double));
    ck_assert(all && a && jk && pot && t0);
    for (size_t i = 0; i < n; i++)
        all[i] = (uint32_t)i;
    ck_assert_int_eq(nb_cpu_gaj(n, p.x, p.v, p.m, EPS, n, all, a, jk, pot, &err), NB_OK);
    ck_assert_int_eq(nb_particles_alloc(&q, n, &err), NB_OK);
    const double dt = T_PREDICT;
    for (size_t k = 0; k < 3 * n; k++) {
        q.x[k] = p.x[k] + dt * (p.v[k] + dt * (a[k] / 2.0 + dt * jk[k] / 6.0));
        q.v[k] = p.v[k] + dt * (a[k] + dt * jk[k] / 2.0);
    }
    memcpy(q.m, p.m, n * sizeof *q.m);
    ck_assert_msg(nb_backend_create(&b, cases[_i].engine, gl, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b.set_positions(b.state, format, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b.load_state(b.state, n, p.x, p.v, a, jk, t0, p.m, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b.predict_j(b.state, dt, &err) == NB_OK, "%s", err.message);
    snprintf(what, sizeof what, "%s, predict_j, positions %s", cases[_i].engine,
             nb_positions_name(format));
    struct worst w = evaluate(&b, &q, what);
    judge(&w, format, what);
    b.destroy(b.state);
    free(all); free(a); free(jk); free(pot); free(t0);
    nb_particles_free(&p);
    nb_particles_free(&q);
}
END_TEST

/* Where ds cannot run: one message naming the cause. */
START_TEST(refusals)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    make_system(&p);
    ck_assert_msg(nb_backend_create(&b, "compute", gl, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(b.set_positions(b.state, NB_POSITIONS_FIXED64, &err),
                     NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "fixed64"), "%s", err.message);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_D, &err), NB_OK);
    ck_assert_int_eq(b.set_positions(b.state, NB_POSITIONS_DS, &err), NB_OK);
    ck_assert_int_eq(b.set_j(b.state, p.n, p.x, p.v, p.m, &err), NB_OK);
    uint32_t one = 5;
    ck_assert_int_eq(b.compute_gaj(b.state, EPS, 1, &one, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "precision A only") && strstr(err.message, "D"), "%s",
                  err.message);
    b.destroy(b.state);

    /* a Hermite run in fixed64 on the fragment engine */
    struct nb_sim_params par;
    struct nb_sim s;
    nb_sim_params_default(&par);
    par.positions = NB_POSITIONS_FIXED64;
    ck_assert_msg(nb_backend_create(&b, "fragment", gl, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "positions fixed64") && strstr(err.message, "fragment"),
                  "%s", err.message);
    nb_sim_free(&s);
    b.destroy(b.state);
    nb_particles_free(&p);
}
END_TEST

/* Two Hermite runs on one force handle (host prediction), one in ds and
 * one in float, stepped in turns: each run's state at t = 2^-6 is the
 * same run's alone, to the bit (each step hands its format to the engine
 * again), and the ds run differs from the float one. */
START_TEST(api_runs_share_a_handle)
{
    struct nb_error err = { 0 };
    struct nb_forces *f = NULL;
    struct nb_hermite *h[2] = { NULL, NULL }, *alone = NULL;
    struct nb_hermite_params par;
    const size_t n = 97;
    double *x[3], *v[3];
    ck_assert_msg(nb_forces_create(&f, gl, NB_ENGINE_COMPUTE, &err) == NB_OK, "%s",
                  err.message);
    nb_hermite_params_default(&par);
    for (int k = 0; k < 2; k++) {
        par.positions = k ? NB_POSITIONS_FLOAT : NB_POSITIONS_DS;
        ck_assert_msg(nb_hermite_create_plummer(&h[k], f, n, 7, &par, &err) == NB_OK, "%s",
                      err.message);
    }
    for (double t = 0x1p-9; t <= 0x1p-6; t += 0x1p-9)
        for (int k = 0; k < 2; k++)
            ck_assert_msg(nb_hermite_integrate(h[k], t, &err) == NB_OK, "%s", err.message);
    par.positions = NB_POSITIONS_DS;
    ck_assert_int_eq(nb_hermite_create_plummer(&alone, f, n, 7, &par, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_integrate(alone, 0x1p-6, &err), NB_OK);
    struct nb_hermite *runs[3] = { h[0], h[1], alone };
    for (int k = 0; k < 3; k++) {
        x[k] = malloc(3 * n * sizeof(double));
        v[k] = malloc(3 * n * sizeof(double));
        ck_assert(x[k] && v[k]);
        ck_assert_int_eq(nb_hermite_state(runs[k], x[k], v[k], &err), NB_OK);
    }
    ck_assert_msg(memcmp(x[0], x[2], 3 * n * sizeof(double)) == 0 &&
                  memcmp(v[0], v[2], 3 * n * sizeof(double)) == 0,
                  "the ds run beside a float run differs from the ds run alone");
    ck_assert_msg(memcmp(x[0], x[1], 3 * n * sizeof(double)) != 0,
                  "the ds and float runs agree to the bit");
    for (int k = 0; k < 3; k++) {
        nb_hermite_destroy(runs[k]);
        free(x[k]);
        free(v[k]);
    }
    nb_forces_destroy(f);
}
END_TEST

/* ---- glnbody run --positions -------------------------------------------- */

static void run_cli(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, NULL, NULL, args);
}

/* A Plummer sphere of 128 to t = 0.125 in ds, on both engines with host
 * and device prediction, and the device corrector: finite, small energy errors (the integrator's ~1e-8 plus
 * float forces' ~1e-7), and the format in the summary. */
START_TEST(cli_run_ds)
{
    static const char *const backend[] = { "compute", "compute", "compute", "fragment",
                                           "fragment" };
    static const char *const predict[] = { "host", "gpu", "gpu", "host", "gpu" };
    static const char *const correct[] = { "host", "host", "gpu", "host", "host" };
    for (size_t k = 0; k < COUNT(predict); k++) {
        struct cli_run r = { 0 };
        run_cli(&r, (const char *const[]){ "run", "--n", "128", "--t-end", "0.125",
                                           "--positions", "ds", "--backend", backend[k],
                                           "--predict", predict[k], "--correct", correct[k],
                                           NULL });
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
        double de = cli_energy_error(&r);
        printf("glnbody run --positions ds --backend %s --predict %s --correct %s, N = 128 "
               "to t = 0.125: dE/E %.3e\n", backend[k], predict[k], correct[k], de);
        ck_assert_msg(isfinite(de) && fabs(de) < 1e-5, "dE/E %.3e", de);
        ck_assert_msg(strstr(r.out, "positions ds"), "%s", r.out);
        cli_run_free(&r);
    }
}
END_TEST

/* A ds run in two legs through a checkpoint gives the uninterrupted run's
 * output byte for byte (the restart keeps ds without being told), and a
 * restart asked for float is refused. */
START_TEST(cli_restart_keeps_ds)
{
    struct cli_run r = { 0 };
    char ck[1200], one[1200], two[1200];
    snprintf(ck, sizeof ck, "%s/ds.ck", g_root);
    snprintf(one, sizeof one, "%s/one.txt", g_root);
    snprintf(two, sizeof two, "%s/two.txt", g_root);
    run_cli(&r, (const char *const[]){ "run", "--n", "128", "--t-end", "0.25", "--positions",
                                       "ds", "--output", one, NULL });
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    cli_run_free(&r);
    run_cli(&r, (const char *const[]){ "run", "--n", "128", "--t-end", "0.125", "--positions",
                                       "ds", "--checkpoint", ck, NULL });
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    cli_run_free(&r);
    run_cli(&r, (const char *const[]){ "run", "--restart", ck, "--t-end", "0.25", "--output",
                                       two, NULL });
    ck_assert_msg(r.status == 0 && strstr(r.out, "positions ds"), "exit %d: %s%s", r.status,
                  r.out, r.err);
    cli_run_free(&r);
    char *a = read_file(one), *b = read_file(two);
    ck_assert_msg(a && b && strcmp(a, b) == 0, "the restarted ds run differs");
    free(a);
    free(b);
    run_cli(&r, (const char *const[]){ "run", "--restart", ck, "--t-end", "0.25",
                                       "--positions", "float", NULL });
    ck_assert_msg(r.status != 0 && r.out[0] == '\0' &&
                  strstr(r.err, "keeps its positions in ds"), "exit %d: %s", r.status, r.err);
    cli_run_free(&r);
}
END_TEST

static const struct {
    const char *args[8];
    const char *needle;
} cli_refusals[] = {
    { { "run", "--positions", "double" }, "unknown position format 'double'" },
    { { "run", "--positions", "fixed64" }, "--positions fixed64" },
    { { "run", "--positions", "ds", "--precision", "D" }, "--precision A" },
};

START_TEST(cli_refused)
{
    struct cli_run r = { 0 };
    run_cli(&r, cli_refusals[_i].args);
    ck_assert_msg(r.status != 0, "case %d: exit 0", _i);
    ck_assert_msg(r.out[0] == '\0', "stdout: %s", r.out);
    /* the message, once (an engine that opened has said its renderer before) */
    const char *at = strstr(r.err, cli_refusals[_i].needle);
    ck_assert_msg(strncmp(r.err, "glnbody: ", 9) == 0 && at &&
                  !strstr(at + 1, cli_refusals[_i].needle),
                  "'%s' not named once: %s", cli_refusals[_i].needle, r.err);
    cli_run_free(&r);
}
END_TEST

static Suite *gaj_positions_suite(void)
{
    Suite *s = suite_create("gaj_positions");
    TCase *tc = tcase_create("engines");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, host_j_set, 0, COUNT(cases));
    tcase_add_loop_test(tc, device_prediction, 0, COUNT(cases));
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, api_runs_share_a_handle);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cli_run_ds);
    tcase_add_test(tc, cli_restart_keeps_ds);
    tcase_add_loop_test(tc, cli_refused, 0, COUNT(cli_refusals));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_gaj_positions") != 0)
        return 1;
    int status = run_gl_suite("check_gaj_positions", gaj_positions_suite(), &gl, &seed);
    remove_tree(g_root);
    return status;
}
