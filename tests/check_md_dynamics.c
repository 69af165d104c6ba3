/* check_md_dynamics.c - velocity Verlet on the host: one step written
 * out, wrapping through periodic faces, two-body thermodynamics, charges
 * and a breakdown in a sim, energy conservation of the LJ liquid and time
 * reversibility.  No GL; the random inputs replay with NB_TEST_SEED. */
#include "md_host_fixtures.h"

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

static Suite *md_dynamics_suite(void)
{
    Suite *s = suite_create("md_dynamics");
    TCase *tc = tcase_create("dynamics");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_verlet_one_step);
    tcase_add_test(tc, test_wrap_reenters);
    tcase_add_test(tc, test_box_wrap);
    tcase_add_test(tc, test_thermo_two_body);
    tcase_add_test(tc, test_sim_charges);
    tcase_add_test(tc, test_sim_breakdown);
    tcase_add_test(tc, test_energy_conservation);
    tcase_add_test(tc, test_time_reversible);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_md_host_suite("check_md_dynamics", md_dynamics_suite());
}
