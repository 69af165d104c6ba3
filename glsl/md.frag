/* md.frag - molecular-dynamics pair forces as a fragment program over
 * particle streams (src/md_fragment.c; the pair law is md_law.glsl).
 *
 * The stream is an RGBA32F texture, one particle (x, y, z, q) a texel, rows
 * of NB_STREAM_WIDTH, the particles sorted by type so that each type fills
 * one segment [segment[t], segment[t + 1]) of the stream.  A fragment owns
 * MD_I = 4 consecutive i-particles (seed 000's MRT kernel) and writes five
 * render targets: (F, sum of pair energies) of each i in targets 0..3, the
 * four sums of fr r^2 (the virial) in target 4.  This pass covers j in
 * [pass * slice_len, (pass + 1) * slice_len) and adds the previous pass's
 * sums read from the other ping-pong framebuffer, so no draw runs long.
 *
 * The sort makes the coefficients of a pair constant over a segment: they
 * are fetched once per segment and i, not per pair, and the inner loop
 * reads one texel per j for four pairs.  The j loop runs to n exactly, so
 * padding never enters it; i == j is excluded by index with mix(), which
 * selects and so drops the infinities of r2 = 0 (see ga.glsl); pairs at
 * r2 >= rc2 are dropped the same way.  Minimum image: d -= L round(d / L),
 * with L = 1/L = 0 on open axes. */
#define MD_I 4
#define MD_TARGETS NB_UNIT_MD_PREV_COUNT
#define OUT_WIDTH (NB_STREAM_WIDTH / MD_I)

NB_LOCATION(NB_LOC_MD_BOX) uniform vec3 box;
NB_LOCATION(NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
NB_LOCATION(NB_LOC_MD_RC2) uniform float rc2;
NB_LOCATION(NB_LOC_MD_LAW) uniform vec4 law;
NB_LOCATION(NB_LOC_MD_SIGMOID) uniform vec4 sig;
NB_LOCATION(NB_LOC_MD_TYPES) uniform int types;
NB_LOCATION(NB_LOC_MD_COUNT) uniform int n;
NB_LOCATION(NB_LOC_SLICE_LEN) uniform int slice_len;
NB_LOCATION(NB_LOC_PASS) uniform int pass;
NB_LOCATION(NB_LOC_ACCUMULATE) uniform int accumulate;
NB_BINDING(NB_UNIT_MD_POS) uniform sampler2D pos;
NB_BINDING(NB_UNIT_MD_COEFF) uniform sampler2D coeff;
NB_BINDING(NB_UNIT_MD_SEGMENT) uniform isampler2D segment;
NB_BINDING(NB_UNIT_MD_PREV) uniform sampler2D prev[MD_TARGETS];

layout(location = 0) out vec4 result[MD_TARGETS];

/* The fragment's four i-particles in separate variables (arrays indexed in
 * loops can end up in local memory), their types - 1, the coefficients of
 * (type of i, type of the current segment), and the sums. */
int first_i;
vec4 p0, p1, p2, p3;
ivec4 ti;
vec4 lj0, lj1, lj2, lj3, ion0, ion1, ion2, ion3;
vec4 f0, f1, f2, f3;            /* (F, sum of u) */
vec4 vir;                       /* sum of fr r^2, one lane per i */

int segment_start(int t)
{
    return texelFetch(segment, ivec2(t, 0), 0).x;
}

/* Type - 1 of stream slot i: the segments before it (types <= 16). */
int type_of(int i)
{
    int t = 0;
    for (int s = 1; s < types; ++s)
        t += int(i >= segment_start(s));
    return t;
}

/* One pair: fr d and u into acc, fr r^2 into v; self and pairs beyond the
 * cutoff add exact zeros. */
void pair(vec4 pi, vec4 pj, bool self, vec4 lj, vec4 ion, inout vec4 acc,
          inout float v)
{
    vec3 d = pi.xyz - pj.xyz;
    d -= box * round(d * inv_box);
    float r2 = dot(d, d);
    float fr, u;
    nb_md_pair(r2, lj, ion, pi.w * pj.w, law, sig, fr, u);
    bool drop = self || !(r2 < rc2);
    fr = mix(fr, 0.0, drop);
    u = mix(u, 0.0, drop);
    acc += vec4(fr * d, u);
    v += fr * r2;
}

/* j in [ja, jb), one type, row by row and in chunks of MD_CHUNK: each
 * chunk is summed apart and then added to the totals, which bounds float
 * rounding by MD_CHUNK plus the chunk count rather than by n (2053 open
 * Coulomb or LJ pairs without a cutoff: 0.6 of the test's bound with
 * 1024-long row sums). */
#define MD_CHUNK 64
void span(int ja, int jb)
{
    while (ja < jb) {
        int y = ja >> NB_STREAM_SHIFT;
        int row_start = y << NB_STREAM_SHIFT;
        int x = ja - row_start, x_end = min(NB_STREAM_WIDTH, jb - row_start);
        while (x < x_end) {
            int chunk_end = min(x + MD_CHUNK, x_end);
            vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);
            float v0 = 0.0, v1 = 0.0, v2 = 0.0, v3 = 0.0;
            for (; x < chunk_end; ++x) {
                vec4 pj = texelFetch(pos, ivec2(x, y), 0);
                bvec4 self = equal(ivec4(row_start + x - first_i), ivec4(0, 1, 2, 3));
                pair(p0, pj, self.x, lj0, ion0, s0, v0);
                pair(p1, pj, self.y, lj1, ion1, s1, v1);
                pair(p2, pj, self.z, lj2, ion2, s2, v2);
                pair(p3, pj, self.w, lj3, ion3, s3, v3);
            }
            f0 += s0; f1 += s1; f2 += s2; f3 += s3;
            vir += vec4(v0, v1, v2, v3);
        }
        ja = row_start + x_end;
    }
}

/* The coefficients of each i with type t, from the row of i's type. */
void load_coefficients(int t)
{
    lj0 = texelFetch(coeff, ivec2(2 * t, ti.x), 0);
    lj1 = texelFetch(coeff, ivec2(2 * t, ti.y), 0);
    lj2 = texelFetch(coeff, ivec2(2 * t, ti.z), 0);
    lj3 = texelFetch(coeff, ivec2(2 * t, ti.w), 0);
    ion0 = texelFetch(coeff, ivec2(2 * t + 1, ti.x), 0);
    ion1 = texelFetch(coeff, ivec2(2 * t + 1, ti.y), 0);
    ion2 = texelFetch(coeff, ivec2(2 * t + 1, ti.z), 0);
    ion3 = texelFetch(coeff, ivec2(2 * t + 1, ti.w), 0);
}

/* The previous pass's sum of target k (a macro: before GLSL 4.00 and ES
 * 3.20 a sampler array takes only constant indices). */
#define previous(k, frag) (accumulate != 0 ? texelFetch(prev[k], frag, 0) : vec4(0.0))

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    first_i = (frag.y * OUT_WIDTH + frag.x) * MD_I;
    ivec2 at = ivec2(first_i & (NB_STREAM_WIDTH - 1), first_i >> NB_STREAM_SHIFT);
    p0 = texelFetch(pos, at, 0);
    p1 = texelFetch(pos, at + ivec2(1, 0), 0);
    p2 = texelFetch(pos, at + ivec2(2, 0), 0);
    p3 = texelFetch(pos, at + ivec2(3, 0), 0);
    ti = ivec4(type_of(first_i), type_of(first_i + 1), type_of(first_i + 2),
               type_of(first_i + 3));
    f0 = f1 = f2 = f3 = vir = vec4(0.0);

    /* Fragments holding only padding skip the loop. */
    int j0 = min(pass * slice_len, n);
    int j1 = first_i < n ? min(j0 + slice_len, n) : j0;
    for (int t = 0; t < types; ++t) {
        int ja = max(j0, segment_start(t)), jb = min(j1, segment_start(t + 1));
        if (ja < jb) {
            load_coefficients(t);
            span(ja, jb);
        }
    }

    result[0] = f0 + previous(0, frag);
    result[1] = f1 + previous(1, frag);
    result[2] = f2 + previous(2, frag);
    result[3] = f3 + previous(3, frag);
    result[4] = vir + previous(4, frag);
}
