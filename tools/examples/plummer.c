/* plummer.c - a Plummer sphere integrated with glnbody's Hermite block
 * steps (Makino & Aarseth 1992) from user code, printing the relative
 * energy error as it goes.
 *
 *   cc plummer.c $(pkg-config --cflags --libs glnbody) -o plummer
 *   ./plummer [cpu|compute|fragment] [N]      (default: compute, 256)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glnbody.h>

/* Prints the library's message and exits non-zero. */
static void check(enum nb_status status, const struct nb_error *err)
{
    if (status != NB_OK) {
        fprintf(stderr, "plummer: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *engine_name = argc > 1 ? argv[1] : "compute";
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 256;
    enum nb_engine engine = strcmp(engine_name, "cpu") == 0 ? NB_ENGINE_CPU
                          : strcmp(engine_name, "fragment") == 0 ? NB_ENGINE_FRAGMENT
                          : NB_ENGINE_COMPUTE;
    struct nb_error err = { 0 };
    struct nb_gl *gl = NULL;

    /* A GL context for the GPU engines (the CPU engine needs none). */
    if (engine != NB_ENGINE_CPU) {
        struct nb_gl_options opt;
        nb_gl_options_default(&opt);
        check(nb_gl_create(&gl, &opt, &err), &err);
        printf("renderer: %s\n", nb_gl_renderer(gl));
    }

    /* The force engine, then the run: n equal masses in N-body units
     * (E = -1/4; Aarseth, Henon & Wielen 1974), seed 1. */
    struct nb_forces *forces = NULL;
    check(nb_forces_create(&forces, gl, engine, &err), &err);
    struct nb_hermite_params par;
    nb_hermite_params_default(&par);
    struct nb_hermite *run = NULL;
    check(nb_hermite_create_plummer(&run, forces, n, 1, &par, &err), &err);

    double k0, w0;
    check(nb_hermite_energy(run, &k0, &w0, &err), &err);
    printf("glnbody %s, %s engine, Plummer sphere of %zu bodies, E0 = %.6f\n",
           nb_version(), engine_name, n, k0 + w0);
    printf("%8s %14s %12s\n", "t", "(E-E0)/|E0|", "blocks");

    /* Up to t = 1 in eight stops, the energy error at each. */
    double worst = 0;
    for (int stop = 1; stop <= 8; stop++) {
        double k, w;
        uint64_t blocks, steps;
        check(nb_hermite_integrate(run, stop / 8.0, &err), &err);
        check(nb_hermite_energy(run, &k, &w, &err), &err);
        nb_hermite_counts(run, &blocks, &steps);
        double de = (k + w - (k0 + w0)) / (k0 + w0 < 0 ? -(k0 + w0) : k0 + w0);
        worst = de < 0 ? (-de > worst ? -de : worst) : (de > worst ? de : worst);
        printf("%8.3f %14.3e %12llu\n", nb_hermite_time(run), de,
               (unsigned long long)blocks);
    }
    printf("largest relative energy error: %.3e\n", worst);

    /* Handles before the context they were made on. */
    nb_hermite_destroy(run);
    nb_forces_destroy(forces);
    nb_gl_destroy(gl);
    return 0;
}
