/* gaj.comp - the GAJ kernel for a block of active i-particles.
 *
 * The j-set is all n particles (positions + mass, velocities); the i-set is
 * the active block, given as indices into the j-set.  A work group owns
 * NB_TILE active particles, NB_IPT (1 or 2) to an invocation, strided by
 * NB_TILE / NB_IPT, and walks one slice of the j-set a shared-memory tile
 * of NB_TILE at a time: with two, one shared load feeds two interactions
 * (the i-particles in the lanes of a vec2, as ga.comp does).  Since active
 * indices are arbitrary, the pair i == j is excluded by comparing indices,
 * but only in a tile that holds one of the group's i-particles (a flag in
 * shared memory, the same for the whole group): elsewhere no pair pays for
 * the compare and its select (with the same sums to the bit).  Slice s
 * writes its partial sums at s * n_active + k; reduce.comp sums the
 * slices.  Each i-particle's sums are the same, in the same order, for
 * either NB_IPT.  With NB_GAJ_DS the positions and velocities are
 * double-single (the hi parts in pos and vel, the lo parts beside them in
 * jlo) and x_j - x_i, v_j - v_i come from gaj.glsl's nb_ds_diff; with
 * the differences right, the float sums would be what is left of a close
 * pair's error (its large term, then thousands of small ones added to it
 * in float), so there every NB_DS_SPAN j are summed apart and added to
 * the running sums by Knuth's two-sum (ds_sum.glsl's nb_ds_add), their
 * rounding errors kept beside them. */
#if !defined(NB_IPT)
#define NB_IPT 1
#endif
#define NB_THREADS (NB_TILE / NB_IPT)
#if NB_IPT == 1         /* a layout takes a literal, not an expression */
layout(local_size_x = NB_TILE) in;
#elif NB_TILE == 256
layout(local_size_x = 128) in;
#elif NB_TILE == 128
layout(local_size_x = 64) in;
#else
layout(local_size_x = 32) in;
#endif

layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_VEL) readonly buffer Velocities { vec4 vel[]; };
layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Active { int active_index[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer AccPot { vec4 acc_pot[]; };
layout(std430, binding = NB_BIND_OUT2) writeonly buffer Jerk { vec4 jerk[]; };
#if defined(NB_GAJ_DS)  /* lo parts: jlo[2 j] of x_j, jlo[2 j + 1] of v_j */
layout(std430, binding = NB_BIND_JLO) readonly buffer Low { vec4 jlo[]; };
#endif

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
#if defined(NB_FORCE_PLANNED)
/* The block and its slices as correct.comp planned them (nb_config.h). */
layout(std430, binding = NB_BIND_FORCE_PLAN) readonly buffer ForcePlan {
    uint plan_dispatch[6];
    int n_active, slice_tiles;
};
#else
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_tiles;
NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
#endif
NB_LOCATION(NB_LOC_K_FIRST) uniform int k_first;   /* a long block comes in parts */
/* The j-particles summed: [first, end) of the n in the buffers (all n,
 * or one rank's slice of a j-parallel run; the i-particles, given by
 * index, may lie anywhere). */
NB_LOCATION(NB_LOC_J_RANGE) uniform ivec2 j_range;

shared vec4 tile_pos[NB_TILE];
shared vec4 tile_vel[NB_TILE];
#if defined(NB_GAJ_DS)
shared vec3 tile_xlo[NB_TILE];
shared vec3 tile_vlo[NB_TILE];
#endif
shared bool tile_has_self[2];     /* tiles t & 1: holds an i of the group */

#if NB_IPT == 2
#define ILANE vec2
#define IINDEX ivec2
#define SAME(a, b) equal(a, b)
#define NONE_SKIPPED bvec2(false)
#else
#define ILANE float
#define IINDEX int
#define SAME(a, b) ((a) == (b))
#define NONE_SKIPPED false
#endif

#if defined(NB_GAJ_DS)
#define NB_DS_SPAN 64       /* j summed apart before each compensated add */
#endif

int active_of(int k)
{
    return k < n_active ? active_index[k] : -1;
}

vec4 i_pos(int i)
{
    return i >= 0 ? pos[i] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
}

vec4 i_vel(int i)
{
    return i >= 0 ? vel[i] : vec4(0.0);
}

#if defined(NB_GAJ_DS)
vec3 lo_of(int j, int part)
{
    return j >= 0 ? jlo[2 * j + part].xyz : vec3(0.0);
}
#endif

void store(int k, int slice, vec4 ap, vec4 jk)
{
    if (k < n_active) {
        int at = slice * n_active + k;
        acc_pot[at] = ap;
        jerk[at] = jk;
    }
}

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int k0 = k_first + int(gl_WorkGroupID.x) * NB_TILE + lid;
#if NB_IPT == 2
    ivec2 i = ivec2(active_of(k0), active_of(k0 + NB_THREADS));
    vec4 p0 = i_pos(i.x), p1 = i_pos(i.y), u0 = i_vel(i.x), u1 = i_vel(i.y);
    vec2 xi = vec2(p0.x, p1.x), yi = vec2(p0.y, p1.y), zi = vec2(p0.z, p1.z);
    vec2 vxi = vec2(u0.x, u1.x), vyi = vec2(u0.y, u1.y), vzi = vec2(u0.z, u1.z);
#if defined(NB_GAJ_DS)
    vec3 l0 = lo_of(i.x, 0), l1 = lo_of(i.y, 0), w0 = lo_of(i.x, 1), w1 = lo_of(i.y, 1);
    vec2 xli = vec2(l0.x, l1.x), yli = vec2(l0.y, l1.y), zli = vec2(l0.z, l1.z);
    vec2 vxli = vec2(w0.x, w1.x), vyli = vec2(w0.y, w1.y), vzli = vec2(w0.z, w1.z);
#endif
#else
    int i = active_of(k0);
    vec4 p0 = i_pos(i), u0 = i_vel(i);
    float xi = p0.x, yi = p0.y, zi = p0.z, vxi = u0.x, vyi = u0.y, vzi = u0.z;
#if defined(NB_GAJ_DS)
    vec3 l0 = lo_of(i, 0), w0 = lo_of(i, 1);
    float xli = l0.x, yli = l0.y, zli = l0.z, vxli = w0.x, vyli = w0.y, vzli = w0.z;
#endif
#endif
    ILANE ax = ILANE(0.0), ay = ILANE(0.0), az = ILANE(0.0), jx = ILANE(0.0),
          jy = ILANE(0.0), jz = ILANE(0.0), ap = ILANE(0.0);
#if defined(NB_GAJ_DS)
    ILANE cx = ILANE(0.0), cy = ILANE(0.0), cz = ILANE(0.0), kx = ILANE(0.0),
          ky = ILANE(0.0), kz = ILANE(0.0), cp = ILANE(0.0);
#define ADD_SUMS {                                                             \
            nb_ds_add(ax, cx, tx); nb_ds_add(ay, cy, ty); nb_ds_add(az, cz, tz); \
            nb_ds_add(jx, kx, ux); nb_ds_add(jy, ky, uy); nb_ds_add(jz, kz, uz); \
            nb_ds_add(ap, cp, tp);                                            \
            tx = ty = tz = ux = uy = uz = tp = ILANE(0.0); }
#define SPAN_END(jj) if (((jj) & (NB_DS_SPAN - 1)) == NB_DS_SPAN - 4) ADD_SUMS
#else
#define SPAN_END(jj)
#endif

    int first = j_range.x, end = j_range.y;
    int tiles = (end - first + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    if (lid == 0)
        tile_has_self[t0 & 1] = false;
    barrier();
    for (int t = t0; t < t1; ++t) {
        int jt = first + t * NB_TILE;
        /* the flags of tiles t and t + 1 take turns: one is set while
         * the other is read, and barriers order it all */
        if (lid == 0)
            tile_has_self[(t + 1) & 1] = false;
        if (any(lessThan(uvec2(IINDEX(i) - IINDEX(jt)), uvec2(NB_TILE))))
            tile_has_self[t & 1] = true;
        for (int q = lid; q < NB_TILE; q += NB_THREADS) {
            int j = jt + q;
            tile_pos[q] = j < end ? pos[j] : vec4(vec3(NB_PAD_COORD), NB_PAD_MASS);
            tile_vel[q] = j < end ? vel[j] : vec4(0.0);
#if defined(NB_GAJ_DS)
            tile_xlo[q] = lo_of(j < end ? j : -1, 0);
            tile_vlo[q] = lo_of(j < end ? j : -1, 1);
#endif
        }
        memoryBarrierShared();
        barrier();
        /* Each tile is summed apart, then added: rounding grows with the
         * tile width plus the tile count, not with n. */
        ILANE tx = ILANE(0.0), ty = ILANE(0.0), tz = ILANE(0.0), ux = ILANE(0.0),
              uy = ILANE(0.0), uz = ILANE(0.0), tp = ILANE(0.0);
        /* Four j a turn, in order: fewer turns of the loop, and the four
         * shared loads are in flight together. */
#if defined(NB_GAJ_DS)
#define DS(h, l, hi, li) nb_ds_diff(ILANE(h), ILANE(l), hi, li)
#define PAIR(q, skip) {                                                        \
            vec4 pj = tile_pos[q], vj = tile_vel[q];                              \
            vec3 lj = tile_xlo[q], wj = tile_vlo[q];                              \
            nb_gaj_accumulate(DS(pj.x, lj.x, xi, xli), DS(pj.y, lj.y, yi, yli),   \
                              DS(pj.z, lj.z, zi, zli), DS(vj.x, wj.x, vxi, vxli), \
                              DS(vj.y, wj.y, vyi, vyli), DS(vj.z, wj.z, vzi, vzli), \
                              ILANE(pj.w), eps2, skip, tx, ty, tz, ux, uy, uz, tp); }
#else
#define PAIR(q, skip) {                                                        \
            vec4 pj = tile_pos[q], vj = tile_vel[q];                              \
            nb_gaj_accumulate(ILANE(pj.x) - xi, ILANE(pj.y) - yi, ILANE(pj.z) - zi,  \
                              ILANE(vj.x) - vxi, ILANE(vj.y) - vyi, ILANE(vj.z) - vzi, \
                              ILANE(pj.w), eps2, skip, tx, ty, tz, ux, uy, uz, tp); }
#endif
#define CHECKED(q) PAIR(q, SAME(IINDEX(jt + (q)), i))
#define UNCHECKED(q) PAIR(q, NONE_SKIPPED)
        if (tile_has_self[t & 1]) {
            for (int jj = 0; jj < NB_TILE; jj += 4) {
                CHECKED(jj) CHECKED(jj + 1) CHECKED(jj + 2) CHECKED(jj + 3)
                SPAN_END(jj)
            }
        } else {
            for (int jj = 0; jj < NB_TILE; jj += 4) {
                UNCHECKED(jj) UNCHECKED(jj + 1) UNCHECKED(jj + 2) UNCHECKED(jj + 3)
                SPAN_END(jj)
            }
        }
#if !defined(NB_GAJ_DS)     /* ds: added at each span's end */
        ax += tx; ay += ty; az += tz; jx += ux; jy += uy; jz += uz; ap += tp;
#endif
        barrier();
    }
#if defined(NB_GAJ_DS)
    ax += cx; ay += cy; az += cz; jx += kx; jy += ky; jz += kz; ap += cp;
#endif
    int slice = int(gl_WorkGroupID.y);
#if NB_IPT == 2
    store(k0, slice, vec4(ax.x, ay.x, az.x, ap.x), vec4(jx.x, jy.x, jz.x, 0.0));
    store(k0 + NB_THREADS, slice, vec4(ax.y, ay.y, az.y, ap.y), vec4(jx.y, jy.y, jz.y, 0.0));
#else
    store(k0, slice, vec4(ax, ay, az, ap), vec4(jx, jy, jz, 0.0));
#endif
}
