/* md_potential.c - the molecular-dynamics force laws: names, parameters,
 * the pair function in double, boxes and the checks a system must pass
 * before any engine sees it (the coefficient file: md_coeffs.c).
 *
 * nb_md_pair is the double-precision twin of glsl/md_law.glsl: the same
 * formulas in the same order, so that the CPU reference and the GPU differ
 * by float rounding only.  One deliberate difference: the ionic law here
 * uses the exact r, not the GPU's max(r^2, 1e-4) floor (which only exists
 * there to let i == j through without a branch; the CPU never evaluates a
 * self pair).
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const law_names[NB_LAW_COUNT] = {
    "lj", "ljc-constant", "ljc-linear", "ljc-sigmoidal", "ionic"
};

/* Cell lists allocate one start index per cell; a tiny cutoff in a huge
 * box would ask for more cells than particles could ever fill. */
#define MAX_CELLS (1u << 24)

static const char axis_name[3] = {'x', 'y', 'z'};

const char *nb_md_law_name(enum nb_md_law law)
{
    return (unsigned)law < NB_LAW_COUNT ? law_names[law] : "unknown";
}

enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law,
                               struct nb_error *err)
{
    for (int k = 0; k < NB_LAW_COUNT; k++)
        if (strcmp(text, law_names[k]) == 0) {
            *law = (enum nb_md_law)k;
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "unknown force law '%s' (known: lj, "
                        "ljc-constant, ljc-linear, ljc-sigmoidal, ionic)",
                        text);
}

/* Every row of the tables is filled, not only count of them, so that a
 * table grown later by a coefficient file starts from sane values. */
void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law,
                             int count)
{
    struct nb_md_types *t = &pot->types;

    memset(pot, 0, sizeof *pot);
    pot->law = law;
    t->count = count;
    for (int i = 0; i < NB_MD_MAX_TYPES; i++) {
        t->mass[i] = 1.0;
        for (int j = 0; j < NB_MD_MAX_TYPES; j++) {
            t->eps[i][j] = 1.0;
            t->sigma[i][j] = 1.0;
            t->ionic[i][j][2] = 12.0;
        }
    }
    pot->dielectric = 1.0;
    pot->sigmoid[2] = 1.0;      /* zeta(r) = e^r */
}

void nb_md_mix_pair(struct nb_md_types *t, int i, int j, enum nb_md_mixing mix)
{
    double sigma = mix == NB_MIX_ARITHMETIC
        ? 0.5 * (t->sigma[i][i] + t->sigma[j][j])
        : sqrt(t->sigma[i][i] * t->sigma[j][j]);
    double eps = sqrt(t->eps[i][i] * t->eps[j][j]);

    t->sigma[i][j] = t->sigma[j][i] = sigma;
    t->eps[i][j] = t->eps[j][i] = eps;
}

void nb_md_potential_mix(struct nb_md_potential *pot, enum nb_md_mixing mix)
{
    for (int i = 0; i < pot->types.count; i++)
        for (int j = i + 1; j < pot->types.count; j++)
            nb_md_mix_pair(&pot->types, i, j, mix);
}

/* ---- checks ------------------------------------------------------------- */

/* One pair entry (rows i, j) of the type table. */
static enum nb_status check_pair(const struct nb_md_types *t, int i, int j,
                                 struct nb_error *err)
{
    const double *c = t->ionic[i][j], *cji = t->ionic[j][i];

    if (!(t->eps[i][j] >= 0.0) || !isfinite(t->eps[i][j]))
        return nb_error_set(err, NB_ERR_ARGS, "lj %d %d: eps must be a finite "
                            "number >= 0, not %g", i + 1, j + 1, t->eps[i][j]);
    if (!(t->sigma[i][j] > 0.0) || !isfinite(t->sigma[i][j]))
        return nb_error_set(err, NB_ERR_ARGS, "lj %d %d: sigma must be a finite"
                            " number > 0, not %g", i + 1, j + 1,
                            t->sigma[i][j]);
    if (!isfinite(c[0]) || !(c[1] >= 0.0) || !isfinite(c[1]) ||
        !(c[2] > 2.0) || !isfinite(c[2]))
        return nb_error_set(err, NB_ERR_ARGS, "ionic %d %d: (cx, cy, cz) = "
                            "(%g, %g, %g) needs finite values, cy >= 0 and "
                            "cz > 2", i + 1, j + 1, c[0], c[1], c[2]);
    /* Each i sums over all j != i, so an asymmetric table would break
     * Newton's third law and with it momentum conservation. */
    if (t->eps[i][j] != t->eps[j][i] || t->sigma[i][j] != t->sigma[j][i] ||
        memcmp(c, cji, 3 * sizeof *c) != 0)
        return nb_error_set(err, NB_ERR_ARGS, "pair %d %d differs from pair "
                            "%d %d: the pair tables must be symmetric", i + 1,
                            j + 1, j + 1, i + 1);
    return NB_OK;
}

static enum nb_status check_types(const struct nb_md_types *t,
                                  struct nb_error *err)
{
    if (t->count < 1 || t->count > NB_MD_MAX_TYPES)
        return nb_error_set(err, NB_ERR_ARGS, "the type count must be 1..%d, "
                            "not %d", NB_MD_MAX_TYPES, t->count);
    for (int i = 0; i < t->count; i++) {
        if (!(t->mass[i] > 0.0) || !isfinite(t->mass[i]))
            return nb_error_set(err, NB_ERR_ARGS, "mass %d must be a finite "
                                "number > 0, not %g", i + 1, t->mass[i]);
        if (!isfinite(t->charge[i]))
            return nb_error_set(err, NB_ERR_ARGS, "charge %d must be finite, "
                                "not %g", i + 1, t->charge[i]);
        for (int j = 0; j < t->count; j++) {
            enum nb_status st = check_pair(t, i, j, err);
            if (st != NB_OK)
                return st;
        }
    }
    return NB_OK;
}

/* Coefficients that overflow (an LJ sigma^12, an ionic cy^cz) would give
 * non-finite forces at the first step, read as a blow-up: refused here,
 * naming the pair of types. */
static enum nb_status check_pair_coeffs(const struct nb_md_potential *pot,
                                        struct nb_error *err)
{
    int n = pot->types.count;
    double shift;
    struct nb_md_pair_coeff *c = nb_alloc((size_t)n * (size_t)n, sizeof *c,
                                          "pair coefficients", err);
    enum nb_status st = c ? NB_OK : NB_ERR_NOMEM;

    if (c)
        nb_md_pair_coeffs(pot, c, &shift);
    for (int k = 0; c && k < n * n && st == NB_OK; k++)
        if (!isfinite(c[k].c12) || !isfinite(c[k].c6) || !isfinite(c[k].a) ||
            !isfinite(c[k].u_shift))
            st = nb_error_set(err, NB_ERR_ARGS, "types %d and %d: the pair "
                              "coefficients overflow a double (4 eps sigma^12 = "
                              "%g, cy^cz = %g); rescale the units", k / n + 1,
                              k % n + 1, c[k].c12, c[k].a);
    free(c);
    return st;
}

enum nb_status nb_md_potential_check(const struct nb_md_potential *pot,
                                     struct nb_error *err)
{
    enum nb_status st;

    if ((unsigned)pot->law >= NB_LAW_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "unknown force law %d",
                            (int)pot->law);
    st = check_types(&pot->types, err);
    if (st != NB_OK)
        return st;
    if (!(pot->dielectric > 0.0) || !isfinite(pot->dielectric))
        return nb_error_set(err, NB_ERR_ARGS, "the dielectric constant must be "
                            "a finite number > 0, not %g", pot->dielectric);
    for (int k = 0; k < 4; k++)
        if (!isfinite(pot->sigmoid[k]))
            return nb_error_set(err, NB_ERR_ARGS, "sigmoid coefficient %c must "
                                "be finite, not %g", "abcd"[k],
                                pot->sigmoid[k]);
    if (!(pot->cutoff >= 0.0) || !isfinite(pot->cutoff))
        return nb_error_set(err, NB_ERR_ARGS, "the cutoff must be a finite "
                            "number >= 0 (0: none), not %g", pot->cutoff);
    return check_pair_coeffs(pot, err);
}

/* ---- pair coefficients and the pair function ---------------------------- */

static int law_has_coulomb(enum nb_md_law law)
{
    return law == NB_LAW_LJC_CONSTANT || law == NB_LAW_LJC_LINEAR ||
           law == NB_LAW_LJC_SIGMOIDAL;
}

/* The Coulomb part u_c(rc) / (q_i q_j) of an LJC law. */
static double coulomb_at(const struct nb_md_potential *pot, double rc)
{
    const double *s = pot->sigmoid;

    switch (pot->law) {
    case NB_LAW_LJC_CONSTANT:
        return 1.0 / (pot->dielectric * rc);
    case NB_LAW_LJC_LINEAR:
        return 1.0 / (pot->dielectric * rc * rc);
    case NB_LAW_LJC_SIGMOIDAL:
        return exp(-(((s[0] * rc + s[1]) * rc + s[2]) * rc + s[3])) / rc;
    default:
        return 0.0;
    }
}

void nb_md_pair_coeffs(const struct nb_md_potential *pot,
                       struct nb_md_pair_coeff *out, double *coulomb_shift)
{
    const struct nb_md_types *t = &pot->types;
    const int shift = pot->shift && pot->cutoff > 0.0;
    const double rc = pot->cutoff;

    for (int i = 0; i < t->count; i++)
        for (int j = 0; j < t->count; j++) {
            struct nb_md_pair_coeff *c = &out[i * t->count + j];
            double s6 = pow(t->sigma[i][j], 6.0);

            c->c12 = 4.0 * t->eps[i][j] * s6 * s6;
            c->c6 = 4.0 * t->eps[i][j] * s6;
            c->cx = t->ionic[i][j][0];
            c->a = pow(t->ionic[i][j][1], t->ionic[i][j][2]);
            c->cz = t->ionic[i][j][2];
            c->u_shift = 0.0;
            if (shift && pot->law == NB_LAW_IONIC)
                c->u_shift = c->cx / rc +
                             c->a * pow(rc, 2.0 - c->cz) / (c->cz - 2.0);
            else if (shift) {
                double rc6 = rc * rc * rc * rc * rc * rc;
                c->u_shift = c->c12 / (rc6 * rc6) - c->c6 / rc6;
            }
        }
    *coulomb_shift = shift && law_has_coulomb(pot->law)
                   ? coulomb_at(pot, rc) : 0.0;
}

/* The Coulomb term of an LJC law: adds its fr to *fr, returns u_c. */
static double coulomb_pair(const struct nb_md_potential *pot, double qq,
                           double r2, double rinv2, double *fr)
{
    const double *s = pot->sigmoid;
    double rinv = 1.0 / sqrt(r2), uc;

    switch (pot->law) {
    case NB_LAW_LJC_CONSTANT:
        uc = qq * rinv / pot->dielectric;
        *fr += uc * rinv2;
        return uc;
    case NB_LAW_LJC_LINEAR:
        /* u = qq / (D r^2): the force keeps D'(r), twice Table 1's. */
        uc = qq * rinv2 / pot->dielectric;
        *fr += 2.0 * uc * rinv2;
        return uc;
    default: {      /* sigmoidal: u = qq exp(-p(r)) / r */
        double r = r2 * rinv;
        double p = ((s[0] * r + s[1]) * r + s[2]) * r + s[3];
        double dp = (3.0 * s[0] * r + 2.0 * s[1]) * r + s[2];

        uc = qq * exp(-p) * rinv;
        *fr += uc * (rinv + dp) * rinv;
        return uc;
    }
    }
}

void nb_md_pair(const struct nb_md_potential *pot,
                const struct nb_md_pair_coeff *c, double coulomb_shift,
                double qq, double r2, double *fr, double *u)
{
    double rinv2 = 1.0 / r2;

    if (pot->law == NB_LAW_IONIC) {
        double rinv = 1.0 / sqrt(r2);
        double coulomb = c->cx * rinv;
        double repulsion = c->a * pow(rinv, c->cz);     /* (cy / r)^cz */

        *fr = (coulomb + repulsion * r2) * rinv2;       /* cx/r^3 + (cy/r)^cz */
        *u = coulomb + repulsion * r2 / (c->cz - 2.0) - c->u_shift;
        return;
    }
    double s6 = rinv2 * rinv2 * rinv2;
    double w12 = c->c12 * s6 * s6, w6 = c->c6 * s6;

    *fr = (12.0 * w12 - 6.0 * w6) * rinv2;
    *u = w12 - w6 - c->u_shift;
    if (law_has_coulomb(pot->law))
        *u += coulomb_pair(pot, qq, r2, rinv2, fr) - qq * coulomb_shift;
}

/* ---- boxes and systems -------------------------------------------------- */

enum nb_status nb_md_box_check(const struct nb_md_box *box, double cutoff,
                               struct nb_error *err)
{
    for (int k = 0; k < 3; k++) {
        double len = box->hi[k] - box->lo[k];

        if (!isfinite(box->lo[k]) || !isfinite(box->hi[k]) || !(len > 0.0) ||
            !isfinite(len))
            return nb_error_set(err, NB_ERR_ARGS, "the box along %c needs "
                                "finite bounds lo < hi, not [%g, %g]",
                                axis_name[k], box->lo[k], box->hi[k]);
        if (!box->periodic[k])
            continue;
        if (!(cutoff > 0.0))
            return nb_error_set(err, NB_ERR_ARGS, "a periodic box needs "
                                "--cutoff (periodic along %c, cutoff %g)",
                                axis_name[k], cutoff);
        /* Minimum image: beyond L/2 a pair would meet two of its images. */
        if (cutoff > 0.5 * len)
            return nb_error_set(err, NB_ERR_ARGS, "cutoff %g is larger than "
                                "half the periodic box along %c (length %g)",
                                cutoff, axis_name[k], len);
    }
    return NB_OK;
}

/* Points already inside are left alone: x - lo + lo need not equal x. */
static double wrap_one(double x, double lo, double hi)
{
    double len = hi - lo, s, w;

    if (x >= lo && x < hi)
        return x;
    s = x - lo;
    s -= len * floor(s / len);
    if (s >= len)               /* a tiny negative s rounds up to len */
        s -= len;
    w = lo + s;
    return w < hi ? w : nextafter(hi, lo);
}

void nb_md_box_wrap(const struct nb_md_box *box, size_t n, double *x)
{
    for (int k = 0; k < 3; k++) {
        if (!box->periodic[k])
            continue;
        for (size_t i = 0; i < n; i++)
            x[3 * i + k] = wrap_one(x[3 * i + k], box->lo[k], box->hi[k]);
    }
}

/* Cell-list geometry, the same rule as the GPU engines: max(1,
 * floor(L / rc)) cells per axis, each at least rc wide; a periodic axis
 * needs 3 so that the 27 neighbour cells are distinct. */
static enum nb_status check_cells(const struct nb_md_system *sys,
                                  struct nb_error *err)
{
    const struct nb_md_box *box = sys->box;
    double rc = sys->pot->cutoff, total = 1.0;

    if (!(rc > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "cell lists need a cutoff "
                            "(--cutoff > 0)");
    for (int k = 0; k < 3; k++) {
        double len = box->hi[k] - box->lo[k];
        double cells = fmax(1.0, floor(len / rc));

        if (box->periodic[k] && cells < 3.0)
            return nb_error_set(err, NB_ERR_ARGS, "cell lists need at least 3 "
                                "cells of width >= the cutoff %g along the "
                                "periodic %c axis, but its length %g holds "
                                "%.0f; use all pairs or a larger box", rc,
                                axis_name[k], len, cells);
        total *= cells;
    }
    if (total > (double)MAX_CELLS)
        return nb_error_set(err, NB_ERR_ARGS, "cell lists: the box holds %.3g "
                            "cells of width %g, more than the limit %u; use a "
                            "larger cutoff or all pairs", total, rc,
                            MAX_CELLS);
    return NB_OK;
}

static enum nb_status check_particles(const struct nb_md_system *sys,
                                      struct nb_error *err)
{
    int count = sys->pot->types.count;

    for (size_t i = 0; i < sys->n; i++) {
        if (sys->type[i] < 1 || sys->type[i] > count)
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu has type %d, "
                                "outside the coefficient table's types 1..%d",
                                i, sys->type[i], count);
        if (!(sys->m[i] > 0.0) || !isfinite(sys->m[i]))
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu: the mass must "
                                "be a finite number > 0, not %g", i,
                                sys->m[i]);
        if (sys->q && !isfinite(sys->q[i]))
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu: the charge "
                                "must be finite, not %g", i, sys->q[i]);
    }
    return NB_OK;
}

/* Each excluded pair names two distinct particles. */
static enum nb_status check_excluded(const struct nb_md_system *sys, struct nb_error *err)
{
    for (size_t k = 0; k < sys->n_excluded; k++) {
        uint32_t i = sys->excluded[2 * k], j = sys->excluded[2 * k + 1];
        if (i >= sys->n || j >= sys->n || i == j)
            return nb_error_set(err, NB_ERR_ARGS, "excluded pair %zu (%u, %u) does "
                                "not name two distinct particles of %zu", k, (unsigned)i,
                                (unsigned)j, sys->n);
    }
    return NB_OK;
}

enum nb_status nb_md_system_check(const struct nb_md_system *sys,
                                  struct nb_error *err)
{
    enum nb_status st;

    if (sys->n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "an MD system needs at least one "
                            "particle");
    st = nb_md_potential_check(sys->pot, err);
    if (st == NB_OK)
        st = nb_md_box_check(sys->box, sys->pot->cutoff, err);
    if (st == NB_OK)
        st = check_particles(sys, err);
    if (st == NB_OK)
        st = check_excluded(sys, err);
    if (st == NB_OK && sys->cell_list)
        st = check_cells(sys, err);
    return st;
}
