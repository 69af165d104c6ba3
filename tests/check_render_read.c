/* check_render_read.c - pictures and inspector panels read back as arrays
 * (nb_render_pixels, nb_md_inspect_panel, nb_hermite_inspect_panel): the
 * pixels of a frame against the PNG file of the same frame, and the MD
 * force panel against the double CPU reference within float rounding. */
#include <check.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "gl_suite.h"

static struct nb_gl *gl;
static uint64_t seed;

/* The RGB rows of a PNG file written by nb_render_write_png. */
static unsigned char *read_png_rgb(const char *path, int w, int h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    ck_assert(png_image_begin_read_from_file(&img, path));
    ck_assert_int_eq((int)img.width, w);
    ck_assert_int_eq((int)img.height, h);
    img.format = PNG_FORMAT_RGB;
    unsigned char *rgb = malloc((size_t)w * h * 3);
    ck_assert(rgb && png_image_finish_read(&img, NULL, rgb, 0, NULL));
    return rgb;
}

START_TEST(test_pixels_equal_the_png)
{
    struct nb_render *r = NULL;
    struct nb_render_options opt;
    struct nb_error err = { 0 };
    const double x[9] = { -1, 0, 0, 1, 0.5, 0, 0, -0.5, 0.25 };
    unsigned char rgb[48 * 40 * 3];
    char path[] = "/tmp/check_render_read_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    nb_render_options_default(&opt);
    opt.width = 48;
    opt.height = 40;
    ck_assert_msg(nb_render_create(&r, gl, &opt, &err) == NB_OK, "%s", err.message);
    ck_assert_int_eq(nb_render_pixels(r, rgb, sizeof rgb, &err), NB_ERR_ARGS);  /* no frame */
    ck_assert_msg(nb_render_draw_arrays(r, 3, x, NULL, NULL, NULL, NULL, NULL, NULL, &err)
                  == NB_OK, "%s", err.message);
    ck_assert_int_eq(nb_render_pixels(r, rgb, sizeof rgb - 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "48x40"));
    ck_assert_msg(nb_render_pixels(r, rgb, sizeof rgb, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_render_write_png(r, path, &err) == NB_OK, "%s", err.message);
    unsigned char *png = read_png_rgb(path, 48, 40);
    ck_assert(memcmp(png, rgb, sizeof rgb) == 0);
    free(png);
    remove(path);
    nb_render_destroy(r);
}
END_TEST

START_TEST(test_md_force_panel_against_cpu)
{
    struct nb_md *md = NULL;
    struct nb_md_params par;
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_inspect_panel info;
    nb_md_params_default(&par);
    par.cutoff = 2.5;
    par.shift = 1;
    ck_assert_msg(nb_md_create_fcc(&md, gl, NB_ENGINE_COMPUTE, 3, 0.8442, 1.0, seed, &par,
                                   &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_md_step(md, 3, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(nb_md_inspect_panel(md, -1, &info, NULL, 0, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_int_eq(info.panels, 1);
    ck_assert_int_eq(nb_md_inspect_panel(md, 1, &info, NULL, 0, &err), NB_ERR_ARGS);
    ck_assert_msg(nb_md_inspect_panel(md, 0, &info, NULL, 0, &err) == NB_OK, "%s",
                  err.message);
    size_t n = nb_md_count(md);
    ck_assert_uint_eq(info.count, n);
    ck_assert_int_eq(nb_md_inspect_panel(md, 0, &info, (float[4]){ 0 }, 4, &err), NB_ERR_ARGS);
    float *values = malloc(4 * n * sizeof *values);
    ck_assert_msg(nb_md_inspect_panel(md, 0, &info, values, 4 * n, &err) == NB_OK, "%s",
                  err.message);
    /* The reference: the same system in double, at the same positions. */
    ck_assert(nb_md_fcc(&p, &box, 3, 0.8442, 1.0, seed, &err) == NB_OK);
    ck_assert(nb_md_get_state(md, p.x, NULL, &err) == NB_OK);
    struct nb_md_potential pot;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    pot.cutoff = 2.5;
    pot.shift = 1;
    int *type = malloc(n * sizeof *type);
    double *f = malloc(3 * n * sizeof *f), *pe = malloc(n * sizeof *pe);
    double *vir = malloc(n * sizeof *vir);
    for (size_t i = 0; i < n; i++)
        type[i] = 1;
    struct nb_md_system sys = { .n = n, .type = type, .m = p.m, .pot = &pot, .box = &box };
    ck_assert_msg(nb_md_cpu_forces(&sys, p.x, f, pe, vir, &err) == NB_OK, "%s", err.message);
    /* Float pair terms summed in float over fewer than n neighbours: within
     * n float roundings of the largest sum's scale (|f| of a crystal atom
     * is below its pair terms' sum, about 100 here). */
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabs(values[4 * i + k] - f[3 * i + k]) < n * 0x1p-24 * 200,
                          "atom %zu: %g against %g", i, values[4 * i + k], f[3 * i + k]);
        ck_assert(fabs(values[4 * i + 3] - pe[i]) < n * 0x1p-24 * 20);
    }
    free(values); free(type); free(f); free(pe); free(vir);
    nb_particles_free(&p);
    nb_md_destroy(md);
}
END_TEST

START_TEST(test_cpu_run_has_no_panels)
{
    struct nb_forces *f = NULL;
    struct nb_hermite *h = NULL;
    struct nb_error err = { 0 };
    struct nb_inspect_panel info;
    struct nb_hermite_params par;
    nb_hermite_params_default(&par);
    ck_assert(nb_forces_create(&f, NULL, NB_ENGINE_CPU, &err) == NB_OK);
    ck_assert(nb_hermite_create_plummer(&h, f, 16, seed, &par, &err) == NB_OK);
    ck_assert(nb_hermite_inspect_panel(h, -1, &info, NULL, 0, &err) == NB_OK);
    ck_assert_int_eq(info.panels, 0);
    ck_assert_int_eq(nb_hermite_inspect_panel(h, 0, &info, NULL, 0, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_hermite_inspect_panel(NULL, -1, &info, NULL, 0, &err), NB_ERR_ARGS);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render_read");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_pixels_equal_the_png);
    tcase_add_test(tc, test_md_force_panel_against_cpu);
    tcase_add_test(tc, test_cpu_run_has_no_panels);
    suite_add_tcase(s, tc);
    return run_gl_suite("check_render_read", s, &gl, &seed);
}
