/* gl_buffers.c - what every GL pipeline leans on between its kernels: the
 * automatic variant choice (time each candidate once, keep the fastest),
 * shader storage buffers grown to size within the GL's limits, host
 * staging areas of float quadruples grown the same way, the particles
 * packed as float (x, y, z, m) quadruples, and a buffer's results panel. */
#include <stdio.h>
#include <stdlib.h>

#include "gl_internal.h"

/* Times every candidate; sets the fastest. */
static enum nb_status probe(const struct nb_gl_tunable *t, float eps2,
                            struct nb_error *err)
{
    const char *best = NULL;
    double best_seconds = 0.0;
    for (const char *const *name = t->candidates; *name; name++) {
        /* A variant past this context's limits (ES 3.1's smaller work
         * groups, say) is no candidate here. */
        enum nb_status st = t->set_variant(t->state, *name, err);
        if (st == NB_ERR_LIMIT) {
            *err = (struct nb_error){ 0 };
            continue;
        }
        if (st != NB_OK ||
            t->run(t->state, eps2, err) != NB_OK ||       /* builds the program */
            t->run(t->state, eps2, err) != NB_OK)
            return err->status;
        double seconds = t->seconds(t->state);
        if (!best || seconds < best_seconds)
            best = *name, best_seconds = seconds;
    }
    return best ? t->set_variant(t->state, best, err)
                : nb_error_set(err, NB_ERR_LIMIT, "no variant fits this context's limits");
}

enum nb_status nb_gl_evaluate(const struct nb_gl_tunable *t, struct nb_gl_choice *choice,
                              size_t n, float eps2, struct nb_error *err)
{
    if (!choice->automatic || choice->chosen_for == n)
        return t->run(t->state, eps2, err);
    if (t->run(t->state, eps2, err) != NB_OK)
        return err->status;
    choice->chosen_for = n;
    if (t->seconds(t->state) > t->probe_limit)
        return NB_OK;
    if (probe(t, eps2, err) != NB_OK)
        return err->status;
    *choice = (struct nb_gl_choice){ 1, n };    /* set_variant cleared it */
    return t->run(t->state, eps2, err);
}

enum nb_status nb_gl_ensure_buffer(GLuint *buf, size_t *capacity, size_t bytes,
                                   const char *what, struct nb_error *err)
{
    if (*capacity >= bytes)
        return NB_OK;
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    if ((GLint64)bytes > max_block)
        return nb_error_set(err, NB_ERR_LIMIT, "%s needs a %zu-byte storage buffer, "
                            "over this GL's GL_MAX_SHADER_STORAGE_BLOCK_SIZE of %lld",
                            what, bytes, (long long)max_block);
    if (!*buf)
        glGenBuffers(1, buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, *buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
    if (nb_gl_check(what, err) != NB_OK)
        return err->status;
    *capacity = bytes;
    return NB_OK;
}

enum nb_status nb_gl_ensure_host_quads(float **area, size_t *count, size_t quads,
                                       const char *what, struct nb_error *err)
{
    if (*count >= quads)
        return NB_OK;
    free(*area);
    *area = nb_alloc(4 * quads, sizeof(float), what, err);
    *count = *area ? quads : 0;
    return *area ? NB_OK : NB_ERR_NOMEM;
}

void nb_gl_pack_particles(float *dst, size_t n, const double *x, const double *m)
{
    for (size_t i = 0; i < n; i++) {
        dst[4 * i + 0] = (float)x[3 * i + 0];
        dst[4 * i + 1] = (float)x[3 * i + 1];
        dst[4 * i + 2] = (float)x[3 * i + 2];
        dst[4 * i + 3] = (float)m[i];
    }
}

/* A buffer panel of count vec4s (stride apart, from offset), laid out in
 * a near-square of rows. */
struct nb_gl_panel nb_gl_buffer_panel(const char *name, const char *w_name, unsigned buffer,
                                      size_t count, int stride, int offset)
{
    struct nb_gl_panel p = { .buffer = buffer, .count = count, .stride = stride,
                             .offset = offset };
    int side = 1;
    while ((size_t)side * (size_t)side < count)
        side++;
    p.width = side;
    p.height = (int)((count + (size_t)side - 1) / (size_t)side);
    snprintf(p.name, sizeof p.name, "%s", name);
    snprintf(p.w_name, sizeof p.w_name, "%s", w_name);
    return p;
}
