/* check_md_run_precision.c - `glnbody md --precision`: the compute MD
 * engine integrating with the accumulation modes B..H of md_precision.c
 * (its set_precision), on an LJ fcc lattice with random
 * velocities (host/md_ic.c: 256 atoms, rho 0.8442, T 1, rc 2 shifted,
 * periodic, cell lists) and a small all-pairs one (108 atoms, an open
 * cluster without cutoff):
 *
 *   1  mode H: 50 steps from the particles in a random order give, put
 *      back in order by id, positions and velocities bit-identical to the
 *      run in the original order (the int64 sums are exact, so the force
 *      on a particle does not depend on the order of its terms); mode A's
 *      float sums do depend on it, and its runs differ;
 *   2  modes B..H: the largest |E(t) - E(0)| over 200 steps of dt 0.005
 *      (thermo every 20 steps) is mode A's to within 1.5 |dE_A| + 1e-5
 *      |E(0)|: at this dt the drift is the integrator's (1e-5 relative in
 *      every mode), not the sums';
 *   3  mode H against the CPU engine (double pair terms and sums, host
 *      velocity Verlet) over 50 steps.  The float pair terms err by ~6e-8
 *      of sum_j |F_ij| (~100 here), ~1e-5 of force, which over t = 0.25
 *      moves a particle by ~1e-5 t^2 / 2 ~ 3e-7 and its velocity by ~3e-6
 *      before any chaotic growth (Lyapunov time ~1 in LJ liquids): the
 *      open cluster (no cutoff) keeps |dx| < 1e-6, |dv| < 1e-5 everywhere.
 *      With the cutoff, a pair whose float and double r^2 fall on two
 *      sides of rc^2 changes its force by |F(rc)| (0.09 at rc = 2) one step
 *      earlier or later: max |dx| < 1e-6 + 2 |F(rc)| dt t, |dv| < 1e-5 +
 *      2 |F(rc)| dt, and the medians keep the tight bounds (seen: one seed
 *      in ten crosses; medians 5e-8 and 8e-7 even then);
 *   4  refusals: --precision on the cpu and fragment engines (exit 2, one
 *      message), set_precision on the CPU engine (NB_ERR_ARGS); the range
 *      flag: the test hook's headroom 2^+2 (the energy sums then exceed
 *      half their range at load) fails the sync with NB_ERR_NUMERIC "at
 *      step 0", and two atoms on a collision course (the pair force grows
 *      ~10^4-fold, past H's 2^8 headroom) end `glnbody md --precision H`
 *      with exit 1, one message naming the step, and no thermo or output
 *      file left behind.
 *
 * One GL context in-process (no fork for the GL tests); the CLI tests run
 * the binary (GLNBODY_BIN, default build/glnbody).  NB_TEST_SEED=S replays. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nb_gl.h"
#pragma GCC diagnostic push             /* its random systems are not used here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "md_fixtures.h"
#pragma GCC diagnostic pop
#include "cli_harness.h"
#include "gl_suite.h"

#define STEPS_ORDER 50
#define STEPS_DRIFT 200
#define STEPS_CPU 50
#define DT 0.005

static struct nb_gl *gl;
static uint64_t seed;

/* The fcc test system: 256 atoms, periodic, rc 2 shifted, cell lists (3
 * per axis); or 108 atoms as an open cluster, no cutoff, all pairs. */
struct fixture {
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_md_potential pot;
    int cell_list;
};

static void fixture_make(struct fixture *f, int all_pairs)
{
    struct nb_error err = { 0 };
    memset(f, 0, sizeof *f);
    ck_assert_msg(nb_md_fcc(&f->p, &f->box, all_pairs ? 3 : 4, 0.8442, 1.0, seed, &err)
                  == NB_OK, "%s", err.message);
    nb_md_potential_default(&f->pot, NB_LAW_LJ, 1);
    f->pot.cutoff = all_pairs ? 0.0 : 2.0;      /* the cluster: no cutoff */
    f->pot.shift = !all_pairs;
    f->cell_list = !all_pairs;
    for (int a = 0; all_pairs && a < 3; a++)
        f->box.periodic[a] = 0;
}

/* A sim of f's particles on the compute engine *e in mode `mode` (the
 * headroom hook where headroom != 0), or on the CPU engine (cpu). */
static enum nb_status start(struct nb_md_sim *s, struct nb_md_engine *e, const struct fixture *f,
                            const struct nb_particles *p, int cpu, enum nb_precision mode,
                            int headroom, struct nb_error *err)
{
    memset(s, 0, sizeof *s);
    if (cpu)
        ck_assert_int_eq(nb_md_engine_cpu_create(e, err), NB_OK);
    else {
        ck_assert_int_eq(nb_md_engine_compute_create(e, gl, err), NB_OK);
        ck_assert_msg(nb_md_engine_set_precision(e, mode, err) == NB_OK, "%s",
                      err->message);
        if (headroom)
            ck_assert_int_eq(nb_md_engine_compute_set_prec_headroom(e, headroom, err), NB_OK);
    }
    return nb_md_sim_init(s, p, &f->pot, &f->box, f->cell_list, DT, e, err);
}

static void stop(struct nb_md_sim *s, struct nb_md_engine *e)
{
    nb_md_sim_free(s);
    e->destroy(e->state);
}

/* Runs `steps` steps; x, v (3n each) of the final state. */
static void run(const struct fixture *f, const struct nb_particles *p, int cpu,
                enum nb_precision mode, uint64_t steps, double *x, double *v)
{
    struct nb_md_sim s;
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    ck_assert_msg(start(&s, &e, f, p, cpu, mode, 0, &err) == NB_OK, "%s: %s",
                  nb_precision_name(mode), err.message);
    ck_assert_msg(nb_md_sim_advance(&s, steps, &err) == NB_OK &&
                  nb_md_sim_sync(&s, &err) == NB_OK, "%s: %s", nb_precision_name(mode),
                  err.message);
    memcpy(x, s.x, 3 * p->n * sizeof *x);
    memcpy(v, s.v, 3 * p->n * sizeof *v);
    stop(&s, &e);
}

/* q = p with its particles in the order perm (q's k-th is p's perm[k]). */
static void permuted(struct nb_particles *q, const struct nb_particles *p, size_t *perm)
{
    struct nb_error err = { 0 };
    struct nb_rng rng;
    size_t n = p->n;
    nb_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
    for (size_t k = 0; k < n; k++)
        perm[k] = k;
    for (size_t k = n - 1; k > 0; k--) {        /* Fisher-Yates */
        size_t j = (size_t)(nb_rng_uniform(&rng) * (double)(k + 1));
        size_t t = perm[k];
        perm[k] = perm[j > k ? k : j];
        perm[j > k ? k : j] = t;
    }
    ck_assert_int_eq(nb_particles_alloc(q, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(q, &err), NB_OK);
    for (size_t k = 0; k < n; k++) {
        size_t i = perm[k];
        q->id[k] = p->id[i];
        q->type[k] = p->type[i];
        q->m[k] = p->m[i];
        for (int a = 0; a < 3; a++) {
            q->x[3 * k + a] = p->x[3 * i + a];
            q->v[3 * k + a] = p->v[3 * i + a];
        }
    }
}

/* Runs mode in both orders; the count of state words that differ after
 * putting the permuted run back in id order. */
static size_t order_differences(const struct fixture *f, enum nb_precision mode)
{
    size_t n = f->p.n, *perm = malloc(n * sizeof *perm), diff = 0;
    double *x0 = malloc(3 * n * sizeof *x0), *v0 = malloc(3 * n * sizeof *v0);
    double *x1 = malloc(3 * n * sizeof *x1), *v1 = malloc(3 * n * sizeof *v1);
    struct nb_particles q = { 0 };
    ck_assert(perm && x0 && v0 && x1 && v1);
    permuted(&q, &f->p, perm);
    run(f, &f->p, 0, mode, STEPS_ORDER, x0, v0);
    run(f, &q, 0, mode, STEPS_ORDER, x1, v1);
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 3; a++) {
            size_t i = perm[k];
            diff += memcmp(&x0[3 * i + a], &x1[3 * k + a], sizeof(double)) != 0;
            diff += memcmp(&v0[3 * i + a], &v1[3 * k + a], sizeof(double)) != 0;
        }
    nb_particles_free(&q);
    free(perm);
    free(x0), free(v0), free(x1), free(v1);
    return diff;
}

START_TEST(h_trajectory_independent_of_order)
{
    struct fixture f;
    fixture_make(&f, _i);
    size_t h = order_differences(&f, NB_PRECISION_H);
    ck_assert_msg(h == 0, "%s: mode H, %zu of %zu state words differ between the "
                  "orders (seed %llu)", _i ? "all pairs" : "cells", h, 6 * f.p.n,
                  (unsigned long long)seed);
    size_t a = order_differences(&f, NB_PRECISION_A);
    ck_assert_msg(a > 0, "%s: mode A's float sums gave the same trajectory in both "
                  "orders: the test would not see an order dependence",
                  _i ? "all pairs" : "cells");
    printf("order: %s, mode H identical, mode A %zu of %zu words differ\n",
           _i ? "all pairs" : "cells", a, 6 * f.p.n);
    nb_particles_free(&f.p);
}
END_TEST

/* The largest |E(t) - E(0)| over the thermo steps of a run; E(0) too. */
static double max_drift(const struct fixture *f, enum nb_precision mode, double *e0)
{
    struct nb_md_sim s;
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    struct nb_md_thermo t;
    double worst = 0.0;
    ck_assert_msg(start(&s, &e, f, &f->p, 0, mode, 0, &err) == NB_OK, "%s: %s",
                  nb_precision_name(mode), err.message);
    ck_assert_int_eq(nb_md_sim_sync(&s, &err), NB_OK);
    nb_md_thermo(&s, &t);
    *e0 = t.etotal;
    for (int k = 0; k < STEPS_DRIFT / 20; k++) {
        ck_assert_msg(nb_md_sim_advance(&s, 20, &err) == NB_OK &&
                      nb_md_sim_sync(&s, &err) == NB_OK, "%s: %s",
                      nb_precision_name(mode), err.message);
        nb_md_thermo(&s, &t);
        worst = fmax(worst, fabs(t.etotal - *e0));
    }
    stop(&s, &e);
    return worst;
}

START_TEST(drift_as_mode_a)
{
    struct fixture f;
    double e0, e0_mode;
    fixture_make(&f, _i);
    double ref = max_drift(&f, NB_PRECISION_A, &e0);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        double d = max_drift(&f, (enum nb_precision)m, &e0_mode);
        printf("drift: %s, mode %s %.4e (mode A %.4e, E0 %.6g)\n", _i ? "all pairs" : "cells",
               nb_precision_name((enum nb_precision)m), d, ref, e0);
        ck_assert_msg(fabs(e0_mode - e0) <= 1e-5 * fabs(e0), "mode %s: E(0) %.9g, mode A "
                      "%.9g", nb_precision_name((enum nb_precision)m), e0_mode, e0);
        ck_assert_msg(d <= 1.5 * ref + 1e-5 * fabs(e0), "%s: mode %s drifts %.4e, mode A "
                      "%.4e (seed %llu)", _i ? "all pairs" : "cells",
                      nb_precision_name((enum nb_precision)m), d, ref,
                      (unsigned long long)seed);
    }
    nb_particles_free(&f.p);
}
END_TEST

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(h_follows_cpu_double)
{
    struct fixture f;
    fixture_make(&f, _i);
    size_t n = f.p.n;
    double *xg = malloc(3 * n * sizeof *xg), *vg = malloc(3 * n * sizeof *vg);
    double *xc = malloc(3 * n * sizeof *xc), *vc = malloc(3 * n * sizeof *vc);
    double dx = 0.0, dv = 0.0;
    double *ex = malloc(3 * n * sizeof *ex), *ev = malloc(3 * n * sizeof *ev);
    ck_assert(xg && vg && xc && vc && ex && ev);
    run(&f, &f.p, 0, NB_PRECISION_H, STEPS_CPU, xg, vg);
    run(&f, &f.p, 1, NB_PRECISION_A, STEPS_CPU, xc, vc);
    for (size_t k = 0; k < 3 * n; k++) {
        int a = (int)(k % 3);
        double len = f.box.hi[a] - f.box.lo[a], d = xg[k] - xc[k];
        if (f.box.periodic[a])
            d -= len * round(d / len);  /* one may have wrapped, the other not */
        dx = fmax(dx, fabs(d));
        dv = fmax(dv, fabs(vg[k] - vc[k]));
        ex[k] = fabs(d);
        ev[k] = fabs(vg[k] - vc[k]);
    }
    qsort(ex, 3 * n, sizeof *ex, compare_doubles);
    qsort(ev, 3 * n, sizeof *ev, compare_doubles);
    /* With a cutoff, a pair whose float r^2 and double r^2 fall on two
     * sides of rc^2 (a cutoff crossing one step apart) kicks by |F(rc)| dt
     * once, which then moves the particle by up to |F(rc)| dt t: allowed
     * twice over; the open cluster has no cutoff and no such jump. */
    double rc = f.pot.cutoff, f_rc = rc > 0 ? fabs(24.0 * (2.0 * pow(rc, -13) -
                                                           pow(rc, -7))) : 0.0;
    double x_bound = 1e-6 + 2.0 * f_rc * DT * DT * STEPS_CPU;
    double v_bound = 1e-5 + 2.0 * f_rc * DT;
    printf("cpu: %s, mode H after %d steps: max |dx| %.3e (bound %.3e), |dv| %.3e "
           "(bound %.3e); medians %.3e, %.3e\n", _i ? "all pairs" : "cells", STEPS_CPU, dx,
           x_bound, dv, v_bound, ex[3 * n / 2], ev[3 * n / 2]);
    /* A crossing disturbs two particles and their neighbours within rc
     * (~15% of this system): the median keeps the float-term bounds. */
    ck_assert_msg(ex[3 * n / 2] < 1e-6 && ev[3 * n / 2] < 1e-5, "medians |dx| %.3e, |dv| "
                  "%.3e (seed %llu)", ex[3 * n / 2], ev[3 * n / 2], (unsigned long long)seed);
    free(ex), free(ev);
    ck_assert_msg(dx < x_bound && dv < v_bound, "%s: mode H vs CPU: |dx| %.3e, |dv| %.3e "
                  "(seed %llu)", _i ? "all pairs" : "cells", dx, dv,
                  (unsigned long long)seed);
    free(xg), free(vg), free(xc), free(vc);
    nb_particles_free(&f.p);
}
END_TEST

START_TEST(refused_off_compute)
{
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_engine_set_precision(&e, NB_PRECISION_H, &err),
                     NB_ERR_ARGS);
    e.destroy(e.state);
}
END_TEST

START_TEST(range_flag_stops_run)
{
    struct fixture f;
    struct nb_md_sim s;
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    fixture_make(&f, 0);
    ck_assert_int_eq(start(&s, &e, &f, &f.p, 0, NB_PRECISION_H, 2, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_sync(&s, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "precision H: at step 0") &&
                  strstr(err.message, "range"), "message: %s", err.message);
    stop(&s, &e);
    nb_particles_free(&f.p);
}
END_TEST

/* ---- the command line ---------------------------------------------------- */

static const char *test_dir(const char *name)
{
    static char dir[2048];
    snprintf(dir, sizeof dir, "%s/%s", g_root, name);
    ck_assert_msg(mkdir(dir, 0777) == 0 || errno == EEXIST, "mkdir %s", dir);
    return dir;
}

static char *path_in(const char *dir, const char *name)
{
    static char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* One line on stderr (the renderer line aside), starting "glnbody md: ". */
static void assert_one_message(const struct cli_run *r, const char *has)
{
    int messages = 0;
    for (const char *line = r->err; *line; line = strchr(line, '\n') + 1) {
        ck_assert_msg(strchr(line, '\n') != NULL, "unterminated: %s", r->err);
        messages += strncmp(line, "glnbody: renderer", 17) != 0;
    }
    ck_assert_msg(messages == 1 && strstr(r->err, "glnbody md: ") && strstr(r->err, has),
                  "not one message with '%s': %s", has, r->err);
}

START_TEST(cli_refuses_other_engines)
{
    static const char *const backends[] = { "cpu", "fragment" };
    const char *dir = test_dir(backends[_i]);
    const char *args[] = { "md", "--ic", "fcc", "--cells", "2", "--cutoff", "1.5", "--steps",
                           "2", "--backend", backends[_i], "--precision", "H", "--thermo",
                           "thermo.csv", NULL };
    struct cli_run r;
    cli_run_in(&r, dir, NULL, args);
    ck_assert_msg(r.status == 2, "--backend %s --precision H: exit %d: %s", backends[_i],
                  r.status, r.err);
    assert_one_message(&r, "has no accumulation modes (only --backend compute has them)");
    ck_assert_msg(access(path_in(dir, "thermo.csv"), F_OK) != 0, "thermo.csv left behind");
    cli_run_free(&r);
}
END_TEST

START_TEST(cli_collision_stops_h)
{
    const char *dir = test_dir("collision");
    const char *args[] = { "md", "--input", "two.txt", "--box", "-5", "5", "-5", "5", "-5",
                           "5", "--periodic", "none", "--dt", "0.001", "--steps", "100",
                           "--thermo-every", "50", "--thermo", "thermo.csv", "--output",
                           "out.txt", "--precision", "H", NULL };
    struct cli_run r;
    /* 1.6 apart, closing at 40: they meet near r = 0.68 (u = 400), where
     * the pair force is ~10^4 times its value at the start. */
    write_file(path_in(dir, "two.txt"), "# id type m x y z vx vy vz\n"
               "1 1 1 -0.8 0 0 20 0 0\n2 1 1 0.8 0 0 -20 0 0\n");
    cli_run_in(&r, dir, NULL, args);
    ck_assert_msg(r.status == 1, "collision: exit %d: %s", r.status, r.err);
    assert_one_message(&r, "precision H: at step ");
    ck_assert_msg(strstr(r.err, "passed half of their fixed range"), "%s", r.err);
    /* No --output; the thermo log keeps its whole rows up to the stop (a
     * long log is kept as it goes). */
    ck_assert_msg(access(path_in(dir, "out.txt"), F_OK) != 0, "partial output left behind");
    char *rows = read_file(path_in(dir, "thermo.csv"));
    ck_assert_msg(rows && strncmp(rows, "step,time", 9) == 0 &&
                  rows[strlen(rows) - 1] == '\n', "thermo.csv: %s", rows ? rows : "missing");
    free(rows);
    cli_run_free(&r);
    /* Mode B, without a fixed range, runs the same collision through. */
    args[23] = "B";
    cli_run_in(&r, dir, NULL, args);
    ck_assert_msg(r.status == 0, "collision in mode B: exit %d: %s", r.status, r.err);
    cli_run_free(&r);
}
END_TEST

static Suite *md_run_precision_suite(void)
{
    Suite *s = suite_create("md_run_precision");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, h_trajectory_independent_of_order, 0, 2);
    tcase_add_loop_test(tc, drift_as_mode_a, 0, 2);
    tcase_add_loop_test(tc, h_follows_cpu_double, 0, 2);
    tcase_add_test(tc, refused_off_compute);
    tcase_add_test(tc, range_flag_stops_run);
    suite_add_tcase(s, tc);
    TCase *cli = tcase_create("cli");
    tcase_set_timeout(cli, 300);
    tcase_add_loop_test(cli, cli_refuses_other_engines, 0, 2);
    tcase_add_test(cli, cli_collision_stops_h);
    suite_add_tcase(s, cli);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_md_run_precision") != 0)
        return EXIT_FAILURE;
    int status = run_gl_suite("check_md_run_precision", md_run_precision_suite(), &gl, &seed);
    remove_tree(g_root);
    return status;
}
