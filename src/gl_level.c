/* gl_level.c - what the context's API level offers, and the refusals of
 * what it does not.
 *
 * glnbody runs from OpenGL 3.3 core and OpenGL ES 3.0 on.  The stream
 * (fragment) path is the Brook/Cg model of Buck et al. 2004 and Elsen et
 * al. 2006, made for GPUs without general compute, and runs at every
 * level; compute shaders need OpenGL 4.3 or OpenGL ES 3.1.  Below the
 * levels with explicit uniform locations (4.3, ES 3.1) the shader loader
 * looks each kernel's uniforms up by name (shader.c), and nb_gl_loc turns
 * an NB_LOC_ constant into the linker's location. */
#include <stdio.h>
#include <string.h>

#include "gl_internal.h"

/* The context made current on this thread through nb_gl_make_current
 * (context.c sets it; nb_gl_loc and the refusals read its level). */
_Thread_local struct nb_gl *nb_gl_current;

const char *nb_gl_level_name(const struct nb_gl *gl)
{
    static _Thread_local char name[32];
    snprintf(name, sizeof name, "OpenGL %s%d.%d", gl->es ? "ES " : "", gl->version / 10,
             gl->version % 10);
    return name;
}

int nb_gl_at_least(const struct nb_gl *gl, int gl_version, int es_version)
{
    return gl->es ? es_version && gl->version >= es_version
                  : gl_version && gl->version >= gl_version;
}

static void spell_version(char *buf, size_t size, int gl_version, int es_version)
{
    if (gl_version && es_version)
        snprintf(buf, size, "OpenGL %d.%d or OpenGL ES %d.%d", gl_version / 10,
                 gl_version % 10, es_version / 10, es_version % 10);
    else if (gl_version)
        snprintf(buf, size, "OpenGL %d.%d (no OpenGL ES version has it)",
                 gl_version / 10, gl_version % 10);
    else
        snprintf(buf, size, "OpenGL ES %d.%d", es_version / 10, es_version % 10);
}

enum nb_status nb_gl_require(const struct nb_gl *gl, const char *feature, int gl_version,
                             int es_version, struct nb_error *err)
{
    if (nb_gl_at_least(gl, gl_version, es_version))
        return NB_OK;
    char needs[96];
    spell_version(needs, sizeof needs, gl_version, es_version);
    return nb_error_set(err, NB_ERR_UNSUPPORTED, "%s needs %s; this context is %s (%s)",
                        feature, needs, nb_gl_level_name(gl), gl->short_renderer);
}

int nb_gl_has_compute(const struct nb_gl *gl)
{
    return nb_gl_at_least(gl, 43, 31);
}

enum nb_status nb_gl_require_float_targets(const struct nb_gl *gl, const char *who,
                                           struct nb_error *err)
{
    if (!gl->es || gl->version >= 32 || epoxy_has_gl_extension("GL_EXT_color_buffer_float"))
        return NB_OK;
    return nb_error_set(err, NB_ERR_UNSUPPORTED, "%s renders into float textures, which "
                        "needs EXT_color_buffer_float (core from OpenGL ES 3.2); this "
                        "context is %s (%s) without it", who, nb_gl_level_name(gl),
                        gl->short_renderer);
}

GLint nb_gl_loc(GLint loc)
{
    struct nb_gl *gl = nb_gl_current;
    /* explicit locations (SPIR-V, GLSL 4.30, ES 3.10): no table to look up,
     * and no glGetIntegerv, which a block step would pay some 20 times */
    if (!gl || loc < 0 || loc >= NB_GL_MAX_LOCATIONS || gl->use_spirv ||
        nb_gl_explicit_layouts(gl))
        return loc;
    GLint program = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    for (size_t k = 0; k < gl->program_count; k++)
        if (gl->programs[k].program == (GLuint)program)
            return gl->programs[k].loc ? gl->programs[k].loc[loc] : loc;
    return loc;
}

/* The pixel format and type glTexImage2D wants with an internal format. */
static void pixel_format_of(GLenum internal, GLenum *format, GLenum *type)
{
    switch (internal) {
    case GL_RGBA32UI: *format = GL_RGBA_INTEGER; *type = GL_UNSIGNED_INT; break;
    case GL_RGBA32I: *format = GL_RGBA_INTEGER; *type = GL_INT; break;
    case GL_R32I: *format = GL_RED_INTEGER; *type = GL_INT; break;
    case GL_R32UI: *format = GL_RED_INTEGER; *type = GL_UNSIGNED_INT; break;
    case GL_R32F: *format = GL_RED; *type = GL_FLOAT; break;
    default: *format = GL_RGBA; *type = GL_FLOAT; break;
    }
}

void nb_gl_texture_storage(GLenum internal, int width, int height)
{
    /* Core in GL 4.2 and ES 3.0; GL 3.3 drivers mostly carry the extension. */
    if (!epoxy_is_desktop_gl() || epoxy_gl_version() >= 42 ||
        epoxy_has_gl_extension("GL_ARB_texture_storage")) {
        glTexStorage2D(GL_TEXTURE_2D, 1, internal, width, height);
        return;
    }
    GLenum format, type;
    pixel_format_of(internal, &format, &type);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)internal, width, height, 0, format, type, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
}

void nb_gl_get_buffer(GLenum target, size_t offset, size_t bytes, void *dst)
{
    if (epoxy_is_desktop_gl()) {
        glGetBufferSubData(target, (GLintptr)offset, (GLsizeiptr)bytes, dst);
        return;
    }
    const void *src = glMapBufferRange(target, (GLintptr)offset, (GLsizeiptr)bytes,
                                       GL_MAP_READ_BIT);
    if (src) {      /* else the GL error is left for the caller's nb_gl_check */
        memcpy(dst, src, bytes);
        glUnmapBuffer(target);
    }
}

/* The context's compute limits, asked once: the passes of a block step
 * check them at every dispatch. */
static const struct nb_gl_compute_limits *compute_limits(const struct nb_gl *gl)
{
    struct nb_gl_compute_limits *c = &((struct nb_gl *)gl)->compute;    /* a cache */
    if (!c->known) {
        glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &c->blocks);
        glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &c->invocations);
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &c->size_x);
        glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &c->shared);
        c->known = 1;
    }
    return c;
}

enum nb_status nb_gl_compute_fits(const struct nb_gl *gl, const char *what, int invocations,
                                  int shared_bytes, int blocks, struct nb_error *err)
{
    const struct nb_gl_compute_limits *c = compute_limits(gl);
    GLint max_invocations = c->invocations, max_x = c->size_x, max_shared = c->shared,
          max_blocks = c->blocks;
    if (blocks > max_blocks)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %d shader storage blocks in one shader, "
                            "over this context's GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS = %d "
                            "(%s, %s)", what, blocks, max_blocks, nb_gl_level_name(gl),
                            gl->short_renderer);
    if (invocations > max_invocations || invocations > max_x)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: a work group of %d invocations, over "
                            "this context's GL_MAX_COMPUTE_WORK_GROUP_%s = %d (%s, %s)",
                            what, invocations,
                            invocations > max_invocations ? "INVOCATIONS" : "SIZE[0]",
                            invocations > max_invocations ? max_invocations : max_x,
                            nb_gl_level_name(gl), gl->short_renderer);
    if (shared_bytes > max_shared)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %d bytes of shared memory, over this "
                            "context's GL_MAX_COMPUTE_SHARED_MEMORY_SIZE = %d (%s, %s)",
                            what, shared_bytes, max_shared, nb_gl_level_name(gl),
                            gl->short_renderer);
    return NB_OK;
}
