/* g6_jmemory.glsl - the j-memory of the GRAPE-6 style block step (issue
 * 15) as g6_block.comp and g6_reduce.comp see it: four dvec4 per address,
 * (x, t), (v, m), (a/2, id), (jerk/6, 0); and a block's i-area, two dvec4
 * per i-particle, (x, h2), (v, id) (in mode G; two vec4 in the others,
 * ipart_f), followed, when they ride along
 * (NB_G6_INLINE), by the block's queued j-updates: four dvec4 each, (x, t),
 * (v, m), (a/2, id), (jerk/6, address), ascending by address.  A small
 * block then needs no scatter dispatch (g6_scatter.comp) of its own: its
 * prediction takes an updated address's coefficients from the
 * i-area, and a pass that runs after every read of the j-memory (the last
 * group of a fused block, or g6_reduce.comp) writes them in. */
#if defined(NB_G6_WRITES_J)
#define NB_G6_J_ACCESS
#else
#define NB_G6_J_ACCESS readonly
#endif
layout(std430, binding = NB_BIND_G6_JX) NB_G6_J_ACCESS buffer JX { dvec4 jx[]; };
layout(std430, binding = NB_BIND_G6_JV) NB_G6_J_ACCESS buffer JV { dvec4 jv[]; };
layout(std430, binding = NB_BIND_G6_JA) NB_G6_J_ACCESS buffer JA { dvec4 ja[]; };
layout(std430, binding = NB_BIND_G6_JJ) NB_G6_J_ACCESS buffer JJ { dvec4 jj[]; };
layout(std430, binding = NB_BIND_G6_I) readonly buffer IParticles { dvec4 ipart[]; };
/* The same i-area seen in float, every mode but G: each i-particle's
 * position as a double-single pair (gaj.glsl's nb_ds_diff), four vec4
 * (x hi, h2), (v, id bits), (x lo, 0), (v lo, 0), so that the updates
 * that ride along start at dvec4 2 n_active; or, where the kernel is
 * built with NB_G6_POS_FLOAT (positions rounded to float, the faster and
 * less accurate choice), two, (x, h2), (v, id bits), updates from dvec4
 * n_active.  With NB_G6_POS_FIXED the i-area is mode G's, read as ipart. */
#if defined(NB_PRECISION_G)
#define NB_G6_I_VEC4S 2
#elif defined(NB_G6_POS_FIXED)
#define NB_G6_DS_VEL
#define NB_G6_I_VEC4S 4
#elif !defined(NB_G6_POS_FLOAT)
#define NB_G6_DS
#define NB_G6_DS_VEL
#define NB_G6_I_VEC4S 4
#else
#define NB_G6_I_VEC4S 2
#endif

/* NB_G6_POS_FIXED (the "fixed64" position format, GRAPE-6's own; Makino
 * et al. 2003): positions as int64 in units of 2^-48, |x| up to 2^14
 * (clamped there), formed from the double i-area (mode G's layout, read
 * as ipart) and the double prediction; x_j - x_i exact in int64, then
 * rounded once to float.  Velocities double-single. */
#if defined(NB_G6_POS_FIXED)
#define XFIX i64vec3
#define NB_G6_FIXED_ULP 3.5527136788005009e-15      /* 2^-48 */
i64vec3 nb_fixed(dvec3 x)
{
    return i64vec3(round(clamp(x, dvec3(-16384.0LF), dvec3(16384.0LF)) *
                         281474976710656.0LF));
}
#else
#define XFIX ivec3
ivec3 nb_fixed(dvec3 x) { return ivec3(0); }
#endif
layout(std430, binding = NB_BIND_G6_IF) readonly buffer IParticlesF { vec4 ipart_f[]; };

#if defined(NB_G6_INLINE) || defined(NB_G6_WRITES_J)
NB_LOCATION(NB_LOC_G6_UPDATES) uniform int n_updates;     /* 0..NB_G6_INLINE_MAX */
NB_LOCATION(NB_LOC_G6_UPDATES_AT) uniform int updates_at; /* their first dvec4 */
#endif

#if defined(NB_G6_WRITES_J)
/* Updates first, first + stride, ... into the j-memory. */
void write_updates(int first, int stride)
{
    for (int u = first; u < n_updates; u += stride) {
        int at = updates_at + 4 * u;
        dvec4 j6 = ipart[at + 3];
        int j = int(j6.w);
        jx[j] = ipart[at];
        jv[j] = ipart[at + 1];
        ja[j] = ipart[at + 2];
        jj[j] = dvec4(j6.xyz, 0.0);
    }
}
#endif
