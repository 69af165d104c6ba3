/* forces.c - gravitational accelerations of the user's own particles with
 * nb_forces_ga, checked against a direct sum in double written here.
 *
 *   cc forces.c $(pkg-config --cflags --libs glnbody) -lm -o forces
 *   ./forces [cpu|compute|fragment]      (default: compute)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glnbody.h>

#define N 1000
#define EPS 0.01        /* Plummer softening */

static void check(enum nb_status status, const struct nb_error *err)
{
    if (status != NB_OK) {
        fprintf(stderr, "forces: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *engine_name = argc > 1 ? argv[1] : "compute";
    enum nb_engine engine = strcmp(engine_name, "cpu") == 0 ? NB_ENGINE_CPU
                          : strcmp(engine_name, "fragment") == 0 ? NB_ENGINE_FRAGMENT
                          : NB_ENGINE_COMPUTE;
    static double x[3 * N], m[N], acc[3 * N], pot[N];
    struct nb_error err = { 0 };

    /* The user's particles: a cube of unequal masses, from a simple
     * linear congruential generator so that the example needs nothing else. */
    unsigned long long state = 12345;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            x[3 * i + k] = (double)(state >> 11) / 9007199254740992.0 * 2 - 1;
        }
        m[i] = (1.0 + i % 3) / (2.0 * N);
    }

    struct nb_gl *gl = NULL;
    if (engine != NB_ENGINE_CPU) {
        struct nb_gl_options opt;
        nb_gl_options_default(&opt);
        printf("shaders from %s\n", opt.shader_dir);
        check(nb_gl_create(&gl, &opt, &err), &err);
        printf("renderer: %s\n", nb_gl_renderer(gl));
    }
    struct nb_forces *f = NULL;
    check(nb_forces_create(&f, gl, engine, &err), &err);
    check(nb_forces_ga(f, N, x, m, EPS, acc, pot, &err), &err);
    printf("%s engine, variant %s, N = %d, softening %g\n", engine_name,
           nb_forces_variant(f), N, EPS);

    /* The direct sum in double: a_i = sum_j m_j (x_j - x_i) / (r^2 + eps^2)^1.5.
     * The error of particle i is |a_i - a_i^ref| / |a_i^ref|. */
    double worst = 0, worst_pot = 0;
    for (int i = 0; i < N; i++) {
        double a[3] = { 0, 0, 0 }, phi = 0;
        for (int j = 0; j < N; j++) {
            if (j == i)
                continue;
            double d[3], r2 = EPS * EPS;
            for (int k = 0; k < 3; k++) {
                d[k] = x[3 * j + k] - x[3 * i + k];
                r2 += d[k] * d[k];
            }
            double rinv = 1 / sqrt(r2);
            for (int k = 0; k < 3; k++)
                a[k] += m[j] * d[k] * rinv * rinv * rinv;
            phi -= m[j] * rinv;
        }
        double da2 = 0, a2 = 0;
        for (int k = 0; k < 3; k++) {
            da2 += (acc[3 * i + k] - a[k]) * (acc[3 * i + k] - a[k]);
            a2 += a[k] * a[k];
        }
        double e = sqrt(da2 / a2), ep = fabs(pot[i] - phi) / fabs(phi);
        worst = e > worst ? e : worst;
        worst_pot = ep > worst_pot ? ep : worst_pot;
    }
    printf("largest relative error against the direct sum: acceleration %.3e, "
           "potential %.3e\n", worst, worst_pot);

    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    /* Float kernels agree to about 1e-6; fail loudly if far off. */
    if (!(worst < 1e-4 && worst_pot < 1e-4)) {
        fprintf(stderr, "forces: the error is larger than 1e-4\n");
        return 1;
    }
    return 0;
}
