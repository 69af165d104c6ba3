/* g6_neighbours.comp - the neighbour lists of a GRAPE-6 style block: the
 * ids of the j-particles (as predicted to t_i by g6_block.comp) closer to
 * i-particle k than sqrt(h2_k), unsoftened, the self pair (same id)
 * excluded, as Sapporo2 tests it (h2 > ds2).  Invocation (j, k): a hit
 * takes the next slot of k's list; the count goes on past the room
 * (max_list) so that the host sees an overflow.  Slots are taken in any
 * order: the host sorts each list. */
layout(local_size_x = 256) in;

layout(std430, binding = NB_BIND_G6_JP) readonly buffer JPredicted { vec4 jp[]; };
#if defined(NB_G6_I_DOUBLE)     /* a mode-G block's i-area */
layout(std430, binding = NB_BIND_G6_I) readonly buffer IParticles { dvec4 ipart[]; };
#else
layout(std430, binding = NB_BIND_G6_IF) readonly buffer IParticles { vec4 ipart[]; };
#endif
layout(std430, binding = NB_BIND_G6_NB_COUNT) coherent buffer Counts { uint count[]; };
layout(std430, binding = NB_BIND_G6_NB_LIST) writeonly buffer Lists { int list[]; };

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_G6_NB_MAX) uniform int max_list;

void main()
{
    int j = int(gl_GlobalInvocationID.x);
    int k = int(gl_WorkGroupID.y);
    if (j >= n)
        return;
#if defined(NB_G6_I_DOUBLE)
    vec4 ix = vec4(ipart[2 * k]);
    int id_i = int(ipart[2 * k + 1].w);
#else
    vec4 ix = ipart[2 * k];
    int id_i = floatBitsToInt(ipart[2 * k + 1].w);
#endif
    vec4 pj = jp[j];
    int id_j = floatBitsToInt(pj.w);
    vec3 d = pj.xyz - ix.xyz;
    float ds2 = dot(d, d);
    if (id_j != id_i && ix.w > ds2) {
        uint slot = atomicAdd(count[k], 1u);
        if (slot < uint(max_list))
            list[k * max_list + int(slot)] = id_j;
    }
}
