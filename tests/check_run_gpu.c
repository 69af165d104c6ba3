/* check_run_gpu.c - the Hermite runs of check_run on the compute and
 * fragment backends (single precision: looser bounds, argued where they
 * are set), device-resident prediction, and nb_potential_energy on them.
 * Each GPU test makes its own GL context inside its forked test process. */
#include <check.h>

#include <math.h>
#include <string.h>
#include <time.h>

#include "gl_probe.h"
#include "run_fixtures.h"

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

/* Blocks in pieces on the compute backend (the host corrects piece k
 * while the GPU computes the rest) against whole blocks, with host and
 * device prediction: the same trajectory up to float rounding (a piece
 * sums its j-slices in other groups), bound 1e-4 on positions at
 * t = 0.0625 as above, the same energy within 1e-5.  N = 1031 (prime),
 * five pieces a block (forced: a block of 64 or fewer stays whole). */
START_TEST(test_pieces_vs_whole)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct run whole, cut;
    make_plummer(&p, 1031, 17);
    par.predict = _i ? NB_PREDICT_GPU : NB_PREDICT_HOST;
    struct nb_gl *gl = gl_open();
    run_start_gl(&whole, "compute", &p, &par, gl);
    run_start_gl(&cut, "compute", &p, &par, gl);
    setenv("GLNBODY_BLOCK_PIECES", "1", 1);
    advance_to(&whole, 0.0625);
    setenv("GLNBODY_BLOCK_PIECES", "5", 1);
    advance_to(&cut, 0.0625);
    unsetenv("GLNBODY_BLOCK_PIECES");
    double dmax = 0.0, e0 = energy(p.n, p.m, p.x, p.v, 0.01);
    for (size_t k = 0; k < 3 * p.n; k++)
        dmax = fmax(dmax, fabs(whole.x[k] - cut.x[k]));
    ck_assert_msg(dmax <= 1e-4, "predict %d: whole blocks and pieces differ by %.3e", _i,
                  dmax);
    ck_assert(fabs(run_energy(&cut) / e0 - 1) <= 1e-5);
    ck_assert_msg(cut.s.stats.block_steps > 10 && cut.s.stats.t_force > 0.0,
                  "%llu block steps, t_force %g", (unsigned long long)cut.s.stats.block_steps,
                  cut.s.stats.t_force);
    run_end(&whole);
    run_end(&cut);
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

/* ---- the corrector on the device (--correct gpu) ------------------------- */

/* The host's corrector and the device's (correct.comp) on one compute
 * backend, both with device prediction: the same double operations on the
 * same float forces, so the same blocks and steps, and positions equal to
 * rounding (bit for bit on llvmpipe; 1e-12 leaves room for a GPU whose
 * double division or square root is not correctly rounded).  N = 1, 2, 3,
 * 97 and 1031 (primes and the smallest), to t = 0.25: two blocks of
 * everyone (t = 0.125, 0.25), whose potential energies the device path
 * takes from its records; the state read between them (advance_to's
 * prediction) syncs the host's copy.  The device's force passes run as
 * correct.comp planned them (gaj_planned.c); the last two runs aim them
 * at 3 and at 1 work group (GLNBODY_GAJ_FILL_GROUPS), so that a j-slice
 * holds several of N = 1031's five tiles, or all of them. */
START_TEST(test_correct_on_device)
{
    static const size_t sizes[] = { 1, 2, 3, 97, 1031, 1031, 1031 };
    static const char *fill[] = { NULL, NULL, NULL, NULL, NULL, "3", "1" };
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct run host, dev;
    if (fill[_i])
        setenv("GLNBODY_GAJ_FILL_GROUPS", fill[_i], 1);
    make_plummer_or_pair(&p, sizes[_i], 29);
    par.predict = NB_PREDICT_GPU;
    struct nb_gl *gl = gl_open();
    run_start_gl(&host, "compute", &p, &par, gl);
    par.correct_gpu = 1;
    run_start_gl(&dev, "compute", &p, &par, gl);
    for (double t = 0.0625; t <= 0.25; t += 0.0625) {
        advance_to(&host, t);
        advance_to(&dev, t);
        double dmax = 0.0;
        for (size_t k = 0; k < 3 * p.n; k++)
            dmax = fmax(dmax, fmax(fabs(host.x[k] - dev.x[k]), fabs(host.v[k] - dev.v[k])));
        ck_assert_msg(dmax <= 1e-12, "n %zu, t %g: host and device corrector differ by "
                      "%.3e", p.n, t, dmax);
        ck_assert_uint_eq(host.s.stats.particle_steps, dev.s.stats.particle_steps);
        ck_assert_uint_eq(host.s.stats.block_steps, dev.s.stats.block_steps);
        for (size_t i = 0; i < p.n; i++)
            ck_assert_msg(host.s.dt[i] == dev.s.dt[i] && host.s.t0[i] == dev.s.t0[i],
                          "n %zu, particle %zu: step %g at %g against %g at %g", p.n, i,
                          host.s.dt[i], host.s.t0[i], dev.s.dt[i], dev.s.t0[i]);
    }
    ck_assert(dev.s.sync_t == 0.25 && host.s.sync_t == 0.25);
    ck_assert_msg(fabs(dev.s.sync_epot - host.s.sync_epot) <= 1e-12 * fabs(host.s.sync_epot),
                  "W at t = 0.25: %.17g against %.17g", dev.s.sync_epot, host.s.sync_epot);
    run_end(&host);
    run_end(&dev);
    nb_gl_destroy(gl);
    nb_particles_free(&p);
    unsetenv("GLNBODY_GAJ_FILL_GROUPS");
}
END_TEST

/* A device state made bad on purpose (read_corrected, changed,
 * load_corrector): a NaN velocity, which the forces spread to every
 * particle (the first of the block is named, as the host corrector names
 * it), or an old acceleration of 1e20 for particle 41 alone, for which
 * eq. 9 asks a step below 2^-40 (far away, it pulls the others by
 * nothing).  The run stops with the host corrector's messages. */
START_TEST(test_correct_bad_records)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct nb_error err = { 0 };
    struct run r;
    size_t n = 97, bad = 41;
    make_plummer(&p, n, 31);
    par.predict = NB_PREDICT_GPU;
    par.correct_gpu = 1;
    run_start(&r, "compute", &p, &par);
    double *st3[7];             /* x, v, a, jerk, a2, a3, t0 */
    for (int q = 0; q < 7; q++)
        ck_assert(st3[q] = calloc(3 * n, sizeof(double)));
    uint8_t *level = calloc(n, 1);
    ck_assert(level);
    ck_assert_int_eq(r.b.read_corrected(r.b.state, st3[0], st3[1], st3[2], st3[3], st3[4],
                                        st3[5], st3[6], level, &err), NB_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(level[i], nb_step_level(r.s.dt[i]));
    if (_i == 0)
        st3[1][3 * bad + 1] = NAN;
    else
        st3[2][3 * bad] = 1e20;
    ck_assert_int_eq(r.b.load_corrector(r.b.state, st3[1], st3[2], st3[3], st3[4], st3[5],
                                        level, &err), NB_OK);
    enum nb_status st = NB_OK;
    while (st == NB_OK && r.s.t < 0.25)
        st = nb_sim_step(&r.s, &err);
    ck_assert_int_eq(st, NB_ERR_NUMERIC);
    ck_assert_msg(_i == 0 ? strstr(err.message, "non-finite position") != NULL
                          : strstr(err.message, "(index 41)") &&
                            strstr(err.message, "below the floor"), "%s", err.message);
    for (int q = 0; q < 7; q++)
        free(st3[q]);
    free(level);
    run_end(&r);
    nb_particles_free(&p);
}
END_TEST

/* The block found on the device (find_block.comp) against the levels
 * themselves: particles at rest at t0 = 0 with steps of level 31 to 39,
 * and about one in a thousand (and the first and last) of level 30, whose
 * step 2^-10 ends first.  At t1 = 2^-10, find_block, compute_gaj and
 * correct_block must correct exactly those of level 30 (their t0 becomes
 * t1, every other t0 stays 0) and report counts of the levels that match
 * the levels read back.  N = 1, 2, 3, 97 and 70001: the last in 274
 * chunks, so that each chunk sums the counts of more chunks than its work
 * group has invocations. */
/* n particles at rest, uniform in the unit cube, masses 1 / n: what the
 * block search sees is the levels alone, and a Plummer sphere of 70001
 * would cost its O(n^2) scaling to Henon units for nothing. */
static void make_cube_at_rest(struct nb_particles *p, size_t n, uint64_t seed)
{
    struct nb_error err = { 0 };
    struct nb_rng rng;
    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    nb_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        p->m[i] = 1.0 / (double)n;
        for (int c = 0; c < 3; c++) {
            p->x[3 * i + c] = nb_rng_uniform(&rng) - 0.5;
            p->v[3 * i + c] = 0.0;
        }
    }
}

START_TEST(test_find_block_on_device)
{
    static const size_t sizes[] = { 1, 2, 3, 97, 70001 };
    struct nb_particles p;
    struct nb_error err = { 0 };
    struct nb_force_backend b;
    struct nb_block_report rep;
    struct nb_rng rng;
    size_t n = sizes[_i], due_count = 0;
    uint64_t seed = (uint64_t)time(NULL) + _i;
    make_cube_at_rest(&p, n, 37);
    nb_rng_seed(&rng, seed);
    double *zero = calloc(3 * n, sizeof(double)), *st[7];
    uint8_t *level = calloc(n, 1), *back = calloc(n, 1);
    for (int q = 0; q < 7; q++)
        ck_assert(st[q] = calloc(3 * n, sizeof(double)));
    ck_assert(zero && level && back);
    for (size_t i = 0; i < n; i++) {
        level[i] = (uint8_t)(31 + (int)(nb_rng_uniform(&rng) * 9));
        if (i == 0 || i == n - 1 || nb_rng_uniform(&rng) < 0.001)
            level[i] = 30;
        due_count += level[i] == 30;
    }
    struct nb_gl *gl = gl_open();
    ck_assert_int_eq(nb_backend_create(&b, "compute", gl, &err), NB_OK);
    ck_assert_msg(b.load_state(b.state, n, p.x, p.v, zero, zero, zero, p.m, &err) ==
                  NB_OK &&
                  b.load_corrector(b.state, p.v, zero, zero, zero, zero, level, &err) ==
                  NB_OK && b.predict_j(b.state, 0x1p-10, &err) == NB_OK &&
                  b.find_block(b.state, 30, due_count, &err) == NB_OK &&
                  b.compute_gaj(b.state, 0.01, due_count, NULL, &err) == NB_OK &&
                  b.correct_block(b.state, 0x1p-10, 0.02, 0.125, &rep, st[6], st[6] + n,
                                  &err) == NB_OK, "seed %llu: %s",
                  (unsigned long long)seed, err.message);
    ck_assert_msg(rep.bad == due_count && rep.small == due_count, "seed %llu: slots %zu "
                  "and %zu failed", (unsigned long long)seed, rep.bad, rep.small);
    ck_assert_int_eq(b.read_corrected(b.state, st[0], st[1], st[2], st[3], st[4], st[5],
                                      st[6], back, &err), NB_OK);
    uint32_t counts[NB_BLOCK_LEVELS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(st[6][i] == (level[i] == 30 ? 0x1p-10 : 0.0), "seed %llu: particle "
                      "%zu of level %d: t0 %g", (unsigned long long)seed, i, level[i],
                      st[6][i]);
        ck_assert(level[i] == 30 || back[i] == level[i]);
        counts[back[i]]++;
    }
    ck_assert(memcmp(counts, rep.level_count, sizeof counts) == 0);
    for (int q = 0; q < 7; q++)
        free(st[q]);
    free(zero), free(level), free(back);
    b.destroy(b.state);
    nb_gl_destroy(gl);
    nb_particles_free(&p);
}
END_TEST

/* What the corrector on the device needs: the device prediction,
 * individual steps, a backend with one (compute), and precision A. */
START_TEST(test_correct_refusals)
{
    struct nb_particles p;
    struct nb_sim_params par = params(0.01, 0.01);
    struct nb_error err = { 0 };
    struct nb_force_backend b;
    struct nb_sim s;
    struct nb_gl *gl = gl_open();
    make_plummer(&p, 16, 3);
    par.correct_gpu = 1;
    static const struct { const char *backend; int predict, shared; const char *why; } c[] = {
        { "compute", 0, 0, "needs --predict gpu" }, { "compute", 1, 1, "--shared-dt" },
        { "fragment", 1, 0, "no corrector" }, { "cpu", 1, 0, "load_state" } };
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        ck_assert_int_eq(nb_backend_create(&b, c[k].backend, gl, &err), NB_OK);
        par.predict = c[k].predict ? NB_PREDICT_GPU : NB_PREDICT_HOST;
        par.shared_dt = c[k].shared;
        ck_assert_int_eq(nb_sim_init(&s, &p, &par, &b, &err), NB_ERR_ARGS);
        ck_assert_msg(strstr(err.message, c[k].why), "%s: %s", c[k].why, err.message);
        nb_sim_free(&s);
        b.destroy(b.state);
    }
    par.predict = NB_PREDICT_GPU;
    par.shared_dt = 0;
    ck_assert_int_eq(nb_backend_create(&b, "compute", gl, &err), NB_OK);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_B, &err), NB_OK);
    ck_assert_int_ne(nb_sim_init(&s, &p, &par, &b, &err), NB_OK);
    ck_assert_msg(strstr(err.message, "precision A"), "%s", err.message);
    nb_sim_free(&s);
    b.destroy(b.state);
    nb_gl_destroy(gl);
    nb_particles_free(&p);
}
END_TEST

/* ---- the suite ----------------------------------------------------------- */

static Suite *run_gpu_suite(void)
{
    Suite *s = suite_create("run_gpu");
    TCase *tc;

    tc = tcase_create("gpu");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_kepler_gpu, 0, COUNT(gpu_backends));
    tcase_add_loop_test(tc, test_plummer_gpu, 0, 4);
    tcase_add_loop_test(tc, test_predict_host_vs_gpu, 0, COUNT(gpu_backends));
    tcase_add_loop_test(tc, test_pieces_vs_whole, 0, 2);
    tcase_add_loop_test(tc, test_potential_energy, 0, COUNT(gpu_backends));
    tcase_add_loop_test(tc, test_correct_on_device, 0, 7);
    tcase_add_loop_test(tc, test_correct_bad_records, 0, 2);
    tcase_add_loop_test(tc, test_find_block_on_device, 0, 5);
    tcase_add_test(tc, test_correct_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (!gl_context_available("check_run_gpu"))
        return NB_TEST_SKIPPED;
    SRunner *sr = srunner_create(run_gpu_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
