/* render.c - struct nb_render of glnbody.h: particles as point sprites with
 * additive blending into an off-screen framebuffer, drawn from the
 * engine's stream on the GPU where there is one (no read-back), the box
 * edges, overlays, and the frame handed to a window or read back.
 *
 * The picture is the classic one of N-body demos (Nyland, Harris & Prins
 * 2007, GPU Gems 3 ch. 31): additive sprites, so that dense regions glow
 * and the drawing order does not matter (no depth buffer, no sort). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

/* The background, in exact 8-bit steps so that an empty frame reads back
 * as exactly these bytes. */
#define BACKGROUND_R 8
#define BACKGROUND_G 8
#define BACKGROUND_B 16
#define PI 3.14159265358979323846

void nb_render_options_default(struct nb_render_options *opt)
{
    if (!opt)
        return;
    *opt = (struct nb_render_options){
        .width = 640, .height = 480, .color = NB_COLOR_SPEED,
        .camera = { .center = { 0, 0, 0 }, .distance = 0, .azimuth = 30,
                    .elevation = 20, .fov = 45 } };
}

/* The compute pipeline's double velocities (render_points_dvel: dvec4
 * attributes) exist where compute does on desktop GL. */
static int has_double_velocities(const struct nb_gl *gl)
{
    return !gl->es && nb_gl_has_compute(gl);
}

static enum nb_status check_options(const struct nb_render_options *o, const char *func,
                                    struct nb_error *err)
{
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (o->width < 1 || o->height < 1 || o->width > max_size || o->height > max_size)
        return nb_error_set(err, NB_ERR_ARGS, "%s: a picture of %dx%d pixels is outside "
                            "1..%d (GL_MAX_RENDERBUFFER_SIZE)", func, o->width,
                            o->height, (int)max_size);
    if ((unsigned)o->color >= NB_COLOR_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: unknown colour mode %d", func,
                            (int)o->color);
    const struct nb_camera *c = &o->camera;
    if (!(c->fov > 0 && c->fov < 180) || !(c->distance >= 0) || !isfinite(c->distance) ||
        !isfinite(c->azimuth) || !(fabs(c->elevation) <= 90) || !isfinite(c->center[0]) ||
        !isfinite(c->center[1]) || !isfinite(c->center[2]))
        return nb_error_set(err, NB_ERR_ARGS, "%s: the camera needs a field of view in "
                            "(0, 180) degrees, an elevation in -90..90, a distance >= 0 "
                            "and a finite centre", func);
    if (!(o->point_size >= 0) || !(o->brightness >= 0 && o->brightness <= 1))
        return nb_error_set(err, NB_ERR_ARGS, "%s: point size must be >= 0 and "
                            "brightness in 0..1", func);
    return NB_OK;
}

/* The colour target of opt's size behind r->fbo. */
static enum nb_status make_framebuffer(struct nb_render *r, struct nb_error *err)
{
    if (r->fbo && r->fb_width == r->opt.width && r->fb_height == r->opt.height)
        return NB_OK;
    glDeleteTextures(1, &r->color_tex);
    r->color_tex = nb_gl_new_texture(r->opt.width, r->opt.height, GL_RGBA8);
    if (nb_gl_attach_targets(&r->fbo, &r->color_tex, 1, "picture framebuffer", err)
        != NB_OK)
        return err->status;
    r->fb_width = r->opt.width;
    r->fb_height = r->opt.height;
    r->drawn = 0;
    return nb_gl_check("making the picture framebuffer", err);
}

enum nb_status nb_render_create(struct nb_render **out, struct nb_gl *gl,
                                const struct nb_render_options *opt, struct nb_error *err)
{
    struct nb_error local;
    if (!err)
        err = &local;     /* the calls below report through it */
    struct nb_render_options defaults;
    if (!out || !gl)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_create: %s is NULL",
                            out ? "gl" : "r");
    *out = NULL;
    if (!opt) {
        nb_render_options_default(&defaults);
        opt = &defaults;
    }
    /* The picture shaders name their uniforms where the level has no
     * explicit locations (nb_gl_loc), as the stream kernels do. */
    if (nb_gl_make_current(gl, err) != NB_OK ||
        nb_gl_require(gl, "drawing pictures (--frames, view)", 33, 30, err) != NB_OK ||
        check_options(opt, "nb_render_create", err) != NB_OK)
        return err->status;
    struct nb_render *r = nb_alloc(1, sizeof *r, "a renderer", err);
    if (!r)
        return NB_ERR_NOMEM;
    r->gl = gl;
    r->opt = *opt;
    glGenVertexArrays(1, &r->vao);
    glGenBuffers(UP_COUNT, r->up);
    unsigned program;
    /* Every program built now, so that a broken shader fails here. */
    const char *names[] = { "render_points", "render_points_dvel", "render_points_tex",
                            "render_lines", "render_image" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (k == 1 && !has_double_velocities(gl))
            continue;
        if (nb_gl_program(gl, names[k], &program, err) != NB_OK) {
            nb_render_destroy(r);
            return err->status;
        }
    }
    if (make_framebuffer(r, err) != NB_OK) {
        nb_render_destroy(r);
        return err->status;
    }
    *out = r;
    return NB_OK;
}

void nb_render_destroy(struct nb_render *r)
{
    if (!r)
        return;
    if (nb_gl_make_current(r->gl, NULL) == NB_OK) {
        glDeleteFramebuffers(1, &r->fbo);
        glDeleteTextures(1, &r->color_tex);
        glDeleteTextures(1, &r->image_tex);
        glDeleteVertexArrays(1, &r->vao);
        glDeleteBuffers(UP_COUNT, r->up);
    }
    free(r->scratch);
    free(r);
}

enum nb_status nb_render_set_options(struct nb_render *r, const struct nb_render_options *opt,
                                     struct nb_error *err)
{
    struct nb_error local;
    if (!err)
        err = &local;     /* the calls below report through it */
    if (!r || !opt)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_set_options: %s is NULL",
                            r ? "opt" : "r");
    if (nb_gl_make_current(r->gl, err) != NB_OK ||
        check_options(opt, "nb_render_set_options", err) != NB_OK)
        return err->status;
    r->opt = *opt;
    return make_framebuffer(r, err);
}

void nb_render_get_options(const struct nb_render *r, struct nb_render_options *opt)
{
    if (!r || !opt)
        return;
    *opt = r->opt;
    if (opt->camera.distance == 0 && r->fit_radius > 0) {   /* the fitted camera */
        opt->camera.distance = r->fit_radius / sin(0.5 * opt->camera.fov * PI / 180);
        memcpy(opt->camera.center, r->fit_center, sizeof r->fit_center);
    }
}

/* ---- the camera -------------------------------------------------------- */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The radius about the centre that holds 90% of the particles (of at
 * most 4096 of them, evenly spaced; the centre: the camera's, or for a
 * fitted camera their centroid), or half the box's diagonal about its
 * centre: measured once, so that a movie's camera does not breathe. */
static double fit_radius(struct nb_render *r, const struct nb_render_source *s)
{
    double *c = r->fit_center;
    double radius = 0;
    for (int a = 0; a < 3; a++)
        c[a] = s->lo && s->hi ? 0.5 * (s->lo[a] + s->hi[a]) : r->opt.camera.center[a];
    if (s->lo && s->hi) {
        for (int a = 0; a < 3; a++)
            radius += (s->hi[a] - s->lo[a]) * (s->hi[a] - s->lo[a]);
        return 0.5 * sqrt(radius);
    }
    if (!s->x || s->n == 0)
        return 1.0;
    size_t take = s->n < 4096 ? s->n : 4096;
    double *d = malloc(take * sizeof *d);
    if (!d)
        return 1.0;
    /* Without a box, a fitted camera looks at the particles' centroid. */
    for (int a = 0; a < 3 && r->opt.camera.distance == 0; a++) {
        c[a] = 0;
        for (size_t k = 0; k < take; k++)
            c[a] += s->x[3 * (k * s->n / take) + a] / (double)take;
    }
    for (size_t k = 0; k < take; k++) {
        const double *x = &s->x[3 * (k * s->n / take)];
        d[k] = sqrt((x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) +
                    (x[2] - c[2]) * (x[2] - c[2]));
    }
    qsort(d, take, sizeof *d, compare_double);
    radius = d[(size_t)(0.9 * (double)(take - 1))];
    free(d);
    return radius > 0 && isfinite(radius) ? radius : 1.0;
}

/* view_proj = projection * look-at, column-major for glUniformMatrix4fv. */
static void camera_matrix(struct nb_render *r, double distance)
{
    const struct nb_camera *cam = &r->opt.camera;
    double az = cam->azimuth * PI / 180, el = cam->elevation * PI / 180;
    double back[3] = { cos(el) * sin(az), sin(el), cos(el) * cos(az) };
    double up0[3] = { 0, 1, 0 };
    if (fabs(el) > 89.9 * PI / 180) {           /* straight down or up: +y is along back */
        up0[1] = 0;
        up0[2] = el > 0 ? -1 : 1;
    }
    double right[3] = { up0[1] * back[2] - up0[2] * back[1], up0[2] * back[0] - up0[0] * back[2],
                        up0[0] * back[1] - up0[1] * back[0] };
    double len = sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
    for (int a = 0; a < 3; a++)
        right[a] /= len;
    double up[3] = { back[1] * right[2] - back[2] * right[1],
                     back[2] * right[0] - back[0] * right[2],
                     back[0] * right[1] - back[1] * right[0] };
    /* A fitted camera looks at the box's centre (or at its own centre). */
    const double *center = cam->distance > 0 ? cam->center : r->fit_center;
    double eye[3];
    for (int a = 0; a < 3; a++)
        eye[a] = center[a] + distance * back[a];
    double f = 1.0 / tan(0.5 * cam->fov * PI / 180);
    double aspect = (double)r->opt.width / r->opt.height;
    double near = distance * 1e-3, far = distance * 1e3;
    /* Rows of the view matrix: right, up, back; then the projection. */
    double view[3][4];
    for (int a = 0; a < 3; a++) {
        view[0][a] = right[a];
        view[1][a] = up[a];
        view[2][a] = back[a];
    }
    for (int row = 0; row < 3; row++)
        view[row][3] = -(view[row][0] * eye[0] + view[row][1] * eye[1] + view[row][2] * eye[2]);
    double p00 = f / aspect, p11 = f, p22 = (far + near) / (near - far),
           p23 = 2 * far * near / (near - far);
    float *m = r->view_proj;
    for (int col = 0; col < 4; col++) {
        m[4 * col + 0] = (float)(p00 * view[0][col]);
        m[4 * col + 1] = (float)(p11 * view[1][col]);
        m[4 * col + 2] = (float)(p22 * view[2][col] + (col == 3 ? p23 : 0));
        m[4 * col + 3] = (float)(-view[2][col]);
    }
    r->pixels_per_unit = (float)(0.5 * r->opt.height * f);
}

/* ---- uploads ----------------------------------------------------------- */

static void *scratch(struct nb_render *r, size_t bytes, struct nb_error *err)
{
    if (bytes <= r->scratch_bytes)
        return r->scratch;
    void *p = realloc(r->scratch, bytes);
    if (!p) {
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory for %zu bytes of a picture's "
                     "upload", bytes);
        return NULL;
    }
    r->scratch = p;
    r->scratch_bytes = bytes;
    return p;
}

static void upload(struct nb_render *r, int which, const void *data, size_t bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, r->up[which]);
    if (bytes > r->up_bytes[which]) {
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, GL_STREAM_DRAW);
        r->up_bytes[which] = bytes;
    } else {
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, data);
    }
}

/* n vec4s: xyz from a (3 per particle), w from w (or 1). */
static enum nb_status upload_vec4(struct nb_render *r, int which, size_t n, const double *a,
                                  const double *w, struct nb_error *err)
{
    float *f = scratch(r, 16 * (n ? n : 1), err);
    if (!f)
        return NB_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            f[4 * i + k] = (float)a[3 * i + k];
        f[4 * i + 3] = w ? (float)w[i] : 1.0f;
    }
    upload(r, which, f, 16 * n);
    return NB_OK;
}

/* ---- drawing ----------------------------------------------------------- */

static void attribute(GLuint index, GLuint buffer, int components, GLenum type, int kind,
                      GLsizei stride)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    if (kind == 'd')
        glVertexAttribLPointer(index, components, type, stride, NULL);
    else if (kind == 'i')
        glVertexAttribIPointer(index, components, type, stride, NULL);
    else
        glVertexAttribPointer(index, components, type, GL_FALSE, stride, NULL);
    glEnableVertexAttribArray(index);
}

/* The attribute arrays of the sprites: the stream's buffers, or uploads. */
static enum nb_status bind_attributes(struct nb_render *r, const struct nb_render_source *s,
                                      int *has_vel, struct nb_error *err)
{
    const struct nb_gl_particles *g = &s->gpu;
    size_t n = s->n;
    for (GLuint k = 0; k < 4; k++)
        glDisableVertexAttribArray(k);
    if (g->pos_buffer) {
        attribute(0, g->pos_buffer, 4, GL_FLOAT, 'f', 16);
    } else if (!g->pos_texture) {
        if (upload_vec4(r, UP_POS, n, s->x, s->m, err) != NB_OK)
            return err->status;
        attribute(0, r->up[UP_POS], 4, GL_FLOAT, 'f', 16);
    }
    *has_vel = 1;
    if (g->vel_buffer) {
        attribute(1, g->vel_buffer, 4, g->vel_double ? GL_DOUBLE : GL_FLOAT,
                  g->vel_double ? 'd' : 'f', g->vel_double ? 32 : 16);
    } else if (g->vel_texture) {
        /* fetched in the vertex shader */
    } else if (s->v) {
        if (upload_vec4(r, UP_VEL, n, s->v, NULL, err) != NB_OK)
            return err->status;
        attribute(1, r->up[UP_VEL], 4, GL_FLOAT, 'f', 16);
    } else {
        *has_vel = 0;
    }
    if (r->opt.color == NB_COLOR_POTENTIAL && s->pot) {
        float *f = scratch(r, 4 * (n ? n : 1), err);
        if (!f)
            return NB_ERR_NOMEM;
        for (size_t i = 0; i < n; i++)
            f[i] = (float)s->pot[i];
        upload(r, UP_VALUE, f, 4 * n);
        attribute(2, r->up[UP_VALUE], 1, GL_FLOAT, 'f', 4);
    } else {
        glVertexAttrib1f(2, 0.0f);
    }
    if (g->type_buffer) {
        attribute(3, g->type_buffer, 1, GL_INT, 'i', 4);
    } else if (s->type) {
        int *t = scratch(r, 4 * (n ? n : 1), err);
        if (!t)
            return NB_ERR_NOMEM;
        for (size_t i = 0; i < n; i++)
            t[i] = s->type[i] - 1;
        upload(r, UP_TYPE, t, 4 * n);
        attribute(3, r->up[UP_TYPE], 1, GL_INT, 'i', 4);
    } else {
        glVertexAttribI4i(3, 0, 0, 0, 0);
    }
    return NB_OK;
}

/* The ramp's range: speeds from 0 to twice the rms speed measured at the
 * first frame (a movie keeps its scale); potentials from the frame's
 * lowest to its highest. */
static void value_range(struct nb_render *r, const struct nb_render_source *s, float range[2])
{
    range[0] = 0.0f;
    range[1] = 1.0f;
    if (r->opt.color == NB_COLOR_SPEED) {
        if (r->speed_scale == 0 && s->v && s->n) {
            double sum = 0;
            for (size_t i = 0; i < 3 * s->n; i++)
                sum += s->v[i] * s->v[i];
            r->speed_scale = sqrt(sum / (double)s->n);
        }
        if (r->speed_scale > 0 && isfinite(r->speed_scale))
            range[1] = (float)(2.0 * r->speed_scale);
    } else if (r->opt.color == NB_COLOR_POTENTIAL && s->pot && s->n) {
        double lo = s->pot[0], hi = s->pot[0];
        for (size_t i = 1; i < s->n; i++) {
            lo = fmin(lo, s->pot[i]);
            hi = fmax(hi, s->pot[i]);
        }
        range[0] = (float)lo;
        range[1] = (float)(hi > lo ? hi : lo + 1.0);
    }
}

static double mean_mass(const struct nb_render_source *s)
{
    double sum = 0;
    if (!s->m || s->n == 0)
        return 1.0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->m[i];
    return sum > 0 ? sum / (double)s->n : 1.0;
}

static void draw_box(struct nb_render *r, const double *lo, const double *hi)
{
    static const int edges[12][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },
                                      { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 },
                                      { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } };
    float v[24][3];
    unsigned program;
    for (int e = 0; e < 12; e++)
        for (int end = 0; end < 2; end++) {
            int corner = edges[e][end];
            for (int a = 0; a < 3; a++)
                v[2 * e + end][a] = (float)((corner >> a & 1) ? hi[a] : lo[a]);
        }
    if (nb_gl_program(r->gl, "render_lines", &program, NULL) != NB_OK)
        return;
    upload(r, UP_BOX, v, sizeof v);
    for (GLuint k = 0; k < 4; k++)
        glDisableVertexAttribArray(k);
    attribute(0, r->up[UP_BOX], 3, GL_FLOAT, 'f', 12);
    glUseProgram(program);
    glUniformMatrix4fv(nb_gl_loc(0), 1, GL_FALSE, r->view_proj);
    glUniform4f(nb_gl_loc(1), 0.35f, 0.40f, 0.50f, 1.0f);
    glDrawArrays(GL_LINES, 0, 24);
}

static const char *points_program(const struct nb_gl_particles *g)
{
    if (g->pos_texture)
        return "render_points_tex";
    return g->vel_buffer && g->vel_double ? "render_points_dvel" : "render_points";
}

enum nb_status nb_render_draw_source(struct nb_render *r, const struct nb_render_source *s,
                                     struct nb_error *err)
{
    const struct nb_render_options *o = &r->opt;
    unsigned program;
    int has_vel;
    float range[2];
    enum nb_status st = NB_OK;

    if (!s->gpu.pos_buffer && !s->gpu.pos_texture && s->n && !s->x)
        return nb_error_set(err, NB_ERR_ARGS, "a picture of %zu particles without "
                            "positions", s->n);
    if (nb_gl_make_current(r->gl, err) != NB_OK || make_framebuffer(r, err) != NB_OK ||
        nb_gl_program(r->gl, points_program(&s->gpu), &program, err) != NB_OK)
        return err->status;
    if (r->fit_radius == 0)
        r->fit_radius = fit_radius(r, s);
    camera_matrix(r, o->camera.distance > 0 ? o->camera.distance
                     : r->fit_radius / sin(0.5 * o->camera.fov * PI / 180));
    /* The engine's passes wrote the stream as storage or render targets. */
    if (nb_gl_has_compute(r->gl))
        glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    struct nb_render_saved saved;
    nb_render_save(&saved);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glViewport(0, 0, o->width, o->height);
    glClearColor(BACKGROUND_R / 255.0f, BACKGROUND_G / 255.0f, BACKGROUND_B / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindVertexArray(r->vao);
    if (s->lo && s->hi)
        draw_box(r, s->lo, s->hi);
    if (s->n) {
        if ((st = bind_attributes(r, s, &has_vel, err)) != NB_OK)
            goto out;
        if (s->gpu.pos_texture) {
            glActiveTexture(GL_TEXTURE0);
            glBindTexture(GL_TEXTURE_2D, s->gpu.pos_texture);
            glActiveTexture(GL_TEXTURE1);
            glBindTexture(GL_TEXTURE_2D, s->gpu.vel_texture);
            has_vel = s->gpu.vel_texture != 0;
        }
        value_range(r, s, range);
        /* Automatic sizes: a third of the spacing between particles. */
        double radius = 0.3 * r->fit_radius / cbrt((double)s->n);
        if (o->point_size > 0)
            radius = o->point_size;
        else if (s->size_by_type && s->lo && s->hi)
            radius = 0.35 * cbrt((s->hi[0] - s->lo[0]) * (s->hi[1] - s->lo[1]) *
                                 (s->hi[2] - s->lo[2]) / (double)s->n);
        double bright = o->brightness > 0 ? o->brightness
                        : fmin(1.0, 30.0 / sqrt((double)s->n));
        glUseProgram(program);
        glUniformMatrix4fv(nb_gl_loc(0), 1, GL_FALSE, r->view_proj);
        glUniform1i(nb_gl_loc(1), (int)o->color);
        glUniform2f(nb_gl_loc(2), range[0], range[1]);
        glUniform1i(nb_gl_loc(3), s->size_by_type);
        glUniform1f(nb_gl_loc(4), (float)radius);
        glUniform1f(nb_gl_loc(5), (float)mean_mass(s));
        glUniform1f(nb_gl_loc(6), r->pixels_per_unit);
        glUniform1f(nb_gl_loc(7), (float)bright);
        glUniform1i(nb_gl_loc(8), has_vel);
        if (!r->gl->es)         /* always on in OpenGL ES */
            glEnable(GL_PROGRAM_POINT_SIZE);
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        glDrawArrays(GL_POINTS, 0, (GLsizei)s->n);
        glDisable(GL_BLEND);
        if (!r->gl->es)
            glDisable(GL_PROGRAM_POINT_SIZE);
    }
    r->drawn = 1;
out:
    for (GLuint k = 0; k < 4; k++)
        glDisableVertexAttribArray(k);
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(0);
    nb_render_restore(&saved);
    return st != NB_OK ? st : nb_gl_check("drawing a picture", err);
}

enum nb_status nb_render_draw_arrays(struct nb_render *r, size_t n, const double *x,
                                     const double *v, const double *pot, const double *m,
                                     const int *type, const double *box_lo,
                                     const double *box_hi, struct nb_error *err)
{
    struct nb_error local;
    if (!err)
        err = &local;     /* the calls below report through it */
    if (!r || (n && !x))
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_draw_arrays: %s is NULL",
                            r ? "x" : "r");
    struct nb_render_source s = { .n = n, .x = x, .v = v, .pot = pot, .m = m, .type = type,
                                  .lo = box_lo && box_hi ? box_lo : NULL,
                                  .hi = box_lo && box_hi ? box_hi : NULL };
    return nb_render_draw_source(r, &s, err);
}

/* ---- overlays and the finished frame ------------------------------------ */

enum nb_status nb_render_overlay(struct nb_render *r, int x, int y, int w, int h,
                                 const unsigned char *rgba, struct nb_error *err)
{
    struct nb_error local;
    if (!err)
        err = &local;     /* the calls below report through it */
    unsigned program;
    if (!r || !rgba || w < 1 || h < 1)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_overlay: an empty image or "
                            "a NULL pointer");
    if (nb_gl_make_current(r->gl, err) != NB_OK ||
        nb_gl_program(r->gl, "render_image", &program, err) != NB_OK)
        return err->status;
    struct nb_render_saved saved;
    nb_render_save(&saved);
    glActiveTexture(GL_TEXTURE0);
    if (!r->image_tex || r->image_width != w || r->image_height != h) {
        glDeleteTextures(1, &r->image_tex);
        r->image_tex = nb_gl_new_texture(w, h, GL_RGBA8);
        r->image_width = w;
        r->image_height = h;
    }
    glBindTexture(GL_TEXTURE_2D, r->image_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    float W = (float)r->opt.width, H = (float)r->opt.height;
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glViewport(0, 0, r->opt.width, r->opt.height);
    glBindVertexArray(r->vao);
    glUseProgram(program);
    glUniform4f(nb_gl_loc(0), 2 * x / W - 1, 1 - 2 * (float)(y + h) / H,
                2 * (float)(x + w) / W - 1, 1 - 2 * y / H);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(0);
    nb_render_restore(&saved);
    return nb_gl_check("drawing an overlay", err);
}

enum nb_status nb_render_present(struct nb_render *r, int width, int height,
                                 struct nb_error *err)
{
    struct nb_error local;
    if (!err)
        err = &local;     /* the calls below report through it */
    if (!r || width < 1 || height < 1)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_present: no renderer or an "
                            "empty window");
    if (nb_gl_make_current(r->gl, err) != NB_OK)
        return err->status;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, r->opt.width, r->opt.height, 0, 0, width, height,
                      GL_COLOR_BUFFER_BIT, GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return nb_gl_check("copying the picture to the window", err);
}

enum nb_status nb_render_read_rgb(struct nb_render *r, unsigned char *rgb,
                                  struct nb_error *err)
{
    int w = r->opt.width, h = r->opt.height;
    unsigned char *rgba = scratch(r, (size_t)4 * w * h, err);
    if (!rgba || nb_gl_make_current(r->gl, err) != NB_OK)
        return err->status;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    for (int row = 0; row < h; row++)       /* GL's rows are bottom first */
        for (int col = 0; col < w; col++)
            memcpy(&rgb[3 * ((size_t)row * w + col)],
                   &rgba[4 * ((size_t)(h - 1 - row) * w + col)], 3);
    return nb_gl_check("reading a picture back", err);
}
