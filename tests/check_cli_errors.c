/* check_cli_errors.c - `glnbody forces` refusing bad input: one message
 * line naming the culprit, exit 2 for a bad command line and 1 for other
 * failures, and no partial or clobbered output file.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody, from the project
 * root) through cli_harness.h; every file lives under one mkdtemp
 * directory, removed at the end.  Skipped without GL: the --variant
 * checks need the GPU backends. */
#include <check.h>

#include "cli_fixtures.h"

/* ---- forces errors ----------------------------------------------------- */

/* In args and needles: @IN the input path, @OUT the output path, @DIR the
 * test directory, @ENOENT / @EISDIR the strerror texts.  Unless the args
 * name --output, "--output @OUT" is appended. */
static const struct bad_case {
    const char *name;
    const char *input;          /* content of @IN; NULL: no such file */
    const char *args[12];
    int status;
    const char *needles[4];
} bad_cases[] = {
    { "missing file", NULL, { "--input", "@IN", "--softening", "0", "--backend", "cpu" },
      1, { "@IN", "@ENOENT" } },
    { "input is a directory", NULL, { "--input", "@DIR", "--softening", "0",
      "--backend", "cpu" }, 1, { "@DIR", "@EISDIR" } },
    { "malformed number", "# x\n1 1 0 0 0 0 0 0\n\n2 1 1x 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:4", "1x" } },
    { "malformed id", "1.5 1 0 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:1", "1.5" } },
    { "nan", "1 1 0 0 0 0 0 0\n2 1 nan 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:2", "nan" } },
    { "inf", "1 1 0 0 0 0 0 0\n2 1 0 0 0 inf 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:2", "inf" } },
    { "infinite mass", "1 -inf 0 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:1", "inf" } },
    { "overflow", "1 1 0 1e999 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:1", "1e999" } },
    { "negative mass", "1 1 0 0 0 0 0 0\n2 -0.5 1 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1,
      { "@IN:2", "negative mass" } },
    { "7 columns", "1 1 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:1", "column" } },
    { "10 columns", "1 0 1 0 0 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:1", "column" } },
    { "8 then 9 columns", "1 1 0 0 0 0 0 0\n# c\n2 0 1 1 0 0 0 0 0\n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN:3", "column" } },
    { "empty file", "",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1, { "@IN", "empty" } },
    { "only comments", "# nothing\n\n  \n",
      { "--input", "@IN", "--softening", "0", "--backend", "cpu" }, 1,
      { "@IN", "no particles" } },
    { "bad file on a GPU backend", "1 1 0 0 0 0 0 0\n2 1 0 0 0 0 0 x\n",
      { "--input", "@IN", "--softening", "0", "--backend", "compute" }, 1, { "@IN:2", "'x'" } },
    { "no --softening", VALID, { "--input", "@IN", "--backend", "cpu" }, 2,
      { "--softening" } },
    { "no --input", VALID, { "--softening", "0", "--backend", "cpu" }, 2, { "--input" } },
    { "--softening without value", VALID,
      { "--input", "@IN", "--backend", "cpu", "--output", "@OUT", "--softening" }, 2,
      { "--softening" } },
    { "negative softening", VALID,
      { "--input", "@IN", "--softening", "-0.1", "--backend", "cpu" }, 2,
      { "--softening", "-0.1" } },
    { "softening not a number", VALID,
      { "--input", "@IN", "--softening", "abc", "--backend", "cpu" }, 2,
      { "--softening", "abc" } },
    { "softening nan", VALID,
      { "--input", "@IN", "--softening", "nan", "--backend", "cpu" }, 2,
      { "--softening", "nan" } },
    { "softening inf", VALID,
      { "--input", "@IN", "--softening", "inf", "--backend", "cpu" }, 2,
      { "--softening", "inf" } },
    { "softening with junk", VALID,
      { "--input", "@IN", "--softening", "0.1x", "--backend", "cpu" }, 2,
      { "--softening", "0.1x" } },
    { "unknown option", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "--bogus" }, 2,
      { "--bogus" } },
    { "stray argument", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "extra" }, 2,
      { "extra" } },
    { "flag with a value", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "--debug=1" }, 2,
      { "--debug" } },
    { "unknown backend", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "gpu" }, 2, { "'gpu'" } },
    { "compute variant 4x4", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "compute", "--variant", "4x4" },
      2, { "4x4" } },
    { "fragment variant t64i1", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "fragment", "--variant",
        "t64i1" }, 2, { "t64i1" } },
    { "cpu variant t64i1", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "--variant", "t64i1" },
      2, { "t64i1" } },
    { "cpu variant bogus", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "--variant", "bogus" },
      2, { "bogus" } },
    { "compute variant bogus", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "compute", "--variant",
        "bogus" }, 2, { "bogus" } },
    { "fragment variant bogus", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "fragment", "--variant",
        "bogus" }, 2, { "bogus" } },
    { "compute variant t96i1", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "compute", "--variant",
        "t96i1" }, 2, { "t96i1" } },
    { "bad --shaders", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "compute", "--shaders",
        "bogus" }, 2, { "--shaders", "bogus" } },
    { "bad --gpu", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "compute", "--gpu", "abc" },
      2, { "--gpu", "abc" } },
    { "output directory missing", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "cpu", "--output",
        "@DIR/nodir/out.txt" }, 1, { "@DIR/nodir/out.txt", "@ENOENT" } },
    { "output directory missing, GPU", VALID,
      { "--input", "@IN", "--softening", "0", "--backend", "fragment", "--variant", "1x1",
        "--output", "@DIR/nodir/out.txt" }, 1, { "@DIR/nodir/out.txt", "@ENOENT" } },
};

/* text with the @ placeholders replaced. */
static const char *expand(const char *text)
{
    char buf[4096] = "";
    size_t len = 0;
    while (*text) {
        const char *rep = NULL;
        size_t skip = 1;
        if (strncmp(text, "@IN", 3) == 0)
            rep = in_dir("in.txt"), skip = 3;
        else if (strncmp(text, "@OUT", 4) == 0)
            rep = in_dir("out.txt"), skip = 4;
        else if (strncmp(text, "@DIR", 4) == 0)
            rep = g_dir, skip = 4;
        else if (strncmp(text, "@ENOENT", 7) == 0)
            rep = strerror(ENOENT), skip = 7;
        else if (strncmp(text, "@EISDIR", 7) == 0)
            rep = strerror(EISDIR), skip = 7;
        if (rep) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", rep);
        } else if (len + 1 < sizeof buf) {
            buf[len++] = *text;
            buf[len] = '\0';
        }
        ck_assert_uint_lt(len, sizeof buf);
        text += skip;
    }
    return fmt("%s", buf);
}

START_TEST(test_forces_bad_input)
{
    const struct bad_case *c = &bad_cases[_i];
    if (c->input)
        write_file(in_dir("in.txt"), c->input);
    const char *args[20];
    int n = 0, has_output = 0;
    args[n++] = "forces";
    for (int k = 0; c->args[k]; k++) {
        has_output |= strcmp(c->args[k], "--output") == 0;
        args[n++] = expand(c->args[k]);
    }
    if (!has_output) {
        args[n++] = "--output";
        args[n++] = expand("@OUT");
    }
    args[n] = NULL;
    const char *needles[5] = { NULL };
    for (int k = 0; k < 4 && c->needles[k]; k++)
        needles[k] = expand(c->needles[k]);

    struct cli_run r;
    cli_run_in(&r, NULL, NULL, args);
    ck_assert_msg(r.status == c->status, "%s: exit status %d, expected %d; stderr: %s",
                  c->name, r.status, c->status, r.err);
    assert_failure(&r, c->status, needles);
    ck_assert_msg(!path_exists(in_dir("out.txt")), "%s: output file created", c->name);
    const char *const names[] = { "in.txt", NULL };
    assert_dir_holds_only(g_dir, names);
    cli_run_free(&r);
}
END_TEST

/* --output naming an existing directory: the results are computed, the
 * rename fails, exit 1, and neither the directory nor a temporary file
 * is left changed. */
START_TEST(test_forces_output_is_directory)
{
    const char *in = in_dir("in.txt"), *out = in_dir("out");
    write_file(in, VALID);
    ck_assert_int_eq(mkdir(out, 0700), 0);
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0", "--backend", "cpu",
        "--output", out);
    const char *needles[] = { out, NULL };
    assert_failure(&r, 1, needles);
    ck_assert(is_directory(out));
    const char *const names[] = { "in.txt", "out", NULL };
    assert_dir_holds_only(g_dir, names);
    const char *const none[] = { NULL };
    assert_dir_holds_only(out, none);
    cli_run_free(&r);
}
END_TEST

/* A failed run does not touch an existing output file. */
START_TEST(test_forces_failure_keeps_old_output)
{
    const char *in = in_dir("in.txt"), *out = in_dir("out.txt");
    write_file(in, "1 1 0 0 0 0 0 0\n2 -1 0 0 0 0 0 0\n");
    write_file(out, "old contents\n");
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0", "--backend", "cpu",
        "--output", out);
    const char *needles[] = { "negative mass", NULL };
    assert_failure(&r, 1, needles);
    char *text = read_file(out);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "old contents\n");
    free(text);
    const char *const names[] = { "in.txt", "out.txt", NULL };
    assert_dir_holds_only(g_dir, names);
    cli_run_free(&r);
}
END_TEST

static Suite *cli_errors_suite(void)
{
    Suite *s = suite_create("cli_errors");
    TCase *tc = tcase(s, "errors");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_loop_test(tc, test_forces_bad_input, 0, COUNT(bad_cases));
    tcase_add_test(tc, test_forces_output_is_directory);
    tcase_add_test(tc, test_forces_failure_keeps_old_output);
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_errors", cli_errors_suite, 1);
}
