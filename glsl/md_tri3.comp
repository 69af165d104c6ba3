/* md_tri3.comp - seed 003's triangular version 3 on one work group
 * (section 6.4.3, tri3-wg): each invocation keeps the sums of its own
 * i-particles in registers and adds the reactions of its pairs to
 * force_j[] in shared memory, one skewed step at a time:
 *
 *   for k = 1 .. n-1:  every i with j = i + k < n evaluates (i, j),
 *                      sum_i += t, force_j[j] += reaction(t)
 *                      barrier()
 *   force[i] = sum_i + force_j[i]
 *
 * Every unordered pair {i, j} (i < j) is evaluated once, at step k = j - i.
 * Within a step the i are distinct, so the j = i + k are distinct and no
 * two invocations touch the same force_j[] element; the barrier after
 * every step keeps a fast invocation's step k + 1 from meeting a slow
 * one's step k (the seed: synchronising only every second step let writes
 * collide).  The seed skips nothing at k = 0 (its self pair adds a zero
 * force through the max(r^2, ...) floor); starting at k = 1 drops that
 * step.  With n above NB_GROUP each invocation holds i = local + NB_GROUP r
 * for r < NB_TRI3_IPT, all at the same step k, their j still distinct.
 * Positions and coefficients come from the buffers (cached): force_j[]
 * takes all of the 32 KiB of shared memory GL 4.3 guarantees, so n <=
 * NB_TRI_WG_MAX.
 *
 * Modes B..H: i's sums and force_j[] are accumulator states of eight
 * words (md_tri.glsl says why words); each term goes into i's state and
 * its reaction into j's, each flushed at once (no atomics), and the two
 * states of i merge at the end (acc_merge).  H: every term rounded once
 * to int64, its reaction the exact negation, as before the states.  A
 * state takes twice a vec4's room, so the same 32 KiB hold
 * NB_TRI_WG_MAX_H = NB_TRI_WG_MAX / 2 reactions (NB_TRI_WG_IPT / 2 per
 * invocation). */
#ifdef NB_TRI_PREC
#define NB_TRI3_IPT (NB_TRI_WG_IPT / 2)
#define NB_TRI3_MAX NB_TRI_WG_MAX_H
#else
#define NB_TRI3_IPT NB_TRI_WG_IPT
#define NB_TRI3_MAX NB_TRI_WG_MAX
#endif
#if NB_GROUP * NB_TRI3_IPT != NB_TRI3_MAX
#error "md_tri3.comp: NB_TRI_WG_MAX must be NB_GROUP * NB_TRI_WG_IPT"
#endif

shared NB_TRI_STORED force_j[NB_TRI3_MAX];

void main()
{
    int local = int(gl_LocalInvocationIndex);
    NB_TRI_POS pi[NB_TRI3_IPT];
    NB_TRI_STORED sum[NB_TRI3_IPT];
    int row[NB_TRI3_IPT];

    for (int r = 0; r < NB_TRI3_IPT; r++) {
        int i = local + NB_GROUP * r;
        force_j[i] = nb_tri_zero();
        pi[r] = i < n ? tpos[i] : NB_TRI_POS(0.0);
        row[r] = nb_tri_row(pi[r]);
        sum[r] = nb_tri_zero();
    }
    barrier();
    for (int k = 1; k < n; k++) {
        for (int r = 0; r < NB_TRI3_IPT; r++) {
            int j = local + NB_GROUP * r + k;
            if (j < n) {
                NB_TRI_PAIR t = nb_tri_pair(NB_TRI_PI(r, j - k), tpos[j], row[r], true);
                nb_tri_add_stored(sum[r], t);
                nb_tri_add_stored(force_j[j], nb_tri_reaction(t));
            }
        }
        barrier();
    }
    for (int r = 0; r < NB_TRI3_IPT; r++) {
        int i = local + NB_GROUP * r;
        if (i < n) {
            NB_TRI_ACC total = nb_tri_load(sum[r]);
            nb_tri_merge(total, nb_tri_load(force_j[i]));
            nb_tri_store(i, total);
        }
    }
}
