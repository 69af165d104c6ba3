/* md_law.glsl - the molecular-dynamics pair laws, written once for both
 * pipelines (the formulas are those of nb_md_pair in host/nb_host.h):
 *
 *   NB_MD_LJ              u = c12/r^12 - c6/r^6                  seed 002
 *   NB_MD_LJC_CONSTANT    LJ + q_i q_j / (D r)                   seed 000
 *   NB_MD_LJC_LINEAR      LJ + q_i q_j / (D r^2)                 Table 1
 *   NB_MD_LJC_SIGMOIDAL   LJ + q_i q_j exp(-(a r^3+b r^2+c r+d)) / r
 *   NB_MD_IONIC           cx / r + cy^cz r^(2-cz) / (cz - 2)     seed 003
 *
 * The program defines exactly one of them.  nb_md_pair returns fr and u of
 * one pair at squared distance r2: the force on i is fr * (x_i - x_j), the
 * pair energy u (shifted by lj.z and the Coulomb shift where asked).
 *   lj   = (c12, c6, u_shift, unused)         per type pair
 *   ion  = (cx, cy^cz, cz, unused)            per type pair
 *   law  = (D, Coulomb shift per unit q_i q_j, unused, unused)
 *   sig  = (a, b, c, d) of the sigmoidal dielectric
 * Callers mask excluded pairs (i itself, padding, r >= rc) with mix(),
 * which selects and so drops the infinities of r2 = 0.  The ionic law
 * keeps seed 003's rsqrt(max(r2, 1e-4)): there i == j gives a finite fr
 * times a zero vector, and no branch is needed for the force. */

#if defined(NB_MD_LJC_CONSTANT) || defined(NB_MD_LJC_LINEAR) || defined(NB_MD_LJC_SIGMOIDAL)
#define NB_MD_LJ_PART
#define NB_MD_COULOMB
#elif defined(NB_MD_LJ)
#define NB_MD_LJ_PART
#elif !defined(NB_MD_IONIC)
#error "md_law.glsl: no force law defined"
#endif

/* Smallest r^2 the ionic law sees (seed 003 section 6.2, optimisation 2a). */
#define NB_MD_R2_FLOOR 1.0e-4

void nb_md_pair(float r2, vec4 lj, vec4 ion, float qq, vec4 law, vec4 sig,
                out float fr, out float u)
{
#ifdef NB_MD_IONIC
    float rinv = inversesqrt(max(r2, NB_MD_R2_FLOOR));
    float rinv2 = rinv * rinv;
    float coulomb = ion.x * rinv;
    float repulsion = ion.y * pow(rinv, ion.z);     /* (cy / r)^cz */
    fr = (coulomb + repulsion * r2) * rinv2;        /* cx/r^3 + (cy/r)^cz */
    u = coulomb + repulsion * r2 / (ion.z - 2.0) - lj.z;
#else
    float rinv2 = 1.0 / r2;
    float s6 = rinv2 * rinv2 * rinv2;
    float w12 = lj.x * s6 * s6;
    float w6 = lj.y * s6;
    fr = (12.0 * w12 - 6.0 * w6) * rinv2;
    u = w12 - w6 - lj.z;
#endif
#ifdef NB_MD_COULOMB
    float rinv = inversesqrt(r2);
#if defined(NB_MD_LJC_CONSTANT)
    float uc = qq * rinv / law.x;
    fr += uc * rinv2;
#elif defined(NB_MD_LJC_LINEAR)
    float uc = qq * rinv2 / law.x;
    fr += 2.0 * uc * rinv2;
#else
    float r = r2 * rinv;
    float p = ((sig.x * r + sig.y) * r + sig.z) * r + sig.w;
    float dp = (3.0 * sig.x * r + 2.0 * sig.y) * r + sig.z;
    float uc = qq * exp(-p) * rinv;
    fr += uc * (rinv + dp) * rinv;
#endif
    u += uc - qq * law.y;
#endif
}

/* One j-particle's contribution to i: d = x_i - x_j after the minimum
 * image, qq = q_i q_j, skipped (masked, never branched on per lane) when
 * excluded or at r >= rc.  f, pe and vir collect F_i, sum u and sum fr r^2;
 * the caller halves pe and vir (each pair is seen from both ends). */
void nb_md_accumulate(vec3 d, bool excluded, vec4 lj, vec4 ion, float qq,
                      float rc2, vec4 law, vec4 sig,
                      inout vec3 f, inout float pe, inout float vir)
{
    float r2 = dot(d, d);
    bool skip = excluded || !(r2 < rc2);
    float fr, u;
    nb_md_pair(r2, lj, ion, qq, law, sig, fr, u);
    fr = mix(fr, 0.0, skip);
    u = mix(u, 0.0, skip);
    f += fr * d;
    pe += u;
    vir += fr * r2;
}

/* The minimum image of d along the periodic axes (box = inv_box = 0 on
 * open ones). */
vec3 nb_md_minimum_image(vec3 d, vec3 box, vec3 inv_box)
{
    return d - box * round(d * inv_box);
}

/* One pair's term (F_ij, u_ij) for the accumulators of the precision
 * kernels (md_precision.comp and md_precision.frag both call it, so both
 * pipelines add the same float terms): nb_md_accumulate's pair without
 * the sums, zero when excluded or at r >= rc.  F_ij = fr d with fr and u
 * from r^2 and the symmetric coefficients only, so the terms of (i, j) and
 * (j, i) are exact negatives. */
vec4 nb_md_term(vec3 d, bool excluded, vec4 lj, vec4 ion, float qq, float rc2,
                vec4 law, vec4 sig)
{
    float r2 = dot(d, d);
    bool skip = excluded || !(r2 < rc2);
    float fr, u;
    nb_md_pair(r2, lj, ion, qq, law, sig, fr, u);
    precise vec3 f = mix(fr, 0.0, skip) * d;
    return vec4(f, mix(u, 0.0, skip));
}

#if defined(NB_PRECISION_G)
#if defined(NB_MD_LJC_SIGMOIDAL) || defined(NB_MD_IONIC)
#error "md_law.glsl: precision G needs exp or pow in double, which GLSL lacks"
#endif
/* LJ and LJC (constant, linear) in double for accumulation mode G (double
 * pair terms): d = x_i - x_j after the minimum image, lj = (c12, c6,
 * u_shift, -) in double; zero when excluded or at r >= rc.  The Coulomb
 * term multiplies by 1 / D: written qq rinv2 / double(law.x) here, NVIDIA's
 * driver 580 compiled md_precision.comp's ljc-linear G wrongly (forces off
 * by O(1); its fragment twin was right), with the reciprocal both are.
 * Skipped pairs take r^2 = 1 and a factor 0 instead of a select of the
 * result: with a cutoff, NVIDIA 580 got the select wrong for lj (f_err
 * 1e-2 on the H100, cells and all pairs alike); this form was right for
 * the three laws, periodic or open, with or without a cutoff. */
dvec4 nb_md_pair_double(dvec3 d, bool excluded, dvec4 lj, double qq, float rc2, vec4 law)
{
    double r2 = dot(d, d);
    bool skip = excluded || !(r2 < double(rc2));
    double keep = skip ? 0.0LF : 1.0LF;
    double rinv2 = 1.0LF / (skip ? 1.0LF : r2);
    double s6 = rinv2 * rinv2 * rinv2;
    double w12 = lj.x * s6 * s6, w6 = lj.y * s6;
    double fr = (12.0LF * w12 - 6.0LF * w6) * rinv2;
    double u = w12 - w6 - lj.z;
#if defined(NB_MD_LJC_CONSTANT) || defined(NB_MD_LJC_LINEAR)
    double inv_d = 1.0LF / double(law.x);
#endif
#if defined(NB_MD_LJC_CONSTANT)
    double uc = qq * sqrt(rinv2) * inv_d;
    fr += uc * rinv2;
    u += uc - qq * double(law.y);
#elif defined(NB_MD_LJC_LINEAR)
    double uc = qq * rinv2 * inv_d;
    fr += 2.0LF * uc * rinv2;
    u += uc - qq * double(law.y);
#endif
    return dvec4(fr * d, u) * keep;
}
#endif
