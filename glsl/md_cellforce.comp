/* md_cellforce.comp - MD forces through cell lists (seed 002 Question 4):
 * one invocation per slot of the cell-sorted order, so that neighbouring
 * invocations share cells and read the same j-particles; each walks the 27
 * cells around its own (md_cell_walk.glsl) and writes its result at the
 * particle's original index. */
layout(local_size_x = NB_TILE) in;

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    nb_md_load_coeffs();
    if (k >= n)
        return;
    int i = perm[k];
    vec4 pi = spos[k];
    int row = stype[k] * ntypes;
    ivec3 c = nb_md_cell_of(i);
    vec3 f = vec3(0.0);
    float pe = 0.0, vir = 0.0;

    for (int nb = 0; nb < 27; nb++) {
        int begin, end;
        nb_md_neighbour_slots(c, nb, begin, end);
        for (int j = begin; j < end; j++)
            nb_md_add(pi, row, spos[j], stype[j], j == k, f, pe, vir);
    }
    nb_md_store(i, f, pe, vir);
}
