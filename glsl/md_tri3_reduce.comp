/* md_tri3_reduce.comp - tri3-gpu's second pass: particle i of block b sums
 * its T = tiles slots of partial sums, in slot order (md_tri3_tiles.comp
 * says what they hold), into force[i]; in modes B..H
 * (NB_TRI_SCRATCH_STATES) accumulator states, merged in slot order
 * (acc_merge: H exactly, B and G in double, C-F as double-float pairs). */
NB_LOCATION(NB_LOC_TRI_TILES) uniform int tiles;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n)
        return;
    int npad = tiles * NB_TRI_TILE;
    NB_TRI_ACC sum;
    nb_tri_start(sum);
    for (int c = 0; c < tiles; c++)
        nb_tri_merge(sum, nb_tri_slot(c * npad + i));
    nb_tri_store(i, sum);
}
