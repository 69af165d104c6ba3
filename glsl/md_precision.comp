/* md_precision.comp - the MD all-pairs force with a selectable accumulation
 * (seed 004 Table 1, modes B-H, and M: magnitude sums), for seed 004's
 * System 2 (LJ, many types, no cutoff) and seed 003's ionic crystals.
 * One i-particle per invocation, NB_PREC_TILE j-particles per shared tile;
 * the pair term (F_ij, u_ij) is md_law.glsl's, F_ij = fr (x_i - x_j): the
 * terms of (i, j) and (j, i) are exact negatives (fr and u depend on r^2
 * and the symmetric coefficient table only), so mode H's int64 sums of
 * F_i add up to exactly zero.  Mode G evaluates the law in double from
 * double positions and double coefficients; GLSL has no double exp or pow,
 * so G exists for lj, ljc-constant and ljc-linear only.  The pair terms,
 * float and double, are md_law.glsl's nb_md_term and nb_md_pair_double,
 * which md_precision.frag calls too. */
layout(local_size_x = NB_PREC_TILE) in;

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_MD_BOX) uniform vec3 box;
NB_LOCATION(NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
NB_LOCATION(NB_LOC_MD_RC2) uniform float rc2;
NB_LOCATION(NB_LOC_MD_LAW) uniform vec4 law;
NB_LOCATION(NB_LOC_MD_SIGMOID) uniform vec4 sigmoid;
NB_LOCATION(NB_LOC_MD_TYPES) uniform int ntypes;

layout(std430, binding = NB_BIND_MD_TYPE) readonly buffer Types { int type[]; };

#if defined(NB_PRECISION_G)
#define POS dvec4
#define COEFF dvec4
layout(std430, binding = NB_BIND_MD_X) readonly buffer Positions { dvec4 pos[]; };
layout(std430, binding = NB_BIND_MD_V) readonly buffer Coeffs { dvec4 coeff[]; };
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
            acc_add_double(acc, nb_md_pair_double(d, excluded, pair_coeff[c],
                                                  pi.w * tile_pos[k].w, rc2, law));
#else
            vec3 d = nb_md_minimum_image(pi.xyz - tile_pos[k].xyz, box, inv_box);
            acc_add(acc, nb_md_term(d, excluded, pair_coeff[c], pair_coeff[c + 1],
                                    pi.w * tile_pos[k].w, rc2, law, sigmoid));
#endif
        }
        acc_tile_end(acc);
        barrier();
    }
    if (i < n)
        acc_store(i, acc);
}
