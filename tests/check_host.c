/* check_host.c - tests of the host layer: errors, random numbers, particle
 * sets, output files, the CPU reference forces and the CPU backend
 * (snapshot files: check_snapshot; the text reader: check_text).
 *
 * Tests that use fresh random inputs print their seed on failure; set
 * NB_TEST_SEED to that value to replay one.
 */
#include "nb_host.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------ */

/* A new seed per call (clock, pid, salt), or NB_TEST_SEED when set. */
static uint64_t fresh_seed(uint64_t salt)
{
    const char *env = getenv("NB_TEST_SEED");
    struct timespec ts;

    if (env && *env)
        return strtoull(env, NULL, 0);
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
           ((uint64_t)getpid() << 32) ^ (salt * UINT64_C(0x9e3779b97f4a7c15));
}

static void make_temp_dir(char *dir, size_t size)
{
    const char *base = getenv("TMPDIR");

    snprintf(dir, size, "%s/check_host.XXXXXX", base && *base ? base : "/tmp");
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
}

/* Number of entries in dir other than . and ..; the last name in last. */
static int count_entries(const char *dir, char *last, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        if (last)
            snprintf(last, size, "%s", e->d_name);
    }
    closedir(d);
    return count;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];

    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void write_file(const char *path, const char *content, size_t len)
{
    FILE *fp = fopen(path, "wb");

    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(content, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

static char *read_whole_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *buf = calloc(1, 4096);
    size_t len;

    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(buf);
    len = fread(buf, 1, 4095, fp);
    buf[len] = '\0';
    fclose(fp);
    return buf;
}

static void assert_particles_empty(const struct nb_particles *p)
{
    ck_assert_uint_eq(p->n, 0);
    ck_assert_ptr_null(p->id);
    ck_assert_ptr_null(p->type);
    ck_assert_ptr_null(p->m);
    ck_assert_ptr_null(p->x);
    ck_assert_ptr_null(p->v);
}

/* ---- errors, timing ----------------------------------------------------- */

START_TEST(test_error_set)
{
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_error_set(NULL, NB_ERR_IO, "x %d", 1), NB_ERR_IO);
    ck_assert_int_eq(nb_error_set(&err, NB_ERR_PARSE, "f:%d: %s", 3, "bad"),
                     NB_ERR_PARSE);
    ck_assert_int_eq(err.status, NB_ERR_PARSE);
    ck_assert_str_eq(err.message, "f:3: bad");
}
END_TEST

START_TEST(test_alloc)
{
    struct nb_error err = {NB_OK, ""};
    double *d = nb_alloc(10, sizeof *d, "ten doubles", &err);

    ck_assert_ptr_nonnull(d);
    for (int i = 0; i < 10; i++)
        ck_assert(d[i] == 0.0);
    free(d);
    d = nb_alloc(0, sizeof *d, "nothing", &err);
    ck_assert_ptr_nonnull(d);
    free(d);
    ck_assert_ptr_null(nb_alloc(SIZE_MAX / 2, 16, "too much", &err));
    ck_assert_int_eq(err.status, NB_ERR_NOMEM);
    ck_assert_ptr_nonnull(strstr(err.message, "out of host memory"));
    ck_assert_ptr_nonnull(strstr(err.message, "too much"));
}
END_TEST

START_TEST(test_median_clock)
{
    const double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
    double t0 = nb_clock_seconds();

    ck_assert(nb_median(odd, 3) == 3.0);
    ck_assert(nb_median(even, 4) == 2.5);
    ck_assert(nb_median(odd, 1) == 5.0);
    ck_assert(nb_median(NULL, 0) == 0.0);
    ck_assert(odd[0] == 5 && even[0] == 4);     /* inputs untouched */
    ck_assert(nb_clock_seconds() >= t0);
}
END_TEST

/* ---- random numbers ----------------------------------------------------- */

START_TEST(test_rng_reference)
{
    /* From an independent implementation of splitmix64 + xoshiro256**. */
    const uint64_t want0[] = {UINT64_C(0x99ec5f36cb75f2b4),
                              UINT64_C(0xbf6e1f784956452a),
                              UINT64_C(0x1a5f849d4933e6e0),
                              UINT64_C(0x6aa594f1262d2d2c)};
    const uint64_t want12345[] = {UINT64_C(0xbe6a36374160d49b),
                                  UINT64_C(0x214aaa0637a688c6),
                                  UINT64_C(0xf69d16de9954d388),
                                  UINT64_C(0x0c60048c4e96e033)};
    struct nb_rng a, b;

    nb_rng_seed(&a, 0);
    nb_rng_seed(&b, 12345);
    for (int k = 0; k < 4; k++) {
        ck_assert_uint_eq(nb_rng_next(&a), want0[k]);
        ck_assert_uint_eq(nb_rng_next(&b), want12345[k]);
    }
}
END_TEST

START_TEST(test_rng_determinism)
{
    uint64_t seed = fresh_seed(1);
    struct nb_rng a, b, c;
    int differ = 0;
    double sum = 0.0;

    nb_rng_seed(&a, seed);
    nb_rng_seed(&b, seed);
    nb_rng_seed(&c, seed + 1);
    for (int k = 0; k < 100000; k++) {
        uint64_t va = nb_rng_next(&a);
        ck_assert_msg(va == nb_rng_next(&b), "seed %llu", (unsigned long long)seed);
        differ += va != nb_rng_next(&c);
    }
    ck_assert_int_gt(differ, 99990);
    for (int k = 0; k < 100000; k++) {
        double u = nb_rng_uniform(&a);
        ck_assert_msg(u >= 0.0 && u < 1.0, "seed %llu", (unsigned long long)seed);
        sum += u;
    }
    /* The mean of 1e5 uniforms is 0.5 +- 0.0009 (1 sigma). */
    ck_assert_msg(fabs(sum / 100000 - 0.5) < 0.01, "seed %llu",
                  (unsigned long long)seed);
}
END_TEST

/* ---- particles ---------------------------------------------------------- */

START_TEST(test_particles_alloc)
{
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_particles_alloc(&p, 5, &err), NB_OK);
    ck_assert_uint_eq(p.n, 5);
    ck_assert_ptr_null(p.type);
    for (size_t i = 0; i < 5; i++) {
        ck_assert_int_eq(p.id[i], (int64_t)i);
        ck_assert(p.m[i] == 0.0 && p.x[3 * i + 2] == 0.0 && p.v[3 * i] == 0.0);
    }
    ck_assert_int_eq(nb_particles_add_types(&p, &err), NB_OK);
    ck_assert_ptr_nonnull(p.type);
    ck_assert_int_eq(p.type[4], 0);
    nb_particles_free(&p);
    assert_particles_empty(&p);
}
END_TEST

START_TEST(test_random_cube)
{
    uint64_t seed = fresh_seed(2);
    const size_t n = 10000;
    struct nb_particles p, q;
    struct nb_error err = {NB_OK, ""};
    double msum = 0.0;

    ck_assert_int_eq(nb_particles_random_cube(&p, n, seed, &err), NB_OK);
    ck_assert_int_eq(nb_particles_random_cube(&q, n, seed, &err), NB_OK);
    ck_assert_uint_eq(p.n, n);
    ck_assert_ptr_null(p.type);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(p.id[i], (int64_t)i);
        ck_assert(p.m[i] == 1.0 / (double)n);
        msum += p.m[i];
        for (size_t k = 0; k < 3; k++) {
            double c = p.x[3 * i + k];
            ck_assert_msg(c >= -1.0 && c <= 1.0, "seed %llu: x = %g",
                          (unsigned long long)seed, c);
            ck_assert_msg((double)(float)c == c, "seed %llu: %.17g not a float",
                          (unsigned long long)seed, c);
            ck_assert(p.v[3 * i + k] == 0.0);
        }
    }
    ck_assert(fabs(msum - 1.0) < 1e-12);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof *p.x) == 0);
    nb_particles_free(&q);
    ck_assert_int_eq(nb_particles_random_cube(&q, n, seed + 1, &err), NB_OK);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof *p.x) != 0);
    nb_particles_free(&p);
    nb_particles_free(&q);
}
END_TEST

/* ---- output files ------------------------------------------------------- */

START_TEST(test_outfile_commit)
{
    char dir[1024], path[1100], name[256];
    struct nb_outfile f;
    struct nb_error err = {NB_OK, ""};
    char *content;

    make_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    write_file(path, "old\n", 4);
    ck_assert_int_eq(nb_outfile_open(&f, path, &err), NB_OK);
    /* the old file, and a named temporary only where there is no O_TMPFILE */
    ck_assert_int_eq(count_entries(dir, NULL, 0), f.unnamed ? 1 : 2);
    fprintf(f.fp, "hello %d\n", 42);
    /* Until commit the final name still holds the old content. */
    content = read_whole_file(path);
    ck_assert_str_eq(content, "old\n");
    free(content);
    ck_assert_int_eq(nb_outfile_commit(&f, &err), NB_OK);
    ck_assert_ptr_null(f.fp);
    ck_assert_int_eq(count_entries(dir, name, sizeof name), 1);
    ck_assert_str_eq(name, "out.txt");
    content = read_whole_file(path);
    ck_assert_str_eq(content, "hello 42\n");
    free(content);
    nb_outfile_abort(&f);       /* a no-op after commit */
    ck_assert_int_eq(count_entries(dir, NULL, 0), 1);
    remove_dir(dir);
}
END_TEST

/* Outputs committed together: a write error on one commits none. */
START_TEST(test_outfile_commit_all)
{
    char dir[1024], path[1100];
    struct nb_outfile a, full;
    struct nb_outfile *files[2] = { &a, &full };
    struct nb_error err = {NB_OK, ""};

    make_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/a.csv", dir);
    ck_assert_int_eq(nb_outfile_open(&a, path, &err), NB_OK);
    ck_assert_int_eq(nb_outfile_open(&full, "/dev/full", &err), NB_OK);
    ck_assert_ptr_null(full.tmp_path);          /* a device: written through */
    fputs("row\n", a.fp);
    fputs("row\n", full.fp);
    ck_assert_int_eq(nb_outfile_commit_all(files, 2, &err), NB_ERR_IO);
    ck_assert_str_eq(err.message, "/dev/full: write error: No space left on device");
    ck_assert_ptr_null(a.fp);
    ck_assert_int_eq(count_entries(dir, NULL, 0), 0);
    remove_dir(dir);
}
END_TEST

START_TEST(test_outfile_abort)
{
    char dir[1024], path[1100];
    struct nb_outfile f;
    struct nb_error err = {NB_OK, ""};

    make_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.csv", dir);
    ck_assert_int_eq(nb_outfile_open(&f, path, &err), NB_OK);
    fprintf(f.fp, "partial");
    nb_outfile_abort(&f);
    ck_assert_ptr_null(f.fp);
    ck_assert_int_eq(count_entries(dir, NULL, 0), 0);
    remove_dir(dir);
}
END_TEST

START_TEST(test_outfile_errors_and_stdout)
{
    char dir[1024], path[1100];
    struct nb_outfile f;
    struct nb_error err = {NB_OK, ""};

    make_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/no/such/dir/out.txt", dir);
    ck_assert_int_eq(nb_outfile_open(&f, path, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, path));
    ck_assert_ptr_null(f.fp);
    /* The final name is a directory: refused at open, before any data. */
    snprintf(path, sizeof path, "%s/sub", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    write_file(strcat(path, "/x"), "", 0);
    path[strlen(path) - 2] = '\0';
    ck_assert_int_eq(nb_outfile_open(&f, path, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, path));
    ck_assert_ptr_nonnull(strstr(err.message, "Is a directory"));
    ck_assert_ptr_null(f.fp);
    ck_assert_int_eq(count_entries(dir, NULL, 0), 1);
    unlink(strcat(path, "/x"));
    path[strlen(path) - 2] = '\0';
    rmdir(path);
    remove_dir(dir);

    ck_assert_int_eq(nb_outfile_open(&f, "-", &err), NB_OK);
    ck_assert_ptr_eq(f.fp, stdout);
    ck_assert_int_eq(nb_outfile_commit(&f, &err), NB_OK);
    ck_assert_int_eq(nb_outfile_open(&f, NULL, &err), NB_OK);
    ck_assert_ptr_eq(f.fp, stdout);
    nb_outfile_abort(&f);
    ck_assert_ptr_null(f.fp);
}
END_TEST

/* ---- CPU reference forces ----------------------------------------------- */

/* The plain O(N^2) definition in long double, independent of nb_cpu_ga. */
static void reference_ga(size_t n, const double *x, const double *m,
                         double eps, long double *acc, long double *pot)
{
    for (size_t i = 0; i < n; i++) {
        long double a[3] = {0, 0, 0}, phi = 0;

        for (size_t j = 0; j < n; j++) {
            long double d[3], r2 = (long double)eps * eps, rinv;

            if (j == i)
                continue;
            for (int k = 0; k < 3; k++) {
                d[k] = (long double)x[3 * j + k] - x[3 * i + k];
                r2 += d[k] * d[k];
            }
            rinv = 1.0L / sqrtl(r2);
            for (int k = 0; k < 3; k++)
                a[k] += m[j] * d[k] * rinv * rinv * rinv;
            phi -= m[j] * rinv;
        }
        for (int k = 0; k < 3; k++)
            acc[3 * i + k] = a[k];
        pot[i] = phi;
    }
}

/* Random cube positions with masses varied in [0.5, 1.5)/n, so that
 * m_i != m_j exercises both halves of every pair. */
static void random_input(struct nb_particles *p, size_t n, uint64_t seed)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_rng rng;

    ck_assert_int_eq(nb_particles_random_cube(p, n, seed, &err), NB_OK);
    nb_rng_seed(&rng, ~seed);
    for (size_t i = 0; i < n; i++)
        p->m[i] = (0.5 + nb_rng_uniform(&rng)) / (double)n;
}

static double *alloc_doubles(size_t count)
{
    double *d = calloc(count ? count : 1, sizeof *d);
    ck_assert_ptr_nonnull(d);
    return d;
}

static const size_t ga_sizes[] = {1, 2, 3, 7, 31, 256, 1000};

START_TEST(test_ga_vs_reference)
{
    const size_t n = ga_sizes[_i / 2];
    const double eps = _i % 2 ? 0.01 : 0.0;
    const uint64_t seed = fresh_seed(3 + (uint64_t)_i);
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    double *acc = alloc_doubles(3 * n), *pot = alloc_doubles(n);
    double *aabs = alloc_doubles(n), *pabs = alloc_doubles(n);
    long double *racc = calloc(3 * n, sizeof *racc);
    long double *rpot = calloc(n, sizeof *rpot);

    ck_assert(racc && rpot);
    random_input(&p, n, seed);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, eps, acc, pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, eps, aabs, pabs, &err),
                     NB_OK);
    reference_ga(n, p.x, p.m, eps, racc, rpot);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            long double d = fabsl(acc[3 * i + k] - racc[3 * i + k]);
            ck_assert_msg(d <= 1e-12L * aabs[i],
                          "seed %llu n %zu eps %g: acc[%zu][%d] %.17g vs %.17Lg",
                          (unsigned long long)seed, n, eps, i, k,
                          acc[3 * i + k], racc[3 * i + k]);
        }
        ck_assert_msg(fabsl(pot[i] - rpot[i]) <= 1e-12L * pabs[i],
                      "seed %llu n %zu eps %g: pot[%zu] %.17g vs %.17Lg",
                      (unsigned long long)seed, n, eps, i, pot[i], rpot[i]);
        ck_assert(n == 1 || (aabs[i] > 0.0 && pabs[i] > 0.0));
    }
    if (n == 1)
        ck_assert(acc[0] == 0.0 && acc[1] == 0.0 && acc[2] == 0.0 &&
                  pot[0] == 0.0 && aabs[0] == 0.0 && pabs[0] == 0.0);
    nb_particles_free(&p);
    free(acc), free(pot), free(aabs), free(pabs), free(racc), free(rpot);
}
END_TEST

START_TEST(test_ga_newton3)
{
    const size_t n = 1000;
    const uint64_t seed = fresh_seed(20);
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    double *acc = alloc_doubles(3 * n), *pot = alloc_doubles(n);
    double *aabs = alloc_doubles(n), *pabs = alloc_doubles(n);
    double total[3] = {0, 0, 0}, scale = 0.0;

    random_input(&p, n, seed);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, 0.0, acc, pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, 0.0, aabs, pabs, &err),
                     NB_OK);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            total[k] += p.m[i] * acc[3 * i + k];
        scale += p.m[i] * aabs[i];
    }
    for (int k = 0; k < 3; k++)
        ck_assert_msg(fabs(total[k]) <= 1e-13 * scale,
                      "seed %llu: total force %g of scale %g",
                      (unsigned long long)seed, total[k], scale);
    nb_particles_free(&p);
    free(acc), free(pot), free(aabs), free(pabs);
}
END_TEST

START_TEST(test_ga_thread_independent)
{
    const size_t n = 2000;
    const uint64_t seed = fresh_seed(21);
    const int saved = omp_get_max_threads();
    const int threads[] = {2, 3, 7};
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    double *acc1 = alloc_doubles(3 * n), *pot1 = alloc_doubles(n);
    double *acc = alloc_doubles(3 * n), *pot = alloc_doubles(n);

    random_input(&p, n, seed);
    omp_set_num_threads(1);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, 0.01, acc1, pot1, &err), NB_OK);
    for (int t = 0; t < 3; t++) {
        omp_set_num_threads(threads[t]);
        ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, 0.01, acc, pot, &err), NB_OK);
        ck_assert_msg(memcmp(acc, acc1, 3 * n * sizeof *acc) == 0 &&
                      memcmp(pot, pot1, n * sizeof *pot) == 0,
                      "seed %llu: %d threads differ from 1",
                      (unsigned long long)seed, threads[t]);
    }
    omp_set_num_threads(saved);
    nb_particles_free(&p);
    free(acc1), free(pot1), free(acc), free(pot);
}
END_TEST

/* m / r^2 and m / r are exact for these powers of two. */
START_TEST(test_ga_two_body)
{
    const double m[2] = {1.0, 0.5};
    struct nb_error err = {NB_OK, ""};

    for (int axis = 0; axis < 3; axis++) {
        double x[6] = {0, 0, 0, 0, 0, 0}, acc[6], pot[2], aabs[2], pabs[2];

        x[3 + axis] = 2.0;
        ck_assert_int_eq(nb_cpu_ga(2, x, m, 0.0, acc, pot, &err), NB_OK);
        for (int k = 0; k < 3; k++) {
            ck_assert(acc[k] == (k == axis ? 0.125 : 0.0));
            ck_assert(acc[3 + k] == (k == axis ? -0.25 : 0.0));
        }
        ck_assert(pot[0] == -0.25 && pot[1] == -0.5);
        ck_assert_int_eq(nb_cpu_ga_magnitudes(2, x, m, 0.0, aabs, pabs, &err),
                         NB_OK);
        ck_assert(aabs[0] == 0.125 && aabs[1] == 0.25);
        ck_assert(pabs[0] == 0.25 && pabs[1] == 0.5);
    }
}
END_TEST

/* Softening: a = m r / (r^2 + eps^2)^{3/2}; coincident points with eps = 0
 * are singular and say so rather than returning a finite number. */
START_TEST(test_ga_softening_and_singular)
{
    const double m[2] = {1.0, 1.0};
    double x[6] = {0, 0, 0, 0, 0, 0.75}, acc[6], pot[2];
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_cpu_ga(2, x, m, 1.0, acc, pot, &err), NB_OK);
    /* (0.5625 + 1)^{3/2} = 1.25^3 */
    ck_assert(fabs(acc[2] - 0.75 / (1.5625 * 1.25)) <= 1e-15);
    ck_assert(pot[0] == -0.8);
    x[5] = 0.0;
    ck_assert_int_eq(nb_cpu_ga(2, x, m, 1.0, acc, pot, &err), NB_OK);
    ck_assert(acc[0] == 0.0 && pot[0] == -1.0);   /* softened: finite */
    ck_assert_int_eq(nb_cpu_ga(2, x, m, 0.0, acc, pot, &err), NB_OK);
    ck_assert(isinf(pot[0]) && pot[0] < 0 && isnan(acc[0]));
}
END_TEST

/* ---- CPU backend -------------------------------------------------------- */

START_TEST(test_backend_cpu)
{
    const size_t n = 300;
    const uint64_t seed = fresh_seed(22);
    struct nb_force_backend b;
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    double *acc = alloc_doubles(3 * n), *pot = alloc_doubles(n);
    double *bacc = alloc_doubles(3 * n), *bpot = alloc_doubles(n);
    const char *const *names;

    ck_assert_int_eq(nb_backend_cpu_create(&b, &err), NB_OK);
    ck_assert_str_eq(b.name, "cpu");
    ck_assert_int_eq(b.set_variant(b.state, "bogus", &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "'bogus'"));
    ck_assert_ptr_nonnull(strstr(err.message, "newton3"));
    ck_assert_int_eq(b.set_variant(b.state, "auto", &err), NB_OK);
    ck_assert_str_eq(b.variant(b.state), "newton3");
    ck_assert_int_eq(b.set_variant(b.state, "newton3", &err), NB_OK);
    names = b.variants(b.state);
    ck_assert_str_eq(names[0], "newton3");
    ck_assert_ptr_null(names[1]);
    ck_assert_ptr_nonnull(strstr(b.renderer(b.state), "OpenMP threads"));
    ck_assert_int_eq(strncmp(b.renderer(b.state), "cpu (", 5), 0);

    random_input(&p, n, seed);
    ck_assert_int_eq(b.set_particles(b.state, n, p.x, p.m, &err), NB_OK);
    memset(p.x, 0, 3 * n * sizeof *p.x);        /* the backend kept a copy */
    ck_assert_int_eq(b.compute(b.state, (enum nb_kernel)42, 0.0, &err),
                     NB_ERR_UNSUPPORTED);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.01, &err), NB_OK);
    ck_assert(b.last_seconds(b.state) >= 0.0);
    ck_assert_int_eq(b.read(b.state, bacc, bpot, &err), NB_OK);
    nb_particles_free(&p);
    random_input(&p, n, seed);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, 0.01, acc, pot, &err), NB_OK);
    ck_assert(memcmp(acc, bacc, 3 * n * sizeof *acc) == 0);
    ck_assert(memcmp(pot, bpot, n * sizeof *pot) == 0);
    /* A second, smaller set replaces the first. */
    ck_assert_int_eq(b.set_particles(b.state, 1, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.0, &err), NB_OK);
    ck_assert_int_eq(b.read(b.state, bacc, bpot, &err), NB_OK);
    ck_assert(bacc[0] == 0.0 && bpot[0] == 0.0);
    b.destroy(b.state);
    nb_particles_free(&p);
    free(acc), free(pot), free(bacc), free(bpot);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *host_suite(void)
{
    Suite *s = suite_create("host");
    TCase *basic = tcase_create("basic");
    TCase *files = tcase_create("files");
    TCase *forces = tcase_create("forces");

    tcase_add_test(basic, test_error_set);
    tcase_add_test(basic, test_alloc);
    tcase_add_test(basic, test_median_clock);
    tcase_add_test(basic, test_rng_reference);
    tcase_add_test(basic, test_rng_determinism);
    tcase_add_test(basic, test_particles_alloc);
    tcase_add_test(basic, test_random_cube);
    suite_add_tcase(s, basic);

    tcase_add_test(files, test_outfile_commit);
    tcase_add_test(files, test_outfile_abort);
    tcase_add_test(files, test_outfile_commit_all);
    tcase_add_test(files, test_outfile_errors_and_stdout);
    suite_add_tcase(s, files);

    tcase_set_timeout(forces, 120);     /* generous for valgrind runs */
    tcase_add_loop_test(forces, test_ga_vs_reference, 0,
                        (int)(2 * sizeof ga_sizes / sizeof ga_sizes[0]));
    tcase_add_test(forces, test_ga_newton3);
    tcase_add_test(forces, test_ga_thread_independent);
    tcase_add_test(forces, test_ga_two_body);
    tcase_add_test(forces, test_ga_softening_and_singular);
    tcase_add_test(forces, test_backend_cpu);
    suite_add_tcase(s, forces);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(host_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
