/* potential.c - the potential energy W = 1/2 sum_i m_i phi_i in double, for
 * the energy diagnostics and the Henon scaling of initial conditions.
 *
 * Both are O(n^2) sums that must be exact to far below the integrator's
 * energy error.  The CPU reference does them in double; a backend whose
 * GA kernel has precision G (seed 004: double pair terms, double sums;
 * f_err ~1e-15) does them as well on the GPU, and there they are cheap:
 * a GPU's fp64 units do the O(n^2) sum far faster than the host's cores.
 * So the backend is asked first, the CPU is the fallback.
 */
#include "nb_host.h"

#include <stdint.h>
#include <stdlib.h>

/* phi (n) from the backend's GA in precision G; NB_ERR_UNSUPPORTED where
 * it has no such mode.  Leaves the backend in the precision it had (A
 * without get_precision), so that a run's GAJ mode survives its energy
 * diagnostics. */
static enum nb_status backend_potentials(struct nb_force_backend *b, size_t n,
                                         const double *x, const double *m,
                                         double eps, double *acc, double *pot,
                                         struct nb_error *err)
{
    enum nb_status st;
    enum nb_precision before;

    if (!b || !b->set_precision)
        return NB_ERR_UNSUPPORTED;
    before = b->get_precision ? b->get_precision(b->state) : NB_PRECISION_A;
    st = b->set_precision(b->state, NB_PRECISION_G, err);
    if (st == NB_OK)
        st = b->set_particles(b->state, n, x, m, err);
    if (st == NB_OK)
        st = b->compute(b->state, NB_KERNEL_GA, eps, err);
    if (st == NB_OK)
        st = b->read(b->state, acc, pot, err);
    if (b->set_precision(b->state, before, err) != NB_OK && st == NB_OK)
        st = err->status;
    return st;
}

/* Under a partition of P > 1 ranks, each rank evaluates its i-slice of
 * phi and the slices are gathered through the partition's sum: every
 * entry is one rank's value plus zeros, exact in any order, so every rank
 * holds the bits one rank alone would compute.  The scaling of a Plummer
 * sphere and E0 then stay the same for any P, and P GPUs share the
 * O(n^2) work.  Collective: every
 * rank must make the same calls. */
static enum nb_status shared_potentials(struct nb_force_backend *b, size_t n,
                                        const double *x, const double *m,
                                        double eps, double *acc, double *pot,
                                        struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    struct nb_error quiet = { 0 };
    size_t first, end;
    enum nb_status st;

    nb_partition_slice(n, part->ranks, part->rank, &first, &end);
    b->set_i_range(b->state, first, end);
    st = backend_potentials(b, n, x, m, eps, acc, pot, &quiet);
    b->set_i_range(b->state, 0, SIZE_MAX);
    if (st == NB_ERR_UNSUPPORTED)
        st = nb_cpu_ga(n, x, m, eps, acc, pot, err);
    else if (st != NB_OK)
        *err = quiet;
    if (st != NB_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        if (i < first || i >= end)
            pot[i] = 0.0;
    return part->sum_double(part->user, pot, n, err);
}

static int shared(const struct nb_force_backend *b)
{
    return b && b->partition.ranks > 1 && b->set_i_range && b->partition.sum_double;
}

enum nb_status nb_potential_energy(struct nb_force_backend *b, size_t n,
                                   const double *x, const double *m, double eps,
                                   double *w, struct nb_error *err)
{
    double *acc = nb_alloc(n, 3 * sizeof *acc, "potential-energy forces", err);
    double *pot = acc ? nb_alloc(n, sizeof *pot, "potentials", err) : NULL;
    struct nb_error quiet = { 0 };
    enum nb_status st = NB_ERR_NOMEM;

    if (pot && shared(b)) {
        st = shared_potentials(b, n, x, m, eps, acc, pot, err);
    } else if (pot) {
        st = backend_potentials(b, n, x, m, eps, acc, pot, &quiet);
        if (st == NB_ERR_UNSUPPORTED)
            st = nb_cpu_ga(n, x, m, eps, acc, pot, err);
        else if (st != NB_OK)
            *err = quiet;
    }
    if (st == NB_OK) {
        double sum = 0.0;

        for (size_t i = 0; i < n; i++)
            sum += 0.5 * m[i] * pot[i];
        *w = sum;
    }
    free(acc);
    free(pot);
    return st;
}
