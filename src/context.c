/* context.c - a headless OpenGL or OpenGL ES context through EGL.
 *
 * Displays, in order: the EGL device platform (EGL_EXT_device_enumeration,
 * the route NVIDIA's driver offers without any display), Mesa's surfaceless
 * platform (llvmpipe on a machine without GPU), and the default display.
 * Contexts, in order: OpenGL 4.3 core (compute shaders), 3.3 core (the
 * stream path, as on macOS's 4.1 or older GPUs), then OpenGL ES 3.2, 3.1
 * and 3.0 (boards and phones); --api and --gl-version ask for one. */
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

/* EGL_EXT_device_base is the older name of device_enumeration plus
 * device_query, and the only one NVIDIA's driver 580 lists through
 * libglvnd 1.6: without it here every rank of a multi-GPU run landed on
 * the default GPU. */
static int has_device_platform(void)
{
    return (has_client_extension("EGL_EXT_device_enumeration") ||
            has_client_extension("EGL_EXT_device_base")) &&
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
                     "(EGL_EXT_device_enumeration or EGL_EXT_device_base, with "
                     "EGL_EXT_platform_device) to choose a GPU", device);
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

static EGLConfig choose_config(EGLDisplay dpy, int es)
{
    if (epoxy_has_egl_extension(dpy, "EGL_KHR_no_config_context"))
        return EGL_NO_CONFIG_KHR;
    const EGLint attribs[] = { EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
                               EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
    EGLConfig config = NULL;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, attribs, &config, 1, &count) || count < 1)
        return NULL;
    return config;
}

/* The API levels tried, best first: desktop GL (core profile), then ES. */
static const struct nb_gl_level levels[] = {
    { 0, 4, 3 }, { 0, 3, 3 }, { 1, 3, 2 }, { 1, 3, 1 }, { 1, 3, 0 }
};
#define NB_LEVELS (sizeof levels / sizeof levels[0])

/* A desktop context asks to be told of a GPU reset (EGL 1.5): a device
 * that resets it (a watchdog, a fault) then answers GL_CONTEXT_LOST, which
 * nb_gl_check reports, instead of reading back zeros as if nothing
 * happened.  An EGL that refuses the attribute gets the plain request. */
static EGLContext try_level_robust(EGLDisplay dpy, struct nb_gl_level want, int debug,
                                   int robust)
{
    if (!eglBindAPI(want.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API))
        return EGL_NO_CONTEXT;
    EGLConfig config = choose_config(dpy, want.es);
    EGLint attribs[16], k = 0;
    if (robust) {
        attribs[k++] = EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY;
        attribs[k++] = EGL_LOSE_CONTEXT_ON_RESET;
    }
    attribs[k++] = EGL_CONTEXT_MAJOR_VERSION; attribs[k++] = want.major;
    attribs[k++] = EGL_CONTEXT_MINOR_VERSION; attribs[k++] = want.minor;
    if (!want.es) {
        attribs[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attribs[k++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    }
    if (debug) {        /* only when asked: some EGLs refuse the attribute */
        attribs[k++] = EGL_CONTEXT_OPENGL_DEBUG;
        attribs[k++] = EGL_TRUE;
    }
    attribs[k] = EGL_NONE;
    return eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
}

static EGLContext try_level(EGLDisplay dpy, struct nb_gl_level want, int debug)
{
    EGLint major = 0, minor = 0;
    EGLContext ctx = EGL_NO_CONTEXT;
    int egl15 = eglQueryString(dpy, EGL_VERSION) &&
                sscanf(eglQueryString(dpy, EGL_VERSION), "%d.%d", &major, &minor) == 2 &&
                major * 10 + minor >= 15;
    if (egl15 && !want.es)
        ctx = try_level_robust(dpy, want, debug, 1);
    return ctx != EGL_NO_CONTEXT ? ctx : try_level_robust(dpy, want, debug, 0);
}

/* Whether the list's level is of the API asked for. */
static int allowed(struct nb_gl_level l, enum nb_gl_api api)
{
    return api == NB_GL_API_AUTO || l.es == (api == NB_GL_API_GLES);
}

static enum nb_status create_context(struct nb_gl *gl, const struct nb_gl_options *opt,
                                     struct nb_error *err)
{
    char tried[160] = "";
    size_t used = 0;
    EGLint last = EGL_SUCCESS;
    for (size_t k = 0; k < NB_LEVELS + 1; k++) {
        /* An explicit --gl-version is tried as given, in place of the list. */
        struct nb_gl_level want = k < NB_LEVELS ? levels[k]
            : (struct nb_gl_level){ 0, opt->version_major, opt->version_minor };
        if (opt->version_major) {
            if (k < NB_LEVELS)
                continue;
            want.es = opt->api == NB_GL_API_GLES ||
                      (opt->api == NB_GL_API_AUTO && want.major * 10 + want.minor < 33);
        } else if (k == NB_LEVELS || !allowed(want, opt->api)) {
            continue;
        }
        gl->context = try_level(gl->display, want, opt->debug);
        if (gl->context != EGL_NO_CONTEXT) {
            gl->asked = want;
            return nb_gl_make_current(gl, err);
        }
        last = eglGetError();
        used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%s %d.%d%s",
                                 used ? ", " : "", want.es ? "OpenGL ES" : "OpenGL",
                                 want.major, want.minor, want.es ? "" : " core");
        if (used >= sizeof tried)
            used = sizeof tried - 1;
    }
    return nb_error_set(err, NB_ERR_GL, "EGL could not create a context of any of: %s "
                        "(EGL error 0x%04x for the last)", tried, (unsigned)last);
}

/* Cheap when gl is already current on this thread (every public call of
 * the API comes through here): one query, no driver flush. */
enum nb_status nb_gl_make_current(struct nb_gl *gl, struct nb_error *err)
{
    if (eglGetCurrentContext() == gl->context && eglGetCurrentDisplay() == gl->display) {
        nb_gl_current = gl;
        return NB_OK;
    }
    if (!eglMakeCurrent(gl->display, gl->draw, gl->read, gl->context))
        return nb_error_set(err, NB_ERR_GL, "eglMakeCurrent failed "
                            "(EGL error 0x%04x)", (unsigned)eglGetError());
    nb_gl_current = gl;
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

static void enable_debug_output(const struct nb_gl *gl)
{
    if (!epoxy_has_gl_extension("GL_KHR_debug") &&
        epoxy_gl_version() < (gl->es ? 32 : 43))
        return;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(debug_message, NULL);
}

static enum nb_status choose_shader_source(struct nb_gl *gl,
                                           enum nb_shader_source want,
                                           struct nb_error *err)
{
    /* SPIR-V carries the 4.3 level's explicit locations: desktop 4.3 on. */
    int have = !gl->es && gl->version >= 43 &&
               (epoxy_gl_version() >= 46 || epoxy_has_gl_extension("GL_ARB_gl_spirv"));
    if (want == NB_SHADERS_SPIRV && !have)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "--shaders spirv: %s has no "
                            "GL_ARB_gl_spirv%s", gl->renderer,
                            gl->es || gl->version < 43 ? " at this level (it needs "
                            "OpenGL 4.3 or later)" : "");
    gl->use_spirv = want == NB_SHADERS_SPIRV ||
                    (want == NB_SHADERS_AUTO && have && nb_gl_shader_dir_has_spirv(gl->shader_dir));
    return NB_OK;
}

/* The GLSL version of the context: the driver's, as a number (330, 410,
 * 300 for "OpenGL ES GLSL ES 3.00"). */
static int glsl_version(void)
{
    const char *text = (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION);
    int major = 0, minor = 0;
    const char *p = text ? text : "";
    while (*p && (*p < '0' || *p > '9'))
        p++;
    if (sscanf(p, "%d.%d", &major, &minor) != 2)
        return 0;
    return major * 100 + minor;
}

/* The level the context offers, capped at an explicit --gl-version (Mesa
 * answers any desktop request with its highest version; a test that asks
 * for 3.3 gets the 3.3 prelude and refusals). */
static enum nb_status take_level(struct nb_gl *gl, const struct nb_gl_options *opt,
                                 struct nb_error *err)
{
    int have = epoxy_gl_version();
    gl->es = !epoxy_is_desktop_gl();
    gl->obtained = have;
    if (opt->version_major && opt->version_major * 10 + opt->version_minor < have)
        have = opt->version_major * 10 + opt->version_minor;
    gl->version = have;
    /* The GLSL that goes with the level, never past the driver's. */
    int glsl = gl->es ? have * 10 : have >= 33 ? have * 10 : 0;
    int driver = glsl_version();
    gl->glsl = driver && driver < glsl ? driver : glsl;
    if (!gl->es && gl->glsl > 430)
        gl->glsl = 430;         /* the kernels' level; SPIR-V is built at it */
    if (!gl->es && gl->glsl > 330 && gl->glsl < 400)
        gl->glsl = 330;
    if (gl->es && gl->version < 30)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "OpenGL ES %d.%d is older than 3.0, "
                            "the oldest glnbody runs on", have / 10, have % 10);
    if (!gl->es && gl->version < 33)
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "OpenGL %d.%d is older than 3.3 core, "
                            "the oldest glnbody runs on", have / 10, have % 10);
    if (gl->es && gl->glsl >= 300 && gl->glsl < 320 && gl->glsl % 10)
        gl->glsl -= gl->glsl % 10;      /* "3.10" and friends */
    return NB_OK;
}

static void name_renderer(struct nb_gl *gl)
{
    char level[64];
    snprintf(level, sizeof level, "%s%s", nb_gl_level_name(gl), gl->es ? "" : " core");
    if (gl->obtained != gl->version)
        snprintf(level + strlen(level), sizeof level - strlen(level), " (of the driver's %d.%d)",
                 gl->obtained / 10, gl->obtained % 10);
    snprintf(gl->renderer, sizeof gl->renderer, "%s, %s (%s)",
             (const char *)glGetString(GL_RENDERER), level,
             (const char *)glGetString(GL_VERSION));
}

/* What every context checks and records once it is current: the API
 * level, the renderer, debug output and the shader source and directory. */
static enum nb_status describe(struct nb_gl *gl, const struct nb_gl_options *opt,
                               struct nb_error *err)
{
    if (take_level(gl, opt, err) != NB_OK)
        return err->status;
    snprintf(gl->short_renderer, sizeof gl->short_renderer, "%s",
             (const char *)glGetString(GL_RENDERER));
    name_renderer(gl);
    gl->nvidia = strstr((const char *)glGetString(GL_VENDOR), "NVIDIA") != NULL;
    if (opt->debug)
        enable_debug_output(gl);
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
    if (create_context(gl, opt, err) != NB_OK)
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
    if (nb_gl_current == gl)
        nb_gl_current = NULL;
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
    if (gl && nb_gl_current == gl)
        nb_gl_current = NULL;
}

const char *nb_gl_renderer(const struct nb_gl *gl) { return gl->renderer; }
int nb_gl_is_nvidia(const struct nb_gl *gl) { return gl->nvidia; }

/* Mesa's CPU renderers: no GPU clock, and no GPU to wait for apart from
 * the host's own threads. */
int nb_gl_is_software(const struct nb_gl *gl)
{
    return strstr(gl->renderer, "llvmpipe") || strstr(gl->renderer, "softpipe") ||
           strstr(gl->renderer, "SWR");
}
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
    opt->api = NB_GL_API_AUTO;
    opt->version_major = 0;
    opt->version_minor = 0;
}

enum nb_status nb_gl_check(const char *what, struct nb_error *err)
{
    GLenum e = glGetError(), first = e;
    /* A lost context may answer GL_CONTEXT_LOST for ever: no drain then. */
    for (int k = 0; e != GL_NO_ERROR && e != GL_CONTEXT_LOST && k < 64; k++)
        e = glGetError();
    if (e == GL_CONTEXT_LOST)
        first = e;
    if (first == GL_NO_ERROR)
        return NB_OK;
    if (first == GL_OUT_OF_MEMORY)
        return nb_error_set(err, NB_ERR_NOMEM, "%s: the GPU is out of memory "
                            "(GL_OUT_OF_MEMORY)", what);
    if (first == GL_CONTEXT_LOST)
        return nb_error_set(err, NB_ERR_GL, "%s: the GPU reset the context "
                            "(GL_CONTEXT_LOST): the driver's watchdog stopped a long "
                            "dispatch, or the device faulted; its results are lost", what);
    return nb_error_set(err, NB_ERR_GL, "%s: GL error 0x%04x", what, first);
}
