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
