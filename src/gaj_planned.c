/* gaj_planned.c - the next block's force pass, planned on the device and
 * queued behind its corrector.  correct.comp's last group,
 * which already takes the next block's time and level from the counts,
 * also writes how that block's force pass would run (its size, work
 * groups, j-slices: nb_gaj_compute_run's plan for one piece) into a small
 * buffer; gaj.comp and reduce.comp with NB_FORCE_PLANNED then run from
 * it with indirect dispatches.  The GPU goes from one block's corrector
 * to the next block's forces without waiting for the host, which takes
 * the pass (nb_gaj_compute_take_planned) where its own clock agrees. */

#include "gaj_internal.h"

int nb_gaj_compute_plan(const struct nb_gaj_compute *g, struct nb_gaj_plan *p)
{
    size_t first, end;
    struct nb_error fits;
    nb_gaj_j_range(g, &first, &end);
    *p = (struct nb_gaj_plan){ .n = g->n, .tile = g->tile, .fill = g->fill, .eps = g->eps };
    /* on the whole j-set, after a first run set the tile (the device
     * corrector's blocks come whole); gaj.comp's five storage blocks and
     * the plan (ES 3.1 promises four) */
    if (first != 0 || end != g->n || !g->tile ||
        nb_gl_compute_fits(g->gl, "the planned GAJ pass", g->tile / NB_GAJ_IPT, 32 * g->tile,
                           6, &fits) != NB_OK)
        return 0;
    p->most = nb_gl_dispatch_items(g->n, g->tile);
    return 1;
}

int nb_gaj_compute_take_planned(struct nb_gaj_compute *g, size_t n_active, double eps)
{
    if (!g->planned || eps != g->eps)
        return 0;
    nb_gaj_forget_pieces(g);
    g->planned = 0;
    g->n_active = n_active;
    g->pieces = 1;
    g->piece_at[0] = 0;
    g->piece_at[1] = n_active;
    g->in_down = 0;
    g->keep_results = 1;
    return 1;
}

/* Room for any block the plan may hold: its results, and its slices' sums.
 * Grown behind the corrector, which has read the last results. */
static enum nb_status make_room(struct nb_gaj_compute *g, struct nb_error *err)
{
    size_t part = nb_gaj_slices_bound(g);
    if (nb_gaj_grow(g, B_OUT, 16 * g->n, "GAJ results", err) != NB_OK ||
        nb_gaj_grow(g, B_OUT2, 16 * g->n, "GAJ results", err) != NB_OK ||
        nb_gaj_grow(g, B_PART, part, "GAJ slices", err) != NB_OK ||
        nb_gaj_grow(g, B_PART2, part, "GAJ slices", err) != NB_OK)
        return err->status;
    return NB_OK;
}

enum nb_status nb_gaj_compute_queue_planned(struct nb_gaj_compute *g,
                                            const struct nb_gaj_plan *p, GLuint plan,
                                            struct nb_gpu_timer *timer, struct nb_error *err)
{
    char base[40], name[48];
    GLuint gaj, sums;
    snprintf(base, sizeof base, "gaj_comp_t%d_i%d_planned", p->tile, NB_GAJ_IPT);
    nb_gaj_program_name(g, base, name, sizeof name);
    if (make_room(g, err) != NB_OK || nb_gl_program(g->gl, name, &gaj, err) != NB_OK ||
        nb_gl_program(g->gl, "reduce_pair_planned_comp", &sums, err) != NB_OK)
        return err->status;
    /* the plan is correct.comp's, written before the finding passes */
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, plan);
    nb_gpu_timer_start(timer);
    glUseProgram(gaj);
    glUniform1f(nb_gl_loc(NB_LOC_EPS2), (float)(p->eps * p->eps));
    glUniform2i(nb_gl_loc(NB_LOC_J_RANGE), 0, (int)p->n);
    glUniform1i(nb_gl_loc(NB_LOC_K_FIRST), 0);
    const GLuint gaj_bind[][2] = {
        { NB_BIND_POS, g->buf[B_POS].id }, { NB_BIND_VEL, g->buf[B_VEL].id },
        { NB_BIND_ACTIVE, g->buf[B_ACTIVE].id }, { NB_BIND_OUT, g->buf[B_PART].id },
        { NB_BIND_OUT2, g->buf[B_PART2].id }, { NB_BIND_FORCE_PLAN, plan },
        { NB_BIND_JLO, g->buf[B_JLO].id } };
    for (size_t k = 0; k < sizeof gaj_bind / sizeof gaj_bind[0]; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, gaj_bind[k][0], gaj_bind[k][1]);
    glDispatchComputeIndirect(0);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(sums);
    const GLuint sum_bind[][2] = {
        { NB_BIND_PARTIAL, g->buf[B_PART].id }, { NB_BIND_PARTIAL2, g->buf[B_PART2].id },
        { NB_BIND_OUT, g->buf[B_OUT].id }, { NB_BIND_OUT2, g->buf[B_OUT2].id } };
    for (size_t k = 0; k < sizeof sum_bind / sizeof sum_bind[0]; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, sum_bind[k][0], sum_bind[k][1]);
    glDispatchComputeIndirect(3 * sizeof(GLuint));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    nb_gpu_timer_end(timer);
    g->planned = 1;
    return nb_gl_check("the planned force pass", err);
}
