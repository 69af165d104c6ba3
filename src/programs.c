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

#define GAJ_COMPUTE(T)                                                      \
    { "gaj_comp_t" #T, "#define NB_TILE " #T "\n", { 0 }, { "gaj.glsl", "gaj.comp" }, \
      NB_STAGE_COMPUTE }

static const struct nb_program_desc catalogue[] = {
    FRAGMENT_GA("1x1", 1, 1),
    FRAGMENT_GA("1x4", 1, 4),
    FRAGMENT_GA("4x4", 4, 4),
    FRAGMENT_REDUCE(1),
    FRAGMENT_REDUCE(2),
    FRAGMENT_REDUCE(4),
    { "gaj_frag_1x4", "", { "fullscreen.vert" }, { "gaj.glsl", "gaj.frag" },
      NB_STAGE_FRAGMENT },
    { "predict_frag", "", { "fullscreen.vert" }, { "predict.frag" }, NB_STAGE_FRAGMENT },
    { "gather_frag", "", { "fullscreen.vert" }, { "gather.frag" }, NB_STAGE_FRAGMENT },
    { "scatter_frag", "", { "scatter.vert" }, { "scatter.frag" }, NB_STAGE_FRAGMENT },
    COMPUTE_GA(64, 1), COMPUTE_GA(64, 2), COMPUTE_GA(64, 4), COMPUTE_GA(64, 8),
    COMPUTE_GA(128, 1), COMPUTE_GA(128, 2), COMPUTE_GA(128, 4), COMPUTE_GA(128, 8),
    COMPUTE_GA(256, 1), COMPUTE_GA(256, 2), COMPUTE_GA(256, 4), COMPUTE_GA(256, 8),
    { "reduce_comp", "", { 0 }, { "reduce.comp" }, NB_STAGE_COMPUTE },
    GAJ_COMPUTE(64), GAJ_COMPUTE(128), GAJ_COMPUTE(256),
    { "predict_comp", "", { 0 }, { "predict.comp" }, NB_STAGE_COMPUTE },
    { "scatter_comp", "", { 0 }, { "scatter.comp" }, NB_STAGE_COMPUTE },
    PRECISION_GA("b", "B"), PRECISION_GA("c", "C"), PRECISION_GA("d", "D"),
    PRECISION_GA("e", "E"), PRECISION_GA("f", "F"), PRECISION_GA("g", "G"),
    PRECISION_GA("h", "H"), PRECISION_GA("m", "M"),
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
