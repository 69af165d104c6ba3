/* ga_precision.frag - the GA kernel with a selectable accumulation (seed
 * 004 Table 1, modes B-H, and M: the magnitude sums that set the scales of
 * E and F) as a fragment program over particle streams; the compute twin
 * is ga_precision.comp, mode A is ga.frag.  src/fragment_precision.c
 * drives it.
 *
 * One i-particle per fragment: fragment (x, y) of a NB_STREAM_WIDTH-wide
 * target owns i = y NB_STREAM_WIDTH + x.  Its accumulator's whole state,
 * eight 32-bit words (accumulate.glsl's acc_pack), goes to TWO RGBA32UI
 * render targets, w0 and w1.  Those two hold every mode bit for bit: the
 * float pairs (hs, ls) of C, D and E as float bits, Narumi's float hs and
 * int32 li (F), and the four 64-bit sums of B and G (double) and of H
 * (int64), low word first.  No float render target could hold them.
 *
 * The j-loop runs over whole tiles of NB_PREC_TILE j, exactly as the
 * compute kernel: j = 0 .. ceil(n / tile) tile - 1, padding texels
 * (zero mass, far away) adding exact zeros, acc_tile_end after each tile
 * (Narumi's carry, H's int32 chunks into int64).  The tiles are cut into
 * `passes` ping-pong passes (tiles [pass T / P, (pass + 1) T / P)); pass p
 * > 0 reads the two textures of pass p - 1 (usampler2D, texelFetch),
 * acc_unpack, goes on, acc_pack.  The state is carried bit for bit and the
 * tile ends fall on the same j whatever P is, so every mode gives the same
 * bits for every P, and the same as ga_precision.comp where the compiler
 * rounds the pair terms alike (mode H: the same int64 sums).
 *
 * Pair terms: ga.glsl's law with zero sums, as ga_precision.comp adds
 * them (H: mass m_i m_j, symmetric in i and j); G: ga.glsl's law in
 * double from a double position stream, two RGBA32UI texels per particle
 * (packDouble2x32 of (x, y) and (z, m)). */
NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_PASS) uniform int pass;
NB_LOCATION(NB_LOC_PASSES) uniform int passes;

NB_BINDING(NB_UNIT_PREC_PREV) uniform usampler2D prev[2];

layout(location = 0) out uvec4 w0;
layout(location = 1) out uvec4 w1;

#if defined(NB_PRECISION_G)
#define POS dvec4
NB_LOCATION(NB_LOC_PREC_EPS2D) uniform double eps2d;
NB_BINDING(NB_UNIT_PREC_DPOS) uniform usampler2D dpos;

dvec4 load(int j)
{
    ivec2 at = ivec2((j & (NB_STREAM_WIDTH - 1)) << 1, j >> NB_STREAM_SHIFT);
    uvec4 xy = texelFetch(dpos, at, 0), zm = texelFetch(dpos, at + ivec2(1, 0), 0);
    return dvec4(packDouble2x32(xy.xy), packDouble2x32(xy.zw), packDouble2x32(zm.xy),
                 packDouble2x32(zm.zw));
}
#else
#define POS vec4
NB_BINDING(NB_UNIT_PREC_POS) uniform sampler2D pos;

vec4 load(int j)
{
    return texelFetch(pos, ivec2(j & (NB_STREAM_WIDTH - 1), j >> NB_STREAM_SHIFT), 0);
}
#endif

/* Adds the pair (i, j). */
void add_pair(inout nb_acc acc, POS pi, POS pj, bool excluded)
{
#if defined(NB_PRECISION_G)
    acc_add_double(acc, nb_ga_pair_double(pi, pj, eps2d, excluded));
#else
#if defined(NB_PRECISION_H)
    float mass = pi.w * pj.w;           /* commutative: symmetric in i, j */
#else
    float mass = pj.w;
#endif
    precise float tx = 0.0, ty = 0.0, tz = 0.0, tp = 0.0;
    nb_ga_accumulate(pj.x - pi.x, pj.y - pi.y, pj.z - pi.z, mass, eps2, excluded,
                     tx, ty, tz, tp);
    acc_add(acc, vec4(tx, ty, tz, tp));
#endif
}

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    int i = (frag.y << NB_STREAM_SHIFT) + frag.x;
    nb_acc acc;
    if (pass > 0)
        acc_unpack(texelFetch(prev[0], frag, 0), texelFetch(prev[1], frag, 0), acc);
    else
        acc_init(acc);
    int tiles = (n + NB_PREC_TILE - 1) / NB_PREC_TILE;
    int t0 = pass * tiles / passes, t1 = (pass + 1) * tiles / passes;
    if (i < n) {
        POS pi = load(i);
        for (int t = t0; t < t1; ++t) {
            int first_j = t * NB_PREC_TILE;
            for (int jj = 0; jj < NB_PREC_TILE; ++jj)
                add_pair(acc, pi, load(first_j + jj), first_j + jj == i);
            acc_tile_end(acc);
        }
    }
    acc_pack(acc, w0, w1);
}
