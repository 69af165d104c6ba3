/* ga.frag - the GA kernel as a fragment program over particle streams
 * (the Brook/Cg model of seeds 000 and 001).
 *
 * The j-stream is an RGBA32F texture, one particle (x, y, z, m) a texel,
 * rows of NB_STREAM_WIDTH.  Each fragment owns NB_I_PER_FRAG consecutive
 * i-particles (4: one per render target, seed 000's MRT kernel) and loops
 * over a slice of the j-stream NB_J_UNROLL particles at a time (4: the 1x4
 * SIMD unroll).  The output target is `replicas` copies of the i-stream
 * stacked vertically (seed 000 section 3.4): copy r sums slice
 * r * passes + pass; pass > 0 adds the previous pass read from the other
 * ping-pong target, and reduce.frag sums the copies. */
#if NB_J_UNROLL == 4
#define LANE vec4
#define LANE_B bvec4
#else
#define LANE float
#define LANE_B bool
#endif
#define OUT_WIDTH (NB_STREAM_WIDTH / NB_I_PER_FRAG)

layout(location = NB_LOC_EPS2) uniform float eps2;
layout(location = NB_LOC_NPAD) uniform int npad;
layout(location = NB_LOC_SLICE_LEN) uniform int slice_len;
layout(location = NB_LOC_PASS) uniform int pass;
layout(location = NB_LOC_PASSES) uniform int passes;
layout(location = NB_LOC_ROWS) uniform int rows;
layout(location = NB_LOC_ACCUMULATE) uniform int accumulate;
layout(binding = NB_UNIT_POS) uniform sampler2D pos;
layout(binding = NB_UNIT_PREV) uniform sampler2D prev[NB_I_PER_FRAG];

layout(location = 0) out vec4 result[NB_I_PER_FRAG];

vec3 xi[NB_I_PER_FRAG];
LANE ax[NB_I_PER_FRAG], ay[NB_I_PER_FRAG], az[NB_I_PER_FRAG], ap[NB_I_PER_FRAG];

ivec2 texel_of(int j)
{
    return ivec2(j & (NB_STREAM_WIDTH - 1), j >> NB_STREAM_SHIFT);
}

/* NB_J_UNROLL consecutive j-particles from texel `at`, one per lane. */
void load_j(ivec2 at, out LANE jx, out LANE jy, out LANE jz, out LANE jm)
{
#if NB_J_UNROLL == 4
    vec4 p0 = texelFetch(pos, at, 0);
    vec4 p1 = texelFetch(pos, at + ivec2(1, 0), 0);
    vec4 p2 = texelFetch(pos, at + ivec2(2, 0), 0);
    vec4 p3 = texelFetch(pos, at + ivec2(3, 0), 0);
    jx = vec4(p0.x, p1.x, p2.x, p3.x);
    jy = vec4(p0.y, p1.y, p2.y, p3.y);
    jz = vec4(p0.z, p1.z, p2.z, p3.z);
    jm = vec4(p0.w, p1.w, p2.w, p3.w);
#else
    vec4 p = texelFetch(pos, at, 0);
    jx = p.x; jy = p.y; jz = p.z; jm = p.w;
#endif
}

void interact_block(ivec2 at)
{
    LANE jx, jy, jz, jm;
    load_j(at, jx, jy, jz, jm);
    for (int k = 0; k < NB_I_PER_FRAG; ++k)
        nb_ga_accumulate(jx - xi[k].x, jy - xi[k].y, jz - xi[k].z, jm, eps2,
                         LANE_B(false), ax[k], ay[k], az[k], ap[k]);
}

/* The block that holds the fragment's own i-particles: pairs i == j are
 * excluded by index. */
void interact_diagonal(int first_j, int first_i)
{
    LANE jx, jy, jz, jm;
    load_j(texel_of(first_j), jx, jy, jz, jm);
    for (int k = 0; k < NB_I_PER_FRAG; ++k) {
#if NB_J_UNROLL == 4
        LANE_B self = equal(ivec4(first_j) + ivec4(0, 1, 2, 3), ivec4(first_i + k));
#else
        LANE_B self = first_j == first_i + k;
#endif
        nb_ga_accumulate(jx - xi[k].x, jy - xi[k].y, jz - xi[k].z, jm, eps2,
                         self, ax[k], ay[k], az[k], ap[k]);
    }
}

/* j in [ja, jb), both multiples of NB_J_UNROLL, row by row: the column and
 * row come from one shift and one mask per row, not per particle. */
void accumulate_span(int ja, int jb)
{
    while (ja < jb) {
        int y = ja >> NB_STREAM_SHIFT;
        int row_start = y << NB_STREAM_SHIFT;
        int x_end = min(NB_STREAM_WIDTH, jb - row_start);
        for (int x = ja - row_start; x < x_end; x += NB_J_UNROLL)
            interact_block(ivec2(x, y));
        ja = row_start + x_end;
    }
}

float lane_sum(LANE v)
{
#if NB_J_UNROLL == 4
    return (v.x + v.y) + (v.z + v.w);
#else
    return v;
#endif
}

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    int replica = frag.y / rows;
    int first_i = ((frag.y - replica * rows) * OUT_WIDTH + frag.x) * NB_I_PER_FRAG;
    for (int k = 0; k < NB_I_PER_FRAG; ++k) {
        xi[k] = texelFetch(pos, texel_of(first_i + k), 0).xyz;
        ax[k] = ay[k] = az[k] = ap[k] = LANE(0.0);
    }

    int slice = replica * passes + pass;
    int j0 = min(slice * slice_len, npad);
    int j1 = min(j0 + slice_len, npad);
    int diagonal = first_i & ~(NB_J_UNROLL - 1);
    if (diagonal >= j0 && diagonal < j1) {
        accumulate_span(j0, diagonal);
        interact_diagonal(diagonal, first_i);
        accumulate_span(diagonal + NB_J_UNROLL, j1);
    } else {
        accumulate_span(j0, j1);
    }

    for (int k = 0; k < NB_I_PER_FRAG; ++k) {
        vec4 sum = vec4(lane_sum(ax[k]), lane_sum(ay[k]), lane_sum(az[k]), lane_sum(ap[k]));
        result[k] = accumulate != 0 ? sum + texelFetch(prev[k], frag, 0) : sum;
    }
}
