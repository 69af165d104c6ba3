/* nb_config.h - constants shared by the C host and every shader.
 *
 * Only #define lines with literal values, so the file is valid C and valid
 * GLSL: the loader passes it to every shader between the #version line and
 * the shader body, and the C code includes it.  Change a number here and
 * both sides follow (make rebuilds spirv/).
 */
#ifndef NB_CONFIG_H
#define NB_CONFIG_H

/* Particle streams: one RGBA32F texel (x, y, z, m) per particle, rows of
 * NB_STREAM_WIDTH texels.  A power of two so that j -> (column, row) is a
 * mask and a shift, and a multiple of 4 so that 4-particle blocks never
 * straddle a row. */
#define NB_STREAM_SHIFT 10
#define NB_STREAM_WIDTH 1024

/* Padding particles fill streams up to a multiple of 4 (fragment) or of the
 * tile (compute): zero mass, placed so far away that every pair term with
 * them is an exact zero and never a NaN. */
#define NB_PAD_COORD 1.0e18
#define NB_PAD_MASS 0.0

/* Fragment pipeline: at most 4 i-particles per fragment, one render target
 * each (seed 000's 4x4 MRT kernel). */
#define NB_MRT_MAX 4

/* Texture units and buffer binding points. */
#define NB_UNIT_POS 0
#define NB_UNIT_PREV 1          /* units 1..4: previous pass, one per target */
#define NB_UNIT_VEL 5           /* GAJ: j velocities, i positions, i velocities */
#define NB_UNIT_IPOS 6
#define NB_UNIT_IVEL 7
#define NB_UNIT_INDEX 8         /* device-resident Hermite state (fragment) */
#define NB_UNIT_STATE 9         /* units 9..13: x_hi+m, x_lo, v+t0_hi, a+t0_lo, j */
#define NB_UNIT_BLOCK 1         /* units 1..5 (free in the scatter pass): a corrected block */
#define NB_STATE_TARGETS 5
/* Double-single positions (NB_GAJ_DS) in the fragment Hermite passes: the
 * j-set's and the i-set's lo parts (x, v) on units the plain passes leave
 * free, and a sixth state target, v's lo part, on the unit after the
 * state's five. */
#define NB_STATE_TARGETS_DS 6
#define NB_UNIT_JXLO 3
#define NB_UNIT_JVLO 4
#define NB_UNIT_IXLO 14
#define NB_UNIT_IVLO 15
#define NB_UNIT_STATE_VLO 14
#define NB_BIND_POS 0
#define NB_BIND_OUT 1
#define NB_BIND_PARTIAL 2
#define NB_BIND_VEL 3
#define NB_BIND_ACTIVE 4
#define NB_BIND_OUT2 5
#define NB_BIND_PARTIAL2 6     /* reduce.comp's second input (NB_REDUCE_PAIR) */
#define NB_BIND_STATE_X 6      /* device-resident Hermite state */
#define NB_BIND_STATE_T0 7
#define NB_BIND_STATE_V 8
#define NB_BIND_STATE_A 9
#define NB_BIND_STATE_J 10
#define NB_BIND_BLOCK_X 11     /* a corrected block on its way in */
#define NB_BIND_BLOCK_T0 12
#define NB_BIND_BLOCK_VAJ 13
#define NB_BIND_DSTATE 11      /* the device corrector's double state (correct.comp) */
#define NB_BIND_CORRECTED 12   /* its report to the host (mapped) */
#define NB_BIND_CORRECTED_AUX 9 /* its record of each corrected slot (device memory) */

/* Uniform locations (explicit: SPIR-V for OpenGL requires them). */
#define NB_LOC_EPS2 0
#define NB_LOC_N 1              /* particles in the stream, padding excluded */
#define NB_LOC_NPAD 2           /* particles padded to a multiple of 4 */
#define NB_LOC_SLICE_LEN 3      /* j-particles per slice (fragment) or tiles per slice (compute) */
#define NB_LOC_PASS 4           /* index of this pass among NB_LOC_PASSES */
#define NB_LOC_PASSES 5
#define NB_LOC_ROWS 6           /* output rows per replica */
#define NB_LOC_ACCUMULATE 7     /* 1: add the previous pass's result */
#define NB_LOC_REPLICAS 8
#define NB_LOC_SLICES 9
#define NB_LOC_N_ACTIVE 10      /* active i-particles of a block */
#define NB_LOC_TIME 11          /* prediction time (double) */
#define NB_LOC_J_RANGE 12       /* ivec2: the GAJ kernels' j-slice [first, end) */
#define NB_LOC_K_FIRST 33       /* the GAJ kernels: first active index of this dispatch */
#define NB_LOC_TIME_HI 13       /* prediction time as a float pair */
#define NB_LOC_TIME_LO 14

/* Molecular dynamics (md_*.comp, md.frag): uniforms shared by both
 * pipelines.  The box lengths are 0 (and their inverses 0) along open axes,
 * so that the minimum image d -= L round(d / L) leaves those alone. */
#define NB_LOC_MD_BOX 16        /* vec3 box lengths */
#define NB_LOC_MD_INV_BOX 17    /* vec3 their inverses */
#define NB_LOC_MD_RC2 18        /* cutoff squared (a huge value: none) */
#define NB_LOC_MD_LAW 19        /* vec4 (D, Coulomb shift, -, -) */
#define NB_LOC_MD_SIGMOID 20    /* vec4 (a, b, c, d) */
#define NB_LOC_MD_TYPES 21      /* number of types */
#define NB_LOC_MD_LO 22         /* vec3 box lower corner */
#define NB_LOC_MD_CELLS 23      /* ivec3 cells per axis */
#define NB_LOC_MD_CELL_INV 24   /* vec3 cells per unit length */
#define NB_LOC_MD_DT 25         /* dvec2 (dt/2, dt) */
#define NB_LOC_MD_PERIODIC 27   /* ivec3 1 along periodic axes */
#define NB_LOC_MD_COUNT 28      /* cells (scan) or particles */

/* NB_MD_MAX_TYPES, the types of an MD system, is host/nb_host.h's: the C
 * code has it from there, and the loader defines it at the top of every
 * shader (NB_GLSL_PRELUDE, src/shader.c). */

/* Compute MD buffers. */
#define NB_BIND_MD_POS 0        /* vec4 (x, y, z, q) in float */
#define NB_BIND_MD_TYPE 1       /* int type - 1 */
#define NB_BIND_MD_COEFF 2      /* 2 vec4 per type pair: lj, ion */
#define NB_BIND_MD_FORCE 3      /* vec4 (F, pe) */
#define NB_BIND_MD_VIRIAL 4     /* float */
#define NB_BIND_MD_X 5          /* dvec4 positions (w unused) */
#define NB_BIND_MD_V 6          /* dvec4 (v, 1/m) */
#define NB_BIND_MD_CELL_OF 7    /* int cell of each particle */
#define NB_BIND_MD_CELL_COUNT 8 /* int particles per cell */
#define NB_BIND_MD_CELL_START 9 /* int first slot of each cell */
#define NB_BIND_MD_PERM 10      /* int particle of each sorted slot */
#define NB_BIND_MD_SPOS 11      /* vec4 sorted positions */
#define NB_BIND_MD_STYPE 12     /* int sorted types */
#define NB_BIND_MD_SCAN 13      /* scan partial sums */
/* The compute MD engine's accumulation modes (md_prec_finish.comp): the
 * raw sums (eight words a particle), the finish kernel's range flag, the
 * scales' log2 and the step the flag names. */
#define NB_BIND_MD_PREC_RAW 14
#define NB_BIND_MD_PREC_FLAG 15
#define NB_LOC_MD_PREC_LOG2 30
#define NB_LOC_MD_PREC_STEP 31

/* Fragment MD (md.frag): texture units.  A fragment owns 4 i-particles and
 * writes NB_UNIT_MD_PREV_COUNT targets: (F, pair-energy sum) of each i,
 * then the four virial sums; the previous pass's targets are read back on
 * units NB_UNIT_MD_PREV onwards, one per target. */
#define NB_UNIT_MD_POS 0        /* (x, y, z, q), particles sorted by type */
#define NB_UNIT_MD_COEFF 1      /* 2 texels per type pair: lj, ion */
#define NB_UNIT_MD_SEGMENT 2    /* int first slot of each type, then n */
#define NB_UNIT_MD_PREV 3       /* units 3..7 */
#define NB_UNIT_MD_PREV_COUNT 5

/* Newton's-third-law ("triangular") MD kernels, seed 003 section 6.4
 * (md_tri*.comp, src/md_triangular.c).  Bindings and the location: */
#define NB_BIND_TRI_POS 14      /* vec4 (x, y, z, type - 1 as int bits) */
#define NB_BIND_TRI_SCRATCH 15  /* pair matrix (tri1, tri2) or tile partials (tri3) */
#define NB_LOC_TRI_TILES 29     /* int tiles of tri3-gpu's decomposition */
/* Sizes: the one-work-group kernels (-wg) run NB_TRI_WG_GROUP invocations
 * with up to NB_TRI_WG_IPT i-particles each; tri3-wg's shared force_j[]
 * holds NB_TRI_WG_MAX vec4 = 32 KiB, the smallest shared memory GL 4.3
 * allows.  tri3-gpu's tiles are NB_TRI_TILE = NB_TRI_TILE_GROUP x
 * NB_TRI_TILE_IPT particles; the other -gpu passes use NB_TRI_GPU_GROUP. */
#define NB_TRI_WG_GROUP 512
#define NB_TRI_WG_IPT 4
#define NB_TRI_WG_MAX 2048
#define NB_TRI_WG_MAX_H 1024    /* tri3-wg in modes B..H: force_j[] of 8-word states */
#define NB_TRI_GPU_GROUP 128
#define NB_TRI_TILE_GROUP 128
#define NB_TRI_TILE_IPT 4
#define NB_TRI_TILE 512


/* ---- GRAPE-6 style j-memory block steps (src/g6_block.c,
 * glsl/g6_*.comp).  Bindings of those programs only (they reuse 0..7):
 * the j-memory as Taylor coefficients in double (x, t), (v, m), (a/2, id),
 * (jerk/6, 0); the block's i-particles, two dvec4 each (x, h2), (v, id);
 * the results; the j-set predicted to t_i in float (x, y, z, id bits) for
 * the neighbour search; partial results of the j-slices; the queued
 * j-updates; the neighbour counts and lists. */
#define NB_BIND_G6_JX 0
#define NB_BIND_G6_JV 1
#define NB_BIND_G6_JA 2
#define NB_BIND_G6_JJ 3
#define NB_BIND_G6_I 4
#define NB_BIND_G6_OUT 5
#define NB_BIND_G6_JP 6
#define NB_BIND_G6_PART 7
#define NB_BIND_G6_UPDATE 4
#define NB_BIND_G6_IF 8     /* the i-particles in float, every mode but G */
#define NB_BIND_G6_NB_COUNT 0
#define NB_BIND_G6_NB_LIST 1
/* The id of padding j-particles: no i-particle has it. */
#define NB_G6_PAD_ID (-2147483647 - 1)
/* The neighbour lists' room per i-particle (g6_neighbours.comp). */
#define NB_LOC_G6_NB_MAX 32
/* Invocations of the slice reduction per i-particle. */
#define NB_G6_REDUCE_GROUP 64
/* Mode A's block results, vec4s per (slice, i-particle) or i-particle:
 * (a, phi) as double-single hi and lo parts (ds_sum.glsl), then (jerk hi,
 * ds2_min) and (jerk lo, nearest id bits).  The fused kernels' partial
 * sums: (a, phi) hi, lo, (jerk, 0) hi, lo, (ds2_min, nearest id bits,
 * its address bits, 0). */
#define NB_G6_A_VEC4S 4
#define NB_G6_A_PART_VEC4S 5
/* reduce.comp: a work group of NB_REDUCE_GROUP invocations sums the
 * slices of NB_REDUCE_ITEMS particles, NB_REDUCE_LANES invocations each. */
#define NB_REDUCE_GROUP 256
#define NB_REDUCE_ITEMS 32
#define NB_REDUCE_LANES 8
/* correct.comp's work group (32 to 256 run alike: the corrector is
 * memory bound). */
#define NB_CORRECT_GROUP 256
/* g6_jmemory.glsl: at most this many j-updates ride with a small block
 * (mode A, tile 64) instead of a scatter dispatch; their count and first
 * dvec4 in the i-area. */
#define NB_G6_INLINE_MAX 64
/* g6_block.comp's fused kernels: slices added in batches of this many,
 * arrival counters ahead of the sums (at most FUSED_BATCH^2 slices). */
#define NB_G6_FUSED_BATCH 32
#define NB_G6_FUSED_COUNTERS 64
#define NB_LOC_G6_UPDATES 34
#define NB_LOC_G6_UPDATES_AT 35
/* g6_block.comp, mode H: the first vec4 of the i-particles' own scales. */
#define NB_LOC_G6_SCALES_AT 46
/* correct.comp: dvec2 (eta, dt_max); the level of a step of 1 and the
 * number of levels (the host's NB_STEP_LEVEL_OF_ONE, NB_STEP_LEVELS). */
#define NB_LOC_CORRECT_STEP 36
#define NB_CORRECT_LEVEL_OF_ONE 40
#define NB_CORRECT_LEVELS 64
/* The device corrector's block state (block_state.glsl): a header of the
 * counts of the levels, the last block's failures and the next block's
 * time and level, then each particle's level. */
#define NB_BIND_BLOCK_STATE 13
#define NB_BLOCK_STATE_HEADER 72    /* words before the levels */
/* find_block.comp: each chunk's count of particles at each level or below
 * (correct.comp keeps them), NB_CORRECT_LEVELS a chunk of
 * NB_FIND_GROUP * per. */
#define NB_BIND_FIND_COUNTS 14
#define NB_FIND_GROUP 256
#define NB_LOC_FIND_DUE 37          /* the largest level in the block */
#define NB_LOC_FIND_PER 38          /* particles an invocation */
#define NB_LOC_FIND_CHUNK 41        /* correct.comp: particles a chunk */
/* find_block.comp and predict.comp (NB_PREDICT_DSTATE): 1 to run ahead
 * to the next block of the block state. */
#define NB_LOC_AHEAD 39
/* The next block's force pass as correct.comp's last group plans it, so
 * that it runs queued behind the corrector (gaj.comp and reduce.comp with
 * NB_FORCE_PLANNED): the indirect dispatches of the GAJ pass (x, y, z) and
 * of the slices' sums, then the block's size and the tiles a slice; and
 * the planner's ivec4 (tile, work groups to fill, the most particles one
 * dispatch takes or 0 for no plan, the j-set's size). */
#define NB_BIND_FORCE_PLAN 15
#define NB_FORCE_PLAN_WORDS 8
#define NB_LOC_FORCE_PLAN 40
/* Double-single positions and velocities of the Hermite GAJ path
 * (NB_GAJ_DS): the j-set's lo parts, two vec4 a particle (x, v), beside
 * the hi parts in NB_BIND_POS and NB_BIND_VEL; and the device state's
 * velocity lo parts, one vec4 a particle beside NB_BIND_STATE_V. */
#define NB_BIND_JLO 16
#define NB_BIND_STATE_VLO 17

#endif
