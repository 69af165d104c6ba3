/* g6_scatter.comp - writes the queued j-particle updates of a GRAPE-6
 * style j-memory into it: update u is four dvec4, (x, t), (v, m),
 * (a/2, id), (jerk/6, address); where an address was put more than once
 * the host made all but its last dead (address -1), so the writes never
 * collide. */
layout(local_size_x = 256) in;

layout(std430, binding = NB_BIND_G6_JX) writeonly buffer JX { dvec4 jx[]; };
layout(std430, binding = NB_BIND_G6_JV) writeonly buffer JV { dvec4 jv[]; };
layout(std430, binding = NB_BIND_G6_JA) writeonly buffer JA { dvec4 ja[]; };
layout(std430, binding = NB_BIND_G6_JJ) writeonly buffer JJ { dvec4 jj[]; };
layout(std430, binding = NB_BIND_G6_UPDATE) readonly buffer Updates { dvec4 update[]; };

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int count;

void main()
{
    int u = int(gl_GlobalInvocationID.x);
    if (u >= count)
        return;
    dvec4 j6 = update[4 * u + 3];
    int j = int(j6.w);
    if (j < 0)
        return;
    jx[j] = update[4 * u];
    jv[j] = update[4 * u + 1];
    ja[j] = update[4 * u + 2];
    jj[j] = dvec4(j6.xyz, 0.0);
}
