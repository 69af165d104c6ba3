/* g6_lanes.glsl - mode H's small blocks in g6_block.comp: NB_LANES
 * invocations share an i-particle, as
 * mode A's do, so that a block of one particle is not one invocation's
 * serial sum.  Their states are merged pairwise in a fixed order (exact
 * in H) through shared memory, as acc_pack's words; the nearest
 * neighbour is the nearer, the lower address on a tie, as one scan in
 * address order finds; `over` becomes every lane's overflow. */
shared uvec4 lane_w[4][NB_TILE];
shared uvec4 lane_nn[NB_TILE];      /* ds2 bits, nearest id, its address, overflow */

void merge_lanes(int lid, int lane, inout nb_acc ap, inout nb_acc jk, inout float ds2,
                 inout int nearest, inout int nearest_j, inout bool over)
{
    over = over || acc_overflow(ap) || acc_overflow(jk);
    for (int half_ = NB_LANES / 2; half_ > 0; half_ /= 2) {
        if (lane >= half_ && lane < 2 * half_) {
            acc_pack(ap, lane_w[0][lid], lane_w[1][lid]);
            acc_pack(jk, lane_w[2][lid], lane_w[3][lid]);
            lane_nn[lid] = uvec4(floatBitsToUint(ds2), uint(nearest), uint(nearest_j),
                                 uint(over));
        }
        memoryBarrierShared();
        barrier();
        if (lane < half_) {
            nb_acc b;
            acc_unpack(lane_w[0][lid + half_], lane_w[1][lid + half_], b);
            acc_merge(ap, b);
            acc_unpack(lane_w[2][lid + half_], lane_w[3][lid + half_], b);
            acc_merge(jk, b);
            uvec4 c = lane_nn[lid + half_];
            float dc = uintBitsToFloat(c.x);
            if (dc < ds2 || (dc == ds2 && uint(c.z) < uint(nearest_j))) {
                ds2 = dc;
                nearest = int(c.y);
                nearest_j = int(c.z);
            }
            over = over || c.w != 0u || acc_overflow(ap) || acc_overflow(jk);
        }
        barrier();
    }
}
