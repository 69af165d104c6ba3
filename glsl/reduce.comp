/* reduce.comp - sums the per-slice partial results of a j-split kernel:
 * result[i] = sum over s of partial[s * n + i].  A work group owns
 * NB_REDUCE_ITEMS particles and gives each NB_REDUCE_LANES invocations:
 * lane l sums the slices l, l + LANES, ... and the lanes are added in lane
 * order, so the result does not depend on timing.  One invocation a
 * particle would wait for each slice's load before the next; lanes keep
 * several loads in flight.
 * Each lane is a run of consecutive particles, so its loads coalesce.
 * With NB_REDUCE_PAIR it sums a second set (partial2 into result2, the GAJ
 * kernel's jerks) in the same dispatch; with NB_FORCE_PLANNED, n and the
 * slices are those correct.comp planned for the next block. */
layout(local_size_x = NB_REDUCE_GROUP) in;

layout(std430, binding = NB_BIND_PARTIAL) readonly buffer Partial { vec4 partial[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { vec4 result[]; };
#ifdef NB_REDUCE_PAIR
layout(std430, binding = NB_BIND_PARTIAL2) readonly buffer Partial2 { vec4 partial2[]; };
layout(std430, binding = NB_BIND_OUT2) writeonly buffer Results2 { vec4 result2[]; };
#endif

#if defined(NB_FORCE_PLANNED)
/* The block and its slices as correct.comp planned them (nb_config.h). */
layout(std430, binding = NB_BIND_FORCE_PLAN) readonly buffer ForcePlan {
    uint plan_groups[3];
    uint plan_reduce[3];
    int n, plan_slice_tiles;
};
#define slices int(plan_groups[1])
#else
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_SLICES) uniform int slices;
#endif

shared vec4 lane_sum[NB_REDUCE_GROUP];
#ifdef NB_REDUCE_PAIR
shared vec4 lane_sum2[NB_REDUCE_GROUP];
#endif

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int item = lid % NB_REDUCE_ITEMS, lane = lid / NB_REDUCE_ITEMS;
    int i = int(gl_WorkGroupID.x) * NB_REDUCE_ITEMS + item;
    vec4 even = vec4(0.0), odd = vec4(0.0);     /* two loads in flight */
#ifdef NB_REDUCE_PAIR
    vec4 even2 = vec4(0.0), odd2 = vec4(0.0);
#endif
    if (i < n) {
        int s = lane;
        for (; s + NB_REDUCE_LANES < slices; s += 2 * NB_REDUCE_LANES) {
            even += partial[s * n + i];
            odd += partial[(s + NB_REDUCE_LANES) * n + i];
#ifdef NB_REDUCE_PAIR
            even2 += partial2[s * n + i];
            odd2 += partial2[(s + NB_REDUCE_LANES) * n + i];
#endif
        }
        if (s < slices) {
            even += partial[s * n + i];
#ifdef NB_REDUCE_PAIR
            even2 += partial2[s * n + i];
#endif
        }
    }
    lane_sum[lid] = even + odd;
#ifdef NB_REDUCE_PAIR
    lane_sum2[lid] = even2 + odd2;
#endif
    memoryBarrierShared();
    barrier();
    if (lane == 0 && i < n) {
        vec4 sum = lane_sum[item];
        for (int l = 1; l < NB_REDUCE_LANES; ++l)
            sum += lane_sum[l * NB_REDUCE_ITEMS + item];
        result[i] = sum;
#ifdef NB_REDUCE_PAIR
        vec4 sum2 = lane_sum2[item];
        for (int l = 1; l < NB_REDUCE_LANES; ++l)
            sum2 += lane_sum2[l * NB_REDUCE_ITEMS + item];
        result2[i] = sum2;
#endif
    }
}
