/* gl_info.c - nb_gl_info: what a context is, for self-describing reports
 * (glnbody bench --report): the API level glnbody uses and the driver's,
 * the GL and EGL strings, the EGL device, and the limits the kernels meet. */
#include <stdio.h>
#include <string.h>

#include "gl_internal.h"

static void copy_string(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

static int get_int(GLenum name)
{
    GLint v = 0;
    glGetIntegerv(name, &v);
    glGetError();       /* a limit the level lacks reads 0, not an error later */
    return v;
}

/* The EGL device of the display: its DRM node where EGL can tell (NVIDIA,
 * Mesa's hardware drivers), "software" for Mesa's software device. */
static void egl_device_of(struct nb_gl *gl, char *dst, size_t size)
{
    dst[0] = '\0';
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client || !epoxy_extension_in_string(client, "EGL_EXT_device_query"))
        return;
    EGLAttrib device = 0;
    if (!eglQueryDisplayAttribEXT(gl->display, EGL_DEVICE_EXT, &device) || !device)
        return;
    EGLDeviceEXT dev = (EGLDeviceEXT)device;
    const char *ext = eglQueryDeviceStringEXT(dev, EGL_EXTENSIONS);
    if (ext && epoxy_extension_in_string(ext, "EGL_EXT_device_drm")) {
        const char *node = eglQueryDeviceStringEXT(dev, EGL_DRM_DEVICE_FILE_EXT);
        copy_string(dst, size, node);
    } else if (ext && epoxy_extension_in_string(ext, "EGL_MESA_device_software")) {
        copy_string(dst, size, "software (EGL_MESA_device_software)");
    }
}

enum nb_status nb_gl_info(struct nb_gl *gl, struct nb_gl_info *info, struct nb_error *err)
{
    if (!gl || !info)
        return nb_error_set(err, NB_ERR_ARGS, "nb_gl_info: gl or info is NULL");
    if (nb_gl_make_current(gl, err) != NB_OK)
        return err->status;
    memset(info, 0, sizeof *info);
    info->es = gl->es;
    info->major = gl->version / 10;
    info->minor = gl->version % 10;
    info->obtained_major = gl->obtained / 10;
    info->obtained_minor = gl->obtained % 10;
    snprintf(info->api, sizeof info->api, "%.24s%s", nb_gl_level_name(gl),
             gl->es ? "" : " core");
    copy_string(info->vendor, sizeof info->vendor, (const char *)glGetString(GL_VENDOR));
    copy_string(info->renderer, sizeof info->renderer, gl->short_renderer);
    copy_string(info->version, sizeof info->version, (const char *)glGetString(GL_VERSION));
    copy_string(info->glsl, sizeof info->glsl,
                (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
    copy_string(info->egl_vendor, sizeof info->egl_vendor,
                eglQueryString(gl->display, EGL_VENDOR));
    copy_string(info->egl_version, sizeof info->egl_version,
                eglQueryString(gl->display, EGL_VERSION));
    egl_device_of(gl, info->egl_device, sizeof info->egl_device);
    info->max_texture_size = get_int(GL_MAX_TEXTURE_SIZE);
    info->max_draw_buffers = get_int(GL_MAX_DRAW_BUFFERS);
    info->max_color_attachments = get_int(GL_MAX_COLOR_ATTACHMENTS);
    info->compute = nb_gl_has_compute(gl);
    if (info->compute) {
        info->max_work_group_invocations = get_int(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
        for (GLuint k = 0; k < 3; k++) {
            GLint v = 0;
            glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, k, &v);
            info->max_work_group_size[k] = v;
        }
        info->max_shared_memory = get_int(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE);
        info->max_compute_storage_blocks = get_int(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
    }
    info->spirv = gl->use_spirv;
    info->fp64 = !gl->es && gl->version >= 40;
    info->int64 = !gl->es && epoxy_has_gl_extension("GL_ARB_gpu_shader_int64");
    return NB_OK;
}
