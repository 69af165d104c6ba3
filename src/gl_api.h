/* gl_api.h - the GL headers and loader the GL layer is compiled against:
 * the one place where the native build and the browser build differ.
 *
 * Natively: libepoxy (OpenGL and OpenGL ES entry points, resolved at run
 * time) with EGL (context.c).  In the browser (Emscripten): WebGL 2, which
 * is OpenGL ES 3.0, through Khronos' ES headers; the context is the page's
 * canvas (context_web.c), and the three epoxy queries the engines ask are
 * answered from it.  The ES 3.2 header declares what the engines name
 * (compute, storage buffers); only ES 3.0's entry points exist in WebGL 2,
 * so the web build links the stream path alone (the Makefile's WEB_SRC). */
#ifndef NB_GL_API_H
#define NB_GL_API_H

#ifdef __EMSCRIPTEN__
#include <EGL/egl.h>            /* the types of struct nb_gl only */
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

/* WebGL 2 is OpenGL ES 3.0, never desktop GL. */
#define epoxy_gl_version() 30
#define epoxy_is_desktop_gl() 0
/* Whether the context offers the GL_-named extension, enabling it (WebGL
 * extensions are off until asked for). */
int nb_gl_web_extension(const char *name);
#define epoxy_has_gl_extension(name) nb_gl_web_extension(name)

/* GL names that the shared code uses only on branches a desktop level, ES
 * 3.1 and later or an extension takes (SPIR-V, buffer storage, doubles,
 * timer queries, storage barriers, the device-side Hermite state): WebGL 2
 * never takes them.  Reaching one is a programmer error:
 * nb_gl_web_absent names it and aborts. */
#define GL_TIME_ELAPSED 0x88BF
#define GL_DOUBLE 0x140A
#define GL_PROGRAM_POINT_SIZE 0x8642
#define GL_SHADER_BINARY_FORMAT_SPIR_V_ARB 0x9551
#define GL_MAP_PERSISTENT_BIT 0x0040
#define GL_MAP_COHERENT_BIT 0x0080
#define GL_CLIENT_STORAGE_BIT 0x0200
_Noreturn void nb_gl_web_absent(const char *name, ...);
#define glUniform1d(...) nb_gl_web_absent("glUniform1d", __VA_ARGS__)
#define glGetQueryObjectui64v(...) nb_gl_web_absent("glGetQueryObjectui64v", __VA_ARGS__)
#define glGetQueryObjectui64vEXT(...) nb_gl_web_absent("glGetQueryObjectui64vEXT", __VA_ARGS__)
#define glVertexAttribLPointer(...) nb_gl_web_absent("glVertexAttribLPointer", __VA_ARGS__)
#define glSpecializeShaderARB(...) nb_gl_web_absent("glSpecializeShaderARB", __VA_ARGS__)
#define glSpecializeShader(...) nb_gl_web_absent("glSpecializeShader", __VA_ARGS__)
#define glBufferStorage(...) nb_gl_web_absent("glBufferStorage", __VA_ARGS__)
#define glGetBufferSubData(...) nb_gl_web_absent("glGetBufferSubData", __VA_ARGS__)
#define glColorMaski(...) nb_gl_web_absent("glColorMaski", __VA_ARGS__)
#define glMemoryBarrier(...) nb_gl_web_absent("glMemoryBarrier", __VA_ARGS__)
#define glGetProgramInterfaceiv(...) nb_gl_web_absent("glGetProgramInterfaceiv", __VA_ARGS__)
#define glGetProgramResourceiv(...) nb_gl_web_absent("glGetProgramResourceiv", __VA_ARGS__)
/* WebGL 2 maps no buffer: the stream path reads back with glReadPixels. */
#define glMapBufferRange(...) (nb_gl_web_absent("glMapBufferRange", __VA_ARGS__), (void *)0)
#define glUnmapBuffer(...) (nb_gl_web_absent("glUnmapBuffer", __VA_ARGS__), GL_FALSE)

/* Nor is the compute pipeline linked: backends.c refuses it by level
 * before it would create one. */
#define NB_GL_NO_COMPUTE 1
#else
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#endif

#endif
