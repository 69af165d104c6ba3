/* mpi_world.h - the program's MPI layer (mpi_world.c): j-parallel `run`
 * and `forces` over Open MPI (Harfst et al. 2007).  Built with MPI when
 * the Makefile's NB_MPI is 1 (the default where mpicc is there); without
 * it, or when the program was not started by mpirun, there is one rank and
 * every function below says so: the program behaves as it always did.
 * Calls only the public API (glnbody.h). */
#ifndef NB_MPI_WORLD_H
#define NB_MPI_WORLD_H

#include "glnbody.h"

/* MPI_Init where mpirun started the process (Open MPI's or PMIx's
 * environment); ranks > 0 send stdout to /dev/null: rank 0 alone reports. */
void nb_mpi_init(int *argc, char ***argv);
/* The program's exit: MPI_Finalize, or, where status is not 0 and other
 * ranks exist, MPI_Abort with it, so that a rank that failed alone (its
 * message already on its stderr) stops the others, which may be waiting
 * for it in an MPI_Allreduce.  Returns status. */
int nb_mpi_finish(int status);

/* 1 in a program built with MPI (make NB_MPI=1, the default). */
int nb_mpi_built(void);
/* This process's rank and the number of ranks (0 and 1 without MPI). */
int nb_mpi_rank(void);
int nb_mpi_ranks(void);
/* 1 when started by mpirun in a binary built with MPI (even with -np 1). */
int nb_mpi_active(void);
/* The EGL device of this rank when --gpu does not say: Open MPI's
 * node-local rank modulo the devices there; -1 (the first that works)
 * without MPI or without EGL device enumeration. */
int nb_mpi_device(void);
/* The j-parallel partition over MPI_COMM_WORLD (its callbacks are
 * MPI_Allreduce of doubles and of int64 words), or NULL without MPI. */
/* Collective: rank 0 prints which EGL device (-1: the default display)
 * each rank opened, unless quiet; nothing without mpirun. */
void nb_mpi_say_devices(int device, int quiet);
const struct nb_partition *nb_mpi_partition(void);
/* NB_ERR_ARGS for a command that does not run j-parallel (all but run
 * and forces) started on several ranks: each rank would run it alone and
 * write the same files. */
enum nb_status nb_mpi_check_command(const char *command, struct nb_error *err);

#endif
