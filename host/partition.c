/* partition.c - a j-parallel force evaluation (Harfst et al. 2007): this
 * rank sums the forces on the whole block from its slice of the
 * j-particles, and the caller's callback adds the partial sums over the
 * ranks (struct nb_partition of glnbody.h).
 *
 * One callback per evaluation, carrying everything: 7 doubles per block
 * particle (acc, jerk, pot), or in precision H the kernel's exact int64
 * words, 8 per particle.  Integer sums do not depend on the order nor on
 * how the j-set was cut, and the fixed-point scales come from the whole
 * j-set (gaj_precision.c), the same on every rank; so precision H gives
 * the same bits for any number of ranks.  The words are finished here the
 * way the backend finishes its own (precision.c: ldexp(q, -k) / m_i). */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>

void nb_partition_slice(size_t n, int ranks, int rank, size_t *first, size_t *end)
{
    size_t p = ranks > 0 ? (size_t)ranks : 1, r = rank > 0 ? (size_t)rank : 0;

    r = r < p ? r : p - 1;
    /* n r / P without overflow for any n that fits memory */
    *first = n / p * r + n % p * r / p;
    *end = n / p * (r + 1) + n % p * (r + 1) / p;
}

enum nb_status nb_partition_attach(struct nb_force_backend *b,
                                   const struct nb_partition *part,
                                   struct nb_error *err)
{
    if (!part) {
        b->partition = (struct nb_partition){ 0 };
        if (b->set_j_range)
            b->set_j_range(b->state, 0, SIZE_MAX);
        return NB_OK;
    }
    if (part->ranks < 1 || part->rank < 0 || part->rank >= part->ranks)
        return nb_error_set(err, NB_ERR_ARGS, "partition: rank %d of %d ranks is "
                            "not 0..ranks-1", part->rank, part->ranks);
    if (!part->sum_double || !part->sum_int64)
        return nb_error_set(err, NB_ERR_ARGS, "partition: sum_double and sum_int64 "
                            "are both needed");
    if (part->ranks > 1 && !b->set_j_range)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the %s backend cannot sum a "
                            "slice of the j-particles: a j-parallel run over %d ranks "
                            "needs another backend", b->name, part->ranks);
    if (!b->compute_gaj || !b->read_gaj || !b->set_j)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the %s backend has no GAJ "
                            "kernel: a j-parallel run needs it", b->name);
    b->partition = *part;
    return NB_OK;
}

static int precision_h(const struct nb_force_backend *b)
{
    return b->get_precision && b->get_precision(b->state) == NB_PRECISION_H;
}

/* The int64 words of precision H, added over the ranks and finished. */
static enum nb_status reduce_fixed(struct nb_force_backend *b, const double *m,
                                   size_t na, const uint32_t *active, double *acc,
                                   double *jerk, double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    int log2[3];
    int64_t *w = nb_alloc(na, 8 * sizeof *w, "the partial fixed-point sums", err);
    enum nb_status st;
    double t0;

    if (!w)
        return NB_ERR_NOMEM;
    if (!b->read_gaj_fixed) {
        free(w);
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "the %s backend cannot give its "
                            "precision-H sums as integers", b->name);
    }
    st = b->read_gaj_fixed(b->state, w, log2, err);
    t0 = nb_clock_seconds();
    if (st == NB_OK)
        st = part->sum_int64(part->user, w, 8 * na, err);
    b->partition_seconds += nb_clock_seconds() - t0;
    for (size_t k = 0; st == NB_OK && k < na; k++) {
        const int64_t *q = w + 8 * k;
        double m_i = m[active[k]];

        for (int c = 0; c < 3; c++) {
            acc[3 * k + c] = ldexp((double)q[c], -log2[0]) / m_i;
            jerk[3 * k + c] = ldexp((double)q[4 + c], -log2[2]) / m_i;
        }
        pot[k] = ldexp((double)q[3], -log2[1]) / m_i;
    }
    free(w);
    return st;
}

/* The partial acc, jerk, pot packed 7 a particle, added over the ranks. */
static enum nb_status reduce_double(struct nb_force_backend *b, size_t na, double *acc,
                                    double *jerk, double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    double *buf = nb_alloc(na, 7 * sizeof *buf, "the partial force sums", err);
    enum nb_status st;
    double t0;

    if (!buf)
        return NB_ERR_NOMEM;
    st = b->read_gaj(b->state, acc, jerk, pot, err);
    for (size_t k = 0; st == NB_OK && k < na; k++) {
        for (int c = 0; c < 3; c++) {
            buf[7 * k + c] = acc[3 * k + c];
            buf[7 * k + 3 + c] = jerk[3 * k + c];
        }
        buf[7 * k + 6] = pot[k];
    }
    t0 = nb_clock_seconds();
    if (st == NB_OK)
        st = part->sum_double(part->user, buf, 7 * na, err);
    b->partition_seconds += nb_clock_seconds() - t0;
    for (size_t k = 0; st == NB_OK && k < na; k++) {
        for (int c = 0; c < 3; c++) {
            acc[3 * k + c] = buf[7 * k + c];
            jerk[3 * k + c] = buf[7 * k + 3 + c];
        }
        pot[k] = buf[7 * k + 6];
    }
    free(buf);
    return st;
}

enum nb_status nb_partition_gaj(struct nb_force_backend *b, double eps, size_t n,
                                const double *m, size_t n_active,
                                const uint32_t *active, double *acc, double *jerk,
                                double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    size_t first, end;

    nb_partition_slice(n, part->ranks, part->rank, &first, &end);
    if (b->set_j_range)
        b->set_j_range(b->state, first, end);
    if (b->compute_gaj(b->state, eps, n_active, active, err) != NB_OK)
        return err->status;
    if (precision_h(b))
        return reduce_fixed(b, m, n_active, active, acc, jerk, pot, err);
    return reduce_double(b, n_active, acc, jerk, pot, err);
}

enum nb_status nb_partition_ga(struct nb_force_backend *b, size_t n, const double *x,
                               const double *m, double eps, double *acc, double *pot,
                               struct nb_error *err)
{
    double *v = nb_alloc(n, 3 * sizeof *v, "zero velocities", err);
    double *a = v ? nb_alloc(n, 3 * sizeof *a, "accelerations", err) : NULL;
    double *j = a ? nb_alloc(n, 3 * sizeof *j, "jerks", err) : NULL;
    double *phi = j ? nb_alloc(n, sizeof *phi, "potentials", err) : NULL;
    uint32_t *active = phi ? nb_alloc(n, sizeof *active, "the i-particles", err) : NULL;
    enum nb_status st = active ? NB_OK : NB_ERR_NOMEM;

    for (size_t i = 0; st == NB_OK && i < n; i++)
        active[i] = (uint32_t)i;
    if (st == NB_OK && n > 0)
        st = b->set_j(b->state, n, x, v, m, err);
    if (st == NB_OK && n > 0)
        st = nb_partition_gaj(b, eps, n, m, n, active, a, j, phi, err);
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        for (int c = 0; c < 3 && acc; c++)
            acc[3 * i + c] = a[3 * i + c];
        if (pot)
            pot[i] = phi[i];
    }
    free(v), free(a), free(j), free(phi), free(active);
    return st;
}
