/* md_prec_finish.comp - the compute MD engine's finish of an accumulation
 * mode B..H (src/md_compute_force.c, `glnbody md --precision`): the eight words
 * per particle of md_precision.comp or md_cell_precision.comp (acc_pack's
 * layout, accumulate.glsl) become the float force (F, pe) that K2 kicks
 * with, as md_pairs.comp stores it (pe: half of the particle's pair
 * energies), computed in double as nb_md_prec_finish does on the host:
 *
 *   B, G  the double sums
 *   C, D  hs + ls
 *   E     (hs - LARGE + ls) 2^-k
 *   F     (hs - LARGE + li 2^-LOWER_FACTOR_LOG2) 2^-k
 *   H     double(int64) 2^-k, the int64 taken from its two words exactly
 *         (hi 2^32 + lo: one rounding, a function of the integer only, so
 *         the force is as order-independent as the sum)
 *
 * and a range check: where a scaled sum (H: the int64; E, F: hs - LARGE +
 * low part) exceeds half its range, or any result is not finite, bit 1 or
 * bit 2 of flag[0] is set (atomicOr), flag[1] keeps the smallest such
 * particle and flag[2] the smallest step (atomicMin).  The host reads the
 * flag only at output steps. */
layout(local_size_x = NB_GROUP) in;

layout(std430, binding = NB_BIND_MD_FORCE) writeonly buffer Forces { vec4 force[]; };
layout(std430, binding = NB_BIND_MD_PREC_RAW) readonly buffer Raw { uvec4 raw[]; };
layout(std430, binding = NB_BIND_MD_PREC_FLAG) buffer Flag { uint flag[]; };

NB_LOCATION(NB_LOC_MD_COUNT) uniform int count;
NB_LOCATION(NB_LOC_MD_PREC_LOG2) uniform ivec2 klog2;     /* force, energy */
NB_LOCATION(NB_LOC_MD_PREC_STEP) uniform uint step;

/* Half the range of the scaled sums: H 2^60, half of the 2^61 that each
 * term's three-chunk split allows (so a sum this large also warns of terms
 * near that limit); E, F 2^19, half of LARGE / 3 = 2^20. */
#if defined(NB_PRECISION_H)
const double half_range = 1152921504606846976.0LF;      /* 2^60 */
#else
const double half_range = 524288.0LF;                   /* 2^19 */
#endif

/* One sum from its two words w (B, G, H: the 64-bit value, low word
 * first; C..F: hs and its low part), unscaled by k where the mode has a
 * scale; ok cleared where the scaled value is out of range.  No dynamic
 * vector index anywhere: NVIDIA's driver 580 failed to link one on a
 * dvec4 ("can't find __setVectorIndex"). */
double value(uvec2 w, int k, inout bool ok)
{
#if defined(NB_PRECISION_H)
    double q = double(int(w.y)) * 4294967296.0LF + double(w.x);
    ok = ok && abs(q) <= half_range;
    return q * nb_pow2(-k);
#elif defined(NB_PRECISION_B) || defined(NB_PRECISION_G)
    return packDouble2x32(w);
#else
    double hs = double(uintBitsToFloat(w.x));
#if defined(NB_PRECISION_F)
    double v = hs - double(3 << (NB_LARGE_SHIFT - 1)) +
               double(int(w.y)) * nb_pow2(-NB_LOWER_FACTOR_LOG2);
#elif defined(NB_PRECISION_E)
    double v = hs - double(3 << (NB_LARGE_SHIFT - 1)) + double(uintBitsToFloat(w.y));
#else
    double v = hs + double(uintBitsToFloat(w.y));
#endif
#if defined(NB_PRECISION_E) || defined(NB_PRECISION_F)
    ok = ok && abs(v) <= half_range;
    return v * nb_pow2(-k);
#else
    return v;
#endif
#endif
}

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= count)
        return;
    uvec4 w0 = raw[2 * i], w1 = raw[2 * i + 1];
#if defined(NB_PRECISION_B) || defined(NB_PRECISION_G) || defined(NB_PRECISION_H)
    uvec2 px = w0.xy, py = w0.zw, pz = w1.xy, pu = w1.zw;
#else
    uvec2 px = uvec2(w0.x, w1.x), py = uvec2(w0.y, w1.y), pz = uvec2(w0.z, w1.z),
          pu = uvec2(w0.w, w1.w);
#endif
    bool ok = true;
    double fx = value(px, klog2.x, ok), fy = value(py, klog2.x, ok);
    double fz = value(pz, klog2.x, ok), u = value(pu, klog2.y, ok);
    vec4 out_f = vec4(float(fx), float(fy), float(fz), float(0.5LF * u));
    uint bad = (ok ? 0u : 1u) |
               (any(isnan(out_f)) || any(isinf(out_f)) ? 2u : 0u);
    if (bad != 0u) {
        atomicOr(flag[0], bad);
        atomicMin(flag[1], uint(i));
        atomicMin(flag[2], step);
    }
    force[i] = out_f;
}
