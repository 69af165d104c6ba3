/* md_triangular.h - Newton's-third-law ("triangular") MD force kernels of
 * the compute pipeline against the square loop (seed 003 section 6.4,
 * Table 5), on one work group or across the whole device. */
#ifndef NB_MD_TRIANGULAR_H
#define NB_MD_TRIANGULAR_H

#include "nb_config.h"
#include "nb_gl.h"

/* The variant names, NULL-terminated: "square-wg", "tri1-wg", "tri2-wg",
 * "tri3-wg", the same with "-gpu", then "lean-gpu".
 *   square   every ordered pair (md_tri_square.comp on one work group;
 *            md_pairs.comp, the compute MD engine's kernel, on the GPU)
 *   lean     md_tri_square.comp on ceil(n / NB_TRI_WG_GROUP) work groups:
 *            the square loop with the triangles' pair code (no minimum
 *            image, no cutoff test), -gpu only
 *   tri1     each pair once, written to [i][j] and [j][i] of an n x n
 *            matrix, then a column-sum pass (md_tri1.comp)
 *   tri2     each pair once into the lower triangle; rows summed while
 *            evaluating, columns subtracted after (md_tri2.comp)
 *   tri3     reactions in shared memory: a skewed loop with a barrier per
 *            step on one work group (md_tri3.comp); on the GPU, tile
 *            pairs {I, J} round-robin with per-tile partial sums and a
 *            reduction pass (md_tri3_tiles.comp, md_tri3_reduce.comp) */
const char *const *nb_md_tri_variants(void);

/* Forces of sys at positions x (3n) by one variant, once: f (3n), pe (n:
 * half of each pair energy, as nb_md_cpu_forces) and *seconds, the device
 * time of the variant's dispatches (nb_gpu_timer; uploads, downloads and
 * program builds excluded; the median of several calls is the caller's).
 * Buffers are made and freed inside the call; the context must be current.
 * Only the ionic and LJ laws, open boxes and no cutoff (all pairs).
 * Errors: NB_ERR_ARGS (unknown variant, sys refused by
 * nb_md_system_check), NB_ERR_UNSUPPORTED (another law, a periodic axis,
 * a cutoff or cell lists), NB_ERR_LIMIT (n above what the variant can
 * hold: tri3-wg's shared memory (NB_TRI_WG_MAX), the one-work-group
 * dispatch length, tri1's and tri2's pair matrix or tri3-gpu's partial
 * sums over GL_MAX_SHADER_STORAGE_BLOCK_SIZE, the dispatch limits),
 * NB_ERR_NOMEM, NB_ERR_GL. */
enum nb_status nb_md_tri_forces(struct nb_gl *gl, const struct nb_md_system *sys,
                                const double *x, const char *variant, double *f,
                                double *pe, double *seconds, struct nb_error *err);

/* The same with an accumulation mode (seed 004 Table 1): NB_PRECISION_A
 * (float sums, as nb_md_tri_forces) or B..H, every partial sum an
 * accumulator state of glsl/accumulate.glsl (B double sums, C Takahashi-
 * Iitaka, D Nitadori, E modified Nitadori, F Narumi, G double pair terms
 * and sums, H int64 fixed point), finished on the host as
 * nb_md_prec_forces does.  E, F and H scale the terms by 2^scale_log2[0]
 * (forces) and 2^scale_log2[1] (energies); scale_log2 NULL: measured in
 * the call (nb_md_tri_scales, not timed); ignored by the other modes.  H
 * rounds each pair term once to int64 and sums exactly: every variant
 * gives the square loop's int64 sums, and nb_md_prec_forces' in mode H,
 * bit for bit; fixed (4n: F_x, F_y, F_z, sum u per particle, units 2^-k;
 * may be NULL; H only) receives them.  tri3-wg holds n <= NB_TRI_WG_MAX_H
 * in B..H (its shared reactions are eight-word states).
 * NB_ERR_UNSUPPORTED for G with the ionic law (GLSL has no double pow), or
 * H without GL_ARB_gpu_shader_int64; NB_ERR_ARGS for a value outside A..H;
 * otherwise as above. */
enum nb_status nb_md_tri_forces_prec(struct nb_gl *gl, const struct nb_md_system *sys,
                                     const double *x, const char *variant,
                                     enum nb_precision mode, const int scale_log2[2],
                                     double *f, double *pe, int64_t *fixed,
                                     double *seconds, struct nb_error *err);

/* The scales of mode E, F or H for sys at x, exactly md_precision.c's
 * (nb_md_prec_scales: its magnitude pass and rule nb_prec_scales_measured):
 * log2[0] forces, log2[1] energies; 0 and 0 for the other modes.  Errors:
 * those of nb_md_tri_forces' system checks and of nb_md_prec_forces. */
enum nb_status nb_md_tri_scales(struct nb_gl *gl, const struct nb_md_system *sys,
                                const double *x, enum nb_precision mode, int log2[2],
                                struct nb_error *err);

#endif
