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
 * way the backend finishes its own (precision.c: ldexp(q, -k) / m_i).
 *
 * Every rank holds the whole j-set and the whole block, so a block can
 * also be cut over its i-particles (each rank sums all j for its i-slice,
 * and only results are gathered: no partial sums, a P-th of the device's
 * read-back), or not cut at all (every rank computes it whole: no
 * exchange, whose latency costs more than a small block's force).  Per
 * block, the cost model below picks (enum nb_split of glnbody.h). */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    if ((unsigned)part->split > NB_SPLIT_AUTO)
        return nb_error_set(err, NB_ERR_ARGS, "partition: split %d is not one of "
                            "enum nb_split", (int)part->split);
    if (part->split == NB_SPLIT_I && !part->gather_double)
        return nb_error_set(err, NB_ERR_ARGS, "partition: NB_SPLIT_I needs "
                            "gather_double");
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
                                   double *jerk, double *pot, int sum,
                                   struct nb_error *err)
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
    if (st == NB_OK && sum)
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

/* ---- the cost model ---------------------------------------------------- */

#define DEFAULT_RATE 1.7e12         /* pairs/s, one H200, compute GAJ, mode A */
#define DEFAULT_RATE_H 4.3e11       /* the same in mode H */
#define DEFAULT_LATENCY 2e-5        /* s a stage, the ranks' wait included */
#define DEFAULT_BANDWIDTH 3.3e9     /* bytes/s, MPI through host memory */
#define DEFAULT_PCIE 3.5e9          /* bytes/s over PCIe, the one-GPU fit */
#define DEFAULT_FIXED 1.44e-4       /* s a block: PCIe round trip, launch */
#define RESULT_BYTES 32.0           /* read back a block particle: float a, pot, j */
#define UPDATE_BYTES 104.0          /* its upload once corrected: x, v, a, j, t0 */

static double or_default(double v, double d)
{
    return v > 0.0 && isfinite(v) ? v : d;
}

/* Belleman et al. 2008 eq. 10's t_GPU (pairs / rate) and t_comm (a
 * fixed cost, the upload and the read-back over PCIe), and the exchange:
 * ceil(log2 P) latency stages and the bytes each rank moves (an allreduce
 * 2 (P-1)/P of the message, a gather (P-1)/P of it). */
static double model_one(const struct nb_partition *part, enum nb_split split, int ranks,
                        int h, double ni, double nj)
{
    double rate = h ? or_default(part->cost.rate_h, DEFAULT_RATE_H)
                    : or_default(part->cost.rate, DEFAULT_RATE);
    double alpha = or_default(part->cost.latency, DEFAULT_LATENCY);
    double bw = or_default(part->cost.bandwidth, DEFAULT_BANDWIDTH);
    double pcie = or_default(part->cost.pcie, DEFAULT_PCIE);
    double p = ranks > 1 ? ranks : 1, stages = ceil(log2(p)), share = (p - 1) / p;
    /* the same on every rank whatever the split: the choice ignores it */
    double every = or_default(part->cost.fixed, DEFAULT_FIXED) + ni * UPDATE_BYTES / pcie;

    if (ranks <= 1 || split == NB_SPLIT_WHOLE)
        return every + ni * nj / rate + ni * RESULT_BYTES / pcie;
    if (split == NB_SPLIT_I) {
        double mine = ceil(ni / p);
        return every + mine * nj / rate + mine * RESULT_BYTES / pcie + alpha * stages +
               share * 56.0 * ni / bw;
    }
    return every + ni * ceil(nj / p) / rate + ni * RESULT_BYTES / pcie + alpha * stages +
           2.0 * share * 64.0 * ni / bw;
}

/* The choice for P ranks: the fastest of WHOLE, I (J where nothing can
 * gather) under AUTO, else the split asked for. */
static enum nb_split choose(const struct nb_partition *part, int ranks, int h, size_t n_i,
                            size_t n_j)
{
    enum nb_split cut = part->gather_double ? NB_SPLIT_I : NB_SPLIT_J;

    if (part->split != NB_SPLIT_AUTO)
        return part->split;
    if (ranks <= 1)
        return NB_SPLIT_WHOLE;
    return model_one(part, cut, ranks, h, (double)n_i, (double)n_j) <
           model_one(part, NB_SPLIT_WHOLE, ranks, h, (double)n_i, (double)n_j) ?
           cut : NB_SPLIT_WHOLE;
}

enum nb_split nb_partition_choose(const struct nb_partition *part, enum nb_precision mode,
                                  size_t n_i, size_t n_j)
{
    return choose(part, part->ranks, mode == NB_PRECISION_H, n_i, n_j);
}

double nb_partition_model(const struct nb_partition *part, enum nb_split split, int ranks,
                          enum nb_precision mode, size_t n_i, size_t n_j)
{
    int h = mode == NB_PRECISION_H;

    if (split == NB_SPLIT_AUTO) {
        struct nb_partition auto_part = *part;
        auto_part.split = NB_SPLIT_AUTO;
        split = choose(&auto_part, ranks, h, n_i, n_j);
    }
    return model_one(part, split, ranks, h, (double)n_i, (double)n_j);
}

/* ---- the three ways of sharing a block --------------------------------- */

/* The whole block on this rank, no exchange. */
static enum nb_status whole_block(struct nb_force_backend *b, double eps, const double *m,
                                  size_t na, const uint32_t *active, double *acc,
                                  double *jerk, double *pot, struct nb_error *err)
{
    if (b->set_j_range)
        b->set_j_range(b->state, 0, SIZE_MAX);
    if (b->compute_gaj(b->state, eps, na, active, err) != NB_OK)
        return err->status;
    if (precision_h(b))
        return reduce_fixed(b, m, na, active, acc, jerk, pot, 0, err);
    return b->read_gaj(b->state, acc, jerk, pot, err);
}

/* This rank's i-slice against every j, then the results gathered. */
static enum nb_status i_split(struct nb_force_backend *b, double eps, const double *m,
                              size_t na, const uint32_t *active, double *acc,
                              double *jerk, double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    size_t first, end;
    double *buf = nb_alloc(na, 7 * sizeof *buf, "the gathered forces", err);
    enum nb_status st = buf ? NB_OK : NB_ERR_NOMEM;
    double t0;

    nb_partition_slice(na, part->ranks, part->rank, &first, &end);
    if (st == NB_OK && end > first)
        st = whole_block(b, eps, m, end - first, active + first, acc + 3 * first,
                         jerk + 3 * first, pot + first, err);
    for (size_t k = first; st == NB_OK && k < end; k++) {
        memcpy(buf + 7 * k, acc + 3 * k, 3 * sizeof *buf);
        memcpy(buf + 7 * k + 3, jerk + 3 * k, 3 * sizeof *buf);
        buf[7 * k + 6] = pot[k];
    }
    t0 = nb_clock_seconds();
    if (st == NB_OK)
        st = part->gather_double(part->user, buf, na, 7, err);
    b->partition_seconds += nb_clock_seconds() - t0;
    for (size_t k = 0; st == NB_OK && k < na; k++) {
        memcpy(acc + 3 * k, buf + 7 * k, 3 * sizeof *buf);
        memcpy(jerk + 3 * k, buf + 7 * k + 3, 3 * sizeof *buf);
        pot[k] = buf[7 * k + 6];
    }
    free(buf);
    return st;
}

/* This rank's j-slice for the whole block, the partial sums added. */
static enum nb_status j_split(struct nb_force_backend *b, double eps, size_t n,
                              const double *m, size_t na, const uint32_t *active,
                              double *acc, double *jerk, double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    size_t first, end;

    nb_partition_slice(n, part->ranks, part->rank, &first, &end);
    if (b->set_j_range)
        b->set_j_range(b->state, first, end);
    if (b->compute_gaj(b->state, eps, na, active, err) != NB_OK)
        return err->status;
    if (precision_h(b))
        return reduce_fixed(b, m, na, active, acc, jerk, pot, 1, err);
    return reduce_double(b, na, acc, jerk, pot, err);
}

enum nb_status nb_partition_gaj(struct nb_force_backend *b, double eps, size_t n,
                                const double *m, size_t n_active,
                                const uint32_t *active, double *acc, double *jerk,
                                double *pot, struct nb_error *err)
{
    const struct nb_partition *part = &b->partition;
    enum nb_precision mode = precision_h(b) ? NB_PRECISION_H : NB_PRECISION_A;
    enum nb_split split = nb_partition_choose(part, mode, n_active, n);

    for (int k = 0; k < 4; k++)
        b->partition_model[k] += nb_partition_model(part, NB_SPLIT_AUTO, 1 << k, mode,
                                                    n_active, n);
    b->partition_blocks[split]++;
    if (split == NB_SPLIT_WHOLE)
        return whole_block(b, eps, m, n_active, active, acc, jerk, pot, err);
    if (split == NB_SPLIT_I)
        return i_split(b, eps, m, n_active, active, acc, jerk, pot, err);
    return j_split(b, eps, n, m, n_active, active, acc, jerk, pot, err);
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
