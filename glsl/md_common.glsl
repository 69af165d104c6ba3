/* md_common.glsl - the buffers and uniforms the compute MD force kernels
 * share (md_pairs.comp, md_cellforce.comp), and the pair-coefficient table
 * held in shared memory: two vec4 per ordered type pair (lj, ion), at most
 * NB_MD_MAX_TYPES^2 pairs, read once per work group instead of once per
 * pair from the storage buffer. */
layout(std430, binding = NB_BIND_MD_TYPE) readonly buffer Types { int type[]; };
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer Coeffs { vec4 coeff[]; };
layout(std430, binding = NB_BIND_MD_FORCE) writeonly buffer Forces { vec4 force[]; };
layout(std430, binding = NB_BIND_MD_VIRIAL) writeonly buffer Virials { float virial[]; };

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_MD_BOX) uniform vec3 box;
NB_LOCATION(NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
NB_LOCATION(NB_LOC_MD_RC2) uniform float rc2;
NB_LOCATION(NB_LOC_MD_LAW) uniform vec4 law;
NB_LOCATION(NB_LOC_MD_SIGMOID) uniform vec4 sigmoid;
NB_LOCATION(NB_LOC_MD_TYPES) uniform int ntypes;

shared vec4 pair_coeff[2 * NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];

/* Copies the table into shared memory; every invocation must call it. */
void nb_md_load_coeffs()
{
    int count = 2 * ntypes * ntypes;
    for (int k = int(gl_LocalInvocationIndex); k < count; k += NB_TILE)
        pair_coeff[k] = coeff[k];
    barrier();
}

/* Adds particle j (position pj, type row tj) to i's sums. */
void nb_md_add(vec4 pi, int row_i, vec4 pj, int tj, bool excluded,
               inout vec3 f, inout float pe, inout float vir)
{
    int c = 2 * (row_i + tj);
    vec3 d = nb_md_minimum_image(pi.xyz - pj.xyz, box, inv_box);
    nb_md_accumulate(d, excluded, pair_coeff[c], pair_coeff[c + 1], pi.w * pj.w,
                     rc2, law, sigmoid, f, pe, vir);
}

void nb_md_store(int i, vec3 f, float pe, float vir)
{
    force[i] = vec4(f, 0.5 * pe);
    virial[i] = 0.5 * vir;
}
