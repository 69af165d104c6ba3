/* g6_block.comp - one block step of a GRAPE-6 style j-memory (issue 15):
 * the j-particles are predicted to t_i from their Taylor coefficients as
 * each tile is loaded, and the block's i-particles, given by their own
 * (host-predicted) positions and velocities, take the GAJ law of gaj.glsl
 * from every j-particle whose id differs from theirs.  One dispatch does
 * prediction and forces: no predicted j-set is stored and re-read.
 *
 * Prediction (Sapporo2's fourth-order predictor; the snap term k18 of the
 * GRAPE-6 interface is not used):
 *   x_p = x + v dt + a2 dt^2 + j6 dt^3,   v_p = v + 2 a2 dt + 3 j6 dt^2,
 * dt = t_i - t_j, in double; the pair terms are float (mode A and the
 * modes that sum float terms) or double (G).
 *
 * Work group (x, y): NB_TILE i-particles of the block, j-slice y of
 * slice_tiles tiles.  Mode A writes three vec4 per (slice, i) to
 * NB_BIND_G6_OUT, (a, phi), (jerk, 0), (ds2_min, nearest id bits, 0, 0),
 * and the other modes five uvec4 per (slice, i): acc_pack's words of
 * (a, phi) and of jerk, then (ds2_min bits, nearest id, 0, 0); g6_reduce.comp
 * adds the slices (acc_merge, in slice order).  Group x = 0 also writes the
 * predicted j-set (float x, y, z, id bits) to NB_BIND_G6_JP for the
 * neighbour search.  The nearest neighbour is by unsoftened distance, the
 * self pair (same id) excluded, as Sapporo2 does; on a tie the lower
 * address, as one scan in address order finds.
 *
 * Small blocks (mode A): NB_LANES invocations share one i-particle, each
 * taking every NB_LANES-th j of a tile, and a fixed-order tree in shared
 * memory adds the lanes.  A group then holds NB_TILE / NB_LANES
 * i-particles, so that a block of one particle does not pay for a tile of
 * padding.  With NB_G6_FUSED (one i-particle) the block also adds its
 * j-slices in this dispatch, not in g6_reduce.comp: each group leaves its
 * slice in NB_BIND_G6_PART and counts itself done, and the last group adds
 * the slices, lane l taking slices l, l + NB_LANES, ..., then the lane
 * tree, the same order whichever group comes last (the threadfence
 * reduction of the CUDA samples).  One dispatch fewer is ~11 us on an H100.
 * The tile-64 kernels of mode A also take a block's j-updates with it
 * (NB_G6_INLINE, g6_jmemory.glsl): their addresses wait in shared memory,
 * and each predicted address looks itself up there. */
#if !defined(NB_LANES)
#define NB_LANES 1
#endif
#define NB_GROUP_I (NB_TILE / NB_LANES)
layout(local_size_x = NB_TILE) in;

layout(std430, binding = NB_BIND_G6_JP) writeonly buffer JPredicted { vec4 jp[]; };
#if defined(NB_PRECISION_A)
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { vec4 result[]; };
#else
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { uvec4 result[]; };
NB_LOCATION(NB_LOC_PREC_SCALE_J) uniform vec4 prec_scale_j;
#endif

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_tiles;
NB_LOCATION(NB_LOC_TIME) uniform double ti;

#if defined(NB_PRECISION_G)
#define POS dvec4
NB_LOCATION(NB_LOC_PREC_EPS2D) uniform double eps2d;
int id_of(dvec4 v) { return int(v.w); }
#else
#define POS vec4
int id_of(vec4 v) { return floatBitsToInt(v.w); }
#endif

shared POS tile_pos[NB_TILE];
shared POS tile_vel[NB_TILE];       /* w: the id */

#if defined(NB_G6_INLINE)
shared int update_address[NB_G6_INLINE_MAX];

/* The update of address j riding with the block (its index), or -1. */
int update_of(int j)
{
    int lo = 0, hi = n_updates;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (update_address[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n_updates && update_address[lo] == j ? lo : -1;
}
#endif

/* j-particle j predicted to ti: (x, m) and (v, id); padding beyond n. */
void predict(int j, out POS p, out POS v)
{
    if (j >= n) {
        p = POS(vec3(NB_PAD_COORD), NB_PAD_MASS);
#if defined(NB_PRECISION_G)
        v = dvec4(0.0, 0.0, 0.0, double(NB_G6_PAD_ID));
#else
        v = vec4(vec3(0.0), intBitsToFloat(NB_G6_PAD_ID));
#endif
        return;
    }
    dvec4 x, vm, a2, j6;
#if defined(NB_G6_INLINE)
    int u = update_of(j);
    if (u >= 0) {
        int at = updates_at + 4 * u;
        x = ipart[at];
        vm = ipart[at + 1];
        a2 = ipart[at + 2];
        j6 = ipart[at + 3];
    } else
#endif
    {
        x = jx[j];
        vm = jv[j];
        a2 = ja[j];
        j6 = jj[j];
    }
    double dt = ti - x.w;
    dvec3 xp = x.xyz + dt * (vm.xyz + dt * (a2.xyz + dt * j6.xyz));
    dvec3 vp = vm.xyz + dt * (2.0LF * a2.xyz + (3.0LF * dt) * j6.xyz);
#if defined(NB_PRECISION_G)
    p = dvec4(xp, vm.w);
    v = dvec4(vp, a2.w);
#else
    p = vec4(vec3(xp), float(vm.w));
    v = vec4(vec3(vp), intBitsToFloat(int(a2.w)));
#endif
}

#if defined(NB_G6_FUSED)
shared bool last_group;

/* The slices: a counter of groups done, then three vec4 per (slice, i). */
layout(std430, binding = NB_BIND_G6_PART) coherent buffer Partial {
    uint groups_done;
    uint pad_[3];
    vec4 partial[];
};
#endif
#if NB_LANES > 1
shared vec4 lane_n[NB_TILE];        /* ds2, nearest id bits, address bits */

/* best becomes c where c is nearer, or as near at a lower address. */
void keep_nearer(inout vec4 best, vec4 c)
{
    int jb = floatBitsToInt(best.z), jc = floatBitsToInt(c.z);
    if (c.x < best.x || (c.x == best.x && uint(jc) < uint(jb)))
        best = c;
}

/* Adds the lanes of each i-particle (tile_pos: a and phi, tile_vel: jerk,
 * lane_n: the nearest), pairwise in a fixed order; lane 0 ends with the sum. */
void add_lanes(int lid, int lane)
{
    for (int half_ = NB_LANES / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) {
            tile_pos[lid] += tile_pos[lid + half_];
            tile_vel[lid] += tile_vel[lid + half_];
            vec4 m = lane_n[lid];
            keep_nearer(m, lane_n[lid + half_]);
            lane_n[lid] = m;
        }
        memoryBarrierShared();
        barrier();
    }
}
#endif

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int lane = lid % NB_LANES;
    int k = int(gl_WorkGroupID.x) * NB_GROUP_I + lid / NB_LANES;
    bool live = k < n_active;
    dvec4 ix = live ? ipart[2 * k] : dvec4(NB_PAD_COORD);
    dvec4 iv = live ? ipart[2 * k + 1] : dvec4(0.0, 0.0, 0.0, double(NB_G6_PAD_ID));
    int id_i = int(iv.w);
#if defined(NB_PRECISION_G)
    dvec4 pi = dvec4(ix.xyz, 0.0), vi = dvec4(iv.xyz, 0.0);
#else
    vec4 pi = vec4(vec3(ix.xyz), 0.0), vi = vec4(vec3(iv.xyz), 0.0);
#endif
#if defined(NB_PRECISION_A)
    float ax = 0.0, ay = 0.0, az = 0.0, jx_ = 0.0, jy_ = 0.0, jz_ = 0.0, ap = 0.0;
#else
    nb_acc acc_ap, acc_j;
    acc_init(acc_ap);
    acc_init(acc_j);
#endif
    float ds2_min = 1.0e30;
    int nearest = -1, nearest_j = -1;

#if defined(NB_G6_INLINE)
    if (lid < n_updates)
        update_address[lid] = int(ipart[updates_at + 4 * lid + 3].w);
    memoryBarrierShared();
    barrier();
#endif
    int tiles = (n + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    for (int t = t0; t < t1; ++t) {
        int j = t * NB_TILE + lid;
        POS p, v;
        predict(j, p, v);
        tile_pos[lid] = p;
        tile_vel[lid] = v;
        if (gl_WorkGroupID.x == 0u && j < n)
            jp[j] = vec4(vec3(p.xyz), intBitsToFloat(id_of(v)));
        memoryBarrierShared();
        barrier();
#if defined(NB_PRECISION_A)
        /* Each tile summed apart, then added, as gaj.comp does. */
        float tx = 0.0, ty = 0.0, tz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, tp = 0.0;
#endif
        for (int q = lane; q < NB_TILE; q += NB_LANES) {
            POS pj = tile_pos[q], vj = tile_vel[q];
            int id_j = id_of(vj);
            bool self = id_j == id_i;
#if defined(NB_G6_NEAREST)
            float ds2 = float(dot(pj.xyz - pi.xyz, pj.xyz - pi.xyz));
            if (!self && ds2 < ds2_min) {
                ds2_min = ds2;
                nearest = id_j;
                nearest_j = t * NB_TILE + q;
            }
#endif
#if defined(NB_PRECISION_A)
            nb_gaj_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z, vj.x - vi.x,
                              vj.y - vi.y, vj.z - vi.z, pj.w, eps2, self,
                              tx, ty, tz, ux, uy, uz, tp);
#elif defined(NB_PRECISION_G)
            dvec4 dap, djk;
            nb_gaj_pair_double(pi, vi, pj, dvec4(vj.xyz, 0.0), eps2d, self, dap, djk);
            acc_add_double(acc_ap, dap);
            acc_add_double(acc_j, djk);
#else
            precise float bx = 0.0, by = 0.0, bz = 0.0, kx = 0.0, ky = 0.0, kz = 0.0,
                          bp = 0.0;
            nb_gaj_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z, vj.x - vi.x,
                              vj.y - vi.y, vj.z - vi.z, pj.w, eps2, self,
                              bx, by, bz, kx, ky, kz, bp);
            acc_add(acc_ap, vec4(bx, by, bz, bp));
            acc_add_scaled(acc_j, vec4(kx, ky, kz, 0.0), prec_scale_j);
#endif
        }
#if defined(NB_PRECISION_A)
        ax += tx; ay += ty; az += tz; jx_ += ux; jy_ += uy; jz_ += uz; ap += tp;
#else
        acc_tile_end(acc_ap);
        acc_tile_end(acc_j);
#endif
        barrier();
    }
#if NB_LANES > 1
    tile_pos[lid] = vec4(ax, ay, az, ap);
    tile_vel[lid] = vec4(jx_, jy_, jz_, 0.0);
    lane_n[lid] = vec4(ds2_min, intBitsToFloat(nearest), intBitsToFloat(nearest_j), 0.0);
    memoryBarrierShared();
    barrier();
    add_lanes(lid, lane);
#if !defined(NB_G6_FUSED)
    if (lane != 0 || !live)
        return;
    int at = 3 * (int(gl_WorkGroupID.y) * n_active + k);
    result[at] = tile_pos[lid];
    result[at + 1] = tile_vel[lid];
    result[at + 2] = vec4(lane_n[lid].xy, 0.0, 0.0);
#else
    if (lane == 0 && live) {
        int at = 3 * (int(gl_WorkGroupID.y) * n_active + k);
        partial[at] = tile_pos[lid];
        partial[at + 1] = tile_vel[lid];
        partial[at + 2] = lane_n[lid];
    }
    memoryBarrierBuffer();
    barrier();
    if (lid == 0)
        last_group = atomicAdd(groups_done, 1u) == gl_NumWorkGroups.y - 1u;
    memoryBarrierShared();
    barrier();
    if (!last_group)
        return;
    vec4 sum_ap = vec4(0.0), sum_j = vec4(0.0);
    vec4 near = vec4(1.0e30, intBitsToFloat(-1), intBitsToFloat(-1), 0.0);
    for (int y = lane; live && y < int(gl_NumWorkGroups.y); y += NB_LANES) {
        int at = 3 * (y * n_active + k);
        sum_ap += partial[at];
        sum_j += partial[at + 1];
        keep_nearer(near, partial[at + 2]);
    }
    tile_pos[lid] = sum_ap;
    tile_vel[lid] = sum_j;
    lane_n[lid] = near;
    memoryBarrierShared();
    barrier();
    add_lanes(lid, lane);
    if (lid == 0)
        groups_done = 0u;           /* ready for the next block */
    write_updates(lid, NB_TILE);    /* every group has read the j-memory */
    if (lane != 0 || !live)
        return;
    result[3 * k] = tile_pos[lid];
    result[3 * k + 1] = tile_vel[lid];
    result[3 * k + 2] = vec4(lane_n[lid].xy, 0.0, 0.0);
#endif
#else
    if (!live)
        return;
#endif
#if defined(NB_PRECISION_A) && NB_LANES == 1
    int at = 3 * (int(gl_WorkGroupID.y) * n_active + k);
    result[at] = vec4(ax, ay, az, ap);
    result[at + 1] = vec4(jx_, jy_, jz_, 0.0);
    result[at + 2] = vec4(ds2_min, intBitsToFloat(nearest), 0.0, 0.0);
#elif !defined(NB_PRECISION_A)
    int at = 5 * (int(gl_WorkGroupID.y) * n_active + k);
    uvec4 w0, w1;
    acc_pack(acc_ap, w0, w1);
    result[at] = w0;
    result[at + 1] = w1;
    acc_pack(acc_j, w0, w1);
    result[at + 2] = w0;
    result[at + 3] = w1;
    result[at + 4] = uvec4(floatBitsToUint(ds2_min), uint(nearest), 0u, 0u);
#endif
}
