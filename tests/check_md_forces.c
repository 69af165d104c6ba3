/* check_md_forces.c - the CPU reference forces of a whole system: cell
 * lists against all pairs in every box kind, Newton's third law, F =
 * -grad E, thread independence, the minimum image, coincident particles,
 * the perfect fcc crystal, and the CPU engine around them.  No GL; the
 * random inputs replay with NB_TEST_SEED. */
#include "md_host_fixtures.h"

/* ---- the CPU forces ----------------------------------------------------- */

static const size_t force_sizes[] = {1, 2, 3, 5, 17, 64, 97, 211};
#define FORCE_SIZES (sizeof force_sizes / sizeof *force_sizes)

static double sum_of(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

/* Cell lists against all pairs with the same cutoff, every box kind and
 * every law in turn: the same pairs summed in another order, so f, pe and
 * vir agree to rounding, 1e-12 of each particle's sum of pair magnitudes
 * (double rounding is 1e-16 a term; a missed or doubled pair is O(1)). */
START_TEST(test_cells_vs_all_pairs)
{
    size_t n = force_sizes[_i % FORCE_SIZES];
    enum box_kind kind = (enum box_kind)(_i / FORCE_SIZES);
    uint64_t seed = test_seed(100 + (uint64_t)_i);
    struct nb_rng rng;
    struct test_system t;
    struct forces all, cells;
    double *fscale = alloc_doubles(n), *uscale = alloc_doubles(n), total = 0;

    nb_rng_seed(&rng, seed);
    /* A sparse random draw can hold no pair inside the cutoff (about once
     * in 2000 for 17 particles in the open box); the comparison needs
     * pairs, so such a draw is replaced by the next one. */
    for (int draw = 0; draw < 10; draw++) {
        if (draw)
            system_free(&t);
        random_system(&t, n, kind, (enum nb_md_law)(_i % NB_LAW_COUNT), _i % 2, &rng);
        pair_scales(&t, fscale, uscale);
        if (n < 17 || sum_of(fscale, n) > 0.0)
            break;
    }
    all = forces_alloc(n);
    cells = forces_alloc(n);
    compute(&t, 0, &all);
    compute(&t, 1, &cells);
    for (size_t i = 0; i < n; i++) {
        double df = 0.0;

        for (int k = 0; k < 3; k++)
            df = fmax(df, fabs(all.f[3 * i + k] - cells.f[3 * i + k]));
        ck_assert_msg(df <= 1e-12 * fscale[i] &&
                      fabs(all.pe[i] - cells.pe[i]) <= 1e-12 * uscale[i] &&
                      fabs(all.vir[i] - cells.vir[i]) <=
                          1e-12 * 2.5 * fscale[i],
                      "seed %llu, n %zu, %s box, %s: particle %zu: df %.3g, "
                      "dpe %.3g, dvir %.3g (scale %.3g)",
                      (unsigned long long)seed, n, box_names[kind],
                      nb_md_law_name(t.pot.law), i, df,
                      all.pe[i] - cells.pe[i], all.vir[i] - cells.vir[i],
                      fscale[i]);
        total += fscale[i];
    }
    if (n == 1)
        ck_assert(all.f[0] == 0.0 && all.pe[0] == 0.0 && cells.vir[0] == 0.0);
    if (n >= 17)        /* the comparison saw real pairs */
        ck_assert_msg(total > 0.0, "seed %llu: no pair inside the cutoff in 10 draws",
                      (unsigned long long)seed);
    forces_free(&all);
    forces_free(&cells);
    free(fscale);
    free(uscale);
    system_free(&t);
}
END_TEST

/* Newton's third law: each pair's two forces are exact negatives (the
 * minimum image is antisymmetric, r2 and q_i q_j symmetric), so sum_i F_i
 * is zero up to the rounding of the row sums, ~1e-16 of sum_i |F_i|
 * pair magnitudes; 1e-13 of them leaves room. */
START_TEST(test_momentum_conserved)
{
    size_t n = 97;
    uint64_t seed = test_seed(200 + (uint64_t)_i);
    struct nb_rng rng;
    struct test_system t;
    struct forces r;
    double *fscale = alloc_doubles(n), *uscale = alloc_doubles(n);

    nb_rng_seed(&rng, seed);
    random_system(&t, n, (enum box_kind)(_i % BOX_KINDS),
                  (enum nb_md_law)(_i % NB_LAW_COUNT), 1, &rng);
    r = forces_alloc(n);
    pair_scales(&t, fscale, uscale);
    for (int cells = 0; cells < 2; cells++) {
        double sum[3] = {0, 0, 0}, scale = 0.0;

        compute(&t, cells, &r);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                sum[k] += r.f[3 * i + k];
            scale += fscale[i];
        }
        ck_assert(scale > 0.0);
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabs(sum[k]) <= 1e-13 * scale, "seed %llu, %s: sum "
                          "F_%d = %.3g of %.3g", (unsigned long long)seed,
                          nb_md_law_name(t.pot.law), k, sum[k], scale);
    }
    forces_free(&r);
    free(fscale);
    free(uscale);
    system_free(&t);
}
END_TEST

/* Total energy sum_i pe_i at t's positions, summed in long double so that
 * the sum adds no rounding of its own. */
static long double total_energy(struct test_system *t, struct forces *tmp)
{
    long double e = 0.0L;

    compute(t, 0, tmp);
    for (size_t j = 0; j < t->n; j++)
        e += tmp->pe[j];
    return e;
}

/* 1 when some pair of particle i lies within band of the cutoff, where the
 * energy has a kink (shifted) or a jump (unshifted). */
static int near_cutoff(const struct test_system *t, size_t i, double band)
{
    for (size_t j = 0; j < t->n; j++)
        if (j != i && fabs(sqrt(image_r2(t, i, j)) - t->pot.cutoff) < band)
            return 1;
    return 0;
}

/* The whole system: F_i = -dE/dx_i with E = sum_i pe_i, by the five-point
 * difference (h = 1e-5) on every coordinate.  This checks the assembly:
 * minimum image, per-pair types and charges, the halving of pe.  The
 * difference is exact to ~1e-12 of the force scale; the pe_j themselves
 * carry rounding ~1e-16 |pe_j|, which the difference divides by h: the
 * bound is 1e-8 of the particle's pair-force sum plus 1e-9 of sum_j
 * |u| over the system.  Particles with a pair within 3h of rc (where the
 * stencil would straddle the cutoff) are skipped: rare (~1e-4 a run). */
START_TEST(test_system_gradient)
{
    size_t n = 20, checked = 0;
    uint64_t seed = test_seed(300 + (uint64_t)_i);
    struct nb_rng rng;
    struct test_system t;
    struct forces r, tmp;
    double *fscale = alloc_doubles(n), *uscale = alloc_doubles(n), usum = 0;
    const double h = 1e-5;

    nb_rng_seed(&rng, seed);
    random_system(&t, n, _i % 2 ? BOX_OPEN : BOX_PERIODIC,
                  (enum nb_md_law)(_i / 2), _i % 2, &rng);
    r = forces_alloc(n);
    tmp = forces_alloc(n);
    compute(&t, 0, &r);
    pair_scales(&t, fscale, uscale);
    for (size_t i = 0; i < n; i++)
        usum += uscale[i];
    for (size_t i = 0; i < n; i++) {
        if (near_cutoff(&t, i, 3 * h))
            continue;
        checked++;
        for (int k = 0; k < 3; k++) {
            double x0 = t.x[3 * i + k], e[4], numeric;
            static const double step[4] = {1, -1, 2, -2};

            for (int s = 0; s < 4; s++) {
                t.x[3 * i + k] = x0 + step[s] * h;
                e[s] = (double)total_energy(&t, &tmp);
            }
            t.x[3 * i + k] = x0;
            numeric = -(8.0 * (e[0] - e[1]) - (e[2] - e[3])) / (12.0 * h);
            ck_assert_msg(fabs(r.f[3 * i + k] - numeric) <=
                          1e-8 * fscale[i] + 1e-9 * usum,
                          "seed %llu, %s: F[%zu][%d] = %.12g, -dE/dx = %.12g",
                          (unsigned long long)seed, nb_md_law_name(t.pot.law),
                          i, k, r.f[3 * i + k], numeric);
        }
    }
    ck_assert_uint_ge(checked, n - 2);
    forces_free(&r);
    forces_free(&tmp);
    free(fscale);
    free(uscale);
    system_free(&t);
}
END_TEST

/* Each row is summed in a fixed order by one thread: bit-identical results
 * for 1, 2 and 3 threads. */
START_TEST(test_thread_independent)
{
    size_t n = 211;
    uint64_t seed = test_seed(400);
    struct nb_rng rng;
    struct test_system t;

    nb_rng_seed(&rng, seed);
    random_system(&t, n, BOX_MIXED, NB_LAW_LJC_SIGMOIDAL, 1, &rng);
    for (int cells = 0; cells < 2; cells++) {
        struct forces one = forces_alloc(n), many = forces_alloc(n);

        omp_set_num_threads(1);
        compute(&t, cells, &one);
        for (int threads = 2; threads <= 3; threads++) {
            omp_set_num_threads(threads);
            compute(&t, cells, &many);
            ck_assert(memcmp(one.f, many.f, 3 * n * sizeof *one.f) == 0);
            ck_assert(memcmp(one.pe, many.pe, n * sizeof *one.pe) == 0);
            ck_assert(memcmp(one.vir, many.vir, n * sizeof *one.vir) == 0);
        }
        forces_free(&one);
        forces_free(&many);
    }
    system_free(&t);
}
END_TEST

/* Two particles 1.1 apart through the periodic x boundary (9.9 apart
 * inside the box): the pair acts through the boundary with the force of
 * r = 1.1, repulsive, pushing particle 0 (near lo) towards +x.  Positions
 * outside the box work as well (unwrapped input). */
START_TEST(test_minimum_image)
{
    struct test_system t;
    struct forces r;
    struct nb_md_pair_coeff c;
    double cs, fr, u;

    system_alloc(&t, 2);
    nb_md_potential_default(&t.pot, NB_LAW_LJ, 1);
    t.pot.cutoff = 2.5;
    for (int k = 0; k < 3; k++) {
        t.box.lo[k] = -5.0;
        t.box.hi[k] = 5.0;
        t.box.periodic[k] = 1;
    }
    t.type[0] = t.type[1] = 1;
    t.m[0] = t.m[1] = 1.0;
    t.x[0] = -4.5;
    t.x[3] = 4.4;
    nb_md_pair_coeffs(&t.pot, &c, &cs);
    nb_md_pair(&t.pot, &c, cs, 0.0, 1.1 * 1.1, &fr, &u);
    ck_assert(fr > 0.0);
    r = forces_alloc(2);
    for (int pass = 0; pass < 4; pass++) {
        if (pass == 2)
            t.x[3] -= 30.0;     /* three periods away: same image */
        compute(&t, pass % 2, &r);
        ck_assert_msg(fabs(r.f[0] - fr * 1.1) <= 1e-12 * fabs(fr * 1.1),
                      "pass %d: f %.17g, want %.17g", pass, r.f[0], fr * 1.1);
        ck_assert(r.f[3] == -r.f[0]);
        ck_assert(r.f[1] == 0.0 && r.f[2] == 0.0);
        ck_assert(fabs(r.pe[0] + r.pe[1] - u) <= 1e-12 * fabs(u));
    }
    forces_free(&r);
    system_free(&t);
}
END_TEST

/* Two distinct particles at one point (here through the periodic
 * boundary): NB_ERR_NUMERIC naming both, with either method. */
START_TEST(test_coincident)
{
    struct test_system t;
    struct forces r;
    struct nb_error err = {NB_OK, ""};

    system_alloc(&t, 4);
    nb_md_potential_default(&t.pot, NB_LAW_LJ, 1);
    t.pot.cutoff = 2.0;
    for (int k = 0; k < 3; k++) {
        t.box.lo[k] = 0.0;
        t.box.hi[k] = 8.0;
        t.box.periodic[k] = 1;
    }
    for (size_t i = 0; i < 4; i++) {
        t.type[i] = 1;
        t.m[i] = 1.0;
        t.x[3 * i] = 1.0 + 1.5 * (double)i;
    }
    t.x[3 * 3] = t.x[3 * 1] + 8.0;      /* 3 is 1's periodic image */
    r = forces_alloc(4);
    for (int cells = 0; cells < 2; cells++) {
        t.sys.cell_list = cells;
        ck_assert_int_eq(nb_md_cpu_forces(&t.sys, t.x, r.f, r.pe, r.vir, &err),
                         NB_ERR_NUMERIC);
        assert_message(&err, "particles 1 and 3 are at the same point");
    }
    forces_free(&r);
    system_free(&t);
}
END_TEST

/* A perfect fcc crystal: every atom sees the same neighbourhood, so the
 * forces vanish (to rounding, 1e-12 of the pair-magnitude sum), and its
 * energy and virial are the lattice sums over the neighbour shells inside
 * rc = 2.5: 12 at a/sqrt 2, 6 at a, 24 at a sqrt 1.5, 12 at a sqrt 2
 * (a = 1.6796 at rho 0.8442; the next shell, 24 at a sqrt 2.5 = 2.656,
 * lies outside).  pe_i = 1/2 sum_s n_s (u(r_s) - u(rc)), vir_i = 1/2
 * sum_s n_s (48 r^-12 - 24 r^-6), written out here independently of the
 * library.  A wrong image along any axis breaks all three. */
START_TEST(test_fcc_lattice_balanced)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct test_system t;
    struct forces r;
    double *fscale, *uscale, pe = 0.0, vir = 0.0;

    fcc_system(&p, &pot, &box, 4, 0.8442, 0.0, 1);
    system_alloc(&t, p.n);
    t.pot = pot;
    t.box = box;
    memcpy(t.x, p.x, 3 * p.n * sizeof *p.x);
    for (size_t i = 0; i < p.n; i++) {
        t.type[i] = 1;
        t.m[i] = 1.0;
    }
    r = forces_alloc(p.n);
    fscale = alloc_doubles(p.n);
    uscale = alloc_doubles(p.n);
    compute(&t, 0, &r);
    pair_scales(&t, fscale, uscale);
    for (int s = 0; s < 4; s++) {
        static const int count[4] = {12, 6, 24, 12};
        static const double dist2[4] = {0.5, 1.0, 1.5, 2.0};    /* / a^2 */
        double a2 = pow(4.0 / 0.8442, 2.0 / 3.0), rc6 = pow(2.5, 6);
        double r6 = pow(dist2[s] * a2, 3);

        pe += 0.5 * count[s] * (4.0 / (r6 * r6) - 4.0 / r6 -
                                (4.0 / (rc6 * rc6) - 4.0 / rc6));
        vir += 0.5 * count[s] * (48.0 / (r6 * r6) - 24.0 / r6);
    }
    for (size_t i = 0; i < p.n; i++) {
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabs(r.f[3 * i + k]) <= 1e-12 * fscale[i],
                          "atom %zu: f = %.3g", i, r.f[3 * i + k]);
        ck_assert_msg(fabs(r.pe[i] - pe) <= 1e-12 * uscale[i] &&
                      fabs(r.vir[i] - vir) <= 1e-12 * 2.5 * fscale[i],
                      "atom %zu: pe %.17g (want %.17g), vir %.17g (want "
                      "%.17g)", i, r.pe[i], pe, r.vir[i], vir);
    }
    /* At rho 0.8442 the nearest neighbours (1.19) sit past the minimum
     * 2^(1/6) = 1.12: the crystal is bound and under tension. */
    ck_assert(pe < -6.0 && vir < 0.0);
    forces_free(&r);
    free(fscale);
    free(uscale);
    system_free(&t);
    nb_particles_free(&p);
}
END_TEST

/* The engine copies the system in setup, times its force calls and names
 * its threads. */
START_TEST(test_engine_cpu)
{
    struct nb_md_engine e;
    struct nb_md_timings tm;
    struct nb_error err = {NB_OK, ""};
    struct test_system t;
    struct forces want, got;
    struct nb_rng rng;
    size_t n = 64;

    nb_rng_seed(&rng, test_seed(700));
    random_system(&t, n, BOX_PERIODIC, NB_LAW_LJC_CONSTANT, 1, &rng);
    want = forces_alloc(n);
    got = forces_alloc(n);
    compute(&t, 1, &want);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_str_eq(e.name, "cpu");
    ck_assert(!e.load && !e.steps && !e.fetch);
    ck_assert_int_eq(strncmp(e.renderer(e.state), "cpu (", 5), 0);
    ck_assert_ptr_nonnull(strstr(e.renderer(e.state), "threads)"));
    ck_assert_int_eq(e.forces(e.state, t.x, got.f, got.pe, got.vir, &err),
                     NB_ERR_ARGS);
    ck_assert_int_eq(e.setup(e.state, &t.sys, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {        /* the engine kept copies */
        t.type[i] = 99;
        t.m[i] = t.q[i] = NAN;
    }
    t.pot.law = NB_LAW_IONIC;
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(e.forces(e.state, t.x, got.f, got.pe, got.vir, &err),
                         NB_OK);
    ck_assert(memcmp(want.f, got.f, 3 * n * sizeof *got.f) == 0);
    ck_assert(memcmp(want.pe, got.pe, n * sizeof *got.pe) == 0);
    e.timings(e.state, &tm);
    ck_assert_uint_eq(tm.evaluations, 2);
    ck_assert(tm.force >= 0.0 && tm.k1 == 0.0 && tm.k2 == 0.0);
    /* A bad system is refused at setup. */
    ck_assert_int_eq(e.setup(e.state, &t.sys, &err), NB_ERR_ARGS);
    e.destroy(e.state);
    forces_free(&want);
    forces_free(&got);
    system_free(&t);
}
END_TEST

static Suite *md_forces_suite(void)
{
    Suite *s = suite_create("md_forces");
    TCase *tc = tcase_create("forces");

    tcase_set_timeout(tc, 120);     /* generous for valgrind runs */
    tcase_add_loop_test(tc, test_cells_vs_all_pairs, 0,
                        (int)(FORCE_SIZES * BOX_KINDS));
    tcase_add_loop_test(tc, test_momentum_conserved, 0, 2 * NB_LAW_COUNT);
    tcase_add_loop_test(tc, test_system_gradient, 0, 2 * NB_LAW_COUNT);
    tcase_add_test(tc, test_thread_independent);
    tcase_add_test(tc, test_minimum_image);
    tcase_add_test(tc, test_coincident);
    tcase_add_test(tc, test_fcc_lattice_balanced);
    tcase_add_test(tc, test_engine_cpu);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_md_host_suite("check_md_forces", md_forces_suite());
}
