/* ga_precision.comp - the GA kernel with a selectable accumulation (seed
 * 004 Table 1, modes B-H; mode A is ga.comp).  One i-particle per
 * invocation, NB_PREC_TILE j-particles per shared-memory tile, every j in
 * one pass (no j-splitting).  The pair term comes from the force law of
 * ga.glsl with zero sums, i.e. exactly the float term that ga.comp adds;
 * the accumulator of accumulate.glsl sums it.  Mode G evaluates the same
 * law in double from double positions (ga.glsl's nb_ga_pair_double, with a
 * double eps^2).  Mode H passes m_i m_j as the mass, so the terms are
 * forces m_i m_j f_ij, computed symmetrically in i and j: the terms of
 * (i, j) and (j, i) are exact negatives and their fixed-point sum over all
 * i is exactly zero.  A dispatch covers the i-particles from i_first on
 * (force_precision.c splits long evaluations into several). */
layout(local_size_x = NB_PREC_TILE) in;

NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_PREC_I_FIRST) uniform int i_first;

#if defined(NB_PRECISION_G)
#define POS dvec4
layout(std430, binding = NB_BIND_PREC_DPOS) readonly buffer Positions { dvec4 pos[]; };
NB_LOCATION(NB_LOC_PREC_EPS2D) uniform double eps2d;
#else
#define POS vec4
layout(std430, binding = NB_BIND_POS) readonly buffer Positions { vec4 pos[]; };
#endif

shared POS tile[NB_PREC_TILE];

POS load(int j)
{
    return j < n ? pos[j] : POS(vec3(NB_PAD_COORD), NB_PAD_MASS);
}

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int i = i_first + int(gl_WorkGroupID.x) * NB_PREC_TILE + lid;
    POS pi = load(i);
    nb_acc acc;
    acc_init(acc);
    int tiles = (n + NB_PREC_TILE - 1) / NB_PREC_TILE;
    for (int t = 0; t < tiles; ++t) {
        int first_j = t * NB_PREC_TILE;
        tile[lid] = load(first_j + lid);
        memoryBarrierShared();
        barrier();
        for (int jj = 0; jj < NB_PREC_TILE; ++jj) {
            POS pj = tile[jj];
            bool excluded = first_j + jj == i;
#if defined(NB_PRECISION_G)
            acc_add_double(acc, nb_ga_pair_double(pi, pj, eps2d, excluded));
#else
#if defined(NB_PRECISION_H)
            float mass = pi.w * pj.w;       /* commutative: symmetric in i, j */
#else
            float mass = pj.w;
#endif
            precise float tx = 0.0, ty = 0.0, tz = 0.0, tp = 0.0;
            nb_ga_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z, mass, eps2,
                             excluded, tx, ty, tz, tp);
            acc_add(acc, vec4(tx, ty, tz, tp));
#endif
        }
        acc_tile_end(acc);
        barrier();
    }
    if (i < n)
        acc_store(i, acc);
}
