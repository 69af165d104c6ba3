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

NB_LOCATION(NB_LOC_MD_CELLS) uniform ivec3 cells;
NB_LOCATION(NB_LOC_MD_PERIODIC) uniform ivec3 periodic;

/* The cell coordinates of particle i (by its original index). */
ivec3 nb_md_cell_of(int i)
{
    int cell = cell_of[i];
    return ivec3(cell % cells.x, (cell / cells.x) % cells.y, cell / (cells.x * cells.y));
}

/* The neighbour of cell c at offset off (each component -1, 0 or 1), or
 * -1 beyond an open edge.  The kernels walk the 27 offsets with dx
 * fastest, then dy, then dz, and a cell's slots are cell_start[cell] ..
 * cell_start[cell] + cell_count[cell] - 1. */
int nb_md_neighbour(ivec3 c, ivec3 off)
{
    ivec3 nc = c + off;
    bvec3 out_low = lessThan(nc, ivec3(0)), out_high = greaterThanEqual(nc, cells);
    if (any(bvec3(ivec3(out_low) * (1 - periodic))) ||
        any(bvec3(ivec3(out_high) * (1 - periodic))))
        return -1;
    nc += cells * (ivec3(out_low) - ivec3(out_high));      /* periodic wrap */
    return (nc.z * cells.y + nc.y) * cells.x + nc.x;
}
