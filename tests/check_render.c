/* check_render.c - pictures: the renderer on known systems with a fixed
 * camera (the PNG read back, its pixels checked), run's and md's --frames
 * on every backend, the window of `glnbody view` under Xvfb with its
 * and each refusal: a bad --frame-size, an unwritable --frames directory,
 * --movie without ffmpeg; none leaves a partial file.  The window is
 * check_view's. */
#include <check.h>

#include "nb_host.h"
#include "picture_fixtures.h"
#include "render_internal.h"

/* ---- the renderer through the library -------------------------------------- */

/* A 64x64 picture of n particles at x (with types) from distance 4 on +z,
 * written and read back. */
static struct picture render_arrays_on(const struct nb_gl_options *level, size_t n,
                                       const double *x, const int *type,
                                       enum nb_render_color color)
{
    struct nb_gl *gl = NULL;
    struct nb_render *r = NULL;
    struct nb_render_options opt;
    struct nb_error err = { 0 };
    char path[1200];
    nb_render_options_default(&opt);
    opt.width = opt.height = 64;
    opt.color = color;
    opt.camera.distance = 4;
    opt.camera.azimuth = opt.camera.elevation = 0;
    opt.brightness = 1;
    test_dir_path(path, sizeof path, "picture.png");
    ck_assert_msg(nb_gl_create(&gl, level, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_create(&r, gl, &opt, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_draw_arrays(r, n, x, NULL, NULL, NULL, type, NULL, NULL, &err)
                  == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_write_png(r, path, &err) == NB_OK, "%s", err.message);
    nb_render_destroy(r);
    nb_gl_destroy(gl);
    return read_png(path);
}

static struct picture render_arrays(size_t n, const double *x, const int *type,
                                    enum nb_render_color color)
{
    return render_arrays_on(NULL, n, x, type, color);
}

START_TEST(test_one_particle_lights_the_centre)
{
    const double x[3] = { 0, 0, 0 };
    struct picture p = render_arrays(1, x, NULL, NB_COLOR_SPEED);
    ck_assert_int_eq(p.width, 64);
    ck_assert_int_eq(p.height, 64);
    /* The sprite's centre lies on the corner of the four middle pixels. */
    for (int y = 31; y <= 32; y++)
        for (int xx = 31; xx <= 32; xx++)
            ck_assert_int_gt(brightness(pixel(&p, xx, y)), 200);
    ck_assert(is_background(pixel(&p, 0, 0)));
    ck_assert(is_background(pixel(&p, 63, 0)));
    ck_assert(is_background(pixel(&p, 0, 63)));
    ck_assert(is_background(pixel(&p, 32, 5)));
    free(p.rgb);
}
END_TEST

START_TEST(test_two_particles_two_blobs)
{
    const double x[6] = { -1, 0, 0, 1, 0, 0 };
    struct picture p = render_arrays(2, x, NULL, NB_COLOR_SPEED);
    check_two_blobs(&p);
    free(p.rgb);
}
END_TEST

START_TEST(test_empty_frame_is_background)
{
    struct picture p = render_arrays(0, NULL, NULL, NB_COLOR_SPEED);
    for (int y = 0; y < p.height; y++)
        for (int x = 0; x < p.width; x++)
            ck_assert_msg(is_background(pixel(&p, x, y)), "pixel %d,%d is not the "
                          "background", x, y);
    free(p.rgb);
}
END_TEST

/* Type 1 warm red, type 2 blue (render_points.vert's table). */
/* The stream path's levels, where the browser page runs (OpenGL ES 3.0 is
 * WebGL 2): no explicit uniform locations, so the picture shaders' uniforms
 * are found by name.  Two blobs where they belong; then a Hermite run on
 * the fragment engine drawn from its textures, and the inspector over it. */
static const struct { enum nb_gl_api api; int major, minor; } stream_levels[] = {
    { NB_GL_API_GLES, 3, 0 }, { NB_GL_API_GL, 3, 3 }
};

START_TEST(test_pictures_on_stream_levels)
{
    struct nb_gl_options level;
    struct nb_error err = { 0 };
    struct nb_gl *gl = NULL;
    struct nb_forces *f = NULL;
    struct nb_hermite *h = NULL;
    struct nb_render *r = NULL;
    struct nb_hermite_params par;
    char text[1024] = "", path[1200];
    const double x[6] = { -1, 0, 0, 1, 0, 0 };
    nb_gl_options_default(&level);
    level.api = stream_levels[_i].api;
    level.version_major = stream_levels[_i].major;
    level.version_minor = stream_levels[_i].minor;
    struct picture p = render_arrays_on(&level, 2, x, NULL, NB_COLOR_SPEED);
    check_two_blobs(&p);
    free(p.rgb);

    nb_hermite_params_default(&par);
    ck_assert_msg(nb_gl_create(&gl, &level, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_forces_create(&f, gl, NB_ENGINE_FRAGMENT, &err) == NB_OK &&
                  nb_hermite_create_plummer(&h, f, 256, 5, &par, &err) == NB_OK &&
                  nb_hermite_integrate(h, 1.0 / 64, &err) == NB_OK &&
                  nb_render_create(&r, gl, NULL, &err) == NB_OK &&
                  nb_render_draw_hermite(r, h, &err) == NB_OK &&
                  nb_render_inspect_hermite(r, h, text, sizeof text, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_msg(strstr(text, "fragment") && strstr(text, "texels"), "inspector: %s", text);
    test_dir_path(path, sizeof path, "hermite.png");
    ck_assert_msg(nb_render_write_png(r, path, &err) == NB_OK, "%s", err.message);
    p = read_png(path);
    int lit = 0;
    for (int y = 0; y < p.height; y++)
        for (int xx = 0; xx < p.width; xx++)
            lit += !is_background(pixel(&p, xx, y));
    ck_assert_msg(lit > p.width * p.height / 100, "%d pixels lit", lit);
    free(p.rgb);
    nb_render_destroy(r);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    nb_gl_destroy(gl);
}
END_TEST


START_TEST(test_type_colours)
{
    const double x[6] = { -1, 0, 0, 1, 0, 0 };
    const int type[2] = { 1, 2 };
    struct picture p = render_arrays(2, x, type, NB_COLOR_TYPE);
    check_type_colours(&p);
    free(p.rgb);
}
END_TEST


/* Frames at t = 0 and 0.0625 on each backend and prediction: the first
 * from the engine's stream (compute buffers, fragment textures, the CPU's
 * upload) shows the two bodies where they are. */
static const char *const backends[][2] = {
    { "cpu", "host" }, { "compute", "host" }, { "compute", "gpu" },
    { "fragment", "host" }, { "fragment", "gpu" } };

START_TEST(test_run_frames)
{
    struct cli_run r;
    char dir[1200], path[1300];
    write_in("two.txt", two_bodies);
    RUN_IN(&r, "run", "--input", "two.txt", "--t-end", "0.0625", "--softening", "0.1",
           "--backend", backends[_i][0], "--predict", backends[_i][1], "--frames", "f",
           "--frame-every", "0.0625", "--frame-size", "96x64", "--camera", "4,0,0", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    test_dir_path(dir, sizeof dir, "f");
    ck_assert_int_eq(entries(dir), 2);
    snprintf(path, sizeof path, "%s/frame_00000.png", dir);
    struct picture p = read_png(path);
    ck_assert_int_eq(p.width, 96);
    ck_assert_int_eq(p.height, 64);
    check_two_blobs(&p);
    free(p.rgb);
    snprintf(path, sizeof path, "%s/frame_00001.png", dir);
    p = read_png(path);
    check_two_blobs(&p);
    free(p.rgb);
    cli_run_free(&r);
}
END_TEST

START_TEST(test_md_frames_type_colours)
{
    struct cli_run r;
    char path[1300];
    write_in("two.txt", "1 1 1.0 -1 0 0 0 0 0\n2 2 1.0 1 0 0 0 0 0\n");
    write_in("c.txt", "types 2\nmass 1 1\nmass 2 1\nlj 1 1 1 1\nlj 2 2 1 1\nlj 1 2 1 1\n");
    RUN_IN(&r, "md", "--input", "two.txt", "--coeffs", "c.txt", "--potential", "lj",
           "--cutoff", "2.5", "--dt", "0.001", "--steps", "2", "--frames", "f",
           "--frame-every", "1", "--frame-size", "96x64", "--camera", "4,0,0",
           "--color", "type", "--thermo", "thermo.csv", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    test_dir_path(path, sizeof path, "f");
    ck_assert_int_eq(entries(path), 3);
    test_dir_path(path, sizeof path, "f/frame_00002.png");
    struct picture p = read_png(path);
    check_type_colours(&p);
    free(p.rgb);
    cli_run_free(&r);
}
END_TEST

/* ---- the inspector's layout ------------------------------------------ */

/* Targets of one row (1024x1 texels) or far from square wrap into a
 * near-square in row order; square-ish 2-D targets keep their own. */
static const struct {
    size_t count;
    int width, height, cols, rows;
} layouts[] = {
    { 1024, 1024, 1, 32, 32 },      /* one row: 32x32, not a one-pixel line */
    { 2048, 1024, 2, 46, 45 },      /* 46^2 = 2116 >= 2048 > 45^2; 45 rows of 46 */
    { 4096, 4096, 1, 64, 64 },
    { 1000, 1, 1000, 32, 32 },      /* one column */
    { 3, 3, 1, 2, 2 },
    { 1, 1, 1, 1, 1 },
    { 4096, 64, 64, 64, 64 },       /* square: its own */
    { 4096, 128, 32, 128, 32 },     /* 4:1 still its own */
    { 8192, 256, 32, 91, 91 },      /* 8:1 wraps: 91^2 = 8281 >= 8192 > 90^2 */
    { 1000, 32, 32, 32, 32 },       /* a buffer of 1000 in 32x32: wrapped */
    { 0, 1, 1, 1, 1 },
};

START_TEST(test_inspect_layout)
{
    int cols = 0, rows = 0;
    nb_render_inspect_layout(layouts[_i].count, layouts[_i].width, layouts[_i].height, &cols,
                             &rows);
    ck_assert_msg(cols == layouts[_i].cols && rows == layouts[_i].rows,
                  "%zu elements of %dx%d shown as %dx%d, not %dx%d", layouts[_i].count,
                  layouts[_i].width, layouts[_i].height, cols, rows, layouts[_i].cols,
                  layouts[_i].rows);
}
END_TEST

/* Every 1-D size up to 5000 (odd ones, primes): all elements shown, no
 * empty row, and the sides differ by at most one. */
START_TEST(test_inspect_layout_near_square)
{
    for (size_t n = 1; n <= 5000; n++) {
        int cols, rows;
        nb_render_inspect_layout(n, (int)n, 1, &cols, &rows);
        ck_assert_msg((size_t)cols * (size_t)rows >= n && (size_t)cols * (size_t)(rows - 1) < n
                      && cols - rows >= 0 && cols - rows <= 1,
                      "%zu elements shown as %dx%d", n, cols, rows);
    }
}
END_TEST

/* md's --frame-every counts steps, like --dump-every: K = 2 over 5 steps
 * draws steps 0, 2 and 4, whatever --dt is. */
START_TEST(test_md_frame_every_counts_steps)
{
    struct cli_run r;
    char path[1300];
    RUN_IN(&r, "md", "--ic", "fcc", "--cells", "2", "--cutoff", "1.2", "--dt", "0.005",
           "--steps", "5", "--frames", "f", "--frame-every", "2", "--frame-size", "32x24",
           "--backend", "cpu", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    test_dir_path(path, sizeof path, "f");
    ck_assert_int_eq(entries(path), 3);
    cli_run_free(&r);
}
END_TEST

/* ---- refusals: one message, non-zero, no file ---------------------------- */

static const struct {
    const char *args[6];
    const char *needle;
} refusals[] = {
    { { "--frame-size", "0x10" }, "--frame-size" },
    { { "--frame-size", "640" }, "--frame-size" },
    { { "--frame-size", "640x-480" }, "--frame-size" },
    { { "--frame-size", "20000x10" }, "--frame-size" },
    { { "--frame-size", "axb" }, "--frame-size" },
    { { "--color", "mauve" }, "--color" },
    { { "--camera", "4,0" }, "--camera" },
    { { "--camera", "4,0,91" }, "--camera" },
};

START_TEST(test_refused_options)
{
    struct cli_run r;
    const char *args[16] = { "run", "--n", "8", "--t-end", "0.125", "--frames", "f",
                             "--frame-every", "0.0625" };
    int n = 9;
    for (int k = 0; refusals[_i].args[k]; k++)
        args[n++] = refusals[_i].args[k];
    args[n] = NULL;
    cli_run_in(&r, g_dir, NULL, args);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, refusals[_i].needle) != NULL, "%s", r.err);
    ck_assert_ptr_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);     /* one line */
    ck_assert_int_eq(entries(g_dir), 0);
    cli_run_free(&r);
}
END_TEST

/* A step count is a whole number >= 1: a time or a fraction is refused,
 * naming the option, before anything is written. */
static const char *const md_bad_every[] = { "0.5", "0", "-2", "1.5", "2x" };

START_TEST(test_md_frame_every_refused)
{
    struct cli_run r;
    RUN_IN(&r, "md", "--ic", "fcc", "--cells", "2", "--cutoff", "1.2", "--steps", "4",
           "--frames", "f", "--frame-every", md_bad_every[_i], "--backend", "cpu", "--quiet");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--frame-every") != NULL, "%s", r.err);
    ck_assert_ptr_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);     /* one line */
    ck_assert_int_eq(entries(g_dir), 0);
    cli_run_free(&r);
}
END_TEST

START_TEST(test_frame_options_need_frames)
{
    struct cli_run r;
    RUN_IN(&r, "run", "--n", "8", "--frame-every", "0.1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--frame-every needs --frames"));
    cli_run_free(&r);
    RUN_IN(&r, "run", "--n", "8", "--frames", "f");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--frames needs --frame-every"));
    ck_assert_int_eq(entries(g_dir), 0);
    cli_run_free(&r);
}
END_TEST

/* A directory that cannot be made (under a file) or is a file: the run
 * stops before its first step with one message, and writes nothing. */
START_TEST(test_unwritable_frames_dir)
{
    struct cli_run r;
    write_in("blocker", "a file\n");
    RUN_IN(&r, "run", "--n", "8", "--t-end", "0.125", "--frames", "blocker/sub",
           "--frame-every", "0.0625", "--energy-log", "log.csv", "--quiet");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "blocker/sub: cannot make the frame directory") != NULL,
                  "%s", r.err);
    ck_assert_int_eq(entries(g_dir), 1);
    cli_run_free(&r);
    RUN_IN(&r, "md", "--ic", "fcc", "--cells", "2", "--density", "0.8", "--temperature", "1",
           "--potential", "lj", "--cutoff", "1.2", "--dt", "0.005", "--steps", "4",
           "--frames", "blocker", "--frame-every", "2", "--quiet");
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "--frames blocker: not a directory (a file of that name "
                         "is there)") != NULL, "%s", r.err);
    ck_assert_int_eq(entries(g_dir), 1);
    cli_run_free(&r);
}
END_TEST

/* No ffmpeg on PATH (the binary is run by its absolute name): refused
 * before the run, nothing written. */
START_TEST(test_movie_without_ffmpeg)
{
    struct cli_run r;
    const char *env[] = { "PATH=/nonexistent", NULL };
    cli_run_in(&r, g_dir, env, (const char *const[]){ "run", "--n", "8", "--t-end", "0.125",
               "--movie", "m.mp4", "--frames", "f", "--frame-every", "0.0625", NULL });
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "--movie m.mp4: a movie needs ffmpeg, which is not "
                         "installed") != NULL, "%s", r.err);
    ck_assert_int_eq(entries(g_dir), 0);
    cli_run_free(&r);
}
END_TEST

/* With ffmpeg (optional at run time): a complete movie, no temporary. */
START_TEST(test_movie_with_ffmpeg)
{
    struct cli_run r;
    if (system("command -v ffmpeg >/dev/null 2>&1") != 0) {
        printf("check_render: ffmpeg is not installed; the movie test is skipped\n");
        return;
    }
    RUN_IN(&r, "run", "--n", "16", "--t-end", "0.25", "--movie", "m.mp4", "--frame-every",
           "0.0625", "--frame-size", "64x48", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(entries(g_dir), 1);
    char path[1200];
    test_dir_path(path, sizeof path, "m.mp4");
    char *data = read_file(path);
    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(memcmp(data + 4, "ftyp", 4), 0);
    free(data);
    cli_run_free(&r);
}
END_TEST

static Suite *render_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("refusals");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_refused_options, 0, (int)(sizeof refusals / sizeof *refusals));
    tcase_add_test(tc, test_frame_options_need_frames);
    tcase_add_loop_test(tc, test_md_frame_every_refused, 0,
                        (int)(sizeof md_bad_every / sizeof *md_bad_every));
    tcase_add_test(tc, test_movie_without_ffmpeg);
    suite_add_tcase(s, tc);

    tc = tcase_create("layout");
    tcase_add_loop_test(tc, test_inspect_layout, 0, (int)(sizeof layouts / sizeof *layouts));
    tcase_add_test(tc, test_inspect_layout_near_square);
    suite_add_tcase(s, tc);

    tc = tcase_create("pictures");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_one_particle_lights_the_centre);
    tcase_add_test(tc, test_two_particles_two_blobs);
    tcase_add_test(tc, test_empty_frame_is_background);
    tcase_add_test(tc, test_type_colours);
    tcase_add_loop_test(tc, test_pictures_on_stream_levels, 0,
                        (int)(sizeof stream_levels / sizeof *stream_levels));
    tcase_add_loop_test(tc, test_run_frames, 0, (int)(sizeof backends / sizeof *backends));
    tcase_add_test(tc, test_md_frames_type_colours);
    tcase_add_test(tc, test_md_frame_every_counts_steps);
    tcase_add_test(tc, test_unwritable_frames_dir);
    tcase_add_test(tc, test_movie_with_ffmpeg);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_render", render_suite, 1);
}
