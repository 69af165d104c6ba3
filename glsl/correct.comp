/* correct.comp - the Hermite corrector on the device (Makino & Aarseth
 * 1992 eqs. 5-9), so that a block step sends nothing up and reads back a
 * few hundred bytes: the host's integrator_hermite4.c (correct_one) and
 * block_clock.c (nb_step_aarseth_criterion, nb_step_next) in the same
 * double operations, in the same order, none fused (precise): with IEEE
 * division and square root, the same bits as the host.
 *
 * Invocation k corrects block slot k, particle i = idx[k], at t1 from its
 * state at t0 (x0, t0; ds: v, a, jerk, a2, a3, 16 doubles a particle, the
 * last unused) and the GAJ result of the slot (acc: a, phi; jerk), then
 * writes the corrected state back and the new step's level into the block
 * state, whose counts of each level follow (find_block.comp takes the next
 * block from there, the host its time, from the report that the last
 * group to finish writes).  aux[2k], aux[2k + 1]: the criterion (-1 for
 * none) and m a1.(x1 - xp), which the host reads only for a failed slot or
 * a block of everyone.  A failed slot leaves the state as it was and its
 * slot in first_bad (a result not finite) or first_small (a step below the
 * floor), the first of the block's. */
layout(local_size_x = NB_CORRECT_GROUP) in;

#define NB_CORRECT_DT_FLOOR nb_pow2(-NB_CORRECT_LEVEL_OF_ONE)

layout(std430, binding = NB_BIND_STATE_X) buffer X0 { double x0[]; };
layout(std430, binding = NB_BIND_STATE_T0) buffer T0 { double t0[]; };
layout(std430, binding = NB_BIND_STATE_V) readonly buffer V0 { vec4 v0[]; };  /* w: mass */
layout(std430, binding = NB_BIND_DSTATE) buffer DS { double ds[]; };
layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Index { int idx[]; };
layout(std430, binding = NB_BIND_OUT) readonly buffer Acc { vec4 acc[]; };
layout(std430, binding = NB_BIND_OUT2) readonly buffer Jerk { vec4 jerk1[]; };
/* The host's read-back area: the report, the block state's header as the
 * last group leaves it. */
layout(std430, binding = NB_BIND_CORRECTED) writeonly buffer Out {
    uint report[NB_BLOCK_STATE_HEADER];
};
/* Two doubles a slot, in device memory: the host copies them only where it
 * reads them (written into the mapped area, every slot's stores would
 * cross the bus). */
layout(std430, binding = NB_BIND_CORRECTED_AUX) writeonly buffer Aux { double aux[]; };

shared int moved[NB_CORRECT_LEVELS];    /* the group's changes of the counts */
shared double ends[NB_CORRECT_LEVELS];  /* the last group's: each level's next end */
shared int counts[NB_CORRECT_LEVELS];   /* and each level's particles */
shared double earliest[NB_CORRECT_LEVELS];  /* the minimum of ends, in a tree */
shared int due_level;                   /* the next block's level */
shared bool last_group;

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_block;
NB_LOCATION(NB_LOC_TIME) uniform double t1;
NB_LOCATION(NB_LOC_CORRECT_STEP) uniform dvec2 eta_dt_max;
NB_LOCATION(NB_LOC_FORCE_PLAN) uniform ivec4 force_plan;
/* find_block.comp's counts of each chunk's particles at each level or
 * below, kept here */
layout(std430, binding = NB_BIND_FIND_COUNTS) buffer ChunkLevels { int chunk_levels[]; };
NB_LOCATION(NB_LOC_FIND_CHUNK) uniform int chunk_size;
layout(std430, binding = NB_BIND_FORCE_PLAN) writeonly buffer ForcePlan {
    uint plan[NB_FORCE_PLAN_WORDS];
};

double norm3(dvec3 u)
{
    precise double s = u.x * u.x + u.y * u.y;
    precise double s3 = s + u.z * u.z;
    return sqrt(s3);
}

/* nb_step_aarseth_criterion; -1 for infinite. */
double aarseth(double eta, dvec3 a, dvec3 j, dvec3 a2, dvec3 a3)
{
    precise double an = norm3(a), jn = norm3(j), a2n = norm3(a2), a3n = norm3(a3);
    precise double den = jn * a3n + a2n * a2n;
    precise double num = an * a2n + jn * jn;
    precise double q = eta * num / den;
    return den > 0.0LF ? sqrt(q) : -1.0LF;
}

/* nb_step_next with crit < 0 for infinite. */
double step_next(double dt, double crit, double dt_max)
{
    bool infinite = crit < 0.0LF;
    if (!infinite && crit < dt) {
        while (dt > crit && dt >= NB_CORRECT_DT_FLOOR)
            dt *= 0.5LF;
    } else if ((infinite || crit >= 2.0LF * dt) && 2.0LF * dt <= dt_max) {
        precise double q = t1 / (2.0LF * dt);
        if (q == floor(q))
            dt *= 2.0LF;
    }
    return dt;
}

bool finite3(dvec3 u)
{
    return !any(isnan(u)) && !any(isinf(u));
}

/* Slot k, particle i of step level `level`, corrected; returns the new
 * level, or -1 where the slot failed. */
int correct_slot(int k, int i, int level)
{
    int s = 16 * i;
    dvec3 x = dvec3(x0[3 * i], x0[3 * i + 1], x0[3 * i + 2]);
    dvec3 v = dvec3(ds[s], ds[s + 1], ds[s + 2]);
    dvec3 a = dvec3(ds[s + 3], ds[s + 4], ds[s + 5]);
    dvec3 j = dvec3(ds[s + 6], ds[s + 7], ds[s + 8]);
    dvec3 a1 = dvec3(acc[k].xyz), j1 = dvec3(jerk1[k].xyz);
    precise double dt = t1 - t0[i];
    precise double dt2 = dt * dt;
    /* predict_one: x + dt (v + dt/2 (a + dt/3 j)), v + dt (a + dt/2 j) */
    precise dvec3 xp = x + dt * (v + dt / 2.0LF * (a + dt / 3.0LF * j));
    precise dvec3 vp = v + dt * (a + dt / 2.0LF * j);
    precise dvec3 da = a - a1;
    precise dvec3 a2 = (-6.0LF * da - dt * (4.0LF * j + 2.0LF * j1)) / dt2;
    precise dvec3 a3 = (12.0LF * da + 6.0LF * dt * (j + j1)) / (dt2 * dt);
    precise dvec3 x1 = xp + dt2 * dt2 * (a2 / 24.0LF + dt * a3 / 120.0LF);
    precise dvec3 v1 = vp + dt2 * dt * (a2 / 6.0LF + dt * a3 / 24.0LF);
    precise dvec3 a2_1 = a2 + dt * a3;
    double m = double(v0[i].w);
    precise dvec3 moved_by = x1 - xp;
    precise double dw = m * a1.x * moved_by.x + m * a1.y * moved_by.y
                        + m * a1.z * moved_by.z;
    aux[2 * k + 1] = dw;
    if (!finite3(x1) || !finite3(v1) || !finite3(a2_1) || !finite3(a3)) {
        aux[2 * k] = 0.0LF;
        atomicMin(first_bad, uint(k));
        return -1;
    }
    double crit = aarseth(eta_dt_max.x, a1, j1, a2_1, a3);
    double dt_old = nb_pow2(level - NB_CORRECT_LEVEL_OF_ONE);
    double dt_new = step_next(dt_old, crit, eta_dt_max.y);
    aux[2 * k] = crit;
    if (dt_new < NB_CORRECT_DT_FLOOR) {
        atomicMin(first_small, uint(k));
        return -1;
    }
    int e = nb_frexp_exponent(dt_new);  /* dt_new = 2^(e - 1) */
    x0[3 * i] = x1.x;
    x0[3 * i + 1] = x1.y;
    x0[3 * i + 2] = x1.z;
    t0[i] = t1;
    ds[s] = v1.x, ds[s + 1] = v1.y, ds[s + 2] = v1.z;
    ds[s + 3] = a1.x, ds[s + 4] = a1.y, ds[s + 5] = a1.z;
    ds[s + 6] = j1.x, ds[s + 7] = j1.y, ds[s + 8] = j1.z;
    ds[s + 9] = a2_1.x, ds[s + 10] = a2_1.y, ds[s + 11] = a2_1.z;
    ds[s + 12] = a3.x, ds[s + 13] = a3.y, ds[s + 14] = a3.z;
    return e - 1 + NB_CORRECT_LEVEL_OF_ONE;
}

/* The next block, from the counts after this one (nb_step_next_ends and
 * nb_step_dividing_level of block_clock.c): each level present ends its
 * steps at the next multiple of its step after t1, the earliest end is
 * the next block time, and the largest step that divides it its level.
 * Steps are powers of two: t / step is a product by nb_pow2, exact.  The header goes to
 * the host's report as it is taken (no atomic read in a serial loop: each
 * costs a round trip to the L2). */
/* The next block's force pass, as gaj_compute.c's plan_piece would run a
 * block of `size` in one piece: its groups of force_plan.x particles, the
 * j-slices that fill force_plan.y groups, and the sums of the slices; no
 * work where there is no plan (a block of everyone, whose potentials the
 * host reads, or one above a dispatch's share). */
void plan_forces(int size)
{
    int tile = force_plan.x, fill = force_plan.y, most = force_plan.z, nj = force_plan.w;
    bool run = size > 0 && size < nj && size <= most;
    int groups = (size + tile - 1) / tile;
    int tiles = max((nj + tile - 1) / tile, 1);
    int s = clamp((fill + groups - 1) / max(groups, 1), 1, tiles);
    int per_slice = (tiles + s - 1) / s;
    int slices = (tiles + per_slice - 1) / per_slice;
    plan[0] = run ? uint(groups) : 0u;
    plan[1] = uint(slices);
    plan[2] = 1u;
    plan[3] = run ? uint((size + NB_REDUCE_ITEMS - 1) / NB_REDUCE_ITEMS) : 0u;
    plan[4] = 1u;
    plan[5] = 1u;
    plan[6] = uint(size);
    plan[7] = uint(per_slice);
}

/* The earliest of ends[] that is >= 0 (-1 where none is), for every
 * invocation: a tree of pairwise minima, exact, so the order is no matter. */
double earliest_end(uint t)
{
    if (t < uint(NB_CORRECT_LEVELS))
        earliest[t] = ends[t];
    for (uint half_ = uint(NB_CORRECT_LEVELS) / 2u; half_ > 0u; half_ /= 2u) {
        memoryBarrierShared();
        barrier();
        if (t < half_) {
            double a = earliest[t], b = earliest[t + half_];
            earliest[t] = a < 0.0LF || (b >= 0.0LF && b < a) ? b : a;
        }
    }
    memoryBarrierShared();
    barrier();
    return earliest[0];
}

void plan_next_block(uint t)
{
    if (t < uint(NB_CORRECT_LEVELS)) {
        int e = int(t) - NB_CORRECT_LEVEL_OF_ONE, count = atomicAdd(level_count[t], 0);
        ends[t] = count > 0 ? (floor(t1 * nb_pow2(-e)) + 1.0LF) * nb_pow2(e) : -1.0LF;
        counts[t] = count;
        report[t] = uint(count);
    }
    memoryBarrierShared();
    barrier();
    double next = earliest_end(t);
    /* the block's level: the largest l whose step divides next (1 at least;
     * each level tested by its own invocation, not in a loop of one) */
    if (t == 0u)
        due_level = 0;
    memoryBarrierShared();
    barrier();
    if (t >= 1u && t < uint(NB_CORRECT_LEVELS)) {
        double q = next * nb_pow2(NB_CORRECT_LEVEL_OF_ONE - int(t));
        if (floor(q) == q)
            atomicMax(due_level, int(t));
    }
    memoryBarrierShared();
    barrier();
    if (t != 0u)
        return;
    int due = due_level;
    next_t = next;
    next_due = due;
    int size = 0;
    for (int l = 0; l <= due; l++)
        size += counts[l];
    plan_forces(size);
    groups_done = 0u;
    uint bad = atomicOr(first_bad, 0u), small = atomicOr(first_small, 0u);
    report[NB_CORRECT_LEVELS] = bad;
    report[NB_CORRECT_LEVELS + 1] = small;
    report[NB_CORRECT_LEVELS + 2] = uint(due);
    report[NB_CORRECT_LEVELS + 3] = 0u;
    uvec2 w = unpackDouble2x32(next);
    report[NB_CORRECT_LEVELS + 4] = w.x;
    report[NB_CORRECT_LEVELS + 5] = w.y;
    /* the failed slots' particles: the block's indices are the next
     * block's by the time the host reads */
    report[NB_CORRECT_LEVELS + 6] = bad < uint(n_block) ? uint(idx[bad]) : 0u;
    report[NB_CORRECT_LEVELS + 7] = small < uint(n_block) ? uint(idx[small]) : 0u;
}

/* Each slot corrected; the counts of the levels follow the changed
 * steps, a group's changes added at once; the last group to finish plans
 * the next block. */
void main()
{
    int k = int(gl_GlobalInvocationID.x);
    uint t = gl_LocalInvocationID.x;
    for (uint l = t; l < uint(NB_CORRECT_LEVELS); l += uint(NB_CORRECT_GROUP))
        moved[l] = 0;
    memoryBarrierShared();
    barrier();
    if (k < n_block) {
        int i = idx[k], level = int(level_of[i]);
        int now = correct_slot(k, i, level);
        if (now >= 0 && now != level) {
            atomicAdd(moved[level], -1);
            atomicAdd(moved[now], 1);
            /* its chunk's counts at levels <= l, for l from the lower of
             * the two levels up to below the higher */
            int c = (i / chunk_size) * NB_CORRECT_LEVELS, by = now > level ? -1 : 1;
            for (int l = min(level, now); l < max(level, now); l++)
                atomicAdd(chunk_levels[c + l], by);
            level_of[i] = uint(now);
        }
    }
    memoryBarrierShared();
    barrier();
    for (uint l = t; l < uint(NB_CORRECT_LEVELS); l += uint(NB_CORRECT_GROUP))
        if (moved[l] != 0)
            atomicAdd(level_count[l], moved[l]);
    memoryBarrierBuffer();
    barrier();
    if (t == 0u)
        last_group = atomicAdd(groups_done, 1u) == gl_NumWorkGroups.x - 1u;
    memoryBarrierShared();
    barrier();
    if (last_group)
        plan_next_block(t);
}
