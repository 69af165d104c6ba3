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
 * Accumulation modes B..H (NB_PRECISION_<M>, after accumulate.glsl; seed
 * 004 Table 1): every pair term goes into an nb_acc state, whose whole
 * state is eight 32-bit words (acc_pack), and wherever mode A keeps a
 * vec4 partial sum (force[], tri3's shared reactions and per-invocation
 * sums, tri3-gpu's partials) these modes keep those eight words; where A
 * adds two partial sums, they acc_merge (B, G in double, C-F as
 * double-float pairs, H exact in int64).  The kernels are written once for
 * A and B..H through the types and calls below:
 *   NB_TRI_POS     a position (x, y, z, type): vec4 with the type's int
 *                  bits, or in G dvec4 with the type as a double
 *   NB_TRI_PAIR    a pair term: vec4, or dvec4 in G (double pair terms)
 *   NB_TRI_ACC     a running sum: vec4, or nb_acc (nb_tri_flush at least
 *                  every NB_TRI_FLUSH additions: F's carry, H's chunks)
 *   NB_TRI_STORED  a sum as stored: vec4, or its eight words (NVIDIA's
 *                  driver 580 failed to compile tri3's H kernels with
 *                  i64vec4 arrays, "invalid operand variable" from its
 *                  assembler; arrays of words compiled)
 * force[] holds one NB_TRI_STORED per particle: A (F, half the energy
 * sum), B..H the state of (F, sum u) as words (the host finishes them as
 * md_precision.c does, halving the energy).  scratch[] holds pair terms
 * (tri1, tri2: NB_TRI_PAIR), or with NB_TRI_SCRATCH_STATES eight-word
 * states (tri3-gpu), or with NB_TRI_SCRATCH_FIXED int64 terms (tri1 in H).
 *
 * Mode H rounds every term once to int64 (accumulate.glsl's split, odd in
 * y, so the reaction of a term is its exact negation whether a kernel
 * negates the float before the split or the int64 after) and sums
 * exactly, so each version gives the square loop's int64 sums bit for
 * bit.  A stored float term must be one its own program also rounds
 * (tri2's rows pass): when tri1's pairs pass only stored its floats,
 * NVIDIA's driver 580 (SPIR-V path) computed the ionic pair energies there
 * an ulp off the other H kernels' (where the term feeds accumulate.glsl's
 * precise split), so in H tri1 rounds in its pairs pass and stores int64
 * (NB_TRI_SCRATCH_FIXED).  B..G's tri1 stores float terms (mode A's pairs
 * pass; G's double terms), summed in j order by the sum pass. */
layout(local_size_x = NB_GROUP) in;

#ifndef NB_TRI_COHERENT
#define NB_TRI_COHERENT
#endif

#if defined(NB_PRECISION_B) || defined(NB_PRECISION_C) || defined(NB_PRECISION_D) || \
    defined(NB_PRECISION_E) || defined(NB_PRECISION_F) || defined(NB_PRECISION_G) || \
    defined(NB_PRECISION_H)
#define NB_TRI_PREC
#endif

#ifdef NB_PRECISION_G
#define NB_TRI_POS dvec4
#define NB_TRI_PAIR dvec4
#define NB_TRI_COEFF dvec4
#else
#define NB_TRI_POS vec4
#define NB_TRI_PAIR vec4
#define NB_TRI_COEFF vec4
#endif
#ifdef NB_PRECISION_H
#define NB_TRI_TERM i64vec4     /* tri1's stored term */
#else
#define NB_TRI_TERM NB_TRI_PAIR
#endif
#define NB_TRI_FLUSH 128        /* accumulate.glsl's limit between tile ends (F) */
#ifdef NB_TRI_PREC
#define NB_TRI_ACC nb_acc
struct nb_tri_words { uvec4 w0, w1; };
#define NB_TRI_STORED nb_tri_words
#define NB_TRI_FORCE uvec4      /* two per particle */
#else
#define NB_TRI_ACC vec4
#define NB_TRI_STORED vec4
#define NB_TRI_FORCE vec4
#endif

/* (x, y, z, type - 1 as int bits): one 16-byte read per j; G: (x, y, z,
 * type - 1) in double. */
layout(std430, binding = NB_BIND_TRI_POS) readonly buffer TriPositions { NB_TRI_POS tpos[]; };
/* md_params.c's packing: per ordered type pair (lj, ion); G: in double. */
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer TriCoeffs { NB_TRI_COEFF coeff[]; };

/* (F, pe) per particle, or B..H its state as eight words; tri2 keeps its
 * row sums here between passes. */
layout(std430, binding = NB_BIND_MD_FORCE) NB_TRI_COHERENT buffer TriForces { NB_TRI_FORCE force[]; };
/* tri1: the N x N matrix; tri2: the packed lower triangle; tri3-gpu: one
 * slot of partial sums per (tile, partner tile). */
#if defined(NB_TRI_SCRATCH_FIXED)
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { i64vec4 scratch[]; };
#elif defined(NB_TRI_SCRATCH_STATES)
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { uvec4 scratch[]; };
#else
layout(std430, binding = NB_BIND_TRI_SCRATCH) NB_TRI_COHERENT buffer TriScratch { NB_TRI_PAIR scratch[]; };
#endif

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_MD_TYPES) uniform int ntypes;

/* What j receives from the pair whose term on i is t (Newton's third
 * law: the opposite force, the same energy). */
vec4 nb_tri_reaction(vec4 t)
{
    return vec4(-t.xyz, t.w);
}

#ifdef NB_PRECISION_G
dvec4 nb_tri_reaction(dvec4 t)
{
    return dvec4(-t.xyz, t.w);
}
#endif

#ifdef NB_PRECISION_H
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
#else
NB_TRI_TERM nb_tri_term(NB_TRI_PAIR t)
{
    return t;
}
#endif

#ifdef NB_TRI_PREC
nb_tri_words nb_tri_save(nb_acc a)
{
    uvec4 w0, w1;
    acc_pack(a, w0, w1);
    return nb_tri_words(w0, w1);
}

nb_acc nb_tri_load(nb_tri_words w)
{
    nb_acc a;
    acc_unpack(w.w0, w.w1, a);
    return a;
}

/* An empty sum (E, F: hs at LARGE). */
void nb_tri_start(out nb_acc a)
{
    acc_init(a);
}

void nb_tri_add(inout nb_acc a, NB_TRI_PAIR t)
{
#ifdef NB_PRECISION_G
    acc_add_double(a, t);
#else
    acc_add(a, t);
#endif
}

/* F's carry, H's chunks into int64: at least every NB_TRI_FLUSH additions,
 * and before a state is saved or merged. */
void nb_tri_flush(inout nb_acc a)
{
    acc_tile_end(a);
}

/* a += b, two flushed states. */
void nb_tri_merge(inout nb_acc a, nb_acc b)
{
    acc_merge(a, b);
}

/* One term into a stored sum, flushed. */
void nb_tri_add_stored(inout nb_tri_words w, NB_TRI_PAIR t)
{
    nb_acc a = nb_tri_load(w);
    nb_tri_add(a, t);
    nb_tri_flush(a);
    w = nb_tri_save(a);
}

/* force[i]: a partial state (tri2's rows) or the result, the same words. */
void nb_tri_keep(int i, nb_acc a)
{
    nb_tri_words w = nb_tri_save(a);
    force[2 * i] = w.w0;
    force[2 * i + 1] = w.w1;
}

void nb_tri_store(int i, nb_acc a)
{
    nb_tri_keep(i, a);
}

nb_acc nb_tri_fetch(int i)
{
    return nb_tri_load(nb_tri_words(force[2 * i], force[2 * i + 1]));
}

#ifdef NB_TRI_SCRATCH_STATES
nb_acc nb_tri_slot(int k)
{
    return nb_tri_load(nb_tri_words(scratch[2 * k], scratch[2 * k + 1]));
}

void nb_tri_put_slot(int k, nb_acc a)
{
    nb_tri_words w = nb_tri_save(a);
    scratch[2 * k] = w.w0;
    scratch[2 * k + 1] = w.w1;
}
#endif
#else
vec4 nb_tri_save(vec4 a)
{
    return a;
}

vec4 nb_tri_load(vec4 w)
{
    return w;
}

void nb_tri_start(out vec4 a)
{
    a = vec4(0.0);
}

void nb_tri_add(inout vec4 a, vec4 t)
{
    a += t;
}

void nb_tri_flush(inout vec4 a)
{
}

void nb_tri_merge(inout vec4 a, vec4 b)
{
    a += b;
}

void nb_tri_add_stored(inout vec4 w, vec4 t)
{
    w += t;
}

void nb_tri_keep(int i, vec4 a)
{
    force[i] = a;
}

/* The result: the force and half the energy sum. */
void nb_tri_store(int i, vec4 a)
{
    force[i] = vec4(a.xyz, 0.5 * a.w);
}

vec4 nb_tri_fetch(int i)
{
    return force[i];
}

vec4 nb_tri_slot(int k)
{
    return scratch[k];
}

void nb_tri_put_slot(int k, vec4 a)
{
    scratch[k] = a;
}
#endif

/* t added as term k (from 0) of a running sum, flushed after every
 * NB_TRI_FLUSH terms (F's carry, H's chunk sums; nothing in A). */
void nb_tri_add_nth(inout NB_TRI_ACC a, NB_TRI_PAIR t, uint k)
{
    nb_tri_add(a, t);
    if ((k & uint(NB_TRI_FLUSH - 1)) == uint(NB_TRI_FLUSH - 1))
        nb_tri_flush(a);
}

/* i's position in tri3's pair loops, from the invocation's array pi[] of
 * them; G reads it from the buffer at each use instead: NVIDIA's driver
 * 580 on the SPIR-V path gave tri3's G kernels, which kept the double
 * positions in that private array, errors of float size (2.7e-5 of F for
 * a single pair on the H200), where its GLSL path and llvmpipe were
 * exact to 1e-15.  i < n wherever the term counts. */
#ifdef NB_PRECISION_G
#define NB_TRI_PI(r, i) tpos[min(i, n - 1)]
#else
#define NB_TRI_PI(r, i) pi[r]
#endif

/* An empty stored sum. */
NB_TRI_STORED nb_tri_zero()
{
    NB_TRI_ACC a;
    nb_tri_start(a);
    return nb_tri_save(a);
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

NB_TRI_COEFF nb_tri_coeff(int k)
{
    return coeff[2 * k + NB_TRI_LAW_SLOT];
}
#else
/* One entry per ordered type pair: the law's only. */
shared NB_TRI_COEFF tri_coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];

/* Copies the table into shared memory; every invocation must call it, in
 * uniform control flow. */
void nb_tri_load_coeffs()
{
    for (int k = int(gl_LocalInvocationIndex); k < ntypes * ntypes; k += NB_GROUP)
        tri_coeff[k] = coeff[2 * k + NB_TRI_LAW_SLOT];
    barrier();
}

NB_TRI_COEFF nb_tri_coeff(int k)
{
    return tri_coeff[k];
}
#endif

/* The type of a particle (0-based). */
#ifdef NB_PRECISION_G
int nb_tri_type(dvec4 p)
{
    return int(p.w);
}
#else
int nb_tri_type(vec4 p)
{
    return floatBitsToInt(p.w);
}
#endif

/* The type row of a particle: its type times the number of types. */
int nb_tri_row(NB_TRI_POS p)
{
    return nb_tri_type(p) * ntypes;
}

/* The term of the pair (i, j), zero where !counted (selected, so the
 * infinities of r = 0 or of padding never reach the sums).  Modes B..H
 * take md_precision.comp's own term function, nb_md_term (no cutoff: rc2 =
 * FLT_MAX, as md_params.c sets it), G its double one, nb_md_pair_double,
 * so that their terms come from the same code as nb_md_prec_forces'. */
NB_TRI_PAIR nb_tri_pair(NB_TRI_POS pi, NB_TRI_POS pj, int row_i, bool counted)
{
    NB_TRI_COEFF c = nb_tri_coeff(row_i + nb_tri_type(pj));
#if defined(NB_PRECISION_G)
    dvec3 d = pi.xyz - pj.xyz;
    return nb_md_pair_double(d, !counted, c, 0.0LF, 3.402823466e38, vec4(1.0, 0.0, 0.0, 0.0));
#elif defined(NB_TRI_PREC)
    vec3 d = pi.xyz - pj.xyz;
#ifdef NB_MD_IONIC
    return nb_md_term(d, !counted, vec4(0.0), c, 0.0, 3.402823466e38, vec4(0.0), vec4(0.0));
#else
    return nb_md_term(d, !counted, c, vec4(0.0), 0.0, 3.402823466e38, vec4(0.0), vec4(0.0));
#endif
#else
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
#endif
}

#endif
