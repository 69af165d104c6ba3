/* gl_limits.c - a particle count checked against this GL's limits before
 * anything is allocated for it: the one buffer or texture every force
 * evaluation of the engine needs (compute: n float4 positions in a storage
 * buffer; fragment: a NB_STREAM_WIDTH-wide stream texture of n texels).
 * Larger buffers that a mode or kernel adds are checked where they are
 * made (nb_gl_ensure_buffer, nb_gl_stream_rows). */
#include "gl_internal.h"

enum nb_status nb_gl_check_particles(struct nb_gl *gl, enum nb_engine engine, size_t n,
                                     struct nb_error *err)
{
    if (engine == NB_ENGINE_CPU || !gl)
        return NB_OK;
    if (nb_gl_make_current(gl, err) != NB_OK)
        return err->status;
    if (engine == NB_ENGINE_COMPUTE) {
        GLint64 max_block = 0;
        glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
        if (n > (size_t)max_block / 16)
            return nb_error_set(err, NB_ERR_LIMIT, "N = %zu: the compute pipeline keeps "
                                "16 bytes a particle in one storage buffer, and this GL's "
                                "GL_MAX_SHADER_STORAGE_BLOCK_SIZE of %lld bytes holds at "
                                "most %lld particles", n, (long long)max_block,
                                (long long)(max_block / 16));
        return NB_OK;
    }
    size_t rows = (n + NB_STREAM_WIDTH - 1) / NB_STREAM_WIDTH;
    int max = nb_gl_max_texture_size();
    if (rows > (size_t)max)
        return nb_error_set(err, NB_ERR_LIMIT, "N = %zu: the fragment pipeline streams "
                            "particles through %d-wide textures, and this GL's "
                            "GL_MAX_TEXTURE_SIZE of %d rows holds at most %lld particles",
                            n, NB_STREAM_WIDTH, max, (long long)max * NB_STREAM_WIDTH);
    return NB_OK;
}
