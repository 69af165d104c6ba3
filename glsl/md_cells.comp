/* md_cells.comp - building the cell lists (seed 002 Question 4, eqs. 15-16)
 * in five passes, chosen by the program's NB_MD_PASS_*:
 *   HASH    cell of each particle (clamped into the grid along open axes),
 *           particles per cell counted with atomics;
 *   SCAN    exclusive prefix sum of the counts: each cell's first slot
 *           (one work group; each invocation sums a run of cells);
 *   PLACE   each particle takes a slot in its cell (atomic, in any order);
 *   SORT    each cell sorts its slots by particle index, so that the
 *           order, and with it every float sum, is reproducible;
 *   GATHER  positions and types copied into the sorted order. */
layout(local_size_x = NB_GROUP) in;

layout(std430, binding = NB_BIND_MD_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_MD_TYPE) readonly buffer Types { int type[]; };
layout(std430, binding = NB_BIND_MD_CELL_OF) buffer CellOf { int cell_of[]; };
layout(std430, binding = NB_BIND_MD_CELL_COUNT) buffer CellCount { int cell_count[]; };
layout(std430, binding = NB_BIND_MD_CELL_START) buffer CellStart { int cell_start[]; };
layout(std430, binding = NB_BIND_MD_SCAN) buffer CellFill { int cell_fill[]; };
layout(std430, binding = NB_BIND_MD_PERM) buffer Permutation { int perm[]; };
layout(std430, binding = NB_BIND_MD_SPOS) writeonly buffer SortedPositions { vec4 spos[]; };
layout(std430, binding = NB_BIND_MD_STYPE) writeonly buffer SortedTypes { int stype[]; };

NB_LOCATION(NB_LOC_MD_COUNT) uniform int count;      /* particles or cells */
NB_LOCATION(NB_LOC_MD_LO) uniform vec3 lo;
NB_LOCATION(NB_LOC_MD_CELL_INV) uniform vec3 cell_inv;
NB_LOCATION(NB_LOC_MD_CELLS) uniform ivec3 cells;

#if defined(NB_MD_PASS_SCAN)
shared int partial[NB_GROUP];
#endif

void main()
{
    int k = int(gl_GlobalInvocationID.x);
#if defined(NB_MD_PASS_HASH)
    if (k >= count)
        return;
    ivec3 c = clamp(ivec3(floor((pos[k].xyz - lo) * cell_inv)), ivec3(0), cells - 1);
    int cell = (c.z * cells.y + c.y) * cells.x + c.x;
    cell_of[k] = cell;
    atomicAdd(cell_count[cell], 1);
#elif defined(NB_MD_PASS_SCAN)
    int t = int(gl_LocalInvocationIndex);
    int run = (count + NB_GROUP - 1) / NB_GROUP;
    int begin = min(t * run, count), end = min(begin + run, count);
    int sum = 0;
    for (int c = begin; c < end; c++)
        sum += cell_count[c];
    partial[t] = sum;
    barrier();
    for (int offset = 1; offset < NB_GROUP; offset *= 2) {     /* Hillis-Steele */
        int add = t >= offset ? partial[t - offset] : 0;
        barrier();
        partial[t] += add;
        barrier();
    }
    int start = partial[t] - sum;
    for (int c = begin; c < end; c++) {
        cell_start[c] = start;
        start += cell_count[c];
    }
#elif defined(NB_MD_PASS_PLACE)
    if (k >= count)
        return;
    int cell = cell_of[k];
    perm[cell_start[cell] + atomicAdd(cell_fill[cell], 1)] = k;
#elif defined(NB_MD_PASS_SORT)
    if (k >= count)
        return;
    int begin = cell_start[k], end = begin + cell_count[k];
    for (int a = begin + 1; a < end; a++) {          /* insertion sort: cells are small */
        int value = perm[a], b = a - 1;
        while (b >= begin && perm[b] > value) {
            perm[b + 1] = perm[b];
            b--;
        }
        perm[b + 1] = value;
    }
#elif defined(NB_MD_PASS_GATHER)
    if (k >= count)
        return;
    int i = perm[k];
    spos[k] = pos[i];
    stype[k] = type[i];
#else
#error "md_cells.comp: no pass defined"
#endif
}
