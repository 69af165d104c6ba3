/* nb_md.h - molecular dynamics systems: force laws, type and pair
 * coefficients, boxes, and the CPU forces. */
#ifndef NB_MD_H
#define NB_MD_H

#include "nb_files.h"
#include "nb_forces.h"

/* ---- molecular dynamics: force laws (seeds 000, 002, 003) --------------- */

/* Reduced units (sigma = epsilon = m = 1, Boltzmann and Coulomb constants
 * 1).  Every law is a central pair force F_i = fr(r) (x_i - x_j) derived
 * exactly from its pair energy u(r), so that MD conserves energy:
 *   LJ        u = c12/r^12 - c6/r^6, c12 = 4 eps sigma^12, c6 = 4 eps sigma^6
 *             (seed 002 eqs. 9-10)
 *   LJC       LJ + q_i q_j / (D(r) r), seed 000 Table 1, with D(r) = D
 *             (constant), D r (linear) or zeta(r) = exp(a r^3 + b r^2 +
 *             c r + d) (sigmoidal).  Table 1 writes the Coulomb force as
 *             q_i q_j r_ij / (D(r) r^3), which omits D'(r); we keep the
 *             derivative (linear: twice Table 1's force), so u and F agree.
 *   ionic     seed 003: F_i = (x_i - x_j) (cx / r^3 + (cy / r)^cz), per
 *             type pair (cx = q_i q_j of the pair), u = cx / r + cy^cz
 *             r^(2-cz) / (cz - 2), cz > 2.
 * With a cutoff rc, pairs at r >= rc contribute nothing; with shift, u(rc)
 * is subtracted inside (seed 002 eq. 10; forces unchanged). */

/* What the kernels read for an ordered type pair. */
struct nb_md_pair_coeff {
    double c12, c6;         /* 4 eps sigma^12, 4 eps sigma^6 */
    double cx, a, cz;       /* ionic: cx, cy^cz, cz */
    double u_shift;         /* the LJ or ionic u(rc) when shifting, else 0 */
};
/* eps and sigma of the pair i-j (and j-i) from the diagonal (md_coeffs.c
 * mixes the pairs its file does not give). */
void nb_md_mix_pair(struct nb_md_types *t, int i, int j, enum nb_md_mixing mix);
/* count^2 coefficients, row-major by (type i - 1, type j - 1); also the
 * Coulomb shift u_c(rc) / (q_i q_j) in *coulomb_shift (0 without shift). */
void nb_md_pair_coeffs(const struct nb_md_potential *pot,
                       struct nb_md_pair_coeff *out, double *coulomb_shift);

/* One pair in double at squared distance r2 > 0 inside the cutoff:
 * F_i = *fr (x_i - x_j), *u the pair energy (shifted where asked). */
void nb_md_pair(const struct nb_md_potential *pot,
                const struct nb_md_pair_coeff *c, double coulomb_shift,
                double qq, double r2, double *fr, double *u);

/* Checks lo < hi, finite bounds, and for a periodic axis that cutoff
 * (> 0 required) is at most half its length; NB_ERR_ARGS naming it. */
enum nb_status nb_md_box_check(const struct nb_md_box *box, double cutoff,
                               struct nb_error *err);
/* Wraps the periodic coordinates of n positions (3n) into [lo, hi). */
void nb_md_box_wrap(const struct nb_md_box *box, size_t n, double *x);

/* nb_md_system_check unless sys->checked: what every engine's setup and
 * nb_md_cpu_forces call, so that a run checks its system once. */
enum nb_status nb_md_system_require(const struct nb_md_system *sys,
                                    struct nb_error *err);
/* The first particle with a non-finite value in a or b (3n each), or
 * SIZE_MAX. */
size_t nb_md_first_nonfinite(size_t n, const double *a, const double *b);

/* Exclusions, seed 004's 'exclude afterwards': every engine (and
 * nb_md_cpu_forces) sums all pairs; nb_md_sim then subtracts the excluded
 * pairs (minimum image, inside the cutoff) here on the host in double, so
 * the inner loops carry no mask.  Each excluded pair i-j takes F_ij off
 * f_i and adds it to f_j, and half of u_ij and of r.F_ij off pe and vir of
 * both. */
void nb_md_subtract_excluded(const struct nb_md_system *sys, const double *x,
                             double *f, double *pe, double *vir);

#endif
