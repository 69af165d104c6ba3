/* g6_reduce.comp - sums the j-slices of g6_block.comp.  Work group k owns
 * i-particle k; its invocations sum the slices lid, lid + G, ... in that
 * order, and a shared-memory tree adds those sums, always in the same
 * order, so a block's result does not depend on timing.  Mode A adds
 * double-single pairs (ds_sum.glsl); the other modes merge accumulator
 * states (acc_merge: exact in H, deterministic in all), passed through
 * shared memory as their words (acc_pack).  (One invocation merging all of a particle's slices in turn
 * waited for each slice's load: a block of one i-particle at N = 65536,
 * 512 slices, spent most of its time there.)  The nearest neighbour is
 * the slice minimum, the lower slice on a tie, as one slice would find.
 * A slice's overflow flag (mode H's range left) is any slice's. */
#if !defined(NB_PRECISION_A)
layout(local_size_x = NB_G6_REDUCE_GROUP) in;

layout(std430, binding = NB_BIND_G6_PART) readonly buffer Partial { uvec4 partial[]; };
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { uvec4 result[]; };

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_SLICES) uniform int slices;

shared uvec4 words[4][NB_G6_REDUCE_GROUP];  /* (a, phi) w0, w1; jerk w0, w1 */
shared uvec4 near_s[NB_G6_REDUCE_GROUP];    /* ds2 bits, id, slice, overflow */

/* Whether c is nearer than b, or as near from a lower slice. */
bool nearer(uvec4 c, uvec4 b)
{
    float dc = uintBitsToFloat(c.x), db = uintBitsToFloat(b.x);
    return dc < db || (dc == db && c.z < b.z);
}

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int k = int(gl_WorkGroupID.x);
    nb_acc acc_ap, acc_j, b;
    acc_init(acc_ap);
    acc_init(acc_j);
    uvec4 near = uvec4(floatBitsToUint(1.0e30), uint(-1), uint(slices), 0u);
    for (int s = lid; s < slices; s += NB_G6_REDUCE_GROUP) {
        int q = 5 * (s * n_active + k);
        acc_unpack(partial[q], partial[q + 1], b);
        acc_merge(acc_ap, b);
        acc_unpack(partial[q + 2], partial[q + 3], b);
        acc_merge(acc_j, b);
        uvec4 c = uvec4(partial[q + 4].xy, uint(s), near.w | partial[q + 4].z);
        if (nearer(c, near))
            near = c;
        near.w = c.w;
    }
    for (int half_ = NB_G6_REDUCE_GROUP / 2; half_ > 0; half_ /= 2) {
        if (lid >= half_ && lid < 2 * half_) {
            acc_pack(acc_ap, words[0][lid], words[1][lid]);
            acc_pack(acc_j, words[2][lid], words[3][lid]);
            near_s[lid] = near;
        }
        memoryBarrierShared();
        barrier();
        if (lid < half_) {
            acc_unpack(words[0][lid + half_], words[1][lid + half_], b);
            acc_merge(acc_ap, b);
            acc_unpack(words[2][lid + half_], words[3][lid + half_], b);
            acc_merge(acc_j, b);
            uint over = near.w | near_s[lid + half_].w;
            if (nearer(near_s[lid + half_], near))
                near = near_s[lid + half_];
            near.w = over;
        }
        barrier();
    }
    if (lid == 0) {
        uvec4 w0, w1;
        acc_pack(acc_ap, w0, w1);
        result[5 * k] = w0;
        result[5 * k + 1] = w1;
        acc_pack(acc_j, w0, w1);
        result[5 * k + 2] = w0;
        result[5 * k + 3] = w1;
        bool over = near.w != 0u || acc_overflow(acc_ap) || acc_overflow(acc_j);
        result[5 * k + 4] = uvec4(near.xy, uint(over), 0u);
    }
}
#else   /* mode A: double-single pairs (ds_sum.glsl), nb_config.h's layout */
layout(local_size_x = NB_G6_REDUCE_GROUP) in;

layout(std430, binding = NB_BIND_G6_PART) readonly buffer Partial { vec4 partial[]; };
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { vec4 result[]; };

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_SLICES) uniform int slices;

shared vec4 sum_s[4][NB_G6_REDUCE_GROUP];   /* (a, phi) hi, lo; jerk hi, lo */
shared vec2 near[NB_G6_REDUCE_GROUP];       /* ds2, id bits */

void main()
{
    const int V = NB_G6_A_VEC4S;
    int lid = int(gl_LocalInvocationID.x);
    int k = int(gl_WorkGroupID.x);
    vec4 ap = vec4(0.0), apl = vec4(0.0), jk = vec4(0.0), jkl = vec4(0.0);
    vec2 nn = vec2(1.0e30, intBitsToFloat(-1));
    for (int s = lid; s < slices; s += NB_G6_REDUCE_GROUP) {
        int at = V * (s * n_active + k);
        vec4 j_hi = partial[at + 2], j_lo = partial[at + 3];
        nb_ds_merge(ap, apl, partial[at], partial[at + 1]);
        nb_ds_merge(jk, jkl, vec4(j_hi.xyz, 0.0), vec4(j_lo.xyz, 0.0));
        vec2 c = vec2(j_hi.w, j_lo.w);
        if (c.x < nn.x)
            nn = c;
    }
    sum_s[0][lid] = ap;
    sum_s[1][lid] = apl;
    sum_s[2][lid] = jk;
    sum_s[3][lid] = jkl;
    near[lid] = nn;
    memoryBarrierShared();
    barrier();
    for (int half_ = NB_G6_REDUCE_GROUP / 2; half_ > 0; half_ /= 2) {
        if (lid < half_) {
            int o = lid + half_;
            nb_ds_merge(ap, apl, sum_s[0][o], sum_s[1][o]);
            nb_ds_merge(jk, jkl, sum_s[2][o], sum_s[3][o]);
            sum_s[0][lid] = ap;
            sum_s[1][lid] = apl;
            sum_s[2][lid] = jk;
            sum_s[3][lid] = jkl;
            if (near[o].x < near[lid].x)
                near[lid] = near[o];
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0) {
        result[V * k] = ap;
        result[V * k + 1] = apl;
        result[V * k + 2] = vec4(jk.xyz, near[0].x);
        result[V * k + 3] = vec4(jkl.xyz, near[0].y);
    }
}
#endif
