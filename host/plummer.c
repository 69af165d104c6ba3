/* plummer.c - equal-mass Plummer spheres in Henon units.
 *
 * Aarseth, Henon and Wielen (1974), in model units G = M = a = 1: a radius
 * from the cumulative mass M(r) = r^3 / (1 + r^2)^{3/2} inverted at a
 * uniform mass fraction, a speed q v_esc with q drawn by von Neumann
 * rejection from g(q) = q^2 (1 - q^2)^{7/2} (max 0.0923, bounded by 0.1),
 * both directions isotropic.  The outer 0.1% of the mass (r > 22.8 a) is
 * cut, as usual, so that no star sits absurdly far out.
 *
 * A finite sample is neither in the centre-of-mass frame nor exactly in
 * virial equilibrium, so we shift it to the centre-of-mass frame and then
 * scale exactly, with the potential energy summed pair by pair in double:
 * positions by -2 W (so W = -1/2) and velocities by 1/sqrt(4 K) (so
 * K = 1/4).  Then E = -1/4 and 2K/|W| = 1 to rounding: Henon units.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>

#define MASS_FRACTION_MAX 0.999
#define PI 3.14159265358979323846

/* A vector of length r in a uniformly random direction. */
static void isotropic(struct nb_rng *rng, double r, double *out)
{
    double z = (1.0 - 2.0 * nb_rng_uniform(rng)) * r;
    double phi = 2.0 * PI * nb_rng_uniform(rng);
    double rxy = sqrt(fmax(r * r - z * z, 0.0));

    out[0] = rxy * cos(phi);
    out[1] = rxy * sin(phi);
    out[2] = z;
}

/* q in [0, 1) distributed as q^2 (1 - q^2)^{7/2}. */
static double speed_fraction(struct nb_rng *rng)
{
    for (;;) {
        double q = nb_rng_uniform(rng), y = 0.1 * nb_rng_uniform(rng);

        if (y < q * q * pow(1.0 - q * q, 3.5))
            return q;
    }
}

/* One star in model units. */
static void draw_star(struct nb_rng *rng, double *x, double *v)
{
    double mfrac = MASS_FRACTION_MAX * nb_rng_uniform(rng);
    double r = mfrac > 0.0 ? 1.0 / sqrt(pow(mfrac, -2.0 / 3.0) - 1.0) : 0.0;
    double v_esc = sqrt(2.0) * pow(1.0 + r * r, -0.25);

    isotropic(rng, r, x);
    isotropic(rng, speed_fraction(rng) * v_esc, v);
}

/* Subtracts the mass-weighted mean of the 3-vectors u (equal masses). */
static void remove_mean(size_t n, double *u)
{
    double mean[3] = {0.0, 0.0, 0.0};

    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            mean[c] += u[3 * i + c];
    for (size_t i = 0; i < 3 * n; i++)
        u[i] -= mean[i % 3] / (double)n;
}

/* Scales positions so that the unsoftened W = -1/2 and velocities so that
 * K = 1/4. */
static enum nb_status scale_to_henon(struct nb_particles *p,
                                     struct nb_force_backend *b,
                                     struct nb_error *err)
{
    double k = 0.0, w;

    if (nb_potential_energy(b, p->n, p->x, p->m, 0.0, &w, err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < p->n; i++) {
        const double *v = &p->v[3 * i];

        k += 0.5 * p->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    if (!(w < 0.0) || !(k > 0.0))
        return nb_error_set(err, NB_ERR_NUMERIC, "Plummer sphere: cannot scale "
                            "(K = %g, W = %g)", k, w);
    double sx = -2.0 * w, sv = 1.0 / sqrt(4.0 * k);

    for (size_t i = 0; i < 3 * p->n; i++) {
        p->x[i] *= sx;
        p->v[i] *= sv;
    }
    return NB_OK;
}

enum nb_status nb_plummer(struct nb_particles *p, size_t n, uint64_t seed,
                          struct nb_force_backend *b, struct nb_error *err)
{
    struct nb_rng rng;

    if (n < 2)
        return nb_error_set(err, NB_ERR_ARGS, "a Plummer sphere needs at least "
                            "2 particles to be scaled to Henon units, not %zu",
                            n);
    if (nb_particles_alloc(p, n, err) != NB_OK)
        return NB_ERR_NOMEM;
    nb_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        p->m[i] = 1.0 / (double)n;
        draw_star(&rng, &p->x[3 * i], &p->v[3 * i]);
    }
    remove_mean(n, p->x);
    remove_mean(n, p->v);
    if (scale_to_henon(p, b, err) != NB_OK) {
        nb_particles_free(p);
        return err->status;
    }
    return NB_OK;
}
