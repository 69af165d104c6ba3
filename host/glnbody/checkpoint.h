/* glnbody/checkpoint.h - part of glnbody.h, the public C API of glnbody:
 * checkpoints and restarts: section 15.  Include glnbody.h, never this file alone. */
#ifndef GLNBODY_CHECKPOINT_H
#define GLNBODY_CHECKPOINT_H

#ifndef GLNBODY_H
#error "include glnbody.h, not glnbody/checkpoint.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 15. checkpoints and restarts ====================== core ========== */
/* Stable: the calls; the file format carries its own version, and a
 * newer library refuses a file it cannot read with a message. */

/* A run's whole state in a file, to be continued bit for bit in another
 * process: the format of `glnbody run --checkpoint` and `glnbody md
 * --checkpoint` (a magic number, a format version, the byte order, the
 * particle count, the state, the application's own bytes, zlib's crc32
 * over every byte but its own four), written as a file without a name in
 * the same directory (nb_outfile), synced and linked over the old one, so
 * that the previous checkpoint at path stays until the new one is whole.  Writing: NB_ERR_IO naming path and the system's reason,
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
 * parameters and predict_on_device as saved (-1) or as given (0, 1, 2): on
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
