/* g6_fused.glsl - how g6_block.comp's small-block kernels (NB_G6_FUSED,
 * mode A) add their j-slices in their own dispatch: each group leaves its
 * sums, as double-single pairs (ds_sum.glsl), in NB_BIND_G6_PART and
 * counts its arrival; the last of each batch of NB_G6_FUSED_BATCH slices
 * adds the batch, and the last of the batches adds those, in the same
 * order whichever group comes last (g6_block.comp's header says why).
 * It follows g6_block.comp in the program, whose declarations it uses:
 * tile_pos and tile_vel as scratch, n_active, NB_LANES, g6_sums. */
#if defined(NB_G6_FUSED)
shared bool last_group;
#if NB_LANES > 1
shared vec4 lane_n[NB_TILE];        /* ds2, nearest id bits, address bits */
shared vec4 lane_lo[2][NB_TILE];    /* the low parts of (a, phi), (jerk, 0) */
#endif

/* Arrival counters: one per batch of NB_G6_FUSED_BATCH slices, and the
 * last one for the batches; then NB_G6_A_PART_VEC4S vec4 per (slice, i)
 * (nb_config.h), then as many per (batch, i). */
layout(std430, binding = NB_BIND_G6_PART) coherent buffer Partial {
    uint arrivals[NB_G6_FUSED_COUNTERS];
    vec4 partial[];
};

/* best becomes c where c is nearer, or as near at a lower address. */
void keep_nearer(inout vec4 best, vec4 c)
{
    int jb = floatBitsToInt(best.z), jc = floatBitsToInt(c.z);
    if (c.x < best.x || (c.x == best.x && uint(jc) < uint(jb)))
        best = c;
}

/* The sums of each i-particle's lanes, added pairwise in a fixed order,
 * for every lane of it (tile_pos, tile_vel, lane_lo and lane_n as
 * scratch). */
void add_lanes(int lid, int lane, inout g6_sums s, inout vec4 nn)
{
#if NB_LANES > 1
    tile_pos[lid] = s.ap;
    lane_lo[0][lid] = s.ap_lo;
    tile_vel[lid] = s.jk;
    lane_lo[1][lid] = s.jk_lo;
    lane_n[lid] = nn;
    memoryBarrierShared();
    barrier();
    for (int half_ = NB_LANES / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) {
            g6_sums a = g6_sums(tile_pos[lid], lane_lo[0][lid], tile_vel[lid], lane_lo[1][lid]);
            int o = lid + half_;
            sums_merge(a, g6_sums(tile_pos[o], lane_lo[0][o], tile_vel[o], lane_lo[1][o]));
            tile_pos[lid] = a.ap;
            lane_lo[0][lid] = a.ap_lo;
            tile_vel[lid] = a.jk;
            lane_lo[1][lid] = a.jk_lo;
            vec4 m = lane_n[lid];
            keep_nearer(m, lane_n[o]);
            lane_n[lid] = m;
        }
        memoryBarrierShared();
        barrier();
    }
    int first = lid - lane;
    s = g6_sums(tile_pos[first], lane_lo[0][first], tile_vel[first], lane_lo[1][first]);
    nn = lane_n[first];
    barrier();
#endif
}

/* Whether this group is the last of `expected` to arrive at counter c,
 * after writing its partial sums; the last one then sees all of them. */
bool arrive(int c, uint expected)
{
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationID.x == 0u)
        last_group = atomicAdd(arrivals[c], 1u) == expected - 1u;
    memoryBarrierShared();
    barrier();
    return last_group;
}

void put_partial(int at, g6_sums s, vec4 nn)
{
    partial[at] = s.ap;
    partial[at + 1] = s.ap_lo;
    partial[at + 2] = s.jk;
    partial[at + 3] = s.jk_lo;
    partial[at + 4] = nn;
}

g6_sums get_partial(int at)
{
    return g6_sums(partial[at], partial[at + 1], partial[at + 2], partial[at + 3]);
}

/* Adds count (at most NB_G6_FUSED_BATCH) partial sums from `first`,
 * `stride` vec4 apart: lane l takes l, l + NB_LANES, ... in that order.
 * Four are loaded before any is added, so that their trips to L2 overlap.
 * They go into named variables, which stay in registers; an array of
 * loads was slower than loading one at a time. */
void add_partials(int first, int stride, int count, int lane, inout g6_sums s,
                  inout vec4 nn)
{
    for (int q0 = lane; q0 < count; q0 += 4 * NB_LANES) {
        int at0 = first + q0 * stride;
        int at1 = first + min(q0 + NB_LANES, count - 1) * stride;
        int at2 = first + min(q0 + 2 * NB_LANES, count - 1) * stride;
        int at3 = first + min(q0 + 3 * NB_LANES, count - 1) * stride;
        g6_sums s0 = get_partial(at0), s1 = get_partial(at1), s2 = get_partial(at2),
                s3 = get_partial(at3);
        vec4 c0 = partial[at0 + 4], c1 = partial[at1 + 4], c2 = partial[at2 + 4],
             c3 = partial[at3 + 4];
        sums_merge(s, s0);
        keep_nearer(nn, c0);
        if (q0 + NB_LANES < count) {
            sums_merge(s, s1);
            keep_nearer(nn, c1);
        }
        if (q0 + 2 * NB_LANES < count) {
            sums_merge(s, s2);
            keep_nearer(nn, c2);
        }
        if (q0 + 3 * NB_LANES < count) {
            sums_merge(s, s3);
            keep_nearer(nn, c3);
        }
    }
}

/* The block's sums for i-particle k from this group's, through the two
 * levels of last arrivals; false for every group but the very last. */
bool add_slices(int lid, int lane, int k, bool live, inout g6_sums s, inout vec4 nn)
{
    const int P = NB_G6_A_PART_VEC4S;
    int y = int(gl_WorkGroupID.y), slices = int(gl_NumWorkGroups.y);
    int batch = y / NB_G6_FUSED_BATCH, first = batch * NB_G6_FUSED_BATCH;
    int batches = (slices + NB_G6_FUSED_BATCH - 1) / NB_G6_FUSED_BATCH;
    int in_batch = min(NB_G6_FUSED_BATCH, slices - first), level2 = P * slices * n_active;
    add_lanes(lid, lane, s, nn);
    if (lane == 0 && live)
        put_partial(P * (y * n_active + k), s, nn);
    if (!arrive(batch, uint(in_batch)))
        return false;
    sums_zero(s);
    nn = vec4(1.0e30, intBitsToFloat(-1), intBitsToFloat(-1), 0.0);
    if (live)
        add_partials(P * (first * n_active + k), P * n_active, in_batch, lane, s, nn);
    add_lanes(lid, lane, s, nn);
    if (lane == 0 && live)
        put_partial(level2 + P * (batch * n_active + k), s, nn);
    if (lid == 0)
        arrivals[batch] = 0u;           /* ready for the next block */
    if (!arrive(NB_G6_FUSED_COUNTERS - 1, uint(batches)))
        return false;
    sums_zero(s);
    nn = vec4(1.0e30, intBitsToFloat(-1), intBitsToFloat(-1), 0.0);
    if (live)
        add_partials(level2 + P * k, P * n_active, batches, lane, s, nn);
    add_lanes(lid, lane, s, nn);
    if (lid == 0)
        arrivals[NB_G6_FUSED_COUNTERS - 1] = 0u;
    return true;
}
#endif
