/* check_cli_shaders.c - shaders that do not load: a GLSL compile error
 * and missing SPIR-V, each named in the one message of a failed run.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody, from the project
 * root) through cli_harness.h; every file lives under one mkdtemp
 * directory, removed at the end.  Skipped without GL. */
#include <check.h>

#include "cli_fixtures.h"

/* ---- shaders that do not load ------------------------------------------ */

static const char *const shader_backends[] = { "compute", "fragment" };

/* The glsl/ directory alone is enough for --shaders glsl; with a syntax
 * error appended to its ga.glsl the run fails naming the file. */
START_TEST(test_shader_compile_error)
{
    const char *backend = shader_backends[_i];
    const char *in = in_dir("in.txt"), *out = in_dir("out.txt");
    const char *shaders = in_dir("shaders");
    write_file(in, VALID);
    ck_assert_int_eq(mkdir(shaders, 0700), 0);
    copy_directory("glsl", fmt("%s/glsl", shaders));
    const char *env[] = { fmt("GLNBODY_SHADER_DIR=%s", shaders), NULL };

    struct cli_run r;
    RUN_ENV(&r, env, "forces", "--shaders", "glsl", "--backend", backend, "--input", in,
            "--softening", "0", "--output", out);
    assert_success(&r);
    ck_assert_msg(path_exists(out), "control run with the copied glsl/ wrote no output");
    ck_assert_int_eq(unlink(out), 0);
    cli_run_free(&r);

    FILE *fp = fopen(fmt("%s/glsl/ga.glsl", shaders), "a");
    ck_assert_ptr_nonnull(fp);
    fputs("\nfloat broken = ;  // syntax error added by check_cli\n", fp);
    ck_assert_int_eq(fclose(fp), 0);
    RUN_ENV(&r, env, "forces", "--shaders", "glsl", "--backend", backend, "--input", in,
            "--softening", "0", "--output", out);
    ck_assert_msg(r.status == 1, "exit status %d, expected 1; stderr: %s", r.status, r.err);
    ck_assert_msg(*r.out == '\0', "stdout not empty: %s", r.out);
    ck_assert_msg(strstr(r.err, "ga.glsl") != NULL, "message does not name ga.glsl: %s",
                  r.err);
    ck_assert_msg(strstr(r.err, "compile") != NULL, "message does not say compile: %s",
                  r.err);
    ck_assert(!path_exists(out));
    const char *const names[] = { "in.txt", "shaders", NULL };
    assert_dir_holds_only(g_dir, names);
    cli_run_free(&r);
}
END_TEST

/* --shaders spirv with an empty spirv/: the message names the .spv file. */
START_TEST(test_shader_spirv_missing)
{
    const char *backend = shader_backends[_i];
    const char *in = in_dir("in.txt"), *out = in_dir("out.txt");
    const char *shaders = in_dir("shaders");
    write_file(in, VALID);
    ck_assert_int_eq(mkdir(shaders, 0700), 0);
    ck_assert_int_eq(mkdir(fmt("%s/spirv", shaders), 0700), 0);
    const char *env[] = { fmt("GLNBODY_SHADER_DIR=%s", shaders), NULL };

    struct cli_run r;
    RUN_ENV(&r, env, "forces", "--shaders", "spirv", "--backend", backend, "--input", in,
            "--softening", "0", "--output", out);
    const char *needles[] = { fmt("%s/spirv/", shaders), ".spv", strerror(ENOENT), NULL };
    assert_failure(&r, 1, needles);
    ck_assert(!path_exists(out));
    const char *const names[] = { "in.txt", "shaders", NULL };
    assert_dir_holds_only(g_dir, names);
    cli_run_free(&r);
}
END_TEST

static Suite *cli_shaders_suite(void)
{
    Suite *s = suite_create("cli_shaders");
    TCase *tc = tcase(s, "shaders");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_loop_test(tc, test_shader_compile_error, 0, COUNT(shader_backends));
    tcase_add_loop_test(tc, test_shader_spirv_missing, 0, COUNT(shader_backends));
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_shaders", cli_shaders_suite, 1);
}
