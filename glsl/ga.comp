/* ga.comp - the GA kernel as a compute shader with shared-memory tiles.
 *
 * A work group of NB_TILE invocations owns NB_TILE * NB_IPT consecutive
 * i-particles and walks one slice of the j-particles a tile at a time: each
 * invocation loads one j into shared memory, then every invocation uses the
 * whole tile, so one shared load feeds NB_IPT interactions.  An invocation's
 * i-particles are strided by NB_TILE (coalesced loads) and held in the
 * lanes of a float, vec2 or vec4, two vec4 sets for NB_IPT = 8 and four
 * for NB_IPT = 16 (faster than 8 on llvmpipe, where a work group runs on
 * one CPU thread).  Each tile
 * is summed apart and then added to the running total, which bounds float
 * rounding by the tile width plus the tile count rather than by N.
 * Slice s of `slices` writes result[s * n + i]; reduce.comp sums the slices
 * when there are several (j-splitting fills the GPU when N is small). */
layout(local_size_x = NB_TILE) in;

#if NB_IPT >= 4
#define NB_LANES 4
#define ILANE vec4
#define ILANE_B bvec4
#define IINDEX ivec4
#define LANE_OFFSETS ivec4(0, 1, 2, 3)
#define SAME(a, b) equal(a, b)
#elif NB_IPT == 2
#define NB_LANES 2
#define ILANE vec2
#define ILANE_B bvec2
#define IINDEX ivec2
#define LANE_OFFSETS ivec2(0, 1)
#define SAME(a, b) equal(a, b)
#else
#define NB_LANES 1
#define ILANE float
#define ILANE_B bool
#define IINDEX int
#define LANE_OFFSETS 0
#define SAME(a, b) ((a) == (b))
#endif

layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { vec4 result[]; };

layout(location = NB_LOC_EPS2) uniform float eps2;
layout(location = NB_LOC_N) uniform int n;
layout(location = NB_LOC_SLICE_LEN) uniform int slice_tiles;

shared vec4 tile[NB_TILE];

/* Set S of this invocation's i-particles: indices, positions, sums. */
IINDEX i0, i1, i2, i3;
ILANE xs0, ys0, zs0, ax0, ay0, az0, ap0;
#if NB_IPT >= 8
ILANE xs1, ys1, zs1, ax1, ay1, az1, ap1;
#endif
#if NB_IPT == 16
ILANE xs2, ys2, zs2, ax2, ay2, az2, ap2;
ILANE xs3, ys3, zs3, ax3, ay3, az3, ap3;
#endif

vec4 load(int j)
{
    return j < n ? pos[j] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
}

void store(int i, int base, vec4 r)
{
    if (i < n)
        result[base + i] = r;
}

#if NB_LANES == 4
#define LOAD_SET(S)                                                          \
    { vec4 p0 = load(i##S.x), p1 = load(i##S.y), p2 = load(i##S.z), p3 = load(i##S.w); \
      xs##S = vec4(p0.x, p1.x, p2.x, p3.x);                                  \
      ys##S = vec4(p0.y, p1.y, p2.y, p3.y);                                  \
      zs##S = vec4(p0.z, p1.z, p2.z, p3.z); }
#define STORE_SET(S, base)                                                   \
    { store(i##S.x, base, vec4(ax##S.x, ay##S.x, az##S.x, ap##S.x));         \
      store(i##S.y, base, vec4(ax##S.y, ay##S.y, az##S.y, ap##S.y));         \
      store(i##S.z, base, vec4(ax##S.z, ay##S.z, az##S.z, ap##S.z));         \
      store(i##S.w, base, vec4(ax##S.w, ay##S.w, az##S.w, ap##S.w)); }
#elif NB_LANES == 2
#define LOAD_SET(S)                                                          \
    { vec4 p0 = load(i##S.x), p1 = load(i##S.y);                             \
      xs##S = vec2(p0.x, p1.x); ys##S = vec2(p0.y, p1.y); zs##S = vec2(p0.z, p1.z); }
#define STORE_SET(S, base)                                                   \
    { store(i##S.x, base, vec4(ax##S.x, ay##S.x, az##S.x, ap##S.x));         \
      store(i##S.y, base, vec4(ax##S.y, ay##S.y, az##S.y, ap##S.y)); }
#else
#define LOAD_SET(S) { vec4 p = load(i##S); xs##S = p.x; ys##S = p.y; zs##S = p.z; }
#define STORE_SET(S, base) store(i##S, base, vec4(ax##S, ay##S, az##S, ap##S))
#endif

/* One tile for set S into the tile sums t*S; EXCLUDED(jj) names the pairs
 * to leave out. */
#define TILE_SUMS(S) ILANE tx##S = ILANE(0.0), ty##S = tx##S, tz##S = tx##S, tp##S = tx##S
#define TILE_PAIR(S, EXCLUDED)                                               \
    nb_ga_accumulate(ILANE(pj.x) - xs##S, ILANE(pj.y) - ys##S, ILANE(pj.z) - zs##S, \
                     ILANE(pj.w), eps2, EXCLUDED, tx##S, ty##S, tz##S, tp##S)
#define TILE_ADD(S) ax##S += tx##S; ay##S += ty##S; az##S += tz##S; ap##S += tp##S

/* The main loop steps NB_JJ_STEP j-particles at a time: fewer loop
 * instructions per interaction and more independent work per iteration. */
#define NB_JJ_STEP 8

void accumulate_tile()
{
    TILE_SUMS(0);
#if NB_IPT >= 8
    TILE_SUMS(1);
#endif
#if NB_IPT == 16
    TILE_SUMS(2);
    TILE_SUMS(3);
#endif
    for (int jb = 0; jb < NB_TILE; jb += NB_JJ_STEP) {
        for (int jj = jb; jj < jb + NB_JJ_STEP; ++jj) {
            vec4 pj = tile[jj];
            TILE_PAIR(0, ILANE_B(false));
#if NB_IPT >= 8
            TILE_PAIR(1, ILANE_B(false));
#endif
#if NB_IPT == 16
            TILE_PAIR(2, ILANE_B(false));
            TILE_PAIR(3, ILANE_B(false));
#endif
        }
    }
    TILE_ADD(0);
#if NB_IPT >= 8
    TILE_ADD(1);
#endif
#if NB_IPT == 16
    TILE_ADD(2);
    TILE_ADD(3);
#endif
}

/* A tile inside the group's own i-range: exclude i == j by index. */
void accumulate_tile_diagonal(int first_j)
{
    TILE_SUMS(0);
#if NB_IPT >= 8
    TILE_SUMS(1);
#endif
#if NB_IPT == 16
    TILE_SUMS(2);
    TILE_SUMS(3);
#endif
    for (int jj = 0; jj < NB_TILE; ++jj) {
        vec4 pj = tile[jj];
        TILE_PAIR(0, SAME(IINDEX(first_j + jj), i0));
#if NB_IPT >= 8
        TILE_PAIR(1, SAME(IINDEX(first_j + jj), i1));
#endif
#if NB_IPT == 16
        TILE_PAIR(2, SAME(IINDEX(first_j + jj), i2));
        TILE_PAIR(3, SAME(IINDEX(first_j + jj), i3));
#endif
    }
    TILE_ADD(0);
#if NB_IPT >= 8
    TILE_ADD(1);
#endif
#if NB_IPT == 16
    TILE_ADD(2);
    TILE_ADD(3);
#endif
}

void main()
{
    const int group_size = NB_TILE * NB_IPT;
    int lid = int(gl_LocalInvocationID.x);
    int group_first_i = int(gl_WorkGroupID.x) * group_size;
    i0 = IINDEX(group_first_i + lid) + LANE_OFFSETS * NB_TILE;
    LOAD_SET(0);
    ax0 = ay0 = az0 = ap0 = ILANE(0.0);
#if NB_IPT >= 8
    i1 = i0 + 4 * NB_TILE;
    LOAD_SET(1);
    ax1 = ay1 = az1 = ap1 = ILANE(0.0);
#endif
#if NB_IPT == 16
    i2 = i0 + 8 * NB_TILE;
    LOAD_SET(2);
    ax2 = ay2 = az2 = ap2 = ILANE(0.0);
    i3 = i0 + 12 * NB_TILE;
    LOAD_SET(3);
    ax3 = ay3 = az3 = ap3 = ILANE(0.0);
#endif

    int tiles = (n + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    for (int t = t0; t < t1; ++t) {
        int first_j = t * NB_TILE;
        tile[lid] = load(first_j + lid);
        memoryBarrierShared();
        barrier();
        if (first_j >= group_first_i && first_j < group_first_i + group_size)
            accumulate_tile_diagonal(first_j);
        else
            accumulate_tile();
        barrier();
    }
    int base = int(gl_WorkGroupID.y) * n;
    STORE_SET(0, base);
#if NB_IPT >= 8
    STORE_SET(1, base);
#endif
#if NB_IPT == 16
    STORE_SET(2, base);
    STORE_SET(3, base);
#endif
}
