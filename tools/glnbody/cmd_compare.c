/* cmd_compare.c - glnbody compare: every backend on one random system,
 * timed, with its error against the double-precision CPU reference.  This
 * is what `make run` shows; it fails (exit 1) when a GPU result is off by
 * more than the test suite's tolerance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The test suite's bound: |da| <= 1e-5 sum_j |a_ij|, same for phi. */
#define NB_COMPARE_TOLERANCE 1e-5


/* Runs one backend; *bad is set when its error exceeds the tolerance. */
static enum nb_status compare_one(const char *name, const struct nb_gl_cli *g,
                                  struct nb_gl **gl, const struct nb_particles *p,
                                  double eps, const struct nb_reference *ref, int *bad,
                                  struct nb_error *err)
{
    struct nb_forces *f = NULL;
    double seconds = 0.0, *acc = NULL, *pot = NULL;
    struct nb_accuracy q;
    enum nb_engine engine;
    enum nb_status st = nb_engine_parse(name, &engine, err);
    if (st == NB_OK)
        st = nb_forces_open(&f, engine, g, gl, err);
    if (st == NB_OK && (!(acc = nb_cli_alloc(3 * p->n, sizeof *acc, "results", err)) ||
                        !(pot = nb_cli_alloc(p->n, sizeof *pot, "results", err))))
        st = NB_ERR_NOMEM;
    if (st == NB_OK && (st = nb_forces_time_ga(f, p->n, p->x, p->m, eps, 1, 5, acc, pot,
                                               &seconds, err)) == NB_OK) {
        nb_accuracy_ga(p->n, p->m, acc, pot, ref->acc, ref->pot, ref->acc_abs,
                       ref->pot_abs, &q);
        int ok = q.nonfinite == 0 && q.acc_rel_max <= NB_COMPARE_TOLERANCE &&
                 q.pot_rel_max <= NB_COMPARE_TOLERANCE;
        *bad |= !ok;
        printf("%-9s %-14s %11.3e %14.3e %12.2e %12.2e %10.2e %10.2e  %s\n", name,
               nb_forces_variant(f), seconds, (double)p->n * (double)p->n / seconds,
               q.acc_rel_max, q.pot_rel_max, q.f_err, q.f_offset, ok ? "ok" : "FAIL");
    }
    nb_forces_destroy(f);
    free(acc);
    free(pot);
    return st;
}

/* Every name of the --backends list known, no item empty: checked before
 * anything runs, so that no row is printed for a list that fails. */
static enum nb_status check_backends(const char *list, struct nb_error *err)
{
    enum nb_engine engine;
    char *copy, *save = NULL;

    if (nb_check_list("backends", list, err) != NB_OK)
        return err->status;
    if (!(copy = strdup(list)))
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
        if (nb_engine_parse(name, &engine, err) != NB_OK) {
            char reason[sizeof err->message];
            snprintf(reason, sizeof reason, "%s", err->message);
            nb_error_set(err, err->status, "--backends: %s", reason);
            break;
        }
    free(copy);
    return err->status;
}

int nb_cmd_compare(int argc, char **argv)
{
    const char *n_text = NULL, *eps_text = NULL, *seed_text = NULL, *backends = NULL;
    struct nb_gl_cli g = { 0 };
    const struct nb_option table[] = {
        { "n", "N", "particles (default 4096)", &n_text, NULL },
        { "softening", "EPS", "Plummer softening (default 0.01)", &eps_text, NULL },
        { "seed", "S", "random seed (default 1)", &seed_text, NULL },
        { "backends", "LIST", "backends to run (default cpu,compute,fragment)", &backends, NULL },
        NB_GL_OPTIONS(g),
        { 0 } };
    struct nb_error err = { 0 };
    int help;
    long n = 4096, seed = 1;
    double eps = 0.01;
    if (nb_options_parse("compare", table, argc, argv, &help, &err) != NB_OK ||
        (n_text && nb_parse_long("n", n_text, 1, 1L << 26, &n, &err) != NB_OK) ||
        (eps_text && nb_parse_double("softening", eps_text, 0.0, &eps, &err) != NB_OK) ||
        nb_check_range(NULL, NULL, eps, NB_ENGINE_COMPUTE, &err) != NB_OK ||
        (seed_text && nb_parse_long("seed", seed_text, 0, 1L << 62, &seed, &err) != NB_OK) ||
        nb_gl_cli_validate(&g, &err) != NB_OK ||
        (backends && check_backends(backends, &err) != NB_OK))
        return nb_cli_fail(&err);
    if (help) {
        nb_options_print(stdout, "glnbody compare [--n N] [--softening EPS] [--seed S] "
                         "[--backends LIST]", "Runs the GA kernel on every backend for N "
                         "random particles and prints speed and error against the CPU.",
                         table);
        return 0;
    }
    struct nb_particles p = { 0 };
    struct nb_reference ref = { 0 };
    struct nb_gl *gl = NULL;
    int bad = 0;
    char *list = strdup(backends ? backends : "cpu,compute,fragment"), *save = NULL;
    if (nb_particles_random_cube(&p, (size_t)n, (uint64_t)seed, &err) == NB_OK &&
        nb_reference_make(&ref, &p, eps, &err) == NB_OK) {
        printf("GA kernel, N = %ld particles uniform in [-1,1)^3, softening %g, seed %ld\n"
               "%-9s %-14s %11s %14s %12s %12s %10s %10s\n", n, eps, seed, "backend",
               "variant", "seconds", "interact./s", "max da/|a|", "max dphi/|phi|",
               "f_err", "f_offset");
        for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            if (compare_one(name, &g, &gl, &p, eps, &ref, &bad, &err) == NB_OK)
                continue;
            /* The default list skips what this context cannot run and
             * says why; a backend the user named is an error. */
            if (backends || err.status != NB_ERR_UNSUPPORTED)
                break;
            printf("%-9s skipped: %s\n", name, err.message);
            err = (struct nb_error){ 0 };
        }
    }
    free(list);
    nb_reference_free(&ref);
    nb_particles_free(&p);
    nb_gl_destroy(gl);
    if (err.status != NB_OK)
        return nb_cli_fail(&err);
    if (bad)
        fprintf(stderr, "glnbody: a backend's error exceeds %g of the pair-term "
                "magnitudes\n", NB_COMPARE_TOLERANCE);
    return bad;
}
