/* gaj.glsl - the GAJ force law: acceleration, jerk and potential for the
 * 4th-order Hermite scheme (seed 000 Table 1, seed 001 eqs. 3-4; G = 1):
 *
 *   a_i   += m_j r_ij / (r^2 + eps^2)^{3/2}
 *   j_i   += m_j [v_ij / (r^2 + eps^2)^{3/2}
 *                 - 3 (r_ij . v_ij) r_ij / (r^2 + eps^2)^{5/2}]
 *   phi_i -= m_j / (r^2 + eps^2)^{1/2},   r_ij = x_j - x_i, v_ij = v_j - v_i
 *
 * Written once as a macro over the lane type, like ga.glsl.  `excluded`
 * drops the pair i == j found by index: mix() selects, so eps = 0 gives
 * no NaN. */
#define NB_GAJ_LAW(T, B)                                                      \
void nb_gaj_accumulate(T dx, T dy, T dz, T dvx, T dvy, T dvz, T mj,          \
                       float eps2, B excluded, inout T ax, inout T ay,        \
                       inout T az, inout T jx, inout T jy, inout T jz,        \
                       inout T pot)                                           \
{                                                                             \
    T r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, T(eps2))));                    \
    T rinv = mix(inversesqrt(r2), T(0.0), excluded);                          \
    T rinv2 = rinv * rinv;                                                    \
    T mr = mj * rinv;                                                         \
    T mr3 = mr * rinv2;                                                       \
    T alpha = 3.0 * fma(dx, dvx, fma(dy, dvy, dz * dvz)) * rinv2;             \
    ax = fma(mr3, dx, ax);                                                    \
    ay = fma(mr3, dy, ay);                                                    \
    az = fma(mr3, dz, az);                                                    \
    jx = fma(mr3, fma(-alpha, dx, dvx), jx);                                  \
    jy = fma(mr3, fma(-alpha, dy, dvy), jy);                                  \
    jz = fma(mr3, fma(-alpha, dz, dvz), jz);                                  \
    pot -= mr;                                                                \
}

NB_GAJ_LAW(float, bool)
NB_GAJ_LAW(vec2, bvec2)
NB_GAJ_LAW(vec4, bvec4)

/* x_j - x_i of two double-single numbers (hi, lo float pairs, x = hi + lo,
 * |lo| <= ulp(hi) / 2; Gaburov, Harfst & Portegies Zwart 2009): where x_j
 * and x_i are close, hj - hi is exact (Sterbenz) and lj - li errs by
 * 2^-24 |lo|, so the difference keeps ~48 bits of |x| however close the
 * pair is, where float(x_j) - float(x_i) errs by 2^-24 |x| / r of r.  The
 * rest of the pair term may then be float. */
#define NB_DS_DIFF(T)                                                         \
T nb_ds_diff(T hj, T lj, T hi, T li)                                          \
{                                                                             \
    precise T d = NB_EXACT(hj - hi) + (lj - li);                              \
    return d;                                                                 \
}

NB_DS_DIFF(float)
NB_DS_DIFF(vec2)
NB_DS_DIFF(vec3)
NB_DS_DIFF(vec4)

#if defined(NB_PRECISION_G)
/* The same law in double (modes G): (a, phi) and (jerk, 0) of one pair, for
 * the kernels that define NB_PRECISION_G (gaj_precision.comp, g6_block.comp). */
void nb_gaj_pair_double(dvec4 pi, dvec4 vi, dvec4 pj, dvec4 vj, double eps2d,
                        bool excluded, out dvec4 ap, out dvec4 jk)
{
    dvec3 d = pj.xyz - pi.xyz, dv = vj.xyz - vi.xyz;
    double r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2d)));
    /* Not `excluded ? 0 : 1 / sqrt(r2)`: NVIDIA's driver 580 made that
     * infinite in the GAJ kernel (H200); a factor 0 and a harmless r2 of 1
     * for the skipped pair, as md_law.glsl's double law does.  The inverse
     * square root is accumulate.glsl's. */
    double keep = excluded ? 0.0LF : 1.0LF;
    double rinv = keep * nb_rsqrt_double(excluded ? 1.0LF : r2);
    double rinv2 = rinv * rinv;
    double mr = pj.w * rinv;
    double mr3 = mr * rinv2;
    double alpha = 3.0LF * fma(d.x, dv.x, fma(d.y, dv.y, d.z * dv.z)) * rinv2;
    ap = dvec4(mr3 * d, -mr);
    jk = dvec4(mr3 * (dv - alpha * d), 0.0LF);
}
#endif
