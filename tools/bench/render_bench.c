/* render_bench.c - the renderer's own rate: frames/s of a Plummer sphere
 * of N bodies drawn from the compute engine's j-particle buffer (no upload,
 * no read-back of particles) at WxH, alone, and with each frame read back
 * through the frame sequence's pixel-buffer ring (PNG encoding left out:
 * that is host work the run overlaps).  Only the public API (glnbody.h).
 *
 *   tools/bench/render_bench N WIDTH HEIGHT FRAMES
 *
 * Prints one CSV row: n,width,height,frames,draw_fps,draw_readback_fps. */
#include <stdio.h>
#include <stdlib.h>

#include "glnbody.h"

static int fail(const struct nb_error *err)
{
    fprintf(stderr, "render_bench: %s\n", err->message);
    return 1;
}

int main(int argc, char **argv)
{
    struct nb_error err = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_forces *f = NULL;
    struct nb_hermite *h = NULL;
    struct nb_render *r = NULL;
    struct nb_frames *fr = NULL;
    struct nb_render_options opt;
    struct nb_hermite_params par;

    if (argc != 5) {
        fprintf(stderr, "usage: render_bench N WIDTH HEIGHT FRAMES\n");
        return 2;
    }
    size_t n = strtoul(argv[1], NULL, 10);
    int frames = atoi(argv[4]);
    nb_render_options_default(&opt);
    opt.width = atoi(argv[2]);
    opt.height = atoi(argv[3]);
    nb_hermite_params_default(&par);
    par.predict_on_device = 1;
    if (frames < 1 || nb_gl_create(&gl, NULL, &err) != NB_OK ||
        nb_forces_create(&f, gl, NB_ENGINE_COMPUTE, &err) != NB_OK ||
        nb_hermite_create_plummer(&h, f, n, 1, &par, &err) != NB_OK ||
        nb_render_create(&r, gl, &opt, &err) != NB_OK ||
        nb_frames_create(&fr, r, NULL, NULL, 25, &err) != NB_OK)
        return fail(&err);
    fprintf(stderr, "render_bench: %s, N = %zu, %dx%d\n", nb_gl_renderer(gl), n, opt.width,
            opt.height);
    /* Warm-up (and a picture to look at), then the draws alone (one frame
     * read at the end waits for them), then the draws with each frame
     * captured. */
    if (nb_render_draw_hermite(r, h, &err) != NB_OK ||
        nb_render_write_png(r, "render_bench.png", &err) != NB_OK)
        return fail(&err);
    double t0 = nb_clock_seconds();
    for (int k = 0; k < frames; k++)
        if (nb_render_draw_hermite(r, h, &err) != NB_OK)
            return fail(&err);
    if (nb_frames_capture(fr, &err) != NB_OK || nb_frames_finish(fr, &err) != NB_OK)
        return fail(&err);
    double draw = nb_clock_seconds() - t0;
    t0 = nb_clock_seconds();
    for (int k = 0; k < frames; k++)
        if (nb_render_draw_hermite(r, h, &err) != NB_OK ||
            nb_frames_capture(fr, &err) != NB_OK)
            return fail(&err);
    if (nb_frames_finish(fr, &err) != NB_OK)
        return fail(&err);
    double both = nb_clock_seconds() - t0;
    printf("n,width,height,frames,draw_fps,draw_readback_fps\n%zu,%d,%d,%d,%.1f,%.1f\n", n,
           opt.width, opt.height, frames, frames / draw, frames / both);
    nb_frames_destroy(fr);
    nb_render_destroy(r);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
    return 0;
}
