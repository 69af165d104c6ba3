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

/* "lj", "ljc-constant", "ljc-linear", "ljc-sigmoidal", "ionic". */
const char *nb_md_law_name(enum nb_md_law law);
/* The reverse; NB_ERR_ARGS naming the text and the choices. */
enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law,
                               struct nb_error *err);

#define NB_MD_MAX_TYPES 16

/* Per-type and per-pair parameters.  Type t of a particle (1..count, as in
 * LAMMPS) is row t-1.  Pair tables are symmetric. */
struct nb_md_types {
    int count;                                  /* 1..NB_MD_MAX_TYPES */
    double mass[NB_MD_MAX_TYPES];               /* for inputs without masses */
    double charge[NB_MD_MAX_TYPES];             /* for inputs without charges */
    double eps[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];   /* LJ well depth */
    double sigma[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES]; /* LJ zero crossing */
    double ionic[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES][3]; /* cx, cy, cz */
};

/* A force law with its parameters. */
struct nb_md_potential {
    enum nb_md_law law;
    struct nb_md_types types;
    double dielectric;      /* D of ljc-constant and ljc-linear (> 0) */
    double sigmoid[4];      /* a, b, c, d of ljc-sigmoidal's zeta(r) */
    double cutoff;          /* rc > 0, or 0 for none */
    int shift;              /* 1: u(rc) subtracted inside the cutoff */
};

/* count types of mass 1, charge 0, eps = sigma = 1, ionic (0, 0, 12);
 * dielectric 1, sigmoid (0, 0, 1, 0), no cutoff, no shift. */
void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law,
                             int count);

/* How a pair table is completed from the diagonal. */
enum nb_md_mixing {
    NB_MIX_ARITHMETIC,      /* Lorentz-Berthelot: sigma mean, eps geometric */
    NB_MIX_GEOMETRIC        /* both geometric (OPLS) */
};
/* Fills the off-diagonal eps and sigma of pot from the diagonal. */
void nb_md_potential_mix(struct nb_md_potential *pot, enum nb_md_mixing mix);

/* Reads a coefficient table (text, `#` comments), one entry a line:
 *   types T                          (first; 1..NB_MD_MAX_TYPES)
 *   mass I M | charge I Q
 *   lj I J EPS SIGMA                 (I == J: the type; mixing fills pairs)
 *   mix arithmetic|geometric         (applied to pairs not given)
 *   ionic I J CX CY CZ               (pair I-J and J-I)
 * into pot->types (law and the other fields untouched).  Errors
 * (NB_ERR_IO, NB_ERR_PARSE) name file:line:column and the reason (read
 * by nb_text, '#' comments anywhere). */
enum nb_status nb_md_types_read(const char *path, struct nb_md_potential *pot,
                                struct nb_error *err);
/* Refuses (NB_ERR_PARSE, naming path, the pair and the entries needed) a
 * table read from path in which some type pair does not interact under
 * pot->law; particle_charges: the particles carry their own charges. */
enum nb_status nb_md_types_check_interactions(const struct nb_md_potential *pot,
                                              const char *path,
                                              int particle_charges,
                                              struct nb_error *err);

/* Checks the parameters: count, finite values, eps >= 0, sigma > 0,
 * dielectric > 0, cz > 2, cutoff >= 0; NB_ERR_ARGS naming the entry. */
enum nb_status nb_md_potential_check(const struct nb_md_potential *pot,
                                     struct nb_error *err);

/* What the kernels read for an ordered type pair. */
struct nb_md_pair_coeff {
    double c12, c6;         /* 4 eps sigma^12, 4 eps sigma^6 */
    double cx, a, cz;       /* ionic: cx, cy^cz, cz */
    double u_shift;         /* the LJ or ionic u(rc) when shifting, else 0 */
};
/* count^2 coefficients, row-major by (type i - 1, type j - 1); also the
 * Coulomb shift u_c(rc) / (q_i q_j) in *coulomb_shift (0 without shift). */
void nb_md_pair_coeffs(const struct nb_md_potential *pot,
                       struct nb_md_pair_coeff *out, double *coulomb_shift);

/* One pair in double at squared distance r2 > 0 inside the cutoff:
 * F_i = *fr (x_i - x_j), *u the pair energy (shifted where asked). */
void nb_md_pair(const struct nb_md_potential *pot,
                const struct nb_md_pair_coeff *c, double coulomb_shift,
                double qq, double r2, double *fr, double *u);

/* A rectangular box, periodic or open along each axis. */
struct nb_md_box {
    double lo[3], hi[3];
    int periodic[3];
};
/* Checks lo < hi, finite bounds, and for a periodic axis that cutoff
 * (> 0 required) is at most half its length; NB_ERR_ARGS naming it. */
enum nb_status nb_md_box_check(const struct nb_md_box *box, double cutoff,
                               struct nb_error *err);
/* Wraps the periodic coordinates of n positions (3n) into [lo, hi). */
void nb_md_box_wrap(const struct nb_md_box *box, size_t n, double *x);

/* What a force engine evaluates. */
struct nb_md_system {
    size_t n;
    const int *type;        /* 1..pot->types.count */
    const double *m;        /* masses */
    const double *q;        /* charges (NULL: the type table's) */
    const struct nb_md_potential *pot;
    const struct nb_md_box *box;
    int cell_list;          /* 1: cell lists (cutoff required), 0: all pairs */
    size_t n_excluded;      /* bonded pairs left out of the sums ... */
    const uint32_t *excluded;   /* ... as 2 n_excluded particle indices */
    int checked;            /* 1: nb_md_system_check accepted it as it is
                               (nb_md_sim_prepare sets it; whoever changes a
                               field after that clears it): engines and
                               nb_md_cpu_forces then skip the O(n) check */
};
/* Checks sys: types in range, positive finite masses, finite charges,
 * excluded pairs of two distinct particles < n, the potential and the box; a cell list needs a cutoff and at least 3
 * cells of width >= rc along each periodic axis.  NB_ERR_ARGS. */
enum nb_status nb_md_system_check(const struct nb_md_system *sys,
                                  struct nb_error *err);
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

/* CPU reference in double for positions x (3n): forces f (3n), per-particle
 * energy pe (n: half of each pair energy) and virial vir (n: half of each
 * pair's r_ij . F_ij); minimum image along periodic axes.  All pairs, or
 * cell lists when sys->cell_list (same sums to rounding).  OpenMP. */
enum nb_status nb_md_cpu_forces(const struct nb_md_system *sys, const double *x,
                                double *f, double *pe, double *vir,
                                struct nb_error *err);
/* The same, and in *pairs the ordered pairs (i, j != i) inside the cutoff
 * that the sums took (n (n - 1) without one). */
enum nb_status nb_md_cpu_forces_counted(const struct nb_md_system *sys, const double *x,
                                        double *f, double *pe, double *vir, double *pairs,
                                        struct nb_error *err);

#endif
