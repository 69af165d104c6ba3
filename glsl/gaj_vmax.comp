/* gaj_vmax.comp - the largest speed of the GAJ j-set, for the jerk bound of
 * precision H (src/gaj_precision.c): |v_i - v_j| <= 2 max_j |v_j|.  The
 * velocities are the ones the GAJ kernels read (uploaded by set_j or
 * written by predict.comp), so the bound holds for the terms they make.
 * One work group: each invocation takes the maximum over a strided share
 * of the n particles, a tree in shared memory the rest.  result.x is that
 * maximum; result.y is infinite when a position or velocity is not finite
 * (H's integer sums would hide it), else 0. */
layout(local_size_x = NB_GAJ_VMAX_GROUP) in;

layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_VEL) readonly buffer Velocities { vec4 vel[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Result { vec2 result; };

NB_LOCATION(NB_LOC_N) uniform int n;

shared vec2 part[NB_GAJ_VMAX_GROUP];

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    const float inf = uintBitsToFloat(0x7f800000u);
    vec2 m = vec2(0.0);
    for (int j = lid; j < n; j += NB_GAJ_VMAX_GROUP) {
        vec4 x = pos[j], v = vel[j];
        bool bad = any(isnan(x)) || any(isinf(x)) || any(isnan(v.xyz)) || any(isinf(v.xyz));
        m = max(m, vec2(length(v.xyz), bad ? inf : 0.0));
    }
    part[lid] = m;
    memoryBarrierShared();
    barrier();
    for (int s = NB_GAJ_VMAX_GROUP / 2; s > 0; s >>= 1) {
        if (lid < s)
            part[lid] = max(part[lid], part[lid + s]);
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0)
        result = part[0];
}
