/* gpu_timer.c - device time of a stretch of GL work.
 *
 * GL_TIME_ELAPSED measures the GPU alone on NVIDIA (within 1% of the wall
 * clock there); llvmpipe reads 0 or 1 ns for compute dispatches, so on a
 * software renderer the wall clock around glFinish stands in. */
#include <string.h>

#include "gl_internal.h"


/* Time queries: core in desktop GL 3.3; OpenGL ES has them only through
 * EXT_disjoint_timer_query. */
static int have_time_queries(void)
{
    return epoxy_is_desktop_gl() || epoxy_has_gl_extension("GL_EXT_disjoint_timer_query");
}

void nb_gpu_timer_init(struct nb_gpu_timer *t, const struct nb_gl *gl)
{
    t->use_query = !nb_gl_is_software(gl) && have_time_queries();
    t->query = 0;
    if (t->use_query)
        glGenQueries(1, &t->query);
    t->t0 = 0.0;
    t->seconds = 0.0;
    t->pending = 0;
}

/* With a query, no glFinish: the query times only the GPU work between
 * begin and end, and every avoided CPU-GPU round trip counts in the
 * Hermite block steps. */
void nb_gpu_timer_start(struct nb_gpu_timer *t)
{
    if (t->use_query) {
        glBeginQuery(GL_TIME_ELAPSED, t->query);
        return;
    }
    glFinish();
    t->t0 = nb_clock_seconds();
}

void nb_gpu_timer_end(struct nb_gpu_timer *t)
{
    if (t->use_query) {
        glEndQuery(GL_TIME_ELAPSED);
        t->pending = 1;
        return;
    }
    glFinish();
    t->seconds = nb_clock_seconds() - t->t0;
}

double nb_gpu_timer_result(struct nb_gpu_timer *t)
{
    if (t->pending) {
        GLuint64 ns = 0;
        if (epoxy_is_desktop_gl())
            glGetQueryObjectui64v(t->query, GL_QUERY_RESULT, &ns);   /* waits */
        else
            glGetQueryObjectui64vEXT(t->query, GL_QUERY_RESULT, &ns);
        t->seconds = (double)ns * 1e-9;
        t->pending = 0;
    }
    return t->seconds;
}

double nb_gpu_timer_stop(struct nb_gpu_timer *t)
{
    nb_gpu_timer_end(t);
    return nb_gpu_timer_result(t);
}

void nb_gpu_timer_free(struct nb_gpu_timer *t)
{
    if (t->query)
        glDeleteQueries(1, &t->query);
    t->query = 0;
}
