/* web_check.c - the checks the browser test (tools/scripts/test_web.sh)
 * asks the page for, each answered by one machine-readable console line:
 *
 *   glnbody-web: forces ok|FAIL worst_da D worst_dphi P worst_ferr F cases C
 *   glnbody-web: hermite ok|FAIL n N t T de E blocks B
 *
 * Forces: every variant of the fragment engine against the double CPU
 * reference (nb_cpu_ga), as tests/check_gpu.c bounds them: per particle
 * |da| <= 1e-5 sum_j |a_ij| and |dphi| <= 1e-5 sum_j |phi_ij|, and
 * f_err <= 1e-6 (Narumi et al., eq. 10); odd sizes; uniform inputs and
 * a clustered one (a Plummer sphere with every other particle moved to a
 * close pair with its neighbour); softening 0 and 0.01; inputs rounded to
 * float, so that the bounds measure the kernels' arithmetic.  Hermite: a
 * Plummer sphere on the fragment engine with host prediction, its
 * relative energy error at t within 1e-5, as tests/check_run_gpu.c. */
#include <emscripten/emscripten.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "web.h"

#define WEB_TOLERANCE 1e-5
#define WEB_F_ERR_MAX 1e-6
#define WEB_DE_MAX 1e-5

static const size_t sizes[] = { 1, 3, 97, 1031 };
static const double softenings[] = { 0.0, 0.01 };

/* Uniform (clustered 0) or a Plummer sphere with close pairs (1). */
static enum nb_status make_input(struct nb_particles *p, size_t n, int clustered,
                                 struct nb_error *err)
{
    enum nb_status st = clustered ? nb_particles_plummer(p, n, 7 + n, NULL, err)
                                  : nb_particles_random_cube(p, n, 3 + n, err);
    for (size_t i = 1; st == NB_OK && clustered && i < n; i += 2)
        for (int a = 0; a < 3; a++)     /* a close pair: 1e-4 apart */
            p->x[3 * i + a] = p->x[3 * (i - 1) + a] + (a == 0 ? 1e-4 : 0.0);
    for (size_t k = 0; st == NB_OK && k < 3 * n; k++)
        p->x[k] = (double)(float)p->x[k];
    for (size_t k = 0; st == NB_OK && k < n; k++)
        p->m[k] = (double)(float)p->m[k];
    return st;
}

struct worst {
    double da, dphi, ferr;
    int cases, failed;
};

static enum nb_status check_case(struct nb_forces *f, const struct nb_particles *p,
                                 double eps, struct worst *w, struct nb_error *err)
{
    size_t n = p->n;
    double *ref = malloc(24 * n), *rpot = malloc(8 * n), *aabs = malloc(8 * n);
    double *pabs = malloc(8 * n), *acc = malloc(24 * n), *pot = malloc(8 * n);
    enum nb_status st = ref && rpot && aabs && pabs && acc && pot ? NB_OK
                      : nb_error_set(err, NB_ERR_NOMEM, "out of memory");
    if (st == NB_OK)
        st = nb_cpu_ga(n, p->x, p->m, eps, ref, rpot, err);
    if (st == NB_OK)
        st = nb_cpu_ga_magnitudes(n, p->x, p->m, eps, aabs, pabs, err);
    for (const char *const *v = nb_forces_variants(f); st == NB_OK && *v; v++) {
        struct nb_accuracy q;
        for (size_t k = 0; k < 3 * n; k++)
            acc[k] = NAN;       /* every particle must be written */
        if ((st = nb_forces_set_variant(f, *v, err)) != NB_OK ||
            (st = nb_forces_ga(f, n, p->x, p->m, eps, acc, pot, err)) != NB_OK)
            break;
        nb_accuracy_ga(n, p->m, acc, pot, ref, rpot, aabs, pabs, &q);
        int bad = q.nonfinite || !(q.acc_rel_max <= WEB_TOLERANCE) ||
                  !(q.pot_rel_max <= WEB_TOLERANCE) || !(q.f_err <= WEB_F_ERR_MAX);
        if (bad)
            printf("glnbody-web: forces case FAIL variant %s n %zu eps %g da %.3g dphi %.3g "
                   "ferr %.3g nonfinite %zu\n", *v, n, eps, q.acc_rel_max, q.pot_rel_max,
                   q.f_err, q.nonfinite);
        w->failed |= bad;
        w->da = fmax(w->da, q.acc_rel_max);
        w->dphi = fmax(w->dphi, q.pot_rel_max);
        w->ferr = fmax(w->ferr, q.f_err);
        w->cases++;
    }
    free(ref); free(rpot); free(aabs); free(pabs); free(acc); free(pot);
    return st;
}

EMSCRIPTEN_KEEPALIVE int web_check_forces(void)
{
    struct nb_error err = { 0 };
    struct nb_forces *f = NULL;
    struct worst w = { 0 };
    if (web_init() != 0)
        return 1;
    enum nb_status st = nb_forces_create(&f, web_gl(), NB_ENGINE_FRAGMENT, &err);
    for (size_t s = 0; st == NB_OK && s < sizeof sizes / sizeof *sizes; s++)
        for (int clustered = 0; st == NB_OK && clustered < 2; clustered++) {
            struct nb_particles p = { 0 };
            if (sizes[s] < 2 && clustered)
                continue;       /* a sphere needs two */
            st = make_input(&p, sizes[s], clustered, &err);
            for (size_t e = 0; st == NB_OK && e < 2; e++)
                st = check_case(f, &p, softenings[e], &w, &err);
            nb_particles_free(&p);
        }
    nb_forces_destroy(f);
    if (st != NB_OK)
        return web_fail("forces check", &err);
    printf("glnbody-web: forces %s worst_da %.3g worst_dphi %.3g worst_ferr %.3g cases %d\n",
           w.failed ? "FAIL" : "ok", w.da, w.dphi, w.ferr, w.cases);
    return w.failed;
}

EMSCRIPTEN_KEEPALIVE int web_check_hermite(int n, double t)
{
    struct nb_error err = { 0 };
    struct nb_forces *f = NULL;
    struct nb_hermite *h = NULL;
    struct nb_hermite_params par;
    double k0 = 0, w0 = 0, k1 = 0, w1 = 0;
    uint64_t blocks = 0, steps = 0;
    if (web_init() != 0)
        return 1;
    nb_hermite_params_default(&par);
    par.predict_on_device = 0;
    enum nb_status st = nb_forces_create(&f, web_gl(), NB_ENGINE_FRAGMENT, &err);
    if (st == NB_OK)
        st = nb_hermite_create_plummer(&h, f, (size_t)n, 13, &par, &err);
    if (st == NB_OK)
        st = nb_hermite_energy(h, &k0, &w0, &err);
    if (st == NB_OK)
        st = nb_hermite_integrate(h, t, &err);
    if (st == NB_OK)
        st = nb_hermite_energy(h, &k1, &w1, &err);
    if (h)
        nb_hermite_counts(h, &blocks, &steps);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    if (st != NB_OK)
        return web_fail("Hermite check", &err);
    double de = (k1 + w1 - k0 - w0) / fabs(k0 + w0);
    int ok = fabs(de) <= WEB_DE_MAX;
    printf("glnbody-web: hermite %s n %d t %g de %.3e blocks %llu\n", ok ? "ok" : "FAIL", n,
           t, de, (unsigned long long)blocks);
    return !ok;
}
