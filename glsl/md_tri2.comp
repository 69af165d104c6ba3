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
 * invocations of a round, as in md_tri1.comp. */
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
        vec4 pi = live ? tpos[i] : vec4(0.0);
        int row = nb_tri_row(pi);
        vec4 sum = vec4(0.0);
        for (int j = base + 1; j < n; j++) {
            bool counted = live && j > i;
            vec4 t = nb_tri_pair(pi, tpos[j], row, counted);
            if (counted)
                scratch[nb_tri_row_start(j) + uint(i)] = t;
            sum += t;
        }
        if (live)
            force[i] = sum;
    }
}
#endif

#ifdef NB_TRI_PASS_COLUMNS
void columns()
{
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
        vec4 sum = force[i];
        uint start = nb_tri_row_start(i);
        for (uint k = 0u; k < uint(i); k++)
            sum += nb_tri_reaction(scratch[start + k]);
        force[i] = nb_tri_result(sum);
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
