/* md_ic.c - molecular-dynamics initial conditions: an fcc crystal at a
 * temperature, seed 002's grid at a total energy, seed 003's fluorite
 * crystal and its default ionic coefficients.
 *
 * Velocities come from nb_rng through Box-Muller, so every lattice is the
 * same for a seed on every platform.  The total momentum is removed before
 * any rescaling: a drifting centre of mass would carry kinetic energy that
 * is neither temperature nor part of the target energy.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define MAX_CELLS 65536         /* cells or side per axis: n stays far below
                                   SIZE_MAX and the loops' int indices */

/* The four sites of a cubic fcc cell, in units of the lattice constant. */
static const double fcc_basis[4][3] = {
    {0.0, 0.0, 0.0}, {0.0, 0.5, 0.5}, {0.5, 0.0, 0.5}, {0.5, 0.5, 0.0}
};

/* ---- velocities --------------------------------------------------------- */

/* count standard normal deviates by Box-Muller, two per pair of uniforms. */
static void gaussians(struct nb_rng *rng, double *out, size_t count)
{
    for (size_t i = 0; i < count; i += 2) {
        double u1 = 1.0 - nb_rng_uniform(rng);      /* (0, 1]: log finite */
        double u2 = nb_rng_uniform(rng);
        double r = sqrt(-2.0 * log(u1)), phi = 2.0 * PI * u2;

        out[i] = r * cos(phi);
        if (i + 1 < count)
            out[i + 1] = r * sin(phi);
    }
}

/* Subtracts the centre-of-mass velocity, so that sum m v = 0. */
static void remove_drift(struct nb_particles *p)
{
    double mom[3] = {0.0, 0.0, 0.0}, mass = 0.0;

    for (size_t i = 0; i < p->n; i++) {
        mass += p->m[i];
        for (int k = 0; k < 3; k++)
            mom[k] += p->m[i] * p->v[3 * i + k];
    }
    for (size_t i = 0; i < p->n; i++)
        for (int k = 0; k < 3; k++)
            p->v[3 * i + k] -= mom[k] / mass;
}

static double kinetic_energy(const struct nb_particles *p)
{
    double k = 0.0;

    for (size_t i = 0; i < p->n; i++) {
        const double *v = &p->v[3 * i];

        k += 0.5 * p->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    return k;
}

/* Gaussian velocities of unit variance per component, zero momentum. */
static void random_velocities(struct nb_particles *p, uint64_t seed)
{
    struct nb_rng rng;

    nb_rng_seed(&rng, seed);
    gaussians(&rng, p->v, 3 * p->n);
    remove_drift(p);
}

/* Multiplies every velocity by s. */
static void scale_velocities(struct nb_particles *p, double s)
{
    for (size_t i = 0; i < 3 * p->n; i++)
        p->v[i] *= s;
}

/* ---- fcc ---------------------------------------------------------------- */

static enum nb_status fcc_check(int cells, double rho, double temp,
                                struct nb_error *err)
{
    if (cells < 1 || cells > MAX_CELLS)
        return nb_error_set(err, NB_ERR_ARGS, "fcc lattice: cells must be "
                            "1..%d, not %d", MAX_CELLS, cells);
    if (!(rho > 0.0) || !isfinite(rho))
        return nb_error_set(err, NB_ERR_ARGS, "fcc lattice: the density must "
                            "be a finite number > 0, not %g", rho);
    if (!(temp >= 0.0) || !isfinite(temp))
        return nb_error_set(err, NB_ERR_ARGS, "fcc lattice: the temperature "
                            "must be a finite number >= 0, not %g", temp);
    return NB_OK;
}

/* Site s of cell (i, j, k) for lattice constant b: particle 4 cell + s. */
static void fcc_positions(struct nb_particles *p, int cells, double b)
{
    size_t at = 0;

    for (int i = 0; i < cells; i++)
        for (int j = 0; j < cells; j++)
            for (int k = 0; k < cells; k++)
                for (int s = 0; s < 4; s++, at++) {
                    p->x[3 * at] = (i + fcc_basis[s][0]) * b;
                    p->x[3 * at + 1] = (j + fcc_basis[s][1]) * b;
                    p->x[3 * at + 2] = (k + fcc_basis[s][2]) * b;
                }
}

enum nb_status nb_md_fcc(struct nb_particles *p, struct nb_md_box *box,
                         int cells, double rho, double temp, uint64_t seed,
                         struct nb_error *err)
{
    size_t n;
    double b, dof, k;

    if (fcc_check(cells, rho, temp, err) != NB_OK)
        return err->status;
    n = 4 * (size_t)cells * (size_t)cells * (size_t)cells;
    if (nb_particles_alloc(p, n, err) != NB_OK)
        return err->status;
    if (nb_particles_add_types(p, err) != NB_OK) {
        nb_particles_free(p);
        return err->status;
    }
    b = cbrt(4.0 / rho);        /* 4 atoms per cubic cell of volume b^3 */
    fcc_positions(p, cells, b);
    for (size_t i = 0; i < n; i++) {
        p->id[i] = (int64_t)i + 1;      /* LAMMPS refuses atom id 0 */
        p->type[i] = 1;
        p->m[i] = 1.0;
    }
    random_velocities(p, seed);
    /* T = 2 K / (3n - 3), as nb_md_thermo and LAMMPS count: momentum
     * removal took 3 degrees of freedom, and n = 4 gives 9 > 0. */
    dof = 3.0 * (double)n - 3.0;
    k = kinetic_energy(p);
    scale_velocities(p, temp > 0.0 && k > 0.0 ? sqrt(0.5 * dof * temp / k)
                                               : 0.0);
    for (int a = 0; a < 3; a++) {
        box->lo[a] = 0.0;
        box->hi[a] = cells * b;
        box->periodic[a] = 1;
    }
    return NB_OK;
}

/* ---- seed 002's grid ---------------------------------------------------- */

static enum nb_status grid_check(int side, double rho,
                                 const struct nb_md_potential *pot,
                                 double e_target, struct nb_error *err)
{
    if (side < 1 || side > MAX_CELLS)
        return nb_error_set(err, NB_ERR_ARGS, "grid: side must be 1..%d, not "
                            "%d", MAX_CELLS, side);
    if (!(rho > 0.0) || !isfinite(rho))
        return nb_error_set(err, NB_ERR_ARGS, "grid: the density must be a "
                            "finite number > 0, not %g", rho);
    if (!isfinite(e_target))
        return nb_error_set(err, NB_ERR_ARGS, "grid: the target energy must be "
                            "finite, not %g", e_target);
    return nb_md_potential_check(pot, err);
}

/* Cell-centred sites: spacing h, the box [-L/2, L/2)^3 with L = side h. */
static void grid_positions(struct nb_particles *p, int side, double h)
{
    double half = 0.5 * side * h;
    size_t at = 0;

    for (int i = 0; i < side; i++)
        for (int j = 0; j < side; j++)
            for (int k = 0; k < side; k++, at++) {
                p->x[3 * at] = (i + 0.5) * h - half;
                p->x[3 * at + 1] = (j + 0.5) * h - half;
                p->x[3 * at + 2] = (k + 0.5) * h - half;
            }
}

/* U = sum of the per-particle energies of nb_md_cpu_forces: cell lists
 * where the system allows them (same sums to rounding), else all pairs. */
static enum nb_status grid_potential(const struct nb_particles *p,
                                     const struct nb_md_potential *pot,
                                     const struct nb_md_box *box, double *u,
                                     struct nb_error *err)
{
    struct nb_md_system sys = { .n = p->n, .type = p->type, .m = p->m, .pot = pot,
                                .box = box, .cell_list = 1 };
    double *f = nb_alloc(3 * p->n, sizeof *f, "grid forces", err);
    double *pe = f ? nb_alloc(2 * p->n, sizeof *pe, "grid energies", err)
                   : NULL;
    enum nb_status st = NB_ERR_NOMEM;

    if (pe) {
        if (nb_md_system_check(&sys, NULL) == NB_OK)
            sys.checked = 1;        /* nb_md_cpu_forces need not again */
        else
            sys.cell_list = 0;
        st = nb_md_cpu_forces(&sys, p->x, f, pe, pe + p->n, err);
    }
    *u = 0.0;
    for (size_t i = 0; st == NB_OK && i < p->n; i++)
        *u += pe[i];
    free(f);
    free(pe);
    return st;
}

/* Seed 002 eqs. 12-14: K_target = E_target - U, v *= sqrt(K_target / K). */
static enum nb_status grid_rescale(struct nb_particles *p, double u,
                                   double e_target, struct nb_error *err)
{
    double k_target = e_target - u, k = kinetic_energy(p);

    if (!(k_target >= 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "grid: the target total energy "
                            "%.17g is below the potential energy %.17g of the "
                            "grid of %zu particles; no kinetic energy can make "
                            "up the difference", e_target, u, p->n);
    if (k_target > 0.0 && !(k > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "grid: a single particle at zero "
                            "momentum has no kinetic energy to rescale to "
                            "E - U = %g", k_target);
    scale_velocities(p, k_target > 0.0 ? sqrt(k_target / k) : 0.0);
    return NB_OK;
}

enum nb_status nb_md_grid(struct nb_particles *p, struct nb_md_box *box,
                          int side, double rho,
                          const struct nb_md_potential *pot, double e_target,
                          uint64_t seed, struct nb_error *err)
{
    struct nb_md_box b;
    double h, u;
    size_t n;

    if (grid_check(side, rho, pot, e_target, err) != NB_OK)
        return err->status;
    n = (size_t)side * (size_t)side * (size_t)side;
    if (nb_particles_alloc(p, n, err) != NB_OK)
        return err->status;
    if (nb_particles_add_types(p, err) != NB_OK) {
        nb_particles_free(p);
        return err->status;
    }
    h = cbrt(1.0 / rho);
    for (int a = 0; a < 3; a++) {
        b.lo[a] = -0.5 * side * h;
        b.hi[a] = 0.5 * side * h;
        b.periodic[a] = 1;
    }
    grid_positions(p, side, h);
    for (size_t i = 0; i < n; i++) {
        p->id[i] = (int64_t)i + 1;
        p->type[i] = 1;
        p->m[i] = pot->types.mass[0];
    }
    random_velocities(p, seed);
    if (grid_potential(p, pot, &b, &u, err) != NB_OK ||
        grid_rescale(p, u, e_target, err) != NB_OK) {
        nb_particles_free(p);
        return err->status;
    }
    *box = b;
    return NB_OK;
}

/* ---- seed 003's fluorite crystal ---------------------------------------- */

/* Cations (type 1) at the fcc sites, anions (type 2) at the 8 tetrahedral
 * holes (1/4 | 3/4)^3: UO2 and CaF2.  The corner cation is placed at
 * (1, 1, 1), the far corner, instead of the origin.  It is the same
 * lattice site, but the cell's dipole moment 2 sum x_cation - sum x_anion
 * = 2 (2, 2, 2) - 8 (1/2, 1/2, 1/2) vanishes; with the origin it would be
 * -(2, 2, 2) a per cell, and a finite crystal of such cells is uniformly
 * polarised: its surface charge puts a field of 4 pi P / 3 inside, |F| ~ 29
 * on a cation at a = 1 whatever the size (measured for 4^3..8^3 cells),
 * where the dipole-free cell leaves 0.66, 0.30, 0.17 for 4^3, 6^3, 8^3. */
static const double fluorite_cations[4][3] = {
    {1.0, 1.0, 1.0}, {0.0, 0.5, 0.5}, {0.5, 0.0, 0.5}, {0.5, 0.5, 0.0}
};

static enum nb_status ionic_check(int cells, double a,
                                  const struct nb_md_potential *pot,
                                  struct nb_error *err)
{
    if (cells < 1 || cells > MAX_CELLS)
        return nb_error_set(err, NB_ERR_ARGS, "ionic crystal: cells must be "
                            "1..%d, not %d", MAX_CELLS, cells);
    if (!(a > 0.0) || !isfinite(a))
        return nb_error_set(err, NB_ERR_ARGS, "ionic crystal: the lattice "
                            "constant must be a finite number > 0, not %g", a);
    if (pot->types.count < 2)
        return nb_error_set(err, NB_ERR_ARGS, "ionic crystal: the coefficient "
                            "table has %d type(s); the crystal needs types 1 "
                            "(cation) and 2 (anion)", pot->types.count);
    return nb_md_potential_check(pot, err);
}

/* Particle `at` of type t at cell (i, j, k) + site s, times a. */
static void ionic_site(struct nb_particles *p, const struct nb_md_types *t,
                       size_t at, int type, const int *cell, const double *s,
                       double a)
{
    p->id[at] = (int64_t)at + 1;
    p->type[at] = type;
    p->m[at] = t->mass[type - 1];
    p->q[at] = t->charge[type - 1];
    for (int k = 0; k < 3; k++)
        p->x[3 * at + k] = (cell[k] + s[k]) * a;
}

/* Each cell: its 4 cations, then its 8 anions. */
static void ionic_positions(struct nb_particles *p, const struct nb_md_types *t,
                            int cells, double a)
{
    size_t at = 0;
    int c[3];

    for (c[0] = 0; c[0] < cells; c[0]++)
        for (c[1] = 0; c[1] < cells; c[1]++)
            for (c[2] = 0; c[2] < cells; c[2]++) {
                for (int s = 0; s < 4; s++)
                    ionic_site(p, t, at++, 1, c, fluorite_cations[s], a);
                for (int s = 0; s < 8; s++) {
                    double h[3] = {0.25 + 0.5 * (s >> 2),
                                   0.25 + 0.5 * ((s >> 1) & 1),
                                   0.25 + 0.5 * (s & 1)};
                    ionic_site(p, t, at++, 2, c, h, a);
                }
            }
}

/* The bounding box of the positions, widened by margin on every side. */
static void extent_box(const struct nb_particles *p, double margin,
                       struct nb_md_box *box)
{
    for (int k = 0; k < 3; k++) {
        double lo = p->x[k], hi = p->x[k];

        for (size_t i = 1; i < p->n; i++) {
            lo = fmin(lo, p->x[3 * i + k]);
            hi = fmax(hi, p->x[3 * i + k]);
        }
        box->lo[k] = lo - margin;
        box->hi[k] = hi + margin;
        box->periodic[k] = 0;
    }
}

enum nb_status nb_md_ionic_crystal(struct nb_particles *p, struct nb_md_box *box,
                                   int cells, double a,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err)
{
    size_t n;

    if (ionic_check(cells, a, pot, err) != NB_OK)
        return err->status;
    n = 12 * (size_t)cells * (size_t)cells * (size_t)cells;
    if (nb_particles_alloc(p, n, err) != NB_OK)
        return err->status;
    if (nb_particles_add_types(p, err) != NB_OK ||
        nb_particles_add_charges(p, err) != NB_OK) {
        nb_particles_free(p);
        return err->status;
    }
    ionic_positions(p, &pot->types, cells, a);
    extent_box(p, a, box);
    return NB_OK;
}

/* The repulsion of the cation-anion and anion-anion pairs, (cy / r)^12 in
 * the force, u = cy^12 / (10 r^10).  Derivation (a Python script, run
 * once): per cubic cell of the infinite crystal, at lattice constant a,
 *   E(a) = -C / a + (cy^12 / 10) S / a^10,
 * with C = 46.546300908307 the Coulomb lattice energy at a = 1 (Ewald, the
 * same to 1e-15 for splitting parameters 4, 5 and 6; that is the fluorite
 * Madelung constant 5.038785 per formula unit on the nearest-neighbour
 * distance sqrt(3)/4, as tabulated) and S = sum over the cation-anion and
 * anion-anion pairs of r^-10 at a = 1, each pair once per cell,
 * 165086.43521817 (direct sum over 33^3 cells, converged to 1e-9 from
 * 25^3).  dE/da = 0 at a = 1 gives cy^12 = C / S = 2.8195109338e-4, cy =
 * 0.5060356905544.  Then E(1) = -0.9 C per cell and E''(1) = 9 C > 0.
 * tests/check_md_io.c checks it on a finite crystal: at a = 1 the virial
 * of the central cell is ~1% of its value at a = 0.98 or 1.02, with
 * opposite signs on either side. */
#define FLUORITE_CY 0.5060356905544

/* Uranium 238 and oxygen 16 in units of the anion's mass. */
#define CATION_MASS (238.0 / 16.0)

void nb_md_ionic_default(struct nb_md_potential *pot)
{
    struct nb_md_types *t = &pot->types;

    nb_md_potential_default(pot, NB_LAW_IONIC, 2);
    t->mass[0] = CATION_MASS;
    t->mass[1] = 1.0;
    t->charge[0] = 2.0;
    t->charge[1] = -1.0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            t->ionic[i][j][0] = t->charge[i] * t->charge[j];
            /* Cation-cation: pure Coulomb (cy = 0; cz only has to pass
             * the cz > 2 check).  Cations never come close: +4/r keeps
             * them apart. */
            t->ionic[i][j][1] = i == 0 && j == 0 ? 0.0 : FLUORITE_CY;
            t->ionic[i][j][2] = 12.0;
        }
}
