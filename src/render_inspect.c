/* render_inspect.c - the texture inspector: the stream model made
 * visible (Elsen et al. 2006; Portegies Zwart et al. 2007).  The render
 * targets the fragment pipeline's last force pass wrote, or the output
 * buffers of the compute pipeline, are drawn over the right side of the
 * last frame as false-colour images of log10 of their magnitudes, texel
 * for texel, 2-D targets in their own layout and 1-D ones wrapped into a
 * near-square, with a colour bar; the text says the variant's shape, and
 * each panel's title (nb_render_inspect_titles) its target, layout and
 * range of values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

void nb_render_inspect_layout(size_t count, int width, int height, int *cols, int *rows)
{
    if (width > 1 && height > 1 && (size_t)width * (size_t)height == count &&
        width <= NB_INSPECT_MAX_ASPECT * height && height <= NB_INSPECT_MAX_ASPECT * width) {
        *cols = width;
        *rows = height;
        return;
    }
    int side = 1;
    while ((size_t)side * (size_t)side < count)
        side++;
    *cols = side;
    *rows = count > 0 ? (int)((count + (size_t)side - 1) / (size_t)side) : 1;
}

/* The range of |xyz| and |w| over a panel's elements, read back from the
 * GPU (the inspector is a debugging view: a synchronous read is fine). */
struct range {
    double lo[2], hi[2];        /* of the non-zero finite magnitudes; lo > hi: none */
    size_t zeros[2], bad[2];    /* zero, not finite */
};

static void range_add(struct range *g, const float *v)
{
    double m[2] = { sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]),
                    fabs((double)v[3]) };
    for (int c = 0; c < 2; c++) {
        if (!isfinite(m[c]))
            g->bad[c]++;
        else if (m[c] == 0)
            g->zeros[c]++;
        else {
            g->lo[c] = m[c] < g->lo[c] ? m[c] : g->lo[c];
            g->hi[c] = m[c] > g->hi[c] ? m[c] : g->hi[c];
        }
    }
}

/* The panel's vec4s into a host copy (malloc'd; NULL when out of memory):
 * a texture through a framebuffer, a buffer through a copy (it may be
 * mapped persistently by its engine). */
static float *read_panel(const struct nb_gl_panel *p, size_t *stride, size_t *count)
{
    float *host;
    if (p->texture) {
        *count = (size_t)p->width * (size_t)p->height;
        *stride = 4;
        if (!(host = malloc(*count * 4 * sizeof *host)))
            return NULL;
        GLint old, pack;
        GLuint fbo;
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &old);
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);      /* an engine's download may be bound */
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                               p->texture, 0);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glReadPixels(0, 0, p->width, p->height, GL_RGBA, GL_FLOAT, host);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)old);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack);
        glDeleteFramebuffers(1, &fbo);
        return host;
    }
    *count = p->count;
    *stride = 4 * (size_t)(p->stride > 0 ? p->stride : 1);
    size_t floats = p->count ? (p->count - 1) * *stride + 4 : 0;
    size_t bytes = floats * sizeof *host, from = (size_t)p->offset * 4 * sizeof *host;
    if (!(host = malloc(bytes ? bytes : 1)))
        return NULL;
    if (bytes) {
        GLuint copy;
        glGenBuffers(1, &copy);
        glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
        glBindBuffer(GL_COPY_READ_BUFFER, p->buffer);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)from, 0,
                            (GLsizeiptr)bytes);
        const void *map = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes,
                                           GL_MAP_READ_BIT);
        if (map) {
            memcpy(host, map, bytes);
            glUnmapBuffer(GL_COPY_WRITE_BUFFER);
        } else {
            *count = 0;
        }
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glDeleteBuffers(1, &copy);
    }
    return host;
}

/* "lo to hi", or what stands in for it. */
static void range_words(char *out, size_t size, const struct range *g, int c)
{
    int n = 0;
    if (g->lo[c] <= g->hi[c])
        n = snprintf(out, size, "%.2e to %.2e", g->lo[c], g->hi[c]);
    else
        n = snprintf(out, size, "no non-zero value");
    if (n >= 0 && (size_t)n < size && g->zeros[c])
        n += snprintf(out + n, size - (size_t)n, ", %zu zero", g->zeros[c]);
    if (n >= 0 && (size_t)n < size && g->bad[c])
        snprintf(out + n, size - (size_t)n, ", %zu not finite", g->bad[c]);
}

/* The title: the target, its layout and the range of its values. */
static void panel_title(const struct nb_gl_panel *p, int cols, int rows, char *out,
                        size_t size)
{
    struct range g = { { INFINITY, INFINITY }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    size_t stride = 4, count = 0;
    float *host = read_panel(p, &stride, &count);
    for (size_t i = 0; host && i < count; i++)
        range_add(&g, host + i * stride);
    free(host);
    char extent[64], xyz[96], w[96] = "";
    if (p->texture)
        snprintf(extent, sizeof extent, "%dx%d texels", p->width, p->height);
    else
        snprintf(extent, sizeof extent, "%zu elements", p->count);
    range_words(xyz, sizeof xyz, &g, 0);
    if (p->w_name[0])
        range_words(w, sizeof w, &g, 1);
    snprintf(out, size, "%s%s%s\n%s shown as %dx%d\n|xyz| %s%s%s", p->name,
             p->w_name[0] ? " | " : "", p->w_name, extent, cols, rows,
             host ? xyz : "(out of host memory)", p->w_name[0] ? "\n|w| " : "", w);
}

/* One image of a panel's xyz (channel 0) or w (1) in the cell x, y, w, h,
 * its aspect kept. */
static void draw_image(struct nb_render *r, const struct nb_gl_panel *p, int channel, int x,
                       int y, int w, int h, int cols, int rows)
{
    size_t count = p->texture ? (size_t)p->width * (size_t)p->height : p->count;
    double aspect = (double)cols / rows;
    int iw = w, ih = (int)(w / aspect);
    if (ih > h) {
        ih = h;
        iw = (int)(h * aspect);
    }
    iw = iw < 1 ? 1 : iw;
    ih = ih < 1 ? 1 : ih;
    glUniform1i(1, p->texture ? 0 : 1);
    glUniform1i(2, channel);
    glUniform2i(4, cols, rows);
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
 * panel, a strip for its title (drawn by the caller) over its vector and
 * scalar images side by side; the colour bar on top.  The shape and the
 * scale go into text, the titles into r->titles. */
static void draw_panels(struct nb_render *r, const struct nb_gl_results *res, char *text,
                        size_t size)
{
    int W = r->opt.width, H = r->opt.height;
    int margin = H / 60 + 2, x0 = W - (int)(0.38 * W), col_w = W - x0 - margin;
    int rows = res->count > 0 ? res->count : 1;
    int bar_h = H / 40 + 4;
    int title_h = 4 * (H / 48 + 6);     /* four lines of a caption font */
    int row_h = (H - 3 * margin - bar_h) / rows - margin - title_h;
    glUniform1i(1, 2);          /* the colour bar on top, then a row a panel */
    draw_rect(r, x0, margin, col_w, bar_h);
    snprintf(text, size, "%s\ncolour bar (top right): log10 |value| from %+.0f (black) to "
             "%+.0f (white); green: not finite", res->shape, DECADE_LO, DECADE_HI);
    memset(&r->titles, 0, sizeof r->titles);
    for (int k = 0; k < res->count && k < NB_INSPECT_PANELS; k++) {
        const struct nb_gl_panel *p = &res->panel[k];
        int y = 2 * margin + bar_h + k * (row_h + title_h + margin);
        int half = p->w_name[0] ? (col_w - margin) / 2 : col_w;
        int cols, image_rows;
        size_t count = p->texture ? (size_t)p->width * (size_t)p->height : p->count;
        nb_render_inspect_layout(count, p->width, p->height, &cols, &image_rows);
        r->titles.panel[k].x = x0;
        r->titles.panel[k].y = y;
        r->titles.panel[k].height = title_h;
        panel_title(p, cols, image_rows, r->titles.panel[k].text,
                    sizeof r->titles.panel[k].text);
        r->titles.count++;
        if (row_h < 1)
            continue;           /* a frame too small for the images */
        draw_image(r, p, 0, x0, y + title_h, half, row_h, cols, image_rows);
        if (p->w_name[0])
            draw_image(r, p, 1, x0 + half + margin, y + title_h, half, row_h, cols,
                       image_rows);
    }
}

void nb_render_inspect_titles(const struct nb_render *r, struct nb_inspect_titles *out)
{
    *out = r->titles;
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
