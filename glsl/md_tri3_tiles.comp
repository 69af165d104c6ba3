/* md_tri3_tiles.comp - seed 003's version 3 across the whole GPU (tri3-gpu):
 * the particles in T = tiles blocks of NB_TRI_TILE, and one work group per
 * unordered block pair {I, J}, taken round-robin: J = (I + d) mod T for
 * d = 0 .. T/2, where for even T the pairs at d = T/2 come once (I < T/2).
 * Work group g is d = g / T, I = g mod T; the last row of an even T is half
 * long, so its groups are exactly I < T/2.  No group returns early.
 *
 * In a group, invocation l holds i = I*B + l + NB_GROUP r (r < NB_TRI_TILE_IPT)
 * and their sums in registers; J's positions and reactions force_j[] sit in
 * shared memory.  The B = NB_TRI_TILE slots of J are dealt in NB_GROUP
 * phases: in phase p invocation l owns the slots g + NB_GROUP s (s <
 * NB_TRI_TILE_IPT), g = (l + p) mod NB_GROUP, distinct across invocations,
 * so it updates them without conflict and a barrier is needed once per
 * phase only (NB_TRI_TILE_IPT^2 pairs per invocation between barriers); the
 * lanes of a step read consecutive slots.  On the diagonal (d = 0) only
 * pairs with j > i count, so each unordered pair of the block is evaluated
 * once.
 *
 * No atomics: each block receives exactly one partial sum per partner
 * block, written to its own slot of scratch, slot c of block b holding the
 * terms of b's particles against block (b + c) mod T: the i-sums of {I, J}
 * go to slot d of I, the reactions to slot T - d of J (slot d = T/2 for
 * even T, where J owns no i-sum; slot 0 on the diagonal holds both).  Every
 * slot of every block is written exactly once, so no clearing, and
 * md_tri3_reduce sums the T slots of each particle in a fixed order: the
 * result does not depend on scheduling.
 *
 * Modes B..H (with NB_TRI_SCRATCH_STATES): the i-sums, force_j[] and the
 * partials in scratch are accumulator states of eight words (md_tri.glsl
 * says why words).  Each term goes into its i's state (flushed at once);
 * the reactions a slot receives in one step (NB_TRI_TILE_IPT of them) are
 * summed into a fresh state and merged into force_j[] (acc_merge), as
 * mode A adds their float sum; on the diagonal the i-state and the
 * reaction state of a slot merge before they are stored.  H: every term
 * rounded once to int64, the reactions its exact negations, all sums
 * exact.  G's positions (double) and force_j[] take all 32 KiB, so G
 * reads its coefficients from the buffer (NB_TRI_COEFF_GLOBAL). */
#if NB_GROUP * NB_TRI_TILE_IPT != NB_TRI_TILE
#error "md_tri3_tiles.comp: NB_TRI_TILE must be NB_GROUP * NB_TRI_TILE_IPT"
#endif

NB_LOCATION(NB_LOC_TRI_TILES) uniform int tiles;

shared NB_TRI_POS jpos[NB_TRI_TILE];
shared NB_TRI_STORED force_j[NB_TRI_TILE];

void main()
{
    int local = int(gl_LocalInvocationIndex);
    int g = int(gl_WorkGroupID.x);
    int d = g / tiles, I = g - d * tiles;
    int J = (I + d) % tiles;
    int npad = tiles * NB_TRI_TILE;
    NB_TRI_POS pi[NB_TRI_TILE_IPT];
    NB_TRI_STORED sum[NB_TRI_TILE_IPT];
    int row[NB_TRI_TILE_IPT];

    nb_tri_load_coeffs();
    for (int r = 0; r < NB_TRI_TILE_IPT; r++) {
        int slot = local + NB_GROUP * r, i = I * NB_TRI_TILE + slot, j = J * NB_TRI_TILE + slot;
        jpos[slot] = j < n ? tpos[j] : NB_TRI_POS(0.0);
        force_j[slot] = nb_tri_zero();
        pi[r] = i < n ? tpos[i] : NB_TRI_POS(0.0);
        row[r] = nb_tri_row(pi[r]);
        sum[r] = nb_tri_zero();
    }
    barrier();
    for (int p = 0; p < NB_GROUP; p++) {
        int owned = (local + p) % NB_GROUP;
        for (int s = 0; s < NB_TRI_TILE_IPT; s++) {
            int slot = owned + NB_GROUP * s, j = J * NB_TRI_TILE + slot;
            NB_TRI_POS pj = jpos[slot];
            NB_TRI_ACC reaction;
            nb_tri_start(reaction);
            for (int r = 0; r < NB_TRI_TILE_IPT; r++) {
                int i = I * NB_TRI_TILE + local + NB_GROUP * r;
                bool counted = i < n && j < n && (d != 0 || j > i);
                NB_TRI_PAIR t = nb_tri_pair(NB_TRI_PI(r, i), pj, row[r], counted);
                nb_tri_add_stored(sum[r], t);
                nb_tri_add(reaction, nb_tri_reaction(t));
            }
            nb_tri_flush(reaction);
            NB_TRI_ACC fj = nb_tri_load(force_j[slot]);
            nb_tri_merge(fj, reaction);
            force_j[slot] = nb_tri_save(fj);
        }
        barrier();
    }
    int reaction_slot = d == 0 ? 0 : tiles - d;
    for (int r = 0; r < NB_TRI_TILE_IPT; r++) {
        int slot = local + NB_GROUP * r;
        NB_TRI_ACC own = nb_tri_load(sum[r]);
        if (d == 0) {
            nb_tri_merge(own, nb_tri_load(force_j[slot]));
            nb_tri_put_slot(I * NB_TRI_TILE + slot, own);
        } else {
            nb_tri_put_slot(d * npad + I * NB_TRI_TILE + slot, own);
            nb_tri_put_slot(reaction_slot * npad + J * NB_TRI_TILE + slot,
                            nb_tri_load(force_j[slot]));
        }
    }
}
