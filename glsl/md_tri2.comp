/* md_tri2.comp - seed 003's triangular version 2 (section 6.4.2): each
 * pair's term on i written once, into the lower triangle at [j][i] (j > i,
 * rows packed: [j][i] is scratch[j (j - 1) / 2 + i]); particle i sums its
 * row part while it evaluates (the terms it computes itself), then
 * subtracts its column part, the terms [i][k] (k < i) that the
 * invocations of lower indices wrote for it (forces opposite, energies
 * the same).  Passes:
 *   NB_TRI_PASS_ROWS      evaluate j > i, write [j][i], force[i] = row sum
 *   NB_TRI_PASS_COLUMNS   force[i] += the reactions of row i of the matrix
 * tri2-gpu runs them as two dispatches (the boundary orders every write
 * before every read); tri2-wg defines both and runs them in one work group
 * with memoryBarrierBuffer() + barrier() between, on coherent buffers: the
 * seed's single kernel with __syncthreads().  j is shared by the
 * invocations of a round, as in md_tri1.comp.  Modes B..H: the matrix
 * keeps the pair terms (float; G double), each added to an accumulator
 * once where it is summed (H: rounded to fixed point there); the rows
 * pass leaves its accumulator's state in force[] as eight words and the
 * columns pass resumes it, adding the negated column terms in k order. */
uint nb_tri_row_start(int j)
{
    return uint(j) * uint(j - 1) / 2u;
}

#ifdef NB_TRI_PASS_ROWS
void rows()
{
    int local = int(gl_LocalInvocationIndex);
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    nb_tri_load_coeffs();
    for (int base = int(gl_WorkGroupID.x) * NB_GROUP; base < n; base += stride) {
        int i = base + local;
        bool live = i < n;
        NB_TRI_POS pi = live ? tpos[i] : NB_TRI_POS(0.0);
        int row = nb_tri_row(pi);
        NB_TRI_ACC sum;
        nb_tri_start(sum);
        for (int j = base + 1; j < n; j++) {
            bool counted = live && j > i;
            NB_TRI_PAIR t = nb_tri_pair(pi, tpos[j], row, counted);
            if (counted)
                scratch[nb_tri_row_start(j) + uint(i)] = t;
            nb_tri_add_nth(sum, t, uint(j - base - 1));
        }
        nb_tri_flush(sum);
        if (live)
            nb_tri_keep(i, sum);
    }
}
#endif

#ifdef NB_TRI_PASS_COLUMNS
void columns()
{
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
        NB_TRI_ACC sum = nb_tri_fetch(i);
        uint start = nb_tri_row_start(i);
        for (uint k = 0u; k < uint(i); k++)
            nb_tri_add_nth(sum, nb_tri_reaction(scratch[start + k]), k);
        nb_tri_flush(sum);
        nb_tri_store(i, sum);
    }
}
#endif

void main()
{
#ifdef NB_TRI_PASS_ROWS
    rows();
#endif
#if defined(NB_TRI_PASS_ROWS) && defined(NB_TRI_PASS_COLUMNS)
    memoryBarrierBuffer();
    barrier();
#endif
#ifdef NB_TRI_PASS_COLUMNS
    columns();
#endif
}
