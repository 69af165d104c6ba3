/* ga.comp - the GA kernel as a compute shader with shared-memory tiles.
 *
 * A work group of NB_TILE invocations owns NB_TILE * NB_IPT consecutive
 * i-particles (NB_IPT per invocation, strided by NB_TILE so that loads
 * coalesce) and walks one slice of the j-particles a tile at a time: each
 * invocation loads one j into shared memory, then every invocation uses the
 * whole tile for its NB_IPT i-particles, so one shared load feeds NB_IPT
 * interactions.  Slice s of `slices` writes result[s * n + i];
 * reduce.comp sums the slices when there are several (j-splitting fills
 * the GPU when N is small). */
layout(local_size_x = NB_TILE) in;

layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { vec4 result[]; };

layout(location = NB_LOC_EPS2) uniform float eps2;
layout(location = NB_LOC_N) uniform int n;
layout(location = NB_LOC_SLICE_LEN) uniform int slice_tiles;

shared vec4 tile[NB_TILE];

vec3 xi[NB_IPT];
float ax[NB_IPT], ay[NB_IPT], az[NB_IPT], ap[NB_IPT];

void accumulate_tile()
{
    for (int jj = 0; jj < NB_TILE; ++jj) {
        vec4 pj = tile[jj];
        for (int k = 0; k < NB_IPT; ++k)
            nb_ga_accumulate(pj.x - xi[k].x, pj.y - xi[k].y, pj.z - xi[k].z, pj.w,
                             eps2, false, ax[k], ay[k], az[k], ap[k]);
    }
}

/* A tile inside the group's own i-range: exclude i == j by index. */
void accumulate_tile_diagonal(int first_j, int my_first_i)
{
    for (int jj = 0; jj < NB_TILE; ++jj) {
        vec4 pj = tile[jj];
        for (int k = 0; k < NB_IPT; ++k)
            nb_ga_accumulate(pj.x - xi[k].x, pj.y - xi[k].y, pj.z - xi[k].z, pj.w,
                             eps2, first_j + jj == my_first_i + k * NB_TILE,
                             ax[k], ay[k], az[k], ap[k]);
    }
}

void main()
{
    const int group_size = NB_TILE * NB_IPT;
    int lid = int(gl_LocalInvocationID.x);
    int group_first_i = int(gl_WorkGroupID.x) * group_size;
    int my_first_i = group_first_i + lid;
    for (int k = 0; k < NB_IPT; ++k) {
        int i = my_first_i + k * NB_TILE;
        xi[k] = i < n ? pos[i].xyz : vec3(NB_PAD_COORD);
        ax[k] = ay[k] = az[k] = ap[k] = 0.0;
    }

    int tiles = (n + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    for (int t = t0; t < t1; ++t) {
        int first_j = t * NB_TILE;
        int j = first_j + lid;
        tile[lid] = j < n ? pos[j] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
        memoryBarrierShared();
        barrier();
        if (first_j >= group_first_i && first_j < group_first_i + group_size)
            accumulate_tile_diagonal(first_j, my_first_i);
        else
            accumulate_tile();
        barrier();
    }

    int out_base = int(gl_WorkGroupID.y) * n;
    for (int k = 0; k < NB_IPT; ++k) {
        int i = my_first_i + k * NB_TILE;
        if (i < n)
            result[out_base + i] = vec4(ax[k], ay[k], az[k], ap[k]);
    }
}
