/* render_frames.c - struct nb_frames of glnbody.h: a numbered sequence of
 * a renderer's frames as PNG files and, through ffmpeg, an MP4 movie.
 *
 * A frame is read back without stalling the simulation: glReadPixels into
 * a pixel-buffer object returns at once, a fence marks when the copy is
 * done, and the frame is mapped and written only when its slot of the
 * ring comes round again (RING - 1 captures later) or at the finish, by
 * which time the GPU has long copied it. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "render_internal.h"

#define RING 3

struct slot {
    GLuint pbo;
    GLsync fence;       /* 0: the slot holds no frame */
    uint64_t index;
};

struct nb_frames {
    struct nb_render *r;
    int width, height;      /* of every frame of the sequence */
    char *dir;              /* NULL: no PNG files */
    char *movie, *movie_tmp;    /* NULL: no movie */
    int pipe_fd;            /* ffmpeg's stdin, -1: none */
    pid_t ffmpeg;
    struct slot ring[RING]; /* frame k in slot k % RING */
    uint64_t captured, written;
    unsigned char *rgb;     /* one frame, rows top first */
};

/* ---- checks before anything is written ---------------------------------- */

static enum nb_status prepare_dir(const char *dir, struct nb_error *err)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 &&
                                   S_ISDIR(st.st_mode)))
        return nb_error_set(err, NB_ERR_IO, "%s: cannot make the frame directory: %s", dir,
                            errno == EEXIST ? "a file of that name exists" : strerror(errno));
    /* Whether a file can be made there (access() says yes to root even on
     * a read-only file system). */
    size_t len = strlen(dir) + 32;
    char *probe = malloc(len);
    if (!probe)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    snprintf(probe, len, "%s/.glnbody-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    int saved = errno;
    if (fd >= 0) {
        close(fd);
        unlink(probe);
    }
    free(probe);
    if (fd < 0)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot write frames in this directory: %s",
                            dir, strerror(saved));
    return NB_OK;
}

/* Whether an executable `name` is on PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    while (*path) {
        size_t len = strcspn(path, ":");
        char buf[4096];
        if (len > 0 && len + strlen(name) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        path += len + (path[len] == ':');
    }
    return 0;
}

int nb_frames_movie_available(void)
{
    return on_path("ffmpeg");
}

/* ffmpeg reading raw RGB frames on a pipe and writing the movie's temporary
 * file (made here first, so that an unwritable place is found now). */
static enum nb_status start_movie(struct nb_frames *fr, const char *movie, double fps,
                                  struct nb_error *err)
{
    if (!nb_frames_movie_available())
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "%s: a movie needs ffmpeg, which is "
                            "not installed (no ffmpeg in PATH); install it (Debian: "
                            "apt-get install ffmpeg) or write PNG frames only", movie);
    size_t len = strlen(movie) + 32;
    if (!(fr->movie = strdup(movie)) || !(fr->movie_tmp = malloc(len)))
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    snprintf(fr->movie_tmp, len, "%s.tmp%ld.mp4", movie, (long)getpid());
    int fd = open(fr->movie_tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot write the movie there: %s", movie,
                     strerror(errno));
        free(fr->movie_tmp);
        fr->movie_tmp = NULL;
        return NB_ERR_IO;
    }
    close(fd);
    char size[32], rate[32];
    snprintf(size, sizeof size, "%dx%d", fr->width, fr->height);
    snprintf(rate, sizeof rate, "%g", fps);
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: no pipe to ffmpeg: %s", movie,
                            strerror(errno));
    /* A dead ffmpeg must give write errors, not kill the process. */
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);
    fr->ffmpeg = fork();
    if (fr->ffmpeg == 0) {
        dup2(pipe_fds[0], STDIN_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execlp("ffmpeg", "ffmpeg", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo",
               "-pix_fmt", "rgb24", "-s", size, "-r", rate, "-i", "pipe:0", "-vf",
               "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", "-f", "mp4",
               fr->movie_tmp, (char *)NULL);
        _exit(127);
    }
    close(pipe_fds[0]);
    if (fr->ffmpeg < 0) {
        close(pipe_fds[1]);
        return nb_error_set(err, NB_ERR_IO, "%s: cannot start ffmpeg: %s", movie,
                            strerror(errno));
    }
    fr->pipe_fd = pipe_fds[1];
    return NB_OK;
}

/* Closes ffmpeg's input and waits for it; NB_ERR_IO unless it exited 0. */
static enum nb_status stop_movie(struct nb_frames *fr, struct nb_error *err)
{
    int status = 0;
    if (fr->pipe_fd >= 0)
        close(fr->pipe_fd);
    fr->pipe_fd = -1;
    if (fr->ffmpeg <= 0)
        return NB_OK;
    while (waitpid(fr->ffmpeg, &status, 0) < 0 && errno == EINTR)
        ;
    fr->ffmpeg = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return nb_error_set(err, NB_ERR_IO, "%s: ffmpeg failed (%s %d) encoding the movie",
                            fr->movie, WIFEXITED(status) ? "exit status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return NB_OK;
}

/* ---- the sequence -------------------------------------------------------- */

enum nb_status nb_frames_create(struct nb_frames **out, struct nb_render *r, const char *dir,
                                const char *movie, double fps, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!out || !r)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_create: %s is NULL",
                            out ? "r" : "fr");
    *out = NULL;
    if (movie && !(fps > 0 && fps <= 1000))
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_create: %g frames per second is "
                            "outside (0, 1000]", fps);
    struct nb_frames *fr = nb_alloc(1, sizeof *fr, "a frame sequence", &e);
    if (!fr)
        return nb_error_copy(err, &e);
    fr->r = r;
    fr->width = r->opt.width;
    fr->height = r->opt.height;
    fr->pipe_fd = -1;
    if (!(fr->rgb = nb_alloc((size_t)fr->width * fr->height, 3, "a frame", &e)) ||
        (dir && (prepare_dir(dir, &e) != NB_OK ||
                 !(fr->dir = strdup(dir)))) ||
        (movie && start_movie(fr, movie, fps, &e) != NB_OK) ||
        nb_gl_make_current(r->gl, &e) != NB_OK) {
        if (e.status == NB_OK)
            nb_error_set(&e, NB_ERR_NOMEM, "out of host memory");
        nb_frames_destroy(fr);
        return nb_error_copy(err, &e);
    }
    for (int k = 0; k < RING; k++) {
        glGenBuffers(1, &fr->ring[k].pbo);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, fr->ring[k].pbo);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)4 * fr->width * fr->height, NULL,
                     GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (nb_gl_check("making the frame read-back buffers", &e) != NB_OK) {
        nb_frames_destroy(fr);
        return nb_error_copy(err, &e);
    }
    *out = fr;
    return NB_OK;
}

/* Writes the frame of slot k (waiting for its copy if it is not done):
 * the PNG file, then the movie's next frame. */
static enum nb_status write_slot(struct nb_frames *fr, struct slot *s, struct nb_error *err)
{
    int w = fr->width, h = fr->height;
    glClientWaitSync(s->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 60000000000ull);
    glDeleteSync(s->fence);
    s->fence = 0;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    const unsigned char *rgba = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0,
                                                 (GLsizeiptr)4 * w * h, GL_MAP_READ_BIT);
    if (!rgba) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        return nb_gl_check("mapping a frame", err) != NB_OK ? err->status
               : nb_error_set(err, NB_ERR_GL, "mapping frame %llu failed",
                              (unsigned long long)s->index);
    }
    for (int row = 0; row < h; row++)       /* GL's rows are bottom first */
        for (int col = 0; col < w; col++)
            memcpy(&fr->rgb[3 * ((size_t)row * w + col)],
                   &rgba[4 * ((size_t)(h - 1 - row) * w + col)], 3);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (fr->dir) {
        size_t len = strlen(fr->dir) + 40;
        char *path = malloc(len);
        if (!path)
            return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
        snprintf(path, len, "%s/frame_%05llu.png", fr->dir, (unsigned long long)s->index);
        enum nb_status st = nb_png_write(path, w, h, fr->rgb, err);
        free(path);
        if (st != NB_OK)
            return st;
    }
    for (size_t done = 0, bytes = (size_t)3 * w * h; fr->pipe_fd >= 0 && done < bytes;) {
        ssize_t k = write(fr->pipe_fd, fr->rgb + done, bytes - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return nb_error_set(err, NB_ERR_IO, "%s: ffmpeg stopped reading frames: %s",
                                fr->movie, k < 0 ? strerror(errno) : "no progress");
        done += (size_t)k;
    }
    return NB_OK;
}

/* Writes frames from the oldest on: all of them (wait), or those whose
 * copies are already done. */
static enum nb_status drain(struct nb_frames *fr, int wait, struct nb_error *err)
{
    while (fr->written < fr->captured) {
        struct slot *s = &fr->ring[fr->written % RING];
        if (!wait && glClientWaitSync(s->fence, 0, 0) == GL_TIMEOUT_EXPIRED)
            return NB_OK;
        if (write_slot(fr, s, err) != NB_OK)
            return err->status;
        fr->written++;
    }
    return NB_OK;
}

enum nb_status nb_frames_capture(struct nb_frames *fr, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!fr)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_capture: fr is NULL");
    struct nb_render *r = fr->r;
    if (!r->drawn || r->opt.width != fr->width || r->opt.height != fr->height)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_capture: %s", !r->drawn
                            ? "nothing drawn yet" : "the renderer's size changed");
    if (nb_gl_make_current(r->gl, &e) != NB_OK || drain(fr, 0, &e) != NB_OK)
        return nb_error_copy(err, &e);
    /* A full ring: the oldest frame goes out now; it was read RING - 1
     * captures ago, so its copy is long done and the wait is short. */
    if (fr->captured - fr->written == RING) {
        if (write_slot(fr, &fr->ring[fr->written % RING], &e) != NB_OK)
            return nb_error_copy(err, &e);
        fr->written++;
    }
    struct slot *s = &fr->ring[fr->captured % RING];
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fr->width, fr->height, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    s->index = fr->captured++;
    glFlush();      /* the copy starts now, not at the next wait */
    if (nb_gl_check("reading a frame back", &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

enum nb_status nb_frames_finish(struct nb_frames *fr, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!fr)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_finish: fr is NULL");
    if (nb_gl_make_current(fr->r->gl, &e) != NB_OK || drain(fr, 1, &e) != NB_OK ||
        stop_movie(fr, &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (fr->movie_tmp) {
        if (rename(fr->movie_tmp, fr->movie) != 0)
            return nb_error_set(err, NB_ERR_IO, "%s: cannot rename the movie into "
                                "place: %s", fr->movie, strerror(errno));
        free(fr->movie_tmp);
        fr->movie_tmp = NULL;
    }
    return NB_OK;
}

enum nb_status nb_frames_start_at(struct nb_frames *fr, uint64_t index, struct nb_error *err)
{
    if (!fr)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_start_at: fr is NULL");
    if (fr->captured != fr->written || fr->captured != 0)
        return nb_error_set(err, NB_ERR_ARGS, "nb_frames_start_at: frames were captured "
                            "already");
    fr->captured = fr->written = index;     /* slot k % RING, as ever */
    return NB_OK;
}

uint64_t nb_frames_count(const struct nb_frames *fr)
{
    return fr ? fr->captured : 0;
}

void nb_frames_destroy(struct nb_frames *fr)
{
    if (!fr)
        return;
    stop_movie(fr, NULL);
    if (fr->movie_tmp)
        unlink(fr->movie_tmp);
    if (nb_gl_make_current(fr->r->gl, NULL) == NB_OK)
        for (int k = 0; k < RING; k++) {
            if (fr->ring[k].fence)
                glDeleteSync(fr->ring[k].fence);
            glDeleteBuffers(1, &fr->ring[k].pbo);
        }
    free(fr->movie);
    free(fr->movie_tmp);
    free(fr->dir);
    free(fr->rgb);
    free(fr);
}

enum nb_status nb_render_write_png(struct nb_render *r, const char *path,
                                   struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !path)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_write_png: %s is NULL",
                            r ? "path" : "r");
    if (!r->drawn)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_write_png: nothing drawn yet");
    unsigned char *rgb = nb_alloc((size_t)r->opt.width * r->opt.height, 3, "a picture", &e);
    if (!rgb || nb_render_read_rgb(r, rgb, &e) != NB_OK ||
        nb_png_write(path, r->opt.width, r->opt.height, rgb, &e) != NB_OK) {
        free(rgb);
        return nb_error_copy(err, &e);
    }
    free(rgb);
    return NB_OK;
}

enum nb_status nb_render_pixels(struct nb_render *r, unsigned char *rgb, size_t size,
                                struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (!r || !rgb)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_pixels: %s is NULL",
                            r ? "rgb" : "r");
    if (!r->drawn)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_pixels: nothing drawn yet");
    if (size != (size_t)r->opt.width * r->opt.height * 3)
        return nb_error_set(err, NB_ERR_ARGS, "nb_render_pixels: %zu bytes given for a "
                            "%dx%d RGB picture (%zu bytes)", size, r->opt.width,
                            r->opt.height, (size_t)r->opt.width * r->opt.height * 3);
    if (nb_render_read_rgb(r, rgb, &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}
