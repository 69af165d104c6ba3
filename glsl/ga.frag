/* ga.frag - the GA kernel as a fragment program over particle streams
 * (the Brook/Cg model of seeds 000 and 001).
 *
 * The j-stream is an RGBA32F texture, one particle (x, y, z, m) a texel,
 * rows of NB_STREAM_WIDTH.  Each fragment owns NB_I_PER_FRAG consecutive
 * i-particles (4: one per render target, seed 000's MRT kernel) and loops
 * over a slice of the j-stream NB_J_UNROLL particles at a time (4: the 1x4
 * SIMD unroll, or four j per step facing the four i of the 4x4 kernel).  The output target is `replicas` copies of the i-stream
 * stacked vertically (seed 000 section 3.4): copy r sums slice
 * r * passes + pass; pass > 0 adds the previous pass read from the other
 * ping-pong target, and reduce.frag sums the copies. */
/* Lanes: 1x1 one pair; 1x4 four j-particles of one i (summed at the end);
 * 4x4 four i-particles facing each of four j-particles in turn. */
#if NB_I_PER_FRAG == 4 || NB_J_UNROLL == 4
#define LANE vec4
#define LANE_B bvec4
#else
#define LANE float
#define LANE_B bool
#endif
#define OUT_WIDTH (NB_STREAM_WIDTH / NB_I_PER_FRAG)

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_NPAD) uniform int npad;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_len;
NB_LOCATION(NB_LOC_PASS) uniform int pass;
NB_LOCATION(NB_LOC_PASSES) uniform int passes;
NB_LOCATION(NB_LOC_ROWS) uniform int rows;
NB_LOCATION(NB_LOC_ACCUMULATE) uniform int accumulate;
NB_BINDING(NB_UNIT_POS) uniform sampler2D pos;
NB_BINDING(NB_UNIT_PREV) uniform sampler2D prev[NB_I_PER_FRAG];

layout(location = 0) out vec4 result[NB_I_PER_FRAG];

#if NB_I_PER_FRAG == 4
vec4 xs, ys, zs;                /* the fragment's four i-particles */
#else
float xs, ys, zs;
#endif
LANE ax, ay, az, ap;

ivec2 texel_of(int j)
{
    return ivec2(j & (NB_STREAM_WIDTH - 1), j >> NB_STREAM_SHIFT);
}

void load_i(int first_i)
{
#if NB_I_PER_FRAG == 4
    ivec2 at = texel_of(first_i);
    vec4 p0 = texelFetch(pos, at, 0);
    vec4 p1 = texelFetch(pos, at + ivec2(1, 0), 0);
    vec4 p2 = texelFetch(pos, at + ivec2(2, 0), 0);
    vec4 p3 = texelFetch(pos, at + ivec2(3, 0), 0);
    xs = vec4(p0.x, p1.x, p2.x, p3.x);
    ys = vec4(p0.y, p1.y, p2.y, p3.y);
    zs = vec4(p0.z, p1.z, p2.z, p3.z);
#else
    vec4 p = texelFetch(pos, texel_of(first_i), 0);
    xs = p.x; ys = p.y; zs = p.z;
#endif
}

/* The NB_J_UNROLL j-particles from texel `at`; `first_j` is the index of
 * the first, first_i the fragment's first i.  Pairs i == j are excluded
 * only when `diagonal` (a constant at each call, so the test compiles away
 * in the main loop). */
void interact(ivec2 at, bool diagonal, int first_j, int first_i)
{
#if NB_I_PER_FRAG == 4
    for (int q = 0; q < 4; ++q) {
        vec4 p = texelFetch(pos, at + ivec2(q, 0), 0);
        bvec4 self = diagonal ? equal(ivec4(first_j + q), ivec4(first_i) + ivec4(0, 1, 2, 3))
                              : bvec4(false);
        nb_ga_accumulate(vec4(p.x) - xs, vec4(p.y) - ys, vec4(p.z) - zs, vec4(p.w),
                         eps2, self, ax, ay, az, ap);
    }
#elif NB_J_UNROLL == 4
    vec4 p0 = texelFetch(pos, at, 0);
    vec4 p1 = texelFetch(pos, at + ivec2(1, 0), 0);
    vec4 p2 = texelFetch(pos, at + ivec2(2, 0), 0);
    vec4 p3 = texelFetch(pos, at + ivec2(3, 0), 0);
    bvec4 self = diagonal ? equal(ivec4(first_j) + ivec4(0, 1, 2, 3), ivec4(first_i))
                          : bvec4(false);
    nb_ga_accumulate(vec4(p0.x, p1.x, p2.x, p3.x) - xs, vec4(p0.y, p1.y, p2.y, p3.y) - ys,
                     vec4(p0.z, p1.z, p2.z, p3.z) - zs, vec4(p0.w, p1.w, p2.w, p3.w),
                     eps2, self, ax, ay, az, ap);
#else
    vec4 p = texelFetch(pos, at, 0);
    nb_ga_accumulate(p.x - xs, p.y - ys, p.z - zs, p.w, eps2,
                     diagonal && first_j == first_i, ax, ay, az, ap);
#endif
}

/* j in [ja, jb), both multiples of NB_J_UNROLL, row by row: the column and
 * row come from one shift and one mask per row, not per particle.  Each row
 * is summed apart and then added to the total, which bounds float rounding
 * by the row length plus the row count rather than by N. */
void accumulate_span(int ja, int jb)
{
    while (ja < jb) {
        int y = ja >> NB_STREAM_SHIFT;
        int row_start = y << NB_STREAM_SHIFT;
        int x_end = min(NB_STREAM_WIDTH, jb - row_start);
        LANE sx = ax, sy = ay, sz = az, sp = ap;
        ax = ay = az = ap = LANE(0.0);
        for (int x = ja - row_start; x < x_end; x += NB_J_UNROLL)
            interact(ivec2(x, y), false, 0, 0);
        ax += sx; ay += sy; az += sz; ap += sp;
        ja = row_start + x_end;
    }
}

#if NB_I_PER_FRAG == 1
float lane_sum(LANE v)
{
#if NB_J_UNROLL == 4
    return (v.x + v.y) + (v.z + v.w);
#else
    return v;
#endif
}
#endif

/* The previous pass's sum of target k (a macro: before GLSL 4.00 and ES
 * 3.20 a sampler array takes only constant indices). */
#define previous(k, frag) (accumulate != 0 ? texelFetch(prev[k], frag, 0) : vec4(0.0))

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    int replica = frag.y / rows;
    int first_i = ((frag.y - replica * rows) * OUT_WIDTH + frag.x) * NB_I_PER_FRAG;
    load_i(first_i);
    ax = ay = az = ap = LANE(0.0);

    int slice = replica * passes + pass;
    int j0 = min(slice * slice_len, npad);
    int j1 = min(j0 + slice_len, npad);
    int diagonal = first_i & ~(NB_J_UNROLL - 1);
    if (diagonal >= j0 && diagonal < j1) {
        accumulate_span(j0, diagonal);
        interact(texel_of(diagonal), true, diagonal, first_i);
        accumulate_span(diagonal + NB_J_UNROLL, j1);
    } else {
        accumulate_span(j0, j1);
    }

#if NB_I_PER_FRAG == 4
    result[0] = vec4(ax.x, ay.x, az.x, ap.x) + previous(0, frag);
    result[1] = vec4(ax.y, ay.y, az.y, ap.y) + previous(1, frag);
    result[2] = vec4(ax.z, ay.z, az.z, ap.z) + previous(2, frag);
    result[3] = vec4(ax.w, ay.w, az.w, ap.w) + previous(3, frag);
#else
    result[0] = vec4(lane_sum(ax), lane_sum(ay), lane_sum(az), lane_sum(ap)) + previous(0, frag);
#endif
}
