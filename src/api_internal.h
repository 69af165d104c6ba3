/* api_internal.h - what the public handles share among src/api_*.c: the
 * force handle's insides, which a Hermite run borrows, and the argument
 * checks every public call makes.  Not installed. */
#ifndef NB_API_INTERNAL_H
#define NB_API_INTERNAL_H

#include "gl_internal.h"

/* A force engine of the public API: a backend and the context it runs in. */
struct nb_forces {
    struct nb_force_backend b;
    struct nb_gl *gl;               /* NULL for the CPU engine */
    enum nb_engine engine;
    enum nb_precision precision;    /* the mode last set (A by default) */
    enum nb_positions positions;    /* the block steps' position format (ds) */
    size_t n_j;                     /* j-particles of the last set_j, 0: none */
    double *j_set;                  /* their copy: x (3 n_j), v (3 n_j), m (n_j) */
    size_t j_set_size;              /* doubles allocated in j_set */
    int j_stale;                    /* 1: a GA upload replaced the engine's j-set
                                       (the fragment engine shares the stream) */
    enum nb_precision j_precision;  /* the mode the j-set was uploaded in */
    double seconds;                 /* device seconds of the last evaluation */
    char variant[64];               /* the variant the last evaluation ran */
    double *scratch;                /* results the caller did not ask for */
    size_t scratch_size;
    struct nb_g6_block *g6;         /* the j-memory (g6_block.c), NULL until used */
    /* Frees g6 (f's context current); set by g6_block.c with g6, so that
     * destroying a handle needs no call into it (src/ calls stay acyclic). */
    void (*g6_free)(struct nb_g6_block *g6);
};

/* Makes f's context current on this thread (nothing for the CPU). */
enum nb_status nb_api_forces_enter(struct nb_forces *f, struct nb_error *err);

/* NB_ERR_ARGS naming func where f is in a mode B..H that its GAJ kernel
 * does not have (only NB_BACKEND_GAJ_MODES backends do). */
enum nb_status nb_api_gaj_mode_check(const struct nb_forces *f, const char *func,
                                     struct nb_error *err);

/* An empty error for a call made once per particle or block: `= { 0 }`
 * clears all of its 1 KB message each time. */
static inline void nb_error_empty(struct nb_error *e)
{
    e->status = NB_OK;
    e->message[0] = '\0';
}

/* Copies e into out (if not NULL) and returns e's status.  An argument
 * refusal (NB_ERR_ARGS) gets "func: " before its message where it does
 * not start with it: a caller learns which call refused what.  Every other
 * message is the cause as the engine, reader or check words it.  (The
 * building blocks a program assembles its own messages from copy e
 * unchanged: nb_error_copy.) */
enum nb_status nb_api_fail(struct nb_error *out, const struct nb_error *e,
                           const char *func);
/* NB_ERR_ARGS naming func where engine or mode is not one of its enum. */
enum nb_status nb_api_choices(enum nb_engine engine, enum nb_precision mode,
                              const char *func, struct nb_error *err);
/* NB_ERR_ARGS "FUNC: ARG is NULL" where ptr is NULL. */
enum nb_status nb_api_need(const void *ptr, const char *func, const char *arg,
                           struct nb_error *err);
/* NB_ERR_ARGS naming func, arg and the index of the first non-finite value
 * of the count values a. */
enum nb_status nb_api_finite(const double *a, size_t count, const char *func,
                             const char *arg, struct nb_error *err);

#endif
