/* md_tri1.comp - seed 003's triangular version 1 (section 6.4.1): each pair
 * evaluated once and written twice into an n x n matrix, the term on i at
 * [j][i] and the reaction on j at [i][j] (zero on the diagonal), then a
 * separate pass sums column i into particle i.  Two passes:
 *   NB_TRI_PASS_PAIRS   invocation i of a round evaluates j = i+1 .. n-1
 *   NB_TRI_PASS_SUM     force[i] = sum over k of scratch[k n + i]
 * No invocation reads what another wrote within a pass, so neither needs
 * a barrier; the dispatch boundary orders them.  The same code runs on one
 * work group (tri1-wg: rounds of NB_GROUP particles) or on ceil(n /
 * NB_GROUP) (tri1-gpu).  Where the seed gave each i its own j = i+1+k, the
 * invocations of a round here share j (from the round's first i + 1, the
 * lanes with j <= i masked): the j reads are broadcasts and the [j][i]
 * writes of a round contiguous; [i][j] stays a strided write, as in the
 * seed.  Mode H (NB_TRI_SCRATCH_FIXED): the pairs pass rounds each term
 * to int64 (nb_tri_term) and writes it and its exact negation, the matrix
 * of int64 (twice the bytes), and the sum pass adds int64.  (Float terms
 * in the matrix, rounded in the sum pass, gave ionic pair energies an ulp
 * off the other H kernels' on NVIDIA's driver 580, SPIR-V path: see
 * md_tri.glsl.)  Modes B..F run mode A's pairs pass (float terms), G its
 * own (double terms); their sum pass adds column i in k order into an
 * nb_acc state (acc_add) and stores its eight words. */
#ifdef NB_TRI_PASS_PAIRS
void pairs()
{
    int local = int(gl_LocalInvocationIndex);
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    uint un = uint(n);
    nb_tri_load_coeffs();
    for (int base = int(gl_WorkGroupID.x) * NB_GROUP; base < n; base += stride) {
        int i = base + local;
        bool live = i < n;
        NB_TRI_POS pi = live ? tpos[i] : NB_TRI_POS(0.0);
        int row = nb_tri_row(pi);
        if (live)
            scratch[uint(i) * un + uint(i)] = NB_TRI_TERM(0);
        for (int j = base + 1; j < n; j++) {
            bool counted = live && j > i;
            NB_TRI_PAIR t = nb_tri_pair(pi, tpos[j], row, counted);
            if (counted) {
                NB_TRI_TERM q = nb_tri_term(t);
                scratch[uint(j) * un + uint(i)] = q;
                scratch[uint(i) * un + uint(j)] = nb_tri_reaction(q);
            }
        }
    }
}
#endif

void sum_columns()
{
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    uint un = uint(n);
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
#ifdef NB_TRI_SCRATCH_FIXED
        nb_acc sum;             /* H: int64 terms, added exactly */
        acc_init(sum);
        for (uint k = 0u; k < un; k++)
            sum.s += scratch[k * un + uint(i)];
#else
        NB_TRI_ACC sum;
        nb_tri_start(sum);
        for (uint k = 0u; k < un; k++)
            nb_tri_add_nth(sum, scratch[k * un + uint(i)], k);
        nb_tri_flush(sum);
#endif
        nb_tri_store(i, sum);
    }
}

void main()
{
#ifdef NB_TRI_PASS_PAIRS
    pairs();
#else
    sum_columns();
#endif
}
