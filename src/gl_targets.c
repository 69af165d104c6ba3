/* gl_targets.c - textures and render targets of the fragment-shader
 * ("stream") pipelines: the GA/GAJ backend, its precision kernels and the
 * fragment MD engine.  A stream is NB_STREAM_WIDTH texels wide and as many
 * rows as its particles need; a kernel draws into up to eight textures
 * behind one framebuffer, whose completeness is checked here, once for all
 * of them. */
#include "gl_internal.h"

/* Color attachments a framebuffer here can hold (GL 4.3 guarantees 8). */
#define NB_GL_MAX_ATTACHMENTS 8

int nb_gl_max_texture_size(void)
{
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    return max;
}

GLuint nb_gl_new_texture(int width, int height, GLenum format)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    nb_gl_texture_storage(format, width, height);
    /* texelFetch needs a complete texture: no mipmaps. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

enum nb_status nb_gl_stream_rows(size_t n, size_t pad, size_t max_n, const char *what,
                                 int *rows, struct nb_error *err)
{
    size_t npad = (n + pad - 1) / pad * pad;
    size_t r = npad ? (npad + NB_STREAM_WIDTH - 1) / NB_STREAM_WIDTH : 1;
    if (r > (size_t)nb_gl_max_texture_size())
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu particles need a %dx%zu texture, "
                            "over this GL's GL_MAX_TEXTURE_SIZE of %d", what, n,
                            NB_STREAM_WIDTH, r, nb_gl_max_texture_size());
    if (n > max_n)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu particles, more than the %zu its "
                            "indices reach", what, n, max_n);
    *rows = (int)r;
    return NB_OK;
}

enum nb_status nb_gl_attach_targets(GLuint *fbo, const GLuint *tex, int count,
                                    const char *what, struct nb_error *err)
{
    GLenum slots[NB_GL_MAX_ATTACHMENTS];
    if (count > NB_GL_MAX_ATTACHMENTS)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %d render targets, at most %d",
                            what, count, NB_GL_MAX_ATTACHMENTS);
    if (!*fbo)
        glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    for (int k = 0; k < count; k++) {
        slots[k] = GL_COLOR_ATTACHMENT0 + (GLenum)k;
        glFramebufferTexture2D(GL_FRAMEBUFFER, slots[k], GL_TEXTURE_2D, tex[k], 0);
    }
    glDrawBuffers(count, slots);
    if (nb_gl_check(what, err) != NB_OK)
        return err->status;
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return nb_error_set(err, NB_ERR_GL, "%s: framebuffer of %d targets incomplete "
                            "(0x%04x)", what, count, status);
    return NB_OK;
}

enum nb_status nb_gl_new_targets(GLuint *fbo, GLuint *tex, int count, int width, int height,
                                 GLenum format, const char *what, struct nb_error *err)
{
    for (int k = 0; k < count; k++)
        tex[k] = nb_gl_new_texture(width, height, format);
    return nb_gl_attach_targets(fbo, tex, count, what, err);
}
