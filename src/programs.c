/* programs.c - the catalogue of shader programs.
 *
 * One entry per program the pipelines can load.  The build emits every
 * entry (glnbody shaders --emit) and compiles it to spirv/, so this table
 * is the single list of what exists, for the GLSL and SPIR-V paths alike. */
#include <string.h>

#include "nb_gl.h"

#define FRAGMENT_GA(IxJ, I, J)                                              \
    { "ga_frag_" IxJ, "#define NB_I_PER_FRAG " #I "\n#define NB_J_UNROLL " #J "\n", \
      { "fullscreen.vert" }, { "ga.glsl", "ga.frag" }, NB_STAGE_FRAGMENT }
#define FRAGMENT_REDUCE(T)                                                  \
    { "reduce_frag_" #T, "#define NB_TARGETS " #T "\n",                      \
      { "fullscreen.vert" }, { "reduce.frag" }, NB_STAGE_FRAGMENT }
#define COMPUTE_GA(T, I)                                                    \
    { "ga_comp_t" #T "_i" #I, "#define NB_TILE " #T "\n#define NB_IPT " #I "\n", \
      { 0 }, { "ga.glsl", "ga.comp" }, NB_STAGE_COMPUTE }

/* The GA kernel with accumulation mode M (seed 004 Table 1; B..H), and
 * "m": the magnitude sums that set the scales of E and F. */
#define PRECISION_GA(m, M)                                                  \
    { "ga_prec_comp_" m, "#define NB_PRECISION_" M "\n", { 0 },              \
      { "nb_precision.h", "accumulate.glsl", "ga.glsl", "ga_precision.comp" }, \
      NB_STAGE_COMPUTE }

#define GAJ_COMPUTE1(T, I, NAME, DS)                                        \
    { "gaj_comp_t" #T "_i" #I NAME, "#define NB_TILE " #T "\n#define NB_IPT " #I "\n" DS, \
      { 0 }, { "gaj.glsl", "ds_sum.glsl", "gaj.comp" }, NB_STAGE_COMPUTE }

/* The same, the next block's as the device corrector planned it. */
#define GAJ_PLANNED1(T, I, NAME, DS)                                        \
    { "gaj_comp_t" #T "_i" #I "_planned" NAME, "#define NB_TILE " #T "\n#define NB_IPT " #I \
      "\n#define NB_FORCE_PLANNED\n" DS, { 0 }, { "gaj.glsl", "ds_sum.glsl", "gaj.comp" }, \
      NB_STAGE_COMPUTE }

/* Each in float positions and, named "_pds", in double-single positions
 * and velocities (NB_GAJ_DS; nb_hermite_params.positions); the device
 * prediction and the scatter of the corrected block come in both too. */
#define GAJ_DS "#define NB_GAJ_DS\n"
#define GAJ_COMPUTE(T, I) GAJ_COMPUTE1(T, I, "", ""), GAJ_COMPUTE1(T, I, "_pds", GAJ_DS)
#define GAJ_PLANNED(T, I) GAJ_PLANNED1(T, I, "", ""), GAJ_PLANNED1(T, I, "_pds", GAJ_DS)

/* The GAJ kernel with accumulation mode M (B..H, and "m" the magnitude
 * sums), and the largest j-speed that bounds H's jerks
 * (src/gaj_precision.c). */
#define PRECISION_GAJ(m, M)                                                 \
    { "gaj_prec_comp_" m, "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n", \
      { 0 }, { "nb_precision.h", "accumulate.glsl", "gaj.glsl", "gaj_precision.comp" }, \
      NB_STAGE_COMPUTE }

/* The merge of gaj_precision.comp's j-slices (acc_merge). */
#define PRECISION_GAJ_MERGE(m, M)                                           \
    { "gaj_prec_merge_" m, "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n", \
      { 0 }, { "nb_precision.h", "accumulate.glsl", "gaj_prec_merge.comp" },  \
      NB_STAGE_COMPUTE }

#define MD_LAW(law, LAW)                                                    \
    { "md_pairs_" law, "#define NB_MD_" LAW "\n#define NB_TILE 128\n", { 0 }, \
      { "md_law.glsl", "md_common.glsl", "md_pairs.comp" }, NB_STAGE_COMPUTE }, \
    { "md_cellforce_" law, "#define NB_MD_" LAW "\n#define NB_TILE 128\n", { 0 }, \
      { "md_law.glsl", "md_common.glsl", "md_cell_walk.glsl", "md_cellforce.comp" }, \
      NB_STAGE_COMPUTE }
#define MD_PASS(name, def, file)                                            \
    { name, "#define " def "\n#define NB_GROUP 256\n", { 0 }, { file }, NB_STAGE_COMPUTE }

/* md_prec_finish.comp for mode M (its bindings and locations: nb_config.h). */
#define MD_PREC_FINISH(m, M)                                                \
    { "md_prec_finish_" m, "#define NB_PRECISION_" M "\n#define NB_GROUP 256\n", { 0 }, \
      { "nb_precision.h", "pow2.glsl", "md_prec_finish.comp" }, NB_STAGE_COMPUTE }

/* The MD all-pairs force with accumulation mode M (md_precision.comp). */
#define MD_PRECISION(law, LAW, m, M)                                         \
    { "md_prec_" law "_" m, "#define NB_MD_" LAW "\n#define NB_PRECISION_" M "\n" \
      "#define NB_PREC_BIND_RESULT NB_BIND_MD_FORCE\n", { 0 },                 \
      { "nb_precision.h", "accumulate.glsl", "md_law.glsl", "md_precision.comp" }, \
      NB_STAGE_COMPUTE }
#define MD_PRECISION_FLOAT(law, LAW)                                         \
    MD_PRECISION(law, LAW, "b", "B"), MD_PRECISION(law, LAW, "c", "C"),       \
    MD_PRECISION(law, LAW, "d", "D"), MD_PRECISION(law, LAW, "e", "E"),       \
    MD_PRECISION(law, LAW, "f", "F"), MD_PRECISION(law, LAW, "h", "H"),       \
    MD_PRECISION(law, LAW, "m", "M")

/* The same through cell lists (md_cell_precision.comp). */
#define MD_CELL_PRECISION(law, LAW, m, M)                                    \
    { "md_cellprec_" law "_" m, "#define NB_MD_" LAW "\n#define NB_PRECISION_" M "\n" \
      "#define NB_PREC_BIND_RESULT NB_BIND_MD_FORCE\n", { 0 },                 \
      { "nb_precision.h", "accumulate.glsl", "md_law.glsl", "md_cell_walk.glsl",      \
        "md_cell_precision.comp" },                                           \
      NB_STAGE_COMPUTE }
#define MD_CELL_PRECISION_FLOAT(law, LAW)                                    \
    MD_CELL_PRECISION(law, LAW, "b", "B"), MD_CELL_PRECISION(law, LAW, "c", "C"), \
    MD_CELL_PRECISION(law, LAW, "d", "D"), MD_CELL_PRECISION(law, LAW, "e", "E"), \
    MD_CELL_PRECISION(law, LAW, "f", "F"), MD_CELL_PRECISION(law, LAW, "h", "H"), \
    MD_CELL_PRECISION(law, LAW, "m", "M")

/* The same accumulators as fragment programs (src/fragment_precision.c):
 * one i per fragment, the state in two RGBA32UI render targets, no
 * storage buffer. */
#define PRECISION_GA_FRAG(m, M)                                             \
    { "ga_prec_frag_" m, "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n", \
      { "fullscreen.vert" }, { "nb_precision.h", "accumulate.glsl", "ga.glsl", \
      "ga_precision.frag" }, NB_STAGE_FRAGMENT }
#define MD_PRECISION_FRAG(law, LAW, m, M)                                    \
    { "md_prec_frag_" law "_" m, "#define NB_MD_" LAW "\n#define NB_PRECISION_" M \
      "\n#define NB_PREC_NO_BUFFER\n", { "fullscreen.vert" },                 \
      { "nb_precision.h", "accumulate.glsl", "md_law.glsl", "md_precision.frag" }, \
      NB_STAGE_FRAGMENT }
#define MD_PRECISION_FRAG_FLOAT(law, LAW)                                    \
    MD_PRECISION_FRAG(law, LAW, "b", "B"), MD_PRECISION_FRAG(law, LAW, "c", "C"), \
    MD_PRECISION_FRAG(law, LAW, "d", "D"), MD_PRECISION_FRAG(law, LAW, "e", "E"), \
    MD_PRECISION_FRAG(law, LAW, "f", "F"), MD_PRECISION_FRAG(law, LAW, "h", "H"), \
    MD_PRECISION_FRAG(law, LAW, "m", "M")

/* The GRAPE-6 style block step (src/g6_block.c): mode A's large
 * blocks at tile 256, two i-particles an invocation; its blocks of up to 64 at tile 64 or 128 with 2 to 64
 * lanes per i-particle (g6_launch.c's small_block_shape), which add their
 * slices in the same dispatch and take up to NB_G6_INLINE_MAX j-updates
 * along (g6_jmemory.glsl); the other modes at NB_PREC_TILE; each with and
 * without the nearest-neighbour search, and each (but G) with double-single
 * positions or, named "_pf", with positions rounded to float
 * (NB_G6_POS_FLOAT), or, named "_px", in 64-bit fixed point
 * (NB_G6_POS_FIXED; nb_forces_set_positions). */
#define G6_INLINE "#define NB_G6_INLINE\n"
#define G6_FUSED "#define NB_G6_FUSED\n#define NB_G6_WRITES_J\n"
#define G6_PF "#define NB_G6_POS_FLOAT\n"
#define G6_PX "#extension GL_ARB_gpu_shader_int64 : require\n#define NB_G6_POS_FIXED\n"
#define G6_BLOCK_A1(T, NAME, NN)                                            \
    { "g6_block_a_t" #T "_i2" NAME, "#define NB_PRECISION_A\n#define NB_TILE " #T "\n" \
      "#define NB_IPT 2\n" NN, { 0 },                                      \
      { "gaj.glsl", "ds_sum.glsl", "g6_jmemory.glsl", "g6_block.comp" }, NB_STAGE_COMPUTE }
#define G6_BLOCK_A(T, NAME, NN)                                             \
    G6_BLOCK_A1(T, NAME, NN), G6_BLOCK_A1(T, NAME "_pf", NN G6_PF), \
    G6_BLOCK_A1(T, NAME "_px", G6_PX NN)
#define G6_BLOCK_LANES(T, L, NAME, NN)                                      \
    { "g6_block_a_t" #T "_l" #L NAME, "#define NB_PRECISION_A\n#define NB_TILE " #T "\n" \
      "#define NB_LANES " #L "\n" G6_INLINE NN G6_FUSED, { 0 },             \
      { "gaj.glsl", "ds_sum.glsl", "g6_jmemory.glsl", "g6_block.comp", "g6_fused.glsl" }, \
      NB_STAGE_COMPUTE }
#define G6_LANES(T, L) G6_BLOCK_LANES(T, L, "", ""), G6_BLOCK_LANES(T, L, "_nn", G6_NN), \
    G6_BLOCK_LANES(T, L, "_pf", G6_PF), G6_BLOCK_LANES(T, L, "_nn_pf", G6_NN G6_PF), \
    G6_BLOCK_LANES(T, L, "_px", G6_PX), G6_BLOCK_LANES(T, L, "_nn_px", G6_PX G6_NN)
#define G6_BLOCK_MODE(m, M, NAME, NN)                                       \
    { "g6_block_" m NAME, "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n" \
      "#define NB_TILE 128\n#define NB_ACC_CHECK\n" NN, { 0 },               \
      { "nb_precision.h", "accumulate.glsl", "gaj.glsl", "g6_jmemory.glsl", "g6_block.comp" }, \
      NB_STAGE_COMPUTE }
/* Mode H's small blocks: NB_LANES invocations an i-particle. */
#define G6_H_LANES1(L, NAME, NN)                                            \
    { "g6_block_h_l" #L NAME, "#define NB_PRECISION_H\n#define NB_PREC_NO_BUFFER\n" \
      "#define NB_TILE 128\n#define NB_ACC_CHECK\n#define NB_LANES " #L "\n" NN, { 0 }, \
      { "nb_precision.h", "accumulate.glsl", "gaj.glsl", "g6_jmemory.glsl", "g6_lanes.glsl", \
        "g6_block.comp" }, NB_STAGE_COMPUTE }
#define G6_H_LANES(L) G6_H_LANES1(L, "", ""), G6_H_LANES1(L, "_nn", G6_NN),        \
    G6_H_LANES1(L, "_pf", G6_PF), G6_H_LANES1(L, "_nn_pf", G6_NN G6_PF),          \
    G6_H_LANES1(L, "_px", G6_PX), G6_H_LANES1(L, "_nn_px", G6_PX G6_NN)
#define G6_NN "#define NB_G6_NEAREST\n"
#define G6_REDUCE(m, M)                                                     \
    { "g6_reduce_" m, "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n"        \
      "#define NB_ACC_CHECK\n", { 0 },                                        \
      { "nb_precision.h", "accumulate.glsl", "g6_reduce.comp" }, NB_STAGE_COMPUTE }
#define G6_BLOCK(m, M) G6_BLOCK_MODE(m, M, "", ""), G6_BLOCK_MODE(m, M, "_nn", G6_NN), \
    G6_BLOCK_MODE(m, M, "_pf", G6_PF), G6_BLOCK_MODE(m, M, "_nn_pf", G6_NN G6_PF), \
    G6_BLOCK_MODE(m, M, "_px", G6_PX), G6_BLOCK_MODE(m, M, "_nn_px", G6_PX G6_NN)

static const struct nb_program_desc catalogue[] = {
    FRAGMENT_GA("1x1", 1, 1),
    FRAGMENT_GA("1x4", 1, 4),
    FRAGMENT_GA("4x4", 4, 4),
    FRAGMENT_REDUCE(1),
    FRAGMENT_REDUCE(2),
    FRAGMENT_REDUCE(4),
#define FRAGMENT_HERMITE(NAME, DS)                                          \
    { "gaj_frag_1x4" NAME, DS, { "fullscreen.vert" }, { "gaj.glsl", "ds_sum.glsl", "gaj.frag" }, \
      NB_STAGE_FRAGMENT },                                                   \
    { "predict_frag" NAME, DS, { "fullscreen.vert" }, { "predict.frag" }, NB_STAGE_FRAGMENT }, \
    { "gather_frag" NAME, DS, { "fullscreen.vert" }, { "gather.frag" }, NB_STAGE_FRAGMENT }, \
    { "scatter_frag" NAME, DS, { "scatter.vert" }, { "scatter.frag" }, NB_STAGE_FRAGMENT }
    FRAGMENT_HERMITE("", ""), FRAGMENT_HERMITE("_pds", GAJ_DS),
    COMPUTE_GA(64, 1), COMPUTE_GA(64, 2), COMPUTE_GA(64, 4), COMPUTE_GA(64, 8),
    COMPUTE_GA(128, 1), COMPUTE_GA(128, 2), COMPUTE_GA(128, 4), COMPUTE_GA(128, 8),
    COMPUTE_GA(256, 1), COMPUTE_GA(256, 2), COMPUTE_GA(256, 4), COMPUTE_GA(256, 8),
    COMPUTE_GA(64, 16), COMPUTE_GA(128, 16), COMPUTE_GA(256, 16),
    { "reduce_comp", "", { 0 }, { "reduce.comp" }, NB_STAGE_COMPUTE },
    { "reduce_pair_comp", "#define NB_REDUCE_PAIR\n", { 0 }, { "reduce.comp" },
      NB_STAGE_COMPUTE },
    GAJ_COMPUTE(64, 1), GAJ_COMPUTE(128, 1), GAJ_COMPUTE(256, 1),
    GAJ_COMPUTE(64, 2), GAJ_COMPUTE(128, 2), GAJ_COMPUTE(256, 2),
    GAJ_PLANNED(64, 2), GAJ_PLANNED(128, 2), GAJ_PLANNED(256, 2),
    { "reduce_pair_planned_comp", "#define NB_REDUCE_PAIR\n#define NB_FORCE_PLANNED\n", { 0 },
      { "reduce.comp" }, NB_STAGE_COMPUTE },
    { "predict_comp", "", { 0 }, { "predict_one.glsl", "predict.comp" }, NB_STAGE_COMPUTE },
    { "predict_ds_comp", "#define NB_PREDICT_DSTATE\n", { 0 },
      { "block_state.glsl", "predict_one.glsl", "predict.comp" },
      NB_STAGE_COMPUTE },
    { "predict_comp_pds", GAJ_DS, { 0 }, { "predict_one.glsl", "predict.comp" },
      NB_STAGE_COMPUTE },
    { "predict_ds_comp_pds", "#define NB_PREDICT_DSTATE\n" GAJ_DS, { 0 },
      { "block_state.glsl", "predict_one.glsl", "predict.comp" }, NB_STAGE_COMPUTE },
    { "correct_comp", "", { 0 }, { "pow2.glsl", "block_state.glsl", "correct.comp" }, NB_STAGE_COMPUTE },
    { "find_block_comp", "", { 0 }, { "block_state.glsl", "find_block.comp" },
      NB_STAGE_COMPUTE },
    { "find_block_predict_comp", "#define NB_FIND_PREDICT\n#define NB_PREDICT_DSTATE\n",
      { 0 }, { "block_state.glsl", "predict_one.glsl", "find_block.comp" }, NB_STAGE_COMPUTE },
    { "scatter_comp", "", { 0 }, { "scatter.comp" }, NB_STAGE_COMPUTE },
    { "find_block_predict_comp_pds", "#define NB_FIND_PREDICT\n#define NB_PREDICT_DSTATE\n"
      GAJ_DS, { 0 }, { "block_state.glsl", "predict_one.glsl", "find_block.comp" },
      NB_STAGE_COMPUTE },
    { "scatter_comp_pds", GAJ_DS, { 0 }, { "scatter.comp" }, NB_STAGE_COMPUTE },
    G6_BLOCK_A(256, "", ""), G6_BLOCK_A(256, "_nn", G6_NN),
    G6_LANES(64, 4), G6_LANES(64, 16), G6_LANES(64, 64), G6_LANES(128, 2), G6_LANES(128, 4),
    G6_BLOCK("b", "B"), G6_BLOCK("c", "C"), G6_BLOCK("d", "D"), G6_BLOCK("e", "E"),
    G6_BLOCK("f", "F"), G6_BLOCK_MODE("g", "G", "", ""),
    G6_BLOCK_MODE("g", "G", "_nn", G6_NN), G6_BLOCK("h", "H"),
    G6_H_LANES(128), G6_H_LANES(16), G6_H_LANES(2),
    { "g6_reduce_a", "#define NB_PRECISION_A\n", { 0 }, { "ds_sum.glsl", "g6_reduce.comp" },
      NB_STAGE_COMPUTE },
    G6_REDUCE("b", "B"), G6_REDUCE("c", "C"), G6_REDUCE("d", "D"), G6_REDUCE("e", "E"),
    G6_REDUCE("f", "F"), G6_REDUCE("g", "G"), G6_REDUCE("h", "H"),
    { "g6_scatter", "", { 0 }, { "g6_scatter.comp" }, NB_STAGE_COMPUTE },
    { "g6_neighbours", "", { 0 }, { "gaj.glsl", "g6_neighbours.comp" }, NB_STAGE_COMPUTE },
    { "g6_neighbours_pf", G6_PF, { 0 }, { "gaj.glsl", "g6_neighbours.comp" },
      NB_STAGE_COMPUTE },
    { "g6_neighbours_d", "#define NB_G6_I_DOUBLE\n", { 0 }, { "gaj.glsl", "g6_neighbours.comp" },
      NB_STAGE_COMPUTE },
    PRECISION_GA("b", "B"), PRECISION_GA("c", "C"), PRECISION_GA("d", "D"),
    PRECISION_GA("e", "E"), PRECISION_GA("f", "F"), PRECISION_GA("g", "G"),
    PRECISION_GA("h", "H"), PRECISION_GA("m", "M"),
    PRECISION_GAJ("b", "B"), PRECISION_GAJ("c", "C"), PRECISION_GAJ("d", "D"),
    PRECISION_GAJ("e", "E"), PRECISION_GAJ("f", "F"), PRECISION_GAJ("g", "G"),
    PRECISION_GAJ("h", "H"), PRECISION_GAJ("m", "M"),
    PRECISION_GAJ_MERGE("b", "B"), PRECISION_GAJ_MERGE("c", "C"),
    PRECISION_GAJ_MERGE("d", "D"), PRECISION_GAJ_MERGE("e", "E"),
    PRECISION_GAJ_MERGE("f", "F"), PRECISION_GAJ_MERGE("g", "G"),
    PRECISION_GAJ_MERGE("h", "H"), PRECISION_GAJ_MERGE("m", "M"),
    { "gaj_prec_vmax", "#define NB_GAJ_VMAX_GROUP 256\n", { 0 }, { "gaj_vmax.comp" },
      NB_STAGE_COMPUTE },
    MD_LAW("lj", "LJ"), MD_LAW("ljc_constant", "LJC_CONSTANT"),
    MD_LAW("ljc_linear", "LJC_LINEAR"), MD_LAW("ljc_sigmoidal", "LJC_SIGMOIDAL"),
    MD_LAW("ionic", "IONIC"),
    MD_PASS("md_cell_hash", "NB_MD_PASS_HASH", "md_cells.comp"),
    MD_PASS("md_cell_scan", "NB_MD_PASS_SCAN", "md_cells.comp"),
    MD_PASS("md_cell_place", "NB_MD_PASS_PLACE", "md_cells.comp"),
    MD_PASS("md_cell_sort", "NB_MD_PASS_SORT", "md_cells.comp"),
    MD_PASS("md_cell_gather", "NB_MD_PASS_GATHER", "md_cells.comp"),
    MD_PASS("md_k1", "NB_MD_K1", "md_verlet.comp"),
    MD_PASS("md_k2", "NB_MD_K2", "md_verlet.comp"),
    /* The compute MD engine's finish of mode B..H (md_compute_force.c): the
     * eight words per particle into the float force K2 reads. */
    MD_PREC_FINISH("b", "B"), MD_PREC_FINISH("c", "C"), MD_PREC_FINISH("d", "D"),
    MD_PREC_FINISH("e", "E"), MD_PREC_FINISH("f", "F"), MD_PREC_FINISH("g", "G"),
    MD_PREC_FINISH("h", "H"),
    /* MD all-pairs forces as a fragment kernel (src/md_fragment.c), one
     * program per pair law of md_law.glsl. */
    { "md_frag_lj", "#define NB_MD_LJ\n", { "fullscreen.vert" },
      { "md_law.glsl", "md.frag" }, NB_STAGE_FRAGMENT },
    { "md_frag_ljc_constant", "#define NB_MD_LJC_CONSTANT\n", { "fullscreen.vert" },
      { "md_law.glsl", "md.frag" }, NB_STAGE_FRAGMENT },
    { "md_frag_ljc_linear", "#define NB_MD_LJC_LINEAR\n", { "fullscreen.vert" },
      { "md_law.glsl", "md.frag" }, NB_STAGE_FRAGMENT },
    { "md_frag_ljc_sigmoidal", "#define NB_MD_LJC_SIGMOIDAL\n", { "fullscreen.vert" },
      { "md_law.glsl", "md.frag" }, NB_STAGE_FRAGMENT },
    { "md_frag_ionic", "#define NB_MD_IONIC\n", { "fullscreen.vert" },
      { "md_law.glsl", "md.frag" }, NB_STAGE_FRAGMENT },
    /* Newton's-third-law MD kernels (src/md_triangular.c, seed 003 6.4):
     * per law, the square loop on one work group and versions 1-3 on one
     * work group (_wg) or the whole device (_gpu, tiles); then the passes
     * that only sum. */
#define MD_TRI(name, law, LAW, group, extra, file)                           \
    { "md_tri" name "_" law, "#define NB_MD_" LAW "\n#define NB_GROUP " group "\n" extra, \
      { 0 }, { "md_law.glsl", "md_tri.glsl", file }, NB_STAGE_COMPUTE }
#define MD_TRI_LAW(law, LAW)                                                 \
    MD_TRI("_square_wg", law, LAW, "NB_TRI_WG_GROUP", "", "md_tri_square.comp"), \
    MD_TRI("1_pairs_wg", law, LAW, "NB_TRI_WG_GROUP", "#define NB_TRI_PASS_PAIRS\n", \
           "md_tri1.comp"),                                                  \
    MD_TRI("1_pairs_gpu", law, LAW, "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_PAIRS\n", \
           "md_tri1.comp"),                                                  \
    MD_TRI("2_wg", law, LAW, "NB_TRI_WG_GROUP", "#define NB_TRI_PASS_ROWS\n"  \
           "#define NB_TRI_PASS_COLUMNS\n#define NB_TRI_COHERENT coherent\n", "md_tri2.comp"), \
    MD_TRI("2_rows_gpu", law, LAW, "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_ROWS\n", \
           "md_tri2.comp"),                                                  \
    MD_TRI("3_wg", law, LAW, "NB_TRI_WG_GROUP", "#define NB_TRI_COEFF_GLOBAL\n", \
           "md_tri3.comp"),                                                  \
    MD_TRI("3_tiles", law, LAW, "NB_TRI_TILE_GROUP", "", "md_tri3_tiles.comp")
#define MD_TRI_SUM(name, group, extra, file)                                 \
    { "md_tri" name, "#define NB_GROUP " group "\n" extra, { 0 },           \
      { "md_tri.glsl", file }, NB_STAGE_COMPUTE }
    /* Accumulation modes B..H (seed 004 Table 1), "_<m>": the law programs
     * and the sum passes.  B..F's tri1 pairs pass is mode A's (float
     * terms); H's stores int64 terms, G's double terms (lj only: the ionic
     * law needs a double pow).  tri3-gpu keeps eight-word states in its
     * scratch. */
#define MD_TRI_M_DEFINES(M) "#define NB_PRECISION_" M "\n#define NB_PREC_NO_BUFFER\n"
#define MD_TRI_M(name, law, LAW, m, M, group, extra, file)                   \
    { "md_tri" name "_" law "_" m, "#define NB_MD_" LAW "\n#define NB_GROUP " group "\n" \
      MD_TRI_M_DEFINES(M) extra, { 0 },                                      \
      { "nb_precision.h", "accumulate.glsl", "md_law.glsl", "md_tri.glsl", file }, \
      NB_STAGE_COMPUTE }
#define MD_TRI_LAW_M(law, LAW, m, M, tiles_extra)                            \
    MD_TRI_M("_square_wg", law, LAW, m, M, "NB_TRI_WG_GROUP", "", "md_tri_square.comp"), \
    MD_TRI_M("2_wg", law, LAW, m, M, "NB_TRI_WG_GROUP", "#define NB_TRI_PASS_ROWS\n" \
             "#define NB_TRI_PASS_COLUMNS\n#define NB_TRI_COHERENT coherent\n", \
             "md_tri2.comp"),                                                \
    MD_TRI_M("2_rows_gpu", law, LAW, m, M, "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_ROWS\n", \
             "md_tri2.comp"),                                                \
    MD_TRI_M("3_wg", law, LAW, m, M, "NB_TRI_WG_GROUP", "#define NB_TRI_COEFF_GLOBAL\n", \
             "md_tri3.comp"),                                                \
    MD_TRI_M("3_tiles", law, LAW, m, M, "NB_TRI_TILE_GROUP",                 \
             "#define NB_TRI_SCRATCH_STATES\n" tiles_extra, "md_tri3_tiles.comp")
#define MD_TRI_PAIRS_M(law, LAW, m, M, extra)                                \
    MD_TRI_M("1_pairs_wg", law, LAW, m, M, "NB_TRI_WG_GROUP", "#define NB_TRI_PASS_PAIRS\n" \
             extra, "md_tri1.comp"),                                         \
    MD_TRI_M("1_pairs_gpu", law, LAW, m, M, "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_PAIRS\n" \
             extra, "md_tri1.comp")
#define MD_TRI_SUM_M(name, m, M, group, extra, file)                         \
    { "md_tri" name "_" m, "#define NB_GROUP " group "\n" MD_TRI_M_DEFINES(M) extra, { 0 }, \
      { "nb_precision.h", "accumulate.glsl", "md_tri.glsl", file }, NB_STAGE_COMPUTE }
#define MD_TRI_SUMS_M(m, M, tri1_extra)                                      \
    MD_TRI_SUM_M("1_sum_wg", m, M, "NB_TRI_WG_GROUP", tri1_extra, "md_tri1.comp"), \
    MD_TRI_SUM_M("1_sum_gpu", m, M, "NB_TRI_GPU_GROUP", tri1_extra, "md_tri1.comp"), \
    MD_TRI_SUM_M("2_columns_gpu", m, M, "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_COLUMNS\n", \
                 "md_tri2.comp"),                                            \
    MD_TRI_SUM_M("3_reduce", m, M, "NB_TRI_GPU_GROUP", "#define NB_TRI_SCRATCH_STATES\n", \
                 "md_tri3_reduce.comp")
#define MD_TRI_MODE(m, M)                                                    \
    MD_TRI_LAW_M("ionic", "IONIC", m, M, ""), MD_TRI_LAW_M("lj", "LJ", m, M, ""), \
    MD_TRI_SUMS_M(m, M, "")
    MD_TRI_LAW("ionic", "IONIC"),
    MD_TRI_LAW("lj", "LJ"),
    MD_TRI_MODE("b", "B"), MD_TRI_MODE("c", "C"), MD_TRI_MODE("d", "D"),
    MD_TRI_MODE("e", "E"), MD_TRI_MODE("f", "F"),
    MD_TRI_LAW_M("lj", "LJ", "g", "G", "#define NB_TRI_COEFF_GLOBAL\n"),
    MD_TRI_PAIRS_M("lj", "LJ", "g", "G", ""),
    MD_TRI_SUMS_M("g", "G", ""),
    MD_TRI_LAW_M("ionic", "IONIC", "h", "H", ""), MD_TRI_LAW_M("lj", "LJ", "h", "H", ""),
    MD_TRI_PAIRS_M("ionic", "IONIC", "h", "H", "#define NB_TRI_SCRATCH_FIXED\n"),
    MD_TRI_PAIRS_M("lj", "LJ", "h", "H", "#define NB_TRI_SCRATCH_FIXED\n"),
    MD_TRI_SUMS_M("h", "H", "#define NB_TRI_SCRATCH_FIXED\n"),
    MD_TRI_SUM("1_sum_wg", "NB_TRI_WG_GROUP", "", "md_tri1.comp"),
    MD_TRI_SUM("1_sum_gpu", "NB_TRI_GPU_GROUP", "", "md_tri1.comp"),
    MD_TRI_SUM("2_columns_gpu", "NB_TRI_GPU_GROUP", "#define NB_TRI_PASS_COLUMNS\n",
               "md_tri2.comp"),
    MD_TRI_SUM("3_reduce", "NB_TRI_GPU_GROUP", "", "md_tri3_reduce.comp"),
#undef MD_TRI
#undef MD_TRI_LAW
#undef MD_TRI_SUM
#undef MD_TRI_M_DEFINES
#undef MD_TRI_M
#undef MD_TRI_LAW_M
#undef MD_TRI_PAIRS_M
#undef MD_TRI_SUM_M
#undef MD_TRI_SUMS_M
#undef MD_TRI_MODE
    MD_PRECISION_FLOAT("lj", "LJ"), MD_PRECISION("lj", "LJ", "g", "G"),
    MD_PRECISION_FLOAT("ljc_constant", "LJC_CONSTANT"),
    MD_PRECISION("ljc_constant", "LJC_CONSTANT", "g", "G"),
    MD_PRECISION_FLOAT("ljc_linear", "LJC_LINEAR"),
    MD_PRECISION("ljc_linear", "LJC_LINEAR", "g", "G"),
    MD_PRECISION_FLOAT("ljc_sigmoidal", "LJC_SIGMOIDAL"),
    MD_PRECISION_FLOAT("ionic", "IONIC"),
    MD_CELL_PRECISION_FLOAT("lj", "LJ"), MD_CELL_PRECISION("lj", "LJ", "g", "G"),
    MD_CELL_PRECISION_FLOAT("ljc_constant", "LJC_CONSTANT"),
    MD_CELL_PRECISION("ljc_constant", "LJC_CONSTANT", "g", "G"),
    MD_CELL_PRECISION_FLOAT("ljc_linear", "LJC_LINEAR"),
    MD_CELL_PRECISION("ljc_linear", "LJC_LINEAR", "g", "G"),
    MD_CELL_PRECISION_FLOAT("ljc_sigmoidal", "LJC_SIGMOIDAL"),
    MD_CELL_PRECISION_FLOAT("ionic", "IONIC"),
    PRECISION_GA_FRAG("b", "B"), PRECISION_GA_FRAG("c", "C"), PRECISION_GA_FRAG("d", "D"),
    PRECISION_GA_FRAG("e", "E"), PRECISION_GA_FRAG("f", "F"), PRECISION_GA_FRAG("g", "G"),
    PRECISION_GA_FRAG("h", "H"), PRECISION_GA_FRAG("m", "M"),
    MD_PRECISION_FRAG_FLOAT("lj", "LJ"), MD_PRECISION_FRAG("lj", "LJ", "g", "G"),
    MD_PRECISION_FRAG_FLOAT("ljc_constant", "LJC_CONSTANT"),
    MD_PRECISION_FRAG("ljc_constant", "LJC_CONSTANT", "g", "G"),
    MD_PRECISION_FRAG_FLOAT("ljc_linear", "LJC_LINEAR"),
    MD_PRECISION_FRAG("ljc_linear", "LJC_LINEAR", "g", "G"),
    MD_PRECISION_FRAG_FLOAT("ljc_sigmoidal", "LJC_SIGMOIDAL"),
    MD_PRECISION_FRAG_FLOAT("ionic", "IONIC"),
    /* Pictures (render.c): particles from attribute buffers (float or
     * double velocities) or from stream textures, box edges, overlays. */
    { "render_points", "", { "render_points.vert" }, { "render_points.frag" },
      NB_STAGE_FRAGMENT },
    { "render_points_dvel", "#define NB_RENDER_DVEL\n", { "render_points.vert" },
      { "render_points.frag" }, NB_STAGE_FRAGMENT },
    { "render_points_tex", "#define NB_RENDER_TEXTURE\n", { "render_points.vert" },
      { "render_points.frag" }, NB_STAGE_FRAGMENT },
    { "render_lines", "", { "render_lines.vert" }, { "render_lines.frag" },
      NB_STAGE_FRAGMENT },
    { "render_image", "", { "render_image.vert" }, { "render_image.frag" },
      NB_STAGE_FRAGMENT },
    { "render_inspect", "", { "render_image.vert" }, { "render_inspect.frag" },
      NB_STAGE_FRAGMENT },
    { 0 }
};

const struct nb_program_desc *nb_gl_programs(void)
{
    return catalogue;
}

const struct nb_program_desc *nb_gl_program_find(const char *name)
{
    for (const struct nb_program_desc *d = catalogue; d->name; d++)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

const char *nb_gl_stage_extension(enum nb_stage stage)
{
    switch (stage) {
    case NB_STAGE_VERTEX: return "vert";
    case NB_STAGE_FRAGMENT: return "frag";
    case NB_STAGE_COMPUTE: return "comp";
    }
    return "unknown";
}
