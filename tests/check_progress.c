/* check_progress.c - the progress of long commands on stderr, through the
 * real binary: on a pseudo-terminal (script(1) from util-linux) a bar
 * redrawn with \r that shows the rate and the time left and leaves no
 * garbled line; piped, no control character and one line per checkpoint
 * (none where it would repeat stdout in the same file); --quiet, nothing
 * but errors.  CPU runs, except the GL-tagged case. */
#include <check.h>

#include <ctype.h>
#include <regex.h>

#include "cli_fixtures.h"

#define MD_ARGS "md", "--backend", "cpu", "--cells", "4", "--cutoff", "2.5", "--steps", \
                "100", "--thermo-every", "25"
#define MD_LINE "--backend cpu --cells 4 --cutoff 2.5 --steps 100 --thermo-every 25"

/* ---- helpers ------------------------------------------------------------- */

/* Everything a shell command writes on stdout (the caller frees it), and
 * its exit status. */
static char *shell_output(const char *command, int *status)
{
    FILE *fp = popen(command, "r");
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    ck_assert_msg(fp != NULL, "popen %s: %s", command, strerror(errno));
    ck_assert_ptr_nonnull(data);
    for (size_t got; (got = fread(data + len, 1, cap - len - 1, fp)) > 0;) {
        len += got;
        if (len == cap - 1) {
            data = realloc(data, cap *= 2);
            ck_assert_ptr_nonnull(data);
        }
    }
    data[len] = '\0';
    int st = pclose(fp);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return data;
}

/* What a pseudo-terminal shows of `glnbody ARGS` (one string of
 * arguments, no quotes inside) with stdout sent to stdout_file, or left on
 * the terminal when stdout_file is NULL: script -q (no banner) -e (its
 * status is the command's). */
static char *on_terminal(const char *args, const char *stdout_file)
{
    int status;
    const char *redirect = stdout_file ? fmt(" >'%s'", stdout_file) : "";
    char *text = shell_output(fmt("cd '%s' && script -qec \"'%s' %s%s\" /dev/null "
                                  "</dev/null", g_dir, g_bin, args, redirect), &status);
    ck_assert_msg(status == 0, "script exit %d: %s", status, text);
    return text;
}

/* The lines a terminal shows after text: \r goes back to the line's
 * start, characters overwrite, trailing spaces are invisible.  The lines
 * are pooled; returns their count. */
static size_t screen_lines(const char *text, const char ***lines)
{
    size_t n = 0, cap = 16;
    const char **out = calloc(cap, sizeof *out);
    ck_assert_ptr_nonnull(out);
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n"), col = 0, end = 0;
        char *shown = pool(calloc(len + 1, 1));
        for (size_t k = 0; k < len; k++) {
            if (line[k] == '\r') {
                col = 0;
                continue;
            }
            shown[col++] = line[k];
            end = col > end ? col : end;
        }
        while (end > 0 && shown[end - 1] == ' ')
            end--;
        shown[end] = '\0';
        if (n + 1 == cap)
            ck_assert_ptr_nonnull(out = realloc(out, (cap *= 2) * sizeof *out));
        out[n++] = shown;
        line += len + (line[len] == '\n');
    }
    pool((char *)out);
    *lines = out;
    return n;
}

static int matches(const char *text, const char *pattern)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    int yes = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return yes;
}

/* No control character but the newline (no \r, no ESC). */
static void assert_plain(const char *text)
{
    for (const char *c = text; *c; c++)
        ck_assert_msg(*c == '\n' || !iscntrl((unsigned char)*c),
                      "control character 0x%02x in: %s", (unsigned char)*c, text);
}

/* The piped progress lines: line k (from 1) of count says "<prefix>K of
 * TOTAL (P%)", then the rate in rate_unit and the time left. */
static void assert_lines(const char *err, const char *command, const char *const *dones,
                         size_t count, const char *total, const char *rate_unit)
{
    char **lines;
    char *copy = pool(xstrdup(err));
    assert_plain(err);
    ck_assert_msg(split_lines(copy, &lines) == count, "not %zu lines: %s", count, err);
    for (size_t k = 0; k < count; k++) {
        const char *head = fmt("glnbody %s: %s of %s (", command, dones[k], total);
        ck_assert_msg(strncmp(lines[k], head, strlen(head)) == 0, "line %zu: '%s', "
                      "expected '%s...'", k + 1, lines[k], head);
        ck_assert_msg(matches(lines[k], fmt("\\([0-9]+%%\\), [0-9.e+]+ %s, [0-9]+ "
                                            "(s|min [0-9]+ s|h [0-9]+ min) left$",
                                            rate_unit)),
                      "line %zu without the rate or the time left: '%s'", k + 1, lines[k]);
    }
    free(lines);
}

/* ---- on a terminal ------------------------------------------------------- */

/* A CPU run: the bar is redrawn with \r, and at least one draw has a
 * measured rate and time left; what stays on the screen is the finished
 * bar, on a line of its own; stdout is the usual summary. */
START_TEST(test_terminal_run_bar)
{
    const char *out = in_dir("out.txt");
    char *tty = on_terminal("run --backend cpu --n 256 --t-end 2", out);
    const char **screen;

    ck_assert_msg(strchr(tty, '\r') != NULL, "no \\r: %s", tty);
    ck_assert_msg(matches(tty, "\rrun \\[[#.]{10}\\] t = [0-9.]+ of 2 \\([0-9]+%\\), "
                               "[0-9.e+]+ block steps/s, [0-9]+ s left"),
                  "no bar with a rate and the time left: %s", tty);
    ck_assert_msg(screen_lines(tty, &screen) == 1, "not one line on screen: %s", tty);
    ck_assert_msg(matches(screen[0], "^run \\[##########\\] t = 2 of 2 \\(100%\\), "
                                     "[0-9.e+]+ block steps/s, 0 s left$"),
                  "the finished bar: '%s'", screen[0]);
    char *summary = read_file(out);
    ck_assert_ptr_nonnull(summary);
    ck_assert_msg(strstr(summary, "relative energy error") && !strchr(summary, '\r'),
                  "stdout: %s", summary);
    free(summary);
    free(tty);
}
END_TEST

/* md with its thermo rows on the same terminal as the bar: the bar is
 * erased before each row, so the screen shows exactly the rows a piped
 * run prints, then the finished bar, then the summary. */
START_TEST(test_terminal_md_rows_intact)
{
    struct cli_run piped = { 0 };
    char *tty = on_terminal("md " MD_LINE, NULL);
    const char **screen;
    char **rows;
    size_t shown = screen_lines(tty, &screen), k = 0;

    RUN(&piped, MD_ARGS);
    ck_assert_msg(piped.status == 0, "exit %d: %s", piped.status, piped.err);
    size_t count = split_lines(piped.out, &rows);
    ck_assert_uint_eq(count, 6);    /* the header, steps 0, 25, 50, 75, 100 */
    ck_assert_uint_ge(shown, count + 1);
    for (; k < count; k++)
        ck_assert_msg(strcmp(screen[k], rows[k]) == 0, "screen line %zu '%s' is not the "
                      "row '%s'", k + 1, screen[k], rows[k]);
    ck_assert_msg(matches(screen[k], "^md \\[##########\\] step 100 of 100 \\(100%\\), "
                                     "[0-9.e+]+ atom-steps/s, 0 s left$"),
                  "after the rows: '%s'", screen[k]);
    for (k++; k < shown; k++)
        ck_assert_msg(!strstr(screen[k], "md [") && !strstr(screen[k], " left"),
                      "a bar left in the summary: '%s'", screen[k]);
    free(rows);
    free(tty);
    cli_run_free(&piped);
}
END_TEST

/* ---- piped --------------------------------------------------------------- */

/* Without a log: one line per 0.125 of simulated time, and nothing else. */
START_TEST(test_piped_run_lines)
{
    struct cli_run r = { 0 };
    const char *dones[16];

    for (int k = 0; k < 16; k++)
        dones[k] = fmt("t = %g", 0.125 * (k + 1));
    RUN(&r, "run", "--backend", "cpu", "--n", "256", "--t-end", "2");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    assert_lines(r.err, "run", dones, 16, "2", "block steps/s");
    ck_assert_msg(strstr(r.out, "relative energy error") != NULL, "stdout: %s", r.out);
    cli_run_free(&r);
}
END_TEST

/* With a log: one line per log row after t = 0, the last at t_end. */
START_TEST(test_piped_run_log_rows)
{
    struct cli_run r = { 0 };
    const char *dones[] = { "t = 0.5", "t = 1", "t = 1.3" };
    char **rows;

    RUN(&r, "run", "--backend", "cpu", "--n", "64", "--t-end", "1.3", "--energy-log",
        in_dir("e.csv"), "--log-every", "0.5");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    assert_lines(r.err, "run", dones, 3, "1.3", "block steps/s");
    char *log = pool(read_file(in_dir("e.csv")));
    ck_assert_uint_eq(split_lines(log, &rows), 5);     /* the header, 0, 0.5, 1, 1.3 */
    ck_assert_msg(strncmp(rows[4], "1.3,", 4) == 0, "last row: %s", rows[4]);
    free(rows);
    cli_run_free(&r);
}
END_TEST

/* md's thermo rows on stdout: a line per row on a separate stderr; none
 * when stderr is the same file (2>&1), where it would only repeat them. */
START_TEST(test_piped_md_lines)
{
    struct cli_run r = { 0 };
    const char *dones[] = { "step 25", "step 50", "step 75", "step 100" };
    int status;

    RUN(&r, MD_ARGS);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *err = pool(xstrdup(r.err)), *summary = strstr(err, "glnbody md: 256 atoms");
    ck_assert_msg(summary != NULL, "no summary: %s", r.err);
    *summary = '\0';
    assert_lines(err, "md", dones, 4, "100", "atom-steps/s");
    char *both = shell_output(fmt("'%s' md " MD_LINE " 2>&1", g_bin), &status);
    ck_assert_int_eq(status, 0);
    ck_assert_msg(strstr(both, "step,time,temp") && strstr(both, "\n100,0.5,") &&
                  !strstr(both, "glnbody md: step"), "2>&1: %s", both);
    assert_plain(both);
    free(both);
    cli_run_free(&r);
}
END_TEST

/* bench: a line per table row, rows done of rows. */
START_TEST(test_piped_bench_lines)
{
    struct cli_run r = { 0 };
    const char *dones[] = { "row 1", "row 2" };
    char **rows;

    RUN(&r, "bench", "--backend", "cpu", "--n", "64,128", "--runs", "5");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    assert_lines(r.err, "bench", dones, 2, "2", "rows/s");
    ck_assert_uint_eq(split_lines(r.out, &rows), 3);   /* the header and two rows */
    free(rows);
    cli_run_free(&r);
}
END_TEST

/* ---- --quiet ------------------------------------------------------------- */

/* Successful runs: stderr empty, the results on stdout still there. */
static const struct {
    const char *args[16];
    const char *stdout_has;
} quiet_runs[] = {
    { { "run", "--backend", "cpu", "--n", "64", "--t-end", "0.5", "--quiet" },
      "relative energy error" },
    /* the summary would go to stderr, next to the final state on stdout */
    { { "run", "--backend", "cpu", "--n", "64", "--t-end", "0.5", "--output", "-",
        "--quiet" }, " 0.015625 " },
    { { MD_ARGS, "--quiet" }, "\n100,0.5," },     /* md's summary would go to stderr */
    { { "bench", "--backend", "cpu", "--n", "64,128", "--runs", "5", "--quiet" },
      "newton3" },
};

START_TEST(test_quiet_success)
{
    struct cli_run r = { 0 };

    cli_run_in(&r, g_dir, NULL, quiet_runs[_i].args);
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", quiet_runs[_i].args[0], r.status, r.err);
    ck_assert_msg(r.err[0] == '\0', "%s: stderr: %s", quiet_runs[_i].args[0], r.err);
    ck_assert_msg(strstr(r.out, quiet_runs[_i].stdout_has) != NULL, "%s: stdout: %s",
                  quiet_runs[_i].args[0], r.out);
    cli_run_free(&r);
}
END_TEST

/* Failures under --quiet still say why, on one line. */
static const struct {
    const char *args[12];
    int status;
    const char *says;
} quiet_failures[] = {
    { { "run", "--backend", "cpu", "--input", "/nonexistent/ic.txt", "--quiet" }, 1,
      "/nonexistent/ic.txt" },
    { { "run", "--backend", "cpu", "--n", "1", "--quiet" }, 2, "--n" },
    { { "md", "--backend", "cpu", "--potential", "nope", "--quiet" }, 2, "nope" },
    { { "bench", "--backend", "nope", "--quiet" }, 2, "nope" },
};

START_TEST(test_quiet_failure)
{
    struct cli_run r = { 0 };

    cli_run_in(&r, g_dir, NULL, quiet_failures[_i].args);
    ck_assert_msg(r.status == quiet_failures[_i].status, "exit %d, expected %d: %s",
                  r.status, quiet_failures[_i].status, r.err);
    ck_assert_msg(strncmp(r.err, "glnbody", 7) == 0 && strstr(r.err, quiet_failures[_i].says)
                  && strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
                  "not one message naming '%s': %s", quiet_failures[_i].says, r.err);
    cli_run_free(&r);
}
END_TEST

/* Every command takes --quiet and its help says what it silences. */
static const char *const commands[] = { "run", "md", "forces", "bench", "precision",
                                        "newton3", "compare", "shaders" };

START_TEST(test_quiet_in_help)
{
    struct cli_run r = { 0 };

    RUN(&r, commands[_i], "--help");
    ck_assert_msg(r.status == 0, "%s --help: exit %d", commands[_i], r.status);
    ck_assert_msg(matches(r.out, "\n  --quiet +print nothing on stderr but errors: no "
                                 "progress bar or progress lines, no renderer line"),
                  "%s --help: %s", commands[_i], r.out);
    cli_run_free(&r);
}
END_TEST

/* ---- GL: the renderer line and precision's rows --------------------------- */

START_TEST(test_gl_precision)
{
    struct cli_run r = { 0 }, quiet = { 0 };
    const char *dones[] = { "row 1", "row 2" };

    RUN(&r, "precision", "--n", "256", "--modes", "AB");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *err = pool(xstrdup(r.err));
    ck_assert_msg(strncmp(err, "glnbody: renderer ", 18) == 0, "stderr: %s", err);
    assert_lines(strchr(err, '\n') + 1, "precision", dones, 2, "2", "rows/s");
    RUN(&quiet, "precision", "--n", "256", "--modes", "AB", "--quiet");
    ck_assert_msg(quiet.status == 0 && quiet.err[0] == '\0', "--quiet: exit %d, "
                  "stderr: %s", quiet.status, quiet.err);
    ck_assert_msg(strstr(quiet.out, "\nA ") && strstr(quiet.out, "\nB "), "stdout: %s",
                  quiet.out);
    cli_run_free(&r);
    cli_run_free(&quiet);
}
END_TEST

static Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("cpu");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, GPU_TIMEOUT);
    tcase_add_test(tc, test_terminal_run_bar);
    tcase_add_test(tc, test_terminal_md_rows_intact);
    tcase_add_test(tc, test_piped_run_lines);
    tcase_add_test(tc, test_piped_run_log_rows);
    tcase_add_test(tc, test_piped_md_lines);
    tcase_add_test(tc, test_piped_bench_lines);
    tcase_add_loop_test(tc, test_quiet_success, 0, COUNT(quiet_runs));
    tcase_add_loop_test(tc, test_quiet_failure, 0, COUNT(quiet_failures));
    tcase_add_loop_test(tc, test_quiet_in_help, 0, COUNT(commands));
    suite_add_tcase(s, tc);

    tc = tcase_create("gl");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, GPU_TIMEOUT);
    tcase_add_test(tc, test_gl_precision);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_progress", progress_suite, 1);
}
