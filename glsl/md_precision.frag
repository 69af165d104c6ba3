/* md_precision.frag - the MD all-pairs force with a selectable
 * accumulation (seed 004 Table 1, modes B-H, and M: the magnitude sums
 * that set the scales of E, F and H) as a fragment program over particle
 * streams; the compute twin is md_precision.comp, mode A is md.frag.
 * src/fragment_precision.c drives it.
 *
 * One i-particle per fragment (i = y NB_STREAM_WIDTH + x), in the caller's
 * order (not md.frag's type sort: the j order is the compute kernel's).
 * Its accumulator's state, eight 32-bit words, goes to TWO RGBA32UI render
 * targets w0, w1, which hold every mode bit for bit: float pairs (C, D, E)
 * as float bits, Narumi's float + int32 (F), the 64-bit sums of B, G
 * (double) and H (int64), low word first.
 *
 * Streams: positions and charges (x, y, z, q) in float as md_precision.comp
 * gets them (not centred: the same floats, the same pair terms), the type
 * - 1 of each particle (R32I), the coefficient table (2 texels per ordered
 * type pair, row = type of i: lj, ion); for G positions and the lj
 * coefficients in double as RGBA32UI word pairs.  The j-loop is the
 * compute kernel's: j = 0 .. n - 1 in tiles of NB_PREC_TILE, acc_tile_end
 * after each tile (the last one partial); the tiles are cut into `passes`
 * ping-pong passes, tiles [pass T / P, (pass + 1) T / P), each resuming
 * the state of the previous pass from its two textures (acc_unpack).  The
 * pair terms are md_law.glsl's nb_md_term and nb_md_pair_double, the
 * functions md_precision.comp calls. */
NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_PASS) uniform int pass;
NB_LOCATION(NB_LOC_PASSES) uniform int passes;
NB_LOCATION(NB_LOC_MD_BOX) uniform vec3 box;
NB_LOCATION(NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
NB_LOCATION(NB_LOC_MD_RC2) uniform float rc2;
NB_LOCATION(NB_LOC_MD_LAW) uniform vec4 law;
NB_LOCATION(NB_LOC_MD_SIGMOID) uniform vec4 sigmoid;

NB_BINDING(NB_UNIT_PREC_PREV) uniform usampler2D prev[2];
NB_BINDING(NB_UNIT_PREC_TYPE) uniform isampler2D type;

layout(location = 0) out uvec4 w0;
layout(location = 1) out uvec4 w1;

ivec2 texel_of(int j)
{
    return ivec2(j & (NB_STREAM_WIDTH - 1), j >> NB_STREAM_SHIFT);
}

#if defined(NB_PRECISION_G)
#define POS dvec4
NB_BINDING(NB_UNIT_PREC_DPOS) uniform usampler2D dpos;
NB_BINDING(NB_UNIT_PREC_DCOEFF) uniform usampler2D dcoeff;

dvec4 words_to_double(uvec4 a, uvec4 b)
{
    return dvec4(packDouble2x32(a.xy), packDouble2x32(a.zw), packDouble2x32(b.xy),
                 packDouble2x32(b.zw));
}

dvec4 load(int j)
{
    ivec2 at = texel_of(j) * ivec2(2, 1);
    return words_to_double(texelFetch(dpos, at, 0), texelFetch(dpos, at + ivec2(1, 0), 0));
}

/* Adds the pair (i, j) in double; the lj coefficients of (type ti, type
 * tj) are texels 4 tj and 4 tj + 1 of row ti (the whole double table, lj
 * then ion, 4 texels a pair). */
void add_pair(inout nb_acc acc, dvec4 pi, int ti, dvec4 pj, int tj, bool excluded)
{
    ivec2 at = ivec2(4 * tj, ti);
    dvec4 lj = words_to_double(texelFetch(dcoeff, at, 0),
                               texelFetch(dcoeff, at + ivec2(1, 0), 0));
    dvec3 d = pi.xyz - pj.xyz;
    d -= dvec3(box) * round(d * dvec3(inv_box));
    acc_add_double(acc, nb_md_pair_double(d, excluded, lj, pi.w * pj.w, rc2, law));
}
#else
#define POS vec4
NB_BINDING(NB_UNIT_PREC_POS) uniform sampler2D pos;
NB_BINDING(NB_UNIT_PREC_COEFF) uniform sampler2D coeff;

vec4 load(int j)
{
    return texelFetch(pos, texel_of(j), 0);
}

/* Adds the pair (i, j): coefficients (lj, ion) at texels 2 tj, 2 tj + 1
 * of row ti. */
void add_pair(inout nb_acc acc, vec4 pi, int ti, vec4 pj, int tj, bool excluded)
{
    vec4 lj = texelFetch(coeff, ivec2(2 * tj, ti), 0);
    vec4 ion = texelFetch(coeff, ivec2(2 * tj + 1, ti), 0);
    vec3 d = nb_md_minimum_image(pi.xyz - pj.xyz, box, inv_box);
    acc_add(acc, nb_md_term(d, excluded, lj, ion, pi.w * pj.w, rc2, law, sigmoid));
}
#endif

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
        int ti = texelFetch(type, frag, 0).x;
        for (int t = t0; t < t1; ++t) {
            int first_j = t * NB_PREC_TILE, last_j = min(first_j + NB_PREC_TILE, n);
            for (int j = first_j; j < last_j; ++j)
                add_pair(acc, pi, ti, load(j), texelFetch(type, texel_of(j), 0).x, j == i);
            acc_tile_end(acc);
        }
    }
    acc_pack(acc, w0, w1);
}
