/* frames.c - run's and md's pictures: the options, checked before the run,
 * and the sequence of frames on the way (glnbody.h's struct nb_render and
 * struct nb_frames).  A frame at time k * --frame-every shows the state of
 * the last step at or before that time: the run never steps for a picture,
 * so the trajectory does not depend on the frames. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frames.h"

#define MAX_FRAMES 99999        /* frame_NNNNN.png keeps five digits */
#define MAX_SIDE 16384
#define MOVIE_FPS 25.0

/* "WxH", each side 1..MAX_SIDE. */
static enum nb_status parse_size(const char *option, const char *text, int *w, int *h,
                                 struct nb_error *err)
{
    char *end;
    long a, b;
    errno = 0;
    a = strtol(text, &end, 10);
    if (end != text && (*end == 'x' || *end == 'X')) {
        const char *second = end + 1;
        b = strtol(second, &end, 10);
        if (end != second && *end == '\0' && errno == 0 && a >= 1 && b >= 1 &&
            a <= MAX_SIDE && b <= MAX_SIDE && text[0] != '-' && text[0] != '+' &&
            second[0] != '-' && second[0] != '+') {
            *w = (int)a;
            *h = (int)b;
            return NB_OK;
        }
    }
    return nb_error_set(err, NB_ERR_ARGS, "--%s: '%s' is not WIDTHxHEIGHT in "
                        "pixels, each 1..%d (e.g. 1920x1080)", option, text, MAX_SIDE);
}

/* "D,AZ,EL[,CX,CY,CZ[,FOV]]": 3, 6 or 7 finite numbers. */
static enum nb_status parse_camera(const char *text, struct nb_camera *cam,
                                   struct nb_error *err)
{
    double v[7];
    int count = 0;
    const char *p = text;
    for (;;) {
        char *end;
        errno = 0;
        if (count == 7)
            break;
        v[count] = strtod(p, &end);
        if (end == p || errno || !isfinite(v[count]))
            break;
        count++;
        p = end;
        if (*p != ',')
            break;
        p++;
    }
    if (*p != '\0' || (count != 3 && count != 6 && count != 7) || v[0] < 0 ||
        fabs(v[2]) > 90 || (count == 7 && !(v[6] > 0 && v[6] < 180)))
        return nb_error_set(err, NB_ERR_ARGS, "--camera: '%s' is not DISTANCE,AZIMUTH,"
                            "ELEVATION[,CX,CY,CZ[,FOV]] (distance >= 0, 0 fits the system; "
                            "elevation -90..90 and field of view 0..180 degrees)", text);
    cam->distance = v[0];
    cam->azimuth = v[1];
    cam->elevation = v[2];
    for (int a = 0; a < 3 && count >= 6; a++)
        cam->center[a] = v[3 + a];
    if (count == 7)
        cam->fov = v[6];
    return NB_OK;
}

enum nb_status nb_cli_picture_options(const char *size_option, const char *size,
                                      const char *color, const char *camera,
                                      struct nb_render_options *opt, struct nb_error *err)
{
    static const char *const colors[NB_COLOR_COUNT] = { "speed", "potential", "type" };
    if (size && parse_size(size_option, size, &opt->width, &opt->height, err) != NB_OK)
        return err->status;
    if (color) {
        int k = 0;
        while (k < NB_COLOR_COUNT && strcmp(color, colors[k]) != 0)
            k++;
        if (k == NB_COLOR_COUNT)
            return nb_error_set(err, NB_ERR_ARGS, "--color: '%s' is not speed, potential "
                                "or type", color);
        opt->color = (enum nb_render_color)k;
    }
    if (camera && parse_camera(camera, &opt->camera, err) != NB_OK)
        return err->status;
    return NB_OK;
}

/* A --movie name must end in .mp4: ffmpeg is told the format, and a file
 * called .png or .txt holding a movie would surprise. */
static int mp4_name(const char *path)
{
    size_t len = strlen(path);
    return len > 4 && strcmp(path + len - 4, ".mp4") == 0;
}

/* --frame-every: a time > 0 (run), or a whole number of steps >= 1 (md,
 * like its --dump-every and --thermo-every). */
static enum nb_status parse_every(const struct nb_cli_frames *f, int in_steps, double *out,
                                  struct nb_error *err)
{
    if (in_steps) {
        long k;
        if (nb_parse_long("frame-every", f->every, 1, 1000000000L, &k, err) != NB_OK)
            return err->status;
        *out = (double)k;
        return NB_OK;
    }
    char *end;
    errno = 0;
    *out = strtod(f->every, &end);
    if (end == f->every || *end || errno || !(*out > 0) || !isfinite(*out))
        return nb_error_set(err, NB_ERR_ARGS, "--frame-every: '%s' is not a time > 0",
                            f->every);
    return NB_OK;
}

enum nb_status nb_cli_frames_check(struct nb_cli_frames *f, int in_steps, double t_end,
                                   struct nb_error *err)
{
    f->on = f->dir || f->movie;
    nb_render_options_default(&f->opt);
    if (!f->on) {
        if (f->every || f->size || f->color || f->camera)
            return nb_error_set(err, NB_ERR_ARGS, "--%s needs --frames DIR or --movie "
                                "FILE.mp4", f->every ? "frame-every" : f->size ? "frame-size"
                                : f->color ? "color" : "camera");
        return NB_OK;
    }
    if (!f->every)
        return nb_error_set(err, NB_ERR_ARGS, "--%s needs --frame-every %s (the %s "
                            "between pictures)", f->dir ? "frames" : "movie",
                            in_steps ? "K" : "DT", in_steps ? "steps" : "time");
    if (parse_every(f, in_steps, &f->interval, err) != NB_OK)
        return err->status;
    if (f->dir && !f->dir[0])
        return nb_error_set(err, NB_ERR_ARGS, "--frames: the directory name is empty");
    if (f->movie && !mp4_name(f->movie))
        return nb_error_set(err, NB_ERR_ARGS, "--movie: '%s' does not end in .mp4", f->movie);
    /* Found now rather than after the run has started. */
    if (f->movie && !nb_frames_movie_available())
        return nb_error_set(err, NB_ERR_UNSUPPORTED, "--movie %s: a movie needs ffmpeg, which is "
                            "not installed (no ffmpeg in PATH); install it (Debian: apt-get "
                            "install ffmpeg), or write PNG frames with --frames DIR alone",
                            f->movie);
    if (t_end / f->interval >= MAX_FRAMES)
        return nb_error_set(err, NB_ERR_ARGS, "--frame-every: %s would write more than %d "
                            "frames", f->every, MAX_FRAMES);
    return nb_cli_picture_options("frame-size", f->size, f->color, f->camera, &f->opt, err);
}

enum nb_status nb_cli_frames_open(struct nb_cli_frames *f, struct nb_gl *gl,
                                  struct nb_error *err)
{
    if (!f->on)
        return NB_OK;
    if (!gl) {
        if (nb_gl_create(&f->own_gl, NULL, err) != NB_OK)
            return err->status;
        gl = f->own_gl;
    }
    if (nb_render_create(&f->render, gl, &f->opt, err) != NB_OK ||
        nb_frames_create(&f->frames, f->render, f->dir, f->movie, MOVIE_FPS, err) != NB_OK) {
        if (f->movie && err->status == NB_ERR_UNSUPPORTED) {
            char reason[sizeof err->message];
            memcpy(reason, err->message, sizeof reason);
            return nb_error_set(err, NB_ERR_UNSUPPORTED, "--movie %s", reason);
        }
        return err->status;
    }
    return NB_OK;
}

double nb_cli_frames_next(const struct nb_cli_frames *f)
{
    return f->on ? (double)f->next * f->interval : INFINITY;
}

enum nb_status nb_cli_frames_due(struct nb_cli_frames *f, double before, double end,
                                 nb_cli_draw draw, void *state, struct nb_error *err)
{
    double t0 = nb_clock_seconds();
    int drawn = 0;
    while (f->on) {
        double t = nb_cli_frames_next(f);
        if (!(t < before && t <= end))
            break;
        /* Frames due at once show one state: drawn once, captured each. */
        if ((!drawn && draw(state, f->render, err) != NB_OK) ||
            nb_frames_capture(f->frames, err) != NB_OK)
            return err->status;
        drawn = 1;
        f->next++;
    }
    f->seconds += nb_clock_seconds() - t0;
    return NB_OK;
}

enum nb_status nb_cli_frames_finish(struct nb_cli_frames *f, FILE *fp, struct nb_error *err)
{
    if (!f->on)
        return NB_OK;
    double t0 = nb_clock_seconds();
    if (nb_frames_finish(f->frames, err) != NB_OK)
        return err->status;
    f->seconds += nb_clock_seconds() - t0;
    if (fp) {
        fprintf(fp, "frames: %llu pictures of %dx%d", (unsigned long long)f->next,
                f->opt.width, f->opt.height);
        if (f->dir)
            fprintf(fp, " in %s", f->dir);
        if (f->movie)
            fprintf(fp, "%s movie %s", f->dir ? ", and the" : ", the", f->movie);
        fprintf(fp, " (%.3f s)\n", f->seconds);
    }
    return NB_OK;
}

void nb_cli_frames_close(struct nb_cli_frames *f)
{
    nb_frames_destroy(f->frames);
    nb_render_destroy(f->render);
    nb_gl_destroy(f->own_gl);
    f->frames = NULL;
    f->render = NULL;
    f->own_gl = NULL;
}
