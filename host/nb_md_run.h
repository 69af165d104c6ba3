/* nb_md_run.h - molecular dynamics runs: engines, the velocity Verlet
 * integrator and its simulation, thermo, lattices and trajectory files. */
#ifndef NB_MD_RUN_H
#define NB_MD_RUN_H

#include "nb_md.h"

/* ---- molecular dynamics: engines and velocity Verlet (seed 002) -------- */

/* Device seconds by phase, summed since setup. */
struct nb_md_timings {
    double k1;              /* kick + drift + wrap (seed 002 K1) */
    double cells;           /* cell-list build: hash, sort, reorder */
    double force;           /* pair forces */
    double k2;              /* second kick (seed 002 K2 less the forces) */
    uint64_t evaluations;   /* force evaluations */
};

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

/* The thermodynamic state and first integrals of a synced sim
 * (struct nb_md_thermo of glnbody.h). */
void nb_md_thermo(const struct nb_md_sim *s, struct nb_md_thermo *th);

/* ---- molecular dynamics: initial conditions and files ------------------- */

/* fcc lattice of cells^3 unit cells (4 atoms each) at number density rho,
 * type 1, mass 1, box [0, L)^3 periodic; Maxwell velocities at temperature
 * T, zero total momentum, rescaled to exactly T (3n - 3 degrees).  Errors:
 * NB_ERR_ARGS, NB_ERR_NOMEM. */
enum nb_status nb_md_fcc(struct nb_particles *p, struct nb_md_box *box,
                         int cells, double rho, double temp, uint64_t seed,
                         struct nb_error *err);
/* Simple cubic grid of side^3 particles (seed 002) at number density rho:
 * spacing h = rho^(-1/3), sites at the cell centres of the periodic box
 * [-L/2, L/2)^3, L = side h (seed 002's [-1, 1)^3 is rho = side^3 / 8; with
 * LJ sigma = 1 and rc = 2.5 it needs L >= 5).  Type 1 with pot's type-1
 * mass (charges: the type table's, p->q NULL).  Gaussian velocities, zero
 * momentum, rescaled so that the total energy is e_target (seed 002 eqs.
 * 12-14), the potential energy summed by nb_md_cpu_forces under pot in that
 * box.  Deterministic for a seed.  Errors: NB_ERR_ARGS (bad side or rho,
 * pot or box refused by nb_md_system_check, e_target below the potential
 * energy), NB_ERR_NOMEM. */
enum nb_status nb_md_grid(struct nb_particles *p, struct nb_md_box *box,
                          int side, double rho,
                          const struct nb_md_potential *pot, double e_target,
                          uint64_t seed, struct nb_error *err);
/* The 12-particle two-type cubic cell of seed 003 (fluorite, as UO2: 4
 * type-1 cations at the fcc sites and 8 type-2 anions at (1/4 | 3/4)^3,
 * types in ratio 2:1) repeated cells^3 times with lattice constant a; the
 * corner cation of each cell sits at (a, a, a) rather than the origin, so
 * that the cell has no dipole moment and the finite crystal is not
 * polarised.  ids 1..n, zero velocities, masses and charges (p->q) from
 * pot's type table; the box is the crystal's extent with a margin of a,
 * open on every axis.  Errors: NB_ERR_ARGS (cells, a, fewer than 2 types,
 * pot refused by nb_md_potential_check), NB_ERR_NOMEM. */
enum nb_status nb_md_ionic_crystal(struct nb_particles *p, struct nb_md_box *box,
                                   int cells, double a,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err);
/* Default ionic coefficients for the crystal, 2 types: charges +2 and -1,
 * masses 238/16 and 1 (U and O in units of the anion), cx = q_i q_j for
 * every pair, cation-cation pure Coulomb (cy = 0), and a repulsion cz = 12
 * with one cy on the cation-anion and anion-anion pairs, fitted so that
 * lattice constant 1 is the equilibrium of the infinite crystal (the
 * derivation is in md_ic.c); no cutoff. */
void nb_md_ionic_default(struct nb_md_potential *pot);

/* LAMMPS `write_dump ... custom` text, its first timestep: ITEM: TIMESTEP,
 * NUMBER OF ATOMS (>= 1, matched by the atom lines), BOX BOUNDS with its
 * flags (pp periodic; two of f, s, m open; none, as before 2010:
 * periodic; triclinic refused), ITEM: UNITS and TIME skipped; ITEM: ATOMS
 * columns by name in any order: id, type (1..pot's count), x y z (or xu,
 * or scaled xs) required; mass, q (into p->q), vx vy vz (all or none)
 * optional, others ignored; masses from pot's table when absent (pot may
 * be NULL only with a mass column), zero velocities.  Errors: NB_ERR_IO,
 * NB_ERR_PARSE naming file:line:column and reason (read by nb_text);
 * p is then empty. */
enum nb_status nb_lammps_dump_read(const char *path, struct nb_particles *p,
                                   struct nb_md_box *box,
                                   const struct nb_md_potential *pot,
                                   struct nb_error *err);
/* Reads an exclusion list (--exclude): one bonded pair a line, `ID_I
 * ID_J`, the ids of particles of p, '#' comments anywhere; into *pairs,
 * 2 * *count particle indices (malloc'd, the caller frees; NULL and 0 on
 * error).  Errors (NB_ERR_IO, NB_ERR_PARSE, NB_ERR_NOMEM) name
 * file:line:column: a malformed id, one no particle has, a pair of one
 * particle with itself, a missing or extra field. */
enum nb_status nb_md_exclusions_read(const char *path,
                                     const struct nb_particles *p,
                                     uint32_t **pairs, size_t *count,
                                     struct nb_error *err);
/* Appends one timestep as `ITEM: ATOMS id type mass x y z vx vy vz`
 * (%.17g: reads back exactly; type 1 where p has no types), box bounds
 * with pp or ff flags.  Errors: NB_ERR_IO. */
enum nb_status nb_lammps_dump_write(FILE *fp, uint64_t step,
                                    const struct nb_particles *p,
                                    const struct nb_md_box *box,
                                    struct nb_error *err);
/* Appends one extended-XYZ frame: Lattice, Origin (box lo), Properties=
 * species:S:1:pos:R:3:velo:R:3:Z:I:1, pbc, Time; species "T<type>" for
 * OVITO's type names and Z = type because ASE needs atomic numbers or
 * element symbols.  Readable by OVITO and by current ASE (which takes Z
 * over species; older ASE insists on element symbols).  NB_ERR_IO. */
enum nb_status nb_extxyz_write(FILE *fp, double time, const struct nb_particles *p,
                               const struct nb_md_box *box, struct nb_error *err);

#endif
