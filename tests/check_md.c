/* check_md.c - tests of the host-side molecular dynamics: the force laws,
 * the coefficient file, boxes and system checks, the CPU reference forces
 * (all pairs and cell lists), the CPU engine and velocity Verlet.  No GL.
 *
 * The random inputs come from one seed per run, printed at the start and
 * in every failure message; set NB_TEST_SEED to it to replay the run.
 */
#include "nb_host.h"

#include <check.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------ */

static uint64_t run_seed;       /* set in main, inherited by the forks */

/* A new seed per run (clock, pid), or NB_TEST_SEED when set. */
static uint64_t fresh_seed(void)
{
    const char *env = getenv("NB_TEST_SEED");
    struct timespec ts;

    if (env && *env)
        return strtoull(env, NULL, 0);
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
           ((uint64_t)getpid() << 32);
}

/* The run's seed mixed with a per-test salt. */
static uint64_t test_seed(uint64_t salt)
{
    return run_seed ^ (salt * UINT64_C(0x9e3779b97f4a7c15));
}

static double *alloc_doubles(size_t count)
{
    double *d = calloc(count ? count : 1, sizeof *d);
    ck_assert_ptr_nonnull(d);
    return d;
}

/* A standard normal deviate (Box-Muller). */
static double gaussian(struct nb_rng *rng)
{
    double u = 1.0 - nb_rng_uniform(rng), v = nb_rng_uniform(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static void assert_message(const struct nb_error *err, const char *want)
{
    ck_assert_msg(strstr(err->message, want) != NULL,
                  "message '%s' lacks '%s'", err->message, want);
}

/* A system with its own arrays: what the tests hand the force code. */
struct test_system {
    size_t n;
    int *type;
    double *m, *q, *x;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;
};

static void system_alloc(struct test_system *t, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->type = calloc(n ? n : 1, sizeof *t->type);
    ck_assert_ptr_nonnull(t->type);
    t->m = alloc_doubles(n);
    t->q = alloc_doubles(n);
    t->x = alloc_doubles(3 * n);
    t->sys = (struct nb_md_system){ .n = n, .type = t->type, .m = t->m, .q = t->q,
                                    .pot = &t->pot, .box = &t->box };
}

static void system_free(struct test_system *t)
{
    free(t->type);
    free(t->m);
    free(t->q);
    free(t->x);
}

/* Squared minimum-image distance of particles i and j of t. */
static double image_r2(const struct test_system *t, size_t i, size_t j)
{
    double r2 = 0.0;

    for (int k = 0; k < 3; k++) {
        double d = t->x[3 * i + k] - t->x[3 * j + k];
        double l = t->box.hi[k] - t->box.lo[k];

        if (t->box.periodic[k])
            d -= l * round(d / l);
        r2 += d * d;
    }
    return r2;
}

/* Three types of random LJ sizes (mixed by Lorentz-Berthelot), charges
 * +-1 and ionic coefficients with cx = q_i q_j; the sigmoidal dielectric
 * a small positive cubic. */
static void random_potential(struct nb_md_potential *pot, enum nb_md_law law,
                             double cutoff, int shift, struct nb_rng *rng)
{
    const int count = 3;

    nb_md_potential_default(pot, law, count);
    for (int i = 0; i < count; i++) {
        pot->types.eps[i][i] = 0.5 + nb_rng_uniform(rng);
        pot->types.sigma[i][i] = 0.8 + 0.4 * nb_rng_uniform(rng);
        pot->types.charge[i] = i % 2 ? -1.0 : 1.0;
        pot->types.mass[i] = 0.5 + nb_rng_uniform(rng);
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    for (int i = 0; i < count; i++)
        for (int j = i; j < count; j++) {
            double c[3] = {pot->types.charge[i] * pot->types.charge[j],
                           0.5 + 0.5 * nb_rng_uniform(rng),
                           6.0 + 6.0 * nb_rng_uniform(rng)};
            memcpy(pot->types.ionic[i][j], c, sizeof c);
            memcpy(pot->types.ionic[j][i], c, sizeof c);
        }
    pot->dielectric = 1.5;
    pot->sigmoid[0] = 0.01;
    pot->sigmoid[1] = 0.05;
    pot->sigmoid[2] = 0.3;
    pot->sigmoid[3] = -0.2;
    pot->cutoff = cutoff;
    pot->shift = shift;
}

/* Box shapes the force tests cycle through. */
enum box_kind {
    BOX_PERIODIC,       /* periodic, 3, 3 and 4 cells */
    BOX_MIXED,          /* periodic x, y; open z with particles outside */
    BOX_OPEN,           /* open, particles also outside the box */
    BOX_OPEN_SMALL,     /* open, 1 and 2 cells per axis */
    BOX_KINDS
};
static const char *const box_names[BOX_KINDS] = {
    "periodic", "mixed", "open", "open-small"
};

/* n random particles of 3 types, no two closer than 0.75 (so that no LJ
 * pair term dwarfs the rest), masses and charges from the type table. */
static void random_system(struct test_system *t, size_t n, enum box_kind kind,
                          enum nb_md_law law, int shift, struct nb_rng *rng)
{
    const double rc = 2.5;
    static const double len[BOX_KINDS][3] = {
        {7.6, 8.3, 10.1}, {7.5, 9.9, 6.0}, {6.0, 8.0, 9.0}, {3.0, 5.5, 4.0}
    };
    double scale = cbrt(fmax(1.0, (double)n / (0.2 * len[kind][0] *
                                  len[kind][1] * len[kind][2])));

    system_alloc(t, n);
    random_potential(&t->pot, law, rc, shift, rng);
    for (int k = 0; k < 3; k++) {
        t->box.lo[k] = -0.5 * len[kind][k] * scale + 0.25 * k;
        t->box.hi[k] = t->box.lo[k] + len[kind][k] * scale;
        t->box.periodic[k] = kind == BOX_PERIODIC ||
                             (kind == BOX_MIXED && k < 2);
    }
    for (size_t i = 0; i < n; i++) {
        int tries = 0;
        double d2min;

        t->type[i] = 1 + (int)(nb_rng_next(rng) % 3);
        t->m[i] = t->pot.types.mass[t->type[i] - 1];
        t->q[i] = t->pot.types.charge[t->type[i] - 1];
        do {        /* random sequential addition */
            for (int k = 0; k < 3; k++) {
                double l = t->box.hi[k] - t->box.lo[k];
                double out = t->box.periodic[k] ? 0.0 : 0.2 * l;
                t->x[3 * i + k] = t->box.lo[k] - out +
                                  (l + 2.0 * out) * nb_rng_uniform(rng);
            }
            d2min = INFINITY;
            for (size_t j = 0; j < i; j++)
                d2min = fmin(d2min, image_r2(t, i, j));
        } while (d2min < 0.75 * 0.75 && ++tries < 1000);
        ck_assert_int_lt(tries, 1000);
    }
}

/* Per particle, sum_j |F_ij| and sum_j |u_ij| over the pairs inside the
 * cutoff: the scales that bound the rounding of f and pe. */
static void pair_scales(const struct test_system *t, double *fscale,
                        double *uscale)
{
    struct nb_md_pair_coeff coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double cshift, rc2 = t->pot.cutoff > 0 ? t->pot.cutoff * t->pot.cutoff
                                           : INFINITY;
    int count = t->pot.types.count;

    nb_md_pair_coeffs(&t->pot, coeff, &cshift);
    for (size_t i = 0; i < t->n; i++) {
        fscale[i] = uscale[i] = 0.0;
        for (size_t j = 0; j < t->n; j++) {
            double r2 = image_r2(t, i, j), fr, u;

            if (j == i || r2 >= rc2)
                continue;
            nb_md_pair(&t->pot, &coeff[(t->type[i] - 1) * count +
                                       t->type[j] - 1],
                       cshift, t->q[i] * t->q[j], r2, &fr, &u);
            fscale[i] += fabs(fr) * sqrt(r2);
            uscale[i] += fabs(u);
        }
    }
}

struct forces {
    double *f, *pe, *vir;
};

static struct forces forces_alloc(size_t n)
{
    struct forces r = {alloc_doubles(3 * n), alloc_doubles(n),
                       alloc_doubles(n)};
    return r;
}

static void forces_free(struct forces *r)
{
    free(r->f);
    free(r->pe);
    free(r->vir);
}

static void compute(struct test_system *t, int cell_list, struct forces *r)
{
    struct nb_error err = {NB_OK, ""};

    t->sys.cell_list = cell_list;
    ck_assert_msg(nb_md_cpu_forces(&t->sys, t->x, r->f, r->pe, r->vir, &err)
                  == NB_OK, "seed %llu: %s", (unsigned long long)run_seed,
                  err.message);
}

/* ---- force laws: hand values, gradients, shifts ------------------------- */

/* One pair of each law against values worked out by hand at r = 2 (r2 = 4):
 * LJ eps = sigma = 1: w12 = 4/4^6 = 2^-10, w6 = 4/4^3 = 2^-4, u = w12 - w6,
 * fr = (12 w12 - 6 w6)/r2 = -0.0908203125, all exact in binary.  The
 * Coulomb parts with q_i q_j = 2, D = 2: constant u_c = 2/(2*2) = 1/2,
 * fr_c = u_c/r2 = 1/8; linear u_c = 2/(2*4) = 1/4, fr_c = 2 u_c/r2 = 1/8;
 * sigmoidal with (a, b, c, d) = (0.1, -0.2, 0.3, 0.4): p(2) = 0.8 - 0.8 +
 * 0.6 + 0.4 = 1, p'(2) = 1.2 - 0.8 + 0.3 = 0.7, u_c = 2 e^-1 / 2 = e^-1,
 * fr_c = u_c (1/r + p')/r = 0.6 e^-1.  Ionic (cx, cy, cz) = (-2, 2, 4):
 * u = -2/2 + 2^4 2^-2 / 2 = 1, fr = -2/8 + 16/16 = 0.75. */
START_TEST(test_pair_hand_values)
{
    static const struct {
        enum nb_md_law law;
        double u, fr;
    } want[] = {
        {NB_LAW_LJ, 0x1p-10 - 0x1p-4, -0.0908203125},
        {NB_LAW_LJC_CONSTANT, 0x1p-10 - 0x1p-4 + 0.5, -0.0908203125 + 0.125},
        {NB_LAW_LJC_LINEAR, 0x1p-10 - 0x1p-4 + 0.25, -0.0908203125 + 0.125},
        {NB_LAW_LJC_SIGMOIDAL, 0x1p-10 - 0x1p-4 + 0.36787944117144233,
         -0.0908203125 + 0.6 * 0.36787944117144233},
        {NB_LAW_IONIC, 1.0, 0.75},
    };

    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        struct nb_md_potential pot;
        struct nb_md_pair_coeff c;
        double cshift, fr, u;

        nb_md_potential_default(&pot, want[k].law, 1);
        pot.dielectric = 2.0;
        pot.sigmoid[0] = 0.1;
        pot.sigmoid[1] = -0.2;
        pot.sigmoid[2] = 0.3;
        pot.sigmoid[3] = 0.4;
        pot.types.ionic[0][0][0] = -2.0;
        pot.types.ionic[0][0][1] = 2.0;
        pot.types.ionic[0][0][2] = 4.0;
        nb_md_pair_coeffs(&pot, &c, &cshift);
        ck_assert(c.c12 == 4.0 && c.c6 == 4.0 && c.u_shift == 0.0);
        ck_assert(cshift == 0.0);
        nb_md_pair(&pot, &c, cshift, 2.0, 4.0, &fr, &u);
        ck_assert_msg(fabs(u - want[k].u) <= 1e-15 * fabs(want[k].u) &&
                      fabs(fr - want[k].fr) <= 1e-15 * fabs(want[k].fr),
                      "%s: u %.17g (want %.17g), fr %.17g (want %.17g)",
                      nb_md_law_name(want[k].law), u, want[k].u, fr,
                      want[k].fr);
    }
}
END_TEST

/* The LJ minimum: at r = 2^(1/6) sigma the force vanishes and u = -eps. */
START_TEST(test_pair_lj_minimum)
{
    struct nb_md_potential pot;
    struct nb_md_pair_coeff c;
    double cshift, fr, u, rmin = pow(2.0, 1.0 / 6.0) * 1.7;

    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    pot.types.eps[0][0] = 0.6;
    pot.types.sigma[0][0] = 1.7;
    nb_md_pair_coeffs(&pot, &c, &cshift);
    ck_assert(fabs(c.c12 - 4.0 * 0.6 * pow(1.7, 12)) <= 1e-14 * c.c12);
    nb_md_pair(&pot, &c, cshift, 0.0, rmin * rmin, &fr, &u);
    ck_assert_msg(fabs(u + 0.6) <= 1e-14, "u(rmin) = %.17g", u);
    ck_assert_msg(fabs(fr) <= 1e-13, "fr(rmin) = %.17g", fr);
}
END_TEST

/* Every law's force is minus the derivative of its energy: fr r against
 * the five-point difference -(8 (u(r+h) - u(r-h)) - (u(r+2h) - u(r-2h)))
 * / 12h with h = 1e-4 r.  Its truncation error h^4 u^(5)/30 is ~1e-11
 * and its rounding ~1e-16 |terms| / h ~ 1e-11 of the force scale, the
 * sum of the magnitudes of the energy terms over r (so that a zero of
 * the force, as at the LJ minimum, has a sensible scale).  The bound 1e-8
 * of that scale leaves room, and still catches a wrong derivative (a
 * factor 2, a missing D'(r) term, a sign) by orders of magnitude.
 * Shifting changes u by a constant only: fr identical, u(rc) = 0. */
static double energy_at(const struct nb_md_potential *pot,
                        const struct nb_md_pair_coeff *c, double cs,
                        double qq, double r)
{
    double fr, u;

    nb_md_pair(pot, c, cs, qq, r * r, &fr, &u);
    return u;
}

/* Sum of the magnitudes of the energy terms at r, over r. */
static double term_scale(const struct nb_md_potential *pot,
                         const struct nb_md_pair_coeff *c, double qq, double r)
{
    double lj = c->c12 / pow(r, 12) + c->c6 / pow(r, 6);

    if (pot->law == NB_LAW_IONIC)
        return (fabs(c->cx) / r + c->a * pow(r, 2.0 - c->cz)) / r;
    return (lj + fabs(qq) / r) / r;     /* |u_c| <= |qq|/r for these D */
}

START_TEST(test_pair_gradient_and_shift)
{
    static const double radii[] = {0.85, 0.97, 1.12, 1.4, 1.9, 2.3, 2.49};
    struct nb_rng rng;
    uint64_t seed = test_seed(11);

    nb_rng_seed(&rng, seed);
    for (int law = 0; law < NB_LAW_COUNT; law++) {
        struct nb_md_potential pot, plain;
        struct nb_md_pair_coeff c[9], c0[9];
        double cs, cs0;

        random_potential(&pot, (enum nb_md_law)law, 2.5, 1, &rng);
        plain = pot;
        plain.shift = 0;
        nb_md_pair_coeffs(&pot, c, &cs);
        nb_md_pair_coeffs(&plain, c0, &cs0);
        ck_assert(cs0 == 0.0);
        ck_assert((cs != 0.0) == (law != NB_LAW_LJ && law != NB_LAW_IONIC));
        for (int p = 0; p < 9; p++) {
            double qq = pot.types.charge[p / 3] * pot.types.charge[p % 3];
            double fr, u, fr0, u0, rc = pot.cutoff;

            ck_assert(c[p].u_shift != 0.0 && c0[p].u_shift == 0.0);
            for (size_t k = 0; k < sizeof radii / sizeof *radii; k++) {
                double r = radii[k], h = 1e-4 * r, numeric, scale;

                nb_md_pair(&pot, &c[p], cs, qq, r * r, &fr, &u);
                nb_md_pair(&plain, &c0[p], cs0, qq, r * r, &fr0, &u0);
                ck_assert(fr == fr0);
                numeric = -(8.0 * (energy_at(&pot, &c[p], cs, qq, r + h) -
                                   energy_at(&pot, &c[p], cs, qq, r - h)) -
                            (energy_at(&pot, &c[p], cs, qq, r + 2 * h) -
                             energy_at(&pot, &c[p], cs, qq, r - 2 * h))) /
                          (12.0 * h);
                scale = term_scale(&pot, &c[p], qq, r);
                ck_assert_msg(fabs(fr * r - numeric) <= 1e-8 * scale,
                              "seed %llu, %s pair %d, r %g: F %.15g, -du/dr "
                              "%.15g", (unsigned long long)seed,
                              nb_md_law_name((enum nb_md_law)law), p, r,
                              fr * r, numeric);
            }
            /* u(rc) - u(rc) leaves rounding of the terms only. */
            nb_md_pair(&pot, &c[p], cs, qq, rc * rc, &fr, &u);
            nb_md_pair(&plain, &c0[p], cs0, qq, rc * rc, &fr0, &u0);
            ck_assert_msg(fabs(u) <= 1e-14 * (fabs(c[p].u_shift) +
                                              fabs(qq * cs) + fabs(u0)),
                          "%s pair %d: shifted u(rc) = %.3g (unshifted %.3g)",
                          nb_md_law_name((enum nb_md_law)law), p, u, u0);
        }
    }
}
END_TEST

START_TEST(test_law_names)
{
    struct nb_error err = {NB_OK, ""};
    enum nb_md_law law;

    for (int k = 0; k < NB_LAW_COUNT; k++) {
        ck_assert_int_eq(nb_md_law_parse(nb_md_law_name((enum nb_md_law)k),
                                         &law, &err), NB_OK);
        ck_assert_int_eq(law, k);
    }
    ck_assert_str_eq(nb_md_law_name(NB_LAW_LJC_LINEAR), "ljc-linear");
    ck_assert_int_eq(nb_md_law_parse("ljc", &law, &err), NB_ERR_ARGS);
    assert_message(&err, "unknown force law 'ljc'");
    assert_message(&err, "ljc-sigmoidal");
}
END_TEST

/* Mixing rules from the diagonal, and the defaults. */
START_TEST(test_potential_default_and_mix)
{
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};

    nb_md_potential_default(&pot, NB_LAW_IONIC, 2);
    ck_assert_int_eq(pot.types.count, 2);
    ck_assert(pot.types.mass[1] == 1.0 && pot.types.charge[1] == 0.0);
    ck_assert(pot.types.ionic[1][0][2] == 12.0 && pot.dielectric == 1.0);
    ck_assert(pot.sigmoid[2] == 1.0 && pot.cutoff == 0.0 && !pot.shift);
    ck_assert_int_eq(nb_md_potential_check(&pot, &err), NB_OK);
    pot.types.sigma[0][0] = 1.0;
    pot.types.sigma[1][1] = 4.0;
    pot.types.eps[0][0] = 2.0;
    pot.types.eps[1][1] = 8.0;
    nb_md_potential_mix(&pot, NB_MIX_ARITHMETIC);
    ck_assert(pot.types.sigma[0][1] == 2.5 && pot.types.sigma[1][0] == 2.5);
    ck_assert(pot.types.eps[0][1] == 4.0 && pot.types.eps[1][0] == 4.0);
    nb_md_potential_mix(&pot, NB_MIX_GEOMETRIC);
    ck_assert(pot.types.sigma[0][1] == 2.0 && pot.types.eps[1][0] == 4.0);
    ck_assert(pot.types.sigma[0][0] == 1.0 && pot.types.sigma[1][1] == 4.0);
}
END_TEST

/* ---- the CPU forces ----------------------------------------------------- */

static const size_t force_sizes[] = {1, 2, 3, 5, 17, 64, 97, 211};
#define FORCE_SIZES (sizeof force_sizes / sizeof *force_sizes)

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
    random_system(&t, n, kind, (enum nb_md_law)(_i % NB_LAW_COUNT), _i % 2,
                  &rng);
    all = forces_alloc(n);
    cells = forces_alloc(n);
    compute(&t, 0, &all);
    compute(&t, 1, &cells);
    pair_scales(&t, fscale, uscale);
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
        ck_assert_msg(total > 0.0, "no pair inside the cutoff");
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

/* ---- fcc lattice and LJ liquid ------------------------------------------ */

/* cells^3 fcc unit cells at density rho in the periodic box [0, L)^3, LJ
 * 1-1 with rc 2.5 shifted; Gaussian velocities of zero momentum scaled to
 * temperature temp (3n - 3 degrees of freedom). */
static void fcc_system(struct nb_particles *p, struct nb_md_potential *pot,
                       struct nb_md_box *box, int cells, double rho,
                       double temp, uint64_t seed)
{
    static const double basis[4][3] = {
        {0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}
    };
    struct nb_error err = {NB_OK, ""};
    size_t n = 4 * (size_t)cells * cells * cells, i = 0;
    double a = cbrt(4.0 / rho), mean[3] = {0, 0, 0}, ke = 0.0, scale;
    struct nb_rng rng;

    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    nb_rng_seed(&rng, seed);
    for (int cx = 0; cx < cells; cx++)
        for (int cy = 0; cy < cells; cy++)
            for (int cz = 0; cz < cells; cz++)
                for (int b = 0; b < 4; b++, i++) {
                    p->x[3 * i] = (cx + basis[b][0]) * a;
                    p->x[3 * i + 1] = (cy + basis[b][1]) * a;
                    p->x[3 * i + 2] = (cz + basis[b][2]) * a;
                    p->type[i] = 1;
                    p->m[i] = 1.0;
                    for (int k = 0; k < 3; k++) {
                        p->v[3 * i + k] = gaussian(&rng);
                        mean[k] += p->v[3 * i + k] / (double)n;
                    }
                }
    for (size_t k = 0; k < 3 * n; k++) {
        p->v[k] -= mean[k % 3];
        ke += 0.5 * p->v[k] * p->v[k];
    }
    scale = n > 1 ? sqrt(temp * (3.0 * (double)n - 3.0) / (2.0 * ke)) : 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        p->v[k] *= scale;
    nb_md_potential_default(pot, NB_LAW_LJ, 1);
    pot->cutoff = 2.5;
    pot->shift = 1;
    for (int k = 0; k < 3; k++) {
        box->lo[k] = 0.0;
        box->hi[k] = cells * a;
        box->periodic[k] = 1;
    }
}

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

/* What a run says about its energy: the largest |E - E0| / n and the mean
 * of (E - E0) / n over the second and the last quarter of the run. */
struct energy_record {
    double worst, q2, q4;
};

/* Runs steps of dt from the state of p, recording the total energy. */
static struct energy_record energy_run(const struct nb_particles *p,
                                       const struct nb_md_potential *pot,
                                       const struct nb_md_box *box, double dt,
                                       int steps)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_md_thermo th;
    struct energy_record rec = {0.0, 0.0, 0.0};
    double e0, quarter = steps / 4;

    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, p, pot, box, 0, dt, &e, &err), NB_OK);
    nb_md_thermo(&s, &th);
    e0 = th.etotal;
    for (int k = 1; k <= steps; k++) {
        double de;

        ck_assert_msg(nb_md_sim_advance(&s, 1, &err) == NB_OK, "%s",
                      err.message);
        nb_md_thermo(&s, &th);
        de = (th.etotal - e0) / (double)p->n;
        rec.worst = fmax(rec.worst, fabs(de));
        if (k > steps / 4 && k <= steps / 2)
            rec.q2 += de / quarter;
        if (k > steps - steps / 4)
            rec.q4 += de / quarter;
        for (int c = 0; c < 3; c++)     /* momentum stays zero */
            ck_assert_msg(fabs(th.p[c]) <= 1e-11, "p = %.3g", th.p[c]);
    }
    nb_md_sim_free(&s);
    e.destroy(e.state);
    return rec;
}

/* Melts the crystal of p: 100 steps of 0.005 (t = 0.5) on the CPU engine,
 * the state written back into p; returns the temperature reached. */
static double melt(struct nb_particles *p, const struct nb_md_potential *pot,
                   const struct nb_md_box *box)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_md_thermo th;

    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, p, pot, box, 0, 0.005, &e, &err),
                     NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&s, 100, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_sync(&s, &err), NB_OK);
    nb_md_thermo(&s, &th);
    memcpy(p->x, s.x, 3 * p->n * sizeof *p->x);
    memcpy(p->v, s.v, 3 * p->n * sizeof *p->v);
    nb_md_sim_free(&s);
    e.destroy(e.state);
    return th.temp;
}

/* The LJ liquid near its triple point: 256 atoms from an fcc crystal at
 * rho 0.8442 and T 1.44, which melts within t ~ 0.3 and settles near
 * T 0.72 (half the kinetic energy goes into the potential), rc 2.5
 * shifted, all pairs (L = 6.7 holds only 2 cells of 2.5).  Every run
 * below starts from the melted state at t = 0.5.
 *
 * Velocity Verlet is symplectic: it conserves a shadow Hamiltonian
 * H~ = H + O(dt^2) exactly, so E - E0 fluctuates with an amplitude
 * O(dt^2) and does not drift.  The shifted (not force-shifted) cutoff
 * leaves a force jump F(rc) = 0.039 that adds small kicks of random sign
 * as pairs cross rc: noise on top, no drift.  Measured over 30 seeds:
 *   - t = 0.25 at dt = 0.005 and 0.0025: max |E - E0|/n 1.4e-4 to
 *     5.9e-4, and 3.4 to 4.9 times less at half the step;
 *   - t = 1.5 at dt = 0.005: max |E - E0|/n 2.5e-4 to 5.9e-4, and the
 *     mean of (E - E0)/n over the last quarter within 8e-5 of that over
 *     the second quarter (the fluctuation, averaged over windows).
 * Asserted, with margins against those: the halving ratio in (2.8, 6.4)
 * (second order gives 4, an error of first order, such as a kick with
 * stale forces, 2); max |E - E0|/n < 2e-3 over t = 1.5; the quarter
 * means within 4e-4 (a drift of that size over t = 1 would be several
 * times the whole fluctuation); and 0.6 < T < 0.9 once melted
 * (equipartition from 1.44). */
START_TEST(test_energy_conservation)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct energy_record rec[3];
    uint64_t seed = test_seed(500);
    double temp;

    fcc_system(&p, &pot, &box, 4, 0.8442, 1.44, seed);
    temp = melt(&p, &pot, &box);
    ck_assert_msg(temp > 0.6 && temp < 0.9, "seed %llu: T %.3f after melting",
                  (unsigned long long)seed, temp);
    rec[0] = energy_run(&p, &pot, &box, 0.005, 50);
    rec[1] = energy_run(&p, &pot, &box, 0.0025, 100);
    rec[2] = energy_run(&p, &pot, &box, 0.005, 300);
    ck_assert_msg(rec[0].worst > 2.8 * rec[1].worst &&
                  rec[0].worst < 6.4 * rec[1].worst, "seed %llu: max |dE|/n "
                  "%.3g at dt 0.005, %.3g at 0.0025: not second order",
                  (unsigned long long)seed, rec[0].worst, rec[1].worst);
    ck_assert_msg(rec[2].worst < 2e-3, "seed %llu: max |dE|/n %.3g at dt "
                  "0.005", (unsigned long long)seed, rec[2].worst);
    ck_assert_msg(fabs(rec[2].q4 - rec[2].q2) < 4e-4, "seed %llu: mean dE/n "
                  "%.3g in the second quarter, %.3g in the last",
                  (unsigned long long)seed, rec[2].q2, rec[2].q4);
    nb_particles_free(&p);
}
END_TEST

/* Velocity Verlet is time-reversible: run forward, flip the velocities,
 * run back the same number of steps: the start comes back up to rounding
 * amplified by the chaos of the liquid (Lyapunov exponent ~5 per time
 * unit: 1e-16 e^(5*0.5) ~ 1e-15; 1e-9 is far from any real fault). */
START_TEST(test_time_reversible)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};
    double worst = 0.0;

    fcc_system(&p, &pot, &box, 3, 0.8442, 1.0, test_seed(600));
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 0.005, &e, &err),
                     NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&s, 100, &err), NB_OK);
    for (size_t k = 0; k < 3 * s.n; k++)
        s.v[k] = -s.v[k];
    ck_assert_int_eq(nb_md_sim_advance(&s, 100, &err), NB_OK);
    ck_assert_uint_eq(s.step, 200);
    for (size_t k = 0; k < 3 * s.n; k++) {
        double d = s.x[k] - p.x[k], l = box.hi[k % 3] - box.lo[k % 3];

        worst = fmax(worst, fabs(d - l * round(d / l)));
        worst = fmax(worst, fabs(s.v[k] + p.v[k]));
    }
    ck_assert_msg(worst < 1e-9, "returned within %.3g", worst);
    nb_md_sim_free(&s);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- velocity Verlet, wrapping, thermodynamics -------------------------- */

/* Allocates a typed particle set of n with masses 1. */
static void typed_particles(struct nb_particles *p, size_t n)
{
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        p->type[i] = 1;
        p->m[i] = 1.0;
    }
}

static void open_box(struct nb_md_box *box, double half)
{
    for (int k = 0; k < 3; k++) {
        box->lo[k] = -half;
        box->hi[k] = half;
        box->periodic[k] = 0;
    }
}

/* One step against seed 002 eqs. 7-8 written out: x1 = x0 + dt v0 +
 * dt^2/2 a0, v1 = v0 + dt/2 (a0 + a1), with a from the pair force. */
START_TEST(test_verlet_one_step)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};
    struct nb_md_pair_coeff c;
    const double dt = 0.01;
    double cs, fr, u, a0, a1, x0, v0, x1, v1;

    typed_particles(&p, 2);
    p.m[1] = 3.0;
    p.x[0] = -0.6;
    p.x[3] = 0.6;
    p.v[0] = 0.3;
    p.v[3] = -0.1;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, dt, &e, &err),
                     NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&s, 1, &err), NB_OK);

    nb_md_pair_coeffs(&pot, &c, &cs);
    nb_md_pair(&pot, &c, cs, 0.0, 1.2 * 1.2, &fr, &u);
    a0 = fr * -1.2;                             /* particle 0, mass 1 */
    x0 = -0.6 + dt * 0.3 + 0.5 * dt * dt * a0;
    x1 = 0.6 - dt * 0.1 - 0.5 * dt * dt * a0 / 3.0;
    nb_md_pair(&pot, &c, cs, 0.0, (x1 - x0) * (x1 - x0), &fr, &u);
    a1 = fr * (x0 - x1);
    v0 = 0.3 + 0.5 * dt * (a0 + a1);
    v1 = -0.1 - 0.5 * dt * (a0 + a1) / 3.0;
    ck_assert(fabs(s.x[0] - x0) <= 1e-15 && fabs(s.x[3] - x1) <= 1e-15);
    ck_assert_msg(fabs(s.v[0] - v0) <= 1e-14 && fabs(s.v[3] - v1) <= 1e-14,
                  "v %.17g %.17g, want %.17g %.17g", s.v[0], s.v[3], v0, v1);
    ck_assert(fabs(s.f[0] - a1) <= 1e-13 * fabs(a1));
    ck_assert(s.synced && s.step == 1);
    nb_md_sim_free(&s);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* A free particle crossing the periodic faces re-enters on the other side
 * (x stays in [lo, hi) and equals the unwrapped path modulo L), while an
 * open axis lets it leave. */
START_TEST(test_wrap_reenters)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};
    const double v[3] = {3.7, -2.9, 1.3};

    typed_particles(&p, 1);
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    pot.cutoff = 1.0;
    for (int k = 0; k < 3; k++) {
        box.lo[k] = -1.0;
        box.hi[k] = 1.5;
        box.periodic[k] = k < 2;
        p.x[k] = 1.4 - 2.2 * (k == 1) + 7.5 * (k == 0);    /* x outside */
        p.v[k] = v[k];
    }
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 0.01, &e, &err),
                     NB_OK);
    ck_assert(fabs(s.x[0] - 1.4) <= 1e-14);         /* wrapped at init */
    for (int step = 1; step <= 300; step++) {
        ck_assert_int_eq(nb_md_sim_advance(&s, 1, &err), NB_OK);
        for (int k = 0; k < 2; k++) {
            double path = (k ? -0.8 : 1.4) + v[k] * 0.01 * step;
            double d = s.x[k] - path;

            ck_assert(s.x[k] >= box.lo[k] && s.x[k] < box.hi[k]);
            ck_assert_msg(fabs(d - 2.5 * round(d / 2.5)) <= 1e-12,
                          "step %d axis %d: %.17g vs %.17g", step, k, s.x[k],
                          path);
        }
    }
    ck_assert(fabs(s.x[2] - (1.4 + 1.3 * 3.0)) <= 1e-12);   /* open: gone */
    nb_md_sim_free(&s);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* nb_md_box_wrap on its own: inside untouched bit for bit, far outside
 * folded, the rounding corners kept inside: one ulp below lo comes back
 * one ulp below hi, and -1e-300 (where s + L rounds to L) lands on lo. */
START_TEST(test_box_wrap)
{
    struct nb_md_box box = {{-1.0, 0.0, 10.0}, {1.0, 3.0, 20.0}, {1, 1, 0}};
    double x[] = {0.3, 1.0000000000000002, 25.0,
                  -1.0000000000000002, -1e-300, 5.0,
                  7.5, 3.0, 10.0,
                  -1.0, 2.999999999999999, 19.999};

    nb_md_box_wrap(&box, 4, x);
    ck_assert(x[0] == 0.3 && x[1] == 1.0000000000000002 && x[2] == 25.0);
    ck_assert(x[3] == 1.0 - 0x1p-52);
    ck_assert(x[4] == 0.0 && x[5] == 5.0);
    ck_assert(fabs(x[6] + 0.5) <= 1e-15 && x[7] == 0.0 && x[8] == 10.0);
    ck_assert(x[9] == -1.0 && x[10] == 2.999999999999999);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            ck_assert(x[3 * i + k] >= box.lo[k] && x[3 * i + k] < box.hi[k]);
}
END_TEST

/* Thermodynamics of two particles worked out by hand: masses 1 and 2 at
 * (0,0,0) and (2,0,0), v (1,0,0) and (0,1,0), LJ r = 2 in the open box
 * [-5,5]^3: ke = 1/2 + 1 = 1.5, temp = 2 ke/(3n-3) = 1, pe = 2^-10 - 2^-4,
 * W = r.F = fr r^2 = -0.36328125, press = (3 + W)/(3 * 1000), p = (1,2,0),
 * l = 2 (2,0,0) x (0,1,0) = (0,0,4), com = (4/3, 0, 0). */
START_TEST(test_thermo_two_body)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_md_thermo th;
    struct nb_error err = {NB_OK, ""};

    typed_particles(&p, 2);
    p.m[1] = 2.0;
    p.x[3] = 2.0;
    p.v[0] = 1.0;
    p.v[4] = 1.0;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 0.001, &e, &err),
                     NB_OK);
    nb_md_thermo(&s, &th);
    ck_assert(th.step == 0 && th.time == 0.0);
    ck_assert(th.ke == 1.5 && th.temp == 1.0);
    ck_assert(th.pe == 0x1p-10 - 0x1p-4 && th.etotal == 1.5 + th.pe);
    ck_assert(fabs(th.press - (3.0 - 0.36328125) / 3000.0) <= 1e-16);
    ck_assert(th.p[0] == 1.0 && th.p[1] == 2.0 && th.p[2] == 0.0);
    ck_assert(th.l[0] == 0.0 && th.l[1] == 0.0 && th.l[2] == 4.0);
    ck_assert(fabs(th.com[0] - 4.0 / 3.0) <= 1e-16 && th.com[1] == 0.0);
    ck_assert_int_eq(nb_md_sim_advance(&s, 10, &err), NB_OK);
    nb_md_thermo(&s, &th);
    ck_assert(th.step == 10 && fabs(th.time - 0.01) <= 1e-17);
    ck_assert(fabs(th.p[0] - 1.0) <= 1e-15 && fabs(th.p[1] - 2.0) <= 1e-15);
    /* A central force keeps l about the origin: d/dt sum x x m v = 0. */
    ck_assert(fabs(th.l[2] - 4.0) <= 1e-14);
    nb_md_sim_free(&s);
    e.destroy(e.state);
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

/* Two opposite charges, attraction only (ionic, cy = 0), at x = -+0.5 with
 * dt = 1: the first kick gives v = +-0.5, the drift lands both exactly on
 * 0.  Then a non-finite repulsion at init: (cy/r)^cz overflows. */
START_TEST(test_sim_breakdown)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};

    typed_particles(&p, 2);
    p.x[0] = -0.5;
    p.x[3] = 0.5;
    nb_md_potential_default(&pot, NB_LAW_IONIC, 1);
    pot.types.ionic[0][0][0] = -1.0;
    pot.types.ionic[0][0][1] = 0.0;
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1.0, &e, &err),
                     NB_OK);
    ck_assert_int_eq(nb_md_sim_advance(&s, 5, &err), NB_ERR_NUMERIC);
    assert_message(&err, "step 1: particles 0 and 1 are at the same point");
    ck_assert(!s.synced);
    ck_assert_int_eq(nb_md_sim_sync(&s, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_md_sim_advance(&s, 1, &err), NB_ERR_ARGS);
    assert_message(&err, "a failed step left the state half-updated");
    ck_assert_uint_eq(s.step, 0);
    nb_md_sim_free(&s);

    p.x[3] = -0.49;
    pot.types.ionic[0][0][1] = 1.0;
    pot.types.ionic[0][0][2] = 400.0;       /* (1/0.01)^400 = inf */
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_NUMERIC);
    assert_message(&err, "initial forces: particle 0 has a non-finite force");
    nb_md_sim_free(&s);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- refusals: boxes, systems, potentials, the coefficient file --------- */

START_TEST(test_box_check)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_md_box box = {{0, 0, 0}, {10, 5, 10}, {1, 1, 0}};

    ck_assert_int_eq(nb_md_box_check(&box, 2.5, &err), NB_OK);
    ck_assert_int_eq(nb_md_box_check(&box, 3.0, &err), NB_ERR_ARGS);
    ck_assert_str_eq(err.message, "cutoff 3 is larger than half the periodic "
                     "box along y (length 5)");
    ck_assert_int_eq(nb_md_box_check(&box, 0.0, &err), NB_ERR_ARGS);
    assert_message(&err, "a periodic box needs --cutoff");
    box.periodic[0] = box.periodic[1] = 0;
    ck_assert_int_eq(nb_md_box_check(&box, 0.0, &err), NB_OK);
    ck_assert_int_eq(nb_md_box_check(&box, 100.0, &err), NB_OK);   /* open */
    box.hi[2] = 0.0;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
    assert_message(&err, "box along z needs finite bounds lo < hi");
    box.hi[2] = 10.0;
    box.lo[0] = NAN;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
    assert_message(&err, "box along x");
    box.lo[0] = -INFINITY;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
}
END_TEST

/* Each case breaks one thing of a valid 4-particle, 2-type system. */
static const struct system_case {
    const char *reason;
} system_cases[] = {
    {"has type 3, outside the coefficient table's types 1..2"},
    {"has type 0, outside"},
    {"the mass must be a finite number > 0, not 0"},
    {"the charge must be finite"},
    {"cell lists need a cutoff"},
    {"cell lists need at least 3 cells of width >= the cutoff 2.5 along the "
     "periodic y axis"},
    {"cutoff 4 is larger than half the periodic box along x (length 7.5)"},
    {"sigma must be a finite number > 0, not 0"},
    {"eps must be a finite number >= 0, not -1"},
    {"the dielectric constant must be a finite number > 0"},
    {"cz > 2"},
    {"the type count must be 1..16, not 17"},
    {"the cutoff must be a finite number >= 0"},
    {"the pair tables must be symmetric"},
    {"an MD system needs at least one particle"},
    {"cell lists: the box holds"},
};

static void break_system(struct test_system *t, int which)
{
    switch (which) {
    case 0: t->type[2] = 3; break;
    case 1: t->type[0] = 0; break;
    case 2: t->m[1] = 0.0; break;
    case 3: t->q[3] = NAN; break;
    case 4: t->box.periodic[0] = t->box.periodic[1] = t->box.periodic[2] = 0;
            t->pot.cutoff = 0.0; break;
    case 5: t->box.hi[1] = 7.4; break;          /* 2 cells of 3.7 */
    case 6: t->pot.cutoff = 4.0; break;
    case 7: t->pot.types.sigma[1][1] = 0.0; break;
    case 8: t->pot.types.eps[0][1] = t->pot.types.eps[1][0] = -1.0; break;
    case 9: t->pot.dielectric = 0.0; break;
    case 10: t->pot.types.ionic[1][1][2] = 2.0; break;
    case 11: t->pot.types.count = 17; break;
    case 12: t->pot.cutoff = -1.0; break;
    case 13: t->pot.types.sigma[0][1] = 1.25; break;
    case 14: t->sys.n = 0; break;
    default: t->box.periodic[0] = t->box.periodic[1] = t->box.periodic[2] = 0;
             t->pot.cutoff = 1e-3; break;       /* 7.5e3^3 cells */
    }
}

START_TEST(test_system_check)
{
    struct test_system t;
    struct nb_error err = {NB_OK, ""};

    system_alloc(&t, 4);
    nb_md_potential_default(&t.pot, NB_LAW_LJC_LINEAR, 2);
    t.pot.cutoff = 2.5;
    for (int k = 0; k < 3; k++) {
        t.box.hi[k] = 7.5;
        t.box.periodic[k] = 1;
    }
    for (size_t i = 0; i < 4; i++) {
        t.type[i] = 1 + (int)(i % 2);
        t.m[i] = 1.0;
        t.x[3 * i] = 1.5 * (double)i;
    }
    t.sys.cell_list = 1;
    ck_assert_int_eq(nb_md_system_check(&t.sys, &err), NB_OK);
    break_system(&t, _i);
    ck_assert_int_eq(nb_md_system_check(&t.sys, &err), NB_ERR_ARGS);
    assert_message(&err, system_cases[_i].reason);
    system_free(&t);
}
END_TEST

/* A coefficient file and what reading it must say. */
static const struct coeff_case {
    const char *content;
    enum nb_status status;
    int line;               /* 0: no line in the message */
    const char *reason;
} coeff_cases[] = {
    {"types 2\nmass 1 1\nbond 1 2 3\n", NB_ERR_PARSE, 3,
     "unknown keyword 'bond' (known: types, mass, charge, lj, mix, ionic)"},
    {"# coeffs\n\nmass 1 2.0\ntypes 2\n", NB_ERR_PARSE, 3,
     "'mass' before the 'types' line"},
    {"types 2\nlj 1 2 1.0 x1\n", NB_ERR_PARSE, 2,
     "lj SIGMA: not a number: 'x1'"},
    {"types 2\ncharge 2 1e999\n", NB_ERR_PARSE, 2,
     "charge Q: out of range: '1e999' overflows a double"},
    {"types 2\nlj 1 3 1 1\n", NB_ERR_PARSE, 2,
     "lj J: out of range: '3' is outside 1..2"},
    {"types 2\nionic 0 1 1 1 12\n", NB_ERR_PARSE, 2,
     "ionic I: out of range: '0' is outside 1..2"},
    {"types 2\nmass 1.5 1\n", NB_ERR_PARSE, 2, "mass I: not an integer: '1.5'"},
    {"types 17\n", NB_ERR_PARSE, 1, "types T: out of range: '17' is outside 1..16"},
    {"types two\n", NB_ERR_PARSE, 1, "types T: not an integer: 'two'"},
    {"types 2\ntypes 3\n", NB_ERR_PARSE, 2,
     "'types' given twice (first on line 1)"},
    {"types 2\nlj 1 1 1\n", NB_ERR_PARSE, 2,
     "missing field: expected 5 fields (lj I J EPS SIGMA), found 4"},
    {"types 2\nmix lorentz\n", NB_ERR_PARSE, 2,
     "mix: 'lorentz' is not arithmetic or geometric"},
    {"types 2\nmass 2 -1\n", NB_ERR_PARSE, 2, "mass 2 must be > 0, not -1"},
    {"types 2\nlj 2 2 -0.5 1\n", NB_ERR_PARSE, 2, "EPS must be >= 0"},
    {"types 2\nionic 1 2 -2 1 2\n", NB_ERR_PARSE, 2, "CZ must be > 2"},
    {"types 1\nlj 1 1 1 1 1 1 1 1 1 1 1 1\n", NB_ERR_PARSE, 2, "found 13"},
    {"", NB_ERR_PARSE, 0, "no 'types T' line"},
    {"# only a comment\n", NB_ERR_PARSE, 0, "no 'types T' line"},
};

/* Writes content to a fresh temporary file; its name in path. */
static void temp_file(char *path, size_t size, const char *content)
{
    const char *base = getenv("TMPDIR");
    int fd;
    FILE *fp;

    snprintf(path, size, "%s/check_md.XXXXXX", base && *base ? base : "/tmp");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fp = fdopen(fd, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(content, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

START_TEST(test_coeff_file_bad)
{
    const struct coeff_case *c = &coeff_cases[_i];
    struct nb_md_potential pot, before;
    struct nb_error err = {NB_OK, ""};
    char path[1024], where[1100];

    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    before = pot;
    temp_file(path, sizeof path, c->content);
    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), c->status);
    if (c->line > 0)
        snprintf(where, sizeof where, "%s:%d:", path, c->line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    ck_assert_msg(strncmp(err.message, where, strlen(where)) == 0,
                  "case %d: message '%s' does not start with '%s'", _i,
                  err.message, where);
    assert_message(&err, c->reason);
    ck_assert(memcmp(&pot, &before, sizeof pot) == 0);  /* untouched */
    unlink(path);
}
END_TEST

START_TEST(test_coeff_file_good)
{
    static const char content[] =
        "# two ions and a solvent\n"
        "types 3   # numbered 1..3 as in LAMMPS\n"
        "mass 1 2.5\n"
        "charge 1 2\n"
        "charge 2 -1\r\n"
        "lj 1 1 1.0 1.0\n"
        "lj 2 2 4.0 3.0\n"
        "lj 3 3 9.0 2.0\n"
        "lj 3 1 0.5 7.0    # given: not mixed\n"
        "mix arithmetic\n"
        "ionic 2 1 -2 0.5 10\n";
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};
    char path[1024];
    const struct nb_md_types *t = &pot.types;

    nb_md_potential_default(&pot, NB_LAW_IONIC, 1);
    pot.cutoff = 3.0;
    temp_file(path, sizeof path, content);
    ck_assert_msg(nb_md_types_read(path, &pot, &err) == NB_OK, "%s",
                  err.message);
    ck_assert(pot.law == NB_LAW_IONIC && pot.cutoff == 3.0);   /* untouched */
    ck_assert_int_eq(t->count, 3);
    ck_assert(t->mass[0] == 2.5 && t->mass[1] == 1.0);
    ck_assert(t->charge[0] == 2.0 && t->charge[1] == -1.0 &&
              t->charge[2] == 0.0);
    ck_assert(t->sigma[0][1] == 2.0 && t->eps[1][0] == 2.0);   /* mixed */
    ck_assert(t->sigma[1][2] == 2.5 && t->eps[2][1] == 6.0);
    ck_assert(t->sigma[0][2] == 7.0 && t->eps[2][0] == 0.5);   /* given */
    ck_assert(t->ionic[0][1][0] == -2.0 && t->ionic[1][0][2] == 10.0);
    ck_assert(t->ionic[0][0][2] == 12.0 && t->ionic[2][2][1] == 0.0);
    ck_assert_int_eq(nb_md_potential_check(&pot, &err), NB_OK);
    unlink(path);

    /* Without a mix line the pairs are mixed geometrically (LAMMPS). */
    temp_file(path, sizeof path, "types 2\nlj 1 1 1 1\nlj 2 2 4 4\n");
    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), NB_OK);
    ck_assert(t->sigma[0][1] == 2.0 && t->eps[0][1] == 2.0);
    unlink(path);

    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), NB_ERR_IO);
    assert_message(&err, path);
    assert_message(&err, "cannot open");
}
END_TEST

START_TEST(test_sim_init_refusals)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};

    typed_particles(&p, 3);
    p.x[3] = 1.5;
    p.x[6] = 3.0;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 0.0, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "time step must be a finite number > 0");
    nb_md_sim_free(&s);
    p.v[4] = INFINITY;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "particle 1 (index 1) has a non-finite");
    nb_md_sim_free(&s);
    p.v[4] = 0.0;
    p.type[2] = 2;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "particle 2 has type 2");
    nb_md_sim_free(&s);
    p.type[2] = 1;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 1, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "cell lists need a cutoff");
    nb_md_sim_free(&s);
    free(p.type);
    p.type = NULL;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "needs particle types");
    nb_md_sim_free(&s);
    ck_assert_ptr_null(s.x);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* Charges come from the particles where they have them, else from the
 * type table: an LJC pair's energy shows which. */
START_TEST(test_sim_charges)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_md_thermo th;
    struct nb_error err = {NB_OK, ""};

    typed_particles(&p, 2);
    p.type[1] = 2;
    p.x[3] = 2.0;
    nb_md_potential_default(&pot, NB_LAW_LJC_CONSTANT, 2);
    pot.types.eps[0][0] = pot.types.eps[1][1] = 0.0;
    nb_md_potential_mix(&pot, NB_MIX_GEOMETRIC);
    pot.types.charge[0] = 1.0;
    pot.types.charge[1] = -3.0;
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_OK);
    nb_md_thermo(&s, &th);
    ck_assert(th.pe == -1.5);                   /* 1 * -3 / 2 */
    ck_assert(s.q[0] == 1.0 && s.q[1] == -3.0);
    nb_md_sim_free(&s);
    ck_assert_int_eq(nb_particles_add_charges(&p, &err), NB_OK);
    p.q[0] = 0.5;
    p.q[1] = 0.5;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_OK);
    nb_md_thermo(&s, &th);
    ck_assert(th.pe == 0.125);                  /* 0.25 / 2 */
    nb_md_sim_free(&s);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

/* Exclusions ('exclude afterwards'): three particles, the pair 0-1
 * excluded: what is left is exactly the pairs 0-2 and 1-2, for the forces,
 * energies and virials; a sim with the exclusion integrates on the host. */
START_TEST(test_excluded_pairs_subtracted)
{
    struct nb_particles p = { 0 };
    struct nb_md_potential pot;
    struct nb_md_box box = { { -5, -5, -5 }, { 5, 5, 5 }, { 0, 0, 0 } };
    struct nb_md_pair_coeff c;
    struct nb_error err = { 0 };
    struct nb_md_sim sim;
    struct nb_md_engine e;
    const uint32_t pair[2] = { 1, 0 };
    double f[9], pe[3], vir[3], cshift, want_f[9] = { 0 }, want_pe[3] = { 0 };
    const double x[9] = { 0, 0, 0, 1.1, 0.1, 0, 0.3, 1.2, -0.2 };

    ck_assert_int_eq(nb_particles_alloc(&p, 3, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(&p, &err), NB_OK);
    memcpy(p.x, x, sizeof x);
    for (int i = 0; i < 3; i++) {
        p.type[i] = 1;
        p.m[i] = 1.0;
    }
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    nb_md_pair_coeffs(&pot, &c, &cshift);
    for (int i = 0; i < 2; i++) {                   /* the pairs i-2 */
        double d[3], r2 = 0.0, fr, u;
        for (int a = 0; a < 3; a++) {
            d[a] = x[3 * i + a] - x[6 + a];
            r2 += d[a] * d[a];
        }
        nb_md_pair(&pot, &c, cshift, 0.0, r2, &fr, &u);
        for (int a = 0; a < 3; a++) {
            want_f[3 * i + a] += fr * d[a];
            want_f[6 + a] -= fr * d[a];
        }
        want_pe[i] += 0.5 * u;
        want_pe[2] += 0.5 * u;
    }
    struct nb_md_system sys = { .n = 3, .type = p.type, .m = p.m, .pot = &pot, .box = &box,
                                .n_excluded = 1, .excluded = pair };
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_OK);
    ck_assert_int_eq(nb_md_cpu_forces(&sys, x, f, pe, vir, &err), NB_OK);
    nb_md_subtract_excluded(&sys, x, f, pe, vir);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(f[k], want_f[k], 1e-12 * (1.0 + fabs(want_f[k])));
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(pe[k], want_pe[k], 1e-12 * (1.0 + fabs(want_pe[k])));

    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init_excluding(&sim, &p, &pot, &box, 0, 0.001, &e, 1, pair,
                                              &err), NB_OK);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(sim.f[k], want_f[k], 1e-12 * (1.0 + fabs(want_f[k])));
    ck_assert_int_eq(nb_md_sim_advance(&sim, 5, &err), NB_OK);
    nb_md_sim_free(&sim);
    const uint32_t self[2] = { 2, 2 }, beyond[2] = { 0, 3 };
    sys.excluded = self;
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "excluded pair") != NULL, "%s", err.message);
    sys.excluded = beyond;
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_ERR_ARGS);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

static Suite *md_suite(void)
{
    Suite *s = suite_create("md");
    TCase *laws = tcase_create("laws");
    TCase *forces = tcase_create("forces");
    TCase *dynamics = tcase_create("dynamics");
    TCase *checks = tcase_create("checks");

    tcase_add_test(laws, test_pair_hand_values);
    tcase_add_test(laws, test_pair_lj_minimum);
    tcase_add_test(laws, test_pair_gradient_and_shift);
    tcase_add_test(laws, test_law_names);
    tcase_add_test(laws, test_potential_default_and_mix);
    suite_add_tcase(s, laws);

    tcase_set_timeout(forces, 120);     /* generous for valgrind runs */
    tcase_add_loop_test(forces, test_cells_vs_all_pairs, 0,
                        (int)(FORCE_SIZES * BOX_KINDS));
    tcase_add_loop_test(forces, test_momentum_conserved, 0, 2 * NB_LAW_COUNT);
    tcase_add_loop_test(forces, test_system_gradient, 0, 2 * NB_LAW_COUNT);
    tcase_add_test(forces, test_thread_independent);
    tcase_add_test(forces, test_minimum_image);
    tcase_add_test(forces, test_coincident);
    tcase_add_test(forces, test_fcc_lattice_balanced);
    tcase_add_test(forces, test_engine_cpu);
    suite_add_tcase(s, forces);

    tcase_set_timeout(dynamics, 120);
    tcase_add_test(dynamics, test_verlet_one_step);
    tcase_add_test(dynamics, test_wrap_reenters);
    tcase_add_test(dynamics, test_box_wrap);
    tcase_add_test(dynamics, test_thermo_two_body);
    tcase_add_test(dynamics, test_sim_charges);
    tcase_add_test(dynamics, test_sim_breakdown);
    tcase_add_test(dynamics, test_energy_conservation);
    tcase_add_test(dynamics, test_time_reversible);
    suite_add_tcase(s, dynamics);

    tcase_add_test(checks, test_box_check);
    tcase_add_loop_test(checks, test_system_check, 0,
                        (int)(sizeof system_cases / sizeof *system_cases));
    tcase_add_loop_test(checks, test_coeff_file_bad, 0,
                        (int)(sizeof coeff_cases / sizeof *coeff_cases));
    tcase_add_test(checks, test_coeff_file_good);
    tcase_add_test(checks, test_sim_init_refusals);
    tcase_add_test(checks, test_excluded_pairs_subtracted);
    suite_add_tcase(s, checks);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(md_suite());
    int failed;

    run_seed = fresh_seed();
    printf("check_md: seed %llu (NB_TEST_SEED=%llu replays this run)\n",
           (unsigned long long)run_seed, (unsigned long long)run_seed);
    fflush(stdout);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
