/* md_params.c - an MD system as every MD kernel reads it: the uniforms
 * (box, cutoff, law parameters) and the pair-coefficient table, packed
 * once here for the compute, fragment, precision and triangular kernels.
 * The table holds two vec4 per ordered type pair, row = type of i:
 *   lj  = (c12, c6, u_shift, 0)      ion = (cx, cy^cz, cz, 0)
 * which is what md_law.glsl's nb_md_pair takes. */
#include <float.h>

#include "gl_internal.h"

const char *nb_gl_md_law_suffix(enum nb_md_law law)
{
    static const char *const suffix[NB_LAW_COUNT] = {
        "lj", "ljc_constant", "ljc_linear", "ljc_sigmoidal", "ionic"
    };
    return law < NB_LAW_COUNT ? suffix[law] : "?";
}

void nb_gl_md_params(struct nb_gl_md_params *p, const struct nb_md_system *sys)
{
    const struct nb_md_potential *pot = sys->pot;
    struct nb_md_pair_coeff pc[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double coulomb_shift;

    p->types = pot->types.count;
    for (int a = 0; a < 3; a++) {
        double len = sys->box->hi[a] - sys->box->lo[a];
        int periodic = sys->box->periodic[a] != 0;
        p->box[a] = periodic ? (float)len : 0.0f;
        p->inv_box[a] = periodic ? (float)(1.0 / len) : 0.0f;
    }
    p->rc2 = pot->cutoff > 0 ? (float)(pot->cutoff * pot->cutoff) : FLT_MAX;
    nb_md_pair_coeffs(pot, pc, &coulomb_shift);
    p->law[0] = (float)pot->dielectric;
    p->law[1] = (float)coulomb_shift;
    p->law[2] = p->law[3] = 0.0f;
    for (int e = 0; e < 4; e++)
        p->sigmoid[e] = (float)pot->sigmoid[e];
    for (int k = 0; k < p->types * p->types; k++) {
        const double v[8] = { pc[k].c12, pc[k].c6, pc[k].u_shift, 0.0,
                              pc[k].cx, pc[k].a, pc[k].cz, 0.0 };
        for (int e = 0; e < 8; e++)
            p->coeff[8 * k + e] = (float)(p->dcoeff[8 * k + e] = v[e]);
    }
}

void nb_gl_md_set_uniforms(const struct nb_gl_md_params *p, uint64_t active)
{
#define NB_ACTIVE(loc) ((active >> (loc)) & 1u)
    if (NB_ACTIVE(NB_LOC_MD_BOX))
        glUniform3fv(nb_gl_loc(NB_LOC_MD_BOX), 1, p->box);
    if (NB_ACTIVE(NB_LOC_MD_INV_BOX))
        glUniform3fv(nb_gl_loc(NB_LOC_MD_INV_BOX), 1, p->inv_box);
    if (NB_ACTIVE(NB_LOC_MD_RC2))
        glUniform1f(nb_gl_loc(NB_LOC_MD_RC2), p->rc2);
    if (NB_ACTIVE(NB_LOC_MD_LAW))
        glUniform4fv(nb_gl_loc(NB_LOC_MD_LAW), 1, p->law);
    if (NB_ACTIVE(NB_LOC_MD_SIGMOID))
        glUniform4fv(nb_gl_loc(NB_LOC_MD_SIGMOID), 1, p->sigmoid);
    if (NB_ACTIVE(NB_LOC_MD_TYPES))
        glUniform1i(nb_gl_loc(NB_LOC_MD_TYPES), p->types);
#undef NB_ACTIVE
}
