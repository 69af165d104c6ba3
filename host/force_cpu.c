/* force_cpu.c - the double-precision reference forces.
 *
 * Newton's third law halves the work: each pair (i, j > i) is evaluated
 * once and applied to both particles.  Rows i are split into a fixed number
 * of blocks that depends on n only, never on the thread count; each block
 * accumulates into its own buffer in a fixed order, and the buffers are
 * summed in block order.  The result is therefore bit-identical whatever
 * OMP_NUM_THREADS says.
 *
 * The self-pair j == i never occurs (j runs from i + 1), so eps = 0 is fine
 * for distinct positions.  Two distinct particles at the same place with
 * eps = 0 are physically singular: their potential is -inf and their
 * acceleration NaN (0 * inf); we do not hide that.
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKS 64
#define MIN_ROWS_PER_BLOCK 32
/* Bound on the private buffers, 4 doubles a particle a block. */
#define BUFFER_BYTES_MAX ((size_t)256 << 20)

/* Accumulation target of one block: acc (3n) and pot (n). */
struct block_out {
    double *acc;
    double *pot;
};

static size_t block_count(size_t n)
{
    size_t by_rows = n / MIN_ROWS_PER_BLOCK;
    size_t by_memory = BUFFER_BYTES_MAX / (4 * sizeof(double)) / (n ? n : 1);
    size_t blocks = MAX_BLOCKS;

    if (by_rows < blocks)
        blocks = by_rows;
    if (by_memory < blocks)
        blocks = by_memory;
    return blocks ? blocks : 1;
}

/* start[0..blocks]: row boundaries giving each block about the same number
 * of pairs (row i holds n - 1 - i of them). */
static void split_rows(size_t n, size_t blocks, size_t *start)
{
    uint64_t total = (uint64_t)n * (n - 1) / 2, done = 0;
    size_t b = 1;

    start[0] = 0;
    for (size_t i = 0; i < n; i++) {
        while (b < blocks && done * blocks >= b * total)
            start[b++] = i;
        done += n - 1 - i;
    }
    while (b <= blocks)
        start[b++] = n;
}

/* Rows lo..hi-1 against every j > i, into out (already zeroed). */
static void block_ga(size_t lo, size_t hi, size_t n, const double *x,
                     const double *m, double eps2, struct block_out out)
{
    for (size_t i = lo; i < hi; i++) {
        const double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
        const double mi = m[i];
        double ax = 0.0, ay = 0.0, az = 0.0, phi = 0.0;

        for (size_t j = i + 1; j < n; j++) {
            double dx = x[3 * j] - xi, dy = x[3 * j + 1] - yi;
            double dz = x[3 * j + 2] - zi;
            double rinv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + eps2);
            double rinv3 = rinv * rinv * rinv;
            double fx = dx * rinv3, fy = dy * rinv3, fz = dz * rinv3;

            ax += m[j] * fx;
            ay += m[j] * fy;
            az += m[j] * fz;
            phi -= m[j] * rinv;
            out.acc[3 * j] -= mi * fx;
            out.acc[3 * j + 1] -= mi * fy;
            out.acc[3 * j + 2] -= mi * fz;
            out.pot[j] -= mi * rinv;
        }
        out.acc[3 * i] += ax;
        out.acc[3 * i + 1] += ay;
        out.acc[3 * i + 2] += az;
        out.pot[i] += phi;
    }
}

/* Block 0 writes into (acc, pot) directly; block b > 0 into buf. */
static struct block_out block_target(size_t b, size_t n, double *buf,
                                     double *acc, double *pot)
{
    struct block_out out = {acc, pot};

    if (b > 0) {
        out.acc = buf + (b - 1) * 4 * n;
        out.pot = out.acc + 3 * n;
    }
    return out;
}

/* acc/pot += the buffers of blocks 1..blocks-1, in block order. */
static void reduce_blocks(size_t n, size_t blocks, const double *buf,
                          double *acc, double *pot)
{
    #pragma omp parallel for schedule(static)
    for (size_t k = 0; k < 4 * n; k++) {
        double *dst = k < 3 * n ? &acc[k] : &pot[k - 3 * n];
        double sum = *dst;

        for (size_t b = 1; b < blocks; b++)
            sum += buf[(b - 1) * 4 * n + k];
        *dst = sum;
    }
}

enum nb_status nb_cpu_ga(size_t n, const double *x, const double *m,
                         double eps, double *acc, double *pot,
                         struct nb_error *err)
{
    size_t blocks = block_count(n);
    size_t start[MAX_BLOCKS + 1];
    double *buf = NULL;

    if (n == 0)
        return NB_OK;
    if (blocks > 1) {
        buf = nb_alloc((blocks - 1) * 4, n * sizeof *buf,
                       "the CPU force buffers", err);
        if (!buf)
            return NB_ERR_NOMEM;
    }
    memset(acc, 0, 3 * n * sizeof *acc);
    memset(pot, 0, n * sizeof *pot);
    split_rows(n, blocks, start);

    #pragma omp parallel for schedule(dynamic, 1)
    for (size_t b = 0; b < blocks; b++)
        block_ga(start[b], start[b + 1], n, x, m, eps * eps,
                 block_target(b, n, buf, acc, pot));

    reduce_blocks(n, blocks, buf, acc, pot);
    free(buf);
    return NB_OK;
}

/* One row of the magnitude sums, j != i, in j order. */
static void row_magnitudes(size_t i, size_t n, const double *x,
                           const double *m, double eps2, double *acc_abs,
                           double *pot_abs)
{
    double sa = 0.0, sp = 0.0;

    for (size_t j = 0; j < n; j++) {
        double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1];
        double dz = x[3 * j + 2] - x[3 * i + 2];
        double r2 = dx * dx + dy * dy + dz * dz;
        double rinv;

        if (j == i)
            continue;
        rinv = 1.0 / sqrt(r2 + eps2);
        sa += m[j] * sqrt(r2) * rinv * rinv * rinv;
        sp += m[j] * rinv;
    }
    acc_abs[i] = sa;
    pot_abs[i] = sp;
}

enum nb_status nb_cpu_ga_magnitudes(size_t n, const double *x,
                                    const double *m, double eps,
                                    double *acc_abs, double *pot_abs,
                                    struct nb_error *err)
{
    (void)err;  /* nothing to allocate; kept for the common signature */

    #pragma omp parallel for schedule(dynamic, 64)
    for (size_t i = 0; i < n; i++)
        row_magnitudes(i, n, x, m, eps * eps, acc_abs, pot_abs);
    return NB_OK;
}

/* ---- GAJ: acceleration, jerk and potential of an i-block --------------- */

/* One i-particle against every j != i, summed in j order: the sum is the
 * same whatever thread runs it, so the result is deterministic. */
static void row_gaj(size_t i, size_t j_first, size_t j_end, const double *x,
                    const double *v, const double *m, double eps2, double *acc,
                    double *jerk, double *pot)
{
    double a[3] = {0.0, 0.0, 0.0}, jk[3] = {0.0, 0.0, 0.0}, phi = 0.0;

    for (size_t j = j_first; j < j_end; j++) {
        double dx[3], dv[3], r2 = eps2, rv = 0.0;

        if (j == i)             /* self excluded by index: eps = 0 works */
            continue;
        for (int c = 0; c < 3; c++) {
            dx[c] = x[3 * j + c] - x[3 * i + c];
            dv[c] = v[3 * j + c] - v[3 * i + c];
            r2 += dx[c] * dx[c];
            rv += dx[c] * dv[c];
        }
        double rinv = 1.0 / sqrt(r2);
        double mr3 = m[j] * rinv * rinv * rinv;
        double alpha = 3.0 * rv * rinv * rinv;

        for (int c = 0; c < 3; c++) {
            a[c] += mr3 * dx[c];
            jk[c] += mr3 * (dv[c] - alpha * dx[c]);
        }
        phi -= m[j] * rinv;
    }
    for (int c = 0; c < 3; c++) {
        acc[c] = a[c];
        jerk[c] = jk[c];
    }
    *pot = phi;
}

enum nb_status nb_cpu_gaj(size_t n, const double *x, const double *v,
                          const double *m, double eps, size_t n_active,
                          const uint32_t *active, double *acc, double *jerk,
                          double *pot, struct nb_error *err)
{
    return nb_cpu_gaj_slice(n, x, v, m, eps, 0, n, n_active, active, acc, jerk,
                            pot, err);
}

enum nb_status nb_cpu_gaj_slice(size_t n, const double *x, const double *v,
                                const double *m, double eps, size_t j_first,
                                size_t j_end, size_t n_active,
                                const uint32_t *active, double *acc, double *jerk,
                                double *pot, struct nb_error *err)
{
    j_end = j_end < n ? j_end : n;
    j_first = j_first < j_end ? j_first : j_end;
    for (size_t k = 0; k < n_active; k++)
        if (active[k] >= n)
            return nb_error_set(err, NB_ERR_ARGS, "GAJ: active[%zu] = %lu is "
                                "not below the %zu j-particles", k,
                                (unsigned long)active[k], n);

    /* Rows cost the same (every row sees all n), so a static split is
     * balanced; small blocks stay on one thread to skip the fork cost. */
    #pragma omp parallel for schedule(static) if (n_active * (j_end - j_first) > 32768)
    for (size_t k = 0; k < n_active; k++)
        row_gaj(active[k], j_first, j_end, x, v, m, eps * eps, &acc[3 * k],
                &jerk[3 * k], &pot[k]);
    return NB_OK;
}

static void row_gaj_magnitudes(size_t i, size_t n, const double *x, const double *v,
                               const double *m, double eps2, double *acc_abs,
                               double *jerk_abs)
{
    double sa = 0.0, sj = 0.0;
    for (size_t j = 0; j < n; j++) {
        double r2 = 0.0, rv = 0.0, v2 = 0.0;
        if (j == i)
            continue;
        for (int c = 0; c < 3; c++) {
            double d = x[3 * j + c] - x[3 * i + c], w = v[3 * j + c] - v[3 * i + c];
            r2 += d * d;
            rv += d * w;
            v2 += w * w;
        }
        double s = r2 + eps2, rinv = 1.0 / sqrt(s), mr3 = m[j] * rinv * rinv * rinv;
        sa += mr3 * sqrt(r2);
        sj += mr3 * (sqrt(v2) + 3.0 * fabs(rv) * sqrt(r2) / s);
    }
    *acc_abs = sa;
    *jerk_abs = sj;
}

void nb_cpu_gaj_magnitudes(size_t n, const double *x, const double *v, const double *m,
                           double eps, size_t n_active, const uint32_t *active,
                           double *acc_abs, double *jerk_abs)
{
    #pragma omp parallel for schedule(static) if (n_active * n > 32768)
    for (size_t k = 0; k < n_active; k++)
        row_gaj_magnitudes(active[k], n, x, v, m, eps * eps, &acc_abs[k], &jerk_abs[k]);
}
