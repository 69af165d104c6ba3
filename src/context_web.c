/* context_web.c - the context in a browser (Emscripten): WebGL 2, which is
 * OpenGL ES 3.0, on the page's canvas, in place of context.c's EGL.
 *
 * The engines see the same struct nb_gl as natively; only how it is made
 * and made current differs.  WebGL keeps each extension off until the page
 * asks for it, so the extension query enables what it finds. */
#include <emscripten/html5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

/* The canvas the page draws to (tools/web/index.html). */
#define NB_WEB_CANVAS "#canvas"

static EMSCRIPTEN_WEBGL_CONTEXT_HANDLE handle_of(const struct nb_gl *gl)
{
    return (EMSCRIPTEN_WEBGL_CONTEXT_HANDLE)(intptr_t)gl->context;
}

int nb_gl_web_extension(const char *name)
{
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE ctx = emscripten_webgl_get_current_context();
    if (!ctx || strncmp(name, "GL_", 3) != 0)
        return 0;
    return emscripten_webgl_enable_extension(ctx, name + 3) == EM_TRUE;
}

_Noreturn void nb_gl_web_absent(const char *name, ...)
{
    fprintf(stderr, "glnbody: %s is not in WebGL 2, and no path for it should run "
            "there\n", name);
    abort();
}

/* A browser has one GPU for the page: no device to choose. */
int nb_gl_device_count(void) { return 0; }

enum nb_status nb_gl_make_current(struct nb_gl *gl, struct nb_error *err)
{
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE ctx = handle_of(gl);
    if (emscripten_webgl_get_current_context() != ctx &&
        emscripten_webgl_make_context_current(ctx) != EMSCRIPTEN_RESULT_SUCCESS)
        return nb_error_set(err, NB_ERR_GL, "the page's WebGL 2 context could not be "
                            "made current");
    nb_gl_current = gl;
    return NB_OK;
}

static enum nb_status set_up(struct nb_gl *gl, const struct nb_gl_options *opt,
                             struct nb_error *err)
{
    if (opt->device >= 0)
        return nb_error_set(err, NB_ERR_ARGS, "--gpu %d: a browser offers no choice "
                            "of GPU", opt->device);
    if (opt->api == NB_GL_API_GL || (opt->version_major &&
                                     opt->version_major * 10 + opt->version_minor != 30))
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "a browser offers OpenGL ES 3.0 "
                            "(WebGL 2) alone");
    EmscriptenWebGLContextAttributes a;
    emscripten_webgl_init_context_attributes(&a);
    a.majorVersion = 2;
    a.minorVersion = 0;
    a.alpha = EM_FALSE;
    a.depth = EM_FALSE;
    a.antialias = EM_FALSE;
    a.preserveDrawingBuffer = EM_TRUE;     /* the picture outlives the frame */
    a.powerPreference = EM_WEBGL_POWER_PREFERENCE_HIGH_PERFORMANCE;
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE ctx = emscripten_webgl_create_context(NB_WEB_CANVAS, &a);
    if (ctx <= 0)
        return nb_error_set(err, NB_ERR_GL, "this browser gave no WebGL 2 context on %s "
                            "(error %d)", NB_WEB_CANVAS, (int)ctx);
    gl->context = (EGLContext)(intptr_t)ctx;
    if (nb_gl_make_current(gl, err) != NB_OK)
        return err->status;
    return nb_gl_describe(gl, opt, err);
}

enum nb_status nb_gl_create(struct nb_gl **out, const struct nb_gl_options *opt,
                            struct nb_error *err)
{
    struct nb_error e = { 0 };
    struct nb_gl_options defaults;
    if (!out)
        return nb_error_set(err, NB_ERR_ARGS, "nb_gl_create: gl is NULL");
    *out = NULL;
    if (!opt) {
        nb_gl_options_default(&defaults);
        opt = &defaults;
    }
    struct nb_gl *gl = nb_alloc(1, sizeof *gl, "GL context", &e);
    if (!gl)
        return nb_error_copy(err, &e);
    if (set_up(gl, opt, &e) != NB_OK) {
        nb_gl_destroy(gl);
        return nb_error_copy(err, &e);
    }
    *out = gl;
    return NB_OK;
}

void nb_gl_destroy(struct nb_gl *gl)
{
    if (!gl)
        return;
    if (gl->context && nb_gl_make_current(gl, NULL) == NB_OK) {
        nb_gl_programs_release(gl);
        if (!gl->borrowed)
            emscripten_webgl_destroy_context(handle_of(gl));
    }
    if (nb_gl_current == gl)
        nb_gl_current = NULL;
    free(gl->shader_dir);
    free(gl);
}

enum nb_status nb_gl_create_from_current(struct nb_gl **out, const struct nb_gl_options *opt,
                                         struct nb_error *err)
{
    struct nb_error e = { 0 };
    struct nb_gl_options defaults;
    if (!out)
        return nb_error_set(err, NB_ERR_ARGS, "nb_gl_create_from_current: gl is NULL");
    *out = NULL;
    if (!opt) {
        nb_gl_options_default(&defaults);
        opt = &defaults;
    }
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE ctx = emscripten_webgl_get_current_context();
    if (!ctx)
        return nb_error_set(err, NB_ERR_GL, "nb_gl_create_from_current: no WebGL "
                            "context is current");
    struct nb_gl *gl = nb_alloc(1, sizeof *gl, "GL context", &e);
    if (!gl)
        return nb_error_copy(err, &e);
    gl->context = (EGLContext)(intptr_t)ctx;
    gl->borrowed = 1;
    if (nb_gl_make_current(gl, &e) != NB_OK || nb_gl_describe(gl, opt, &e) != NB_OK) {
        nb_gl_destroy(gl);
        return nb_error_copy(err, &e);
    }
    *out = gl;
    return NB_OK;
}

/* One context on one thread: nothing to hand over. */
void nb_gl_release(struct nb_gl *gl)
{
    if (gl && nb_gl_current == gl)
        nb_gl_current = NULL;
}
