/* picture_fixtures.h - what the picture suites share: PNG files read back
 * and their pixels, the two-body system, files in the test directory. */
#ifndef NB_PICTURE_FIXTURES_H
#define NB_PICTURE_FIXTURES_H

#include <dirent.h>
#include <math.h>
#include <png.h>

#include "cli_harness.h"

#define BACKGROUND_R 8          /* src/render.c's background */
#define BACKGROUND_G 8
#define BACKGROUND_B 16

/* ---- PNG files ------------------------------------------------------------ */

struct picture {
    int width, height;
    unsigned char *rgb;
};

static inline struct picture read_png(const char *path)
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

static inline int is_background(const unsigned char *c)
{
    return c[0] == BACKGROUND_R && c[1] == BACKGROUND_G && c[2] == BACKGROUND_B;
}

static inline int brightness(const unsigned char *c)
{
    return c[0] + c[1] + c[2];
}

/* The brightest column of row y in [from, to). */
static inline int brightest_column(const struct picture *p, int y, int from, int to)
{
    int best = from;
    for (int x = from; x < to; x++)
        if (brightness(pixel(p, x, y)) > brightness(pixel(p, best, y)))
            best = x;
    return best;
}

/* Where a point at x (z = y = 0) falls with the camera at distance d on
 * +z, field of view 45 degrees: the column of its pixel. */
static inline double expected_column(double x, double d, int width, int height)
{
    double f = 1.0 / tan(22.5 * 3.14159265358979323846 / 180), aspect = (double)width / height;
    return (1.0 + f / aspect * x / d) * 0.5 * width;
}

/* Two sprites at +-1 on x, seen from distance 4: two blobs at the expected
 * columns of the middle row, background between them and in the corners. */
static inline void check_two_blobs(const struct picture *p)
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


/* ---- run and md --frames ---------------------------------------------------- */

#define RUN_IN(pr, ...) cli_run_in((pr), g_dir, NULL, (const char *const[]){ __VA_ARGS__, NULL })

static inline void write_in(const char *name, const char *text)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    write_file(path, text);
}

static inline int entries(const char *dir)
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

static const char two_bodies[] __attribute__((unused)) = "1 0.001 -1 0 0 0 0 0\n2 0.001 1 0 0 0 0 0\n";

static inline void check_type_colours(const struct picture *p)
{
    int y = p->height / 2, mid = p->width / 2;
    const unsigned char *a = pixel(p, brightest_column(p, y, 0, mid), y);
    const unsigned char *b = pixel(p, brightest_column(p, y, mid, p->width), y);
    ck_assert_msg(a[0] > a[1] && a[1] > a[2] && a[0] > 150, "type 1 is %d,%d,%d", a[0], a[1],
                  a[2]);
    ck_assert_msg(b[2] > b[1] && b[1] > b[0] && b[2] > 150, "type 2 is %d,%d,%d", b[0], b[1],
                  b[2]);
}

#endif
