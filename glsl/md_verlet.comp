/* md_verlet.comp - velocity Verlet on the device (seed 002 eqs. 7-8,
 * Listing 2), state in double:
 *   K1  v += dt/2 F/m; x += dt v; periodic axes wrapped into [lo, hi);
 *       the float copy (x, y, z, q) for the force kernels refreshed; the
 *       double state keeps q in w for the precision kernels' mode G
 *   K2  v += dt/2 F/m with the new forces (the forces themselves are the
 *       md_pairs or md_cellforce pass before it). */
layout(local_size_x = NB_GROUP) in;

layout(std430, binding = NB_BIND_MD_POS) buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_MD_FORCE) readonly buffer Forces { vec4 force[]; };
layout(std430, binding = NB_BIND_MD_X) buffer StateX { dvec4 state_x[]; };
layout(std430, binding = NB_BIND_MD_V) buffer StateV { dvec4 state_v[]; };   /* v, 1/m */

NB_LOCATION(NB_LOC_MD_COUNT) uniform int count;
NB_LOCATION(NB_LOC_MD_DT) uniform dvec2 dt;          /* dt/2, dt */
NB_LOCATION(NB_LOC_MD_LO) uniform dvec3 lo;
NB_LOCATION(NB_LOC_MD_BOX) uniform dvec3 len;
NB_LOCATION(NB_LOC_MD_PERIODIC) uniform ivec3 periodic;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= count)
        return;
    dvec4 v = state_v[i];
    v.xyz += dt.x * dvec3(force[i].xyz) * v.w;
    state_v[i] = v;
#ifdef NB_MD_K1
    dvec3 x = state_x[i].xyz + dt.y * v.xyz;
    dvec3 wrapped = x - len * floor((x - lo) / len);
    x = mix(x, wrapped, bvec3(periodic));
    state_x[i] = dvec4(x, state_x[i].w);      /* w: the charge (mode G reads it) */
    pos[i] = vec4(vec3(x), pos[i].w);
#endif
}
