/* gaj.comp - the GAJ kernel for a block of active i-particles.
 *
 * The j-set is all n particles (positions + mass, velocities); the i-set is
 * the active block, given as indices into the j-set.  A work group of
 * NB_TILE invocations owns NB_TILE active particles and walks one slice of
 * the j-set a shared-memory tile at a time; since active indices are
 * arbitrary, the pair i == j is excluded by comparing indices in every
 * pair (an integer compare, ~5% of the pair's work).  Slice s writes its
 * partial sums at s * n_active + k; reduce.comp sums the slices. */
layout(local_size_x = NB_TILE) in;

layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_VEL) readonly buffer Velocities { vec4 vel[]; };
layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Active { int active_index[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer AccPot { vec4 acc_pot[]; };
layout(std430, binding = NB_BIND_OUT2) writeonly buffer Jerk { vec4 jerk[]; };

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_tiles;
NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_K_FIRST) uniform int k_first;   /* a long block comes in parts */
/* The j-particles summed: [first, end) of the n in the buffers (all n,
 * or one rank's slice of a j-parallel run; the i-particles, given by
 * index, may lie anywhere). */
NB_LOCATION(NB_LOC_J_RANGE) uniform ivec2 j_range;

shared vec4 tile_pos[NB_TILE];
shared vec4 tile_vel[NB_TILE];

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int k = k_first + int(gl_WorkGroupID.x) * NB_TILE + lid;
    int i = k < n_active ? active_index[k] : -1;
    vec4 pi = i >= 0 ? pos[i] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
    vec4 vi = i >= 0 ? vel[i] : vec4(0.0);
    float ax = 0.0, ay = 0.0, az = 0.0, jx = 0.0, jy = 0.0, jz = 0.0, ap = 0.0;

    int first = j_range.x, end = j_range.y;
    int tiles = (end - first + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    for (int t = t0; t < t1; ++t) {
        int j = first + t * NB_TILE + lid;
        tile_pos[lid] = j < end ? pos[j] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
        tile_vel[lid] = j < end ? vel[j] : vec4(0.0);
        memoryBarrierShared();
        barrier();
        /* Each tile is summed apart, then added: rounding grows with the
         * tile width plus the tile count, not with n. */
        float tx = 0.0, ty = 0.0, tz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, tp = 0.0;
        for (int jj = 0; jj < NB_TILE; ++jj) {
            vec4 pj = tile_pos[jj], vj = tile_vel[jj];
            nb_gaj_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z,
                              vj.x - vi.x, vj.y - vi.y, vj.z - vi.z, pj.w, eps2,
                              first + t * NB_TILE + jj == i, tx, ty, tz, ux, uy, uz, tp);
        }
        ax += tx; ay += ty; az += tz; jx += ux; jy += uy; jz += uz; ap += tp;
        barrier();
    }
    if (k < n_active) {
        int at = int(gl_WorkGroupID.y) * n_active + k;
        acc_pot[at] = vec4(ax, ay, az, ap);
        jerk[at] = vec4(jx, jy, jz, 0.0);
    }
}
