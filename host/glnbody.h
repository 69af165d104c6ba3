/* glnbody.h - the public C API of glnbody: direct N-body and molecular
 * dynamics forces on any GPU with OpenGL 3.3 core or OpenGL ES 3.0
 * (fragment-shader streams; compute shaders from OpenGL 4.3 and ES 3.1),
 * with a double-precision CPU engine beside them.
 * The program glnbody uses nothing else (make check-layers).  A program
 * includes this file alone; sections 7 to 15 live in the headers of
 * glnbody/ beside it, which it includes (installed as include/glnbody/).
 *
 * Contents, each section marked by how stable it is:
 *   core      what a program builds on: kept from version to version, with
 *             any change listed in the changelog;
 *   utility   helpers the program glnbody uses (files, clock, random
 *             numbers, initial conditions, pictures): they work as
 *             documented but may move out of the library;
 *   research  measurements of kernels and modes: may change in any version.
 *
 *    here:
 *     1. version and visibility                 core
 *     2. errors                                 core
 *     3. engines and accumulation modes         core
 *     4. clock, random numbers, files           utility
 *     5. particle sets and snapshots            core; files utility
 *     6. GL contexts and shaders                core
 *    in glnbody/:
 *     7. force engines (struct nb_forces)       core       forces.h
 *     7a. their GRAPE-6 style j-memory          core
 *     8. CPU reference forces, accuracy         utility
 *     9. Hermite block steps                    core       hermite.h
 *    10. MD systems: laws, types, files         core; files utility   md.h
 *    11. MD runs (struct nb_md)                 core
 *    12. MD force kernels for research          research
 *    13. parallel runs (MPI)                    research   parallel.h
 *    14. pictures: frames, movies, inspector    utility    render.h
 *    15. checkpoints and restarts               core       checkpoint.h
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

/* ==== 1. version and visibility ========================= core ========== */
/* Stable: the version macros and NB_API stay as they are. */

#define NB_VERSION_MAJOR 0
#define NB_VERSION_MINOR 12
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

/* ==== 2. errors ========================================== core ========== */
/* Stable: new statuses may be added at the end, none removed. */

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

/* ==== 3. engines and accumulation modes ================= core ========== */
/* Stable: new engines and modes may be added before the _COUNT values. */

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
                           fixed point: exact, order-independent sums (the
                           block steps: each i-particle's own range,
                           nb_forces_block_hint) */
    NB_PRECISION_COUNT
};

/* "A".."H" (either case) to a mode; NB_ERR_ARGS naming option (e.g.
 * "--precision") otherwise. */
NB_API enum nb_status nb_precision_parse(const char *option, const char *text,
                                         enum nb_precision *mode, struct nb_error *err);
/* "A".."H", and "A (float sums)" .. "H (int64 fixed point)". */
NB_API const char *nb_precision_name(enum nb_precision mode);
NB_API const char *nb_precision_describe(enum nb_precision mode);

/* ==== 4. clock, random numbers, files =================== utility ======= */
/* Utility: helpers the program glnbody writes its files with; they work
 * as documented but may move out of the library in a later version. */

/* Monotonic wall clock in seconds; the median of n values (0 for n = 0). */
NB_API double nb_clock_seconds(void);
NB_API double nb_median(const double *values, size_t n);

/* xoshiro256**: the same numbers on every platform for a seed; every
 * generated system of the library draws from it. */
struct nb_rng { uint64_t s[4]; };
NB_API void nb_rng_seed(struct nb_rng *rng, uint64_t seed);
NB_API uint64_t nb_rng_next(struct nb_rng *rng);
NB_API double nb_rng_uniform(struct nb_rng *rng);      /* in [0, 1) */

/* An output file written without a name (O_TMPFILE; where the file system
 * lacks it, under a temporary name in the same directory) and put in place
 * by nb_outfile_commit, so that a failed or killed run never leaves a
 * partial or temporary file.  A path of "-" or NULL writes to stdout.  A
 * symbolic link is followed to the file it names; a path that exists and
 * is not a regular file (a device, a FIFO, a pipe or terminal behind
 * /dev/stdout) is written directly; a directory and an empty path are
 * refused at open.  Write into fp; a zeroed struct is closed. */
struct nb_outfile {
    FILE *fp;
    char *path;         /* final name (links followed), NULL for stdout */
    char *tmp_path;     /* temporary name, NULL for stdout, direct or unnamed */
    int unnamed;        /* made without a name (O_TMPFILE), linked at commit:
                           a killed run leaves nothing behind */
    int published;      /* renamed into place, still open (nb_outfile_publish) */
    long long flushed;  /* bytes in the file after the last good flush: a
                           failed write of a published log is cut back to
                           them, so that it keeps whole rows only */
    long long hashed;   /* bytes of the file folded into hash so far */
    uint64_t hash;      /* FNV-1a of those bytes (nb_outfile_mark) */
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
/* What proves that the file at a path is the one a run wrote: its first
 * size bytes (size -1: the run wrote no regular file there) and the 64-bit
 * FNV-1a hash of all of them. */
struct nb_outfile_mark {
    long long size;
    uint64_t hash;
};
/* Flushes f (with sync: onto the disk) and marks it: its size and the hash
 * of every byte written so far (only the bytes since the last mark are
 * read back).  For a published file, first checks that its path still
 * names it (NB_ERR_IO "path: removed or replaced by another program while
 * this run wrote it").  stdout and devices: size -1. */
NB_API enum nb_status nb_outfile_mark(struct nb_outfile *f, int sync,
                                      struct nb_outfile_mark *m,
                                      struct nb_error *err);
/* Whether the file at path is the one that m describes, without changing
 * it: a regular file at least m->size bytes long whose first m->size bytes
 * hash to m->hash (m->size -1: no regular file there).  NB_ERR_IO naming
 * path and what differs (missing, shorter, other bytes, not a file). */
NB_API enum nb_status nb_outfile_verify(const char *path,
                                        const struct nb_outfile_mark *m,
                                        struct nb_error *err);
/* Opens path as nb_outfile_open does, after checking the file there
 * against keep as nb_outfile_verify does (refused with its error, nothing
 * made); with keep->size >= 0 then copies those first keep->size bytes
 * into it (*kept = 1): a restarted run continues its own log where its
 * checkpoint left it, dropping what was written after, and never another
 * file.  keep NULL: a new file, *kept = 0. */
NB_API enum nb_status nb_outfile_open_resume(struct nb_outfile *f, const char *path,
                                             const struct nb_outfile_mark *keep, int *kept,
                                             struct nb_error *err);
/* Removes the temporary files "<path>.tmp.XXXXXX" that a writer of path
 * killed mid-write left: for a checkpoint, which only its own run writes,
 * before that run writes it or restarts from it. */
NB_API void nb_outfile_remove_temporaries(const char *path);

/* ==== 5. particle sets and snapshots ==================== core, utility = */
/* Core: the particle set.  Utility: the initial conditions and the
 * snapshot files, which may move with section 4. */

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

/* ==== 6. GL contexts and shaders ======================== core ========== */
/* Stable: contexts.  The shader listing serves the build (SPIR-V). */

/* How shaders are loaded. */
enum nb_shader_source {
    NB_SHADERS_AUTO,    /* SPIR-V when GL_ARB_gl_spirv and spirv/ has .spv files, else GLSL */
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
 * but not supported, or a driver below OpenGL 3.3 / ES 3.0).  In the
 * browser build (make web) it is the WebGL 2 context (OpenGL ES 3.0) of
 * the page's canvas, id "canvas", instead.  What a
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
 * of time (tools/scripts/build_spirv.sh); no context needed.  The name
 * of program k (0, 1, ...), NULL past the last; its stages (1 or 2), and
 * the file extension of stage s ("vert", "frag", "comp"), NULL for a bad
 * name or stage. */
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

#ifdef __cplusplus
}
#endif

/* Sections 7 to 15, one subject each, in the order of the contents above
 * (each uses only the sections before it). */
#include "glnbody/forces.h"
#include "glnbody/hermite.h"
#include "glnbody/md.h"
#include "glnbody/parallel.h"
#include "glnbody/render.h"
#include "glnbody/checkpoint.h"

#endif
