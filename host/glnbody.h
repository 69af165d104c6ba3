/* glnbody.h - the public C API of glnbody: direct N-body and molecular
 * dynamics forces on any GPU with OpenGL 3.3 core or OpenGL ES 3.0
 * (fragment-shader streams; compute shaders from OpenGL 4.3 and ES 3.1),
 * with a double-precision CPU engine beside them.
 * The program glnbody uses nothing else (make check-layers).
 *
 * Contents
 *    1. version and visibility            7. force engines (struct nb_forces),
 *                                         7a. their GRAPE-6 style j-memory
 *    2. errors                            8. CPU reference forces, accuracy
 *    3. engines and accumulation modes    9. Hermite block steps (struct nb_hermite)
 *    4. clock, random numbers, files     10. MD systems: laws, types, boxes, files
 *    5. particle sets and snapshots      11. MD runs (struct nb_md)
 *    6. GL contexts and shaders          12. MD force kernels for research
 *                                        13. j-parallel runs over processes (MPI)
 *                                        14. pictures: frames, movies, windows
 *                                        15. checkpoints and restarts
 *
 * Opaque handles, each with create, use and destroy:
 *   struct nb_gl       a GL context on a chosen EGL device;
 *   struct nb_forces   a force engine: gravitational accelerations and
 *                      potentials (GA), with jerks for Hermite block steps
 *                      (GAJ), on arrays of positions and masses;
 *   struct nb_hermite  a collisional N-body run: fourth-order Hermite with
 *                      block time steps (Makino & Aarseth 1992);
 *   struct nb_md       a molecular dynamics system stepped by velocity
 *                      Verlet (Swope et al. 1982);
 *   struct nb_md_forces  the MD forces of one system in every accumulation
 *                      mode, timed (Narumi et al.);
 *   struct nb_render   pictures of a run or a system drawn from the
 *                      engine's GPU buffers (and the texture inspector);
 *   struct nb_frames   a renderer's frames read back asynchronously, as
 *                      PNG files and an MP4 movie.
 * Plain structs of arrays where openness serves (REBOUND-style): particle
 * sets, MD type tables, boxes and systems, output files.
 *
 * Errors.  Every call that can fail returns an enum nb_status and fills
 * the struct nb_error * passed last (which may be NULL) with one message
 * naming the cause.  A handle call's refusal of an argument (NB_ERR_ARGS)
 * starts with the function's name; every other message is the cause as
 * the engine, file reader or check words it (file:line:column for a bad
 * file), and the building blocks a program words its own errors with
 * (sections 4, 5, 8, 10, 12, nb_md_prepare/start, nb_hermite_*_particles,
 * _step, _predict, _diag, nb_forces_time_ga, nb_forces_set_variant) never
 * prefix it.  The library never prints and never exits.
 *
 * Units.  Gravity uses G = 1 in whatever length, mass and time units the
 * caller's numbers are in; nothing is rescaled.  Molecular dynamics uses
 * reduced (LAMMPS lj) units: lengths in sigma, energies in epsilon, masses
 * in the type table's units, k_B = 1.
 *
 * Arrays.  Positions, velocities and results are structure-of-arrays in
 * double: x is 3n values x0 y0 z0 x1 ...; masses are n values.  The
 * handles copy what they are given and never keep the caller's pointers
 * (struct nb_md_system, a view, is the one exception).
 *
 * Threads and contexts.  A handle may be used from one thread at a time;
 * the functions on plain structs may run on different data at once (the
 * CPU ones use OpenMP inside).  Every handle made on a
 * context belongs to it and must be destroyed before it.  Any number of
 * contexts may exist in one process, each with its own programs and
 * buffers; each call makes its handle's context current on the calling
 * thread, so handles of several contexts can be used in turn from one
 * thread.  Calls on handles of different contexts may run on different
 * threads at once.  A context stays current on the thread that used it
 * last (EGL lets it be current on one thread only): before its handles
 * move to another thread, that thread releases it (nb_gl_release), and so
 * does a thread that ends while it is current.
 */
#ifndef GLNBODY_H
#define GLNBODY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 1. version and visibility ========================================== */

#define NB_VERSION_MAJOR 0
#define NB_VERSION_MINOR 11
#define NB_VERSION_PATCH 0

/* The public names of the shared library; everything else is hidden. */
#if defined(__GNUC__)
#define NB_API __attribute__((visibility("default")))
#define NB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define NB_API
#define NB_PRINTF(f, a)
#endif

/* The library's version at run time, "MAJOR.MINOR.PATCH", and as numbers
 * (any pointer may be NULL). */
NB_API const char *nb_version(void);
NB_API void nb_version_numbers(int *major, int *minor, int *patch);

/* ==== 2. errors =========================================================== */

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

/* Sets *err (if not NULL) to status and the printf-formatted message, and
 * returns status: for callers that report their own errors the same way. */
NB_API enum nb_status nb_error_set(struct nb_error *err, enum nb_status status,
                                   const char *fmt, ...) NB_PRINTF(3, 4);

/* ==== 3. engines and accumulation modes =================================== */

/* The three engines: the CPU in double (OpenMP), and the two GL pipelines. */
enum nb_engine { NB_ENGINE_CPU, NB_ENGINE_COMPUTE, NB_ENGINE_FRAGMENT, NB_ENGINE_COUNT };

/* "cpu", "compute", "fragment" to an engine (engine may be NULL for a
 * check); NB_ERR_ARGS naming the text and the choices. */
NB_API enum nb_status nb_engine_parse(const char *name, enum nb_engine *engine,
                                      struct nb_error *err);
NB_API const char *nb_engine_name(enum nb_engine engine);
/* 1 for the engines that need a GL context (compute, fragment). */
NB_API int nb_engine_needs_gl(enum nb_engine engine);

/* How a GPU kernel accumulates its pair terms: the methods of Table 1 of
 * Narumi et al. (A..G), and H.  A is the fast float kernel; H sums each
 * float pair term, rounded once to int64 fixed point, exactly and in any
 * order. */
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

/* "A".."H" (either case) to a mode; NB_ERR_ARGS naming option (e.g.
 * "--precision") otherwise. */
NB_API enum nb_status nb_precision_parse(const char *option, const char *text,
                                         enum nb_precision *mode, struct nb_error *err);
/* "A".."H", and "A (float sums)" .. "H (int64 fixed point)". */
NB_API const char *nb_precision_name(enum nb_precision mode);
NB_API const char *nb_precision_describe(enum nb_precision mode);

/* ==== 4. clock, random numbers, files ====================================== */

/* Monotonic wall clock in seconds; the median of n values (0 for n = 0). */
NB_API double nb_clock_seconds(void);
NB_API double nb_median(const double *values, size_t n);

/* xoshiro256**: the same numbers on every platform for a seed; every
 * generated system of the library draws from it. */
struct nb_rng { uint64_t s[4]; };
NB_API void nb_rng_seed(struct nb_rng *rng, uint64_t seed);
NB_API uint64_t nb_rng_next(struct nb_rng *rng);
NB_API double nb_rng_uniform(struct nb_rng *rng);      /* in [0, 1) */

/* An output file written under a temporary name in the same directory and
 * renamed into place by nb_outfile_commit, so that a failed or killed run
 * never leaves a partial file.  A path of "-" or NULL writes to stdout.  A
 * symbolic link is followed to the file it names; a path that exists and
 * is not a regular file (a device, a FIFO) is written directly; a
 * directory is refused at open.  Write into fp; a zeroed struct is closed. */
struct nb_outfile {
    FILE *fp;
    char *path;         /* final name (links followed), NULL for stdout */
    char *tmp_path;     /* temporary name, NULL for stdout or direct */
    int published;      /* renamed into place, still open (nb_outfile_publish) */
};
NB_API enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path,
                                      struct nb_error *err);
/* Flushes, checks for write errors (NB_ERR_IO) and renames into place. */
NB_API enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err);
/* Closes and removes the temporary file (nothing after a commit). */
NB_API void nb_outfile_abort(struct nb_outfile *f);
/* The outputs of one run, all or none: every file (fp NULL: skipped) is
 * flushed and synced first, then each committed; after an error every
 * file not yet committed is aborted. */
NB_API enum nb_status nb_outfile_commit_all(struct nb_outfile *const *files, size_t n,
                                            struct nb_error *err);
/* What nb_outfile_open would refuse, found without making anything: a
 * directory, a missing or unwritable directory.  For an output written
 * only at the end, so that a killed run leaves no empty temporary file. */
NB_API enum nb_status nb_outfile_check(const char *path, struct nb_error *err);
/* Long logs (energy log, thermo, dumps) that must survive a kill: the file
 * is made under its temporary name as usual, then published, renamed onto
 * its final name while it stays open, once the run is under way; from then
 * on rows are appended to the file under its final name and each is
 * flushed (nb_outfile_flush), so that after kill -9 the file holds whole
 * rows only, up to the last one written.  nb_outfile_abort then keeps what
 * a published file holds.  Nothing for stdout, devices and FIFOs. */
NB_API enum nb_status nb_outfile_publish(struct nb_outfile *f, struct nb_error *err);
/* Buffered data out, checked for a write error (NB_ERR_IO naming the path
 * and strerror); with sync, also onto the disk (fsync) for a regular file. */
NB_API enum nb_status nb_outfile_flush(struct nb_outfile *f, int sync,
                                       struct nb_error *err);
/* Bytes written so far (after a flush), or -1 for stdout and devices. */
NB_API long long nb_outfile_size(struct nb_outfile *f);
/* Opens path as nb_outfile_open does, then copies the first keep bytes of
 * the file now at path into it: a restarted run continues its log where
 * its checkpoint left it, dropping what was written after.  *kept is 1
 * when that was done, 0 when the file at path is missing, shorter than
 * keep or not a regular file, or keep < 0 (the log then starts afresh). */
NB_API enum nb_status nb_outfile_open_resume(struct nb_outfile *f, const char *path,
                                             long long keep, int *kept,
                                             struct nb_error *err);
/* Removes the temporary files "<path>.tmp.XXXXXX" that a writer of path
 * killed mid-write left: for a checkpoint, which only its own run writes,
 * before that run writes it or restarts from it. */
NB_API void nb_outfile_remove_temporaries(const char *path);

/* ==== 5. particle sets and snapshots ======================================= */

/* A particle set in double, structure of arrays; the caller owns it
 * (nb_particles_free).  Zero it before first use. */
struct nb_particles {
    size_t n;           /* number of particles */
    int64_t *id;        /* identifiers, as read or 0..n-1 */
    int *type;          /* types, or NULL when the set has no type column;
                           molecular dynamics numbers them from 1 (LAMMPS) */
    double *q;          /* charges, or NULL when the set has none */
    double *m;          /* masses, n */
    double *x;          /* positions, 3n: x0 y0 z0 x1 ... */
    double *v;          /* velocities, 3n */
};

/* n particles, zeroed, ids 0..n-1, no types (NB_ERR_NOMEM). */
NB_API enum nb_status nb_particles_alloc(struct nb_particles *p, size_t n,
                                         struct nb_error *err);
/* Adds the type column, zeroed. */
NB_API enum nb_status nb_particles_add_types(struct nb_particles *p, struct nb_error *err);
/* Frees the arrays and zeroes *p (a zeroed set too). */
NB_API void nb_particles_free(struct nb_particles *p);
/* Two particles at exactly one position (*found = 1, indices *first <
 * *second), where softening 0 makes their force infinite.  O(n log n). */
NB_API enum nb_status nb_particles_coincident(const struct nb_particles *p, size_t *first,
                                              size_t *second, int *found,
                                              struct nb_error *err);
/* n particles of mass 1/n uniform in [-1, 1]^3 (rounded to float), at
 * rest: the benchmark input.  Deterministic for a seed. */
NB_API enum nb_status nb_particles_random_cube(struct nb_particles *p, size_t n,
                                               uint64_t seed, struct nb_error *err);

/* Text snapshots: one particle a line, `id m x y z vx vy vz`, `id type m x
 * y z vx vy vz`, or `id type q m x y z vx vy vz` after a `#` line naming
 * those ten columns; blank and `#` lines ignored; every data line with
 * the same column count.  Errors (NB_ERR_IO, NB_ERR_PARSE) name
 * file:line:column and the reason; an empty file is refused. */
NB_API enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                       struct nb_error *err);
/* Writes p (%.17g: reads back exactly) whole or not at all (nb_outfile),
 * with the type and charge columns where p has them, each form after a
 * `#` line naming its columns; comment (may be NULL) becomes a first `# `
 * line.  NB_ERR_ARGS (charges without types), NB_ERR_IO, NB_ERR_NOMEM. */
NB_API enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                        const char *comment, struct nb_error *err);
/* The same text into fp (an nb_outfile the caller opened and commits);
 * path names it in errors. */
NB_API enum nb_status nb_snapshot_print(FILE *fp, const char *path,
                                        const struct nb_particles *p, const char *comment,
                                        struct nb_error *err);

/* ==== 6. GL contexts and shaders =========================================== */

/* How shaders are loaded. */
enum nb_shader_source {
    NB_SHADERS_AUTO,    /* SPIR-V when GL_ARB_gl_spirv is there, else GLSL */
    NB_SHADERS_SPIRV,   /* SPIR-V only; refused without GL_ARB_gl_spirv */
    NB_SHADERS_GLSL     /* GLSL source only */
};

/* Which API a context may use. */
enum nb_gl_api {
    NB_GL_API_AUTO,     /* OpenGL 4.3 core, 3.3 core, then ES 3.2, 3.1, 3.0 */
    NB_GL_API_GL,       /* desktop OpenGL (core profile) only */
    NB_GL_API_GLES      /* OpenGL ES only */
};

struct nb_gl_options {
    int device;                     /* EGL device index, -1 for the first */
    int debug;                      /* 1: GL_KHR_debug messages to stderr */
    enum nb_shader_source shaders;
    const char *shader_dir;         /* holds glsl/ and spirv/; NULL: default */
    enum nb_gl_api api;             /* which API (default: either) */
    /* Exactly this version (0.0: the list above): of api, or for
     * NB_GL_API_AUTO desktop GL from 3.3 on and ES below.  glnbody then
     * uses no more than this level even where the driver gives more. */
    int version_major, version_minor;
};

/* The defaults: the first device, no debug, automatic shaders, any API
 * level, and the
 * shader directory of the installation (or of the build tree the library
 * runs from).  $GLNBODY_SHADER_DIR overrides the directory, GLNBODY_DEBUG=1
 * turns debug on and GLNBODY_SHADERS=spirv|glsl forces a source. */
NB_API void nb_gl_options_default(struct nb_gl_options *opt);

/* A headless OpenGL (3.3 core on) or OpenGL ES (3.0 on) context (EGL)
 * with its program cache. */
struct nb_gl;

/* Creates a context: the EGL device platform (device opt->device) when
 * EGL_EXT_device_enumeration is there, else the surfaceless platform,
 * else the default display; opt NULL takes nb_gl_options_default's.  The
 * context is the first of OpenGL 4.3 core, 3.3 core, ES 3.2, 3.1, 3.0 that
 * opt->api allows, or exactly opt->version_major.minor.
 * NB_ERR_GL (no EGL display, or none of those contexts: the message lists
 * them), NB_ERR_ARGS (no such device), NB_ERR_UNSUPPORTED (SPIR-V forced
 * but not supported, or a driver below OpenGL 3.3 / ES 3.0).  What a
 * level lacks is refused later, by the engine or mode that needs it, in
 * one line naming the feature and both versions.  The caller owns *gl. */
NB_API enum nb_status nb_gl_create(struct nb_gl **gl, const struct nb_gl_options *opt,
                                   struct nb_error *err);
/* Destroys the context (NULL is allowed); destroy its handles first. */
NB_API void nb_gl_destroy(struct nb_gl *gl);
/* Releases gl from the calling thread where it is current there (else
 * nothing), so that another thread can use its handles. */
NB_API void nb_gl_release(struct nb_gl *gl);
/* "GL_RENDERER, LEVEL (GL_VERSION)", LEVEL being the API and version glnbody
 * uses ("OpenGL 4.5 core", "OpenGL ES 3.1"); owned by gl. */
NB_API const char *nb_gl_renderer(const struct nb_gl *gl);
/* 1 when gl loads SPIR-V, 0 when it compiles GLSL source. */
NB_API int nb_gl_uses_spirv(const struct nb_gl *gl);
/* Number of EGL devices (0 without EGL_EXT_device_enumeration). */
NB_API int nb_gl_device_count(void);

/* The shader programs the library can load, for building SPIR-V ahead
 * of time (tools/build_spirv.sh); no context needed.  The name of program
 * k (0, 1, ...), NULL past the last; its stages (1 or 2), and the file
 * extension of stage s ("vert", "frag", "comp"), NULL for a bad name or
 * stage. */
NB_API const char *nb_shader_program(size_t k);
NB_API int nb_shader_stages(const char *program);
NB_API const char *nb_shader_extension(const char *program, int stage);
/* Writes stage s of program, its GLSL assembled exactly as the loader
 * assembles it from shader_dir/glsl (NULL: the default directory), to
 * out.  NB_ERR_ARGS (no such program or stage), NB_ERR_IO. */
NB_API enum nb_status nb_shader_emit(const char *program, int stage, const char *shader_dir,
                                     FILE *out, struct nb_error *err);

/* What a context is (for self-describing reports, glnbody bench --report). */
/* The context's API, version, strings and the limits that matter to the
 * kernels (0 where the level has no such limit, e.g. compute on 3.3). */
struct nb_gl_info {
    int es;                         /* 1: OpenGL ES */
    int major, minor;               /* the level glnbody uses */
    int obtained_major, obtained_minor;   /* the driver's (can be higher) */
    char api[32];                   /* "OpenGL 4.5 core", "OpenGL ES 3.1" */
    char vendor[128], renderer[256], version[256], glsl[128];
    char egl_vendor[128], egl_version[128];
    char egl_device[256];           /* EGL_EXT_device_query's DRM node, "" if unknown */
    int max_texture_size, max_draw_buffers, max_color_attachments;
    int max_work_group_invocations, max_work_group_size[3];
    int max_shared_memory, max_compute_storage_blocks;
    int compute, spirv, fp64, int64;    /* what the level can run */
};
/* Fills info from gl (made current). */
NB_API enum nb_status nb_gl_info(struct nb_gl *gl, struct nb_gl_info *info,
                                 struct nb_error *err);

/* ==== 7. force engines ===================================================== */

/* A force engine of one kind on one context (gl may be NULL for
 * NB_ENGINE_CPU).  The engine borrows gl. */
struct nb_forces;

NB_API enum nb_status nb_forces_create(struct nb_forces **f, struct nb_gl *gl,
                                       enum nb_engine engine, struct nb_error *err);
NB_API void nb_forces_destroy(struct nb_forces *f);

/* What an engine can do: bits of nb_forces_caps. */
enum nb_forces_caps {
    NB_FORCES_DOUBLE = 1u << 0,     /* GA sums in double (the CPU): results
                                       worth printing with %.17g */
    NB_FORCES_MODES = 1u << 1,      /* GA accumulation modes B..H */
    NB_FORCES_GAJ_MODES = 1u << 2   /* modes B..H reach the GAJ kernel too */
};
NB_API unsigned nb_forces_caps(const struct nb_forces *f);
/* The renderer ("cpu (N threads)" for the CPU), owned by f. */
NB_API const char *nb_forces_renderer(const struct nb_forces *f);
/* Every variant name of the engine, NULL-terminated, owned by f. */
NB_API const char *const *nb_forces_variants(const struct nb_forces *f);

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
/* GA timed: uploads once, evaluates warmup times untimed and runs >= 1
 * times timed; *median is the median device seconds of the timed runs,
 * acc and pot (either may be NULL) the last result. */
NB_API enum nb_status nb_forces_time_ga(struct nb_forces *f, size_t n, const double *x,
                                        const double *m, double eps, int warmup, int runs,
                                        double *acc, double *pot, double *median,
                                        struct nb_error *err);

/* GAJ, for Hermite block steps: sets the j-particles (positions x, 3n,
 * velocities v, 3n, masses m, n; f keeps a copy) that later nb_forces_gaj
 * calls act from, in the mode set now.  GA calls on f in between leave
 * them (the copy is uploaded again where the engine shares its streams);
 * a Hermite run on f or a new mode replaces them: nb_forces_gaj then
 * refuses with NB_ERR_ARGS until the next set_j. */
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

/* ==== 7a. j-memory block steps, GRAPE-6 style (issue 15: libg6gl) ========
 *
 * What the GRAPE-6 interface (Makino et al. 2003; Sapporo2, Gaburov et al.
 * 2009, Bedorf et al. 2015) asks of a force engine, on nb_forces: a
 * j-memory of particles kept as Taylor coefficients at their own times,
 * updated a few addresses at a time; each block step predicts the whole
 * j-memory to the block time on the device and evaluates the GAJ law on
 * i-particles given by position and velocity (not by j-address), excluding
 * the pairs whose ids match.  Start and finish are apart so that the host
 * can work while the GPU does.  NB_ENGINE_COMPUTE only: the other engines
 * refuse with NB_ERR_UNSUPPORTED (the fragment pipeline has no atomics for
 * neighbour lists and no double for the Taylor coefficients; the CPU
 * engine has nothing to overlap).  All modes A..H of
 * nb_forces_set_precision apply; E, F and H need eps2 > 0 (their
 * fixed-point scales come from the bounds M 0.385 / eps^2 on |a|, M / eps
 * on |phi|, and 1.56 M v / eps^3 on |jerk| with v twice the fastest
 * j-particle's speed plus the fastest i-particle's). */

/* One j-particle: position x, velocity v, a2 = acceleration / 2 and
 * j6 = jerk / 6 at its time t (GRAPE-6's own scaling), mass and id. */
struct nb_jparticle {
    double x[3], v[3], a2[3], j6[3];
    double t, mass;
    int32_t id;
};

/* Makes the j-memory hold at least addresses 0..capacity-1: the addresses
 * held keep their particles, new ones are massless and far away (no force,
 * never a neighbour).  NB_ERR_UNSUPPORTED off the compute engine,
 * NB_ERR_LIMIT past 2^26 addresses, NB_ERR_NOMEM. */
NB_API enum nb_status nb_forces_jmem_reserve(struct nb_forces *f, size_t capacity,
                                             struct nb_error *err);
/* Queues count j-particles for the addresses address[] (each below the
 * capacity; a later one for the same address replaces an earlier one).
 * They reach the device with the next nb_forces_block_start. */
NB_API enum nb_status nb_forces_jmem_put(struct nb_forces *f, size_t count,
                                         const uint32_t *address,
                                         const struct nb_jparticle *jp,
                                         struct nb_error *err);

/* What nb_forces_block_start computes besides acc, jerk and potential. */
enum nb_block_flags {
    NB_BLOCK_NEAREST = 1u << 0,    /* the nearest j-particle of each i */
    NB_BLOCK_TIMED = 1u << 1       /* its device seconds, for nb_forces_seconds
                                      (a GL timer query: ~3.5 us a block on
                                      an H100, so only when asked for) */
};

/* Starts a block and returns without waiting for it: sends the queued
 * j-particles, predicts addresses 0..nj-1 to time ti on the device, and
 * evaluates for the ni i-particles (id[ni], x and v 3 ni, h2[ni] the
 * neighbour radii squared, may be NULL) the softened (eps2 = eps^2 >= 0)
 * acceleration, jerk and potential from every j-particle of another id.
 * ni at most nb_forces_block_size.  NB_ERR_ARGS for bad arguments or
 * nj above the capacity. */
NB_API enum nb_status nb_forces_block_start(struct nb_forces *f, size_t nj, double ti,
                                            double eps2, size_t ni, const int32_t *id,
                                            const double *x, const double *v,
                                            const double *h2, unsigned flags,
                                            struct nb_error *err);
/* Waits for the block started last and writes acc, jerk (3 ni each), pot
 * (ni) and, when it was started with NB_BLOCK_NEAREST, nearest (ni ids;
 * -1 where no other j-particle exists) and nearest_r2 (ni squared
 * unsoftened distances); any pointer may be NULL.  nb_forces_seconds is
 * then the block's device time where it was started with NB_BLOCK_TIMED,
 * else 0.  NB_ERR_ARGS without a started block, or for nearest without
 * NB_BLOCK_NEAREST. */
NB_API enum nb_status nb_forces_block_finish(struct nb_forces *f, double *acc, double *jerk,
                                             double *pot, int32_t *nearest,
                                             double *nearest_r2, struct nb_error *err);
/* The neighbours of the block finished last: for each i-particle k, the
 * ids of the j-particles of other ids within sqrt(h2[k]) (unsoftened, at
 * ti), ascending, in list[k * room ..], at most room of them, and their
 * true number in count[k] (above room: the list was cut).  NB_ERR_ARGS
 * without a finished block or without h2. */
NB_API enum nb_status nb_forces_block_neighbours(struct nb_forces *f, size_t room,
                                                 uint32_t *count, int32_t *list,
                                                 struct nb_error *err);
/* The block size (i-particles per start) that fills the engine's device,
 * and the most a start takes. */
NB_API size_t nb_forces_block_size(const struct nb_forces *f);

/* ==== 8. CPU reference forces, accuracy ==================================== */

/* GA in double with Newton's third law (OpenMP; the result does not depend
 * on the thread count): acc (3n), pot (n), as nb_forces_ga. */
NB_API enum nb_status nb_cpu_ga(size_t n, const double *x, const double *m, double eps,
                                double *acc, double *pot, struct nb_error *err);
/* The sums of the pair terms' magnitudes, sum_j |a_ij| and sum_j |phi_ij|:
 * the scale that bounds float rounding in a_i and phi_i. */
NB_API enum nb_status nb_cpu_ga_magnitudes(size_t n, const double *x, const double *m,
                                           double eps, double *acc_abs, double *pot_abs,
                                           struct nb_error *err);

/* How far a GA result is from the reference (Narumi et al. eqs. 10-11). */
struct nb_accuracy {
    double acc_rel_max;     /* max_i |a_i - ref| / sum_j |a_ij| */
    double pot_rel_max;     /* max_i |phi_i - ref| / sum_j |phi_ij| */
    size_t acc_worst;       /* the particle of acc_rel_max */
    double f_err;           /* eq. 10: sum |F - F_ref| / sum |F_ref| */
    double f_offset;        /* eq. 11: |sum F| / sum |F| */
    size_t nonfinite;       /* particles with a NaN or infinite component */
};
/* acc/pot against ref_acc/ref_pot, scaled by the magnitudes of
 * nb_cpu_ga_magnitudes; forces F = m a. */
NB_API void nb_accuracy_ga(size_t n, const double *m, const double *acc, const double *pot,
                           const double *ref_acc, const double *ref_pot,
                           const double *acc_abs, const double *pot_abs,
                           struct nb_accuracy *out);

/* ==== 9. Hermite block steps =============================================== */

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

/* The smallest step (a particle asking for less stops the run) and the
 * largest time: block times are exact binary fractions only below it. */
#define NB_HERMITE_DT_FLOOR 0x1p-40
#define NB_HERMITE_T_MAX 8192.0

/* An equal-mass Plummer sphere of n >= 2 particles in Henon units (total
 * mass 1, E = -1/4; Aarseth, Henon & Wielen 1974), drawn with seed; its
 * potential energy is summed in double on f's engine (f NULL: the CPU),
 * so f's engine sets its last bits. */
NB_API enum nb_status nb_particles_plummer(struct nb_particles *p, size_t n, uint64_t seed,
                                           struct nb_forces *f, struct nb_error *err);

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
/* From a particle set (copied, ids kept for nb_hermite_particles). */
NB_API enum nb_status nb_hermite_create_particles(struct nb_hermite **h, struct nb_forces *f,
                                                  const struct nb_particles *p,
                                                  const struct nb_hermite_params *par,
                                                  struct nb_error *err);
/* From nb_particles_plummer's sphere. */
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
/* One block at a time: the time of the next block step, and the step
 * itself (the state then reads as of that time).  After a failed step
 * every stepping call refuses with its status. */
NB_API double nb_hermite_next_time(const struct nb_hermite *h);
NB_API enum nb_status nb_hermite_step(struct nb_hermite *h, struct nb_error *err);
/* The time the state is at. */
NB_API double nb_hermite_time(const struct nb_hermite *h);
/* Positions and velocities (3n each; either may be NULL) at that time. */
NB_API enum nb_status nb_hermite_state(struct nb_hermite *h, double *x, double *v,
                                       struct nb_error *err);
/* Every particle predicted in double to t, from the time of the last block
 * step up to the next (x, v: 3n each), without changing the run: outputs
 * between block times.  NB_ERR_ARGS for t out of that range. */
NB_API enum nb_status nb_hermite_predict(const struct nb_hermite *h, double t, double *x,
                                         double *v, struct nb_error *err);
/* The run's particles (ids, masses; x and v as of each particle's last
 * correction), owned by h. */
NB_API const struct nb_particles *nb_hermite_particles(const struct nb_hermite *h);
/* The parameters in use (dt_max rounded to a power of two). */
NB_API void nb_hermite_get_params(const struct nb_hermite *h, struct nb_hermite_params *par);
/* Kinetic and potential energy at that time; either may be NULL.  The
 * potential has double pair terms and sums: the engine's precision-G
 * kernel where it has one (compute), else the CPU, as `glnbody run`
 * reports it. */
NB_API enum nb_status nb_hermite_energy(struct nb_hermite *h, double *kinetic,
                                        double *potential, struct nb_error *err);
/* Block steps taken and particle steps (particles corrected) so far. */
NB_API void nb_hermite_counts(const struct nb_hermite *h, uint64_t *block_steps,
                              uint64_t *particle_steps);

/* The counters and the time split of Portegies Zwart et al. 2007 eq. 10. */
struct nb_hermite_stats {
    uint64_t block_steps;       /* the initial evaluation not counted */
    uint64_t particle_steps;    /* particles corrected, summed over blocks */
    double t_host;              /* wall s on the host: predict, correct, steps */
    double t_force;             /* device s of the GAJ kernel */
    double t_comm;              /* wall s in engine calls less t_force and
                                   t_reduce: uploads, read-back (PCIe) */
    double t_reduce;            /* wall s in a partition's callbacks (the
                                   MPI_Allreduce of section 13), else 0 */
};
NB_API void nb_hermite_stats(const struct nb_hermite *h, struct nb_hermite_stats *st);

/* One row of an energy log. */
struct nb_diag {
    double t, ekin, epot, etot;
    double de_rel;          /* (etot - e0) / |e0| */
    double virial;          /* 2 ekin / |epot| (1 in virial equilibrium) */
    double p_abs, l_abs;    /* |sum m v|, |sum m x cross v| */
    double com[3];          /* sum m x / sum m */
    uint64_t block_steps, particle_steps;
    int epot_from_gaj;      /* 1: from the GAJ potentials of a block of
                               every particle; 0: an O(n^2) sum in double */
};
/* The row of the run's state x, v (3n each, from nb_hermite_predict at t)
 * against the reference energy e0.  exact 1: the potential summed in
 * double (O(n^2)); 0: the GAJ potentials of the last block where it held
 * every particle at t, else as exact. */
NB_API enum nb_status nb_hermite_diag(struct nb_hermite *h, double t, const double *x,
                                      const double *v, double e0, int exact,
                                      struct nb_diag *d, struct nb_error *err);
/* The CSV header `t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,
 * com_z,block_steps,particle_steps` and one row (%.17g), each a line. */
NB_API void nb_diag_csv_header(FILE *fp);
NB_API void nb_diag_csv_row(FILE *fp, const struct nb_diag *d);

/* ==== 10. MD systems: laws, types, boxes, files ============================= */

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

/* ==== 11. MD runs ============================================================ */

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

/* ==== 12. MD force kernels for research ===================================== */

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

/* ==== 13. j-parallel runs (Harfst et al. 2007) ============================ */

/* A force evaluation or a Hermite run shared by P cooperating processes
 * ("ranks", e.g. of MPI), each with its own force engine and the same
 * particles.  Rank r sums the forces from its slice of the j-particles
 * only (nb_partition_slice: contiguous, balanced by count), for the whole
 * block of i-particles; the caller's callbacks add the partial sums over
 * the ranks, so that every rank gets the same totals and integrates the
 * same way.  The library knows nothing of the transport: the callbacks
 * wrap MPI_Allreduce or whatever the caller uses.
 *
 * Each evaluation makes exactly one callback, on every rank, with the same
 * count: one per block step of a Hermite run.  It carries the block's
 * partial acceleration, jerk and potential: 7 doubles per i-particle
 * (sum_double), or in precision H their exact fixed-point sums, 8 int64
 * per i-particle (sum_int64), which add exactly and in any order, so a
 * run in precision H is bit for bit the same for any P.  A callback that
 * fails returns its status and fills err; the evaluation then fails with
 * that error (the caller must then stop the other ranks, which wait in
 * their own callbacks). */
struct nb_partition {
    int ranks;                  /* P >= 1 */
    int rank;                   /* this caller's, 0..P-1 */
    /* values[0..count) := their sum over the ranks, on every rank. */
    enum nb_status (*sum_double)(void *user, double *values, size_t count,
                                 struct nb_error *err);
    /* The same for the int64 words of precision H. */
    enum nb_status (*sum_int64)(void *user, int64_t *values, size_t count,
                                struct nb_error *err);
    void *user;                 /* passed to the callbacks */
};

/* Rank r's slice [*first, *end) of n j-particles over P ranks:
 * first = floor(n r / P), end = floor(n (r + 1) / P). */
NB_API void nb_partition_slice(size_t n, int ranks, int rank, size_t *first,
                               size_t *end);
/* Puts f's GAJ evaluations (nb_forces_gaj, Hermite runs on f) and its GA
 * evaluations (nb_forces_ga, then through the GAJ kernel with zero
 * velocities) under part, copied; NULL removes it.  With P = 1 the same
 * path runs with the one slice of everything.  NB_ERR_ARGS for a bad
 * partition (a callback NULL, rank out of range).  Every engine sums
 * slices: the CPU, compute (modes A..H) and fragment (A) engines.  Set it
 * before nb_hermite_create (its initial forces are the first evaluation);
 * every rank passes all n particles, as without a partition: each engine
 * keeps the whole j-set (any particle may be an i-particle, and precision
 * H's fixed-point ranges come from the whole set, the same on every rank)
 * and sums only its slice. */
NB_API enum nb_status nb_forces_set_partition(struct nb_forces *f,
                                              const struct nb_partition *part,
                                              struct nb_error *err);

/* ==== 14. pictures: frames, movies, windows ================================== */

/* A renderer draws a system as point sprites with additive blending into
 * an off-screen framebuffer of its context: coloured by speed, potential
 * or type, sized by mass (gravity) or type (MD), with the edges of a
 * periodic box.  It draws straight from the particle streams the engine
 * already holds on the GPU (the compute pipeline's position buffer as the
 * vertex source, the fragment pipeline's position texture fetched in the
 * vertex shader); only the CPU engine's positions are uploaded.  A frame
 * sequence reads finished pictures back through a ring of pixel-buffer
 * objects and fences, so the simulation never waits for a read, and writes
 * them as PNG files (libpng) under temporary names renamed into place, and
 * optionally into an MP4 movie through ffmpeg. */

/* What the colour of a particle shows. */
enum nb_render_color {
    NB_COLOR_SPEED,         /* |v|, on a ramp from blue to white to red */
    NB_COLOR_POTENTIAL,     /* the potential energy of each particle */
    NB_COLOR_TYPE,          /* a fixed colour per type (gravity: type 1) */
    NB_COLOR_COUNT
};

/* A perspective camera orbiting a centre: it sits at distance from the
 * centre, turned by azimuth about +y and raised by elevation (degrees);
 * azimuth = elevation = 0 looks down -z with +x to the right and +y up. */
struct nb_camera {
    double center[3];
    double distance;        /* 0: fit the system: look at its box's centre
                               (without a box, the particles' centroid)
                               from where the box, or the sphere holding
                               90% of the particles, fills the view */
    double azimuth, elevation;
    double fov;             /* vertical field of view, degrees */
};

struct nb_render_options {
    int width, height;      /* pixels of the picture */
    enum nb_render_color color;
    struct nb_camera camera;
    double point_size;      /* radius of a particle of mean mass (or of
                               type 1) in length units; 0: automatic */
    double brightness;      /* of one sprite's centre, 0..1; 0: automatic
                               (dimmer for larger N so that cores do not
                               saturate) */
};
/* 640x480, colour by speed, the fitted camera at azimuth 30 and elevation
 * 20 degrees with a field of view of 45 degrees, automatic sizes. */
NB_API void nb_render_options_default(struct nb_render_options *opt);

struct nb_render;

/* A renderer on gl (which it borrows): NB_ERR_ARGS for a size outside
 * 1..the GL limit (GL_MAX_RENDERBUFFER_SIZE), NB_ERR_GL for a program. */
NB_API enum nb_status nb_render_create(struct nb_render **r, struct nb_gl *gl,
                                       const struct nb_render_options *opt,
                                       struct nb_error *err);
NB_API void nb_render_destroy(struct nb_render *r);
/* Replaces the options (a new size re-makes the framebuffer). */
NB_API enum nb_status nb_render_set_options(struct nb_render *r,
                                            const struct nb_render_options *opt,
                                            struct nb_error *err);
/* The options in use; a fitted camera's distance and centre as fitted
 * once a frame was drawn. */
NB_API void nb_render_get_options(const struct nb_render *r, struct nb_render_options *opt);

/* Draws a frame of a Hermite run at the time of its last block step, from
 * its engine's j-particle stream on the GPU (the CPU engine: uploaded).
 * NB_COLOR_POTENTIAL is refused (NB_ERR_ARGS): a block-step run keeps
 * potentials only for its last block. */
NB_API enum nb_status nb_render_draw_hermite(struct nb_render *r, struct nb_hermite *h,
                                             struct nb_error *err);
/* Draws a frame of an MD system from its engine's positions on the GPU
 * (velocities too when the engine integrates there), the box edges where
 * an axis is periodic. */
NB_API enum nb_status nb_render_draw_md(struct nb_render *r, struct nb_md *md,
                                        struct nb_error *err);
/* Draws n particles from host arrays: positions x (3n); v (3n), pot (n),
 * m (n) and type (n, from 1) may each be NULL (a missing colour or size
 * source counts as constant); box lo, hi (3 each) drawn when not NULL. */
NB_API enum nb_status nb_render_draw_arrays(struct nb_render *r, size_t n, const double *x,
                                            const double *v, const double *pot,
                                            const double *m, const int *type,
                                            const double *box_lo, const double *box_hi,
                                            struct nb_error *err);
/* The texture inspector, the stream model made visible: over the right
 * side of the last frame, the results of the engine's last force pass as
 * they lie on the GPU, texel for texel: the fragment pipeline's render
 * targets (one row each: the vector's magnitude beside the scalar's), or
 * the compute pipeline's output buffers, as false colour of log10 of the
 * magnitude from 1e-4 (black) to 1e4 (white), with a colour bar.  text
 * (size bytes; may be NULL) receives the variant's shape (i per
 * fragment, j per step, replicas, passes; or tiles and j-slices) and a
 * line naming each row.  The accumulation modes B..H finish their words on
 * the host: their shape is told, no panels.  Draw a frame first. */
NB_API enum nb_status nb_render_inspect_hermite(struct nb_render *r, struct nb_hermite *h,
                                                char *text, size_t size,
                                                struct nb_error *err);
NB_API enum nb_status nb_render_inspect_md(struct nb_render *r, struct nb_md *md, char *text,
                                           size_t size, struct nb_error *err);
/* Blends a w x h image of RGBA bytes (rows top first, straight alpha) over
 * the last frame with its top-left corner at pixel (x, y): captions,
 * colour bars. */
NB_API enum nb_status nb_render_overlay(struct nb_render *r, int x, int y, int w, int h,
                                        const unsigned char *rgba, struct nb_error *err);
/* Copies the last frame into the default framebuffer of the context's
 * current window surface, scaled to width x height (the window viewer). */
NB_API enum nb_status nb_render_present(struct nb_render *r, int width, int height,
                                        struct nb_error *err);

/* A numbered sequence of frames of r: dir/frame_NNNNN.png (dir NULL: no
 * PNG files; dir is made if missing, one level), and movie (NULL: none) an
 * MP4 file encoded by ffmpeg at fps frames per second.  NB_ERR_IO where
 * dir cannot be made or written, NB_ERR_UNSUPPORTED where ffmpeg is not
 * found in PATH.  The sequence borrows r. */
struct nb_frames;
NB_API enum nb_status nb_frames_create(struct nb_frames **fr, struct nb_render *r,
                                       const char *dir, const char *movie, double fps,
                                       struct nb_error *err);
/* Starts an asynchronous read of r's last frame; frames read earlier whose
 * fences have passed are written now (a PNG each, and to the movie). */
NB_API enum nb_status nb_frames_capture(struct nb_frames *fr, struct nb_error *err);
/* Waits for every pending frame, writes it, and finishes the movie (ffmpeg's
 * status checked; the file renamed into place). */
NB_API enum nb_status nb_frames_finish(struct nb_frames *fr, struct nb_error *err);
/* Frames captured so far. */
NB_API uint64_t nb_frames_count(const struct nb_frames *fr);
/* Destroys the sequence; an unfinished movie is removed (PNG files already
 * written stay: each is complete). */
NB_API void nb_frames_destroy(struct nb_frames *fr);
/* 1 where movies can be made: ffmpeg, which nb_frames_create runs to
 * encode them, is an executable found in PATH; 0 where it is not (a
 * program may refuse --movie before a run starts). */
NB_API int nb_frames_movie_available(void);
/* Writes r's last frame as one PNG file (read back at once, synchronously). */
NB_API enum nb_status nb_render_write_png(struct nb_render *r, const char *path,
                                          struct nb_error *err);

/* A context around the EGL context current on the calling thread (a GLFW
 * window made with GLFW_EGL_CONTEXT_API), so that the engines' buffers live
 * in the window's context; its surfaces are kept for nb_gl_make_current.
 * The context stays the window library's: nb_gl_destroy leaves it alive.
 * NB_ERR_GL where no EGL context is current or it is older than 4.3. */
NB_API enum nb_status nb_gl_create_from_current(struct nb_gl **gl,
                                                const struct nb_gl_options *opt,
                                                struct nb_error *err);

/* ==== 15. checkpoints and restarts (issue 16) ================================ */

/* A run's whole state in a file, to be continued bit for bit in another
 * process: the format of `glnbody run --checkpoint` and `glnbody md
 * --checkpoint` (a magic number, a format version, the byte order, the
 * particle count, the state, the application's own bytes, zlib's crc32),
 * written under a temporary name in the same directory, synced and
 * renamed, so that the previous checkpoint at path stays until the new one
 * is whole.  Writing: NB_ERR_IO naming path and the system's reason,
 * NB_ERR_NOMEM.  Reading: NB_ERR_IO for a file that cannot be read,
 * NB_ERR_PARSE naming path and the reason for one that is truncated, fails
 * its CRC, has another version or byte order, or is of the other kind. */
enum nb_checkpoint_kind { NB_CHECKPOINT_HERMITE = 1, NB_CHECKPOINT_MD = 2 };

/* The application's bytes stored with the state (app_size of them; a
 * program's options, say), after the whole file was checked: *app is a
 * malloc'd copy with a NUL after its *size bytes (the caller frees it);
 * *n the particle count (size and n may be NULL). */
NB_API enum nb_status nb_checkpoint_app(const char *path, enum nb_checkpoint_kind kind,
                                        char **app, size_t *size, uint64_t *n,
                                        struct nb_error *err);

/* Saves h: each particle's time, step, x, v, a, jerk and the corrector's
 * a2, a3, the block clock, the counters, the parameters, the time h reads
 * as of, and app (may be NULL). */
NB_API enum nb_status nb_hermite_checkpoint(struct nb_hermite *h, const char *path,
                                            const void *app, size_t app_size,
                                            struct nb_error *err);
/* A run continued from path on the force engine f, with the saved
 * parameters and predict_on_device as saved (-1) or as given (0, 1): on
 * the engine, variant and precision mode of the saved run, every later
 * step is the one it would have taken (with predict_on_device the device
 * copy is rebuilt from the saved state).  The caller owns *h. */
NB_API enum nb_status nb_hermite_restore(struct nb_hermite **h, struct nb_forces *f,
                                         const char *path, int predict_on_device,
                                         struct nb_error *err);
/* Saves a started md (fetched from the device where it integrates there):
 * x and v in double, the step, the box, the force law with its type table,
 * types, masses, charges, the excluded pairs, the scales a scaled
 * precision mode measured at the start, the ids of p (the system's
 * particle set, NULL: 0..n-1; its charges say whether it had any) and app. */
NB_API enum nb_status nb_md_checkpoint(struct nb_md *md, const char *path,
                                       const struct nb_particles *p, const void *app,
                                       size_t app_size, struct nb_error *err);
/* nb_md_prepare of the system saved in path (cell_list as there), at its
 * step; nb_md_start then starts it on any engine, taking the saved scales
 * in modes E, F, H, so that on the saved engine and mode every later step
 * is the one the saved run would have taken.  *p (may be NULL) gets the
 * saved particle set (x and v as saved), which the caller frees, and *box
 * (may be NULL) the box. */
NB_API enum nb_status nb_md_prepare_restart(struct nb_md **md, const char *path,
                                            int cell_list, struct nb_particles *p,
                                            struct nb_md_box *box, struct nb_error *err);
/* A restarted run's frame sequence continues its numbering: the next
 * capture is frame_<index>.png (before any capture; NB_ERR_ARGS after). */
NB_API enum nb_status nb_frames_start_at(struct nb_frames *fr, uint64_t index,
                                         struct nb_error *err);
/* Refuses (NB_ERR_LIMIT, naming the limit) n particles that engine's
 * pipeline cannot hold on gl (the storage-buffer size for compute, the
 * texture size for fragment), before anything is allocated for them;
 * NB_OK for NB_ENGINE_CPU (gl may then be NULL). */
NB_API enum nb_status nb_gl_check_particles(struct nb_gl *gl, enum nb_engine engine,
                                            size_t n, struct nb_error *err);

#ifdef __cplusplus
}
#endif

#endif
