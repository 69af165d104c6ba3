/* md_system.c - the system of glnbody md and glnbody view md, made from
 * md's options (md_options.c): generated (fcc, grid, ionic), read (a
 * snapshot with types or a LAMMPS dump), or a checkpoint's; with the
 * --coeffs table, the --exclude pairs and the --box and --periodic
 * options, prepared and checked before any GL work. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "md_cli.h"

static int is_lammps_dump(const char *path)
{
    char line[32] = "";
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    int got = fgets(line, sizeof line, fp) != NULL;
    /* a byte-order mark is no data (the text reader skips it too) */
    const char *at = strncmp(line, "\xef\xbb\xbf", 3) == 0 ? line + 3 : line;
    int yes = got && strncmp(at, "ITEM: TIMESTEP", 14) == 0;
    fclose(fp);
    return yes;
}

/* A snapshot file gives no box: the particles' extent, open. */
static void bounding_box(const struct nb_particles *p, struct nb_md_box *box)
{
    for (int a = 0; a < 3; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            lo = fmin(lo, p->x[3 * i + a]);
            hi = fmax(hi, p->x[3 * i + a]);
        }
        if (!(lo < hi)) {
            lo = p->n ? lo - 0.5 : -0.5;
            hi = lo + 1.0;
        }
        box->lo[a] = lo;
        box->hi[a] = hi;
        box->periodic[a] = 0;
    }
}

static enum nb_status read_input(const struct md_config *c, struct nb_particles *p,
                                 struct nb_md_box *box, struct nb_error *err)
{
    if (is_lammps_dump(c->input))
        return nb_lammps_dump_read(c->input, p, box, &c->pot, err);
    if (nb_snapshot_read(c->input, p, err) != NB_OK)
        return err->status;
    if (!p->type)
        return nb_error_set(err, NB_ERR_PARSE, "%s: molecular dynamics needs a type "
                            "column (`id type m x y z vx vy vz`)", c->input);
    bounding_box(p, box);
    return NB_OK;
}

static enum nb_status make_particles(struct md_config *c, struct nb_particles *p,
                                     struct nb_md_box *box, struct nb_error *err)
{
    if (c->coeffs && nb_md_types_read(c->coeffs, &c->pot, err) != NB_OK)
        return err->status;
    if (nb_md_potential_check(&c->pot, err) != NB_OK)
        return err->status;
    if (c->input)
        return read_input(c, p, box, err);
    if (strcmp(c->ic, "fcc") == 0)
        return nb_md_fcc(p, box, (int)c->cells, c->density, c->temperature, c->seed, err);
    if (strcmp(c->ic, "ionic") == 0)
        return nb_md_ionic_crystal(p, box, (int)c->cells, c->lattice, &c->pot, err);
    return nb_md_grid(p, box, (int)c->cells, c->density, &c->pot, c->energy, c->seed, err);
}

/* The particles, and a --coeffs table checked against them: a type pair
 * that never interacts is refused (the particles may carry charges). */
static enum nb_status make_system(struct md_config *c, struct nb_particles *p,
                                  struct nb_md_box *box, struct nb_error *err)
{
    if (make_particles(c, p, box, err) != NB_OK ||
        (c->coeffs && nb_md_types_check_interactions(&c->pot, c->coeffs, p->q != NULL,
                                                     err) != NB_OK))
        return err->status;
    return NB_OK;
}

/* --box and --periodic replace what the source said. */
static void apply_box_options(const struct md_config *c, struct nb_md_box *box)
{
    for (int a = 0; c->have_box && a < 3; a++) {
        box->lo[a] = c->box[2 * a];
        box->hi[a] = c->box[2 * a + 1];
    }
    for (int a = 0; c->have_periodic && a < 3; a++)
        box->periodic[a] = c->periodic[a];
}

/* The system: the checkpoint's on a restart, else made from the options
 * (with the exclusions and the box options) and prepared (checked). */
enum nb_status nb_md_cli_make_system(struct md_config *c, struct nb_md **md,
                                     struct nb_particles *p, struct nb_md_box *box,
                                     size_t *n_excluded, struct nb_error *err)
{
    uint32_t *excluded = NULL;

    if (c->restart) {
        *n_excluded = c->restart->n_excluded;
        return nb_md_prepare_restart(md, c->args->restart, c->cell_list, p, box, err);
    }
    if (make_system(c, p, box, err) != NB_OK ||
        (c->exclude && nb_md_exclusions_read(c->exclude, p, &excluded, n_excluded,
                                             err) != NB_OK)) {
        free(excluded);
        return err->status;
    }
    apply_box_options(c, box);
    /* The system is checked here, once, before any GL work, so that a bad
     * box or cutoff is the only message; the engine trusts it.  Cell lists
     * by default (-1) wherever the geometry allows them and the engine has
     * them. */
    nb_md_prepare(md, p, &c->pot, box, c->cell_list, c->dt, *n_excluded, excluded, err);
    free(excluded);
    return err->status;
}
