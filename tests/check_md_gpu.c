/* check_md_gpu.c - the compute pipeline's MD engine against the CPU
 * reference (nb_md_cpu_forces, double), on fresh random multi-type systems
 * (Mesa llvmpipe in CI, any GL 4.3 GPU elsewhere).
 *
 * Bounds: per particle |dF| <= 1e-5 sum_j |F_ij| and |dpe|, |dvir| <= 1e-5
 * times the sums of the pair terms' magnitudes, each counted part by part
 * (md_fixtures.h: LJ's two powers cancel near the lattice spacing, and
 * rounding is relative to the parts): float pair terms and sums
 * err by a few ulps (6e-8) of those magnitudes even where the terms cancel,
 * so 1e-5 leaves two orders of margin and still catches any wrong pair, law
 * or image.  Positions are float-representable, so the bounds measure the
 * kernels, not the rounding of the input; a system with a pair on the
 * cutoff (md_near_cutoff: within float rounding of r^2, counted by one side
 * only) is drawn again.  NB_TEST_SEED=S replays a run. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#include "gl_suite.h"
#include "md_fixtures.h"

#define TOLERANCE 1e-5
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static uint64_t seed;

static const size_t sizes[] = { 1, 2, 3, 7, 31, 131, 257, 1009 };

/* n particles of `types` types, spacing 1.15 (no pair closer than 1.0:
 * LJ stays tame), in a cube of side at least 8.5 so that rc = 2.5 fits
 * three cells along each axis. */
static void make_particles(struct nb_particles *p, struct nb_md_box *box, size_t n,
                           int types, int periodic, uint64_t s)
{
    md_lattice(p, box, n, types, 1.15, 0.15, 8.5, periodic, s);
}

struct results { double *f, *pe, *vir; };

static void results_alloc(struct results *r, size_t n)
{
    r->f = calloc(3 * n + 1, sizeof(double));
    r->pe = calloc(n + 1, sizeof(double));
    r->vir = calloc(n + 1, sizeof(double));
    ck_assert(r->f && r->pe && r->vir);
}

static void results_free(struct results *r)
{
    free(r->f);
    free(r->pe);
    free(r->vir);
}

/* The engine's forces at p against the CPU's, within TOLERANCE. */
static void check_engine(struct nb_md_engine *e, const struct nb_md_system *sys,
                         const double *x, const char *what)
{
    struct nb_error err = { 0 };
    struct results got, ref;
    size_t n = sys->n;
    double *f_abs = calloc(n, sizeof *f_abs), *u_abs = calloc(n, sizeof *u_abs);
    double *w_abs = calloc(n, sizeof *w_abs);
    ck_assert(f_abs && u_abs && w_abs);
    results_alloc(&got, n);
    results_alloc(&ref, n);
    ck_assert_msg(e->setup(e->state, sys, &err) == NB_OK, "%s: %s", what, err.message);
    ck_assert_msg(e->forces(e->state, x, got.f, got.pe, got.vir, &err) == NB_OK, "%s: %s",
                  what, err.message);
    ck_assert_int_eq(nb_md_cpu_forces(sys, x, ref.f, ref.pe, ref.vir, &err), NB_OK);
    md_pair_magnitudes(sys, x, f_abs, u_abs, w_abs);
    for (size_t i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++)
            ck_assert_msg(fabs(got.f[3 * i + a] - ref.f[3 * i + a]) <= TOLERANCE * f_abs[i],
                          "%s: F[%zu][%d] = %.9g, reference %.9g (scale %.3g, seed %llu)",
                          what, i, a, got.f[3 * i + a], ref.f[3 * i + a], f_abs[i],
                          (unsigned long long)seed);
        ck_assert_msg(fabs(got.pe[i] - ref.pe[i]) <= TOLERANCE * u_abs[i] + 1e-300,
                      "%s: pe[%zu] = %.9g, reference %.9g", what, i, got.pe[i], ref.pe[i]);
        ck_assert_msg(fabs(got.vir[i] - ref.vir[i]) <= TOLERANCE * w_abs[i] + 1e-300,
                      "%s: vir[%zu] = %.9g, reference %.9g", what, i, got.vir[i], ref.vir[i]);
    }
    free(f_abs);
    free(u_abs);
    free(w_abs);
    results_free(&got);
    results_free(&ref);
}

/* Every law, all pairs and cell lists, periodic and open, with and
 * without cutoff and shift, every size. */
START_TEST(compute_forces_match_cpu)
{
    enum nb_md_law law = (enum nb_md_law)_i;
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    ck_assert_int_eq(nb_md_engine_compute_create(&e, gl, &err), NB_OK);
    for (size_t k = 0; k < COUNT(sizes); k++)
        for (int setup = 0; setup < 4; setup++) {
            int periodic = setup & 1, cells = setup >> 1;
            struct nb_particles p = { 0 };
            struct nb_md_box box;
            struct nb_md_potential pot;
            struct nb_md_system sys;
            char what[96];
            uint64_t s = seed + 97 * k + (uint64_t)setup;
            for (;;) {
                make_particles(&p, &box, sizes[k], 3, periodic, s);
                md_random_potential(&pot, law, 3, periodic || cells ? 2.5 : 0.0, setup == 3, s);
                md_system_of(&sys, &p, &pot, &box, cells);
                if (!md_near_cutoff(&sys, p.x))
                    break;
                nb_particles_free(&p);
                s += 0x9e3779b97f4a7c15u;
            }
            snprintf(what, sizeof what, "%s n=%zu %s %s%s", nb_md_law_name(law), sizes[k],
                     periodic ? "periodic" : "open", cells ? "cells" : "pairs",
                     pot.shift ? " shifted" : "");
            check_engine(&e, &sys, p.x, what);
            nb_particles_free(&p);
        }
    e.destroy(e.state);
}
END_TEST

/* Device velocity Verlet follows the host's (CPU engine) to float
 * rounding over 20 steps of a small periodic LJ system with cell lists. */
START_TEST(device_verlet_matches_host)
{
    struct nb_md_engine gpu, cpu;
    struct nb_md_sim sg = { 0 }, sc = { 0 };
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_error err = { 0 };
    struct nb_rng rng;

    make_particles(&p, &box, 343, 1, 1, seed);
    nb_rng_seed(&rng, seed + 1);
    for (size_t i = 0; i < 3 * p.n; i++)
        p.v[i] = nb_rng_uniform(&rng) - 0.5;
    md_random_potential(&pot, NB_LAW_LJ, 1, 2.5, 1, seed);
    ck_assert_int_eq(nb_md_engine_compute_create(&gpu, gl, &err), NB_OK);
    ck_assert_int_eq(nb_md_engine_cpu_create(&cpu, &err), NB_OK);
    ck_assert_msg(nb_md_sim_init(&sg, &p, &pot, &box, 1, 0.002, &gpu, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_msg(nb_md_sim_init(&sc, &p, &pot, &box, 1, 0.002, &cpu, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_int_eq(nb_md_sim_advance(&sg, 20, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&sc, 20, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_sync(&sg, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_sync(&sc, &err), NB_OK);
    for (size_t i = 0; i < 3 * p.n; i++) {
        double len = box.hi[i % 3] - box.lo[i % 3];
        double dx = sg.x[i] - sc.x[i];
        dx -= len * round(dx / len);        /* one may have wrapped, the other not */
        ck_assert_msg(fabs(dx) < 1e-5, "x[%zu]: device %.12g host %.12g", i, sg.x[i], sc.x[i]);
        ck_assert_msg(fabs(sg.v[i] - sc.v[i]) < 1e-4, "v[%zu]: device %.12g host %.12g", i,
                      sg.v[i], sc.v[i]);
    }
    nb_md_sim_free(&sg);
    nb_md_sim_free(&sc);
    gpu.destroy(gpu.state);
    cpu.destroy(cpu.state);
    nb_particles_free(&p);
}
END_TEST

/* A particle leaving a periodic box re-enters on the other side (device
 * K1), and the sum of the forces stays zero to float rounding. */
START_TEST(device_wraps_and_conserves_momentum)
{
    struct nb_md_engine gpu;
    struct nb_md_sim s = { 0 };
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_error err = { 0 };

    make_particles(&p, &box, 64, 2, 1, seed);
    p.v[0] = -3.0;              /* particle 0 leaves through x = 0 */
    md_random_potential(&pot, NB_LAW_LJ, 2, 2.5, 0, seed);
    ck_assert_int_eq(nb_md_engine_compute_create(&gpu, gl, &err), NB_OK);
    ck_assert_msg(nb_md_sim_init(&s, &p, &pot, &box, 1, 0.005, &gpu, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_int_eq(nb_md_sim_advance(&s, 100, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_sync(&s, &err), NB_OK);
    double fsum[3] = { 0 }, fabs_sum = 0.0;
    for (size_t i = 0; i < s.n; i++)
        for (int a = 0; a < 3; a++) {
            ck_assert_msg(s.x[3 * i + a] >= box.lo[a] && s.x[3 * i + a] < box.hi[a],
                          "x[%zu][%d] = %g outside the box", i, a, s.x[3 * i + a]);
            fsum[a] += s.f[3 * i + a];
            fabs_sum += fabs(s.f[3 * i + a]);
        }
    ck_assert_msg(s.x[0] > 0.5 * box.hi[0], "particle 0 did not re-enter: x = %g", s.x[0]);
    for (int a = 0; a < 3; a++)
        ck_assert_msg(fabs(fsum[a]) <= 1e-6 * fabs_sum, "sum F[%d] = %g of %g", a, fsum[a],
                      fabs_sum);
    nb_md_sim_free(&s);
    gpu.destroy(gpu.state);
    nb_particles_free(&p);
}
END_TEST

/* Geometry the cell lists cannot serve is refused at setup, naming why. */
START_TEST(cell_list_geometry_refused)
{
    struct nb_md_engine gpu;
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };

    make_particles(&p, &box, 8, 1, 1, seed);
    md_random_potential(&pot, NB_LAW_LJ, 1, 3.5, 0, seed);      /* 8.5 / 3.5: 2 cells */
    md_system_of(&sys, &p, &pot, &box, 1);
    ck_assert_int_eq(nb_md_engine_compute_create(&gpu, gl, &err), NB_OK);
    ck_assert_int_eq(gpu.setup(gpu.state, &sys, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "cell") != NULL, "message: %s", err.message);
    pot.cutoff = 5.0;                                       /* above half the box */
    sys.cell_list = 0;
    ck_assert_int_eq(gpu.setup(gpu.state, &sys, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "half") != NULL, "message: %s", err.message);
    gpu.destroy(gpu.state);
    nb_particles_free(&p);
}
END_TEST

/* Excluded pairs with a device engine: the sim integrates on the host,
 * the GPU forces less the excluded pairs following the CPU's. */
START_TEST(device_engine_with_exclusions)
{
    struct nb_md_engine gpu, cpu;
    struct nb_md_sim sg = { 0 }, sc = { 0 };
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_error err = { 0 };
    uint32_t pairs[2 * 40];

    make_particles(&p, &box, 125, 2, 1, seed);
    for (uint32_t k = 0; k < 40; k++) {     /* neighbours along x: inside rc */
        pairs[2 * k] = 3 * k;
        pairs[2 * k + 1] = 3 * k + 1;
    }
    md_random_potential(&pot, NB_LAW_LJC_CONSTANT, 2, 2.5, 1, seed);
    ck_assert_int_eq(nb_md_engine_compute_create(&gpu, gl, &err), NB_OK);
    ck_assert_int_eq(nb_md_engine_cpu_create(&cpu, &err), NB_OK);
    ck_assert_msg(nb_md_sim_init_excluding(&sg, &p, &pot, &box, 1, 0.002, &gpu, 40, pairs,
                                           &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_md_sim_init_excluding(&sc, &p, &pot, &box, 1, 0.002, &cpu, 40, pairs,
                                           &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(sg.device, 0);
    ck_assert_int_eq(nb_md_sim_advance(&sg, 10, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&sc, 10, &err), NB_OK);
    for (size_t i = 0; i < 3 * p.n; i++) {
        ck_assert_msg(fabs(sg.x[i] - sc.x[i]) < 1e-5, "x[%zu]: %.12g vs %.12g", i, sg.x[i],
                      sc.x[i]);
        ck_assert_msg(fabs(sg.f[i] - sc.f[i]) < 1e-4 * (1.0 + fabs(sc.f[i])),
                      "f[%zu]: %.9g vs %.9g", i, sg.f[i], sc.f[i]);
    }
    nb_md_sim_free(&sg);
    nb_md_sim_free(&sc);
    gpu.destroy(gpu.state);
    cpu.destroy(cpu.state);
    nb_particles_free(&p);
}
END_TEST

static Suite *md_gpu_suite(void)
{
    Suite *s = suite_create("md_gpu");
    TCase *tc = tcase_create("compute");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, compute_forces_match_cpu, 0, NB_LAW_COUNT);
    tcase_add_test(tc, device_verlet_matches_host);
    tcase_add_test(tc, device_wraps_and_conserves_momentum);
    tcase_add_test(tc, cell_list_geometry_refused);
    tcase_add_test(tc, device_engine_with_exclusions);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_md_gpu", md_gpu_suite(), &gl, &seed);
}
