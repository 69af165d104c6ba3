/* md_tri_square.comp - the square loop with the triangles' pair code: the
 * loop of md_pairs.comp, j a shared-memory tile at a time, every ordered
 * pair evaluated, but no minimum image and no cutoff test.  Work group g
 * takes the rounds of NB_GROUP i-particles starting at g NB_GROUP, every
 * (number of groups) NB_GROUP: one group covers all n (square-wg, seed 003
 * Table 5's baseline), ceil(n / NB_GROUP) groups one round each (lean-gpu).
 * square-gpu is md_pairs.comp itself (in mode H md_precision.comp's).
 * Mode H flushes its chunk sums once per tile of NB_GROUP j. */
#if defined(NB_PRECISION_H) && NB_GROUP > NB_TRI_FLUSH
#error "md_tri_square.comp: H needs a tile end every NB_TRI_FLUSH terms"
#endif
shared vec4 tile[NB_GROUP];

void main()
{
    int local = int(gl_LocalInvocationIndex);
    int stride = int(gl_NumWorkGroups.x) * NB_GROUP;
    nb_tri_load_coeffs();
    for (int base = int(gl_WorkGroupID.x) * NB_GROUP; base < n; base += stride) {
        int i = base + local;
        vec4 pi = i < n ? tpos[i] : vec4(0.0);
        int row = nb_tri_row(pi);
        NB_TRI_ACC sum;
        nb_tri_start(sum, NB_TRI_TERM(0));
        for (int jbase = 0; jbase < n; jbase += NB_GROUP) {
            int j = jbase + local;
            tile[local] = j < n ? tpos[j] : vec4(0.0);
            barrier();
            int count = min(NB_GROUP, n - jbase);
            for (int k = 0; k < count; k++)
                nb_tri_add(sum, nb_tri_pair(pi, tile[k], row, jbase + k != i));
            nb_tri_flush(sum);
            barrier();
        }
        if (i < n)
            force[i] = nb_tri_result(nb_tri_total(sum));
    }
}
