/* check_partition.c - the library's j-parallel hook, struct nb_partition
 * (Harfst et al. 2007), in one process without MPI: two "ranks" in turn,
 * each with its own engine and slice, their partial sums added by the
 * callbacks.  Precision H gives the bits of one engine, A agrees within
 * check_gpu's bounds, slices cover the j-set, bad partitions are refused.
 * The runs under mpirun are check_mpi's.  The GL cases are skipped (77
 * for the suite when nothing else fails) without a GL context. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl_probe.h"
#include "nb_host.h"

#define TOLERANCE 1e-5          /* check_gpu.c's, relative to sum_j |a_ij| */
/* ---- the library's hook, struct nb_partition, in one process --------------- */

/* Two "ranks" in turn in one process: rank 0's callback keeps its partial
 * sums and returns them unchanged; rank 1's adds rank 0's kept sums to its
 * own, so that rank 1 ends with the total an MPI_Allreduce would give. */
static struct {
    double d[7 * 4096];
    int64_t q[8 * 4096];
    size_t count;
    int calls;
} g_kept;

static enum nb_status keep_double(void *user, double *v, size_t count, struct nb_error *err)
{
    (void)user, (void)err;
    ck_assert_uint_le(count, 7 * 4096);
    memcpy(g_kept.d, v, count * sizeof *v);
    g_kept.count = count;
    g_kept.calls++;
    return NB_OK;
}

static enum nb_status keep_int64(void *user, int64_t *v, size_t count, struct nb_error *err)
{
    (void)user, (void)err;
    ck_assert_uint_le(count, 8 * 4096);
    memcpy(g_kept.q, v, count * sizeof *v);
    g_kept.count = count;
    g_kept.calls++;
    return NB_OK;
}

static enum nb_status add_double(void *user, double *v, size_t count, struct nb_error *err)
{
    (void)user, (void)err;
    ck_assert_uint_eq(count, g_kept.count);
    for (size_t k = 0; k < count; k++)
        v[k] += g_kept.d[k];
    g_kept.calls++;
    return NB_OK;
}

static enum nb_status add_int64(void *user, int64_t *v, size_t count, struct nb_error *err)
{
    (void)user, (void)err;
    ck_assert_uint_eq(count, g_kept.count);
    for (size_t k = 0; k < count; k++)
        v[k] += g_kept.q[k];
    g_kept.calls++;
    return NB_OK;
}

/* The i-split's gather for the same two ranks: rank 0 keeps its slice,
 * rank 1 copies rank 0's slice in beside its own. */
static enum nb_status keep_gather(void *user, double *v, size_t count, size_t width,
                                  struct nb_error *err)
{
    (void)user, (void)err;
    ck_assert_uint_le(count * width, 7 * 4096);
    memcpy(g_kept.d, v, count * width * sizeof *v);
    g_kept.count = count * width;
    g_kept.calls++;
    return NB_OK;
}

static enum nb_status fill_gather(void *user, double *v, size_t count, size_t width,
                                  struct nb_error *err)
{
    size_t first, end;
    (void)user, (void)err;
    ck_assert_uint_eq(count * width, g_kept.count);
    nb_partition_slice(count, 2, 0, &first, &end);
    memcpy(v + width * first, g_kept.d + width * first, (end - first) * width * sizeof *v);
    g_kept.calls++;
    return NB_OK;
}

static uint64_t g_seed;

static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1p-53 * 2.0 - 1.0;
}

/* n random bodies, masses (0.5..1.5) / n, and the odd block of every third. */
struct system {
    size_t n, na;
    double x[3 * 1024], v[3 * 1024], m[1024];
    uint32_t active[1024];
};

static void system_random(struct system *sys, size_t n)
{
    uint64_t s = g_seed ^ n;
    sys->n = n;
    sys->na = 0;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            sys->x[3 * i + c] = uniform(&s);
            sys->v[3 * i + c] = uniform(&s);
        }
        sys->m[i] = (1.0 + 0.5 * uniform(&s)) / (double)n;
        if (i % 3 == 1 || n < 3)
            sys->active[sys->na++] = (uint32_t)i;
    }
}

/* GAJ of the block on engine: without a partition (*_full) and as the
 * two ranks of 2 in turn sharing it by split (*_split: rank 1's totals). */
static void gaj_split(struct nb_gl *gl, enum nb_engine engine, enum nb_precision mode,
                      enum nb_split split, const struct system *sys, double *acc_full,
                      double *jerk_full, double *pot_full, double *acc_split,
                      double *jerk_split, double *pot_split)
{
    struct nb_error err = { 0 };
    struct nb_forces *f[3];
    double scratch[7 * 1024];
    for (int r = 0; r < 3; r++) {
        ck_assert_msg(nb_forces_create(&f[r], gl, engine, &err) == NB_OK, "%s", err.message);
        if (mode != NB_PRECISION_A)
            ck_assert_msg(nb_forces_set_precision(f[r], mode, &err) == NB_OK, "%s",
                          err.message);
    }
    struct nb_partition p0 = { .ranks = 2, .rank = 0, .sum_double = keep_double,
                               .sum_int64 = keep_int64, .gather_double = keep_gather,
                               .split = split };
    struct nb_partition p1 = { .ranks = 2, .rank = 1, .sum_double = add_double,
                               .sum_int64 = add_int64, .gather_double = fill_gather,
                               .split = split };
    ck_assert_msg(nb_forces_set_partition(f[1], &p0, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_forces_set_partition(f[2], &p1, &err) == NB_OK, "%s", err.message);
    for (int r = 0; r < 3; r++)
        ck_assert_msg(nb_forces_set_j(f[r], sys->n, sys->x, sys->v, sys->m, &err) == NB_OK,
                      "%s", err.message);
    g_kept.calls = 0;
    ck_assert_msg(nb_forces_gaj(f[0], 0.05, sys->na, sys->active, acc_full, jerk_full,
                                pot_full, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(g_kept.calls, 0);
    ck_assert_msg(nb_forces_gaj(f[1], 0.05, sys->na, sys->active, scratch,
                                scratch + 3 * sys->na, scratch + 6 * sys->na, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_msg(nb_forces_gaj(f[2], 0.05, sys->na, sys->active, acc_split, jerk_split,
                                pot_split, &err) == NB_OK, "%s", err.message);
    /* one callback per evaluation, none for a block computed whole */
    ck_assert_int_eq(g_kept.calls, split == NB_SPLIT_WHOLE ? 0 : 2);
    if (split != NB_SPLIT_WHOLE)
        ck_assert_uint_eq(g_kept.count, (mode == NB_PRECISION_H && split == NB_SPLIT_J ?
                                         8 : 7) * sys->na);
    for (int r = 0; r < 3; r++)
        nb_forces_destroy(f[r]);
}

static void gaj_both_ways(struct nb_gl *gl, enum nb_engine engine, enum nb_precision mode,
                          const struct system *sys, double *acc_full, double *jerk_full,
                          double *pot_full, double *acc_split, double *jerk_split,
                          double *pot_split)
{
    gaj_split(gl, engine, mode, NB_SPLIT_J, sys, acc_full, jerk_full, pot_full, acc_split,
              jerk_split, pot_split);
}

START_TEST(test_slices_cover)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 7, 1001, 65537 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int p = 1; p <= 7; p++) {
            size_t at = 0, n = sizes[k];
            for (int r = 0; r < p; r++) {
                size_t first, end;
                nb_partition_slice(n, p, r, &first, &end);
                ck_assert_uint_eq(first, at);               /* contiguous */
                ck_assert_uint_ge(end, first);
                ck_assert_uint_le(end - first, n / (size_t)p + 1);   /* balanced */
                ck_assert_uint_ge(end - first, n / (size_t)p);
                at = end;
            }
            ck_assert_uint_eq(at, n);                       /* all of them */
        }
}
END_TEST

START_TEST(test_hook_cpu)
{
    static struct system sys;
    static double a[3 * 1024], j[3 * 1024], phi[1024], a2[3 * 1024], j2[3 * 1024],
        phi2[1024];
    static const size_t sizes[] = { 2, 3, 97, 1000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        system_random(&sys, sizes[k]);
        gaj_both_ways(NULL, NB_ENGINE_CPU, NB_PRECISION_A, &sys, a, j, phi, a2, j2, phi2);
        /* double sums in two parts: rounding of the largest terms (a close
         * pair gives ~m / eps^2 = 400 / n) */
        double amax = 0.0, jmax = 0.0;
        for (size_t i = 0; i < 3 * sys.na; i++)
            amax = fmax(amax, fabs(a[i])), jmax = fmax(jmax, fabs(j[i]));
        for (size_t i = 0; i < 3 * sys.na; i++) {
            ck_assert_msg(fabs(a2[i] - a[i]) <= 1e-13 * amax, "n %zu: a %zu: %g vs %g",
                          sys.n, i, a2[i], a[i]);
            ck_assert_msg(fabs(j2[i] - j[i]) <= 1e-13 * jmax, "n %zu: jerk %zu: %g vs %g",
                          sys.n, i, j2[i], j[i]);
        }
        for (size_t i = 0; i < sys.na; i++)
            ck_assert(fabs(phi2[i] - phi[i]) <= 1e-12 * fabs(phi[i]));
    }
}
END_TEST

/* Precision H's int64 words add exactly: two ranks' totals are the bits
 * of the one-process sums. */
START_TEST(test_hook_compute_h_exact)
{
    static struct system sys;
    static double a[3 * 1024], j[3 * 1024], phi[1024], a2[3 * 1024], j2[3 * 1024],
        phi2[1024];
    struct nb_gl *gl = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_gl_create(&gl, NULL, &err) == NB_OK, "%s", err.message);
    static const size_t sizes[] = { 2, 3, 257, 1000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        system_random(&sys, sizes[k]);
        for (int split = NB_SPLIT_J; split <= NB_SPLIT_WHOLE; split++) {
            gaj_split(gl, NB_ENGINE_COMPUTE, NB_PRECISION_H, (enum nb_split)split, &sys,
                      a, j, phi, a2, j2, phi2);
            ck_assert_mem_eq(a2, a, 3 * sys.na * sizeof *a);
            ck_assert_mem_eq(j2, j, 3 * sys.na * sizeof *j);
            ck_assert_mem_eq(phi2, phi, sys.na * sizeof *phi);
        }
    }
    nb_gl_destroy(gl);
}
END_TEST

/* On the CPU every particle's sum runs over j in one order, whichever
 * rank computes it: the i-split and the whole block give its bits. */
START_TEST(test_hook_cpu_i_and_whole_exact)
{
    static struct system sys;
    static double a[3 * 1024], j[3 * 1024], phi[1024], a2[3 * 1024], j2[3 * 1024],
        phi2[1024];
    static const size_t sizes[] = { 2, 3, 97, 1000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        system_random(&sys, sizes[k]);
        for (int split = NB_SPLIT_I; split <= NB_SPLIT_WHOLE; split++) {
            gaj_split(NULL, NB_ENGINE_CPU, NB_PRECISION_A, (enum nb_split)split, &sys, a,
                      j, phi, a2, j2, phi2);
            ck_assert_mem_eq(a2, a, 3 * sys.na * sizeof *a);
            ck_assert_mem_eq(j2, j, 3 * sys.na * sizeof *j);
            ck_assert_mem_eq(phi2, phi, sys.na * sizeof *phi);
        }
    }
}
END_TEST

/* The cost model: small blocks whole, large ones cut (over i where there
 * is a gather, else over j), one crossing as the block grows; more ranks
 * never predicted slower for a block of everyone at 1M. */
START_TEST(test_split_choice)
{
    struct nb_partition p = { .ranks = 2, .rank = 1, .sum_double = keep_double,
                              .sum_int64 = keep_int64, .gather_double = keep_gather,
                              .split = NB_SPLIT_AUTO };
    size_t nj = (size_t)1 << 20;
    ck_assert_int_eq(nb_partition_choose(&p, NB_PRECISION_A, 1, nj), NB_SPLIT_WHOLE);
    ck_assert_int_eq(nb_partition_choose(&p, NB_PRECISION_A, nj, nj), NB_SPLIT_I);
    int flips = 0;
    for (size_t ni = 1; ni < nj; ni = ni * 2 + 1)
        flips += nb_partition_choose(&p, NB_PRECISION_H, ni, nj) !=
                 nb_partition_choose(&p, NB_PRECISION_H, ni * 2 + 1, nj);
    ck_assert_int_eq(flips, 1);
    double t[4];
    for (int k = 0; k < 4; k++)
        t[k] = nb_partition_model(&p, NB_SPLIT_AUTO, 1 << k, NB_PRECISION_A, nj, nj);
    for (int k = 1; k < 4; k++)
        ck_assert_msg(t[k] < t[k - 1] && t[k] > t[0] / (1 << k), "P = %d: %g s, "
                      "P = 1: %g s", 1 << k, t[k], t[0]);
    /* the model's own cost of the choice it made is the lower one */
    ck_assert(nb_partition_model(&p, NB_SPLIT_AUTO, 2, NB_PRECISION_A, 64, nj) <=
              nb_partition_model(&p, NB_SPLIT_I, 2, NB_PRECISION_A, 64, nj));
    p.ranks = 1, p.rank = 0;
    ck_assert_int_eq(nb_partition_choose(&p, NB_PRECISION_A, nj, nj), NB_SPLIT_WHOLE);
    p.ranks = 2, p.gather_double = NULL;
    ck_assert_int_eq(nb_partition_choose(&p, NB_PRECISION_A, nj, nj), NB_SPLIT_J);
    p.split = NB_SPLIT_J;
    ck_assert_int_eq(nb_partition_choose(&p, NB_PRECISION_A, 1, nj), NB_SPLIT_J);
}
END_TEST

START_TEST(test_hook_refusals)
{
    struct nb_forces *f = NULL;
    struct nb_error err = { 0 };
    struct nb_partition bad = { .ranks = 2, .rank = 2, .sum_double = keep_double,
                                .sum_int64 = keep_int64 };
    ck_assert_int_eq(nb_forces_create(&f, NULL, NB_ENGINE_CPU, &err), NB_OK);
    ck_assert_int_eq(nb_forces_set_partition(f, &bad, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "rank 2 of 2"));
    bad.rank = 0;
    bad.sum_int64 = NULL;
    ck_assert_int_eq(nb_forces_set_partition(f, &bad, &err), NB_ERR_ARGS);
    bad.sum_int64 = keep_int64;
    bad.split = NB_SPLIT_I;             /* nothing to gather with */
    ck_assert_int_eq(nb_forces_set_partition(f, &bad, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "NB_SPLIT_I needs gather_double"));
    bad.split = (enum nb_split)7;
    ck_assert_int_eq(nb_forces_set_partition(f, &bad, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_set_partition(f, NULL, &err), NB_OK);
    nb_forces_destroy(f);
}
END_TEST

/* sum_j |a_ij| of block particle k: the scale of float rounding in a_k. */
static double acc_scale(const struct system *sys, size_t k, double eps)
{
    size_t i = sys->active[k];
    double sum = 0.0;
    for (size_t j = 0; j < sys->n; j++) {
        double r2 = eps * eps;
        if (j == i)
            continue;
        for (int c = 0; c < 3; c++)
            r2 += (sys->x[3 * j + c] - sys->x[3 * i + c]) * (sys->x[3 * j + c] - sys->x[3 * i + c]);
        sum += sys->m[j] * sqrt(r2 - eps * eps) / (r2 * sqrt(r2));
    }
    return sum;
}

/* Mode A on the GPU engines: the two ranks' total within check_gpu's
 * bound of the one-process sum (two float sums of the same terms). */
static void float_split_agrees(struct nb_gl *gl, enum nb_engine engine)
{
    static struct system sys;
    static double a[3 * 1024], j[3 * 1024], phi[1024], a2[3 * 1024], j2[3 * 1024],
        phi2[1024];
    static const size_t sizes[] = { 2, 3, 509, 1000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        system_random(&sys, sizes[s]);
        gaj_both_ways(gl, engine, NB_PRECISION_A, &sys, a, j, phi, a2, j2, phi2);
        for (size_t k = 0; k < sys.na; k++) {
            double bound = 2 * TOLERANCE * acc_scale(&sys, k, 0.05);
            for (int c = 0; c < 3; c++)
                ck_assert_msg(fabs(a2[3 * k + c] - a[3 * k + c]) <= bound, "engine %d, n "
                              "%zu, particle %zu: %g vs %g", (int)engine, sys.n, k,
                              a2[3 * k + c], a[3 * k + c]);
            ck_assert(fabs(phi2[k] - phi[k]) <= 2 * TOLERANCE * fabs(phi[k]));
        }
    }
}

START_TEST(test_hook_float_engines)
{
    struct nb_gl *gl = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_gl_create(&gl, NULL, &err) == NB_OK, "%s", err.message);
    float_split_agrees(gl, NB_ENGINE_COMPUTE);
    float_split_agrees(gl, NB_ENGINE_FRAGMENT);
    nb_gl_destroy(gl);
}
END_TEST

static Suite *partition_suite(void)
{
    Suite *s = suite_create("partition");
    TCase *lib = tcase_create("hook");
    tcase_add_test(lib, test_slices_cover);
    tcase_add_test(lib, test_hook_cpu);
    tcase_add_test(lib, test_hook_refusals);
    tcase_add_test(lib, test_hook_cpu_i_and_whole_exact);
    tcase_add_test(lib, test_split_choice);
    suite_add_tcase(s, lib);
    TCase *lib_gl = tcase_create("hook_gl");
    tcase_set_tags(lib_gl, NB_TEST_GL_TAG);
    tcase_set_timeout(lib_gl, 120);
    tcase_add_test(lib_gl, test_hook_compute_h_exact);
    tcase_add_test(lib_gl, test_hook_float_engines);
    suite_add_tcase(s, lib_gl);
    return s;
}

int main(void)
{
    const char *seed = getenv("NB_TEST_SEED");     /* replays a run */
    g_seed = seed && *seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL);
    printf("check_partition: seed %llu\n", (unsigned long long)g_seed);
    int gl = gl_context_available("check_partition");
    SRunner *sr = srunner_create(partition_suite());
    srunner_run_tagged(sr, NULL, NULL, NULL, gl ? NULL : NB_TEST_GL_TAG, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    return gl ? EXIT_SUCCESS : NB_TEST_SKIPPED;
}
