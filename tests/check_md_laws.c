/* check_md_laws.c - the MD force laws on their own: one pair against
 * values worked out by hand, the LJ minimum, force = -dU/dr and the
 * shifts, the law names, the default potential and the mixing rules.
 * No GL; the random inputs replay with NB_TEST_SEED. */
#include "md_host_fixtures.h"

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

static Suite *md_laws_suite(void)
{
    Suite *s = suite_create("md_laws");
    TCase *tc = tcase_create("laws");

    tcase_add_test(tc, test_pair_hand_values);
    tcase_add_test(tc, test_pair_lj_minimum);
    tcase_add_test(tc, test_pair_gradient_and_shift);
    tcase_add_test(tc, test_law_names);
    tcase_add_test(tc, test_potential_default_and_mix);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_md_host_suite("check_md_laws", md_laws_suite());
}
