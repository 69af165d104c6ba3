/* precision.c - the host side of the accumulation modes (seed 004 Table
 * 1: A..G, and H: int64 fixed point) that every precision kernel shares:
 * their names, whether this GL runs them, the rule that sets the scales
 * 2^k of E, F and H, and finishing the kernels' raw sums in double.
 *
 * The scales come from a bound on every partial sum: H takes the GA
 * kernel's analytic bound (|a_ij| <= m_j 2 / (3 sqrt 3) / eps^2, |phi_ij|
 * <= m_j / eps, summed over j, times m_max for its forces), or like E and
 * F the magnitude pass's measured one, doubled for its float rounding.
 * The raw sums are eight 32-bit words a particle (four components, hi
 * then lo): B and G doubles, C..F float pairs, H int64; one loop finishes
 * them for the GA and MD kernels of either pipeline, and the GAJ kernel
 * finishes component by component with the same rule. */
#include <math.h>
#include <string.h>

#include "gl_internal.h"
#include "nb_precision.h"

/* The largest |r| / (r^2 + eps^2)^{3/2} is this over eps^2. */
#define NB_PAIR_BOUND 0.38490017945975050   /* 2 / (3 sqrt 3) */
/* Scales stay inside float range (2^k is a float uniform). */
#define NB_PREC_SCALE_MAX_LOG2 100

enum nb_status nb_precision_parse(const char *option, const char *text,
                                  enum nb_precision *mode, struct nb_error *err)
{
    if (text && text[0] && !text[1]) {
        int c = text[0] >= 'a' ? text[0] - 'a' : text[0] - 'A';
        if (c >= 0 && c < NB_PRECISION_COUNT) {
            *mode = (enum nb_precision)c;
            return NB_OK;
        }
    }
    return nb_error_set(err, NB_ERR_ARGS, "%s: unknown accumulation mode '%s' (A single, "
                        "B double sums, C Takahashi-Iitaka, D Nitadori, E modified "
                        "Nitadori, F Narumi, G double, H int64 fixed point)", option,
                        text ? text : "");
}

const char *nb_precision_describe(enum nb_precision mode)
{
    static const char *const names[] = {
        "A (float sums)", "B (double sums)", "C (Takahashi-Iitaka float pairs)",
        "D (Nitadori)", "E (modified Nitadori, LARGE)", "F (Narumi float + int32)",
        "G (double pair terms and sums)", "H (int64 fixed point)"
    };
    return mode < NB_PRECISION_COUNT ? names[mode] : "?";
}

const char *nb_precision_name(enum nb_precision mode)
{
    static const char *const names[] = { "A", "B", "C", "D", "E", "F", "G", "H" };
    return mode < NB_PRECISION_COUNT ? names[mode] : "?";
}

enum nb_status nb_prec_supported(enum nb_precision mode, struct nb_error *err)
{
    const struct nb_gl *gl = nb_gl_current;
    /* H: int64 sums, an extension of OpenGL 4.0 that no ES version has. */
    if (mode == NB_PRECISION_H && gl &&
        (!nb_gl_at_least(gl, 40, 0) || !epoxy_has_gl_extension("GL_ARB_gpu_shader_int64")))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision H needs "
                            "GL_ARB_gpu_shader_int64 (an extension of OpenGL 4.0 and "
                            "later; no OpenGL ES version has it); this context is %s (%s)%s",
                            nb_gl_level_name(gl), gl->short_renderer,
                            nb_gl_at_least(gl, 40, 0) ? " without it" : "");
    if (mode == NB_PRECISION_H && !gl && !epoxy_has_gl_extension("GL_ARB_gpu_shader_int64"))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision H needs the GL "
                            "extension GL_ARB_gpu_shader_int64, which this driver "
                            "(%s) lacks", (const char *)glGetString(GL_RENDERER));
    /* B and G use double, core since GL 4.0 (ARB_gpu_shader_fp64). */
    if ((mode == NB_PRECISION_B || mode == NB_PRECISION_G) && gl)
        return nb_gl_require(gl, mode == NB_PRECISION_B ? "precision B (double sums, "
                             "GL_ARB_gpu_shader_fp64)" : "precision G (double pair terms, "
                             "GL_ARB_gpu_shader_fp64)", 40, 0, err);
    return NB_OK;
}

enum nb_status nb_prec_scale(enum nb_precision mode, const char *what, double bound,
                             int bits, int *k_out, struct nb_error *err)
{
    int k = bound > 0.0 ? (int)floor(bits - log2(bound)) : NB_PREC_SCALE_MAX_LOG2;
    while (k > -NB_PREC_SCALE_MAX_LOG2 && ldexp(bound, k) > ldexp(1.0, bits))
        k--;        /* guard against log2 rounding */
    *k_out = k > NB_PREC_SCALE_MAX_LOG2 ? NB_PREC_SCALE_MAX_LOG2 : k;
    if (!(ldexp(bound, *k_out) <= ldexp(1.0, bits)))
        return nb_error_set(err, NB_ERR_LIMIT, "precision %s: %s bound %g too large for "
                            "the fixed-point range", nb_precision_name(mode), what, bound);
    return NB_OK;
}

/* The scales 2^k that put both bounds at most 2^bits. */
static enum nb_status apply_scales(enum nb_precision mode, double acc_bound,
                                   double pot_bound, int bits, int log2[2],
                                   struct nb_error *err)
{
    if (nb_prec_scale(mode, "force", acc_bound, bits, &log2[0], err) != NB_OK)
        return err->status;
    return nb_prec_scale(mode, "potential", pot_bound, bits, &log2[1], err);
}

enum nb_status nb_prec_scales_measured(enum nb_precision mode, const float *sums,
                                       size_t n, const char *hint, int log2[2],
                                       struct nb_error *err)
{
    double acc_bound = 0.0, pot_bound = 0.0;
    for (size_t i = 0; i < n; i++) {
        const float *s = sums + 4 * i;
        if (!isfinite(s[0]) || !isfinite(s[1]) || !isfinite(s[2]) || !isfinite(s[3]))
            return nb_error_set(err, NB_ERR_NUMERIC, "precision %s: the pair terms of "
                                "particle %zu are not finite (two particles at one "
                                "place%s?)", nb_precision_name(mode), i, hint);
        acc_bound = fmax(acc_bound, fmax(s[0], fmax(s[1], s[2])));
        pot_bound = fmax(pot_bound, s[3]);
    }
    return apply_scales(mode, 2.0 * acc_bound, 2.0 * pot_bound, mode == NB_PRECISION_H
                        ? NB_PREC_BITS_FIXED : NB_PREC_BITS_LARGE, log2, err);
}

enum nb_status nb_prec_scales_ga_fixed(size_t n, const double *m, double eps, int log2[2],
                                       struct nb_error *err)
{
    double mass_sum = 0.0, mass_max = 0.0, mass_min = n ? INFINITY : 0.0;
    for (size_t i = 0; i < n; i++) {
        mass_sum += m[i];
        mass_max = fmax(mass_max, m[i]);
        mass_min = fmin(mass_min, m[i]);
    }
    if (!(eps > 0.0))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision H needs softening > 0: "
                            "its fixed-point range is set from the bound M / eps^2 on "
                            "the pair forces");
    if (!(mass_min > 0.0))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "precision H sums forces m_i m_j "
                            "f_ij and divides by m_i: every mass must be > 0 (the "
                            "smallest is %g)", mass_min);
    return apply_scales(NB_PRECISION_H, mass_max * mass_sum * NB_PAIR_BOUND / (eps * eps),
                        mass_max * mass_sum / eps, NB_PREC_BITS_FIXED, log2, err);
}

/* Modes C..F: a (hi, lo) float pair, E and F offset by LARGE. */
static double finish_float_pair(enum nb_precision mode, const uint32_t *w, int c, int k)
{
    float hi, lo;
    int32_t li;
    memcpy(&hi, &w[c], sizeof hi);
    memcpy(&lo, &w[4 + c], sizeof lo);
    memcpy(&li, &w[4 + c], sizeof li);
    double large = ldexp(3.0, NB_LARGE_SHIFT - 1);
    switch (mode) {
    case NB_PRECISION_E:
        return ldexp((double)hi - large + (double)lo, -k);
    case NB_PRECISION_F:
        return ldexp((double)hi - large + ldexp((double)li, -NB_LOWER_FACTOR_LOG2), -k);
    default:
        return (double)hi + (double)lo;
    }
}

double nb_prec_finish(enum nb_precision mode, const uint32_t *w, int c, int k)
{
    double d;
    int64_t q;
    switch (mode) {
    case NB_PRECISION_B:
    case NB_PRECISION_G:
        memcpy(&d, w + 2 * c, sizeof d);
        return d;
    case NB_PRECISION_H:
        memcpy(&q, w + 2 * c, sizeof q);
        return ldexp((double)q, -k);
    default:
        return finish_float_pair(mode, w, c, k);
    }
}

/* The one loop: n particles' sums, components 0..2 into vec (3n) at
 * 2^-log2[0], component 3 into scalar (n) at 2^-log2[1]. */
static void finish_sums(enum nb_precision mode, const void *raw, size_t n,
                        const int log2[2], double *vec, double *scalar)
{
    const uint32_t *words = raw;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++)
            vec[3 * i + c] = nb_prec_finish(mode, words + 8 * i, c, log2[0]);
        scalar[i] = nb_prec_finish(mode, words + 8 * i, 3, log2[1]);
    }
}

void nb_prec_ga_finish(enum nb_precision mode, const void *raw, size_t n, const double *m,
                       const int log2[2], double *acc, double *pot)
{
    finish_sums(mode, raw, n, log2, acc, pot);
    if (mode != NB_PRECISION_H)
        return;
    for (size_t i = 0; i < n; i++) {        /* H sums m_i m_j f_ij */
        for (int c = 0; c < 3; c++)
            acc[3 * i + c] /= m[i];
        pot[i] /= m[i];
    }
}

void nb_md_prec_finish(enum nb_precision mode, const void *raw, size_t n, const int log2[2],
                       double *f, double *pe, int64_t *fixed)
{
    finish_sums(mode, raw, n, log2, f, pe);
    for (size_t i = 0; i < n; i++)
        pe[i] *= 0.5;                       /* each pair's u is in both sums */
    if (mode == NB_PRECISION_H && fixed)
        memcpy(fixed, raw, 32 * n);
}
