/* md_tri_square.comp - the square loop with the triangles' pair code: the
 * loop of md_pairs.comp, j a shared-memory tile at a time, every ordered
 * pair evaluated, but no minimum image and no cutoff test.  Work group g
 * takes the rounds of NB_GROUP i-particles starting at g NB_GROUP, every
 * (number of groups) NB_GROUP: one group covers all n (square-wg, seed 003
 * Table 5's baseline), ceil(n / NB_GROUP) groups one round each (lean-gpu).
 * square-gpu is md_pairs.comp itself (in modes B..H md_precision.comp's).
 * Modes B..H add each pair term in j order (acc_add) and flush (F's carry,
 * H's chunk sums) every NB_TRI_FLUSH terms and at each tile end. */
#if NB_GROUP % NB_TRI_FLUSH != 0
#error "md_tri_square.comp: NB_GROUP must be a multiple of NB_TRI_FLUSH"
#endif
shared NB_TRI_POS tile[NB_GROUP];

void main()
{
    int local = int(gl_LocalInvocationIndex);
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    nb_tri_load_coeffs();
    for (int base = int(gl_WorkGroupID.x) * NB_GROUP; base < n; base += stride) {
        int i = base + local;
        NB_TRI_POS pi = i < n ? tpos[i] : NB_TRI_POS(0.0);
        int row = nb_tri_row(pi);
        NB_TRI_ACC sum;
        nb_tri_start(sum);
        for (int jbase = 0; jbase < n; jbase += NB_GROUP) {
            int j = jbase + local;
            tile[local] = j < n ? tpos[j] : NB_TRI_POS(0.0);
            barrier();
            int count = min(NB_GROUP, n - jbase);
            for (int k = 0; k < count; k++)
                nb_tri_add_nth(sum, nb_tri_pair(pi, tile[k], row, jbase + k != i), uint(k));
            nb_tri_flush(sum);
            barrier();
        }
        if (i < n)
            nb_tri_store(i, sum);
    }
}
