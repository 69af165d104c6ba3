/* mpi_world.c - the program's MPI layer: per block step, one
 * MPI_Allgatherv of the block's forces (each rank computed its i-slice),
 * or one MPI_Allreduce of partial forces (each rank summed its j-slice:
 * Harfst et al. 2007, as phiGRAPE and phiGPU have it), or nothing (every
 * rank computed the small block whole), as the library's cost model picks;
 * the library calls it through struct nb_partition and knows nothing of
 * MPI.
 *
 * GLNBODY_MPI_SPLIT = auto (default) | whole | i | j forces the choice;
 * GLNBODY_MPI_RATE and GLNBODY_MPI_RATE_H (pairs/s of a GPU in precision
 * A..G and H), GLNBODY_MPI_LATENCY (s a stage), GLNBODY_MPI_BANDWIDTH and
 * GLNBODY_MPI_PCIE (bytes/s) and GLNBODY_MPI_FIXED (s an evaluation) set
 * the model's parameters (struct nb_split_cost).  A bad value stops every
 * rank with one message.
 *
 * Errors: a rank that fails prints its own message and exits through
 * nb_mpi_finish, which calls MPI_Abort; the other ranks, perhaps blocked in
 * an MPI_Allreduce the failed rank will never join, are stopped by it, and
 * mpirun exits with the failed rank's status.  Nothing can hang.
 *
 * GLNBODY_TEST_FAIL_RANK=R (for the tests) makes rank R's first reduction
 * fail, as a GPU error on that rank alone would. */
#include "mpi_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#ifdef NB_HAVE_MPI
#include <mpi.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

static struct {
    int active, rank, ranks;
    struct nb_partition partition;
    int *counts, *displs;       /* MPI_Allgatherv's, one a rank */
} world = { 0, 0, 1, { 0 }, NULL, NULL };

/* An environment variable as a non-negative integer, or -1. */
static int env_int(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long v;

    if (!s || !*s)
        return -1;
    v = strtol(s, &end, 10);
    return *end || v < 0 || v > 1 << 20 ? -1 : (int)v;
}

#ifdef NB_HAVE_MPI
/* The test hook: rank R's first reduction fails. */
static enum nb_status injected_fault(struct nb_error *err)
{
    static int done;
    int rank = env_int("GLNBODY_TEST_FAIL_RANK");

    if (rank != world.rank || done)
        return NB_OK;
    done = 1;
    err->status = NB_ERR_IO;
    snprintf(err->message, sizeof err->message, "rank %d: injected fault in its "
             "first exchange (GLNBODY_TEST_FAIL_RANK=%d, a test hook)", rank, rank);
    return NB_ERR_IO;
}

static enum nb_status allreduce(void *values, size_t count, MPI_Datatype type,
                                struct nb_error *err)
{
    int rc;

    if (injected_fault(err) != NB_OK)
        return err->status;
    if (count > (size_t)0x7fffffff) {
        err->status = NB_ERR_LIMIT;
        snprintf(err->message, sizeof err->message, "MPI_Allreduce of %zu values: "
                 "more than an MPI count holds", count);
        return NB_ERR_LIMIT;
    }
    rc = MPI_Allreduce(MPI_IN_PLACE, values, (int)count, type, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        err->status = NB_ERR_IO;
        snprintf(err->message, sizeof err->message, "rank %d: MPI_Allreduce failed: "
                 "%.*s", world.rank, len, text);
        return NB_ERR_IO;
    }
    return NB_OK;
}

static enum nb_status sum_double(void *user, double *values, size_t count,
                                 struct nb_error *err)
{
    (void)user;
    return allreduce(values, count, MPI_DOUBLE, err);
}

static enum nb_status sum_int64(void *user, int64_t *values, size_t count,
                                struct nb_error *err)
{
    (void)user;
    return allreduce(values, count, MPI_INT64_T, err);
}

/* Every rank's slice of count items of width doubles, from its own. */
static enum nb_status gather_double(void *user, double *values, size_t count,
                                    size_t width, struct nb_error *err)
{
    int rc;

    (void)user;
    if (injected_fault(err) != NB_OK)
        return err->status;
    if (count * width > (size_t)0x7fffffff) {
        err->status = NB_ERR_LIMIT;
        snprintf(err->message, sizeof err->message, "MPI_Allgatherv of %zu values: "
                 "more than an MPI count holds", count * width);
        return NB_ERR_LIMIT;
    }
    for (int r = 0; r < world.ranks; r++) {
        size_t first, end;
        nb_partition_slice(count, world.ranks, r, &first, &end);
        world.counts[r] = (int)((end - first) * width);
        world.displs[r] = (int)(first * width);
    }
    rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, values, world.counts,
                        world.displs, MPI_DOUBLE, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        err->status = NB_ERR_IO;
        snprintf(err->message, sizeof err->message, "rank %d: MPI_Allgatherv failed: "
                 "%.*s", world.rank, len, text);
        return NB_ERR_IO;
    }
    return NB_OK;
}

/* A cost parameter from the environment: unset 0 (the default), else a
 * positive finite number or the run stops. */
static int env_cost(const char *name, double *v)
{
    const char *s = getenv(name);
    char *end;

    *v = 0.0;
    if (!s)
        return 1;
    *v = strtod(s, &end);
    if (*s && !*end && *v > 0.0 && *v < 1e300)
        return 1;
    fprintf(stderr, "glnbody: %s=%s: not a positive number\n", name, s);
    return 0;
}

/* GLNBODY_MPI_SPLIT and the cost parameters into the partition. */
static int read_split_settings(struct nb_partition *p)
{
    static const char *const names[] = { "j", "i", "whole", "auto" };
    const char *s = getenv("GLNBODY_MPI_SPLIT");
    int ok = 0;

    p->split = NB_SPLIT_AUTO;
    for (int k = 0; s && k < 4; k++)
        if (strcmp(s, names[k]) == 0)
            p->split = (enum nb_split)k, ok = 1;
    if (s && !ok) {
        fprintf(stderr, "glnbody: GLNBODY_MPI_SPLIT=%s: not auto, whole, i or j\n", s);
        return 0;
    }
    return env_cost("GLNBODY_MPI_RATE", &p->cost.rate) &&
           env_cost("GLNBODY_MPI_RATE_H", &p->cost.rate_h) &&
           env_cost("GLNBODY_MPI_LATENCY", &p->cost.latency) &&
           env_cost("GLNBODY_MPI_BANDWIDTH", &p->cost.bandwidth) &&
           env_cost("GLNBODY_MPI_PCIE", &p->cost.pcie) &&
           env_cost("GLNBODY_MPI_FIXED", &p->cost.fixed);
}

/* The host's OpenMP threads (the Hermite corrector, the diagnostics):
 * the node's cores shared by its ranks.  libgomp starts one thread per
 * core of the affinity mask, so P unbound ranks (mpirun --bind-to none)
 * would each start one per core of the node, and the oversubscribed
 * cores would double the block loop's host time.
 * OMP_NUM_THREADS, where set, wins. */
static void share_cores(void)
{
#ifdef _OPENMP
    int local = env_int("OMPI_COMM_WORLD_LOCAL_SIZE");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int share = local > 0 ? (int)(cpus / local) : 0;

    if (getenv("OMP_NUM_THREADS") || local < 2 || cpus < 2)
        return;
    if (share < 1)
        share = 1;
    if (share < omp_get_max_threads())
        omp_set_num_threads(share);
#endif
}

/* Started by mpirun (Open MPI, or any PMIx/PMI launcher)? */
static int launched_by_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

void nb_mpi_init(int *argc, char ***argv)
{
    if (!launched_by_mpirun())
        return;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "glnbody: MPI_Init failed\n");
        exit(1);
    }
    world.active = 1;
    share_cores();
    MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world.ranks);
    world.partition = (struct nb_partition){ .ranks = world.ranks, .rank = world.rank,
                                             .sum_double = sum_double,
                                             .sum_int64 = sum_int64,
                                             .gather_double = gather_double,
                                             .split = NB_SPLIT_AUTO };
    world.counts = calloc((size_t)world.ranks, sizeof *world.counts);
    world.displs = calloc((size_t)world.ranks, sizeof *world.displs);
    if (!world.counts || !world.displs) {
        fprintf(stderr, "glnbody: rank %d: out of memory\n", world.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!read_split_settings(&world.partition))
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (world.rank > 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "glnbody: rank %d: cannot silence stdout\n", world.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int nb_mpi_finish(int status)
{
    if (!world.active)
        return status;
    if (status != 0 && world.ranks > 1) {
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    MPI_Finalize();
    free(world.counts), free(world.displs);
    return status;
}
#else
void nb_mpi_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

int nb_mpi_finish(int status)
{
    return status;
}
#endif

int nb_mpi_built(void)
{
#ifdef NB_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

int nb_mpi_rank(void)
{
    return world.rank;
}

int nb_mpi_ranks(void)
{
    return world.ranks;
}

int nb_mpi_active(void)
{
    return world.active;
}

int nb_mpi_device(void)
{
    int local = env_int("OMPI_COMM_WORLD_LOCAL_RANK"), devices;

    if (!world.active || local < 0 || (devices = nb_gl_device_count()) < 1)
        return -1;
    return local % devices;
}

void nb_mpi_say_devices(int device, int quiet)
{
#ifdef NB_HAVE_MPI
    static int devices[4096];

    if (!world.active || world.ranks < 2 || world.ranks > 4096)
        return;
    MPI_Gather(&device, 1, MPI_INT, devices, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (world.rank > 0 || quiet)
        return;
    fprintf(stderr, "glnbody: %d ranks, EGL device of each:", world.ranks);
    for (int r = 0; r < world.ranks; r++)
        if (devices[r] < 0)
            fprintf(stderr, "%s default", r ? "," : "");
        else
            fprintf(stderr, "%s %d", r ? "," : "", devices[r]);
    fputc('\n', stderr);
#else
    (void)device;
    (void)quiet;
#endif
}

const struct nb_partition *nb_mpi_partition(void)
{
    return world.active ? &world.partition : NULL;
}

enum nb_status nb_mpi_check_command(const char *command, struct nb_error *err)
{
#ifndef NB_HAVE_MPI
    /* Started by mpirun on several ranks, each would run the whole job and
     * write the same files. */
    if (env_int("OMPI_COMM_WORLD_SIZE") > 1 || env_int("PMI_SIZE") > 1) {
        err->status = NB_ERR_UNSUPPORTED;
        snprintf(err->message, sizeof err->message, "this glnbody is built without MPI "
                 "(the build did not find pkg-config ompi-c; Debian: libopenmpi-dev), so "
                 "it cannot share %s over ranks; install it and run make again, or start "
                 "glnbody without mpirun", command);
        return NB_ERR_UNSUPPORTED;
    }
#endif
    if (world.ranks < 2 || strcmp(command, "run") == 0 || strcmp(command, "forces") == 0 ||
        strcmp(command, "help") == 0)
        return NB_OK;
    err->status = NB_ERR_ARGS;
    snprintf(err->message, sizeof err->message, "%s does not run j-parallel: under "
             "mpirun only run and forces share their work over ranks (Harfst et al. "
             "2007); start %s with one rank (mpirun -np 1) or without mpirun",
             command, command);
    return NB_ERR_ARGS;
}
