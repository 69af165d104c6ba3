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

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_tiles;

shared vec4 tile[NB_TILE];

/* Set S of this invocation's i-particles: indices, positions, sums, and
 * one tile's sums.  Arrays indexed by constants only (the compilers keep
 * them in registers): GLSL ES has no token pasting to name them apart. */
#if NB_IPT == 16
#define NB_SETS 4
#elif NB_IPT >= 8
#define NB_SETS 2
#else
#define NB_SETS 1
#endif
IINDEX iset[NB_SETS];
ILANE xs[NB_SETS], ys[NB_SETS], zs[NB_SETS], ax[NB_SETS], ay[NB_SETS], az[NB_SETS],
      ap[NB_SETS];
ILANE tx[NB_SETS], ty[NB_SETS], tz[NB_SETS], tp[NB_SETS];

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
    { vec4 p0 = load(iset[S].x), p1 = load(iset[S].y), p2 = load(iset[S].z), p3 = load(iset[S].w); \
      xs[S] = vec4(p0.x, p1.x, p2.x, p3.x);                                  \
      ys[S] = vec4(p0.y, p1.y, p2.y, p3.y);                                  \
      zs[S] = vec4(p0.z, p1.z, p2.z, p3.z); }
#define STORE_SET(S, base)                                                   \
    { store(iset[S].x, base, vec4(ax[S].x, ay[S].x, az[S].x, ap[S].x));         \
      store(iset[S].y, base, vec4(ax[S].y, ay[S].y, az[S].y, ap[S].y));         \
      store(iset[S].z, base, vec4(ax[S].z, ay[S].z, az[S].z, ap[S].z));         \
      store(iset[S].w, base, vec4(ax[S].w, ay[S].w, az[S].w, ap[S].w)); }
#elif NB_LANES == 2
#define LOAD_SET(S)                                                          \
    { vec4 p0 = load(iset[S].x), p1 = load(iset[S].y);                             \
      xs[S] = vec2(p0.x, p1.x); ys[S] = vec2(p0.y, p1.y); zs[S] = vec2(p0.z, p1.z); }
#define STORE_SET(S, base)                                                   \
    { store(iset[S].x, base, vec4(ax[S].x, ay[S].x, az[S].x, ap[S].x));         \
      store(iset[S].y, base, vec4(ax[S].y, ay[S].y, az[S].y, ap[S].y)); }
#else
#define LOAD_SET(S) { vec4 p = load(iset[S]); xs[S] = p.x; ys[S] = p.y; zs[S] = p.z; }
#define STORE_SET(S, base) store(iset[S], base, vec4(ax[S], ay[S], az[S], ap[S]))
#endif

/* One tile for set S into the tile sums t*S; EXCLUDED(jj) names the pairs
 * to leave out. */
#define TILE_SUMS(S) tx[S] = ty[S] = tz[S] = tp[S] = ILANE(0.0)
#define TILE_PAIR(S, EXCLUDED)                                               \
    nb_ga_accumulate(ILANE(pj.x) - xs[S], ILANE(pj.y) - ys[S], ILANE(pj.z) - zs[S], \
                     ILANE(pj.w), eps2, EXCLUDED, tx[S], ty[S], tz[S], tp[S])
#define TILE_ADD(S) ax[S] += tx[S]; ay[S] += ty[S]; az[S] += tz[S]; ap[S] += tp[S]

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
        TILE_PAIR(0, SAME(IINDEX(first_j + jj), iset[0]));
#if NB_IPT >= 8
        TILE_PAIR(1, SAME(IINDEX(first_j + jj), iset[1]));
#endif
#if NB_IPT == 16
        TILE_PAIR(2, SAME(IINDEX(first_j + jj), iset[2]));
        TILE_PAIR(3, SAME(IINDEX(first_j + jj), iset[3]));
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
    iset[0] = IINDEX(group_first_i + lid) + LANE_OFFSETS * NB_TILE;
    LOAD_SET(0);
    ax[0] = ay[0] = az[0] = ap[0] = ILANE(0.0);
#if NB_IPT >= 8
    iset[1] = iset[0] + 4 * NB_TILE;
    LOAD_SET(1);
    ax[1] = ay[1] = az[1] = ap[1] = ILANE(0.0);
#endif
#if NB_IPT == 16
    iset[2] = iset[0] + 8 * NB_TILE;
    LOAD_SET(2);
    ax[2] = ay[2] = az[2] = ap[2] = ILANE(0.0);
    iset[3] = iset[0] + 12 * NB_TILE;
    LOAD_SET(3);
    ax[3] = ay[3] = az[3] = ap[3] = ILANE(0.0);
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
