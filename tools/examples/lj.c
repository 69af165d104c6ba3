/* lj.c - a Lennard-Jones liquid: 4 cells^3 atoms on an fcc lattice at
 * density 0.8442 and temperature 1 (reduced units), stepped with velocity
 * Verlet, its thermodynamic state printed as a table.
 *
 *   cc lj.c $(pkg-config --cflags --libs glnbody) -o lj
 *   ./lj [cpu|compute|fragment] [cells]     (default: compute, 4: 256 atoms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glnbody.h>

static void check(enum nb_status status, const struct nb_error *err)
{
    if (status != NB_OK) {
        fprintf(stderr, "lj: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *engine_name = argc > 1 ? argv[1] : "compute";
    int cells = argc > 2 ? atoi(argv[2]) : 4;
    enum nb_engine engine = strcmp(engine_name, "cpu") == 0 ? NB_ENGINE_CPU
                          : strcmp(engine_name, "fragment") == 0 ? NB_ENGINE_FRAGMENT
                          : NB_ENGINE_COMPUTE;
    struct nb_error err = { 0 };
    struct nb_gl *gl = NULL;
    if (engine != NB_ENGINE_CPU) {
        struct nb_gl_options opt;
        nb_gl_options_default(&opt);
        check(nb_gl_create(&gl, &opt, &err), &err);
    }

    /* LJ with a cutoff of 2.5 sigma, the energy shifted to 0 there; the
     * lattice sets the (periodic) box. */
    struct nb_md_params par;
    nb_md_params_default(&par);
    par.law = NB_LAW_LJ;
    par.cutoff = 2.5;
    par.shift = 1;
    par.dt = 0.005;
    struct nb_md *md = NULL;
    check(nb_md_create_fcc(&md, gl, engine, cells, 0.8442, 1.0, 1, &par, &err), &err);
    printf("%s engine, %zu LJ atoms, dt %g\n", engine_name, nb_md_count(md), par.dt);

    /* 200 steps, a row every 20. */
    struct nb_md_thermo th;
    double e0 = 0, drift = 0;
    printf("%6s %8s %10s %12s %12s %12s %10s\n", "step", "time", "temp", "pe", "ke",
           "etotal", "press");
    for (int row = 0; row <= 10; row++) {
        if (row > 0)
            check(nb_md_step(md, 20, &err), &err);
        check(nb_md_get_thermo(md, &th, &err), &err);
        if (row == 0)
            e0 = th.etotal;
        double d = (th.etotal - e0) / nb_md_count(md);
        drift = d < 0 ? (-d > drift ? -d : drift) : (d > drift ? d : drift);
        printf("%6llu %8.3f %10.5f %12.4f %12.4f %12.4f %10.5f\n",
               (unsigned long long)th.step, th.time, th.temp, th.pe, th.ke, th.etotal,
               th.press);
    }
    printf("largest total energy change per atom: %.3e\n", drift);

    nb_md_destroy(md);
    nb_gl_destroy(gl);
    return 0;
}
