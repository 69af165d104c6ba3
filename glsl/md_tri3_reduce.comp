/* md_tri3_reduce.comp - tri3-gpu's second pass: particle i of block b sums
 * its T = tiles slots of partial sums, in slot order (md_tri3_tiles.comp
 * says what they hold), into force[i]; in mode H (NB_TRI_SCRATCH_FIXED)
 * int64 partials, summed exactly. */
layout(location = NB_LOC_TRI_TILES) uniform int tiles;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n)
        return;
    int npad = tiles * NB_TRI_TILE;
    NB_TRI_TERM sum = NB_TRI_TERM(0);
    for (int c = 0; c < tiles; c++)
        sum += scratch[c * npad + i];
    force[i] = nb_tri_result(sum);
}
