/* g6_neighbours.comp - the neighbour lists of a GRAPE-6 style block: the
 * ids of the j-particles (as predicted to t_i by g6_block.comp) closer to
 * i-particle k than sqrt(h2_k), unsoftened, the self pair (same id)
 * excluded, as Sapporo2 tests it (h2 > ds2).  Invocation (j, k): a hit
 * takes the next slot of k's list; the count goes on past the room
 * (max_list) so that the host sees an overflow.  Slots are taken in any
 * order: the host sorts each list.  Distances are formed from the
 * double-single positions (gaj.glsl's nb_ds_diff): the j-set as two vec4
 * an address, (hi, id bits), (lo, 0), and the i-area as the block's (in
 * double in mode G, split here; float only with NB_G6_POS_FLOAT). */
layout(local_size_x = 256) in;

layout(std430, binding = NB_BIND_G6_JP) readonly buffer JPredicted { vec4 jp[]; };
#if defined(NB_G6_I_DOUBLE) || defined(NB_G6_POS_FLOAT)
#define NB_G6_I_VEC4S 2
#else
#define NB_G6_I_VEC4S 4
#endif
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
    int at = NB_G6_I_VEC4S * k;
#if defined(NB_G6_I_DOUBLE)
    dvec4 x2 = ipart[at];
    vec4 ix = vec4(x2);
    vec3 li = vec3(x2.xyz - dvec3(ix.xyz));
    int id_i = int(ipart[at + 1].w);
#else
    vec4 ix = ipart[at];
    int id_i = floatBitsToInt(ipart[at + 1].w);
#if defined(NB_G6_POS_FLOAT)
    vec3 li = vec3(0.0);
#else
    vec3 li = ipart[at + 2].xyz;
#endif
#endif
    vec4 pj = jp[2 * j];
    int id_j = floatBitsToInt(pj.w);
#if defined(NB_G6_POS_FLOAT)
    vec3 d = pj.xyz - ix.xyz;
#else
    vec3 d = nb_ds_diff(pj.xyz, jp[2 * j + 1].xyz, ix.xyz, li);
#endif
    float ds2 = dot(d, d);
    if (id_j != id_i && ix.w > ds2) {
        uint slot = atomicAdd(count[k], 1u);
        if (slot < uint(max_list))
            list[k * max_list + int(slot)] = id_j;
    }
}
