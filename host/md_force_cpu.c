/* md_force_cpu.c - the double-precision MD reference forces, all pairs or
 * cell lists (seed 002, question 4).
 *
 * Each particle i sums its own row, every j != i, in a fixed order: no
 * Newton's third law, so no two threads ever write the same element and
 * the result is bit-identical whatever OMP_NUM_THREADS says.  All pairs
 * run j = 0..n-1; cell lists run the 27 neighbour cells in a fixed order
 * and each cell's particles in index order (the counting sort is stable).
 * The two differ only in summation order, so they agree to rounding.
 *
 * Periodic axes use the minimum image d -= L round(d / L).  Because the
 * cutoff is at most L/2 (nb_md_box_check), a pair meets at most one image
 * of its partner inside the cutoff.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What every row reads. */
struct md_ctx {
    const struct nb_md_system *sys;
    const double *x;
    double rc2;                 /* cutoff^2, +inf without a cutoff */
    double len[3], half[3];     /* box lengths, half of them */
    int periodic[3];
    double coulomb_shift;
    struct nb_md_pair_coeff coeff[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
};

/* The cell list: particles sorted by cell, stable in index. */
struct md_cells {
    int dim[3];                 /* cells per axis */
    size_t count;               /* dim[0] dim[1] dim[2] */
    size_t *start;              /* count + 1: cell c holds order[start[c]
                                   .. start[c+1]) */
    size_t *order;              /* n particle indices */
    size_t *cell;               /* n: each particle's cell */
};

/* One row's sums. */
struct row_sum {
    double f[3], u, rf;         /* force, sum of u, sum of r.F */
    double pairs;               /* partners inside the cutoff */
};

static void ctx_init(struct md_ctx *c, const struct nb_md_system *sys,
                     const double *x)
{
    const struct nb_md_box *box = sys->box;

    c->sys = sys;
    c->x = x;
    c->rc2 = sys->pot->cutoff > 0.0 ? sys->pot->cutoff * sys->pot->cutoff
                                    : INFINITY;
    for (int k = 0; k < 3; k++) {
        c->len[k] = box->hi[k] - box->lo[k];
        c->half[k] = 0.5 * c->len[k];
        c->periodic[k] = box->periodic[k];
    }
    nb_md_pair_coeffs(sys->pot, c->coeff, &c->coulomb_shift);
}

static double charge_of(const struct nb_md_system *sys, size_t i)
{
    return sys->q ? sys->q[i] : sys->pot->types.charge[sys->type[i] - 1];
}

/* Squared minimum-image distance, d = x_i - x_j (3). */
static double separation(const struct md_ctx *c, size_t i, size_t j,
                         double *d)
{
    const double *xi = &c->x[3 * i], *xj = &c->x[3 * j];
    double r2 = 0.0;

    for (int k = 0; k < 3; k++) {
        d[k] = xi[k] - xj[k];
        /* Inside the box |d| < L: the branch skips the libm call in almost
         * every pair; |d| = L/2 exactly is beyond any allowed cutoff. */
        if (c->periodic[k] && fabs(d[k]) > c->half[k])
            d[k] -= c->len[k] * round(d[k] / c->len[k]);
        r2 += d[k] * d[k];
    }
    return r2;
}

/* Adds pair (i, j) to s; returns 1 if the two sit at the same point. */
static int pair_add(const struct md_ctx *c, size_t i, size_t j,
                    struct row_sum *s)
{
    const struct nb_md_system *sys = c->sys;
    double d[3], r2 = separation(c, i, j, d), fr, u;
    int count = sys->pot->types.count;

    if (r2 >= c->rc2)
        return 0;
    if (r2 == 0.0)
        return 1;
    s->pairs += 1.0;
    nb_md_pair(sys->pot,
               &c->coeff[(sys->type[i] - 1) * count + (sys->type[j] - 1)],
               c->coulomb_shift, charge_of(sys, i) * charge_of(sys, j), r2,
               &fr, &u);
    for (int k = 0; k < 3; k++)
        s->f[k] += fr * d[k];
    s->u += u;
    s->rf += fr * r2;           /* r_ij . F_ij = fr |r_ij|^2 */
    return 0;
}

/* Row i against every j != i; 1 on a coincident pair. */
static int row_all(const struct md_ctx *c, size_t i, struct row_sum *s)
{
    for (size_t j = 0; j < c->sys->n; j++)
        if (j != i && pair_add(c, i, j, s))
            return 1;
    return 0;
}

/* ---- cell lists --------------------------------------------------------- */

/* The cell of coordinate x along an axis.  A periodic coordinate is
 * reduced into the box first (the caller need not have wrapped it); an open
 * one outside the box is clamped to the edge cells, which is correct
 * because clamping is monotone: two particles within rc still land in the
 * same or adjacent cells.  NaN lands in cell 0 (its forces come out NaN
 * and the integrator reports them). */
static int cell_coord(double x, double lo, double len, int dim, int periodic)
{
    double t = (x - lo) / len, s;

    if (periodic)
        t -= floor(t);
    s = t * dim;
    if (!(s >= 0.0))
        return 0;
    if (s >= dim)
        return dim - 1;
    return (int)s;
}

static size_t cell_of(const struct md_ctx *c, const struct md_cells *cl,
                      size_t i)
{
    const struct nb_md_box *box = c->sys->box;
    int k3[3];

    for (int k = 0; k < 3; k++)
        k3[k] = cell_coord(c->x[3 * i + k], box->lo[k], c->len[k], cl->dim[k],
                           box->periodic[k]);
    return (size_t)k3[0] +
           (size_t)cl->dim[0] * ((size_t)k3[1] + (size_t)cl->dim[1] * k3[2]);
}

static void cells_free(struct md_cells *cl)
{
    free(cl->start);
    free(cl->order);
    free(cl->cell);
    memset(cl, 0, sizeof *cl);
}

/* Hash, counting sort (stable) and cell starts.  The geometry is that of
 * nb_md_system_check, which has bounded the cell count: max(1, floor(L /
 * rc)) cells per axis, each at least rc wide. */
static enum nb_status cells_build(const struct md_ctx *c, struct md_cells *cl,
                                  struct nb_error *err)
{
    size_t n = c->sys->n;

    cl->count = 1;
    for (int k = 0; k < 3; k++) {
        cl->dim[k] = (int)fmax(1.0, floor(c->len[k] / c->sys->pot->cutoff));
        cl->count *= (size_t)cl->dim[k];
    }
    cl->start = nb_alloc(cl->count + 1, sizeof *cl->start, "cell starts", err);
    cl->order = cl->start ? nb_alloc(n, sizeof *cl->order, "cell order", err)
                          : NULL;
    cl->cell = cl->order ? nb_alloc(n, sizeof *cl->cell, "particle cells", err)
                         : NULL;
    if (!cl->cell) {
        cells_free(cl);
        return NB_ERR_NOMEM;
    }
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        cl->cell[i] = cell_of(c, cl, i);
    for (size_t i = 0; i < n; i++)          /* counts, shifted by one */
        cl->start[cl->cell[i] + 1]++;
    for (size_t k = 0; k < cl->count; k++)  /* start[c] = first of cell c */
        cl->start[k + 1] += cl->start[k];
    for (size_t i = 0; i < n; i++)          /* start[c] becomes its end */
        cl->order[cl->start[cl->cell[i]]++] = i;
    for (size_t k = cl->count; k-- > 1;)    /* ends back to starts */
        cl->start[k] = cl->start[k - 1];
    cl->start[0] = 0;
    return NB_OK;
}

/* Neighbour cell index c along an axis of dim cells, or -1 when it falls
 * off an open axis.  A periodic axis has >= 3 cells, so the three
 * neighbours -1, 0, +1 are distinct after wrapping; an open axis is never
 * wrapped, so with 1 or 2 cells no cell is visited twice either. */
static int neighbour(int c, int dim, int periodic)
{
    if (periodic)
        return (c + dim) % dim;
    return c >= 0 && c < dim ? c : -1;
}

/* Row i against the particles of its 27 neighbour cells. */
static int row_cells(const struct md_ctx *c, const struct md_cells *cl,
                     size_t i, struct row_sum *s)
{
    const int *per = c->sys->box->periodic;
    size_t ci = cl->cell[i];
    int home[3] = {(int)(ci % (size_t)cl->dim[0]),
                   (int)(ci / (size_t)cl->dim[0] % (size_t)cl->dim[1]),
                   (int)(ci / ((size_t)cl->dim[0] * (size_t)cl->dim[1]))};

    for (int oz = -1; oz <= 1; oz++) {
        int z = neighbour(home[2] + oz, cl->dim[2], per[2]);
        for (int oy = -1; oy <= 1 && z >= 0; oy++) {
            int y = neighbour(home[1] + oy, cl->dim[1], per[1]);
            for (int ox = -1; ox <= 1 && y >= 0; ox++) {
                int x = neighbour(home[0] + ox, cl->dim[0], per[0]);
                size_t cell;

                if (x < 0)
                    continue;
                cell = (size_t)x + (size_t)cl->dim[0] *
                       ((size_t)y + (size_t)cl->dim[1] * (size_t)z);
                for (size_t k = cl->start[cell]; k < cl->start[cell + 1]; k++)
                    if (cl->order[k] != i && pair_add(c, i, cl->order[k], s))
                        return 1;
            }
        }
    }
    return 0;
}

/* ---- the sum ------------------------------------------------------------ */

/* The lowest-indexed pair at one point, i its lower index (found by the
 * rows): names both in the message. */
static enum nb_status coincident(const struct md_ctx *c, size_t i,
                                 struct nb_error *err)
{
    double d[3];
    size_t j = 0;

    while (j + 1 < c->sys->n && (j == i || separation(c, i, j, d) != 0.0))
        j++;
    return nb_error_set(err, NB_ERR_NUMERIC, "particles %zu and %zu are at the "
                        "same point (%g, %g, %g): their pair force is "
                        "infinite", i < j ? i : j, i < j ? j : i,
                        c->x[3 * i], c->x[3 * i + 1], c->x[3 * i + 2]);
}

enum nb_status nb_md_cpu_forces(const struct nb_md_system *sys, const double *x,
                                double *f, double *pe, double *vir,
                                struct nb_error *err)
{
    double pairs;
    return nb_md_cpu_forces_counted(sys, x, f, pe, vir, &pairs, err);
}

enum nb_status nb_md_cpu_forces_counted(const struct nb_md_system *sys, const double *x,
                                        double *f, double *pe, double *vir, double *pairs,
                                        struct nb_error *err)
{
    struct md_ctx *c;
    struct md_cells cl = {{0, 0, 0}, 0, NULL, NULL, NULL};
    size_t bad = SIZE_MAX;
    double total = 0.0;
    enum nb_status st = nb_md_system_require(sys, err);

    if (st != NB_OK)
        return st;
    c = nb_alloc(1, sizeof *c, "the MD force context", err);
    if (!c)
        return NB_ERR_NOMEM;
    ctx_init(c, sys, x);
    if (sys->cell_list && (st = cells_build(c, &cl, err)) != NB_OK) {
        free(c);
        return st;
    }
    /* Cell rows differ in cost; small dynamic chunks balance them. */
    #pragma omp parallel for schedule(dynamic, 64) reduction(min:bad) reduction(+:total)
    for (size_t i = 0; i < sys->n; i++) {
        struct row_sum s = {{0.0, 0.0, 0.0}, 0.0, 0.0, 0.0};
        int hit = sys->cell_list ? row_cells(c, &cl, i, &s) : row_all(c, i, &s);

        if (hit && i < bad)
            bad = i;
        for (int k = 0; k < 3; k++)
            f[3 * i + k] = s.f[k];
        pe[i] = 0.5 * s.u;      /* each pair's energy is shared by two */
        vir[i] = 0.5 * s.rf;
        total += s.pairs;
    }
    *pairs = total;
    if (bad != SIZE_MAX)
        st = coincident(c, bad, err);
    cells_free(&cl);
    free(c);
    return st;
}

void nb_md_subtract_excluded(const struct nb_md_system *sys, const double *x,
                             double *f, double *pe, double *vir)
{
    struct md_ctx c;
    int types = sys->pot->types.count;

    if (sys->n_excluded == 0)
        return;
    ctx_init(&c, sys, x);
    for (size_t k = 0; k < sys->n_excluded; k++) {
        size_t i = sys->excluded[2 * k], j = sys->excluded[2 * k + 1];
        double d[3], fr, u;
        double r2 = separation(&c, i, j, d);

        if (!(r2 < c.rc2))
            continue;           /* outside the cutoff: never added */
        nb_md_pair(sys->pot, &c.coeff[(sys->type[i] - 1) * types + sys->type[j] - 1],
                   c.coulomb_shift, charge_of(sys, i) * charge_of(sys, j), r2, &fr, &u);
        for (int a = 0; a < 3; a++) {
            f[3 * i + a] -= fr * d[a];
            f[3 * j + a] += fr * d[a];
        }
        pe[i] -= 0.5 * u;
        pe[j] -= 0.5 * u;
        vir[i] -= 0.5 * fr * r2;
        vir[j] -= 0.5 * fr * r2;
    }
}
