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
 * dispatch reads back what other invocations wrote (tri2-wg).
 *
 * Accumulation mode H (NB_PRECISION_H, after accumulate.glsl): every pair
 * term t is rounded once to int64 fixed point at the scale prec_scale
 * (md_precision.c's, from its magnitude pass) and summed exactly, so each
 * version gives the square loop's int64 sums bit for bit.  The kernels
 * are written once for both modes through the types and calls below:
 *   NB_TRI_ACC    a running sum of float terms: vec4, or nb_acc (int32
 *                 chunk sums, nb_tri_flush at least every NB_TRI_FLUSH
 *                 additions)
 *   NB_TRI_TERM   a term or partial sum as stored: vec4, or i64vec4
 *                 (nb_tri_term rounds one float term to it)
 * The reaction of a fixed-point term is its exact negation (the split is
 * odd in y), so -F_ij is the exact negative of F_ij's int64 value,
 * whether a kernel negates the float term before the split or the int64
 * after.  force[] holds (F, sum u) as int64 in H (the host halves the
 * energy, as for md_precision.comp); scratch[] holds float terms (tri2:
 * the columns pass rounds the very float the rows pass rounded) or, with
 * NB_TRI_SCRATCH_FIXED, int64 terms (tri1) or partial sums (tri3-gpu).
 * A stored float term must be one its own program also rounds (tri2's
 * rows pass): when tri1's pairs pass only stored its floats, NVIDIA's
 * driver 580 (SPIR-V path) computed the ionic pair energies there an ulp
 * off the other H kernels' (where the term feeds accumulate.glsl's precise
 * split), so tri1 rounds in its pairs pass and stores int64.  tri3's shared reactions and its
 * per-invocation arrays of sums are NB_TRI_STORED (vec4, or the int64 as
 * eight 32-bit words: NVIDIA's driver 580 failed to compile tri3's H
 * kernels with i64vec4 arrays, "invalid operand variable" from its
 * assembler, while the kernels without int64 arrays compiled), read and
 * written through nb_tri_unpack and nb_tri_pack. */
layout(local_size_x = NB_GROUP) in;

#ifndef NB_TRI_COHERENT
#define NB_TRI_COHERENT
#endif

/* (x, y, z, type - 1 as int bits): one 16-byte read per j. */
layout(std430, binding = NB_BIND_TRI_POS) readonly buffer TriPositions { vec4 tpos[]; };
/* md_params.c's packing: per ordered type pair (lj, ion). */
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer TriCoeffs { vec4 coeff[]; };
#ifdef NB_PRECISION_H
#define NB_TRI_ACC nb_acc
#define NB_TRI_TERM i64vec4
#define NB_TRI_FLUSH 512        /* accumulate.glsl's limit between tile ends */
#else
#define NB_TRI_ACC vec4
#define NB_TRI_TERM vec4
#endif

/* (F, pe) per particle; tri2 keeps its row sums here between passes.  H:
 * (F, sum u) in int64. */
layout(std430, binding = NB_BIND_MD_FORCE) NB_TRI_COHERENT buffer TriForces { NB_TRI_TERM force[]; };
/* tri1: the N x N matrix; tri2: the packed lower triangle; tri3-gpu: one
 * slot of partial sums per (tile, partner tile). */
#ifdef NB_TRI_SCRATCH_FIXED
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { NB_TRI_TERM scratch[]; };
#else
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { vec4 scratch[]; };
#endif

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

#ifdef NB_PRECISION_H
struct nb_tri_words { uvec4 w0, w1; };
#define NB_TRI_STORED nb_tri_words

nb_tri_words nb_tri_pack(i64vec4 v)
{
    return nb_tri_words(uvec4(nb_words(v.x), nb_words(v.y)),
                        uvec4(nb_words(v.z), nb_words(v.w)));
}

i64vec4 nb_tri_unpack(nb_tri_words w)
{
    return i64vec4(nb_int64(w.w0.xy), nb_int64(w.w0.zw), nb_int64(w.w1.xy),
                   nb_int64(w.w1.zw));
}

/* H: the result is the int64 sums themselves. */
i64vec4 nb_tri_result(i64vec4 sum)
{
    return sum;
}

i64vec4 nb_tri_reaction(i64vec4 t)
{
    return i64vec4(-t.xyz, t.w);
}

/* One float term in fixed point: accumulate.glsl's split, alone. */
i64vec4 nb_tri_term(vec4 t)
{
    nb_acc a;
    acc_init(a);
    acc_add(a, t);
    acc_tile_end(a);
    return a.s;
}

/* A running sum starting at s (a stored partial sum). */
void nb_tri_start(out nb_acc a, i64vec4 s)
{
    acc_init(a);
    a.s = s;
}

void nb_tri_add(inout nb_acc a, vec4 t)
{
    acc_add(a, t);
}

/* Moves the chunk sums into the int64 sums: at least every NB_TRI_FLUSH
 * additions, and before nb_tri_total. */
void nb_tri_flush(inout nb_acc a)
{
    acc_tile_end(a);
}

i64vec4 nb_tri_total(nb_acc a)
{
    return a.s;
}
#else
#define NB_TRI_STORED vec4

vec4 nb_tri_pack(vec4 v)
{
    return v;
}

vec4 nb_tri_unpack(vec4 v)
{
    return v;
}

vec4 nb_tri_term(vec4 t)
{
    return t;
}

void nb_tri_start(out vec4 a, vec4 s)
{
    a = s;
}

void nb_tri_add(inout vec4 a, vec4 t)
{
    a += t;
}

void nb_tri_flush(inout vec4 a)
{
}

vec4 nb_tri_total(vec4 a)
{
    return a;
}
#endif

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
 * infinities of r = 0 or of padding never reach the sums).  Mode H takes
 * md_precision.comp's own term function, nb_md_term (no cutoff: rc2 =
 * FLT_MAX, as md_params.c sets it), so that its float terms, and so the
 * int64 sums, come from the same code as nb_md_prec_forces'. */
vec4 nb_tri_pair(vec4 pi, vec4 pj, int row_i, bool counted)
{
    vec4 c = nb_tri_coeff(row_i + floatBitsToInt(pj.w));
    vec3 d = pi.xyz - pj.xyz;
#ifdef NB_PRECISION_H
#ifdef NB_MD_IONIC
    return nb_md_term(d, !counted, vec4(0.0), c, 0.0, 3.402823466e38, vec4(0.0), vec4(0.0));
#else
    return nb_md_term(d, !counted, c, vec4(0.0), 0.0, 3.402823466e38, vec4(0.0), vec4(0.0));
#endif
#else
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
#endif
}

#endif
