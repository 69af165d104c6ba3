/* check_api_contexts.c - the public API's promises about GL contexts and
 * threads (glnbody.h, "Threads and contexts"): handles of two contexts
 * used in turn from one thread, and contexts used from several threads,
 * give bit for bit what one context gives.  Fresh random inputs (the seed
 * is printed; NB_TEST_SEED=S replays it); without a GL context the suite
 * exits 77 (skipped). */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "glnbody.h"
#include "api_fixtures.h"

#define SKIPPED 77
#define EPS 0.01                /* softening of the force tests */

uint64_t g_seed;
static struct nb_gl *g_gl;

/* ---- two contexts from one thread --------------------------------------------- */

/* Handles of two contexts used in turn give, bit for bit, what one
 * context gives: each call makes its own context current.  The variant is
 * fixed (the automatic choice times the candidates and may differ). */
START_TEST(two_contexts_alternate)
{
    struct nb_gl *gl2 = NULL;
    struct nb_error err = { 0 };
    /* NULL options: the defaults. */
    ck_assert_msg(nb_gl_create(&gl2, NULL, &err) == NB_OK, "%s", err.message);
    struct nb_forces *f0 = forces_open(g_gl, NB_ENGINE_COMPUTE, NB_PRECISION_A);
    struct bodies b = bodies_random(101, 7);
    size_t bytes = 4 * b.n * sizeof(double);
    double *ref = malloc(bytes), *got = malloc(bytes);
    ck_assert_int_eq(nb_forces_ga(f0, b.n, b.x, b.m, EPS, ref, ref + 3 * b.n, &err), NB_OK);
    char variant[64];
    snprintf(variant, sizeof variant, "%s", nb_forces_variant(f0));
    struct nb_forces *fs[2] = { forces_open(g_gl, NB_ENGINE_COMPUTE, NB_PRECISION_A),
                                forces_open(gl2, NB_ENGINE_COMPUTE, NB_PRECISION_A) };
    for (int k = 0; k < 2; k++)
        ck_assert_msg(nb_forces_set_variant(fs[k], variant, &err) == NB_OK, "%s",
                      err.message);
    for (int round = 0; round < 4; round++) {
        struct nb_forces *f = fs[round % 2];
        ck_assert_int_eq(nb_forces_ga(f, b.n, b.x, b.m, EPS, got, got + 3 * b.n, &err), NB_OK);
        ck_assert_msg(memcmp(got, ref, bytes) == 0, "round %d differs", round);
    }

    /* Hermite runs on both, stepped in turn, against one run alone. */
    struct nb_hermite *h0 = NULL, *hs[2] = { NULL, NULL };
    ck_assert_int_eq(nb_hermite_create_plummer(&h0, f0, 33, g_seed, NULL, &err), NB_OK);
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(nb_hermite_create_plummer(&hs[k], fs[k], 33, g_seed, NULL, &err),
                         NB_OK);
    for (int step = 1; step <= 4; step++)
        for (int k = 0; k < 2; k++)
            ck_assert_msg(nb_hermite_integrate(hs[k], step / 32.0, &err) == NB_OK, "%s",
                          err.message);
    ck_assert_int_eq(nb_hermite_integrate(h0, 4 / 32.0, &err), NB_OK);
    double x0[99], x1[99];
    ck_assert_int_eq(nb_hermite_state(h0, x0, NULL, &err), NB_OK);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(nb_hermite_state(hs[k], x1, NULL, &err), NB_OK);
        ck_assert_msg(memcmp(x0, x1, sizeof x0) == 0, "Hermite on context %d differs", k);
    }

    /* MD on both, stepped in turn. */
    struct nb_md *m0 = md_fcc(g_gl, NB_ENGINE_COMPUTE);
    struct nb_md *ms[2] = { md_fcc(g_gl, NB_ENGINE_COMPUTE), md_fcc(gl2, NB_ENGINE_COMPUTE) };
    for (int step = 0; step < 3; step++)
        for (int k = 0; k < 2; k++)
            ck_assert_int_eq(nb_md_step(ms[k], 10, &err), NB_OK);
    ck_assert_int_eq(nb_md_step(m0, 30, &err), NB_OK);
    struct nb_md_thermo t0 = md_thermo(m0);
    for (int k = 0; k < 2; k++) {
        struct nb_md_thermo t1 = md_thermo(ms[k]);
        ck_assert_msg(t1.etotal == t0.etotal && t1.press == t0.press,
                      "MD on context %d: E %.17g vs %.17g", k, t1.etotal, t0.etotal);
        nb_md_destroy(ms[k]);
        nb_hermite_destroy(hs[k]);
        nb_forces_destroy(fs[k]);
    }
    nb_md_destroy(m0);
    nb_hermite_destroy(h0);
    nb_forces_destroy(f0);
    free(ref);
    free(got);
    bodies_free(&b);
    nb_gl_destroy(gl2);
}
END_TEST

/* ---- threads ------------------------------------------------------------------ */

/* One thread's GA on the handle f of context gl, handed over (released
 * by the thread before) and released again at the end; or, with f NULL,
 * on a context and a handle of the thread's own. */
struct ga_job {
    const struct bodies *b;
    const char *variant;
    struct nb_gl *gl;
    struct nb_forces *f;
    double *out;                /* 4 n: acc, then pot */
    enum nb_status status;
};

static void *ga_thread(void *arg)
{
    struct ga_job *job = arg;
    struct nb_gl *own = NULL;
    struct nb_forces *f = job->f;
    struct nb_error err = { 0 };
    const struct bodies *b = job->b;
    if (!f && ((job->status = nb_gl_create(&own, NULL, &err)) != NB_OK ||
               (job->status = nb_forces_create(&f, own, NB_ENGINE_COMPUTE, &err)) != NB_OK))
        return NULL;
    if ((job->status = nb_forces_set_variant(f, job->variant, &err)) == NB_OK)
        job->status = nb_forces_ga(f, b->n, b->x, b->m, EPS, job->out, job->out + 3 * b->n,
                                   &err);
    if (own) {
        nb_forces_destroy(f);
        nb_gl_destroy(own);
    }
    nb_gl_release(job->gl);
    return NULL;
}

/* Two threads at once, each on a context of its own, and a third on a
 * handle of a context made here and handed over: each result is, bit for
 * bit, the main thread's on its own context. */
START_TEST(threads_own_and_handed_contexts)
{
    struct bodies b = bodies_random(97, 11);
    struct nb_error err = { 0 };
    struct nb_forces *ref_f = forces_open(g_gl, NB_ENGINE_COMPUTE, NB_PRECISION_A);
    size_t bytes = 4 * b.n * sizeof(double);
    double *ref = malloc(bytes), *out[3] = { malloc(bytes), malloc(bytes), malloc(bytes) };
    ck_assert_int_eq(nb_forces_ga(ref_f, b.n, b.x, b.m, EPS, ref, ref + 3 * b.n, &err), NB_OK);
    const char *variant = nb_forces_variant(ref_f);
    struct nb_gl *handed = NULL;
    struct nb_forces *handed_f = NULL;
    ck_assert_int_eq(nb_gl_create(&handed, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_forces_create(&handed_f, handed, NB_ENGINE_COMPUTE, &err), NB_OK);
    nb_gl_release(handed);
    struct ga_job jobs[3] = { { &b, variant, NULL, NULL, out[0], NB_OK },
                              { &b, variant, NULL, NULL, out[1], NB_OK },
                              { &b, variant, handed, handed_f, out[2], NB_OK } };
    pthread_t threads[3];
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(pthread_create(&threads[k], NULL, ga_thread, &jobs[k]), 0);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(pthread_join(threads[k], NULL), 0);
        ck_assert_msg(jobs[k].status == NB_OK, "thread %d: status %d", k, (int)jobs[k].status);
        ck_assert_msg(memcmp(out[k], ref, bytes) == 0, "thread %d differs", k);
        free(out[k]);
    }
    nb_forces_destroy(handed_f);
    nb_gl_destroy(handed);
    nb_forces_destroy(ref_f);
    free(ref);
    bodies_free(&b);
}
END_TEST

/* ---- the suite ----------------------------------------------------------------- */

int main(void)
{
    const char *env = getenv("NB_TEST_SEED");
    struct nb_gl_options opt;
    struct nb_error err = { 0 };
    g_seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    printf("check_api_contexts: seed %llu (NB_TEST_SEED to replay)\n",
           (unsigned long long)g_seed);
    nb_gl_options_default(&opt);
    if (nb_gl_create(&g_gl, &opt, &err) != NB_OK) {
        printf("check_api_contexts: skipped, no GL context: %s\n", err.message);
        return SKIPPED;
    }
    printf("check_api_contexts: renderer %s\n", nb_gl_renderer(g_gl));
    fflush(stdout);
    Suite *s = suite_create("api_contexts");
    TCase *gl = tcase_create("gl");
    tcase_set_timeout(gl, 300);
    tcase_add_test(gl, two_contexts_alternate);
    tcase_add_test(gl, threads_own_and_handed_contexts);
    suite_add_tcase(s, gl);
    /* No fork: a forked child cannot use the parent's llvmpipe threads. */
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    nb_gl_destroy(g_gl);
    return failed ? 1 : 0;
}
