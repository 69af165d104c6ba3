/* check_view.c - the window of `glnbody view`: its refusals without a
 * display, view md's options, and under Xvfb its screenshot checked as
 * the headless pictures are (check_render). */
#include <check.h>

#include "picture_fixtures.h"

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


static Suite *view_suite(void)
{
    Suite *s = suite_create("view");
    TCase *tc = tcase_create("refusals");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_view_without_display);
    tcase_add_test(tc, test_view_md_refusals);
    tcase_add_test(tc, test_view_md_takes_md_options);
    suite_add_tcase(s, tc);

    tc = tcase_create("window");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_view_under_xvfb);
    tcase_add_test(tc, test_view_md_under_xvfb);
    tcase_add_test(tc, test_view_restart_under_xvfb);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_view", view_suite, 1);
}
