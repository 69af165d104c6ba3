/* find_block.comp - a block step's block found where the steps' levels
 * live (the device corrector, gaj_correct.c): every particle whose level
 * is at most `due`, the level dividing the block's time (nb_hermite.h),
 * in ascending order, into block[].  One pass over chunks of
 * NB_FIND_GROUP * per particles, a work group a chunk: each chunk's
 * members go after those of the chunks before it, one number each: their
 * counts of particles at the block's level or below (chunk_levels[], kept
 * by correct.comp as levels change, so that no pass of its own has to
 * count them); the block's
 * failure slots are cleared for correct.comp.  With `ahead`, the level is
 * the block state's next_due: the pass runs queued behind the corrector
 * of the block before, ahead of the host; and with NB_FIND_PREDICT it also
 * predicts the j-set to the block state's next_t (predict_one.glsl), an
 * invocation's particles each. */
layout(local_size_x = NB_FIND_GROUP) in;

layout(std430, binding = NB_BIND_FIND_COUNTS) readonly buffer ChunkLevels {
    int chunk_levels[];     /* chunk c's particles at level l or below: c * LEVELS + l */
};
layout(std430, binding = NB_BIND_ACTIVE) writeonly buffer Block { uint block[]; };

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

/* The members of the chunks before chunk g, this invocation's share. */
uint members_before(uint t, uint g)
{
    uint c = 0u;
    for (uint k = t; k < g; k += uint(NB_FIND_GROUP))
        c += uint(chunk_levels[k * uint(NB_CORRECT_LEVELS) + uint(due_level)]);
    return c;
}

void main()
{
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    due_level = ahead != 0 ? next_due : due;
    int first = int(g * uint(NB_FIND_GROUP) + t) * per;
#ifdef NB_FIND_PREDICT
    for (int i = first; i < min(first + per, n); i++)
        predict_particle(i, next_t);
#endif
    part[t] = members_before(t, g);
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
    if (g == 0u && t == 0u) {
        first_bad = 0xffffffffu;
        first_small = 0xffffffffu;
    }
}
