/* md_precision.comp - the MD all-pairs force with a selectable accumulation
 * (seed 004 Table 1, modes B-H, and M: magnitude sums), for seed 004's
 * System 2 (LJ, many types, no cutoff) and seed 003's ionic crystals.
 * One i-particle per invocation, NB_PREC_TILE j-particles per shared tile;
 * the pair term (F_ij, u_ij) is md_law.glsl's, F_ij = fr (x_i - x_j): the
 * terms of (i, j) and (j, i) are exact negatives (fr and u depend on r^2
 * and the symmetric coefficient table only), so mode H's int64 sums of
 * F_i add up to exactly zero.  Mode G evaluates the law in double from
 * double positions and double coefficients; GLSL has no double exp or pow,
 * so G exists for lj, ljc-constant and ljc-linear only. */
layout(local_size_x = NB_PREC_TILE) in;

layout(location = NB_LOC_N) uniform int n;
layout(location = NB_LOC_MD_BOX) uniform vec3 box;
layout(location = NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
layout(location = NB_LOC_MD_RC2) uniform float rc2;
layout(location = NB_LOC_MD_LAW) uniform vec4 law;
layout(location = NB_LOC_MD_SIGMOID) uniform vec4 sigmoid;
layout(location = NB_LOC_MD_TYPES) uniform int ntypes;

layout(std430, binding = NB_BIND_MD_TYPE) readonly buffer Types { int type[]; };

#if defined(NB_PRECISION_G)
#define POS dvec4
#define COEFF dvec4
layout(std430, binding = NB_BIND_MD_X) readonly buffer Positions { dvec4 pos[]; };
layout(std430, binding = NB_BIND_MD_V) readonly buffer Coeffs { dvec4 coeff[]; };

/* md_law.glsl's LJ and LJC (constant, linear) in double. */
dvec4 nb_md_term_double(dvec3 d, dvec4 lj, double qq)
{
    double r2 = dot(d, d);
    double rinv2 = 1.0LF / r2;
    double s6 = rinv2 * rinv2 * rinv2;
    double w12 = lj.x * s6 * s6, w6 = lj.y * s6;
    double fr = (12.0LF * w12 - 6.0LF * w6) * rinv2;
    double u = w12 - w6 - lj.z;
#if defined(NB_MD_LJC_CONSTANT)
    double uc = qq * sqrt(rinv2) / double(law.x);
    fr += uc * rinv2;
    u += uc - qq * double(law.y);
#elif defined(NB_MD_LJC_LINEAR)
    double uc = qq * rinv2 / double(law.x);
    fr += 2.0LF * uc * rinv2;
    u += uc - qq * double(law.y);
#endif
    return dvec4(fr * d, u);
}
#else
#define POS vec4
#define COEFF vec4
layout(std430, binding = NB_BIND_MD_POS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer Coeffs { vec4 coeff[]; };
#endif

shared POS tile_pos[NB_PREC_TILE];
shared int tile_type[NB_PREC_TILE];
shared COEFF pair_coeff[2 * NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int i = int(gl_GlobalInvocationID.x);
    POS pi = i < n ? pos[i] : POS(0.0);
    int row = (i < n ? type[i] : 0) * ntypes;
    for (int k = lid; k < 2 * ntypes * ntypes; k += NB_PREC_TILE)
        pair_coeff[k] = coeff[k];
    nb_acc acc;
    acc_init(acc);
    for (int base = 0; base < n; base += NB_PREC_TILE) {
        int j = base + lid;
        tile_pos[lid] = j < n ? pos[j] : POS(0.0);
        tile_type[lid] = j < n ? type[j] : 0;
        barrier();
        int count = min(NB_PREC_TILE, n - base);
        for (int k = 0; k < count; k++) {
            int c = 2 * (row + tile_type[k]);
            bool excluded = base + k == i;
#if defined(NB_PRECISION_G)
            dvec3 d = pi.xyz - tile_pos[k].xyz;
            d -= dvec3(box) * round(d * dvec3(inv_box));
            dvec4 t = nb_md_term_double(d, pair_coeff[c], pi.w * tile_pos[k].w);
            bool skip = excluded || !(dot(d, d) < double(rc2));
            acc_add_double(acc, skip ? dvec4(0.0) : t);
#else
            vec3 d = nb_md_minimum_image(pi.xyz - tile_pos[k].xyz, box, inv_box);
            float r2 = dot(d, d);
            bool skip = excluded || !(r2 < rc2);
            float fr, u;
            nb_md_pair(r2, pair_coeff[c], pair_coeff[c + 1], pi.w * tile_pos[k].w, law,
                       sigmoid, fr, u);
            precise vec3 f = mix(fr, 0.0, skip) * d;
            acc_add(acc, vec4(f, mix(u, 0.0, skip)));
#endif
        }
        acc_tile_end(acc);
        barrier();
    }
    if (i < n)
        acc_store(i, acc);
}
