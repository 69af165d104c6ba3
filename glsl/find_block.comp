/* find_block.comp - a block step's block found where the steps' levels
 * live (the device corrector, gaj_correct.c): every particle whose level
 * is at most `due`, the level dividing the block's time (nb_hermite.h),
 * in ascending order, into block[].  Two passes over chunks of
 * NB_FIND_GROUP * per particles, a work group a chunk:
 *   NB_FIND_COUNT  each chunk's members into chunk_count[], and the
 *                  block's failure slots cleared for correct.comp;
 *   NB_FIND_WRITE  each chunk's members after those of the chunks before
 *                  (summed by the group: the host keeps chunks <= 1024).
 * With `ahead`, the level is the block state's next_due: the passes run
 * queued behind the corrector of the block before, ahead of the host; and
 * with NB_FIND_PREDICT the count pass also predicts the j-set to the block
 * state's next_t (predict_one.glsl), an invocation's particles each. */
layout(local_size_x = NB_FIND_GROUP) in;

layout(std430, binding = NB_BIND_FIND_COUNTS) buffer Counts { uint chunk_count[]; };
#ifdef NB_FIND_WRITE
layout(std430, binding = NB_BIND_ACTIVE) writeonly buffer Block { uint block[]; };
#endif

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_FIND_DUE) uniform int due;
NB_LOCATION(NB_LOC_FIND_PER) uniform int per;
NB_LOCATION(NB_LOC_AHEAD) uniform int ahead;

shared uint part[NB_FIND_GROUP];

/* part[] summed in place, each entry the sum up to it (Hillis & Steele),
 * once every invocation has written its own. */
void scan_part(uint t)
{
    memoryBarrierShared();
    barrier();
    for (uint d = 1u; d < uint(NB_FIND_GROUP); d <<= 1) {
        uint add = t >= d ? part[t - d] : 0u;
        memoryBarrierShared();
        barrier();
        part[t] += add;
        memoryBarrierShared();
        barrier();
    }
}

int due_level;

bool due_now(int i)
{
    return level_of[i] <= uint(due_level);
}

/* Members among this invocation's particles [first, first + per). */
uint count_from(int first)
{
    uint c = 0u;
    for (int i = first; i < min(first + per, n); i++)
        c += due_now(i) ? 1u : 0u;
    return c;
}

void main()
{
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    due_level = ahead != 0 ? next_due : due;
    int first = int(g * uint(NB_FIND_GROUP) + t) * per;
#ifdef NB_FIND_COUNT
#ifdef NB_FIND_PREDICT
    for (int i = first; i < min(first + per, n); i++)
        predict_particle(i, next_t);
#endif
    part[t] = count_from(first);
    scan_part(t);
    if (t == uint(NB_FIND_GROUP) - 1u)
        chunk_count[g] = part[t];
    if (g == 0u && t == 0u) {
        first_bad = 0xffffffffu;
        first_small = 0xffffffffu;
    }
#else
    uint before = 0u;
    for (uint c = t; c < g; c += uint(NB_FIND_GROUP))
        before += chunk_count[c];
    part[t] = before;
    scan_part(t);
    uint at = part[NB_FIND_GROUP - 1];
    barrier();
    uint mine = count_from(first);
    part[t] = mine;
    scan_part(t);
    at += part[t] - mine;
    for (int i = first; i < min(first + per, n); i++)
        if (due_now(i))
            block[at++] = uint(i);
#endif
}
