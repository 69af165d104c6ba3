/* render_sources.c - what a frame of a Hermite run or an MD system draws
 * from: the engine's particle stream on the GPU (gl_particles: the compute
 * pipeline's buffers, the fragment pipeline's textures), so that nothing
 * is read back; the host state gives only what the stream lacks (the
 * camera's first fit, potentials, types) and the CPU engine's positions. */
#include <stdlib.h>

#include "render_internal.h"

/* The engine's stream when it has one for all n particles. */
static int engine_stream(int (*gl_particles)(void *, struct nb_gl_particles *), void *state,
                         size_t n, struct nb_gl_particles *out)
{
    *out = (struct nb_gl_particles){ 0 };
    if (!gl_particles || !gl_particles(state, out) || out->n != n) {
        *out = (struct nb_gl_particles){ 0 };
        return 0;
    }
    return 1;
}

enum nb_status nb_render_draw_sim(struct nb_render *r, struct nb_sim *s, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    struct nb_render_source src = { .n = s->p.n, .x = s->p.x, .v = s->p.v, .m = s->p.m };
    double *xv = NULL;
    enum nb_status st;

    if (r->opt.color == NB_COLOR_POTENTIAL)
        return nb_error_set(err, NB_ERR_ARGS, "a Hermite run cannot be coloured by "
                            "potential: block steps keep potentials only for the last "
                            "block (colour by speed or type)");
    if (!engine_stream(b->gl_particles, b->state, s->p.n, &src.gpu)) {
        /* The CPU engine: every particle predicted to the last block time,
         * in double on the host, and uploaded. */
        xv = nb_alloc(s->p.n ? s->p.n : 1, 6 * sizeof *xv, "a frame's positions", err);
        if (!xv)
            return NB_ERR_NOMEM;
        if ((st = nb_sim_predict(s, s->t, xv, xv + 3 * s->p.n, err)) != NB_OK) {
            free(xv);
            return st;
        }
        src.x = xv;
        src.v = xv + 3 * s->p.n;
    }
    st = nb_render_draw_source(r, &src, err);
    free(xv);
    return st;
}

enum nb_status nb_render_draw_md_sim(struct nb_render *r, struct nb_md_sim *s,
                                     struct nb_error *err)
{
    struct nb_md_engine *e = s->engine;
    struct nb_render_source src = { .n = s->n, .x = s->x, .v = s->v, .m = s->m,
                                    .pot = s->pe, .type = s->type, .size_by_type = 1 };
    int periodic = 0;

    for (int a = 0; a < 3; a++)
        periodic |= s->box.periodic[a];
    if (periodic) {
        src.lo = s->box.lo;
        src.hi = s->box.hi;
    }
    engine_stream(e->gl_particles, e->state, s->n, &src.gpu);
    return nb_render_draw_source(r, &src, err);
}
