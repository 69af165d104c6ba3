/* gaj_precision.comp - the GAJ kernel with a selectable accumulation (seed
 * 004 Table 1, modes B-H, and M: the magnitude sums that set the scales of
 * E and F; mode A is gaj.comp).  The j-set is gaj.comp's (positions with
 * mass, velocities), the i-set the active block given by indices into it;
 * one i-particle per invocation, NB_PREC_TILE j-particles per shared-memory
 * tile, the pair i == j excluded by index.
 *
 * j-slices: work group (x, y) takes the active particles of block x and
 * the tiles y * slice_len .. (y + 1) * slice_len - 1 (slice y of
 * gl_NumWorkGroups.y, whole tiles, the last one shorter), so that a small
 * active block still fills the GPU; gaj_prec_merge.comp adds the slices'
 * states in slice order (deterministic; H's int64 merge is exact, the
 * sums bit-identical to one slice's).  The magnitude pass M runs one
 * slice (slice_len = all tiles).
 *
 * Two accumulators per i: acc_ap sums (a_x, a_y, a_z, phi) at the scale
 * prec_scale, acc_j sums (j_x, j_y, j_z, 0) at prec_scale_j (E, F, H scale
 * them apart: jerks and accelerations differ by orders of magnitude).
 * The pair terms come from gaj.glsl's law with zero sums, i.e. exactly the
 * float terms gaj.comp adds.  Mode G evaluates the law in double from
 * double positions and velocities (nb_gaj_pair_double).  Mode H passes
 * m_i m_j as the mass: its terms are m_i m_j times the pair term, computed
 * symmetrically in i and j (the products d.v and d.d are the same for
 * (i, j) and (j, i), every other step is odd in (d, dv)), so the terms of
 * (i, j) and (j, i) are exact negatives and the fixed-point sums of m_i a_i
 * and m_i jerk_i over all particles are exactly zero.
 *
 * Result (NB_PREC_NO_BUFFER: accumulate.glsl's acc_store, two uvec4 per
 * index, is not used): four uvec4 per active particle k and slice y at
 * NB_BIND_OUT, with q = 4 (y n_active + k): result[q], result[q+1] the
 * words of acc_ap and result[q+2], result[q+3] those of acc_j, as
 * acc_pack gives them (one slice: the final layout, 4k..4k+3). */
layout(local_size_x = NB_PREC_TILE) in;

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_K_FIRST) uniform int k_first;   /* a long block comes in parts */
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_len;     /* tiles per slice */
/* The j-particles summed: [first, end) of the n (all n, or one rank's
 * slice of a j-parallel run; the i-particles may lie anywhere). */
NB_LOCATION(NB_LOC_J_RANGE) uniform ivec2 j_range;
NB_LOCATION(NB_LOC_PREC_SCALE_J) uniform vec4 prec_scale_j;

layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Active { int active_index[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { uvec4 result[]; };

#if defined(NB_PRECISION_G)
#define POS dvec4
layout(std430, binding = NB_BIND_PREC_DPOS) readonly buffer Positions { dvec4 pos[]; };
layout(std430, binding = NB_BIND_PREC_DVEL) readonly buffer Velocities { dvec4 vel[]; };
NB_LOCATION(NB_LOC_PREC_EPS2D) uniform double eps2d;

#else
#define POS vec4
layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_VEL) readonly buffer Velocities { vec4 vel[]; };
#endif

shared POS tile_pos[NB_PREC_TILE];
shared POS tile_vel[NB_PREC_TILE];

/* Particle j, or a padding particle (zero mass, far away) for j outside
 * 0..n-1: its terms are exact zeros. */
POS load_pos(int j)
{
    return uint(j) < uint(n) ? pos[j] : POS(vec3(NB_PAD_COORD), NB_PAD_MASS);
}

POS load_vel(int j)
{
    return uint(j) < uint(n) ? vel[j] : POS(0.0);
}

/* j-particle j of the slice j_range, or padding past its end. */
POS load_pos_j(int j)
{
    return j < j_range.y ? load_pos(j) : POS(vec3(NB_PAD_COORD), NB_PAD_MASS);
}

POS load_vel_j(int j)
{
    return j < j_range.y ? load_vel(j) : POS(0.0);
}

/* One pair (i, j) into both accumulators. */
void add_pair(inout nb_acc acc_ap, inout nb_acc acc_j, POS pi, POS vi, POS pj, POS vj,
              bool excluded)
{
#if defined(NB_PRECISION_G)
    dvec4 ap, jk;
    nb_gaj_pair_double(pi, vi, pj, vj, eps2d, excluded, ap, jk);
    acc_add_double(acc_ap, ap);
    acc_add_double(acc_j, jk);
#else
#if defined(NB_PRECISION_H)
    float mass = pi.w * pj.w;       /* commutative: symmetric in i, j */
#else
    float mass = pj.w;
#endif
    precise float ax = 0.0, ay = 0.0, az = 0.0, jx = 0.0, jy = 0.0, jz = 0.0, tp = 0.0;
    nb_gaj_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z, vj.x - vi.x, vj.y - vi.y,
                      vj.z - vi.z, mass, eps2, excluded, ax, ay, az, jx, jy, jz, tp);
    acc_add(acc_ap, vec4(ax, ay, az, tp));
    acc_add_scaled(acc_j, vec4(jx, jy, jz, 0.0), prec_scale_j);
#endif
}

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int k = k_first + int(gl_WorkGroupID.x) * NB_PREC_TILE + lid;
    int i = k < n_active ? active_index[k] : -1;
    POS pi = load_pos(i), vi = load_vel(i);
    nb_acc acc_ap, acc_j;
    acc_init(acc_ap);
    acc_init(acc_j);
    int tiles = (j_range.y - j_range.x + NB_PREC_TILE - 1) / NB_PREC_TILE;
    int slice = int(gl_WorkGroupID.y);
    int t_end = min(tiles, (slice + 1) * slice_len);
    for (int t = slice * slice_len; t < t_end; ++t) {
        int first_j = j_range.x + t * NB_PREC_TILE;
        tile_pos[lid] = load_pos_j(first_j + lid);
        tile_vel[lid] = load_vel_j(first_j + lid);
        memoryBarrierShared();
        barrier();
        for (int jj = 0; jj < NB_PREC_TILE; ++jj)
            add_pair(acc_ap, acc_j, pi, vi, tile_pos[jj], tile_vel[jj], first_j + jj == i);
        acc_tile_end(acc_ap);       /* NB_PREC_TILE <= 512 terms per tile (H) */
        acc_tile_end(acc_j);
        barrier();
    }
    if (k < n_active) {
        int q = 4 * (slice * n_active + k);
        uvec4 w0, w1;
        acc_pack(acc_ap, w0, w1);
        result[q] = w0;
        result[q + 1] = w1;
        acc_pack(acc_j, w0, w1);
        result[q + 2] = w0;
        result[q + 3] = w1;
    }
}
