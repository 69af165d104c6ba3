/* check_render.c - pictures: the renderer on known systems with a fixed
 * camera (the PNG read back, its pixels checked), run's and md's --frames
 * on every backend, the window of `glnbody view` under Xvfb with its
 * screenshot checked the same way, and each refusal: a bad --frame-size,
 * an unwritable --frames directory, --movie without ffmpeg, view without
 * a display; none leaves a partial file. */
#include <check.h>

#include <math.h>
#include <png.h>

#include "cli_harness.h"
#include "nb_host.h"
#include "render_internal.h"

#define BACKGROUND_R 8          /* src/render.c's background */
#define BACKGROUND_G 8
#define BACKGROUND_B 16

/* ---- PNG files ------------------------------------------------------------ */

struct picture {
    int width, height;
    unsigned char *rgb;
};

static struct picture read_png(const char *path)
{
    struct picture p = { 0 };
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_file(&image, path), "%s: %s", path,
                  image.message);
    image.format = PNG_FORMAT_RGB;
    p.width = (int)image.width;
    p.height = (int)image.height;
    p.rgb = malloc(PNG_IMAGE_SIZE(image));
    ck_assert_ptr_nonnull(p.rgb);
    ck_assert_msg(png_image_finish_read(&image, NULL, p.rgb, 0, NULL), "%s: %s", path,
                  image.message);
    return p;
}

static const unsigned char *pixel(const struct picture *p, int x, int y)
{
    return &p->rgb[3 * ((size_t)y * p->width + x)];
}

static int is_background(const unsigned char *c)
{
    return c[0] == BACKGROUND_R && c[1] == BACKGROUND_G && c[2] == BACKGROUND_B;
}

static int brightness(const unsigned char *c)
{
    return c[0] + c[1] + c[2];
}

/* The brightest column of row y in [from, to). */
static int brightest_column(const struct picture *p, int y, int from, int to)
{
    int best = from;
    for (int x = from; x < to; x++)
        if (brightness(pixel(p, x, y)) > brightness(pixel(p, best, y)))
            best = x;
    return best;
}

/* Where a point at x (z = y = 0) falls with the camera at distance d on
 * +z, field of view 45 degrees: the column of its pixel. */
static double expected_column(double x, double d, int width, int height)
{
    double f = 1.0 / tan(22.5 * 3.14159265358979323846 / 180), aspect = (double)width / height;
    return (1.0 + f / aspect * x / d) * 0.5 * width;
}

/* Two sprites at +-1 on x, seen from distance 4: two blobs at the expected
 * columns of the middle row, background between them and in the corners. */
static void check_two_blobs(const struct picture *p)
{
    int y = p->height / 2, mid = p->width / 2;
    int left = brightest_column(p, y, 0, mid), right = brightest_column(p, y, mid, p->width);
    double want_left = expected_column(-1, 4, p->width, p->height);
    double want_right = expected_column(1, 4, p->width, p->height);
    ck_assert_msg(fabs(left + 0.5 - want_left) <= 1.5, "left blob at column %d, expected "
                  "%.1f", left, want_left);
    ck_assert_msg(fabs(right + 0.5 - want_right) <= 1.5, "right blob at column %d, "
                  "expected %.1f", right, want_right);
    ck_assert_int_gt(brightness(pixel(p, left, y)), 200);
    ck_assert_int_gt(brightness(pixel(p, right, y)), 200);
    ck_assert(is_background(pixel(p, mid, y)));
    ck_assert(is_background(pixel(p, p->width - 1, p->height - 1)));
}

/* ---- the renderer through the library -------------------------------------- */

/* A 64x64 picture of n particles at x (with types) from distance 4 on +z,
 * written and read back. */
static struct picture render_arrays(size_t n, const double *x, const int *type,
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
    ck_assert_msg(nb_gl_create(&gl, NULL, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_create(&r, gl, &opt, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_draw_arrays(r, n, x, NULL, NULL, NULL, type, NULL, NULL, &err)
                  == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_write_png(r, path, &err) == NB_OK, "%s", err.message);
    nb_render_destroy(r);
    nb_gl_destroy(gl);
    return read_png(path);
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
static void check_type_colours(const struct picture *p)
{
    int y = p->height / 2, mid = p->width / 2;
    const unsigned char *a = pixel(p, brightest_column(p, y, 0, mid), y);
    const unsigned char *b = pixel(p, brightest_column(p, y, mid, p->width), y);
    ck_assert_msg(a[0] > a[1] && a[1] > a[2] && a[0] > 150, "type 1 is %d,%d,%d", a[0], a[1],
                  a[2]);
    ck_assert_msg(b[2] > b[1] && b[1] > b[0] && b[2] > 150, "type 2 is %d,%d,%d", b[0], b[1],
                  b[2]);
}

START_TEST(test_type_colours)
{
    const double x[6] = { -1, 0, 0, 1, 0, 0 };
    const int type[2] = { 1, 2 };
    struct picture p = render_arrays(2, x, type, NB_COLOR_TYPE);
    check_type_colours(&p);
    free(p.rgb);
}
END_TEST

/* ---- run and md --frames ---------------------------------------------------- */

#define RUN_IN(pr, ...) cli_run_in((pr), g_dir, NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void write_in(const char *name, const char *text)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    write_file(path, text);
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        count += e->d_name[0] != '.';
    closedir(d);
    return count;
}

static const char two_bodies[] = "1 0.001 -1 0 0 0 0 0\n2 0.001 1 0 0 0 0 0\n";

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
    ck_assert_msg(strstr(r.err, "blocker: cannot make the frame directory: a file of that "
                         "name exists") != NULL, "%s", r.err);
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

/* ---- the window ------------------------------------------------------------ */

/* view md parses md's options with md's code: a file option is refused
 * by name, md's own checks speak for the system, before any window. */
START_TEST(test_view_md_refusals)
{
    static const struct {
        const char *args[5], *needle;
    } cases[] = {
        { { "--thermo", "t.csv" }, "view md: --thermo writes files" },
        { { "--frames", "f" }, "view md: --frames writes files" },
        { { "--frame-size", "64x64" }, "--size WxH" },
        { { "--gpu", "0" }, "view md: --gpu chooses a headless context" },
        { { "--ic", "grid" }, "--ic grid needs --energy" },
        { { "--shift" }, "--shift needs --cutoff" },
    };
    const char *env[] = { "DISPLAY=", "WAYLAND_DISPLAY=", NULL };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct cli_run r;
        const char *args[8] = { "view", "md" };
        int n = 2;
        for (int j = 0; cases[k].args[j]; j++)
            args[n++] = cases[k].args[j];
        args[n] = NULL;
        cli_run_in(&r, g_dir, env, args);
        ck_assert_msg(r.status == 2, "%s: status %d: %s", cases[k].args[0], r.status, r.err);
        ck_assert_msg(strstr(r.err, cases[k].needle), "%s", r.err);
        ck_assert_ptr_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
        ck_assert_int_eq(entries(g_dir), 0);
        cli_run_free(&r);
    }
}
END_TEST

/* Whether `--name` is an option line ("  --name ...") of a --help text. */
static int help_lists(const char *help, const char *name)
{
    for (const char *p = strstr(help, "\n  --"); p; p = strstr(p + 1, "\n  --")) {
        size_t len = strcspn(p + 5, " \n");
        if (len == strlen(name) && strncmp(p + 5, name, len) == 0)
            return 1;
    }
    return 0;
}

/* Every option of md is view md's (the same table) or refused by it with
 * one message naming it: the two cannot drift apart. */
START_TEST(test_view_md_takes_md_options)
{
    struct cli_run md, view;
    RUN_IN(&md, "md", "--help");
    RUN_IN(&view, "view", "md", "--help");
    ck_assert_msg(md.status == 0 && view.status == 0, "%s%s", md.err, view.err);
    int taken = 0, refused = 0;
    for (const char *p = strstr(md.out, "\n  --"); p; p = strstr(p + 1, "\n  --")) {
        char name[64];
        size_t len = strcspn(p + 5, " \n");
        ck_assert_uint_lt(len, sizeof name);
        memcpy(name, p + 5, len);
        name[len] = '\0';
        if (help_lists(view.out, name)) {
            taken++;
            continue;
        }
        struct cli_run r;
        char option[80], needle[100];
        snprintf(option, sizeof option, "--%s", name);
        snprintf(needle, sizeof needle, "view md: %s ", option);
        int flag = p[5 + len] != ' ' || p[6 + len] == ' ';     /* no metavar */
        if (flag)
            RUN_IN(&r, "view", "md", option);
        else
            RUN_IN(&r, "view", "md", option, "x");
        ck_assert_msg(r.status == 2 && strstr(r.err, needle),
                      "md's %s is neither in view md --help nor refused by it: %d %s",
                      option, r.status, r.err);
        refused++;
        cli_run_free(&r);
    }
    ck_assert_int_gt(taken, 20);
    ck_assert_int_gt(refused, 10);
    ck_assert_int_eq(entries(g_dir), 0);
    cli_run_free(&md);
    cli_run_free(&view);
}
END_TEST

START_TEST(test_view_without_display)
{
    struct cli_run r;
    const char *env[] = { "DISPLAY=", "WAYLAND_DISPLAY=", NULL };
    cli_run_in(&r, g_dir, env, (const char *const[]){ "view", "--n", "8", NULL });
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "no display: neither DISPLAY nor WAYLAND_DISPLAY is set") &&
                  strstr(r.err, "--frames"), "%s", r.err);
    ck_assert_ptr_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
    cli_run_free(&r);
}
END_TEST

/* The window under Xvfb (xvfb-run): three frames of the two bodies, the
 * screenshot's middle row checked as the headless picture's. */
START_TEST(test_view_under_xvfb)
{
    char command[4096], path[1200];
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        printf("check_render: xvfb-run is not installed (Debian xvfb); the window test "
               "is skipped\n");
        return;
    }
    write_in("two.txt", two_bodies);
    snprintf(command, sizeof command, "cd '%s' && xvfb-run -a -s '-screen 0 640x480x24' "
             "'%s' view --input two.txt --softening 0.1 --size 320x240 --camera 4,0,0 "
             "--screenshot shot.png --screenshot-after 3 --quiet > out.txt 2>&1",
             g_dir, g_bin);
    int status = system(command);
    test_dir_path(path, sizeof path, "out.txt");
    char *out = read_file(path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "view under Xvfb: %s",
                  out ? out : "");
    free(out);
    test_dir_path(path, sizeof path, "shot.png");
    struct picture p = read_png(path);
    ck_assert_int_eq(p.width, 320);
    ck_assert_int_eq(p.height, 240);
    check_two_blobs(&p);
    /* The captions (top left) are there: white text over the corner. */
    int lit = 0;
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 160; x++)
            lit += brightness(pixel(&p, x, y)) > 600;
    ck_assert_int_gt(lit, 20);
    free(p.rgb);

    /* The texture inspector over the fragment pipeline's targets: its
     * colour bar runs from black (left) to white (right) at the top right,
     * and its legend names the targets. */
    snprintf(command, sizeof command, "cd '%s' && xvfb-run -a -s '-screen 0 640x480x24' "
             "'%s' view --input two.txt --softening 0.1 --size 640x360 --camera 4,0,0 "
             "--backend fragment --inspect --screenshot inspect.png --screenshot-after 2 "
             "--quiet > out.txt 2>&1", g_dir, g_bin);
    status = system(command);
    test_dir_path(path, sizeof path, "out.txt");
    out = read_file(path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "view --inspect: %s",
                  out ? out : "");
    free(out);
    test_dir_path(path, sizeof path, "inspect.png");
    p = read_png(path);
    int y = 360 / 60 + 2 + (360 / 40 + 4) / 2, x0 = 640 - (int)(0.38 * 640);
    ck_assert_int_lt(brightness(pixel(&p, x0 + 1, y)), 60);
    ck_assert_int_gt(brightness(pixel(&p, 640 - 360 / 60 - 4, y)), 700);
    /* Each panel is titled (white text) in the strip under the colour bar. */
    int titled = 0, title_y = 2 * (360 / 60 + 2) + 360 / 40 + 4;
    for (int ty = title_y; ty < title_y + 20; ty++)
        for (int tx = x0; tx < x0 + 160; tx++)
            titled += brightness(pixel(&p, tx, ty)) > 600;
    ck_assert_int_gt(titled, 20);
    free(p.rgb);
}
END_TEST

/* Runs `glnbody view ARGS --screenshot NAME --screenshot-after 3 --quiet`
 * under Xvfb in the test directory (1: xvfb-run is missing) and reads the
 * picture back. */
static int view_in_xvfb(const char *args, const char *name, struct picture *p)
{
    char command[4096], path[1200];
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        printf("check_render: xvfb-run is not installed (Debian xvfb); the window test "
               "is skipped\n");
        return 1;
    }
    snprintf(command, sizeof command, "cd '%s' && xvfb-run -a -s '-screen 0 640x480x24' "
             "'%s' view %s --screenshot %s --screenshot-after 3 --quiet > out.txt 2>&1",
             g_dir, g_bin, args, name);
    int status = system(command);
    test_dir_path(path, sizeof path, "out.txt");
    char *out = read_file(path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "view %s: %s", args,
                  out ? out : "");
    free(out);
    test_dir_path(path, sizeof path, name);
    *p = read_png(path);
    return 0;
}

/* Pixels below the captions (the top half) where two pictures differ by
 * more than a rounding in some channel. */
static int pixels_differing(const struct picture *a, const struct picture *b)
{
    int count = 0;
    ck_assert_int_eq(a->width, b->width);
    ck_assert_int_eq(a->height, b->height);
    for (int y = a->height / 2; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            for (int k = 0; k < 3; k++)
                if (abs(pixel(a, x, y)[k] - pixel(b, x, y)[k]) > 8) {
                    count++;
                    break;
                }
    return count;
}

/* view md runs md's systems, made by md's code: two typed atoms from a
 * snapshot and a --coeffs table (their type colours where they are), and
 * an ionic crystal (Na+ and Cl-) whose third frame is md --frames' picture
 * of step 3 (the same system, camera and type colours). */
START_TEST(test_view_md_under_xvfb)
{
    struct cli_run r;
    struct picture p, q;
    char path[1200];
    write_in("two.txt", "1 1 1.0 -1 0 0 0 0 0\n2 2 1.0 1 0 0 0 0 0\n");
    write_in("c.txt", "types 2\nmass 1 1\nmass 2 1\nlj 1 1 1 1\nlj 2 2 1 1\nlj 1 2 1 1\n");
    if (view_in_xvfb("md --input two.txt --coeffs c.txt --potential lj --cutoff 2.5 "
                     "--dt 0.001 --steps-per-frame 1 --size 320x240 --camera 4,0,0 "
                     "--color type", "types.png", &p))
        return;
    ck_assert_int_eq(p.width, 320);
    check_type_colours(&p);
    free(p.rgb);

    ck_assert_int_eq(view_in_xvfb("md --ic ionic --cells 2 --color type --size 320x240 "
                                  "--backend cpu --steps-per-frame 1", "ionic.png", &p), 0);
    RUN_IN(&r, "md", "--ic", "ionic", "--cells", "2", "--steps", "3", "--frames", "f",
           "--frame-every", "3", "--frame-size", "320x240", "--color", "type",
           "--backend", "cpu", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    test_dir_path(path, sizeof path, "f/frame_00001.png");
    q = read_png(path);
    int lit = 0;
    for (int y = p.height / 2; y < p.height; y++)
        for (int x = 0; x < p.width; x++)
            lit += !is_background(pixel(&q, x, y));
    ck_assert_int_gt(lit, 1000);
    int differing = pixels_differing(&p, &q);
    ck_assert_msg(differing < lit / 100, "view md and md --frames differ in %d of %d "
                  "pixels", differing, lit);
    free(p.rgb);
    free(q.rgb);
}
END_TEST

/* view continues a run's checkpoint (run --checkpoint, view --restart):
 * the two bodies where the run left them. */
START_TEST(test_view_restart_under_xvfb)
{
    struct cli_run r;
    struct picture p;
    write_in("two.txt", two_bodies);
    RUN_IN(&r, "run", "--input", "two.txt", "--softening", "0.1", "--t-end", "0.0625",
           "--checkpoint", "two.ckpt", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    if (view_in_xvfb("--restart two.ckpt --size 320x240 --camera 4,0,0",
                     "restart.png", &p))
        return;
    check_two_blobs(&p);
    free(p.rgb);
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
    tcase_add_test(tc, test_view_without_display);
    tcase_add_test(tc, test_view_md_refusals);
    tcase_add_test(tc, test_view_md_takes_md_options);
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
    tcase_add_loop_test(tc, test_run_frames, 0, (int)(sizeof backends / sizeof *backends));
    tcase_add_test(tc, test_md_frames_type_colours);
    tcase_add_test(tc, test_md_frame_every_counts_steps);
    tcase_add_test(tc, test_unwritable_frames_dir);
    tcase_add_test(tc, test_movie_with_ffmpeg);
    tcase_add_test(tc, test_view_under_xvfb);
    tcase_add_test(tc, test_view_md_under_xvfb);
    tcase_add_test(tc, test_view_restart_under_xvfb);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_render", render_suite, 1);
}
