/* glnbody/md.h - part of glnbody.h, the public C API of glnbody:
 * molecular dynamics: systems, runs (struct nb_md) and force kernels, sections 10 to 12.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_MD_H
#define GLNBODY_MD_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/md.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 10. MD systems: laws, types, boxes, files ========= core ========== */
/* Stable: laws, types and boxes.  The file readers and writers (LAMMPS
 * dump, extended XYZ, exclusions) are utility and may move with section 4. */

/* The pair laws: Lennard-Jones, Lennard-Jones with Coulomb (constant,
 * linear or sigmoidal dielectric; Elsen et al. 2006, Table 1), and the
 * ionic law of Boyarchenkov & Potashnikov 2009.  Every force is derived
 * exactly from its pair energy; with a cutoff rc, pairs at r >= rc
 * contribute nothing; with shift, u(rc) is subtracted inside. */
enum nb_md_law {
    NB_LAW_LJ,
    NB_LAW_LJC_CONSTANT,
    NB_LAW_LJC_LINEAR,
    NB_LAW_LJC_SIGMOIDAL,
    NB_LAW_IONIC,
    NB_LAW_COUNT
};
/* "lj", "ljc-constant", "ljc-linear", "ljc-sigmoidal", "ionic", and the
 * reverse (NB_ERR_ARGS naming the text and the choices). */
NB_API const char *nb_md_law_name(enum nb_md_law law);
NB_API enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law,
                                      struct nb_error *err);

#define NB_MD_MAX_TYPES 16

/* Per-type and per-pair parameters; type t (1..count, as in LAMMPS) is
 * row t-1; pair tables are symmetric. */
struct nb_md_types {
    int count;                                  /* 1..NB_MD_MAX_TYPES */
    double mass[NB_MD_MAX_TYPES];               /* for inputs without masses */
    double charge[NB_MD_MAX_TYPES];             /* for inputs without charges */
    double eps[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];   /* LJ well depth */
    double sigma[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES]; /* LJ zero crossing */
    double ionic[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES][3]; /* cx, cy, cz */
};

/* A force law with its parameters. */
struct nb_md_potential {
    enum nb_md_law law;
    struct nb_md_types types;
    double dielectric;      /* D of ljc-constant and ljc-linear (> 0) */
    double sigmoid[4];      /* a, b, c, d of ljc-sigmoidal's zeta(r) */
    double cutoff;          /* rc > 0, or 0 for none */
    int shift;              /* 1: u(rc) subtracted inside the cutoff */
};
/* count types of mass 1, charge 0, eps = sigma = 1, ionic (0, 0, 12);
 * dielectric 1, sigmoid (0, 0, 1, 0), no cutoff, no shift. */
NB_API void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law,
                                    int count);
/* The ionic crystal's 2 types (charges +2, -1, masses 238/16 and 1, a
 * repulsion fitted so that lattice constant 1 is the equilibrium), no
 * cutoff; the rest of pot untouched. */
NB_API void nb_md_ionic_default(struct nb_md_potential *pot);
/* How a pair table is completed from its diagonal. */
enum nb_md_mixing {
    NB_MIX_ARITHMETIC,      /* Lorentz-Berthelot: sigma mean, eps geometric */
    NB_MIX_GEOMETRIC        /* both geometric (OPLS) */
};
NB_API void nb_md_potential_mix(struct nb_md_potential *pot, enum nb_md_mixing mix);
/* Counts, finite values, eps >= 0, sigma > 0, dielectric > 0, cz > 2,
 * cutoff >= 0; NB_ERR_ARGS naming the entry. */
NB_API enum nb_status nb_md_potential_check(const struct nb_md_potential *pot,
                                            struct nb_error *err);
/* A coefficient table (text, `#` comments): `types T` first, then `mass I
 * M`, `charge I Q`, `lj I J EPS SIGMA`, `mix arithmetic|geometric`,
 * `ionic I J CX CY CZ` lines, into pot->types.  NB_ERR_IO, NB_ERR_PARSE
 * naming file:line:column. */
NB_API enum nb_status nb_md_types_read(const char *path, struct nb_md_potential *pot,
                                       struct nb_error *err);
/* Refuses (NB_ERR_PARSE, naming path and the pair) a table in which some
 * type pair does not interact under pot->law; particle_charges: the
 * particles carry charges of their own. */
NB_API enum nb_status nb_md_types_check_interactions(const struct nb_md_potential *pot,
                                                     const char *path, int particle_charges,
                                                     struct nb_error *err);

/* A rectangular box, periodic or open along each axis. */
struct nb_md_box {
    double lo[3], hi[3];
    int periodic[3];
};

/* What the MD force kernels evaluate: a view of the caller's arrays. */
struct nb_md_system {
    size_t n;
    const int *type;        /* 1..pot->types.count */
    const double *m;        /* masses */
    const double *q;        /* charges (NULL: the type table's) */
    const struct nb_md_potential *pot;
    const struct nb_md_box *box;
    int cell_list;          /* 1: cell lists (cutoff required), 0: all pairs */
    size_t n_excluded;      /* bonded pairs left out of the sums, as */
    const uint32_t *excluded;   /* 2 n_excluded particle indices */
    int checked;            /* leave 0 (the library's: checked once) */
};
/* Types in range, positive finite masses, finite charges, excluded pairs
 * of two particles < n, the potential, the box (lo < hi; a periodic axis
 * at least twice the cutoff), and for cell lists a cutoff and 3 cells of
 * width >= rc along each periodic axis.  NB_ERR_ARGS naming the cause. */
NB_API enum nb_status nb_md_system_check(const struct nb_md_system *sys,
                                         struct nb_error *err);
/* The CPU reference in double at x (3n): forces f (3n), energies pe (n:
 * half of each pair energy) and virials vir (n: half of each pair's
 * r.F), minimum image along periodic axes; all pairs or cell lists as sys
 * (the same sums to rounding).  OpenMP.  The counted form also returns the
 * ordered pairs inside the cutoff (n (n - 1) without one). */
NB_API enum nb_status nb_md_cpu_forces(const struct nb_md_system *sys, const double *x,
                                       double *f, double *pe, double *vir,
                                       struct nb_error *err);
NB_API enum nb_status nb_md_cpu_forces_counted(const struct nb_md_system *sys,
                                               const double *x, double *f, double *pe,
                                               double *vir, double *pairs,
                                               struct nb_error *err);

/* Initial conditions.  fcc: cells^3 unit cells (4 atoms each) at number
 * density rho, type 1, mass 1, box [0, L)^3 periodic, Maxwell velocities
 * at temperature exactly T, zero momentum. */
NB_API enum nb_status nb_md_fcc(struct nb_particles *p, struct nb_md_box *box, int cells,
                                double rho, double temperature, uint64_t seed,
                                struct nb_error *err);
/* A simple cubic grid of side^3 particles at density rho in the periodic
 * box [-L/2, L/2)^3, type 1 with pot's mass, Gaussian velocities scaled so
 * that the total energy under pot is e_target (ETH Zurich HPCSE I 2013). */
NB_API enum nb_status nb_md_grid(struct nb_particles *p, struct nb_md_box *box, int side,
                                 double rho, const struct nb_md_potential *pot,
                                 double e_target, uint64_t seed, struct nb_error *err);
/* The fluorite crystal of Boyarchenkov & Potashnikov 2009 (12 ions a cell,
 * 2 types) repeated cells^3 times with lattice constant a, at rest, masses
 * and charges from pot's table; an open box with a margin of a. */
NB_API enum nb_status nb_md_ionic_crystal(struct nb_particles *p, struct nb_md_box *box,
                                          int cells, double a,
                                          const struct nb_md_potential *pot,
                                          struct nb_error *err);

/* Files.  A LAMMPS `write_dump ... custom` text, its first timestep:
 * columns by name (id, type, x y z or xu or xs required; mass, q, vx vy vz
 * optional), box bounds with their flags; masses from pot's table where
 * there is no mass column (pot may then not be NULL).  NB_ERR_IO,
 * NB_ERR_PARSE naming file:line:column. */
NB_API enum nb_status nb_lammps_dump_read(const char *path, struct nb_particles *p,
                                          struct nb_md_box *box,
                                          const struct nb_md_potential *pot,
                                          struct nb_error *err);
/* Appends one timestep, `ITEM: ATOMS id type mass x y z vx vy vz`
 * (%.17g), or one extended-XYZ frame (OVITO, ASE: species T<type>, Z =
 * type).  NB_ERR_IO. */
NB_API enum nb_status nb_lammps_dump_write(FILE *fp, uint64_t step,
                                           const struct nb_particles *p,
                                           const struct nb_md_box *box,
                                           struct nb_error *err);
NB_API enum nb_status nb_extxyz_write(FILE *fp, double time, const struct nb_particles *p,
                                      const struct nb_md_box *box, struct nb_error *err);
/* An exclusion list: one bonded pair of ids of p a line, `#` comments;
 * into *pairs (malloc'd, the caller frees) 2 *count particle indices.
 * NB_ERR_IO, NB_ERR_PARSE naming file:line:column, NB_ERR_NOMEM. */
NB_API enum nb_status nb_md_exclusions_read(const char *path, const struct nb_particles *p,
                                            uint32_t **pairs, size_t *count,
                                            struct nb_error *err);

/* ==== 11. MD runs ======================================= core ========== */
/* Stable: nb_md and its calls. */

/* What an MD system is, in short: the law, its coefficients, the box and
 * the step (nb_md_create; nb_md_prepare takes the full description). */
struct nb_md_params {
    enum nb_md_law law;     /* default NB_LAW_LJ */
    int types;              /* particle types 1..types, at most 16; default 1 */
    const char *coeffs;     /* a coefficient table file, or NULL: every type
                               of mass 1, charge 0, eps = sigma = 1; for
                               NB_LAW_IONIC with 2 types nb_md_ionic_default */
    double cutoff;          /* pair cutoff, or 0 for none; default 2.5 */
    int shift;              /* 1: the pair energy is 0 at the cutoff */
    int cell_list;          /* 1 on, 0 off, -1 (default) where the cutoff
                               and the box allow them and the engine has them */
    double lo[3], hi[3];    /* the box */
    int periodic[3];        /* per axis; default all periodic */
    double dt;              /* time step; default 0.005 */
    enum nb_precision precision;    /* the forces' accumulation mode (A);
                                       B..H on NB_ENGINE_COMPUTE only */
};
/* The defaults above with a box of zero size: set lo and hi. */
NB_API void nb_md_params_default(struct nb_md_params *par);

/* The thermodynamic state (as LAMMPS reports it) and first integrals. */
struct nb_md_thermo {
    uint64_t step;
    double time;
    double temp;            /* 2 ke / (3n - 3) (n > 1) */
    double pe, ke, etotal;  /* totals */
    double press;           /* (2 ke + W) / (3 V), W = sum_pairs r.F */
    double p[3], l[3];      /* linear, angular momentum (about the origin) */
    double com[3];          /* centre of mass */
};

/* A system on one engine; it owns its state and borrows gl. */
struct nb_md;

/* From arrays: n particles of types type (n, 1..par->types), masses from
 * the type table, positions x and velocities v (3n each).  Checks the
 * system (box, cutoff, types), evaluates the initial forces; the caller
 * owns *md. */
NB_API enum nb_status nb_md_create(struct nb_md **md, struct nb_gl *gl, enum nb_engine engine,
                                   size_t n, const int *type, const double *x,
                                   const double *v, const struct nb_md_params *par,
                                   struct nb_error *err);
/* An fcc lattice (nb_md_fcc) with par's law and step; the box is the
 * lattice's, periodic, replacing par's. */
NB_API enum nb_status nb_md_create_fcc(struct nb_md **md, struct nb_gl *gl,
                                       enum nb_engine engine, int cells, double rho,
                                       double temperature, uint64_t seed,
                                       const struct nb_md_params *par,
                                       struct nb_error *err);
/* In two halves, so that a program can refuse a bad system before it opens
 * a GL context: prepare copies p (types required; masses and charges from
 * p, charges from pot's table where p has none), wraps x into box and
 * checks everything (cell_list 1, 0, or -1: where the cutoff and box
 * allow); n_excluded bonded pairs (2 n_excluded indices, copied) are left
 * out, subtracted on the host after every evaluation.  start sets the
 * engine up in mode precision (A: its own kernels) and evaluates the
 * initial forces; cell_list -1 drops the cell lists where the engine has
 * none.  nb_md_step etc. refuse a handle not started. */
NB_API enum nb_status nb_md_prepare(struct nb_md **md, const struct nb_particles *p,
                                    const struct nb_md_potential *pot,
                                    const struct nb_md_box *box, int cell_list, double dt,
                                    size_t n_excluded, const uint32_t *excluded,
                                    struct nb_error *err);
NB_API enum nb_status nb_md_start(struct nb_md *md, struct nb_gl *gl, enum nb_engine engine,
                                  enum nb_precision precision, struct nb_error *err);
NB_API void nb_md_destroy(struct nb_md *md);

/* Advances count steps (on the device where the engine can); NB_ERR_NUMERIC
 * when a force or a velocity goes non-finite. */
NB_API enum nb_status nb_md_step(struct nb_md *md, uint64_t count, struct nb_error *err);
/* The steps taken since creation. */
NB_API uint64_t nb_md_step_count(const struct nb_md *md);
NB_API enum nb_status nb_md_get_thermo(struct nb_md *md, struct nb_md_thermo *th,
                                       struct nb_error *err);
/* The particle count, and the positions and velocities (3n each; either
 * may be NULL), positions wrapped into the box. */
NB_API size_t nb_md_count(const struct nb_md *md);
NB_API enum nb_status nb_md_get_state(struct nb_md *md, double *x, double *v,
                                      struct nb_error *err);
/* 1 when the forces go through cell lists; the engine's renderer. */
NB_API int nb_md_uses_cell_lists(const struct nb_md *md);
NB_API const char *nb_md_renderer(const struct nb_md *md);
/* Device seconds by phase since start (ETH Zurich HPCSE I 2013's K1, the
 * forces, K2; the cell-list build), and the force evaluations. */
struct nb_md_timings {
    double k1, cells, force, k2;
    uint64_t evaluations;
};
NB_API void nb_md_get_timings(const struct nb_md *md, struct nb_md_timings *t);

/* ==== 12. MD force kernels for research ================= research ====== */
/* Research: measures the accumulation modes and the triangular kernels
 * (glnbody precision, newton3); may change in any version. */

/* The MD forces of one system (a view: its arrays must outlive the handle)
 * on one GL pipeline (NB_ENGINE_COMPUTE or _FRAGMENT; cell lists compute
 * only), in any accumulation mode: A runs the pipeline's MD engine, B..H
 * its precision kernels (all pairs or cell lists, as sys), with fixed
 * point scales measured by a magnitude pre-pass.  Errors of create: those
 * of nb_md_system_check, the engine's. */
struct nb_md_forces;
NB_API enum nb_status nb_md_forces_create(struct nb_md_forces **mf, struct nb_gl *gl,
                                          enum nb_engine engine,
                                          const struct nb_md_system *sys,
                                          struct nb_error *err);
NB_API void nb_md_forces_destroy(struct nb_md_forces *mf);
NB_API const char *nb_md_forces_renderer(const struct nb_md_forces *mf);
/* Forces f (3n) and energies pe (n, half of each pair energy) at x (3n)
 * in mode; seconds[0] the device seconds of the kernel, seconds[1] of the
 * pre-pass (0 without one).  NB_ERR_UNSUPPORTED for G with the ionic and
 * sigmoidal laws (GLSL has no double exp or pow) or a missing extension. */
NB_API enum nb_status nb_md_forces_eval(struct nb_md_forces *mf, const double *x,
                                        enum nb_precision mode, double *f, double *pe,
                                        double seconds[2], struct nb_error *err);

/* Newton's-third-law ("triangular") MD kernels against the square loop
 * (Boyarchenkov & Potashnikov 2009, section 6.4, Table 5), ionic and LJ,
 * open boxes, all pairs.  The variant names, NULL-terminated: square,
 * tri1, tri2, tri3, each on one work group (-wg) or the device (-gpu),
 * and lean-gpu. */
NB_API const char *const *nb_newton3_variants(void);
/* One evaluation by variant in mode: f (3n), pe (n), *seconds the device
 * time of its dispatches; scale_log2 (forces, energies) are mode E's, F's
 * or H's fixed-point scales (NULL: measured here), fixed (4n, mode H,
 * may be NULL) its raw int64 sums, the square loop's bit for bit.
 * NB_ERR_ARGS (unknown variant, bad system), NB_ERR_UNSUPPORTED (another
 * law, a periodic axis, a cutoff, G with ionic), NB_ERR_LIMIT (n past what
 * the variant holds), NB_ERR_GL. */
NB_API enum nb_status nb_newton3_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                        const double *x, const char *variant,
                                        enum nb_precision mode, const int scale_log2[2],
                                        double *f, double *pe, int64_t *fixed,
                                        double *seconds, struct nb_error *err);
/* The scales of mode E, F or H for sys at x (0 and 0 for other modes). */
NB_API enum nb_status nb_newton3_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                        const double *x, enum nb_precision mode,
                                        int log2[2], struct nb_error *err);

#ifdef __cplusplus
}
#endif

#endif
