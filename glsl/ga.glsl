/* ga.glsl - the GA force law: gravitational acceleration and potential
 * (seed 000 Table 1 and eq. 1, G = 1, Plummer softening eps):
 *
 *   a_i   += m_j r_ij / (r_ij^2 + eps^2)^{3/2},   r_ij = x_j - x_i
 *   phi_i -= m_j / (r_ij^2 + eps^2)^{1/2}
 *
 * Written once as a macro over the lane type and instantiated for one pair
 * (float) and for two or four pairs at once (vec2, vec4): the lanes are
 * four j-particles of one i in seed 000's 1x4 unroll, or several
 * i-particles facing one j in the 4x4 kernel and the compute shader.  Lanes
 * keep every i- and j-value in registers (arrays indexed in loops were
 * left in local memory by NVIDIA's SPIR-V compiler).  Both pipelines
 * include this file.
 *
 * Self-interaction: callers pass `excluded` true for the pair i == i, found
 * by index, not by r == 0: only the few blocks or tiles on the diagonal do
 * the test (a constant false elsewhere compiles away), so eps = 0 costs
 * nothing in the inner loop and yields no NaN (mix() with a bool selects, it
 * does not multiply the infinite 1/sqrt(0)).  Two distinct particles at one
 * point with eps = 0 are a physical singularity and give an infinity, as in
 * the CPU reference.  Flops: 3 sub, 3 fma, rsqrt, 3 mul, 3 fma, 1 sub. */
#define NB_GA_LAW(T, B)                                                       \
void nb_ga_accumulate(T dx, T dy, T dz, T mj, float eps2, B excluded,         \
                      inout T ax, inout T ay, inout T az, inout T pot)        \
{                                                                             \
    T r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, T(eps2))));                    \
    T rinv = mix(inversesqrt(r2), T(0.0), excluded);                          \
    T mr = mj * rinv;                                                         \
    T s = mr * rinv * rinv;                                                   \
    ax = fma(s, dx, ax);                                                      \
    ay = fma(s, dy, ay);                                                      \
    az = fma(s, dz, az);                                                      \
    pot -= mr;                                                                \
}

NB_GA_LAW(float, bool)
NB_GA_LAW(vec2, bvec2)
NB_GA_LAW(vec4, bvec4)

#if defined(NB_PRECISION_G)
/* The same law in double for accumulation mode G (double pair terms),
 * from double positions and a double eps^2 (a float eps2 would round it):
 * the fragment precision kernel (ga_precision.frag) calls it. */
dvec4 nb_ga_pair_double(dvec4 pi, dvec4 pj, double eps2_d, bool excluded)
{
    dvec3 d = pj.xyz - pi.xyz;
    double r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2_d)));
    /* Not `excluded ? 0 : 1 / sqrt(r2)`: NVIDIA's driver 580 made that
     * infinite in the GAJ kernel (H200); a factor 0 and a harmless r2 of 1
     * for the skipped pair, as md_law.glsl's double law does.  The inverse
     * square root is accumulate.glsl's. */
    double keep = excluded ? 0.0LF : 1.0LF;
    double rinv = keep * nb_rsqrt_double(excluded ? 1.0LF : r2);
    double mr = pj.w * rinv;
    double s = mr * rinv * rinv;
    return dvec4(s * d, -mr);
}
#endif
