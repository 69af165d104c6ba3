/* mpi_allreduce_bench.c - the cost of the one MPI_Allreduce per block step
 * of a j-parallel run (Harfst et al. 2007), alone: MPI_SUM of n_b block
 * particles' partial sums, 7 doubles each (56 bytes; precision H: 8 int64,
 * 64 bytes), for block sizes 1..2^18, on all ranks of MPI_COMM_WORLD.  The
 * median of many calls, after a barrier each, rank 0 prints CSV:
 *   ranks,block,bytes,type,median_us,min_us
 * for tools/bench/fit_mpi_model.py (t = alpha ceil(log2 P) + 2 (P-1)/P m / B).
 * Built by `make build/mpi_allreduce_bench`; run under mpirun. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and minimum of `reps` calls of count values of type. */
static void measure(void *buf, int count, MPI_Datatype type, int reps, double *median,
                    double *min)
{
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int k = 0; k < reps; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allreduce(MPI_IN_PLACE, buf, count, type, MPI_SUM, MPI_COMM_WORLD);
        t[k] = MPI_Wtime() - t0;
    }
    /* the slowest rank's time of each call, as the block step waits for it */
    MPI_Allreduce(MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    qsort(t, (size_t)reps, sizeof *t, compare);
    *median = t[reps / 2];
    *min = t[0];
    free(t);
}

int main(int argc, char **argv)
{
    int rank, ranks, max_block = argc > 1 ? atoi(argv[1]) : 1 << 18;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    void *buf = calloc((size_t)max_block, 64);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("ranks,block,bytes,type,median_us,min_us\n");
    for (int block = 1; block <= max_block; block *= 4) {
        int reps = block <= 4096 ? 200 : 40;
        double med, min;
        measure(buf, 7 * block, MPI_DOUBLE, reps, &med, &min);
        if (rank == 0)
            printf("%d,%d,%d,double,%.3f,%.3f\n", ranks, block, 56 * block, 1e6 * med,
                   1e6 * min);
        measure(buf, 8 * block, MPI_INT64_T, reps, &med, &min);
        if (rank == 0)
            printf("%d,%d,%d,int64,%.3f,%.3f\n", ranks, block, 64 * block, 1e6 * med,
                   1e6 * min);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
