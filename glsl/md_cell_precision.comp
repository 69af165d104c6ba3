/* md_cell_precision.comp - the MD force through cell lists with a
 * selectable accumulation (seed 004 Table 1, modes B-H, and M: magnitude
 * sums): md_cellforce.comp's walk of the 27 cells around each particle's
 * own (md_cell_walk.glsl), over md_cells.comp's cell-sorted order (one invocation per sorted
 * slot), with md_precision.comp's pair terms: md_law.glsl's nb_md_term
 * from the sorted float positions, and for G nb_md_pair_double from the
 * double positions, read by particle index.  The result goes to the
 * particle's own index.
 *
 * acc_tile_end runs after every cell and after every NB_PREC_TILE terms
 * inside one (F carries at least every LOWER_LOOP = 128 additions, H's
 * int32 chunk sums hold at most 512 terms).
 *
 * M does not walk cell by cell: it merges the 27 cells, each sorted by
 * particle index, and so adds the terms in ascending j as
 * md_precision.comp's loop does (that loop's pairs beyond the cutoff add
 * exact zeros).  Its float sums, and with them the scales 2^k of E, F and
 * H, are the all-pairs kernel's bit for bit; H, exact and order-free, then
 * returns the all-pairs kernel's int64 sums.  The merge (27 compares a
 * term) makes this pass dearer than the kernel itself; an MD run could
 * keep the scale for many steps. */
layout(local_size_x = NB_PREC_TILE) in;

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_MD_BOX) uniform vec3 box;
NB_LOCATION(NB_LOC_MD_INV_BOX) uniform vec3 inv_box;
NB_LOCATION(NB_LOC_MD_RC2) uniform float rc2;
NB_LOCATION(NB_LOC_MD_LAW) uniform vec4 law;
NB_LOCATION(NB_LOC_MD_SIGMOID) uniform vec4 sigmoid;
NB_LOCATION(NB_LOC_MD_TYPES) uniform int ntypes;

#if defined(NB_PRECISION_G)
#define POS dvec4
#define COEFF dvec4
layout(std430, binding = NB_BIND_MD_X) readonly buffer Positions { dvec4 dpos[]; };
layout(std430, binding = NB_BIND_MD_V) readonly buffer Coeffs { dvec4 coeff[]; };
#else
#define POS vec4
#define COEFF vec4
layout(std430, binding = NB_BIND_MD_COEFF) readonly buffer Coeffs { vec4 coeff[]; };
#endif

shared COEFF pair_coeff[2 * NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];

/* Slots [begin, end) of neighbour nb (0..26, dx fastest) of cell c; empty
 * beyond an open edge. */
void neighbour_slots(ivec3 c, int nb, out int begin, out int end)
{
    int cell = nb_md_neighbour(c, ivec3(nb % 3, nb / 3 % 3, nb / 9) - 1);
    begin = cell < 0 ? 0 : cell_start[cell];
    end = cell < 0 ? 0 : begin + cell_count[cell];
}

/* The pair (i, particle of slot j) added to acc: the expressions of
 * md_precision.comp's loop, so that both kernels add the same terms. */
void add_pair(inout nb_acc acc, POS pi, int row, int j, bool excluded)
{
    int c = 2 * (row + stype[j]);
#if defined(NB_PRECISION_G)
    dvec4 pj = dpos[perm[j]];
    dvec3 d = pi.xyz - pj.xyz;
    d -= dvec3(box) * round(d * dvec3(inv_box));
    acc_add_double(acc, nb_md_pair_double(d, excluded, pair_coeff[c], pi.w * pj.w, rc2, law));
#else
    vec4 pj = spos[j];
    vec3 d = nb_md_minimum_image(pi.xyz - pj.xyz, box, inv_box);
    acc_add(acc, nb_md_term(d, excluded, pair_coeff[c], pair_coeff[c + 1], pi.w * pj.w, rc2,
                            law, sigmoid));
#endif
}

#if defined(NB_PRECISION_M)
/* Every slot of the 27 cells in ascending particle index. */
void walk(inout nb_acc acc, POS pi, int row, int k, ivec3 c)
{
    const int none = 0x7fffffff;
    int cur[27], stop[27], next[27];
    for (int nb = 0; nb < 27; nb++) {
        neighbour_slots(c, nb, cur[nb], stop[nb]);
        next[nb] = cur[nb] < stop[nb] ? perm[cur[nb]] : none;
    }
    for (;;) {
        int best = 0;
        for (int nb = 1; nb < 27; nb++)
            best = next[nb] < next[best] ? nb : best;
        if (next[best] == none)
            break;
        int j = cur[best]++;
        add_pair(acc, pi, row, j, j == k);
        next[best] = cur[best] < stop[best] ? perm[cur[best]] : none;
    }
}
#else
/* Cell by cell, a tile end after each cell and every NB_PREC_TILE terms. */
void walk(inout nb_acc acc, POS pi, int row, int k, ivec3 c)
{
    for (int nb = 0; nb < 27; nb++) {
        int begin, end;
        neighbour_slots(c, nb, begin, end);
        for (int base = begin; base < end; base += NB_PREC_TILE) {
            int stop = min(base + NB_PREC_TILE, end);
            for (int j = base; j < stop; j++)
                add_pair(acc, pi, row, j, j == k);
            acc_tile_end(acc);
        }
    }
}
#endif

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    for (int e = int(gl_LocalInvocationIndex); e < 2 * ntypes * ntypes; e += NB_PREC_TILE)
        pair_coeff[e] = coeff[e];
    barrier();
    if (k >= n)
        return;
    int i = perm[k];
#if defined(NB_PRECISION_G)
    POS pi = dpos[i];
#else
    POS pi = spos[k];
#endif
    ivec3 c = nb_md_cell_of(i);
    nb_acc acc;
    acc_init(acc);
    walk(acc, pi, stype[k] * ntypes, k, c);
    acc_tile_end(acc);
    acc_store(i, acc);
}
