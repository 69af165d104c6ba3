/* nb_omp.h - OpenMP's thread queries, or one thread where the compiler
 * runs without OpenMP (the browser build): the parallel loops are then
 * plain loops, and the counts they ask for are those of one thread. */
#ifndef NB_OMP_H
#define NB_OMP_H

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
#endif

#endif
