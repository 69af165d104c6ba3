/* staging.c - host<->GPU transfers through persistently mapped buffers.
 *
 * glBufferSubData and glGetBufferSubData copy through the driver's
 * pageable path, slow enough to take a large share of a Hermite block
 * step.  With GL 4.4 buffer storage (GL_ARB_buffer_storage) the host
 * writes into, or reads from, a buffer mapped once for good, and
 * glCopyBufferSubData moves the bytes on the GPU's copy path; a fence says
 * when they have arrived.
 * Without the extension the same calls fall back to the plain copies.
 */
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

static int have_buffer_storage(void)
{
    return epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage");
}

/* On a GPU, fences are polled (no sleep in the driver) for up to
 * SPIN_SECONDS, then waited on; GLNBODY_WAIT=block waits at once (poll, or
 * any other value: the default; the program refuses other values).  A
 * software renderer is always waited on: a polling thread would take a
 * core from the threads that do the work.  A Hermite block step waits
 * once per block, and NVIDIA's wait sleeps, adding a wake-up to every
 * block. */
#define SPIN_SECONDS 0.01

static int spin_wait(void)
{
    static int spin = -1;
    if (spin < 0) {
        const char *s = getenv("GLNBODY_WAIT");
        spin = !(s && !strcmp(s, "block"));
    }
    return spin;
}

int nb_gl_waits_spin(void)
{
    return spin_wait() && nb_gl_current && !nb_gl_is_software(nb_gl_current);
}

static GLenum client_wait(GLsync fence)
{
    GLenum done = glClientWaitSync(fence, 0, 0);
    if (done != GL_TIMEOUT_EXPIRED)
        return done;            /* most often: no flush needed */
    if (nb_gl_waits_spin()) {
        glFlush();
        double t0 = nb_clock_seconds();
        do {
            GLenum r = glClientWaitSync(fence, 0, 0);
            if (r != GL_TIMEOUT_EXPIRED)
                return r;
        } while (nb_clock_seconds() - t0 < SPIN_SECONDS);
    }
    return glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, UINT64_MAX);
}

enum nb_status nb_gl_fence_wait(GLsync *fence, struct nb_error *err)
{
    if (!*fence)
        return NB_OK;
    GLenum r = client_wait(*fence);
    glDeleteSync(*fence);
    *fence = NULL;
    if (r == GL_WAIT_FAILED)
        return nb_error_set(err, NB_ERR_GL, "waiting for a GPU transfer failed");
    return NB_OK;
}

/* Waits for the GPU to be done with the staging buffer's last use. */
static enum nb_status wait_fence(struct nb_gl_staging *s, struct nb_error *err)
{
    return nb_gl_fence_wait(&s->fence, err);
}

static void release(struct nb_gl_staging *s)
{
    if (s->buffer) {
        glBindBuffer(GL_COPY_READ_BUFFER, s->buffer);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
        glDeleteBuffers(1, &s->buffer);
    } else {
        free(s->map);
    }
    s->buffer = 0;
    s->map = NULL;
    s->capacity = 0;
}

/* A mapped buffer (or a host block) of at least `bytes`. */
static enum nb_status reserve(struct nb_gl_staging *s, size_t bytes, struct nb_error *err)
{
    if (wait_fence(s, err) != NB_OK)
        return err->status;
    if (s->capacity >= bytes)
        return NB_OK;
    release(s);
    bytes = bytes < 4096 ? 4096 : bytes + bytes / 2;
    if (!have_buffer_storage()) {
        if (!(s->map = nb_alloc(bytes, 1, "transfer staging", err)))
            return NB_ERR_NOMEM;
        s->capacity = bytes;
        return NB_OK;
    }
    GLbitfield access = (s->download ? GL_MAP_READ_BIT : GL_MAP_WRITE_BIT) |
                        GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glGenBuffers(1, &s->buffer);
    glBindBuffer(GL_COPY_READ_BUFFER, s->buffer);
    glBufferStorage(GL_COPY_READ_BUFFER, (GLsizeiptr)bytes, NULL,
                    access | (s->download ? GL_CLIENT_STORAGE_BIT : 0));
    s->map = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, access);
    enum nb_status st = nb_gl_check("mapping a transfer buffer", err);
    if (st == NB_OK && !s->map)
        st = nb_error_set(err, NB_ERR_GL, "mapping a %zu-byte transfer buffer failed",
                          bytes);
    if (st != NB_OK) {
        release(s);
        return st;
    }
    s->capacity = bytes;
    return NB_OK;
}

void nb_gl_staging_init(struct nb_gl_staging *s, int download)
{
    *s = (struct nb_gl_staging){ 0 };
    s->download = download;
}

void *nb_gl_staging_write(struct nb_gl_staging *s, size_t bytes, struct nb_error *err)
{
    return reserve(s, bytes, err) == NB_OK ? s->map : NULL;
}

void *nb_gl_staging_grow(struct nb_gl_staging *s, size_t bytes, size_t keep,
                         struct nb_error *err)
{
    if (wait_fence(s, err) != NB_OK)
        return NULL;
    if (s->capacity >= bytes)
        return s->map;
    struct nb_gl_staging old = *s;
    s->buffer = 0;
    s->map = NULL;
    s->capacity = 0;
    if (reserve(s, bytes, err) != NB_OK) {
        release(s);
        *s = old;
        return NULL;
    }
    if (keep && s->buffer && old.buffer) {
        /* on the GPU: reading write-combined memory back is slow */
        glBindBuffer(GL_COPY_READ_BUFFER, old.buffer);
        glBindBuffer(GL_COPY_WRITE_BUFFER, s->buffer);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                            (GLsizeiptr)keep);
        glFinish();             /* before the host writes the new area */
    } else if (keep) {
        memcpy(s->map, old.map, keep);
    }
    release(&old);
    if (nb_gl_check("growing a transfer area", err) != NB_OK)
        return NULL;
    return s->map;
}

enum nb_status nb_gl_staging_send(struct nb_gl_staging *s, GLuint dst, size_t offset,
                                  size_t bytes, const char *what, struct nb_error *err)
{
    if (!s->buffer) {
        /* As the copy below: from `offset` in the area to dst's start. */
        glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes,
                        (const char *)s->map + offset);
        return nb_gl_check(what, err);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, s->buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)offset, 0,
                        (GLsizeiptr)bytes);
    return nb_gl_check(what, err);
}

void nb_gl_staging_sent(struct nb_gl_staging *s)
{
    if (s->buffer)
        s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

enum nb_status nb_gl_staging_reserve(struct nb_gl_staging *s, size_t bytes,
                                     struct nb_error *err)
{
    return reserve(s, bytes, err);
}

enum nb_status nb_gl_staging_fetch(struct nb_gl_staging *s, GLuint src, size_t offset,
                                   size_t bytes, const char *what, struct nb_error *err)
{
    return nb_gl_staging_fetch_from(s, src, 0, offset, bytes, what, err);
}

enum nb_status nb_gl_staging_fetch_from(struct nb_gl_staging *s, GLuint src,
                                        size_t src_offset, size_t offset, size_t bytes,
                                        const char *what, struct nb_error *err)
{
    glBindBuffer(GL_COPY_READ_BUFFER, src);
    if (!s->buffer) {
        nb_gl_get_buffer(GL_COPY_READ_BUFFER, src_offset, bytes, (char *)s->map + offset);
        return nb_gl_check(what, err);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, s->buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)src_offset,
                        (GLintptr)offset, (GLsizeiptr)bytes);
    return nb_gl_check(what, err);
}

int nb_gl_staging_done(struct nb_gl_staging *s)
{
    if (!s->fence)
        return 1;
    return glClientWaitSync(s->fence, 0, 0) != GL_TIMEOUT_EXPIRED;
}

const void *nb_gl_staging_arrived(struct nb_gl_staging *s, struct nb_error *err)
{
    if (s->buffer && !s->fence)
        s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    return wait_fence(s, err) == NB_OK ? s->map : NULL;
}

void nb_gl_staging_free(struct nb_gl_staging *s)
{
    if (s->fence)
        glDeleteSync(s->fence);
    s->fence = NULL;
    release(s);
}
