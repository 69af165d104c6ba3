/* md_cellforce.comp - MD forces through cell lists (seed 002 Question 4):
 * one invocation per slot of the cell-sorted order, so that neighbouring
 * invocations share cells and read the same j-particles; each walks the 27
 * cells around its own (md_cell_walk.glsl's buffers and walk) and writes
 * its result at the particle's original index.  The walk is written out
 * here rather than calling nb_md_cell_of and nb_md_neighbour: glslang does
 * not inline, and NVIDIA's driver 580 ran the calling version slower;
 * written out, the SPIR-V is the one before the walk was shared. */
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
    int cell = cell_of[i];
    ivec3 c = ivec3(cell % cells.x, (cell / cells.x) % cells.y, cell / (cells.x * cells.y));
    vec3 f = vec3(0.0);
    float pe = 0.0, vir = 0.0;

    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                ivec3 nc = c + ivec3(dx, dy, dz);
                bvec3 out_low = lessThan(nc, ivec3(0)), out_high = greaterThanEqual(nc, cells);
                if (any(bvec3(ivec3(out_low) * (1 - periodic))) ||
                    any(bvec3(ivec3(out_high) * (1 - periodic))))
                    continue;           /* beyond an open edge */
                nc += cells * (ivec3(out_low) - ivec3(out_high));   /* periodic wrap */
                int neighbour = (nc.z * cells.y + nc.y) * cells.x + nc.x;
                int begin = cell_start[neighbour], end = begin + cell_count[neighbour];
                for (int j = begin; j < end; j++)
                    nb_md_add(pi, row, spos[j], stype[j], j == k, f, pe, vir);
            }
    nb_md_store(i, f, pe, vir);
}
