/* g6_scales.c - the fixed-point ranges of the block steps in modes E, F
 * and H: one scale 2^k per block from bounds on every partial sum, and in
 * mode H each i-particle's own, from the magnitudes of its last values
 * (nb_forces_block_hint), as GRAPE-6 set each i-particle's exponent from
 * the aold, jold and phiold of g6calc_firsthalf (Makino et al. 2003). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "g6_internal.h"

/* A particle's own range holds 2^OWN_HEADROOM times its last magnitude:
 * room for its sums to grow, and for partial sums above the total.  The
 * quantum is then at most 2^(OWN_HEADROOM - 60) of that magnitude, and
 * n terms rounded to it err by at most n 2^(OWN_HEADROOM - 61) of it
 * (3e-8 at n = 2^20); a sum that leaves the range anyway is caught
 * (accumulate.glsl's NB_ACC_CHECK) and that particle computed again at
 * the bound's scale. */
#define OWN_HEADROOM 16
/* Own scales stay normal floats with room for the terms below float's
 * largest: no particle's scale goes beyond 2^OWN_MAX_LOG2 or below its
 * negative. */
#define OWN_MAX_LOG2 100
/* No own scale (the bound's alone): yet (OWN_NONE), or for good, after
 * its sums left the own range (OWN_BOUND). */
#define OWN_NONE INT_MIN
#define OWN_BOUND (INT_MIN + 1)
/* A result is resolved when its n terms, each rounded by at most half a
 * quantum, cannot move it by more than 2^-OWN_RESOLVE of its magnitude
 * (so by 1e-6 of the sum of the terms' magnitudes at most): a sum of more
 * than n 2^OWN_RESOLVE quanta. */
#define OWN_RESOLVE 20

/* E, F, H: the scales 2^k from bounds on every partial sum (eps > 0):
 * |a| <= M 0.385 / eps^2 (the largest m r / (r^2 + eps^2)^{3/2}),
 * |phi| <= M / eps, |jerk| <= M 1.56 v / eps^3 for relative speeds up to
 * v, taken as twice the fastest j (its prediction may speed it up) plus
 * the fastest i. */
enum nb_status nb_g6_choose_scales(struct nb_g6_block *g, double eps2, double vi_max,
                                   struct nb_error *err)
{
    enum nb_precision m = g->mode;
    int bits = m == NB_PRECISION_H ? NB_PREC_BITS_FIXED : NB_PREC_BITS_LARGE;
    if (m != NB_PRECISION_E && m != NB_PRECISION_F && m != NB_PRECISION_H)
        return NB_OK;
    if (!(eps2 > 0.0))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision %s needs a softening "
                            "eps2 > 0 (its fixed-point range is set by M / eps^2)",
                            nb_precision_name(m));
    double eps = sqrt(eps2), mass = fmax(g->mass_sum, 1e-300);
    double v = 2.0 * sqrt(g->v2_max) + vi_max;
    double bound[3] = { mass * 0.385 / eps2, mass / eps,
                        mass * 1.56 * fmax(v, 1e-300) / (eps2 * eps) };
    static const char *what[3] = { "force", "potential", "jerk" };
    for (int k = 0; k < 3; k++)
        if (nb_prec_scale(m, what[k], bound[k], bits, &g->log2[k], err) != NB_OK)
            return err->status;
    return NB_OK;
}

static double magnitude(const double *p, size_t k, int dim)
{
    if (!p)
        return 0.0;
    if (dim == 1)
        return fabs(p[k]);
    const double *q = p + 3 * k;
    return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

enum nb_status nb_forces_block_hint(struct nb_forces *f, size_t ni, const double *acc_old,
                                    const double *jerk_old, const double *pot_old,
                                    struct nb_error *err)
{
    const char *func = "nb_forces_block_hint";
    struct nb_error e;
    struct nb_g6_block *g;
    nb_error_empty(&e);
    if (nb_api_need(f, func, "f", &e) != NB_OK || nb_g6_need_compute(f, func, &e) != NB_OK ||
        !(g = nb_g6_block_of(f, &e)))
        return nb_api_fail(err, &e, func);
    if (ni > BLOCK_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "%s: ni = %zu is above the block size %d",
                            func, ni, BLOCK_MAX);
    g->hinted = 0;
    if (f->precision != NB_PRECISION_H)
        return NB_OK;
    if (!g->hint && !(g->hint = nb_alloc(3 * BLOCK_MAX, sizeof *g->hint, "the block's hints",
                                         &e)))
        return nb_api_fail(err, &e, func);
    for (size_t k = 0; k < ni; k++) {   /* the order of g->log2: a, phi, jerk */
        g->hint[3 * k] = magnitude(acc_old, k, 3);
        g->hint[3 * k + 1] = magnitude(pot_old, k, 1);
        g->hint[3 * k + 2] = magnitude(jerk_old, k, 3);
    }
    g->hint_ni = ni;
    g->hinted = 1;
    return NB_OK;
}

/* The own scale of a last magnitude m: the largest 2^k with
 * 2^k 2^OWN_HEADROOM m < 2^NB_PREC_BITS_FIXED; none for a magnitude that
 * is 0 or not finite (a first step, or no value). */
static int own_log2(double m)
{
    int e;
    if (!(m > 0.0 && isfinite(m)))
        return OWN_NONE;
    frexp(m, &e);       /* m < 2^e */
    int k = NB_PREC_BITS_FIXED - OWN_HEADROOM - e;
    return k > OWN_MAX_LOG2 ? OWN_MAX_LOG2 : k < -OWN_MAX_LOG2 ? OWN_NONE : k;
}

enum nb_status nb_g6_take_hint(struct nb_g6_block *g, struct nb_error *err)
{
    int take = g->hinted && g->hint_ni == g->ni;
    g->hinted = 0;      /* for this block alone */
    g->own = g->mode == NB_PRECISION_H && g->ni > 0;
    if (!g->own)
        return NB_OK;
    if (!g->own_log2 &&
        !(g->own_log2 = nb_alloc(3 * BLOCK_MAX, sizeof *g->own_log2, "the block's scales",
                                 err)))
        return err->status;
    for (size_t k = 0; k < 3 * g->ni; k++)
        g->own_log2[k] = take ? own_log2(g->hint[k]) : OWN_NONE;
    return NB_OK;
}

void nb_g6_own_scales(const struct nb_g6_block *g, float *dst)
{
    for (size_t k = 0; k < g->ni; k++) {
        float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        for (int q = 0; q < 3; q++) {
            int own = g->own_log2[3 * k + (size_t)q];
            s[q] = own < -OWN_MAX_LOG2 ? 0.0f : ldexpf(1.0f, own);
        }
        memcpy(dst + 4 * k, s, sizeof s);
    }
}

int nb_g6_log2_of(const struct nb_g6_block *g, size_t k, int q)
{
    int bound = g->log2[q];
    if (!g->own)
        return bound;
    int own = g->own_log2[3 * k + (size_t)q];
    return own > bound ? own : bound;   /* g6_block.comp's max of the two */
}

/* The magnitude, in quanta, of quantity q (0 a, 1 phi, 2 jerk) of one
 * i-particle's result words w (g6_block.comp: (a, phi), then jerk, as
 * int64 each). */
static double quanta(const uint32_t *w, int q)
{
    static const int first[3] = { 0, 3, 4 }, count[3] = { 3, 1, 3 };
    double sum = 0.0;
    for (int c = first[q]; c < first[q] + count[q]; c++) {
        int64_t v;
        memcpy(&v, w + 2 * c, sizeof v);
        sum += (double)v * (double)v;
    }
    return sqrt(sum);
}

size_t nb_g6_refine(struct nb_g6_block *g, const void *raw)
{
    size_t changed = 0;
    double resolved = ldexp((double)g->nj, OWN_RESOLVE);
    for (size_t k = 0; g->own && k < g->ni; k++) {
        const uint32_t *w = (const uint32_t *)raw + 20 * k;
        int *own = g->own_log2 + 3 * k, more = 0;
        for (int q = 0; q < 3; q++) {
            if (w[18] && own[q] != OWN_BOUND) {     /* overflowed: the bound's */
                own[q] = OWN_BOUND;
                more = 1;
            }
            if (w[18] || own[q] == OWN_BOUND)
                continue;
            double at = quanta(w, q);
            if (at >= resolved)
                continue;
            int now = nb_g6_log2_of(g, k, q);
            /* at most this many quanta: an upper bound of the magnitude */
            int next = own_log2(ldexp(at + (double)g->nj, -now));
            if (next > now && next <= OWN_MAX_LOG2) {
                own[q] = next;
                more = 1;
            }
        }
        changed += (size_t)more;
    }
    return changed;
}
