/* cmd_forces.c - glnbody forces: the GA forces of a snapshot file.
 *
 * Output, in the input's order: a '#' header line naming the backend,
 * variant, renderer and softening, then `id ax ay az pot` per particle
 * (%.17g from the CPU, %.9g from the GPU: all digits a float carries). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file_roles.h"
#include "mpi_world.h"

struct forces_args {
    const char *input, *softening, *backend, *variant, *output, *precision;
    enum nb_precision mode;
    struct nb_gl_cli gl;
};

static enum nb_status write_forces(const char *path, enum nb_engine engine,
                                   const struct nb_forces *f, enum nb_precision mode,
                                   const struct nb_particles *p, double eps,
                                   const double *acc, const double *pot,
                                   struct nb_error *err)
{
    struct nb_outfile out;
    const char *fmt = (nb_forces_caps(f) & NB_FORCES_DOUBLE) || mode != NB_PRECISION_A
        ? "%lld %.17g %.17g %.17g %.17g\n" : "%lld %.9g %.9g %.9g %.9g\n";
    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    fprintf(out.fp, "# glnbody forces kernel=ga backend=%s variant=%s precision=%s renderer=\"%s\" "
            "softening=%.17g n=%zu columns: id ax ay az pot\n", nb_engine_name(engine),
            nb_forces_variant(f), nb_precision_name(mode), nb_forces_renderer(f), eps, p->n);
    for (size_t i = 0; i < p->n; i++)
        fprintf(out.fp, fmt, (long long)p->id[i], acc[3 * i], acc[3 * i + 1],
                acc[3 * i + 2], pot[i]);
    return nb_outfile_commit(&out, err);
}

static enum nb_status evaluate(const struct forces_args *a, double eps,
                               const struct nb_particles *p, struct nb_gl **gl,
                               struct nb_forces **f, double *acc, double *pot,
                               struct nb_error *err)
{
    enum nb_engine engine;
    if (nb_engine_parse(a->backend ? a->backend : "compute", &engine, err) != NB_OK ||
        nb_forces_open(f, engine, &a->gl, gl, err) != NB_OK)
        return err->status;
    if (a->mode != NB_PRECISION_A && !(nb_forces_caps(*f) & NB_FORCES_MODES))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "forces: backend %s has no "
                            "--precision modes (only A); use --backend compute or "
                            "fragment", nb_engine_name(engine));
    /* under mpirun: this rank's j-slice through the GAJ kernel, summed over all */
    if (nb_forces_set_variant(*f, a->variant ? a->variant : "auto", err) != NB_OK ||
        nb_forces_set_precision(*f, a->mode, err) != NB_OK ||
        (nb_mpi_partition() && nb_forces_set_partition(*f, nb_mpi_partition(), err) != NB_OK) ||
        nb_forces_ga(*f, p->n, p->x, p->m, eps, acc, pot, err) != NB_OK)
        return err->status;
    if (nb_mpi_rank() > 0)      /* rank 0 alone writes */
        return NB_OK;
    return write_forces(a->output, engine, *f, a->mode, p, eps, acc, pot, err);
}

int nb_cmd_forces(int argc, char **argv)
{
    struct forces_args a = { 0 };
    const struct nb_option table[] = {
        { "input", "FILE", "snapshot: `id m x y z vx vy vz` or `id type m x y z vx vy vz` "
          "per line", &a.input, NULL },
        { "softening", "EPS", "Plummer softening length (>= 0; 0 works)", &a.softening, NULL },
        { "backend", "cpu|compute|fragment", "force engine (default compute)", &a.backend, NULL },
        { "variant", "NAME", "kernel variant (default auto: the fastest measured; "
          "glnbody bench lists them; with --precision B..H on fragment, "
          "prec1x1-p<P> or any -p<P> sets the passes)", &a.variant, NULL },
        { "output", "FILE", "where to write the forces (default stdout; written "
          "whole or not at all)", &a.output, NULL },
        { "precision", "A..H", "accumulation (Narumi et al., Table 1; compute and fragment "
          "backends): "
          "A float (default), B double sums, C Takahashi-Iitaka, D Nitadori, "
          "E modified Nitadori, F Narumi, G double, H int64 fixed point", &a.precision,
          NULL },
        NB_GL_OPTIONS(a.gl),
        { 0 } };
    struct nb_error err = { 0 };
    int help;
    if (nb_options_parse("forces", table, argc, argv, &help, &err) != NB_OK)
        return nb_cli_fail(&err);
    if (help) {
        nb_options_print(stdout, "glnbody forces --input FILE --softening EPS "
                         "[--backend cpu|compute|fragment] [--variant NAME] [--precision A..H] "
                         "[--output FILE]",
                         "Evaluates the GA kernel (acceleration and potential, G = 1) of "
                         "every particle of a snapshot and writes `id ax ay az pot` lines.  "
                         "Under mpirun -np P the sum is shared over P ranks (Harfst et al. "
                         "2007).",
                         table);
        return 0;
    }
    double eps = 0.0;
    if (!a.input || !a.softening) {
        nb_error_set(&err, NB_ERR_ARGS, "forces: --input and --softening are required "
                     "(see glnbody forces --help)");
        return nb_cli_fail(&err);
    }
    const struct nb_file_use uses[] = {
        { "input", a.input, NB_FILE_IN, NULL, NULL, 0 },
        { "output", a.output, NB_FILE_OUT, NULL, NULL, 0 },
    };
    if (nb_check_file_uses("forces", uses, 2, &err) != NB_OK ||
        nb_parse_double("softening", a.softening, 0.0, &eps, &err) != NB_OK ||
        nb_gl_cli_validate(&a.gl, &err) != NB_OK ||
        (a.precision && nb_precision_parse("--precision", a.precision, &a.mode, &err) != NB_OK) ||
        (a.backend && nb_engine_parse(a.backend, NULL, &err) != NB_OK))
        return nb_cli_fail(&err);

    if (nb_mpi_rank() > 0)
        a.gl.quiet = 1;         /* rank 0 alone reports */
    struct nb_particles p = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_forces *f = NULL;
    double *acc = NULL, *pot = NULL;
    if (nb_snapshot_read(a.input, &p, &err) == NB_OK &&
        nb_check_no_coincident(a.input, &p, eps, &err) == NB_OK &&
        (acc = nb_cli_alloc(3 * p.n, sizeof *acc, "accelerations", &err)) &&
        (pot = nb_cli_alloc(p.n, sizeof *pot, "potentials", &err)))
        evaluate(&a, eps, &p, &gl, &f, acc, pot, &err);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    free(acc);
    free(pot);
    nb_particles_free(&p);
    return err.status == NB_OK ? 0 : nb_cli_fail(&err);
}
