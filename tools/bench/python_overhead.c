/* python_overhead.c - the C side of tools/bench/python_overhead.sh: the
 * wall seconds of nb_forces_ga on a random cube of n particles, the median
 * of `runs` calls after `warmup`, as the Python package's glnbody.forces
 * makes the same call.
 *
 *   python_overhead ENGINE N RUNS WARMUP      prints "median_s min_s"
 */
#include <stdio.h>
#include <stdlib.h>

#include <glnbody.h>

static void check(enum nb_status st, const struct nb_error *err)
{
    if (st != NB_OK) {
        fprintf(stderr, "python_overhead: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    struct nb_error err = { 0 };
    enum nb_engine engine;
    if (argc != 5) {
        fprintf(stderr, "usage: python_overhead ENGINE N RUNS WARMUP\n");
        return 2;
    }
    check(nb_engine_parse(argv[1], &engine, &err), &err);
    size_t n = strtoul(argv[2], NULL, 10);
    int runs = atoi(argv[3]), warmup = atoi(argv[4]);
    if (n < 2 || runs < 1 || warmup < 0) {
        fprintf(stderr, "python_overhead: N >= 2, RUNS >= 1, WARMUP >= 0\n");
        return 2;
    }
    struct nb_gl *gl = NULL;
    struct nb_forces *f = NULL;
    struct nb_particles p = { 0 };
    if (nb_engine_needs_gl(engine))
        check(nb_gl_create(&gl, NULL, &err), &err);
    check(nb_forces_create(&f, gl, engine, &err), &err);
    check(nb_particles_random_cube(&p, n, 1, &err), &err);
    double *acc = malloc(3 * n * sizeof *acc), *pot = malloc(n * sizeof *pot);
    double *t = malloc((size_t)runs * sizeof *t), lo = 1e300;
    if (!acc || !pot || !t)
        return 1;
    for (int k = -warmup; k < runs; k++) {
        double t0 = nb_clock_seconds();
        check(nb_forces_ga(f, n, p.x, p.m, 0.01, acc, pot, &err), &err);
        if (k >= 0) {
            t[k] = nb_clock_seconds() - t0;
            lo = t[k] < lo ? t[k] : lo;
        }
    }
    printf("%.9f %.9f\n", nb_median(t, (size_t)runs), lo);
    free(acc); free(pot); free(t);
    nb_particles_free(&p);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    return 0;
}
