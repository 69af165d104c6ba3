/* md_cell_walk.glsl - what the kernels that walk md_cells.comp's cell
 * lists share (md_cellforce.comp, md_cell_precision.comp): the sorted
 * streams, the cell tables, and the 27 neighbour cells of a particle's
 * own, wrapped on periodic axes and cut at the edges of open ones (where
 * md_cells.comp clamped outlying particles into the edge cells). */
layout(std430, binding = NB_BIND_MD_SPOS) readonly buffer SortedPositions { vec4 spos[]; };
layout(std430, binding = NB_BIND_MD_STYPE) readonly buffer SortedTypes { int stype[]; };
layout(std430, binding = NB_BIND_MD_PERM) readonly buffer Permutation { int perm[]; };
layout(std430, binding = NB_BIND_MD_CELL_OF) readonly buffer CellOf { int cell_of[]; };
layout(std430, binding = NB_BIND_MD_CELL_COUNT) readonly buffer CellCount { int cell_count[]; };
layout(std430, binding = NB_BIND_MD_CELL_START) readonly buffer CellStart { int cell_start[]; };

layout(location = NB_LOC_MD_CELLS) uniform ivec3 cells;
layout(location = NB_LOC_MD_PERIODIC) uniform ivec3 periodic;

/* The cell coordinates of particle i (by its original index). */
ivec3 nb_md_cell_of(int i)
{
    int cell = cell_of[i];
    return ivec3(cell % cells.x, (cell / cells.x) % cells.y, cell / (cells.x * cells.y));
}

/* Slots [begin, end) of neighbour nb of cell c, nb = 0..26 with dx =
 * nb % 3 - 1 fastest, then dy, then dz; empty beyond an open edge. */
void nb_md_neighbour_slots(ivec3 c, int nb, out int begin, out int end)
{
    ivec3 nc = c + ivec3(nb % 3, (nb / 3) % 3, nb / 9) - 1;
    bvec3 out_low = lessThan(nc, ivec3(0)), out_high = greaterThanEqual(nc, cells);
    begin = end = 0;
    if (any(bvec3(ivec3(out_low) * (1 - periodic))) ||
        any(bvec3(ivec3(out_high) * (1 - periodic))))
        return;
    nc += cells * (ivec3(out_low) - ivec3(out_high));      /* periodic wrap */
    int cell = (nc.z * cells.y + nc.y) * cells.x + nc.x;
    begin = cell_start[cell];
    end = begin + cell_count[cell];
}
