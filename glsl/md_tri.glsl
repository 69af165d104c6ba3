/* md_tri.glsl - what the Newton's-third-law ("triangular") MD kernels
 * share (md_tri_square.comp, md_tri1.comp, md_tri2.comp, md_tri3.comp,
 * md_tri3_tiles.comp, md_tri3_reduce.comp; seed 003 section 6.4): the
 * work-group size, the buffers, and for the programs that define a law
 * (after md_law.glsl) the pair term F_ij and its coefficient table.
 *
 * Open boundaries and no cutoff only (the host refuses the rest), so the
 * pair needs neither a minimum image nor a cutoff test, and the shift of
 * the pair energy is zero.  Each pair's term is t = (F on i from j, u_ij):
 * i adds t, j adds (-t.xyz, t.w), and every result is (F, half the energy
 * sum), as nb_md_cpu_forces gives pe.
 *
 * Programs define NB_GROUP (invocations per work group), one law
 * (NB_MD_IONIC or NB_MD_LJ) where they evaluate pairs, NB_TRI_COEFF_GLOBAL
 * to read coefficients from the buffer rather than shared memory (tri3-wg,
 * whose shared memory is all force_j[]), and NB_TRI_COHERENT where one
 * dispatch reads back what other invocations wrote (tri2-wg). */
layout(local_size_x = NB_GROUP) in;

#ifndef NB_TRI_COHERENT
#define NB_TRI_COHERENT
#endif

/* (x, y, z, type - 1 as int bits): one 16-byte read per j. */
layout(std430, binding = NB_BIND_TRI_POS) readonly buffer TriPositions { vec4 tpos[]; };
/* md_params.c's packing: per ordered type pair (lj, ion). */
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer TriCoeffs { vec4 coeff[]; };
/* (F, pe) per particle; tri2 keeps its row sums here between passes. */
layout(std430, binding = NB_BIND_MD_FORCE) NB_TRI_COHERENT buffer TriForces { vec4 force[]; };
/* tri1: the N x N matrix; tri2: the packed lower triangle; tri3-gpu: one
 * slot of partial sums per (tile, partner tile). */
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { vec4 scratch[]; };

layout(location = NB_LOC_N) uniform int n;
layout(location = NB_LOC_MD_TYPES) uniform int ntypes;

/* One result: the force and half the energy sum. */
vec4 nb_tri_result(vec4 sum)
{
    return vec4(sum.xyz, 0.5 * sum.w);
}

/* What j receives from the pair whose term on i is t (Newton's third
 * law: the opposite force, the same energy). */
vec4 nb_tri_reaction(vec4 t)
{
    return vec4(-t.xyz, t.w);
}

#if defined(NB_MD_IONIC) || defined(NB_MD_LJ)

#ifdef NB_MD_IONIC
#define NB_TRI_LAW_SLOT 1       /* (cx, cy^cz, cz, -) */
#else
#define NB_TRI_LAW_SLOT 0       /* (c12, c6, shift = 0, -) */
#endif

#ifdef NB_TRI_COEFF_GLOBAL
void nb_tri_load_coeffs()
{
}

vec4 nb_tri_coeff(int k)
{
    return coeff[2 * k + NB_TRI_LAW_SLOT];
}
#else
/* One vec4 per ordered type pair: the law's only. */
shared vec4 tri_coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];

/* Copies the table into shared memory; every invocation must call it, in
 * uniform control flow. */
void nb_tri_load_coeffs()
{
    for (int k = int(gl_LocalInvocationIndex); k < ntypes * ntypes; k += NB_GROUP)
        tri_coeff[k] = coeff[2 * k + NB_TRI_LAW_SLOT];
    barrier();
}

vec4 nb_tri_coeff(int k)
{
    return tri_coeff[k];
}
#endif

/* The type row of a particle: its type times the number of types. */
int nb_tri_row(vec4 p)
{
    return floatBitsToInt(p.w) * ntypes;
}

/* The term of the pair (i, j), zero where !counted (selected, so the
 * infinities of r = 0 or of padding never reach the sums). */
vec4 nb_tri_pair(vec4 pi, vec4 pj, int row_i, bool counted)
{
    vec4 c = nb_tri_coeff(row_i + floatBitsToInt(pj.w));
    vec3 d = pi.xyz - pj.xyz;
    float r2 = dot(d, d);
    float fr, u;
#ifdef NB_MD_IONIC
    nb_md_pair(r2, vec4(0.0), c, 0.0, vec4(0.0), vec4(0.0), fr, u);
#else
    nb_md_pair(r2, c, vec4(0.0), 0.0, vec4(0.0), vec4(0.0), fr, u);
#endif
    fr = mix(fr, 0.0, !counted);
    u = mix(u, 0.0, !counted);
    return vec4(fr * d, u);
}

#endif
