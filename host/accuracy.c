/* accuracy.c - error of a force result against the CPU reference. */
#include <math.h>

#include "nb_host.h"

/* |d| / scale, where a zero scale allows only a zero difference. */
static double relative(double d, double scale)
{
    return scale > 0.0 ? d / scale : d > 0.0 ? INFINITY : 0.0;
}

void nb_accuracy_ga(size_t n, const double *m, const double *acc,
                    const double *pot, const double *ref_acc,
                    const double *ref_pot, const double *acc_abs,
                    const double *pot_abs, struct nb_accuracy *out)
{
    double err_sum = 0.0, ref_sum = 0.0, force_sum = 0.0, total[3] = { 0 };
    *out = (struct nb_accuracy){ 0 };
    for (size_t i = 0; i < n; i++) {
        const double *a = acc + 3 * i, *r = ref_acc + 3 * i;
        if (!isfinite(a[0]) || !isfinite(a[1]) || !isfinite(a[2]) || !isfinite(pot[i])) {
            out->nonfinite++;
            continue;
        }
        double da = sqrt((a[0] - r[0]) * (a[0] - r[0]) + (a[1] - r[1]) * (a[1] - r[1]) +
                         (a[2] - r[2]) * (a[2] - r[2]));
        double ra = relative(da, acc_abs[i]);
        double rp = relative(fabs(pot[i] - ref_pot[i]), pot_abs[i]);
        if (ra > out->acc_rel_max)
            out->acc_rel_max = ra, out->acc_worst = i;
        if (rp > out->pot_rel_max)
            out->pot_rel_max = rp;
        err_sum += m[i] * da;
        ref_sum += m[i] * sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        force_sum += m[i] * sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        for (int d = 0; d < 3; d++)
            total[d] += m[i] * a[d];
    }
    out->f_err = relative(err_sum, ref_sum);
    out->f_offset = relative(sqrt(total[0] * total[0] + total[1] * total[1] +
                                  total[2] * total[2]), force_sum);
}
