/* md_clock.c - device seconds per phase of the compute MD engine (K1, cell
 * build, forces, K2): GL timestamps between the passes, read in batches of
 * CLOCK_RING so that timing does not stall the pipeline, on NVIDIA; glFinish
 * and the wall clock on the software renderers, whose timestamps do not
 * cover compute work. */
#include "md_compute_internal.h"

void nb_md_clock_init(struct phase_clock *pc, struct nb_gl *gl)
{
    pc->use_query = nb_gl_is_nvidia(gl);
    if (pc->use_query)
        glGenQueries(CLOCK_RING, pc->query);
}

void nb_md_clock_free(struct phase_clock *pc)
{
    if (pc->use_query)
        glDeleteQueries(CLOCK_RING, pc->query);
}

void nb_md_clock_drain(struct phase_clock *pc)
{
    GLuint64 prev = 0;
    for (int k = 0; k < pc->used; k++) {
        GLuint64 stamp;
        glGetQueryObjectui64v(pc->query[k], GL_QUERY_RESULT, &stamp);
        if (k > 0 && pc->label[k] >= 0)
            pc->sum[pc->label[k]] += (double)(stamp - prev) * 1e-9;
        prev = stamp;
    }
    if (pc->used > 0) {         /* the last stamp starts the next batch */
        GLuint last = pc->query[pc->used - 1];
        pc->query[pc->used - 1] = pc->query[0];
        pc->query[0] = last;
        pc->label[0] = PH_START;
        pc->used = 1;
    }
}

void nb_md_clock_mark(struct phase_clock *pc, int label)
{
    if (!pc->use_query) {
        glFinish();
        double now = nb_clock_seconds();
        if (label >= 0)
            pc->sum[label] += now - pc->wall_prev;
        pc->wall_prev = now;
        return;
    }
    if (pc->used == CLOCK_RING)
        nb_md_clock_drain(pc);
    if (label == PH_START && pc->used > 0 && pc->label[pc->used - 1] == PH_START)
        pc->used--;             /* two starts in a row: keep the later */
    glQueryCounter(pc->query[pc->used], GL_TIMESTAMP);
    pc->label[pc->used++] = label;
}
