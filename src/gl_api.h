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
#else
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#endif

#endif
