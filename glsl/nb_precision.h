/* nb_precision.h - constants of the accumulation modes (seed 004, Table 1),
 * shared by src/precision.c and glsl/accumulate.glsl.  Only #define
 * lines with literal values: valid C and valid GLSL.
 *
 * Narumi's trick (seed 004 section 3.3, Figs. 8 and 9), as the paper sets
 * it: LARGE = 3 << (LARGE_SHIFT - 1) with LARGE_SHIFT 21, LOWER_SHIFT 7
 * (LOWER_LOOP = 128 additions between carries), LOWER_FACTOR =
 * 2^(23 - LARGE_SHIFT + 32 - LOWER_SHIFT) = 2^27, LOWER_FACTOR_1 its
 * inverse.  The pair (float hs, int li) is a 48-bit fixed-point number
 * with quantum 2^-27 for |sum| < 2^20. */
#ifndef NB_PRECISION_CONSTANTS_H
#define NB_PRECISION_CONSTANTS_H

#define NB_LARGE_SHIFT 21
#define NB_LOWER_SHIFT 7
#define NB_LOWER_FACTOR_LOG2 27     /* 23 - NB_LARGE_SHIFT + 32 - NB_LOWER_SHIFT */

/* Work-group size of the precision kernels; equal to LOWER_LOOP, so that
 * Narumi's carry runs once per shared-memory tile. */
#define NB_PREC_TILE 128

/* Per-run power-of-two scales: pair terms are multiplied by 2^k with k the
 * largest integer such that the bound on every partial sum, times 2^k, is at
 * most 2^NB_PREC_BITS_LARGE (modes E, F: below LARGE / 3 = 2^20 with a
 * factor 2 to spare) or 2^NB_PREC_BITS_FIXED (mode H: int64 with a factor 4
 * to spare below 2^63; accumulate.glsl's three-chunk split of each term
 * needs |term| <= 2^61). */
#define NB_PREC_BITS_LARGE 19
#define NB_PREC_BITS_FIXED 61

/* Binding and uniform locations used only by the precision kernels. */
#define NB_BIND_PREC_DPOS 14
#define NB_LOC_PREC_SCALE 15
#define NB_LOC_PREC_EPS2D 16
#define NB_LOC_PREC_I_FIRST 18  /* ga_precision.comp: first i of this dispatch */

/* Texture units of the fragment precision kernels (ga_precision.frag,
 * md_precision.frag; src/fragment_precision.c).  Streams are
 * NB_STREAM_WIDTH wide, one particle a texel (two for the double
 * positions, side by side); the accumulator state of the previous pass is
 * two RGBA32UI textures (w0, w1). */
#define NB_UNIT_PREC_POS 0      /* RGBA32F (x, y, z, m or q) */
#define NB_UNIT_PREC_PREV 1     /* units 1, 2: RGBA32UI w0, w1 of the previous pass */
#define NB_UNIT_PREC_DPOS 3     /* G: RGBA32UI (x, y), (z, m or q) as double words */
#define NB_UNIT_PREC_TYPE 4     /* MD: R32I type - 1 */
#define NB_UNIT_PREC_COEFF 5    /* MD: RGBA32F, 2 texels (lj, ion) per ordered type pair */
#define NB_UNIT_PREC_DCOEFF 6   /* MD G: RGBA32UI, the lj texel in double (2 texels) */
/* The GAJ precision kernel's second accumulator (jerk): its scale, and
 * for mode G the double velocities (gaj_precision.comp). */
#define NB_LOC_PREC_SCALE_J 17
#define NB_BIND_PREC_DVEL 16

#endif
