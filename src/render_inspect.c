/* render_inspect.c - the texture inspector: the stream model made
 * visible (Elsen et al. 2006; Portegies Zwart et al. 2007).  The render
 * targets the fragment pipeline's last force pass wrote, or the output
 * buffers of the compute pipeline, are drawn over the right side of the
 * last frame as false-colour images of log10 of their magnitudes, texel
 * for texel in their own layout, with a colour bar; the text says the
 * variant's shape and what each image is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

/* The scale: log10 |value| from 1e-4 to 1e4 covers accelerations, jerks
 * and potentials in N-body units and forces and energies in LJ units. */
#define DECADE_LO -4.0f
#define DECADE_HI 4.0f

static void draw_rect(struct nb_render *r, int x, int y, int w, int h)
{
    float W = (float)r->opt.width, H = (float)r->opt.height;
    glUniform4f(0, 2 * x / W - 1, 1 - 2 * (float)(y + h) / H, 2 * (float)(x + w) / W - 1,
                1 - 2 * y / H);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* One image of a panel's xyz (channel 0) or w (1) in the cell x, y, w, h,
 * its aspect kept. */
static void draw_image(struct nb_render *r, const struct nb_gl_panel *p, int channel, int x,
                       int y, int w, int h)
{
    /* Elements in row order, wrapped into a near-square image. */
    size_t count = p->texture ? (size_t)p->width * (size_t)p->height : p->count;
    int side = 1;
    while ((size_t)side * (size_t)side < count)
        side++;
    int rows = (int)((count + (size_t)side - 1) / (size_t)side);
    double aspect = (double)side / (rows > 0 ? rows : 1);
    int iw = w, ih = (int)(w / aspect);
    if (ih > h) {
        ih = h;
        iw = (int)(h * aspect);
    }
    iw = iw < 1 ? 1 : iw;
    ih = ih < 1 ? 1 : ih;
    glUniform1i(1, p->texture ? 0 : 1);
    glUniform1i(2, channel);
    glUniform2i(4, side, rows);
    glUniform1i(5, p->stride > 0 ? p->stride : 1);
    glUniform1i(6, p->offset);
    glUniform1i(7, (int)count);
    glUniform1i(8, p->width > 0 ? p->width : 1);
    if (p->texture) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, p->texture);
    } else {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, p->buffer);
    }
    draw_rect(r, x, y, iw, ih);
}

/* The panels in a column over the right 38% of the frame: one row a
 * panel, its vector and scalar images side by side; the colour bar under
 * them.  The description of each row goes into text. */
static void draw_panels(struct nb_render *r, const struct nb_gl_results *res, char *text,
                        size_t size)
{
    int W = r->opt.width, H = r->opt.height;
    int margin = H / 60 + 2, x0 = W - (int)(0.38 * W), col_w = W - x0 - margin;
    int rows = res->count > 0 ? res->count : 1;
    int bar_h = H / 40 + 4;
    int row_h = (H - 3 * margin - bar_h) / rows - margin;
    glUniform1i(1, 2);          /* the colour bar on top, then a row a panel */
    draw_rect(r, x0, margin, col_w, bar_h);
    size_t used = (size_t)snprintf(text, size, "%s\n", res->shape);
    for (int k = 0; k < res->count; k++) {
        const struct nb_gl_panel *p = &res->panel[k];
        int y = 2 * margin + bar_h + k * (row_h + margin);
        int half = p->w_name[0] ? (col_w - margin) / 2 : col_w;
        draw_image(r, p, 0, x0, y, half, row_h);
        if (p->w_name[0])
            draw_image(r, p, 1, x0 + half + margin, y, half, row_h);
        char extent[48];
        if (p->texture)
            snprintf(extent, sizeof extent, "%dx%d texels", p->width, p->height);
        else
            snprintf(extent, sizeof extent, "%zu elements", p->count);
        if (used < size)
            used += (size_t)snprintf(text + used, size - used, "%d. |%s|%s%s%s (%s)\n", k + 1,
                                     p->name, p->w_name[0] ? " beside |" : "", p->w_name,
                                     p->w_name[0] ? "|" : "", extent);
    }
    if (used < size)
        snprintf(text + used, size - used, "colour bar (top right): log10 |value| from %+.0f "
                 "(black) to %+.0f (white); green: not finite", DECADE_LO, DECADE_HI);
}

enum nb_status nb_render_inspect_results(struct nb_render *r, const struct nb_gl_results *res,
                                         char *text, size_t size, struct nb_error *err)
{
    unsigned program;
    char local[8];
    if (!text || size == 0) {
        text = local;
        size = sizeof local;
    }
    if (!r->drawn)
        return nb_error_set(err, NB_ERR_ARGS, "the inspector draws over a frame: draw one "
                            "first");
    if (nb_gl_make_current(r->gl, err) != NB_OK ||
        nb_gl_program(r->gl, "render_inspect", &program, err) != NB_OK)
        return err->status;
    /* The force passes wrote these as render targets or storage. */
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    struct nb_render_saved saved;
    nb_render_save(&saved);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glViewport(0, 0, r->opt.width, r->opt.height);
    glBindVertexArray(r->vao);
    glUseProgram(program);
    glUniform2f(3, DECADE_LO, DECADE_HI);
    draw_panels(r, res, text, size);
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    nb_render_restore(&saved);
    glUseProgram(0);
    return nb_gl_check("drawing the texture inspector", err);
}

enum nb_status nb_render_inspect_sim(struct nb_render *r, struct nb_sim *s, char *text,
                                     size_t size, struct nb_error *err)
{
    struct nb_gl_results res = { 0 };
    struct nb_force_backend *b = s->backend;
    if (!b->gl_results || !b->gl_results(b->state, &res))
        snprintf(res.shape, sizeof res.shape, "%s engine: no force pass on the GPU to show",
                 b->name);
    return nb_render_inspect_results(r, &res, text, size, err);
}

enum nb_status nb_render_inspect_md_sim(struct nb_render *r, struct nb_md_sim *s, char *text,
                                        size_t size, struct nb_error *err)
{
    struct nb_gl_results res = { 0 };
    struct nb_md_engine *e = s->engine;
    if (!e->gl_results || !e->gl_results(e->state, &res))
        snprintf(res.shape, sizeof res.shape, "%s MD engine: no force pass on the GPU to "
                 "show", e->name);
    return nb_render_inspect_results(r, &res, text, size, err);
}

/* A buffer's elements (vec4s, stride apart from offset) through a copy of
 * the range they span: the buffer may be persistently mapped already,
 * and ES has no glGetBufferSubData. */
static enum nb_status read_buffer(const struct nb_gl_panel *p, float *values,
                                  struct nb_error *err)
{
    size_t stride = p->stride > 0 ? (size_t)p->stride : 1, offset = (size_t)p->offset;
    size_t span = ((p->count - 1) * stride + offset + 1) * 16;
    GLint64 size = 0;
    GLuint copy = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, p->buffer);
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    if ((GLint64)span > size)
        return nb_error_set(err, NB_ERR_GL, "inspector panel '%s': %zu bytes asked of a "
                            "buffer of %lld", p->name, span, (long long)size);
    glGenBuffers(1, &copy);
    glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)span, NULL, GL_STREAM_READ);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)span);
    const float *map = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)span,
                                        GL_MAP_READ_BIT);
    if (map) {
        for (size_t i = 0; i < p->count; i++)
            memcpy(&values[4 * i], &map[4 * (i * stride + offset)], 16);
        glUnmapBuffer(GL_COPY_WRITE_BUFFER);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glDeleteBuffers(1, &copy);
    if (!map)
        return nb_error_set(err, NB_ERR_GL, "inspector panel '%s': the buffer could not "
                            "be mapped", p->name);
    return NB_OK;
}

/* A render target's texels, RGBA floats, through a framebuffer of its own. */
static void read_texture(const struct nb_gl_panel *p, float *values)
{
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                           p->texture, 0);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, p->width, p->height, GL_RGBA, GL_FLOAT, values);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
}

enum nb_status nb_render_read_panel(struct nb_gl *gl, const struct nb_gl_results *res, int k,
                                    struct nb_inspect_panel *info, float *values,
                                    size_t room, struct nb_error *err)
{
    memset(info, 0, sizeof *info);
    info->panels = res->count;
    if (k == -1)
        return NB_OK;
    if (k < 0 || k >= res->count)
        return nb_error_set(err, NB_ERR_ARGS, "panel %d asked of %d (the last force pass "
                            "%s)", k, res->count, res->count ? "has 0.." : "left none");
    const struct nb_gl_panel *p = &res->panel[k];
    snprintf(info->name, sizeof info->name, "%s", p->name);
    snprintf(info->w_name, sizeof info->w_name, "%s", p->w_name);
    info->width = p->texture ? p->width : 0;
    info->height = p->texture ? p->height : 0;
    info->count = p->texture ? (size_t)p->width * (size_t)p->height : p->count;
    if (!values)
        return NB_OK;
    if (room / 4 < info->count)
        return nb_error_set(err, NB_ERR_ARGS, "panel %d: room for %zu floats, %zu needed",
                            k, room, 4 * info->count);
    if (info->count == 0 || nb_gl_make_current(gl, err) != NB_OK)
        return info->count == 0 ? NB_OK : err->status;
    if (p->texture)
        read_texture(p, values);
    else if (read_buffer(p, values, err) != NB_OK)
        return err->status;
    return nb_gl_check("reading an inspector panel", err);
}
