/* md_pairs.comp - MD forces over all pairs (the O(N^2) reference of the
 * cell lists, and the kernel for open systems such as seed 003's ionic
 * crystals): one i-particle per invocation, the j-particles a shared-memory
 * tile at a time, minimum image and cutoff applied per pair. */
layout(local_size_x = NB_TILE) in;

layout(std430, binding = NB_BIND_MD_POS) readonly buffer Positions { vec4 pos[]; };

shared vec4 tile_pos[NB_TILE];
shared int tile_type[NB_TILE];

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    int local = int(gl_LocalInvocationIndex);
    vec4 pi = i < n ? pos[i] : vec4(0.0);
    int row = (i < n ? type[i] : 0) * ntypes;
    vec3 f = vec3(0.0);
    float pe = 0.0, vir = 0.0;

    nb_md_load_coeffs();
    for (int base = 0; base < n; base += NB_TILE) {
        int j = base + local;
        tile_pos[local] = j < n ? pos[j] : vec4(0.0);
        tile_type[local] = j < n ? type[j] : 0;
        barrier();
        int count = min(NB_TILE, n - base);
        for (int k = 0; k < count; k++)
            nb_md_add(pi, row, tile_pos[k], tile_type[k], base + k == i, f, pe, vir);
        barrier();
    }
    if (i < n)
        nb_md_store(i, f, pe, vir);
}
