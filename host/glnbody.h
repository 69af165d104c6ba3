/* glnbody.h - the public C API of glnbody: direct N-body and molecular
 * dynamics forces on any GPU with OpenGL 4.3 (compute shaders or
 * fragment-shader streams), with a double-precision CPU engine beside them.
 *
 * Four opaque handles, each with create, use and destroy:
 *   struct nb_gl       a GL context on a chosen EGL device;
 *   struct nb_forces   a force engine: gravitational accelerations and
 *                      potentials (GA), with jerks for Hermite block steps
 *                      (GAJ), on arrays of positions and masses;
 *   struct nb_hermite  a collisional N-body run: fourth-order Hermite with
 *                      block time steps (Makino & Aarseth 1992);
 *   struct nb_md       a molecular dynamics system stepped by velocity
 *                      Verlet (Swope et al. 1982).
 *
 * Errors.  Every call that can fail returns an enum nb_status and fills
 * the struct nb_error * passed last (which may be NULL) with one message
 * naming the cause.  The library never prints and never exits.
 *
 * Units.  Gravity uses G = 1 in whatever length, mass and time units the
 * caller's numbers are in; nothing is rescaled.  Molecular dynamics uses
 * reduced (LAMMPS lj) units: lengths in sigma, energies in epsilon, masses
 * in the type table's units, k_B = 1.
 *
 * Arrays.  Positions, velocities and results are structure-of-arrays in
 * double: x is 3n values x0 y0 z0 x1 ...; masses are n values.  The
 * library copies what it is given and never keeps the caller's pointers.
 *
 * Threads and contexts.  A handle may be used from one thread at a time.
 * Every handle made on a context belongs to it and must be destroyed
 * before it.  Any number of contexts may exist in one process, each with
 * its own programs and buffers; each call makes its handle's context
 * current on the calling thread, so handles of several contexts can be
 * used in turn from one thread.  Calls on handles of different contexts
 * may run on different threads at once.  A context stays current on the
 * thread that used it last (EGL lets it be current on one thread only):
 * before its handles move to another thread, that thread releases it
 * (nb_gl_release), and so does a thread that ends while it is current.
 */
#ifndef GLNBODY_H
#define GLNBODY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NB_VERSION_MAJOR 0
#define NB_VERSION_MINOR 10
#define NB_VERSION_PATCH 0

/* The public names of the shared library; everything else is hidden. */
#if defined(__GNUC__)
#define NB_API __attribute__((visibility("default")))
#else
#define NB_API
#endif

/* The library's version at run time, "MAJOR.MINOR.PATCH", and as numbers
 * (any pointer may be NULL). */
NB_API const char *nb_version(void);
NB_API void nb_version_numbers(int *major, int *minor, int *patch);

/* ---- errors ------------------------------------------------------------ */

/* What went wrong, as a category; the text is in struct nb_error. */
enum nb_status {
    NB_OK = 0,
    NB_ERR_ARGS,        /* a bad argument or option value */
    NB_ERR_IO,          /* a file could not be opened, read or written */
    NB_ERR_PARSE,       /* a malformed input file */
    NB_ERR_NOMEM,       /* host or GPU memory exhausted */
    NB_ERR_GL,          /* the GL context, a shader or a GL call failed */
    NB_ERR_LIMIT,       /* a GL implementation limit would be exceeded */
    NB_ERR_UNSUPPORTED, /* the request needs something this system lacks */
    NB_ERR_NUMERIC      /* the integration broke down: a time step below
                           the floor or a non-finite value */
};

/* A status and one formatted message naming the cause. */
struct nb_error {
    enum nb_status status;
    char message[1024];
};

/* ---- choices shared by the handles ---------------------------------------- */

/* The three engines: the CPU in double (OpenMP), and the two GL pipelines. */
enum nb_engine { NB_ENGINE_CPU, NB_ENGINE_COMPUTE, NB_ENGINE_FRAGMENT, NB_ENGINE_COUNT };

/* How a GPU kernel accumulates its pair terms: the methods of Table 1 of
 * Narumi et al. (A..G), and H.  A is the fast
 * float kernel; H sums each float pair term, rounded once to int64 fixed
 * point, exactly and in any order. */
enum nb_precision {
    NB_PRECISION_A,     /* float pair terms, float sums (the fast kernels) */
    NB_PRECISION_B,     /* float pair terms, double sums */
    NB_PRECISION_C,     /* float pair terms, Takahashi & Iitaka float pair */
    NB_PRECISION_D,     /* float pair terms, Nitadori's trick */
    NB_PRECISION_E,     /* float pair terms, modified Nitadori (LARGE) */
    NB_PRECISION_F,     /* float pair terms, Narumi's float + int32 pair */
    NB_PRECISION_G,     /* double pair terms, double sums */
    NB_PRECISION_H,     /* float pair forces m_i m_j f_ij rounded to int64
                           fixed point: exact, order-independent sums */
    NB_PRECISION_COUNT
};

/* ---- GL contexts -------------------------------------------------------- */

/* How shaders are loaded. */
enum nb_shader_source {
    NB_SHADERS_AUTO,    /* SPIR-V when GL_ARB_gl_spirv is there, else GLSL */
    NB_SHADERS_SPIRV,   /* SPIR-V only; refused without GL_ARB_gl_spirv */
    NB_SHADERS_GLSL     /* GLSL source only */
};

struct nb_gl_options {
    int device;                     /* EGL device index, -1 for the first */
    int debug;                      /* 1: GL_KHR_debug messages to stderr */
    enum nb_shader_source shaders;
    const char *shader_dir;         /* holds glsl/ and spirv/; NULL: default */
};

/* The defaults: the first device, no debug, automatic shaders, and the
 * shader directory of the installation (or of the build tree the library
 * runs from).  $GLNBODY_SHADER_DIR overrides the directory, GLNBODY_DEBUG=1
 * turns debug on and GLNBODY_SHADERS=spirv|glsl forces a source. */
NB_API void nb_gl_options_default(struct nb_gl_options *opt);

/* A headless OpenGL 4.3 core context (EGL) with its program cache. */
struct nb_gl;

/* Creates a context: the EGL device platform (device opt->device) when
 * EGL_EXT_device_enumeration is there, else the surfaceless platform,
 * else the default display; opt NULL takes nb_gl_options_default's.
 * NB_ERR_GL (no EGL display or no 4.3 context), NB_ERR_ARGS (no such
 * device), NB_ERR_UNSUPPORTED (SPIR-V forced but not supported).  The
 * caller owns *gl. */
NB_API enum nb_status nb_gl_create(struct nb_gl **gl, const struct nb_gl_options *opt,
                                   struct nb_error *err);
/* Destroys the context (NULL is allowed); destroy its handles first. */
NB_API void nb_gl_destroy(struct nb_gl *gl);
/* Releases gl from the calling thread where it is current there (else
 * nothing), so that another thread can use its handles. */
NB_API void nb_gl_release(struct nb_gl *gl);
/* "GL_RENDERER (GL_VERSION)", owned by gl. */
NB_API const char *nb_gl_renderer(const struct nb_gl *gl);
/* Number of EGL devices (0 without EGL_EXT_device_enumeration). */
NB_API int nb_gl_device_count(void);

/* ---- force engines -------------------------------------------------------- */

/* A force engine of one kind on one context (gl may be NULL for
 * NB_ENGINE_CPU).  The engine borrows gl. */
struct nb_forces;

NB_API enum nb_status nb_forces_create(struct nb_forces **f, struct nb_gl *gl,
                                       enum nb_engine engine, struct nb_error *err);
NB_API void nb_forces_destroy(struct nb_forces *f);

/* A kernel variant ("auto", the default, times the candidates on the
 * first particle set; compute: "t<T>i<I>[-s<S>]", fragment:
 * "1x1|1x4|4x4[-r<R>][-p<P>]"); NB_ERR_ARGS for an unknown name. */
NB_API enum nb_status nb_forces_set_variant(struct nb_forces *f, const char *variant,
                                            struct nb_error *err);
/* The accumulation mode (default A), for the next nb_forces_ga and
 * nb_forces_set_j; NB_ERR_ARGS where the engine has no modes (the CPU sums
 * in double), NB_ERR_UNSUPPORTED where the mode's GL extension is missing.
 * Modes B..H reach the GAJ kernel on NB_ENGINE_COMPUTE only: elsewhere
 * nb_forces_set_j and nb_hermite_create refuse them (NB_ERR_ARGS) rather
 * than sum in A. */
NB_API enum nb_status nb_forces_set_precision(struct nb_forces *f, enum nb_precision mode,
                                              struct nb_error *err);

/* GA: for n particles at x (3n) with masses m (n), the acceleration
 * acc (3n) and potential pot (n) of each, softened by the Plummer length
 * eps >= 0 (the self term is excluded).  acc or pot may be NULL. */
NB_API enum nb_status nb_forces_ga(struct nb_forces *f, size_t n, const double *x,
                                   const double *m, double eps, double *acc, double *pot,
                                   struct nb_error *err);

/* GAJ, for Hermite block steps: sets the j-particles (positions x, 3n,
 * velocities v, 3n, masses m, n) that later nb_forces_gaj calls act
 * from, until nb_forces_ga or a Hermite run on f replaces them (then
 * nb_forces_gaj refuses with NB_ERR_ARGS until the next set_j). */
NB_API enum nb_status nb_forces_set_j(struct nb_forces *f, size_t n, const double *x,
                                      const double *v, const double *m,
                                      struct nb_error *err);
/* The acceleration acc, jerk (3 n_active each) and potential pot (n_active)
 * of the j-particles whose indices are in active (ascending, each < n),
 * from every other j-particle.  jerk or pot may be NULL. */
NB_API enum nb_status nb_forces_gaj(struct nb_forces *f, double eps, size_t n_active,
                                    const uint32_t *active, double *acc, double *jerk,
                                    double *pot, struct nb_error *err);

/* The variant the last evaluation ran (owned by f; "none" before any),
 * and its device seconds (GL timer queries on hardware; 0 before any). */
NB_API const char *nb_forces_variant(const struct nb_forces *f);
NB_API double nb_forces_seconds(const struct nb_forces *f);

/* ---- Hermite block steps -------------------------------------------------- */

/* What a Hermite run is asked to do. */
struct nb_hermite_params {
    double eta;         /* accuracy parameter of the time-step criterion
                           (Aarseth 1985), > 0; default 0.02 */
    double eps;         /* Plummer softening, >= 0; default 0.01 */
    double dt_max;      /* largest step, rounded down to a power of two;
                           default 0.125 */
    int shared_dt;      /* 1: every particle takes the smallest step */
    int predict_on_device;  /* 1: the j-particles are predicted on the GPU
                               (the compute and fragment engines) */
};
NB_API void nb_hermite_params_default(struct nb_hermite_params *par);

/* A run of n bodies; the run borrows the force engine f, which may serve
 * other work between the run's calls.  A run with predict_on_device keeps
 * its state in f's engine: give each such run a force handle of its own
 * and use it for nothing else. */
struct nb_hermite;

/* From arrays: masses m (n >= 1), positions x and velocities v (3n each)
 * at time 0.  Evaluates the initial forces and steps (Portegies Zwart,
 * Belleman & Geldof 2007, section 2).  The caller owns *h. */
NB_API enum nb_status nb_hermite_create(struct nb_hermite **h, struct nb_forces *f,
                                        size_t n, const double *m, const double *x,
                                        const double *v,
                                        const struct nb_hermite_params *par,
                                        struct nb_error *err);
/* From a Plummer sphere of n >= 2 equal masses in N-body units (total mass 1,
 * E = -1/4; Aarseth, Henon & Wielen 1974), drawn with seed. */
NB_API enum nb_status nb_hermite_create_plummer(struct nb_hermite **h, struct nb_forces *f,
                                                size_t n, uint64_t seed,
                                                const struct nb_hermite_params *par,
                                                struct nb_error *err);
NB_API void nb_hermite_destroy(struct nb_hermite *h);

/* Takes block steps up to time t (>= the current time, below 8192) and
 * ends there: the state reads as of t.  NB_ERR_NUMERIC where a step falls
 * below 2^-40 or a value goes non-finite. */
NB_API enum nb_status nb_hermite_integrate(struct nb_hermite *h, double t,
                                           struct nb_error *err);
/* The time the state is at. */
NB_API double nb_hermite_time(const struct nb_hermite *h);
/* Positions and velocities (3n each; either may be NULL) at that time. */
NB_API enum nb_status nb_hermite_state(struct nb_hermite *h, double *x, double *v,
                                       struct nb_error *err);
/* Kinetic and potential energy at that time; either may be NULL.  The
 * potential has double pair terms and sums: the engine's precision-G
 * kernel where it has one (compute), else the CPU, as `glnbody run`
 * reports it. */
NB_API enum nb_status nb_hermite_energy(struct nb_hermite *h, double *kinetic,
                                        double *potential, struct nb_error *err);
/* Block steps taken and particle steps (particles corrected) so far. */
NB_API void nb_hermite_counts(const struct nb_hermite *h, uint64_t *block_steps,
                              uint64_t *particle_steps);

/* ---- molecular dynamics ----------------------------------------------------- */

/* The pair laws: Lennard-Jones, Lennard-Jones with Coulomb (constant,
 * linear or sigmoidal dielectric; Elsen et al. 2006, Table 1), and the
 * ionic law of Boyarchenkov & Potashnikov 2009. */
enum nb_md_law {
    NB_LAW_LJ,
    NB_LAW_LJC_CONSTANT,
    NB_LAW_LJC_LINEAR,
    NB_LAW_LJC_SIGMOIDAL,
    NB_LAW_IONIC,
    NB_LAW_COUNT
};

/* What an MD system is: the law, its coefficients, the box and the step. */
struct nb_md_params {
    enum nb_md_law law;     /* default NB_LAW_LJ */
    int types;              /* particle types 1..types, at most 16; default 1 */
    const char *coeffs;     /* a coefficient table file (types, mass, charge,
                               lj, mix, ionic lines), or NULL: every type of
                               mass 1, charge 0, eps = sigma = 1; for
                               NB_LAW_IONIC with 2 types the program's
                               fluorite table (charges +2, -1) */
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
 * the type table, positions x and velocities v (3n each).  Checks the system (box, cutoff, types),
 * evaluates the initial forces; the caller owns *md. */
NB_API enum nb_status nb_md_create(struct nb_md **md, struct nb_gl *gl, enum nb_engine engine,
                                   size_t n, const int *type, const double *x,
                                   const double *v, const struct nb_md_params *par,
                                   struct nb_error *err);
/* An fcc lattice of 4 cells^3 atoms of type 1 and mass 1 at number
 * density rho, with velocities of temperature T drawn with seed (zero
 * total momentum); the box is the lattice's, periodic, replacing par's. */
NB_API enum nb_status nb_md_create_fcc(struct nb_md **md, struct nb_gl *gl,
                                       enum nb_engine engine, int cells, double rho,
                                       double temperature, uint64_t seed,
                                       const struct nb_md_params *par,
                                       struct nb_error *err);
NB_API void nb_md_destroy(struct nb_md *md);

/* Advances count steps (on the device where the engine can); NB_ERR_NUMERIC
 * when a force or a velocity goes non-finite. */
NB_API enum nb_status nb_md_step(struct nb_md *md, uint64_t count, struct nb_error *err);
NB_API enum nb_status nb_md_get_thermo(struct nb_md *md, struct nb_md_thermo *th,
                                       struct nb_error *err);
/* The particle count, and the positions and velocities (3n each; either
 * may be NULL), positions wrapped into the box. */
NB_API size_t nb_md_count(const struct nb_md *md);
NB_API enum nb_status nb_md_get_state(struct nb_md *md, double *x, double *v,
                                      struct nb_error *err);

#ifdef __cplusplus
}
#endif

#endif
