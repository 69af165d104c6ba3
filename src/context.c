/* context.c - a headless OpenGL 4.3 core context through EGL.
 *
 * Tries, in order: the EGL device platform (EGL_EXT_device_enumeration, the
 * route NVIDIA's driver offers without any display), Mesa's surfaceless
 * platform (llvmpipe on a machine without GPU), and the default display. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

#define NB_MAX_EGL_DEVICES 32

static int has_client_extension(const char *name)
{
    const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    return ext && epoxy_extension_in_string(ext, name);
}

static int has_device_platform(void)
{
    return has_client_extension("EGL_EXT_device_enumeration") &&
           has_client_extension("EGL_EXT_platform_device");
}

int nb_gl_device_count(void)
{
    EGLint count = 0;
    if (!has_device_platform() || !eglQueryDevicesEXT(0, NULL, &count))
        return 0;
    return count;
}

static EGLDisplay initialize(EGLDisplay dpy)
{
    EGLint major, minor;
    if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, &major, &minor))
        return dpy;
    return EGL_NO_DISPLAY;
}

static EGLDisplay open_device_display(int index, struct nb_error *err)
{
    EGLDeviceEXT devices[NB_MAX_EGL_DEVICES];
    EGLint count = 0;
    if (!eglQueryDevicesEXT(NB_MAX_EGL_DEVICES, devices, &count) || count < 1)
        return EGL_NO_DISPLAY;
    if (index >= count) {
        nb_error_set(err, NB_ERR_ARGS, "--gpu %d: no such EGL device (found %d)",
                     index, (int)count);
        return EGL_NO_DISPLAY;
    }
    /* Without an explicit choice, the first device that initialises. */
    for (int i = index < 0 ? 0 : index; i < count; i++) {
        EGLDisplay dpy = initialize(eglGetPlatformDisplayEXT(
            EGL_PLATFORM_DEVICE_EXT, devices[i], NULL));
        if (dpy != EGL_NO_DISPLAY || index >= 0)
            return dpy;
    }
    return EGL_NO_DISPLAY;
}

static EGLDisplay open_display(int device, struct nb_error *err)
{
    EGLDisplay dpy = EGL_NO_DISPLAY;
    if (has_device_platform()) {
        dpy = open_device_display(device, err);
        if (err && err->status != NB_OK)
            return EGL_NO_DISPLAY;
    } else if (device >= 0) {
        nb_error_set(err, NB_ERR_ARGS, "--gpu %d: EGL has no device enumeration "
                     "(EGL_EXT_device_enumeration) to choose a GPU", device);
        return EGL_NO_DISPLAY;
    }
    if (dpy == EGL_NO_DISPLAY && has_client_extension("EGL_MESA_platform_surfaceless"))
        dpy = initialize(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                                  EGL_DEFAULT_DISPLAY, NULL));
    if (dpy == EGL_NO_DISPLAY)
        dpy = initialize(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    if (dpy == EGL_NO_DISPLAY)
        nb_error_set(err, NB_ERR_GL, "no EGL display: neither an EGL device, "
                     "the surfaceless platform nor the default display initialised "
                     "(EGL error 0x%04x)", (unsigned)eglGetError());
    return dpy;
}

static EGLConfig choose_config(EGLDisplay dpy)
{
    if (epoxy_has_egl_extension(dpy, "EGL_KHR_no_config_context"))
        return EGL_NO_CONFIG_KHR;
    const EGLint attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                               EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
    EGLConfig config = NULL;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, attribs, &config, 1, &count) || count < 1)
        return NULL;
    return config;
}

static enum nb_status create_context(struct nb_gl *gl, int debug,
                                     struct nb_error *err)
{
    if (!eglBindAPI(EGL_OPENGL_API))
        return nb_error_set(err, NB_ERR_GL, "EGL cannot bind the OpenGL API "
                            "(EGL error 0x%04x)", (unsigned)eglGetError());
    EGLConfig config = choose_config(gl->display);
    const EGLint attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE, EGL_NONE };
    gl->context = eglCreateContext(gl->display, config, EGL_NO_CONTEXT, attribs);
    if (gl->context == EGL_NO_CONTEXT)
        return nb_error_set(err, NB_ERR_GL, "EGL could not create an OpenGL 4.3 "
                            "core context (EGL error 0x%04x)", (unsigned)eglGetError());
    return nb_gl_make_current(gl, err);
}

/* Cheap when gl is already current on this thread (every public call of
 * the API comes through here): one query, no driver flush. */
enum nb_status nb_gl_make_current(struct nb_gl *gl, struct nb_error *err)
{
    if (eglGetCurrentContext() == gl->context && eglGetCurrentDisplay() == gl->display)
        return NB_OK;
    if (!eglMakeCurrent(gl->display, gl->draw, gl->read, gl->context))
        return nb_error_set(err, NB_ERR_GL, "eglMakeCurrent failed "
                            "(EGL error 0x%04x)", (unsigned)eglGetError());
    return NB_OK;
}

static void GLAPIENTRY debug_message(GLenum source, GLenum type, GLuint id,
                                     GLenum severity, GLsizei length,
                                     const GLchar *message, const void *user)
{
    (void)source; (void)length; (void)user;
    fprintf(stderr, "glnbody: GL debug [type 0x%x, id %u, severity 0x%x]: %s\n",
            type, id, severity, message);
}

static void enable_debug_output(void)
{
    if (!epoxy_has_gl_extension("GL_KHR_debug") && epoxy_gl_version() < 43)
        return;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(debug_message, NULL);
}

static enum nb_status choose_shader_source(struct nb_gl *gl,
                                           enum nb_shader_source want,
                                           struct nb_error *err)
{
    int have = epoxy_gl_version() >= 46 || epoxy_has_gl_extension("GL_ARB_gl_spirv");
    if (want == NB_SHADERS_SPIRV && !have)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "--shaders spirv: %s has no "
                            "GL_ARB_gl_spirv", gl->renderer);
    gl->use_spirv = want == NB_SHADERS_SPIRV || (want == NB_SHADERS_AUTO && have);
    return NB_OK;
}

/* What every context checks and records once it is current: the version,
 * the renderer, debug output and the shader source and directory. */
static enum nb_status describe(struct nb_gl *gl, const struct nb_gl_options *opt,
                               struct nb_error *err)
{
    if (epoxy_gl_version() < 43)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "OpenGL %s is older than 4.3",
                            (const char *)glGetString(GL_VERSION));
    snprintf(gl->renderer, sizeof gl->renderer, "%s (%s)",
             (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    gl->nvidia = strstr((const char *)glGetString(GL_VENDOR), "NVIDIA") != NULL;
    if (opt->debug)
        enable_debug_output();
    gl->shader_dir = strdup(opt->shader_dir ? opt->shader_dir : nb_gl_shader_dir_default());
    if (!gl->shader_dir)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    enum nb_status status = choose_shader_source(gl, opt->shaders, err);
    if (status != NB_OK)
        return status;
    return nb_gl_shader_dir_check(gl->shader_dir, gl->use_spirv, err);
}

static enum nb_status set_up(struct nb_gl *gl, const struct nb_gl_options *opt,
                             struct nb_error *err)
{
    gl->display = open_display(opt->device, err);
    if (gl->display == EGL_NO_DISPLAY)
        return err ? err->status : NB_ERR_GL;
    if (create_context(gl, opt->debug, err) != NB_OK)
        return err->status;
    return describe(gl, opt, err);
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
    gl->display = EGL_NO_DISPLAY;
    gl->context = EGL_NO_CONTEXT;
    gl->draw = gl->read = EGL_NO_SURFACE;
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
    /* The programs are deleted in gl's own context, whichever is current. */
    if (gl->context != EGL_NO_CONTEXT && nb_gl_make_current(gl, NULL) == NB_OK) {
        nb_gl_programs_release(gl);
        if (!gl->borrowed) {    /* a window's context is its library's to end */
            eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            eglDestroyContext(gl->display, gl->context);
        }
    }
    /* No eglTerminate: EGL hands every context of one device the same
     * display, and terminating it would kill the other contexts of the
     * process (two simulations in one process must work). */
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
    if (eglGetCurrentContext() == EGL_NO_CONTEXT)
        return nb_error_set(err, NB_ERR_GL, "nb_gl_create_from_current: no EGL context "
                            "is current on this thread (a GLFW window needs "
                            "GLFW_EGL_CONTEXT_API)");
    struct nb_gl *gl = nb_alloc(1, sizeof *gl, "GL context", &e);
    if (!gl)
        return nb_error_copy(err, &e);
    gl->display = eglGetCurrentDisplay();
    gl->context = eglGetCurrentContext();
    gl->draw = eglGetCurrentSurface(EGL_DRAW);
    gl->read = eglGetCurrentSurface(EGL_READ);
    gl->borrowed = 1;
    if (describe(gl, opt, &e) != NB_OK) {
        nb_gl_destroy(gl);
        return nb_error_copy(err, &e);
    }
    *out = gl;
    return NB_OK;
}

void nb_gl_release(struct nb_gl *gl)
{
    if (gl && eglGetCurrentContext() == gl->context)
        eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

const char *nb_gl_renderer(const struct nb_gl *gl) { return gl->renderer; }
int nb_gl_is_nvidia(const struct nb_gl *gl) { return gl->nvidia; }
int nb_gl_uses_spirv(const struct nb_gl *gl) { return gl->use_spirv; }

void nb_gl_options_default(struct nb_gl_options *opt)
{
    const char *debug = getenv("GLNBODY_DEBUG");
    const char *shaders = getenv("GLNBODY_SHADERS");
    opt->device = -1;
    opt->debug = debug && *debug && strcmp(debug, "0") != 0;
    opt->shaders = !shaders ? NB_SHADERS_AUTO
                 : strcmp(shaders, "spirv") == 0 ? NB_SHADERS_SPIRV
                 : strcmp(shaders, "glsl") == 0 ? NB_SHADERS_GLSL : NB_SHADERS_AUTO;
    opt->shader_dir = nb_gl_shader_dir_default();
}

enum nb_status nb_gl_check(const char *what, struct nb_error *err)
{
    GLenum e = glGetError(), first = e;
    while (e != GL_NO_ERROR)
        e = glGetError();
    if (first == GL_NO_ERROR)
        return NB_OK;
    if (first == GL_OUT_OF_MEMORY)
        return nb_error_set(err, NB_ERR_NOMEM, "%s: the GPU is out of memory "
                            "(GL_OUT_OF_MEMORY)", what);
    return nb_error_set(err, NB_ERR_GL, "%s: GL error 0x%04x", what, first);
}
