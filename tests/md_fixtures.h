/* md_fixtures.h - random MD systems and the error scales the GPU MD suites
 * (check_md_gpu, check_md_precision, check_triangular) test against.
 * Header-only, one copy per suite; include it after <check.h>. */
#ifndef NB_TEST_MD_FIXTURES_H
#define NB_TEST_MD_FIXTURES_H

#include <math.h>
#include <string.h>

#include "nb_host.h"

/* n particles of `types` types on a jittered simple cubic lattice of
 * `spacing`, each coordinate moved by at most jitter / 2 about its site
 * (so no pair is closer than spacing - jitter), float-representable;
 * masses in [1, 2), charges in [-0.5, 0.5).  The box is [0, L) with L =
 * max(min_len, spacing * side), periodic or open. */
static void md_lattice(struct nb_particles *p, struct nb_md_box *box, size_t n, int types,
                       double spacing, double jitter, double min_len, int periodic,
                       uint64_t s)
{
    struct nb_error err = { 0 };
    struct nb_rng rng;
    size_t side = 1;
    while (side * side * side < n)
        side++;
    nb_rng_seed(&rng, s);
    ck_assert_int_eq(nb_particles_alloc(p, n, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(p, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_charges(p, &err), NB_OK);
    for (size_t i = 0; i < n; i++) {
        size_t c[3] = { i % side, (i / side) % side, i / (side * side) };
        for (int a = 0; a < 3; a++)
            p->x[3 * i + a] = (double)(float)(spacing * ((double)c[a] + 0.5) +
                                              jitter * (nb_rng_uniform(&rng) - 0.5));
        p->type[i] = 1 + (int)(nb_rng_uniform(&rng) * types);
        p->m[i] = 1.0 + nb_rng_uniform(&rng);
        p->q[i] = (double)(float)(nb_rng_uniform(&rng) - 0.5);
    }
    for (int a = 0; a < 3; a++) {
        box->lo[a] = 0.0;
        box->hi[a] = fmax(min_len, spacing * (double)side);
        box->periodic[a] = periodic;
    }
}

/* Random per-type parameters for law: LJ eps in [0.5, 1.5), sigma in
 * [0.8, 1) mixed by Lorentz-Berthelot, type charges in [-0.5, 0.5),
 * symmetric ionic (cx in [-1, 1), cy in [0.5, 0.8), cz in [6, 12)), a
 * sigmoid and dielectric that matter at these distances. */
static void md_random_potential(struct nb_md_potential *pot, enum nb_md_law law, int types,
                                double cutoff, int shift, uint64_t s)
{
    struct nb_rng rng;
    nb_rng_seed(&rng, s ^ 0x5bd1e995u);
    nb_md_potential_default(pot, law, types);
    for (int t = 0; t < types; t++) {
        pot->types.eps[t][t] = 0.5 + nb_rng_uniform(&rng);
        pot->types.sigma[t][t] = 0.8 + 0.2 * nb_rng_uniform(&rng);
        pot->types.charge[t] = nb_rng_uniform(&rng) - 0.5;
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    for (int t = 0; t < types; t++)
        for (int u = 0; u <= t; u++) {
            double v[3] = { 2.0 * nb_rng_uniform(&rng) - 1.0, 0.5 + 0.3 * nb_rng_uniform(&rng),
                            6.0 + 6.0 * nb_rng_uniform(&rng) };
            memcpy(pot->types.ionic[t][u], v, sizeof v);
            memcpy(pot->types.ionic[u][t], v, sizeof v);
        }
    const double sigmoid[4] = { 0.01, -0.05, 0.8, 0.1 };
    memcpy(pot->sigmoid, sigmoid, sizeof sigmoid);
    pot->dielectric = 1.5;
    pot->cutoff = cutoff;
    pot->shift = shift;
}

static void md_system_of(struct nb_md_system *sys, const struct nb_particles *p,
                         const struct nb_md_potential *pot, const struct nb_md_box *box,
                         int cell_list)
{
    memset(sys, 0, sizeof *sys);
    sys->n = p->n;
    sys->type = p->type;
    sys->m = p->m;
    sys->q = p->q;
    sys->pot = pot;
    sys->box = box;
    sys->cell_list = cell_list;
}

/* One pair's force and energy magnitudes counted part by part (LJ's r^-12
 * and r^-6, the ionic Coulomb and repulsion, the LJC Coulomb): near a
 * pair's equilibrium the parts cancel, and float rounding is relative to
 * them, not to their sum. */
static void md_pair_parts(const struct nb_md_potential *pot, const struct nb_md_pair_coeff *c,
                          double cshift, double qq, double r2, double *f_abs, double *u_abs)
{
    struct nb_md_pair_coeff part[4] = { *c, *c, *c, *c }, none = { 0 };
    double fr, u;
    part[0].c6 = part[0].cx = part[0].a = 0.0;
    part[1].c12 = part[1].cx = part[1].a = 0.0;
    part[2].c12 = part[2].c6 = part[2].a = 0.0;
    part[3].c12 = part[3].c6 = part[3].cx = 0.0;
    for (int k = 0; k < 4; k++)
        part[k].u_shift = 0.0;          /* counted apart by the caller */
    *f_abs = *u_abs = 0.0;
    for (int k = 0; k < 4; k++) {
        nb_md_pair(pot, &part[k], 0.0, 0.0, r2, &fr, &u);
        *f_abs += fabs(fr);
        *u_abs += fabs(u);
    }
    if (qq != 0.0 && pot->law != NB_LAW_IONIC) {
        nb_md_pair(pot, &none, cshift, qq, r2, &fr, &u);
        *f_abs += fabs(fr);
        *u_abs += fabs(u);
    }
    *f_abs *= sqrt(r2);
}

/* Squared minimum-image distance of particles i and j. */
static double md_image_r2(const struct nb_md_system *sys, const double *x, size_t i, size_t j)
{
    double r2 = 0.0;
    for (int a = 0; a < 3; a++) {
        double len = sys->box->hi[a] - sys->box->lo[a];
        double d = x[3 * i + a] - x[3 * j + a];
        if (sys->box->periodic[a])
            d -= len * round(d / len);
        r2 += d * d;
    }
    return r2;
}

/* Whether some pair (minimum image) has r^2 within 1e-6 (relative) of the
 * cutoff's square: float rounding of r^2 could put it on either side, so
 * one side could count a pair the other leaves out.  Suites draw such a
 * system again. */
static inline int md_near_cutoff(const struct nb_md_system *sys, const double *x)
{
    double rc2 = sys->pot->cutoff * sys->pot->cutoff;
    if (sys->pot->cutoff <= 0)
        return 0;
    for (size_t i = 0; i < sys->n; i++)
        for (size_t j = 0; j < i; j++)
            if (fabs(md_image_r2(sys, x, i, j) - rc2) <= 1e-6 * rc2)
                return 1;
    return 0;
}

/* The scales of the bounds per particle, over the pairs inside the cutoff
 * (minimum image): sum_j |F_ij|, sum_j |u_ij| / 2 and sum_j |r.F_ij| / 2,
 * each from md_pair_parts; the shift's constant is counted as a part. */
static void md_pair_magnitudes(const struct nb_md_system *sys, const double *x,
                               double *f_abs, double *u_abs, double *w_abs)
{
    struct nb_md_pair_coeff coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double cshift;
    int t = sys->pot->types.count;
    nb_md_pair_coeffs(sys->pot, coeff, &cshift);
    for (size_t i = 0; i < sys->n; i++) {
        f_abs[i] = u_abs[i] = w_abs[i] = 0.0;
        for (size_t j = 0; j < sys->n; j++) {
            double r2, f, u;
            if (j == i)
                continue;
            r2 = md_image_r2(sys, x, i, j);
            if (sys->pot->cutoff > 0 && r2 >= sys->pot->cutoff * sys->pot->cutoff)
                continue;
            const struct nb_md_pair_coeff *c = &coeff[(sys->type[i] - 1) * t + sys->type[j] - 1];
            double qi = sys->q ? sys->q[i] : sys->pot->types.charge[sys->type[i] - 1];
            double qj = sys->q ? sys->q[j] : sys->pot->types.charge[sys->type[j] - 1];
            md_pair_parts(sys->pot, c, cshift, qi * qj, r2, &f, &u);
            f_abs[i] += f;
            u_abs[i] += 0.5 * (u + fabs(c->u_shift) + fabs(qi * qj * cshift));
            w_abs[i] += 0.5 * f * sqrt(r2);
        }
    }
}

#endif
