/* gaj.frag - the GAJ kernel as a fragment program (seed 001 Appendix A):
 * two render targets per i-particle, acceleration + potential and jerk.
 *
 * The j-set is two RGBA32F textures (x, y, z, m) and (vx, vy, vz, 0) with
 * rows of NB_STREAM_WIDTH; the i-set is the active block gathered into two
 * textures of the same layout whose position w holds the particle's index
 * in the j-set (exact in float below 2^24), -1 for padding.  One i per
 * fragment, four j per step in the lanes of a vec4 (1x4); replicas,
 * ping-pong passes and the exclusion of i == j work as in ga.frag.  With
 * NB_GAJ_DS positions and velocities are double-single: their lo parts in
 * four more textures, x_j - x_i and v_j - v_i by gaj.glsl's nb_ds_diff,
 * and every NB_DS_SPAN j summed apart and added by ds_sum.glsl's two-sum
 * (as gaj.comp). */
NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_NPAD) uniform int npad;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_len;
NB_LOCATION(NB_LOC_PASS) uniform int pass;
NB_LOCATION(NB_LOC_PASSES) uniform int passes;
NB_LOCATION(NB_LOC_ROWS) uniform int rows;
NB_LOCATION(NB_LOC_ACCUMULATE) uniform int accumulate;
/* The j-particles summed, [first, end): one rank's slice of a j-parallel
 * run; end is npad where the stream's end (padding) closes the range. */
NB_LOCATION(NB_LOC_J_RANGE) uniform ivec2 j_range;
NB_BINDING(NB_UNIT_POS) uniform sampler2D pos;
NB_BINDING(NB_UNIT_VEL) uniform sampler2D vel;
NB_BINDING(NB_UNIT_IPOS) uniform sampler2D ipos;
NB_BINDING(NB_UNIT_IVEL) uniform sampler2D ivel;
NB_BINDING(NB_UNIT_PREV) uniform sampler2D prev[2];

#if defined(NB_GAJ_DS)
NB_BINDING(NB_UNIT_JXLO) uniform sampler2D jxlo;
NB_BINDING(NB_UNIT_JVLO) uniform sampler2D jvlo;
NB_BINDING(NB_UNIT_IXLO) uniform sampler2D ixlo;
NB_BINDING(NB_UNIT_IVLO) uniform sampler2D ivlo;
#define NB_DS_SPAN 256      /* j (64 a lane) summed apart before each compensated add */
vec3 xli, vli;
vec4 cx, cy, cz, kx, ky, kz, cp;
#endif

layout(location = 0) out vec4 result[2];

vec3 xi, vi;
vec4 ax, ay, az, jx, jy, jz, ap;

ivec2 texel_of(int j)
{
    return ivec2(j & (NB_STREAM_WIDTH - 1), j >> NB_STREAM_SHIFT);
}

/* Four j-particles from texel `at` against this fragment's i; `self`
 * masks the pair i == j in the diagonal block. */
void interact(ivec2 at, bvec4 self)
{
    vec4 p0 = texelFetch(pos, at, 0), p1 = texelFetch(pos, at + ivec2(1, 0), 0);
    vec4 p2 = texelFetch(pos, at + ivec2(2, 0), 0), p3 = texelFetch(pos, at + ivec2(3, 0), 0);
    vec4 w0 = texelFetch(vel, at, 0), w1 = texelFetch(vel, at + ivec2(1, 0), 0);
    vec4 w2 = texelFetch(vel, at + ivec2(2, 0), 0), w3 = texelFetch(vel, at + ivec2(3, 0), 0);
#if defined(NB_GAJ_DS)
    vec4 l0 = texelFetch(jxlo, at, 0), l1 = texelFetch(jxlo, at + ivec2(1, 0), 0);
    vec4 l2 = texelFetch(jxlo, at + ivec2(2, 0), 0), l3 = texelFetch(jxlo, at + ivec2(3, 0), 0);
    vec4 u0 = texelFetch(jvlo, at, 0), u1 = texelFetch(jvlo, at + ivec2(1, 0), 0);
    vec4 u2 = texelFetch(jvlo, at + ivec2(2, 0), 0), u3 = texelFetch(jvlo, at + ivec2(3, 0), 0);
#define DS4(h0, h1, h2, h3, o0, o1, o2, o3, c, hi, li)                         \
    nb_ds_diff(vec4(h0.c, h1.c, h2.c, h3.c), vec4(o0.c, o1.c, o2.c, o3.c), vec4(hi.c), vec4(li.c))
    nb_gaj_accumulate(DS4(p0, p1, p2, p3, l0, l1, l2, l3, x, xi, xli),
                      DS4(p0, p1, p2, p3, l0, l1, l2, l3, y, xi, xli),
                      DS4(p0, p1, p2, p3, l0, l1, l2, l3, z, xi, xli),
                      DS4(w0, w1, w2, w3, u0, u1, u2, u3, x, vi, vli),
                      DS4(w0, w1, w2, w3, u0, u1, u2, u3, y, vi, vli),
                      DS4(w0, w1, w2, w3, u0, u1, u2, u3, z, vi, vli),
                      vec4(p0.w, p1.w, p2.w, p3.w), eps2, self, ax, ay, az, jx, jy, jz, ap);
#else
    nb_gaj_accumulate(vec4(p0.x, p1.x, p2.x, p3.x) - xi.x, vec4(p0.y, p1.y, p2.y, p3.y) - xi.y,
                      vec4(p0.z, p1.z, p2.z, p3.z) - xi.z, vec4(w0.x, w1.x, w2.x, w3.x) - vi.x,
                      vec4(w0.y, w1.y, w2.y, w3.y) - vi.y, vec4(w0.z, w1.z, w2.z, w3.z) - vi.z,
                      vec4(p0.w, p1.w, p2.w, p3.w), eps2, self, ax, ay, az, jx, jy, jz, ap);
#endif
}

/* j in [ja, jb), multiples of 4, row by row; each row summed apart. */
void accumulate_span(int ja, int jb)
{
    while (ja < jb) {
        int y = ja >> NB_STREAM_SHIFT;
        int row_start = y << NB_STREAM_SHIFT;
        int x_end = min(NB_STREAM_WIDTH, jb - row_start);
#if defined(NB_GAJ_DS)
        for (int x = ja - row_start; x < x_end;) {
            int x1 = min(x + NB_DS_SPAN, x_end);
#endif
        vec4 sx = ax, sy = ay, sz = az, tx = jx, ty = jy, tz = jz, sp = ap;
        ax = ay = az = jx = jy = jz = ap = vec4(0.0);
#if defined(NB_GAJ_DS)
        for (; x < x1; x += 4)
            interact(ivec2(x, y), bvec4(false));
        nb_ds_add(sx, cx, ax); nb_ds_add(sy, cy, ay); nb_ds_add(sz, cz, az);
        nb_ds_add(tx, kx, jx); nb_ds_add(ty, ky, jy); nb_ds_add(tz, kz, jz);
        nb_ds_add(sp, cp, ap);
        ax = sx; ay = sy; az = sz; jx = tx; jy = ty; jz = tz; ap = sp;
        }
#else
        for (int x = ja - row_start; x < x_end; x += 4)
            interact(ivec2(x, y), bvec4(false));
        ax += sx; ay += sy; az += sz; jx += tx; jy += ty; jz += tz; ap += sp;
#endif
        ja = row_start + x_end;
    }
}

float lane_sum(vec4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

/* The previous pass's sum of target k (a macro: before GLSL 4.00 and ES
 * 3.20 a sampler array takes only constant indices). */
#define previous(k, frag) (accumulate != 0 ? texelFetch(prev[k], frag, 0) : vec4(0.0))

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    int replica = frag.y / rows;
    ivec2 at_i = ivec2(frag.x, frag.y - replica * rows);
    vec4 pi = texelFetch(ipos, at_i, 0);
    xi = pi.xyz;
    vi = texelFetch(ivel, at_i, 0).xyz;
    int self = int(pi.w);
    ax = ay = az = jx = jy = jz = ap = vec4(0.0);
#if defined(NB_GAJ_DS)
    xli = texelFetch(ixlo, at_i, 0).xyz;
    vli = texelFetch(ivlo, at_i, 0).xyz;
    cx = cy = cz = kx = ky = kz = cp = vec4(0.0);
#endif

    /* The 4-blocks of the range; the ones that hold a lane outside it
     * (the range's ends) or the pair i = j (the diagonal) run the lane
     * test, in ascending order, each once; all others none. */
    int lo = j_range.x, hi = j_range.y;
    int g_lo = lo & ~3, g_hi = min((hi + 3) & ~3, npad);
    int slice = replica * passes + pass;
    int j0 = min(g_lo + slice * slice_len, g_hi);
    int j1 = min(j0 + slice_len, g_hi);
    int s0 = lo != g_lo ? g_lo : -4;
    int s1 = self >= 0 ? self & ~3 : -4;
    int s2 = hi != g_hi ? g_hi - 4 : -4;
    int t;
    if (s0 > s1) { t = s0; s0 = s1; s1 = t; }
    if (s1 > s2) { t = s1; s1 = s2; s2 = t; }
    if (s0 > s1) { t = s0; s0 = s1; s1 = t; }
    int at = j0;
    for (int k = 0; k < 3; k++) {
        int g = k == 0 ? s0 : k == 1 ? s1 : s2;
        if (g < at || g >= j1)
            continue;
        accumulate_span(at, g);
        ivec4 lane = ivec4(g) + ivec4(0, 1, 2, 3);
        interact(texel_of(g), bvec4(uvec4(lessThan(lane, ivec4(lo))) |
                                    uvec4(greaterThanEqual(lane, ivec4(hi))) |
                                    uvec4(equal(lane, ivec4(self)))));
        at = g + 4;
    }
    accumulate_span(at, j1);
#if defined(NB_GAJ_DS)
    ax += cx; ay += cy; az += cz; jx += kx; jy += ky; jz += kz; ap += cp;
#endif
    result[0] = vec4(lane_sum(ax), lane_sum(ay), lane_sum(az), lane_sum(ap)) + previous(0, frag);
    result[1] = vec4(lane_sum(jx), lane_sum(jy), lane_sum(jz), 0.0) + previous(1, frag);
}
