/* check_cli_help.c - the help texts of glnbody and its commands, no
 * arguments and an unknown command.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody, from the project
 * root) through cli_harness.h; every file lives under one mkdtemp
 * directory, removed at the end.  Needs no GL. */
#include <check.h>

#include "cli_fixtures.h"
#include "glnbody.h"     /* NB_VERSION_*, which --version must print */

/* ---- help and commands ------------------------------------------------- */

static void assert_help(const char *command, const char *const *options)
{
    struct cli_run r;
    if (command)
        RUN(&r, command, "--help");
    else
        RUN(&r, "--help");
    assert_success(&r);
    ck_assert_msg(strncmp(r.out, "usage: glnbody", 14) == 0, "help does not start "
                  "with usage: %s", r.out);
    for (const char *const *o = options; *o; o++)
        ck_assert_msg(has_option(r.out, *o), "%s --help does not mention %s:\n%s",
                      command ? command : "glnbody", *o, r.out);
    cli_run_free(&r);
}

START_TEST(test_help_main)
{
    const char *const commands[] = { "forces", "bench", "compare", "shaders",
                                     "GLNBODY_SHADER_DIR", NULL };
    assert_help(NULL, commands);
}
END_TEST

START_TEST(test_help_forces)
{
    const char *const options[] = { "--input", "--softening", "--backend", "--variant",
                                    "--output", "--gpu", "--shaders", "--debug",
                                    "--help", NULL };
    assert_help("forces", options);
}
END_TEST

START_TEST(test_help_bench)
{
    const char *const options[] = { "--kernel", "--backend", "--variant", "--n",
                                    "--runs", "--warmup", "--softening", "--seed",
                                    "--csv", "--gpu", "--shaders", "--debug",
                                    "--help", NULL };
    assert_help("bench", options);
}
END_TEST

START_TEST(test_help_compare)
{
    const char *const options[] = { "--n", "--softening", "--seed", "--backends",
                                     "--gpu", "--shaders", "--debug", "--help", NULL };
    assert_help("compare", options);
}
END_TEST

/* --help wins over missing required options and needs no input file. */
START_TEST(test_help_forces_alone)
{
    struct cli_run r;
    RUN(&r, "forces", "--backend", "cpu", "--help");
    assert_success(&r);
    ck_assert(has_option(r.out, "--input"));
    cli_run_free(&r);
}
END_TEST

START_TEST(test_no_arguments)
{
    struct cli_run r;
    const char *const none[] = { NULL };
    cli_run_in(&r, NULL, NULL, none);
    ck_assert_msg(r.status == 2, "exit status %d, expected 2", r.status);
    ck_assert_msg(strstr(r.err, "usage") != NULL, "no usage on stderr: %s", r.err);
    ck_assert_msg(*r.out == '\0', "stdout not empty: %s", r.out);
    cli_run_free(&r);
}
END_TEST

START_TEST(test_unknown_command)
{
    struct cli_run r;
    RUN(&r, "frobnicate", "--help");
    const char *needles[] = { "frobnicate", NULL };
    assert_failure(&r, 2, needles);
    cli_run_free(&r);
}
END_TEST

/* --version: the version of host/glnbody.h (the one place it is written),
 * then the optional features this build has. */
START_TEST(test_version)
{
    struct cli_run r;
    char want[64];
    snprintf(want, sizeof want, "glnbody %d.%d.%d\nfeatures: mpi ", NB_VERSION_MAJOR,
             NB_VERSION_MINOR, NB_VERSION_PATCH);
    RUN(&r, "--version");
    assert_success(&r);
    ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "--version printed:\n%s", r.out);
    cli_run_free(&r);
    RUN(&r, "--version", "run");
    const char *needles[] = { "--version", "'run'", NULL };
    assert_failure(&r, 2, needles);
    cli_run_free(&r);
}
END_TEST

static Suite *cli_help_suite(void)
{
    Suite *s = suite_create("cli_help");
    TCase *tc = tcase(s, "help");
    tcase_add_test(tc, test_help_main);
    tcase_add_test(tc, test_help_forces);
    tcase_add_test(tc, test_help_bench);
    tcase_add_test(tc, test_help_compare);
    tcase_add_test(tc, test_help_forces_alone);
    tcase_add_test(tc, test_no_arguments);
    tcase_add_test(tc, test_unknown_command);
    tcase_add_test(tc, test_version);
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_help", cli_help_suite, 0);
}
