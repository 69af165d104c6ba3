/* timing.c - monotonic clock and the median of repeated timings. */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double nb_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* NAN when the copy cannot be allocated: timings are only reported, so a
 * visible NAN is better than a failure path in every caller. */
double nb_median(const double *values, size_t n)
{
    double *copy, median;

    if (n == 0)
        return 0.0;
    copy = malloc(n * sizeof *copy);
    if (!copy)
        return NAN;
    memcpy(copy, values, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_doubles);
    median = n % 2 ? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);
    free(copy);
    return median;
}
