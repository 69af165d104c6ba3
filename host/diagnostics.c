/* diagnostics.c - energies, momenta and the energy-log CSV.
 *
 * A row describes every particle at one time t: positions and velocities
 * come from nb_sim_predict (in double, from each particle's last
 * correction), so a log time need not be a block time and nobody is made
 * to step for it.  The potential energy W = 1/2 sum_i m_i phi_i is either
 * the one the integrator kept from a block holding every particle at
 * exactly t (GAJ potentials, first-order corrected to the corrected
 * positions: no extra force evaluation), or an O(n^2) sum in double
 * (nb_potential_energy: the backend's precision-G kernel or the CPU).
 * GAJ potentials are single precision, so rows taken from them carry
 * ~1e-7 relative noise in epot; E0 should be exact (NB_EPOT_DOUBLE).
 */
#include "nb_host.h"

#include <math.h>

/* Kinetic energy, |P|, |L| and the centre of mass. */
static void moments(size_t n, const double *m, const double *x,
                    const double *v, struct nb_diag *d)
{
    double ekin = 0.0, mass = 0.0, p[3] = {0, 0, 0}, l[3] = {0, 0, 0};
    double com[3] = {0, 0, 0};

    for (size_t i = 0; i < n; i++) {
        const double *xi = &x[3 * i], *vi = &v[3 * i];

        ekin += 0.5 * m[i] * (vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
        mass += m[i];
        for (int c = 0; c < 3; c++) {
            p[c] += m[i] * vi[c];
            com[c] += m[i] * xi[c];
        }
        l[0] += m[i] * (xi[1] * vi[2] - xi[2] * vi[1]);
        l[1] += m[i] * (xi[2] * vi[0] - xi[0] * vi[2]);
        l[2] += m[i] * (xi[0] * vi[1] - xi[1] * vi[0]);
    }
    d->ekin = ekin;
    d->p_abs = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    d->l_abs = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    for (int c = 0; c < 3; c++)
        d->com[c] = mass > 0.0 ? com[c] / mass : 0.0;
}

enum nb_status nb_diag_compute(const struct nb_sim *s, double t,
                               const double *x, const double *v, double e0,
                               enum nb_epot_source source, struct nb_diag *d,
                               struct nb_error *err)
{
    d->t = t;
    d->epot_from_gaj = source == NB_EPOT_AUTO && s->sync_t == t;
    if (d->epot_from_gaj)
        d->epot = s->sync_epot;
    else if (nb_potential_energy(s->backend, s->p.n, x, s->p.m, s->par.eps,
                                 &d->epot, err) != NB_OK)
        return err->status;
    moments(s->p.n, s->p.m, x, v, d);
    d->etot = d->ekin + d->epot;
    d->de_rel = (d->etot - e0) / fabs(e0);     /* NaN when e0 = 0 */
    d->virial = 2.0 * d->ekin / fabs(d->epot);
    d->block_steps = s->stats.block_steps;
    d->particle_steps = s->stats.particle_steps;
    return NB_OK;
}

void nb_diag_csv_header(FILE *fp)
{
    fputs("t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,com_z,"
          "block_steps,particle_steps\n", fp);
}

void nb_diag_csv_row(FILE *fp, const struct nb_diag *d)
{
    fprintf(fp, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
            "%.17g,%llu,%llu\n", d->t, d->ekin, d->epot, d->etot, d->de_rel,
            d->virial, d->p_abs, d->l_abs, d->com[0], d->com[1], d->com[2],
            (unsigned long long)d->block_steps,
            (unsigned long long)d->particle_steps);
}
