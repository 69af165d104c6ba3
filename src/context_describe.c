/* context_describe.c - what every context, of EGL or of a browser's
 * canvas, records once it is current: its API level and GLSL, its
 * renderer, its shader source and directory; and GL error checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

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
    gl->spirv_only = want == NB_SHADERS_SPIRV;
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

enum nb_status nb_gl_describe(struct nb_gl *gl, const struct nb_gl_options *opt,
                              struct nb_error *err)
{
    if (take_level(gl, opt, err) != NB_OK)
        return err->status;
    snprintf(gl->short_renderer, sizeof gl->short_renderer, "%s",
             (const char *)glGetString(GL_RENDERER));
    name_renderer(gl);
    gl->nvidia = strstr((const char *)glGetString(GL_VENDOR), "NVIDIA") != NULL;
    gl->shader_dir = strdup(opt->shader_dir ? opt->shader_dir : nb_gl_shader_dir_default());
    if (!gl->shader_dir)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    enum nb_status status = choose_shader_source(gl, opt->shaders, err);
    if (status != NB_OK)
        return status;
    return nb_gl_shader_dir_check(gl->shader_dir, gl->use_spirv, err);
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
