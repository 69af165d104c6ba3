/* check_levels.c - the stream path below OpenGL 4.3: the fragment kernels
 * (GA, GAJ, the device-resident Hermite state with predict, scatter and
 * gather, the MD engine, the accumulation modes that need only 32-bit
 * integers) on OpenGL 3.3 core and OpenGL ES 3.0/3.1, the compute GA and
 * GAJ kernels on ES 3.1, and the refusals of what a level lacks.
 *
 * The suite runs itself once per level, each run in a fresh process with
 * the environment that makes Mesa offer that level (the variables must be
 * set before EGL loads the driver):
 *   softpipe (GALLIUM_DRIVER=softpipe): OpenGL 3.3 core, OpenGL ES 3.1;
 *   llvmpipe held to 4.1 (MESA_GL_VERSION_OVERRIDE=4.1, MESA_GLSL_VERSION_
 *   OVERRIDE=410: macOS's ceiling) and to ES 3.0 (MESA_GLES_VERSION_
 *   OVERRIDE=3.0).
 * NB_TEST_LEVELS="gl:3.3,gles:3.2" replaces the list by explicit requests
 * (NVIDIA's driver gives exactly the version asked for).  A level whose
 * driver is not there (no softpipe) is skipped and said so.
 *
 * Bounds are those of check_gpu (|da| <= 1e-5 sum_j |a_ij|, f_err <= 1e-6,
 * GAJ's jerk against sum_j m_j (|v|/r^3 + 3|r.v|/r^4)), check_md_fragment
 * (1e-5 of the pair-term magnitudes) and check_precision (modes C..F).
 * Sizes stay small (softpipe is an interpreter): 1, 2, 3 and primes.
 * NB_TEST_SEED=S replays a failing run. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gl_probe.h"
#include "nb_gl.h"
#include "ga_fixtures.h"
#include "gaj_check.h"
#include "md_fixtures.h"

#define TOLERANCE 1e-5
#define F_ERR_MAX 1e-6
#define EPS 0.01
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static struct nb_gl_info info;
static uint64_t seed;

/* ---- the levels --------------------------------------------------------- */

struct level {
    const char *name, *api, *version;   /* version NULL: the driver's highest */
    const char *env[2];                 /* NAME=VALUE */
    const char *renderer;               /* GL_RENDERER must contain it */
    int es, major, minor;               /* the level expected */
};

static const struct level mesa_levels[] = {
    { "softpipe, OpenGL 3.3 core", "gl", NULL, { "GALLIUM_DRIVER=softpipe", NULL },
      "softpipe", 0, 3, 3 },
    { "softpipe, OpenGL ES 3.1", "gles", NULL, { "GALLIUM_DRIVER=softpipe", NULL },
      "softpipe", 1, 3, 1 },
    { "llvmpipe held to OpenGL 4.1 core (macOS)", "gl", NULL,
      { "MESA_GL_VERSION_OVERRIDE=4.1", "MESA_GLSL_VERSION_OVERRIDE=410" }, "llvmpipe",
      0, 4, 1 },
    { "llvmpipe held to OpenGL ES 3.0", "gles", NULL,
      { "MESA_GLES_VERSION_OVERRIDE=3.0", NULL }, "llvmpipe", 1, 3, 0 },
};

/* ---- GA and GAJ on the fragment (and, where there, compute) pipeline ---- */

static const size_t sizes[] = { 1, 2, 3, 31, 97 };

static struct nb_force_backend open_backend(const char *name)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_backend_create(&b, name, gl, &err) == NB_OK, "%s", err.message);
    return b;
}

static void check_ga(struct nb_force_backend *b, const char *variant, size_t n, double eps)
{
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct nb_accuracy q;
    ga_random_system(&p, n, seed + n, 0);
    double *acc = malloc(24 * n), *pot = malloc(8 * n), *racc = malloc(24 * n),
           *rpot = malloc(8 * n), *aabs = malloc(8 * n), *pabs = malloc(8 * n);
    ck_assert(acc && pot && racc && rpot && aabs && pabs);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, eps, racc, rpot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, eps, aabs, pabs, &err), NB_OK);
    ck_assert_msg(b->set_variant(b->state, variant, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_particles(b->state, n, p.x, p.m, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->compute(b->state, NB_KERNEL_GA, eps, &err) == NB_OK, "%s %s: %s",
                  b->name, variant, err.message);
    for (size_t i = 0; i < 3 * n; i++)
        acc[i] = NAN;
    for (size_t i = 0; i < n; i++)
        pot[i] = NAN;
    ck_assert_msg(b->read(b->state, acc, pot, &err) == NB_OK, "%s", err.message);
    nb_accuracy_ga(n, p.m, acc, pot, racc, rpot, aabs, pabs, &q);
    ck_assert_msg(q.nonfinite == 0 && q.acc_rel_max <= TOLERANCE &&
                  q.pot_rel_max <= TOLERANCE && q.f_err <= F_ERR_MAX,
                  "%s %s %s N=%zu eps=%g: da %.3g dphi %.3g f_err %.3g (seed %llu)",
                  info.api, b->name, variant, n, eps, q.acc_rel_max, q.pot_rel_max, q.f_err,
                  (unsigned long long)seed);
    free(acc); free(pot); free(racc); free(rpot); free(aabs); free(pabs);
    nb_particles_free(&p);
}

START_TEST(fragment_ga_matches_cpu)
{
    static const char *const variants[] = { "1x1", "1x4", "4x4", "4x4-r3-p2", "1x1-r2-p3" };
    struct nb_force_backend b = open_backend("fragment");
    for (size_t s = 0; s < COUNT(sizes); s++)
        for (size_t v = 0; v < COUNT(variants); v++)
            check_ga(&b, variants[v], sizes[s], (s + v) % 2 ? EPS : 0.0);
    b.destroy(b.state);
}
END_TEST

/* One GAJ evaluation of the j-set p on b for `active`, against the CPU. */
static void check_gaj(struct nb_force_backend *b, const struct nb_particles *p,
                      const uint32_t *active, size_t na, double dx, const char *what)
{
    char label[160];
    snprintf(label, sizeof label, "%s %s", info.api, what);
    gaj_check_once(b, p, EPS, active, na, dx, TOLERANCE, seed, label);
}

static void check_gaj_sizes(const char *backend, const char *const *variants)
{
    struct nb_force_backend b = open_backend(backend);
    struct nb_error err = { 0 };
    for (size_t s = 0; s < COUNT(sizes); s++) {
        struct nb_particles p = { 0 };
        size_t n = sizes[s], na = 0;
        uint32_t *active = malloc(4 * n);
        ga_moving_system(&p, n, seed + 300 + s);
        for (size_t i = 0; i < n; i++)      /* every third, or the only one */
            if (i % 3 == 1 || n == 1)
                active[na++] = (uint32_t)i;
        if (na == 0)
            active[na++] = 0;
        ck_assert_msg(b.set_variant(b.state, variants[s % 2], &err) == NB_OK, "%s",
                      err.message);
        ck_assert_msg(b.set_j(b.state, n, p.x, p.v, p.m, &err) == NB_OK, "%s", err.message);
        char what[64];
        snprintf(what, sizeof what, "%s GAJ N=%zu active=%zu", backend, n, na);
        check_gaj(&b, &p, active, na, 0.0, what);
        free(active);
        nb_particles_free(&p);
    }
    b.destroy(b.state);
}

START_TEST(fragment_gaj_matches_cpu)
{
    static const char *const variants[] = { "1x4", "4x4-r2-p2" };
    check_gaj_sizes("fragment", variants);
}
END_TEST

/* The device-resident Hermite state of the fragment pipeline (--predict
 * gpu): loaded with stale positions, half of it replaced by a corrected
 * block scattered as points, the j-set predicted by predict.frag and the
 * block gathered by gather.frag; checked against the host's prediction. */
START_TEST(fragment_device_state_matches_host)
{
    const size_t n = 61;
    const double t = 10.0 + 1.0 / 64;
    struct nb_force_backend b = open_backend("fragment");
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 }, stale = { 0 };
    struct nb_rng rng;
    double *a = malloc(24 * n), *jk = malloc(24 * n), *t0 = malloc(8 * n);
    double *bx = malloc(24 * n), *bv = malloc(24 * n), *ba = malloc(24 * n),
           *bj = malloc(24 * n), *bt = malloc(8 * n);
    uint32_t *blk = malloc(4 * n), *all = malloc(4 * n);
    ck_assert(a && jk && t0 && bx && bv && ba && bj && bt && blk && all);
    ga_moving_system(&p, n, seed + 400);
    ga_moving_system(&stale, n, seed + 400);
    nb_rng_seed(&rng, seed + 401);
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        t0[i] = t - ldexp(1.0, -(int)(3 + i % 8));
        all[i] = (uint32_t)i;
        for (int c = 0; c < 3; c++) {
            a[3 * i + c] = 2.0 * nb_rng_uniform(&rng) - 1.0;
            jk[3 * i + c] = 8.0 * nb_rng_uniform(&rng) - 4.0;
        }
        if (i % 2)
            continue;
        blk[nb] = (uint32_t)i;
        bt[nb] = t0[i];
        for (int c = 0; c < 3; c++) {
            stale.x[3 * i + c] += 0.5;
            bx[3 * nb + c] = p.x[3 * i + c];
            bv[3 * nb + c] = p.v[3 * i + c];
            ba[3 * nb + c] = a[3 * i + c];
            bj[3 * nb + c] = jk[3 * i + c];
        }
        nb++;
    }
    ck_assert_msg(b.load_state(b.state, n, stale.x, stale.v, a, jk, t0, p.m, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_msg(b.update_state(b.state, nb, blk, bx, bv, ba, bj, bt, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b.predict_j(b.state, t, &err) == NB_OK, "%s", err.message);
    for (size_t i = 0; i < n; i++) {
        double dt = t - t0[i];
        for (int c = 0; c < 3; c++) {
            double x = p.x[3 * i + c], v = p.v[3 * i + c], aa = a[3 * i + c], jj = jk[3 * i + c];
            p.x[3 * i + c] = x + dt * (v + dt * (aa / 2 + dt * jj / 6));
            p.v[3 * i + c] = v + dt * (aa + dt * jj / 2);
        }
    }
    double dx = 8.0 * ldexp(1.0, -24);      /* float prediction: 4 ulps at |x| ~ 1.2 */
    check_gaj(&b, &p, all, n, dx, "fragment device state, all");
    check_gaj(&b, &p, blk, nb, dx, "fragment device state, block");
    b.destroy(b.state);
    free(a); free(jk); free(t0); free(bx); free(bv); free(ba); free(bj); free(bt);
    free(blk); free(all);
    nb_particles_free(&p);
    nb_particles_free(&stale);
}
END_TEST

/* ---- MD on the fragment pipeline ------------------------------------------ */

START_TEST(fragment_md_matches_cpu)
{
    static const enum nb_md_law laws[] = { NB_LAW_LJ, NB_LAW_LJC_LINEAR, NB_LAW_IONIC };
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_md_engine_fragment_create(&e, gl, &err) == NB_OK, "%s", err.message);
    for (size_t l = 0; l < COUNT(laws); l++)
        for (size_t s = 2; s < COUNT(sizes); s++) {
            size_t n = sizes[s];
            struct nb_particles p = { 0 };
            struct nb_md_box box;
            struct nb_md_potential pot;
            struct nb_md_system sys;
            md_lattice(&p, &box, n, 3, 1.1, 0.2, 0.0, 0, seed + 50 * l + n);
            md_random_potential(&pot, laws[l], 3, 0.0, 0, seed + 50 * l + n);
            md_system_of(&sys, &p, &pot, &box, 0);
            double *f = malloc(24 * n), *pe = malloc(8 * n), *vir = malloc(8 * n),
                   *rf = malloc(24 * n), *rpe = malloc(8 * n), *rvir = malloc(8 * n),
                   *fa = malloc(8 * n), *ua = malloc(8 * n), *wa = malloc(8 * n);
            ck_assert(f && pe && vir && rf && rpe && rvir && fa && ua && wa);
            ck_assert_int_eq(nb_md_cpu_forces(&sys, p.x, rf, rpe, rvir, &err), NB_OK);
            md_pair_magnitudes(&sys, p.x, fa, ua, wa);
            ck_assert_msg(e.setup(e.state, &sys, &err) == NB_OK, "%s", err.message);
            ck_assert_msg(e.forces(e.state, p.x, f, pe, vir, &err) == NB_OK, "%s",
                          err.message);
            for (size_t i = 0; i < n; i++) {
                for (int d = 0; d < 3; d++)
                    ck_assert_msg(fabs(f[3 * i + d] - rf[3 * i + d]) <= TOLERANCE * fa[i],
                                  "%s MD %s N=%zu: F[%zu][%d] %.9g vs %.9g, bound %.3g "
                                  "(seed %llu)", info.api, nb_md_law_name(laws[l]), n, i, d,
                                  f[3 * i + d], rf[3 * i + d], TOLERANCE * fa[i],
                                  (unsigned long long)seed);
                ck_assert_msg(fabs(pe[i] - rpe[i]) <= TOLERANCE * ua[i] &&
                              fabs(vir[i] - rvir[i]) <= TOLERANCE * wa[i],
                              "%s MD %s N=%zu: pe or virial of %zu off (seed %llu)", info.api,
                              nb_md_law_name(laws[l]), n, i, (unsigned long long)seed);
            }
            free(f); free(pe); free(vir); free(rf); free(rpe); free(rvir);
            free(fa); free(ua); free(wa);
            nb_particles_free(&p);
        }
    e.destroy(e.state);
}
END_TEST

/* ---- accumulation modes --------------------------------------------------- */

/* check_precision's bounds, per particle relative to S_i. */
static const double max_rel[NB_PRECISION_COUNT] = {
    1e-5, 4.8e-7, 4.8e-7, 1e-6, 1e-6, 4.8e-7, 1e-12, 4.8e-7 };

/* Modes C..F need only 32-bit integers: they run at every level. */
START_TEST(fragment_int32_modes_match_cpu)
{
    static const size_t prec_sizes[] = { 1, 3, 97 };
    struct nb_force_backend b = open_backend("fragment");
    struct nb_error err = { 0 };
    for (size_t s = 0; s < COUNT(prec_sizes); s++) {
        size_t n = prec_sizes[s];
        struct nb_particles p = { 0 };
        struct nb_accuracy q;
        ga_random_system(&p, n, seed + 700 + n, 0);
        double *acc = malloc(24 * n), *pot = malloc(8 * n), *racc = malloc(24 * n),
               *rpot = malloc(8 * n), *aabs = malloc(8 * n), *pabs = malloc(8 * n);
        ck_assert(acc && pot && racc && rpot && aabs && pabs);
        ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, EPS, racc, rpot, &err), NB_OK);
        ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, EPS, aabs, pabs, &err), NB_OK);
        for (int m = NB_PRECISION_C; m <= NB_PRECISION_F; m++) {
            ck_assert_msg(b.set_precision(b.state, (enum nb_precision)m, &err) == NB_OK,
                          "%s: %s", nb_precision_name(m), err.message);
            ck_assert_int_eq(b.set_particles(b.state, n, p.x, p.m, &err), NB_OK);
            ck_assert_msg(b.compute(b.state, NB_KERNEL_GA, EPS, &err) == NB_OK, "%s: %s",
                          nb_precision_name(m), err.message);
            ck_assert_int_eq(b.read(b.state, acc, pot, &err), NB_OK);
            nb_accuracy_ga(n, p.m, acc, pot, racc, rpot, aabs, pabs, &q);
            ck_assert_msg(q.nonfinite == 0 && q.acc_rel_max <= max_rel[m] &&
                          q.pot_rel_max <= max_rel[m], "%s mode %s N=%zu: da %.3g dphi %.3g "
                          "over %.3g (seed %llu)", info.api, nb_precision_name(m), n,
                          q.acc_rel_max, q.pot_rel_max, max_rel[m], (unsigned long long)seed);
        }
        free(acc); free(pot); free(racc); free(rpot); free(aabs); free(pabs);
        nb_particles_free(&p);
    }
    b.destroy(b.state);
}
END_TEST

/* ---- compute where the level has it, a refusal where not ------------------ */

START_TEST(compute_runs_or_is_refused)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    enum nb_status st = nb_backend_create(&b, "compute", gl, &err);
    if (!info.compute) {
        char want[400];
        snprintf(want, sizeof want, "compute needs OpenGL 4.3 or OpenGL ES 3.1; this context "
                 "is OpenGL %s%d.%d (%s)", info.es ? "ES " : "", info.major, info.minor,
                 info.renderer);
        ck_assert_int_eq(st, NB_ERR_UNSUPPORTED);
        ck_assert_str_eq(err.message, want);
        return;
    }
    ck_assert_msg(st == NB_OK, "%s", err.message);
    b.destroy(b.state);
    /* GA in every tile width the level's work groups take (auto: the
     * fastest that fits), GAJ on the variant's tile. */
    static const char *const variants[] = { "t64i1", "t128i4-s2", "t256i8", "auto" };
    b = open_backend("compute");
    for (size_t s = 0; s < COUNT(sizes); s++)
        for (size_t v = 0; v < COUNT(variants); v++) {
            if (b.set_variant(b.state, variants[v], &err) == NB_ERR_LIMIT) {
                printf("check_levels: %s: %s\n", info.api, err.message);
                ck_assert_ptr_nonnull(strstr(err.message, "GL_MAX_COMPUTE_"));
                err = (struct nb_error){ 0 };
                continue;
            }
            check_ga(&b, variants[v], sizes[s], s % 2 ? EPS : 0.0);
        }
    b.destroy(b.state);
    /* GAJ, or the limit of the level that stops it, named. */
    static const char *const gaj_variants[] = { "t64i1", "auto" };
    struct nb_particles p = { 0 };
    uint32_t first = 0;
    ga_moving_system(&p, 3, seed);
    b = open_backend("compute");
    ck_assert_int_eq(b.set_j(b.state, 3, p.x, p.v, p.m, &err), NB_OK);
    st = b.compute_gaj(b.state, EPS, 1, &first, &err);
    b.destroy(b.state);
    nb_particles_free(&p);
    if (st == NB_ERR_LIMIT) {
        printf("check_levels: %s: %s\n", info.api, err.message);
        ck_assert_ptr_nonnull(strstr(err.message, "GL_MAX_COMPUTE_"));
        return;
    }
    ck_assert_msg(st == NB_OK, "%s", err.message);
    check_gaj_sizes("compute", gaj_variants);
}
END_TEST

/* Mode H names GL_ARB_gpu_shader_int64 and both levels; B and G name
 * doubles (OpenGL 4.0). */
START_TEST(missing_extensions_refused)
{
    struct nb_force_backend b = open_backend("fragment");
    struct nb_error err = { 0 };
    if (!info.int64) {
        ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_ERR_UNSUPPORTED);
        ck_assert_msg(strstr(err.message, "precision H needs GL_ARB_gpu_shader_int64") &&
                      strstr(err.message, "this context is OpenGL"), "%s", err.message);
    }
    if (!info.fp64) {
        err = (struct nb_error){ 0 };
        ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_G, &err), NB_ERR_UNSUPPORTED);
        ck_assert_msg(strstr(err.message, "needs OpenGL 4.0") &&
                      strstr(err.message, "this context is OpenGL"), "%s", err.message);
    }
    b.destroy(b.state);
}
END_TEST

static Suite *levels_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("levels");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, fragment_ga_matches_cpu);
    tcase_add_test(tc, fragment_gaj_matches_cpu);
    tcase_add_test(tc, fragment_device_state_matches_host);
    tcase_add_test(tc, fragment_md_matches_cpu);
    tcase_add_test(tc, fragment_int32_modes_match_cpu);
    tcase_add_test(tc, compute_runs_or_is_refused);
    tcase_add_test(tc, missing_extensions_refused);
    suite_add_tcase(s, tc);
    return s;
}

/* ---- one level in this process ------------------------------------------- */

static int run_level(const struct level *lv)
{
    struct nb_gl_options opt;
    struct nb_error err = { 0 };
    nb_gl_options_default(&opt);
    opt.api = strcmp(lv->api, "gles") == 0 ? NB_GL_API_GLES : NB_GL_API_GL;
    if (lv->version && sscanf(lv->version, "%d.%d", &opt.version_major,
                              &opt.version_minor) != 2)
        return 2;
    if (nb_gl_create(&gl, &opt, &err) != NB_OK) {
        printf("check_levels: %s: skipped, no such context: %s\n", lv->name, err.message);
        return NB_TEST_SKIPPED;
    }
    if (nb_gl_info(gl, &info, &err) != NB_OK) {
        printf("check_levels: %s: FAILED: nb_gl_info: %s\n", lv->name, err.message);
        nb_gl_destroy(gl);
        return 1;
    }
    if (lv->renderer && !strstr(info.renderer, lv->renderer)) {
        printf("check_levels: %s: skipped, the driver is %s\n", lv->name, info.renderer);
        nb_gl_destroy(gl);
        return NB_TEST_SKIPPED;
    }
    printf("check_levels: %s: renderer %s\n", lv->name, nb_gl_renderer(gl));
    fflush(stdout);
    if (info.es != lv->es || info.major != lv->major || info.minor != lv->minor ||
        !strstr(nb_gl_renderer(gl), info.api)) {
        printf("check_levels: %s: FAILED: got %s, renderer line '%s'\n", lv->name, info.api,
               nb_gl_renderer(gl));
        nb_gl_destroy(gl);
        return 1;
    }
    SRunner *sr = srunner_create(levels_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    nb_gl_destroy(gl);
    return failed ? 1 : 0;
}

/* NB_TEST_LEVELS="gl:3.3,gles:3.2": explicit requests, no environment. */
static size_t explicit_levels(struct level *out, size_t max, char *text)
{
    size_t count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, ",", &save); tok && count < max;
         tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon)
            continue;
        *colon = '\0';
        static char names[8][32];
        snprintf(names[count], sizeof names[0], "%s %s, as asked", tok, colon + 1);
        struct level lv = { names[count], tok, colon + 1, { NULL, NULL }, NULL, 0, 0, 0 };
        lv.es = strcmp(tok, "gles") == 0;
        if (sscanf(colon + 1, "%d.%d", &lv.major, &lv.minor) == 2)
            out[count++] = lv;      /* tok and colon + 1 stay split in text */
    }
    return count;
}

/* Runs level k in a child process with its environment. */
static int spawn(char **argv, const struct level *lv, size_t k)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        char index[32];
        snprintf(index, sizeof index, "%zu", k);
        setenv("NB_LEVEL_CHILD", index, 1);
        for (int e = 0; e < 2 && lv->env[e]; e++) {
            char name[64];
            const char *eq = strchr(lv->env[e], '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - lv->env[e]), lv->env[e]);
            setenv(name, eq + 1, 1);
        }
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return 1;
    return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
    (void)argc;
    struct level list[8];
    size_t count = COUNT(mesa_levels);
    memcpy(list, mesa_levels, sizeof mesa_levels);
    char *given = getenv("NB_TEST_LEVELS");
    char *copy = given ? strdup(given) : NULL;
    if (copy)
        count = explicit_levels(list, COUNT(list), copy);
    const char *env = getenv("NB_TEST_SEED");
    seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    const char *child = getenv("NB_LEVEL_CHILD");
    if (child) {
        size_t k = (size_t)strtoul(child, NULL, 10);
        return k < count ? run_level(&list[k]) : 2;
    }
    printf("check_levels: seed %llu (NB_TEST_SEED to replay)\n", (unsigned long long)seed);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    setenv("NB_TEST_SEED", text, 1);        /* every level the same inputs */
    int failed = 0, ran = 0;
    for (size_t k = 0; k < count; k++) {
        int st = spawn(argv, &list[k], k);
        if (st == NB_TEST_SKIPPED)
            continue;
        ran++;
        if (st != 0) {
            printf("check_levels: %s: FAILED\n", list[k].name);
            failed++;
        }
    }
    free(copy);
    printf("check_levels: %d levels run, %d failed\n", ran, failed);
    return failed ? 1 : ran ? 0 : NB_TEST_SKIPPED;
}
