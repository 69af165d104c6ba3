/* nb_md_run.h - molecular dynamics runs: engines, the velocity Verlet
 * integrator and its simulation, thermo, lattices and trajectory files. */
#ifndef NB_MD_RUN_H
#define NB_MD_RUN_H

#include "nb_md.h"

/* ---- molecular dynamics: engines and velocity Verlet (seed 002) -------- */

/* What an MD engine can do beyond its vtable: bits of nb_md_engine.caps. */
enum nb_md_engine_caps {
    NB_MD_ENGINE_CELL_LISTS = 1u << 0   /* sums through cell lists
                                           (nb_md_system.cell_list) */
};

/* A force engine for MD: cpu, compute or fragment. */
struct nb_md_engine {
    const char *name;
    void *state;
    unsigned caps;          /* enum nb_md_engine_caps bits */
    /* Takes the system (copied: the caller may free its arrays). */
    enum nb_status (*setup)(void *state, const struct nb_md_system *sys,
                            struct nb_error *err);
    /* Forces, energies and virials (as nb_md_cpu_forces) at x. */
    enum nb_status (*forces)(void *state, const double *x, double *f,
                             double *pe, double *vir, struct nb_error *err);
    /* Optional (NULL: the host integrates): velocity Verlet on the device.
     * load uploads x, v (3n each) and evaluates the forces; steps advances
     * count steps of dt (kick dt/2, drift dt, wrap, forces, kick dt/2)
     * with nothing read back; fetch reads the current x, v, f, pe, vir. */
    enum nb_status (*load)(void *state, const double *x, const double *v,
                           struct nb_error *err);
    enum nb_status (*steps)(void *state, double dt, uint64_t count,
                            struct nb_error *err);
    enum nb_status (*fetch)(void *state, double *x, double *v, double *f,
                            double *pe, double *vir, struct nb_error *err);
    void (*timings)(void *state, struct nb_md_timings *t);
    const char *(*renderer)(void *state);
    /* Optional (NULL: mode A only, the engine's own sums): the
     * accumulation mode of the forces (seed 004 Table 1), before setup;
     * NB_ERR_UNSUPPORTED where the mode's extension is missing. */
    enum nb_status (*set_precision)(void *state, enum nb_precision mode,
                                    struct nb_error *err);
    /* Optional (NULL: none): the positions (and velocities and types where
     * the engine keeps them) on the GPU as of the last forces or steps;
     * returns 0 where there are none yet (nb_forces.h). */
    int (*gl_particles)(void *state, struct nb_gl_particles *out);
    /* Optional (NULL: none): the last force evaluation's results on the GPU
     * (nb_forces.h); returns 0 where there are none. */
    int (*gl_results)(void *state, struct nb_gl_results *out);
    /* Optional (NULL: nothing to carry): the scales 2^k of a scaled mode
     * (E, F, H), log2[0] forces and log2[1] energies, that the engine
     * measured once at load.  get_scales returns 0 where none are set;
     * set_scales, before setup, makes the engine take them instead of
     * measuring, so that a restarted run sums exactly as the saved one. */
    int (*get_scales)(void *state, int log2[2]);
    void (*set_scales)(void *state, const int log2[2]);
    void (*destroy)(void *state);
};

/* e->set_precision, or NB_ERR_ARGS naming the engine where it has no
 * accumulation modes and mode is not A. */
enum nb_status nb_md_engine_set_precision(struct nb_md_engine *e, enum nb_precision mode,
                                          struct nb_error *err);

/* The CPU engine (nb_md_cpu_forces, OpenMP). */
enum nb_status nb_md_engine_cpu_create(struct nb_md_engine *e,
                                       struct nb_error *err);

struct nb_md_sim;

/* An MD integrator: a private state behind four functions, the shape of
 * struct nb_integrator.  create chooses how the steps run (the host loop
 * or the engine's device steps: s->device) and evaluates the initial
 * forces or loads the device; step advances count steps; sync makes x, v,
 * f, pe, vir current (a device fetch where needed); free takes the state
 * (NULL too).  All report through err. */
struct nb_md_integrator {
    const char *name;
    enum nb_status (*create)(struct nb_md_sim *s, void **state, struct nb_error *err);
    enum nb_status (*step)(struct nb_md_sim *s, void *state, uint64_t count,
                           struct nb_error *err);
    enum nb_status (*sync)(struct nb_md_sim *s, void *state, struct nb_error *err);
    void (*free)(void *state);
};

/* Velocity Verlet (Swope, Andersen, Berens and Wilson 1982). */
extern const struct nb_md_integrator nb_integrator_verlet;

/* One MD run: the state in double on the host, the engine borrowed. */
struct nb_md_sim {
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;    /* points at the arrays below */
    size_t n;
    int *type;
    double *m, *q;
    double *x, *v, *f, *pe, *vir;   /* current where synced */
    double dt;
    uint64_t step;
    int synced;                 /* 1: x..vir are the state at step */
    int device;                 /* 1: the engine integrates on the device */
    uint32_t *excluded;         /* 2 n_excluded particle indices (sys too) */
    struct nb_md_engine *engine;
    const struct nb_md_integrator *integrator;
    void *integrator_state;
};

/* Copies p (types required; masses and charges from p, or from the type
 * table where p has no charges), wraps x into the box, sets the engine up
 * and evaluates the initial forces.  Errors: the checks above, the
 * engine's.  Call nb_md_sim_free even after a failure. */
enum nb_status nb_md_sim_init(struct nb_md_sim *s, const struct nb_particles *p,
                              const struct nb_md_potential *pot,
                              const struct nb_md_box *box, int cell_list,
                              double dt, struct nb_md_engine *engine,
                              struct nb_error *err);
/* nb_md_sim_init with n_excluded bonded pairs (2 n_excluded particle
 * indices, copied) left out: the host subtracts them after every force
 * evaluation (nb_md_subtract_excluded), so the run integrates on the host
 * even with an engine that could integrate on the device. */
enum nb_status nb_md_sim_init_excluding(struct nb_md_sim *s, const struct nb_particles *p,
                                        const struct nb_md_potential *pot,
                                        const struct nb_md_box *box, int cell_list,
                                        double dt, struct nb_md_engine *engine,
                                        size_t n_excluded, const uint32_t *excluded,
                                        struct nb_error *err);
/* nb_md_sim_init_excluding in two halves, so that a program can check the
 * system (once: sys.checked) before it creates a GL context and an engine.
 * prepare copies p, wraps x and checks everything but the engine, with
 * cell lists as cell_list says; start sets the engine up on that system
 * and evaluates the initial forces.  start's cell_list is prepare's, or 0
 * to drop the cell lists prepared (for an engine without them: caps);
 * NB_ERR_ARGS for 1 after 0 or an unprepared sim.  Call nb_md_sim_free
 * even after a failure. */
enum nb_status nb_md_sim_prepare(struct nb_md_sim *s, const struct nb_particles *p,
                                 const struct nb_md_potential *pot,
                                 const struct nb_md_box *box, int cell_list, double dt,
                                 size_t n_excluded, const uint32_t *excluded,
                                 struct nb_error *err);
enum nb_status nb_md_sim_start(struct nb_md_sim *s, struct nb_md_engine *engine,
                               int cell_list, struct nb_error *err);
/* Advances count velocity Verlet steps (on the device where the engine
 * can); NB_ERR_NUMERIC when a force or velocity goes non-finite. */
enum nb_status nb_md_sim_advance(struct nb_md_sim *s, uint64_t count,
                                 struct nb_error *err);
/* Makes x, v, f, pe, vir current (a device fetch where needed). */
enum nb_status nb_md_sim_sync(struct nb_md_sim *s, struct nb_error *err);
void nb_md_sim_free(struct nb_md_sim *s);

/* ---- molecular dynamics: checkpoints (md_sim_checkpoint.c) --------------- */

/* A saved MD system: everything nb_md_sim_prepare takes, the step it was
 * at and the engine's scales; the arrays are owned (nb_md_saved_free). */
struct nb_md_saved {
    struct nb_particles p;      /* ids, types, masses, charges (q NULL when
                                   the source had none), x, v (wrapped) */
    struct nb_md_potential pot;
    struct nb_md_box box;
    double dt;
    uint64_t step;
    uint32_t *excluded;         /* 2 n_excluded indices */
    size_t n_excluded;
    int has_scales, scales[2];  /* the engine's get_scales */
};
/* Syncs s (a device fetch where needed) and puts its state into c (a
 * checkpoint of kind NB_CKPT_MD): x and v in double, the step, the box,
 * the potential, types, masses, charges (has_q: the source had charges),
 * the excluded pairs and the engine's scales; ids are the particles' own
 * (s keeps none).  MD draws no random numbers after its initial
 * conditions, so there is no generator state to save. */
enum nb_status nb_md_sim_checkpoint(struct nb_md_sim *s, const int64_t *ids, int has_q,
                                    struct nb_ckpt *c, struct nb_error *err);
/* The system saved in c (name labels the errors), checked. */
enum nb_status nb_md_saved_read(const struct nb_ckpt *c, const char *name,
                                struct nb_md_saved *m, struct nb_error *err);
void nb_md_saved_free(struct nb_md_saved *m);

/* The thermodynamic state and first integrals of a synced sim
 * (struct nb_md_thermo of glnbody.h). */
void nb_md_thermo(const struct nb_md_sim *s, struct nb_md_thermo *th);

/* ---- molecular dynamics: initial conditions and files ------------------- */

#endif
