/* g6_block.comp - one block step of a GRAPE-6 style j-memory:
 * the j-particles are predicted to t_i from their Taylor coefficients as
 * each tile is loaded, and the block's i-particles, given by their own
 * (host-predicted) positions and velocities, take the GAJ law of gaj.glsl
 * from every j-particle whose id differs from theirs.  One dispatch does
 * prediction and forces: no predicted j-set is stored and re-read.
 *
 * Prediction (Sapporo2's fourth-order predictor; the snap term k18 of the
 * GRAPE-6 interface is not used):
 *   x_p = x + v dt + a2 dt^2 + j6 dt^3,   v_p = v + 2 a2 dt + 3 j6 dt^2,
 * dt = t_i - t_j, in double; the pair terms are float (mode A and the
 * modes that sum float terms) or double (G).  In float, x_p and v_p are
 * split into double-single pairs (hi, lo) as are the i-particles' (on the
 * host), and x_j - x_i, v_j - v_i formed by gaj.glsl's nb_ds_diff: ~48
 * bits of |x|, so that a close pair far from the origin keeps its
 * separation; with NB_G6_POS_FLOAT (the "float" position format) both are
 * rounded to float first, and r errs by ~6e-8 |x| / r.
 *
 * Work group (x, y): NB_TILE i-particles of the block, j-slice y of
 * slice_tiles tiles.  Mode A writes NB_G6_A_VEC4S vec4 per (slice, i) to
 * NB_BIND_G6_OUT (nb_config.h: its sums as double-single pairs, the
 * nearest neighbour), and the other modes five uvec4 per (slice, i): acc_pack's words of
 * (a, phi) and of jerk, then (ds2_min bits, nearest id, overflow, 0)
 * (acc_overflow: mode H's range was left); g6_reduce.comp
 * adds the slices (acc_merge, in slice order).
 *
 * Mode A's pair terms are float, and so are its sums within a tile; each
 * tile's float sums go into double-single pairs (ds_sum.glsl), and so do
 * the lanes', the slices' and the batches' sums.  A float sum of the
 * whole j-set would round at each of its ~N / 256 tile additions by up to
 * 2^-24 of itself, and the result once more as it is stored; a pair costs
 * a two-sum per tile, not per pair term.  Group x = 0 also writes the
 * predicted j-set ((x hi, id bits), (x lo, 0)) to NB_BIND_G6_JP for the
 * neighbour search.  The nearest neighbour is by unsoftened distance, the
 * self pair (same id) excluded, as Sapporo2 does; on a tie the lower
 * address, as one scan in address order finds.
 *
 * Small blocks (mode A, and mode H through g6_lanes.glsl, whose slices
 * g6_reduce.comp adds): NB_LANES invocations share one i-particle, each
 * taking every NB_LANES-th j of a tile, and a fixed-order tree in shared
 * memory adds the lanes.  A group then holds NB_TILE / NB_LANES
 * i-particles, so that a block of one particle does not pay for a tile of
 * padding.  These kernels (NB_G6_FUSED, blocks of up to 64 in one group)
 * also add their j-slices in this dispatch (g6_fused.glsl), not in
 * g6_reduce.comp: each group
 * leaves its sums in NB_BIND_G6_PART and counts its arrival; the last of
 * each batch of NB_G6_FUSED_BATCH slices adds the batch, and the last of
 * the batches adds those (the threadfence reduction of the CUDA samples,
 * on two levels so that no group adds more than NB_G6_FUSED_BATCH sums a
 * particle), in the same order whichever group comes last: one dispatch
 * fewer, and a dispatch costs more than these sums.  Lanes also shorten
 * those sums, each lane adding every NB_LANES-th slice, so that a small
 * block's few i-particles still keep many invocations loading.
 * The fused kernels also take a block's j-updates with them
 * (NB_G6_INLINE, g6_jmemory.glsl): their addresses wait in shared memory,
 * and each predicted address looks itself up there. */
#if !defined(NB_LANES)
#define NB_LANES 1
#endif
#define NB_GROUP_I (NB_TILE / NB_LANES)
/* Mode A: a lane's float sums go into double-single pairs after every
 * LANE_RUN of its terms (a float sum rounds by up to 2^-24 of itself at
 * each addition): in runs within a tile where a tile gives a lane that
 * many (LANE_TERMS), else after RUN_TILES tiles.  A pair addition costs
 * about two pair terms' arithmetic, so not once a term. */
#define LANE_TERMS (NB_TILE / NB_LANES)
#define LANE_RUN 32
#define TILE_RUN (LANE_TERMS < LANE_RUN ? LANE_TERMS : LANE_RUN)
#define RUN_TILES (LANE_TERMS < LANE_RUN ? LANE_RUN / LANE_TERMS : 1)
#if defined(NB_IPT)     /* a layout takes a literal, not an expression */
#if NB_IPT != 2 || NB_TILE != 256 || !defined(NB_PRECISION_A)
#error "NB_IPT: two i-particles an invocation, tile 256, mode A only"
#endif
#define NB_THREADS (NB_TILE / NB_IPT)
layout(local_size_x = 128) in;
#else
layout(local_size_x = NB_TILE) in;
#endif

layout(std430, binding = NB_BIND_G6_JP) writeonly buffer JPredicted { vec4 jp[]; };
#if defined(NB_PRECISION_A)
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { vec4 result[]; };
#else
layout(std430, binding = NB_BIND_G6_OUT) writeonly buffer Out { uvec4 result[]; };
NB_LOCATION(NB_LOC_PREC_SCALE_J) uniform vec4 prec_scale_j;
#endif
#if defined(NB_PRECISION_H)
/* The first vec4 of the i-particles' own scales in the i-area, one vec4
 * each (2^k of a, phi, jerk, 0), or -1: the uniforms' alone. */
NB_LOCATION(NB_LOC_G6_SCALES_AT) uniform int scales_at;
#endif

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_tiles;
NB_LOCATION(NB_LOC_TIME) uniform double ti;

#if defined(NB_PRECISION_G)
#define POS dvec4
NB_LOCATION(NB_LOC_PREC_EPS2D) uniform double eps2d;
int id_of(dvec4 v) { return int(v.w); }
#else
#define POS vec4
int id_of(vec4 v) { return floatBitsToInt(v.w); }
#endif

shared POS tile_pos[NB_TILE];
shared POS tile_vel[NB_TILE];       /* w: the id */
#if defined(NB_G6_DS)
shared vec3 tile_lo[NB_TILE];       /* the low parts of the positions */
#endif
#if defined(NB_G6_POS_FIXED)
shared i64vec3 tile_xf[NB_TILE];    /* the positions in fixed point */
#endif
#if defined(NB_G6_DS_VEL)
shared vec3 tile_vlo[NB_TILE];      /* the low parts of the velocities */
#endif

/* What a tile keeps of j-particle q besides (x, m) and (v, id) in float:
 * the rest of its predicted position xp and velocity vp (double). */
#if defined(NB_G6_DS)
#define STORE_X(q, p, xp) tile_lo[q] = vec3(xp - dvec3(p.xyz));
#elif defined(NB_G6_POS_FIXED)
#define STORE_X(q, p, xp) tile_xf[q] = nb_fixed(xp);
#else
#define STORE_X(q, p, xp)
#endif
#if defined(NB_G6_DS_VEL)
#define STORE_LO(q, p, v, xp, vp) STORE_X(q, p, xp) tile_vlo[q] = vec3(vp - dvec3(v.xyz));
#else
#define STORE_LO(q, p, v, xp, vp) STORE_X(q, p, xp)
#endif

/* Predicted j-position p (double) as the j-set the neighbour search reads:
 * two vec4 an address, (hi, id bits), (lo, 0). */
void put_jp(int j, dvec3 p, int id)
{
    vec3 hi = vec3(p);
    jp[2 * j] = vec4(hi, intBitsToFloat(id));
    jp[2 * j + 1] = vec4(vec3(p - dvec3(hi)), 0.0);
}

#if defined(NB_G6_INLINE)
shared int update_address[NB_G6_INLINE_MAX];

/* The update of address j riding with the block (its index), or -1. */
int update_of(int j)
{
    int lo = 0, hi = n_updates;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (update_address[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n_updates && update_address[lo] == j ? lo : -1;
}
#endif

/* j-particle j predicted to ti: (x, m) and (v, id), in float the
 * positions' and velocities' high parts, and xpd, vpd the prediction in
 * double (STORE_LO keeps what the kernel needs of it); padding beyond n.
 * Group x = 0 also writes the predicted position to jp. */
void predict(int j, out POS p, out POS v, out dvec3 xpd, out dvec3 vpd)
{
    xpd = dvec3(NB_PAD_COORD);
    vpd = dvec3(0.0);
    if (j >= n) {
        p = POS(vec3(NB_PAD_COORD), NB_PAD_MASS);
#if defined(NB_PRECISION_G)
        v = dvec4(0.0, 0.0, 0.0, double(NB_G6_PAD_ID));
#else
        v = vec4(vec3(0.0), intBitsToFloat(NB_G6_PAD_ID));
#endif
        return;
    }
    dvec4 x, vm, a2, j6;
#if defined(NB_G6_INLINE)
    int u = update_of(j);
    if (u >= 0) {
        int at = updates_at + 4 * u;
        x = ipart[at];
        vm = ipart[at + 1];
        a2 = ipart[at + 2];
        j6 = ipart[at + 3];
    } else
#endif
    {
        x = jx[j];
        vm = jv[j];
        a2 = ja[j];
        j6 = jj[j];
    }
    double dt = ti - x.w;
    dvec3 xp = x.xyz + dt * (vm.xyz + dt * (a2.xyz + dt * j6.xyz));
    dvec3 vp = vm.xyz + dt * (2.0LF * a2.xyz + (3.0LF * dt) * j6.xyz);
    if (gl_WorkGroupID.x == 0u)
        put_jp(j, xp, int(a2.w));
    xpd = xp;
    vpd = vp;
#if defined(NB_PRECISION_G)
    p = dvec4(xp, vm.w);
    v = dvec4(vp, a2.w);
#else
    p = vec4(vec3(xp), float(vm.w));
    v = vec4(vec3(vp), intBitsToFloat(int(a2.w)));
#endif
}

#if defined(NB_PRECISION_A)
/* An i-particle's sums, (a, phi) and (jerk, 0), as double-single pairs. */
struct g6_sums { vec4 ap, ap_lo, jk, jk_lo; };

void sums_zero(out g6_sums s)
{
    s.ap = s.ap_lo = s.jk = s.jk_lo = vec4(0.0);
}

void sums_merge(inout g6_sums a, g6_sums b)
{
    nb_ds_merge(a.ap, a.ap_lo, b.ap, b.ap_lo);
    nb_ds_merge(a.jk, a.jk_lo, b.jk, b.jk_lo);
}

/* Mode A's NB_G6_A_VEC4S results at vec4 `at` (nb_config.h's layout). */
void store_sums(int at, g6_sums s, float ds2_min, int nearest)
{
    result[at] = s.ap;
    result[at + 1] = s.ap_lo;
    result[at + 2] = vec4(s.jk.xyz, ds2_min);
    result[at + 3] = vec4(s.jk_lo.xyz, intBitsToFloat(nearest));
}
#endif

#if defined(NB_G6_FUSED)
/* The block's sums for i-particle k from this group's (g6_fused.glsl,
 * which follows this file); false for every group but the very last. */
bool add_slices(int lid, int lane, int k, bool live, inout g6_sums s, inout vec4 nn);
#endif

#if !defined(NB_PRECISION_G)
/* i-particle k (padding past n_active): its position and velocity in
 * float (their high parts), their low parts (0 where the kernel has
 * none), its fixed-point position (NB_G6_POS_FIXED) and its id. */
void load_i(int k, out vec3 p, out vec3 v, out vec3 lo, out vec3 vlo, out XFIX xf,
            out int id)
{
    bool live = k < n_active;
    lo = vec3(0.0);
    vlo = vec3(0.0);
#if defined(NB_G6_POS_FIXED)
    dvec4 x = live ? ipart[2 * k] : dvec4(NB_PAD_COORD);
    dvec4 u = live ? ipart[2 * k + 1] : dvec4(0.0, 0.0, 0.0, double(NB_G6_PAD_ID));
    p = vec3(x.xyz);
    v = vec3(u.xyz);
    vlo = vec3(u.xyz - dvec3(v));
    xf = nb_fixed(x.xyz);
    id = int(u.w);
#else
    int at = NB_G6_I_VEC4S * k;
    vec4 ix = live ? ipart_f[at] : vec4(vec3(NB_PAD_COORD), 0.0);
    vec4 iv = live ? ipart_f[at + 1] : vec4(vec3(0.0), intBitsToFloat(NB_G6_PAD_ID));
    p = ix.xyz;
    v = iv.xyz;
    id = floatBitsToInt(iv.w);
    xf = XFIX(0);
#if defined(NB_G6_DS)
    lo = live ? ipart_f[at + 2].xyz : vec3(0.0);
    vlo = live ? ipart_f[at + 3].xyz : vec3(0.0);
#endif
#endif
}
#endif

#if defined(NB_IPT)
/* Mode A's large blocks: two i-particles an invocation, k and k +
 * NB_THREADS, in the lanes of a vec2 (as gaj.comp's NB_IPT), so that one
 * shared load feeds two interactions; each invocation predicts two j of a
 * tile.  Every i-particle's sums are those of one a thread, in the same
 * order. */
/* Whether tile t (flag t & 1) may hold a pair to skip: an i-particle of
 * the group whose id is an address of the tile, or a j-particle whose id
 * is not its address.  Else the tile's pairs compare no ids (2 of a pair's
 * ~31 instructions, with the same sums). */
shared bool tile_has_self[2];


void store_i(int k, g6_sums s, float ds2_min, int nearest)
{
    if (k < n_active)
        store_sums(NB_G6_A_VEC4S * (int(gl_WorkGroupID.y) * n_active + k), s, ds2_min,
                   nearest);
}

#if defined(NB_G6_NEAREST)
void keep_nearest(float ds2, bool self, int id_j, inout float ds2_min, inout int nearest)
{
    if (!self && ds2 < ds2_min) {
        ds2_min = ds2;
        nearest = id_j;
    }
}
#define KEEP_NEAREST(dx, dy, dz, id_j, self) {                                \
    vec2 ds2_ = dx * dx + dy * dy + dz * dz;                                  \
    keep_nearest(ds2_.x, self.x, id_j, ds2_0, nearest0);                      \
    keep_nearest(ds2_.y, self.y, id_j, ds2_1, nearest1); }
#else
#define KEEP_NEAREST(dx, dy, dz, id_j, self)
#endif

/* The separations and relative velocities of tile_pos[q] from the two
 * i-particles of main(): double-single where the kernel has it. */
#if defined(NB_G6_DS)
#define DIFF2(q, pj, vj)                                                      \
    vec3 lj = tile_lo[q];                                                     \
    vec2 dx = nb_ds_diff(vec2(pj.x), vec2(lj.x), xi, xli);                    \
    vec2 dy = nb_ds_diff(vec2(pj.y), vec2(lj.y), yi, yli);                    \
    vec2 dz = nb_ds_diff(vec2(pj.z), vec2(lj.z), zi, zli);                    \
    DIFF2_V(q, vj)
#elif defined(NB_G6_POS_FIXED)
#define DIFF2(q, pj, vj)                                                      \
    i64vec3 fj = tile_xf[q];                                                  \
    vec3 d0_ = vec3(fj - xf0) * NB_G6_FIXED_ULP, d1_ = vec3(fj - xf1) * NB_G6_FIXED_ULP; \
    vec2 dx = vec2(d0_.x, d1_.x), dy = vec2(d0_.y, d1_.y), dz = vec2(d0_.z, d1_.z); \
    DIFF2_V(q, vj)
#else
#define DIFF2(q, pj, vj)                                                      \
    vec2 dx = vec2(pj.x) - xi, dy = vec2(pj.y) - yi, dz = vec2(pj.z) - zi;    \
    DIFF2_V(q, vj)
#endif
#if defined(NB_G6_DS_VEL)
#define DIFF2_V(q, vj)                                                        \
    vec3 wj = tile_vlo[q];                                                    \
    vec2 dvx = nb_ds_diff(vec2(vj.x), vec2(wj.x), vxi, vxli);                 \
    vec2 dvy = nb_ds_diff(vec2(vj.y), vec2(wj.y), vyi, vyli);                 \
    vec2 dvz = nb_ds_diff(vec2(vj.z), vec2(wj.z), vzi, vzli);
#else
#define DIFF2_V(q, vj)                                                        \
    vec2 dvx = vec2(vj.x) - vxi, dvy = vec2(vj.y) - vyi, dvz = vec2(vj.z) - vzi;
#endif

/* j-particle q of the tile on both i-particles of main(); `checked`: the
 * pairs of the same id are skipped (else the tile has none). */
#define PAIR(q, checked) {                                                    \
    vec4 pj = tile_pos[q], vj = tile_vel[q];                                  \
    int id_j = floatBitsToInt(vj.w);                                          \
    bvec2 self = checked ? equal(ivec2(id_j), id_i) : bvec2(false);           \
    DIFF2(q, pj, vj)                                                          \
    KEEP_NEAREST(dx, dy, dz, id_j, self)                                      \
    nb_gaj_accumulate(dx, dy, dz, dvx, dvy, dvz,                              \
                      vec2(pj.w), eps2, self, sx, sy, sz, wx, wy, wz, sp); }

/* A tile's pairs are summed in runs of SUB_RUN, each run's sums then
 * added to a float sum of DS_RUN pairs, and that to the double-single
 * pairs (ds_sum.glsl).  A float sum takes a rounding of its own size at
 * each addition, and a close pair's term may be most of it, so that 255
 * additions after it cost ~16 such roundings of the whole (~1e-6 of it),
 * 15 + 15 cost ~6 (three times less; the runs' sums add 7 additions per
 * SUB_RUN pairs).  The float sum of DS_RUN pairs bounds what the larger
 * partial sums cost: the roundings of the runs' additions are those of a
 * quarter tile, not of the whole sum (a two-sum, 6 additions, a
 * component every DS_RUN pairs; every SUB_RUN pairs would cost 4 times
 * as many for little more). */
#define SUB_RUN 16
#define DS_RUN 64

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int k0 = int(gl_WorkGroupID.x) * NB_TILE + lid, k1 = k0 + NB_THREADS;
    vec3 p0, p1, u0, u1, l0, l1, w0, w1;
    XFIX xf0, xf1;
    ivec2 id_i;
    load_i(k0, p0, u0, l0, w0, xf0, id_i.x);
    load_i(k1, p1, u1, l1, w1, xf1, id_i.y);
    vec2 xi = vec2(p0.x, p1.x), yi = vec2(p0.y, p1.y), zi = vec2(p0.z, p1.z);
    vec2 vxi = vec2(u0.x, u1.x), vyi = vec2(u0.y, u1.y), vzi = vec2(u0.z, u1.z);
    vec2 xli = vec2(l0.x, l1.x), yli = vec2(l0.y, l1.y), zli = vec2(l0.z, l1.z);
    vec2 vxli = vec2(w0.x, w1.x), vyli = vec2(w0.y, w1.y), vzli = vec2(w0.z, w1.z);
    vec2 ax = vec2(0.0), ay = vec2(0.0), az = vec2(0.0), jx_ = vec2(0.0), jy_ = vec2(0.0),
         jz_ = vec2(0.0), ap = vec2(0.0);
    vec2 axl = vec2(0.0), ayl = vec2(0.0), azl = vec2(0.0), jxl = vec2(0.0), jyl = vec2(0.0),
         jzl = vec2(0.0), apl = vec2(0.0);     /* their low parts */
    float ds2_0 = 1.0e30, ds2_1 = 1.0e30;
    int nearest0 = -1, nearest1 = -1;

    int tiles = (n + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    if (lid == 0)
        tile_has_self[t0 & 1] = false;
    barrier();
    for (int t = t0; t < t1; ++t) {
        /* the flags of tiles t and t + 1 take turns: one is set while
         * the other is read, and barriers order it all */
        if (lid == 0)
            tile_has_self[(t + 1) & 1] = false;
        if (any(lessThan(uvec2(id_i - ivec2(t * NB_TILE)), uvec2(NB_TILE))))
            tile_has_self[t & 1] = true;
        for (int q = lid; q < NB_TILE; q += NB_THREADS) {
            int j = t * NB_TILE + q;
            vec4 p, v;
            dvec3 xpd, vpd;
            predict(j, p, v, xpd, vpd);
            tile_pos[q] = p;
            tile_vel[q] = v;
            STORE_LO(q, p, v, xpd, vpd)
            if (floatBitsToInt(v.w) != j)
                tile_has_self[t & 1] = true;
        }
        memoryBarrierShared();
        barrier();
        bool checked = tile_has_self[t & 1];
        for (int q1 = 0; q1 < NB_TILE; q1 += DS_RUN) {
            vec2 tx = vec2(0.0), ty = vec2(0.0), tz = vec2(0.0), ux = vec2(0.0),
                 uy = vec2(0.0), uz = vec2(0.0), tp = vec2(0.0);
            for (int q0 = q1; q0 < q1 + DS_RUN; q0 += SUB_RUN) {
                vec2 sx = vec2(0.0), sy = vec2(0.0), sz = vec2(0.0), wx = vec2(0.0),
                     wy = vec2(0.0), wz = vec2(0.0), sp = vec2(0.0);
                /* four j a turn where no pair is skipped (1% less time) */
                if (checked) {
                    for (int q = q0; q < q0 + SUB_RUN; ++q)
                        PAIR(q, true)
                } else {
                    for (int q = q0; q < q0 + SUB_RUN; q += 4) {
                        PAIR(q, false) PAIR(q + 1, false) PAIR(q + 2, false)
                        PAIR(q + 3, false)
                    }
                }
                tx += sx; ty += sy; tz += sz; ux += wx; uy += wy; uz += wz; tp += sp;
            }
            nb_ds_add(ax, axl, tx);
            nb_ds_add(ay, ayl, ty);
            nb_ds_add(az, azl, tz);
            nb_ds_add(jx_, jxl, ux);
            nb_ds_add(jy_, jyl, uy);
            nb_ds_add(jz_, jzl, uz);
            nb_ds_add(ap, apl, tp);
        }
        barrier();
    }
    store_i(k0, g6_sums(vec4(ax.x, ay.x, az.x, ap.x), vec4(axl.x, ayl.x, azl.x, apl.x),
                        vec4(jx_.x, jy_.x, jz_.x, 0.0), vec4(jxl.x, jyl.x, jzl.x, 0.0)),
            ds2_0, nearest0);
    store_i(k1, g6_sums(vec4(ax.y, ay.y, az.y, ap.y), vec4(axl.y, ayl.y, azl.y, apl.y),
                        vec4(jx_.y, jy_.y, jz_.y, 0.0), vec4(jxl.y, jyl.y, jzl.y, 0.0)),
            ds2_1, nearest1);
}
#else
void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int lane = lid % NB_LANES;
    int k = int(gl_WorkGroupID.x) * NB_GROUP_I + lid / NB_LANES;
    bool live = k < n_active;
#if defined(NB_PRECISION_G)
    dvec4 ix = live ? ipart[2 * k] : dvec4(NB_PAD_COORD);
    dvec4 iv = live ? ipart[2 * k + 1] : dvec4(0.0, 0.0, 0.0, double(NB_G6_PAD_ID));
    int id_i = int(iv.w);
    dvec4 pi = dvec4(ix.xyz, 0.0), vi = dvec4(iv.xyz, 0.0);
#else
    vec3 p3, v3, li, vli;
    XFIX xfi;
    int id_i;
    load_i(k, p3, v3, li, vli, xfi, id_i);
    vec4 pi = vec4(p3, 0.0), vi = vec4(v3, 0.0);
#endif
#if defined(NB_PRECISION_A)
    g6_sums sums;
    sums_zero(sums);
    float tx = 0.0, ty = 0.0, tz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0, tp = 0.0;
#else
    nb_acc acc_ap, acc_j;
    acc_init(acc_ap);
    acc_init(acc_j);
    vec4 scale_ap = prec_scale, scale_j = prec_scale_j;
#endif
#if defined(NB_PRECISION_H)
    /* An i-particle's scale from its own last values (g6_scales.c), never
     * coarser than the bound's: a term then takes many more bits. */
    if (scales_at >= 0 && live) {
        vec4 own = ipart_f[scales_at + k];
        scale_ap = max(scale_ap, own.xxxy);
        scale_j = max(scale_j, own.zzzz);
    }
#endif
    float ds2_min = 1.0e30;
    int nearest = -1, nearest_j = -1;

#if defined(NB_G6_INLINE)
    if (lid < n_updates)
        update_address[lid] = int(ipart[updates_at + 4 * lid + 3].w);
    memoryBarrierShared();
    barrier();
#endif
    int tiles = (n + NB_TILE - 1) / NB_TILE;
    int t0 = int(gl_WorkGroupID.y) * slice_tiles;
    int t1 = min(t0 + slice_tiles, tiles);
    for (int t = t0; t < t1; ++t) {
        int j = t * NB_TILE + lid;
        POS p, v;
        dvec3 xpd, vpd;
        predict(j, p, v, xpd, vpd);
        tile_pos[lid] = p;
        tile_vel[lid] = v;
        STORE_LO(lid, p, v, xpd, vpd)
        memoryBarrierShared();
        barrier();
#if defined(NB_PRECISION_A)
        /* A lane's terms summed in float in runs (LANE_RUN above), each
         * run's sums then added to the pairs. */
        for (int q1 = lane; q1 < NB_TILE; q1 += TILE_RUN * NB_LANES) {
        for (int q = q1; q < q1 + TILE_RUN * NB_LANES; q += NB_LANES) {
#else
        /* padding i-particles skip their pairs (a small block is one work
         * group, most of it padding: warps of padding alone then only
         * load their share of each tile) */
        for (int q = lane; live && q < NB_TILE; q += NB_LANES) {
#endif
            POS pj = tile_pos[q], vj = tile_vel[q];
            int id_j = id_of(vj);
            bool self = id_j == id_i;
#if defined(NB_PRECISION_G)
            vec3 d = vec3(pj.xyz - pi.xyz);
#elif defined(NB_G6_DS)
            vec3 d = nb_ds_diff(pj.xyz, tile_lo[q], pi.xyz, li);
#elif defined(NB_G6_POS_FIXED)
            vec3 d = vec3(tile_xf[q] - xfi) * NB_G6_FIXED_ULP;
#else
            vec3 d = pj.xyz - pi.xyz;
#endif
#if defined(NB_G6_DS_VEL)
            vec3 dv = nb_ds_diff(vj.xyz, tile_vlo[q], vi.xyz, vli);
#else
            vec3 dv = vec3(vj.xyz - vi.xyz);
#endif
#if defined(NB_G6_NEAREST)
            float ds2 = dot(d, d);
            if (!self && ds2 < ds2_min) {
                ds2_min = ds2;
                nearest = id_j;
                nearest_j = t * NB_TILE + q;
            }
#endif
#if defined(NB_PRECISION_A)
            nb_gaj_accumulate(d.x, d.y, d.z, dv.x, dv.y, dv.z, pj.w, eps2, self,
                              tx, ty, tz, ux, uy, uz, tp);
#elif defined(NB_PRECISION_G)
            dvec4 dap, djk;
            nb_gaj_pair_double(pi, vi, pj, dvec4(vj.xyz, 0.0), eps2d, self, dap, djk);
            acc_add_double(acc_ap, dap);
            acc_add_double(acc_j, djk);
#else
            precise float bx = 0.0, by = 0.0, bz = 0.0, kx = 0.0, ky = 0.0, kz = 0.0,
                          bp = 0.0;
            nb_gaj_accumulate(d.x, d.y, d.z, dv.x, dv.y, dv.z, pj.w, eps2, self,
                              bx, by, bz, kx, ky, kz, bp);
            acc_add_scaled(acc_ap, vec4(bx, by, bz, bp), scale_ap);
            acc_add_scaled(acc_j, vec4(kx, ky, kz, 0.0), scale_j);
#endif
        }
#if defined(NB_PRECISION_A)
        if (RUN_TILES == 1 || (t - t0) % RUN_TILES == RUN_TILES - 1 || t == t1 - 1) {
            nb_ds_add(sums.ap, sums.ap_lo, vec4(tx, ty, tz, tp));
            nb_ds_add(sums.jk, sums.jk_lo, vec4(ux, uy, uz, 0.0));
            tx = ty = tz = ux = uy = uz = tp = 0.0;
        }
        }
#else
        acc_tile_end(acc_ap);
        acc_tile_end(acc_j);
#endif
        barrier();
    }
#if defined(NB_G6_FUSED)
    vec4 near = vec4(ds2_min, intBitsToFloat(nearest), intBitsToFloat(nearest_j), 0.0);
    if (!add_slices(lid, lane, k, live, sums, near))
        return;
    write_updates(lid, NB_TILE);    /* every group has read the j-memory */
    if (lane != 0 || !live)
        return;
    store_sums(NB_G6_A_VEC4S * k, sums, near.x, floatBitsToInt(near.y));
#else
    bool over = false;
#if !defined(NB_PRECISION_A) && NB_LANES > 1
    merge_lanes(lid, lane, acc_ap, acc_j, ds2_min, nearest, nearest_j, over);
    if (lane != 0)
        return;
#endif
    if (!live)
        return;
#endif
#if defined(NB_PRECISION_A) && !defined(NB_G6_FUSED)
    store_sums(NB_G6_A_VEC4S * (int(gl_WorkGroupID.y) * n_active + k), sums, ds2_min, nearest);
#elif !defined(NB_PRECISION_A)
    int at = 5 * (int(gl_WorkGroupID.y) * n_active + k);
    uvec4 w0, w1;
    acc_pack(acc_ap, w0, w1);
    result[at] = w0;
    result[at + 1] = w1;
    acc_pack(acc_j, w0, w1);
    result[at + 2] = w0;
    result[at + 3] = w1;
    result[at + 4] = uvec4(floatBitsToUint(ds2_min), uint(nearest),
                           uint(over || acc_overflow(acc_ap) || acc_overflow(acc_j)), 0u);
#endif
}
#endif
