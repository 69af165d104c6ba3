/* gaj_check.h - one GAJ evaluation (accelerations, potentials, jerks of
 * the active particles) of a force backend against the double-precision
 * CPU reference, the check that check_gpu and check_levels share.
 *
 * Bounds per active particle i: |da| <= tol sum_j |a_ij|, |dphi| <= tol
 * sum_j |phi_ij| and |dj| <= tol sum_j m_j (|v_ij| / r^3 + 3 |r.v| / r^4),
 * each widened by the first-order change that float positions (a
 * device-side prediction, up to dx per coordinate) may cause.  Header-only,
 * one copy per suite; include it after <check.h>. */
#ifndef NB_TEST_GAJ_CHECK_H
#define NB_TEST_GAJ_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "nb_host.h"

/* sum_j m_j (|v_ij| / r^3 + 3 |r.v| / r^4): bounds float rounding of jerk_i. */
static inline double gaj_jerk_scale(const struct nb_particles *p, size_t i, double eps)
{
    double sum = 0.0;
    for (size_t j = 0; j < p->n; j++) {
        if (j == i)
            continue;
        double d, w, r2 = 0.0, rv = 0.0, v2 = 0.0;
        for (int c = 0; c < 3; c++) {
            d = p->x[3 * j + c] - p->x[3 * i + c];
            w = p->v[3 * j + c] - p->v[3 * i + c];
            r2 += d * d;
            rv += d * w;
            v2 += w * w;
        }
        double s2 = r2 + eps * eps;
        sum += p->m[j] * (sqrt(v2) / pow(s2, 1.5) + 3.0 * fabs(rv) * sqrt(r2) / pow(s2, 2.5));
    }
    return sum;
}

/* First-order change of a_i, phi_i and jerk_i when every coordinate moves
 * by up to dx: the part of the error that comes from positions that the
 * device holds in float (a device-side prediction), not from the kernel.
 * Per pair, |grad (m r / s^{3/2})| <= 3 m / s^{3/2}, |grad (m / s^{1/2})| <=
 * m / s and |grad j_ij| <= 9 m |v_ij| / s^2 (s = r^2 + eps^2), times the
 * largest change of r_ij, 2 sqrt(3) dx. */
static inline void gaj_position_scales(const struct nb_particles *p, size_t i, double eps,
                                       double dx, double *ea, double *ep, double *ej)
{
    *ea = *ep = *ej = 0.0;
    for (size_t j = 0; j < p->n && dx > 0.0; j++) {
        if (j == i)
            continue;
        double r2 = 0.0, v2 = 0.0;
        for (int c = 0; c < 3; c++) {
            r2 += pow(p->x[3 * j + c] - p->x[3 * i + c], 2);
            v2 += pow(p->v[3 * j + c] - p->v[3 * i + c], 2);
        }
        double s2 = r2 + eps * eps, shift = 2.0 * sqrt(3.0) * dx;
        *ea += 3.0 * p->m[j] / pow(s2, 1.5) * shift;
        *ep += p->m[j] / s2 * shift;
        *ej += 9.0 * p->m[j] * sqrt(v2) / (s2 * s2) * shift;
    }
}

static inline double gaj_distance3(const double *a, const double *b)
{
    return sqrt(pow(a[0] - b[0], 2) + pow(a[1] - b[1], 2) + pow(a[2] - b[2], 2));
}

/* GAJ results acc, jerk, pot of the j-set p for `active` within tol of
 * the CPU; `what` and seed name a failure. */
static inline void gaj_compare(const struct nb_particles *p, double eps,
                               const uint32_t *active, size_t na, const double *acc,
                               const double *jerk, const double *pot, double dx,
                               double tol, uint64_t seed, const char *what)
{
    struct nb_error err = { 0 };
    size_t n = p->n;
    double *racc = malloc(3 * na * sizeof(double));
    double *rjerk = malloc(3 * na * sizeof(double)), *rpot = malloc(na * sizeof(double));
    double *aabs = malloc(n * sizeof(double)), *pabs = malloc(n * sizeof(double));
    ck_assert(racc && rjerk && rpot && aabs && pabs);
    ck_assert_int_eq(nb_cpu_gaj(n, p->x, p->v, p->m, eps, na, active, racc, rjerk, rpot,
                                &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p->x, p->m, eps, aabs, pabs, &err), NB_OK);
    for (size_t k = 0; k < na; k++) {
        size_t i = active[k];
        double js = gaj_jerk_scale(p, i, eps), ea, ep, ej;
        double da = gaj_distance3(acc + 3 * k, racc + 3 * k);
        double dj = gaj_distance3(jerk + 3 * k, rjerk + 3 * k);
        gaj_position_scales(p, i, eps, dx, &ea, &ep, &ej);
        ck_assert_msg(da <= tol * aabs[i] + ea && fabs(pot[k] - rpot[k]) <= tol * pabs[i] + ep &&
                      dj <= tol * js + ej,
                      "%s: particle %zu off: da %.3g dphi %.3g dj %.3g of scale (seed %llu)",
                      what, i, da / aabs[i], fabs(pot[k] - rpot[k]) / pabs[i], dj / js,
                      (unsigned long long)seed);
    }
    free(racc); free(rjerk); free(rpot); free(aabs); free(pabs);
}

/* One GAJ evaluation by b of the j-set p (already set) for `active`,
 * within tol of the CPU. */
static inline void gaj_check_once(struct nb_force_backend *b, const struct nb_particles *p,
                                  double eps, const uint32_t *active, size_t na, double dx,
                                  double tol, uint64_t seed, const char *what)
{
    struct nb_error err = { 0 };
    double *acc = malloc(3 * na * sizeof(double)), *jerk = malloc(3 * na * sizeof(double));
    double *pot = malloc(na * sizeof(double));
    ck_assert(acc && jerk && pot);
    ck_assert_msg(b->compute_gaj(b->state, eps, na, active, &err) == NB_OK, "%s: %s",
                  what, err.message);
    ck_assert_int_eq(b->read_gaj(b->state, acc, jerk, pot, &err), NB_OK);
    gaj_compare(p, eps, active, na, acc, jerk, pot, dx, tol, seed, what);
    free(acc); free(jerk); free(pot);
}

#endif
