/* check_hostile.c - runs that must survive, the cases found when
 * glnbody was tried as a new user would: each must end with one clear
 * message naming the file or option and the cause, a non-zero exit, and
 * nothing half-written.  Runs the real binary (GLNBODY_BIN, default
 * build/glnbody) on the CPU backend, so it needs no GL. */
#include <check.h>

#include <signal.h>

#include "cli_harness.h"

static void run_args(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, g_dir, NULL, args);
}

#define RUN(pr, ...) run_args((pr), (const char *const[]){ __VA_ARGS__, NULL })

/* The names in g_dir, each followed by a space, sorted: what a test left. */
static void listing(char *out, size_t size)
{
    struct dirent **names;
    int n = scandir(g_dir, &names, NULL, alphasort);
    ck_assert_int_ge(n, 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            strncat(out, names[i]->d_name, size - strlen(out) - 2);
            strcat(out, " ");
        }
        free(names[i]);
    }
    free(names);
}

static void assert_listing(const char *expected)
{
    char names[4096];
    listing(names, sizeof names);
    ck_assert_str_eq(names, expected);
}

/* A refusal: exit 1, one line on stderr holding each of the fragments,
 * nothing on stdout. */
static void assert_refused(const struct cli_run *r, const char *fragment,
                           const char *fragment2)
{
    ck_assert_msg(r->status == 1, "exit %d, stderr: %s", r->status, r->err);
    ck_assert_msg(strstr(r->err, fragment) != NULL, "no '%s' in: %s",
                  fragment, r->err);
    ck_assert_msg(!fragment2 || strstr(r->err, fragment2) != NULL,
                  "no '%s' in: %s", fragment2, r->err);
    ck_assert_msg(strchr(r->err, '\n') == r->err + strlen(r->err) - 1,
                  "not one line: %s", r->err);
}

#define RUN_FLAGS "--backend", "cpu", "--n", "64", "--t-end", "0.125", "--quiet"

/* ---- 1. output replaces whatever sits at the path ------------------------ */

/* A device is written through, not renamed over; its write error counts. */
START_TEST(test_output_device)
{
    struct cli_run r;
    struct stat st;

    RUN(&r, "run", RUN_FLAGS, "--output", "/dev/full");
    assert_refused(&r, "/dev/full: write error", "No space left on device");
    ck_assert_int_eq(stat("/dev/full", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    cli_run_free(&r);
    /* On a shared machine something else may have replaced /dev/null by
     * a file already; only a device there can show that it stays one. */
    if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
        RUN(&r, "run", RUN_FLAGS, "--output", "/dev/null");
        ck_assert_int_eq(r.status, 0);
        ck_assert_int_eq(stat("/dev/null", &st), 0);
        ck_assert(S_ISCHR(st.st_mode));
        cli_run_free(&r);
    }
    assert_listing("");
}
END_TEST

/* The output went through the link at `link` into `target`, and the link
 * is still a link. */
static void assert_written_through_link(const char *link, const char *target)
{
    struct stat st;
    char *text;

    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    text = read_file(target);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "0.125"));
    free(text);
}

/* A link is followed: the link stays, the file it names gets the output. */
START_TEST(test_output_symlink)
{
    struct cli_run r;
    char link[1200], target[1200];

    test_dir_path(link, sizeof link, "link.txt");
    test_dir_path(target, sizeof target, "target.txt");
    write_file(target, "old\n");
    ck_assert_int_eq(symlink("target.txt", link), 0);
    RUN(&r, "run", RUN_FLAGS, "--output", "link.txt");
    ck_assert_int_eq(r.status, 0);
    assert_written_through_link(link, target);
    assert_listing("link.txt target.txt ");
    cli_run_free(&r);
}
END_TEST

/* A link whose file does not exist yet, through a relative link in a
 * subdirectory: the file is made where the link points. */
START_TEST(test_output_dangling_symlink)
{
    struct cli_run r;
    char sub[1200], link[1300], target[1200];

    test_dir_path(sub, sizeof sub, "sub");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    snprintf(link, sizeof link, "%s/link.txt", sub);
    ck_assert_int_eq(symlink("../made.txt", link), 0);
    test_dir_path(target, sizeof target, "made.txt");
    RUN(&r, "run", RUN_FLAGS, "--output", "sub/link.txt");
    ck_assert_msg(r.status == 0, "%s", r.err);
    assert_written_through_link(link, target);
    assert_listing("made.txt sub ");
    cli_run_free(&r);
}
END_TEST

/* A FIFO is written through to its reader and stays a FIFO. */
START_TEST(test_output_fifo)
{
    struct cli_run r;
    char fifo[1200], copy[1200];
    struct stat st;
    char *text;

    test_dir_path(fifo, sizeof fifo, "pipe");
    test_dir_path(copy, sizeof copy, "copy.txt");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t reader = fork();
    ck_assert_int_ge(reader, 0);
    if (reader == 0) {
        FILE *in = fopen(fifo, "r"), *out = fopen(copy, "w");
        int c;
        while (in && out && (c = getc(in)) != EOF)
            putc(c, out);
        _exit(in && out && fclose(out) == 0 ? 0 : 1);
    }
    RUN(&r, "run", RUN_FLAGS, "--output", "pipe");
    if (r.status != 0)          /* never opened: the reader waits for ever */
        kill(reader, SIGKILL);
    int status;
    ck_assert_int_eq(waitpid(reader, &status, 0), reader);
    ck_assert_int_eq(r.status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    text = read_file(copy);
    ck_assert_ptr_nonnull(strstr(text, "0.125"));
    free(text);
    assert_listing("copy.txt pipe ");
    cli_run_free(&r);
}
END_TEST

/* A directory is refused when the output is opened, before the run. */
START_TEST(test_output_directory)
{
    struct cli_run r;
    char dir[1200];

    test_dir_path(dir, sizeof dir, "out");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    RUN(&r, "run", RUN_FLAGS, "--output", "out");
    assert_refused(&r, "out: cannot write", "Is a directory");
    assert_listing("out ");
    cli_run_free(&r);
}
END_TEST

/* ---- 2. a repeated exclusion pair ---------------------------------------- */

START_TEST(test_exclusion_repeated)
{
    struct cli_run r;
    char path[1200];

    test_dir_path(path, sizeof path, "e.txt");
    write_file(path, "1 2\n2 1\n");
    RUN(&r, "md", "--cells", "3", "--cutoff", "1.6", "--steps", "1",
        "--thermo-every", "1", "--backend", "cpu", "--quiet",
        "--exclude", "e.txt", "--thermo", "th.csv");
    assert_refused(&r, "e.txt:2: the pair of particles 1 and 2 is excluded "
                   "again (first on line 1)", NULL);
    assert_listing("e.txt ");
    cli_run_free(&r);
}
END_TEST

/* ---- 3. stdout write errors ---------------------------------------------- */

/* Runs g_bin ARGS in g_dir with stdout on /dev/full: the exit status and
 * stderr in r (r->out stays empty). */
static void run_to_full(struct cli_run *r, const char *const *args)
{
    char err_path[4096];
    const char *argv[32] = { g_bin };
    int n = 1, err_fd = capture_file(err_path, sizeof err_path), status;

    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out_fd = open("/dev/full", O_WRONLY);
        if (out_fd < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 ||
            chdir(g_dir) != 0)
            _exit(126);
        execv(g_bin, (char *const *)argv);
        _exit(127);
    }
    close(err_fd);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->out = calloc(1, 1);
    r->err = read_file(err_path);
    ck_assert_ptr_nonnull(r->err);
    unlink(err_path);
}

static const char *const full_cases[][12] = {
    { "compare", "--n", "64", "--backends", "cpu", NULL },
    { "run", RUN_FLAGS, NULL },
    { "bench", "--kernel", "ga", "--backend", "cpu", "--n", "64", "--quiet", NULL },
    { "run", "--help", NULL },
    { "help", "md", NULL },
};

/* Every command's stdout is flushed and checked at exit: one message. */
START_TEST(test_stdout_full)
{
    struct cli_run r;

    run_to_full(&r, full_cases[_i]);
    assert_refused(&r, "glnbody: stdout: write error: No space left on device",
                   NULL);
    assert_listing("");
    cli_run_free(&r);
}
END_TEST

/* ---- 5. outputs checked before the run, committed all or none ------------ */

#define MD_FLAGS "md", "--ic", "fcc", "--cells", "3", "--cutoff", "2.5", "--shift", \
                 "--steps", "20", "--backend", "cpu", "--quiet"

/* A directory among the outputs is refused when the outputs are opened,
 * before the run: the other outputs never appear. */
START_TEST(test_output_dir_found_first)
{
    struct cli_run r;
    char dir[1200];

    test_dir_path(dir, sizeof dir, "sub");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    RUN(&r, MD_FLAGS, "--thermo", "sub", "--output", "out.txt");
    assert_refused(&r, "glnbody md: sub: cannot write: Is a directory", NULL);
    assert_listing("sub ");
    cli_run_free(&r);
    RUN(&r, "run", RUN_FLAGS, "--energy-log", "e.csv", "--output", "sub");
    assert_refused(&r, "sub: cannot write: Is a directory", NULL);
    assert_listing("sub ");
    cli_run_free(&r);
}
END_TEST

/* A write error on the last output: the long logs keep their whole rows
 * (they are kept as the run goes, so that nothing is lost), and nothing
 * else written at the end (the timing row) is committed. */
START_TEST(test_outputs_all_or_none)
{
    struct cli_run r;

    RUN(&r, MD_FLAGS, "--thermo", "th.csv", "--dump", "d.dump", "--dump-every",
        "10", "--integrals", "i.csv", "--timing", "t.csv", "--output", "/dev/full");
    assert_refused(&r, "/dev/full: write error: No space left on device", NULL);
    assert_listing("d.dump i.csv th.csv ");
    cli_run_free(&r);
    remove_tree(g_dir);
    ck_assert_int_eq(mkdir(g_dir, 0700), 0);
    RUN(&r, "run", RUN_FLAGS, "--energy-log", "e.csv", "--output", "/dev/full");
    assert_refused(&r, "/dev/full: write error: No space left on device", NULL);
    assert_listing("e.csv ");
    remove_tree(g_dir);
    ck_assert_int_eq(mkdir(g_dir, 0700), 0);
    cli_run_free(&r);
    RUN(&r, MD_FLAGS, "--thermo", "th.csv", "--dump", "d.dump", "--dump-every",
        "10", "--integrals", "i.csv", "--output", "out.txt");
    ck_assert_msg(r.status == 0, "%s", r.err);
    assert_listing("d.dump i.csv out.txt th.csv ");
    cli_run_free(&r);
}
END_TEST

/* ---- 7. coefficient tables without interactions or with repeats ---------- */

START_TEST(test_coeffs_refused)
{
    static const char *const tables[2][2] = {
        { "types 2\nmass 1 1\n", "c.txt: types 1 and 1 do not interact under "
          "the ionic law" },
        { "types 2\nionic 1 1 1 1 6\nionic 1 1 2 1 6\n", "c.txt:3:1: 'ionic 1 1' "
          "given twice (first on line 2)" },
    };
    struct cli_run r;
    char path[1200];

    test_dir_path(path, sizeof path, "c.txt");
    for (int k = 0; k < 2; k++) {
        write_file(path, tables[k][0]);
        RUN(&r, "md", "--ic", "ionic", "--cells", "2", "--coeffs", "c.txt",
            "--backend", "cpu", "--steps", "1", "--quiet", "--thermo", "th.csv");
        assert_refused(&r, tables[k][1], NULL);
        assert_listing("c.txt ");
        cli_run_free(&r);
    }
}
END_TEST

/* ---- 8 and 9. results that would print as NaN; repeated ids -------------- */

static const struct nan_case {
    const char *file;
    const char *command, *softening;
    const char *message;
} nan_cases[] = {
    { "1 1 0 0 0 0 0 0\n", "run", "0.01", "in.txt: one particle: run needs at least 2" },
    { "1 0 0 0 0 0 0 0\n2 0 1 0 0 0 0 0\n", "run", "0.01",
      "in.txt: the total mass is 0: with no gravity the energy E0 is 0" },
    { "1 1 0.5 0 0 0 0 0\n2 1 1 1 1 0 0 0\n3 1 0.5 0 0 0 0 0\n", "forces", "0",
      "in.txt: particles 1 and 3 are at the same position and the softening is 0" },
    { "1 1 0.5 0 0 0 0 0\n2 1 1 1 1 0 0 0\n3 1 0.5 0 0 0 0 0\n", "run", "0",
      "in.txt: particles 1 and 3 are at the same position and the softening is 0" },
    /* 9: one rule for ids, as --n makes them: each particle its own. */
    { "1 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n1 1 2 0 0 0 0 0\n", "forces", "0.1",
      "in.txt:3: id 1 again (first on line 1): each particle needs its own id" },
};

/* Refused before anything runs: exit 1, the message, no output. */
START_TEST(test_nan_refused)
{
    const struct nan_case *c = &nan_cases[_i];
    struct cli_run r;
    char path[1200];

    test_dir_path(path, sizeof path, "in.txt");
    write_file(path, c->file);
    RUN(&r, c->command, "--input", "in.txt", "--softening", c->softening,
        "--backend", "cpu", "--output", "out.txt");
    assert_refused(&r, c->message, NULL);
    ck_assert_str_eq(r.out, "");
    assert_listing("in.txt ");
    cli_run_free(&r);
}
END_TEST

/* ---- 6 and 9. lists and options: one rule, checked before anything runs -- */

struct refusal {
    const char *args[16];
    const char *message;        /* the whole of stderr, less its newline */
};

static const struct refusal option_refusals[] = {
    { { "compare", "--backends", "", NULL }, "glnbody: --backends: empty list" },
    { { "compare", "--n", "64", "--backends", "cpu,foo", NULL },
      "glnbody: --backends: unknown backend 'foo' (cpu, compute or fragment)" },
    { { "compare", "--n", "64", "--backends", "cpu,", NULL },
      "glnbody: --backends: empty item in 'cpu,'" },
    { { "bench", "--backend", "cpu", "--n", "64,,128", NULL },
      "glnbody: --n: empty item in '64,,128'" },
    { { "bench", "--backend", ",cpu", "--n", "64", NULL },
      "glnbody: --backend: empty item in ',cpu'" },
    { { "newton3", "--cells", "1,,2", NULL }, "glnbody: --cells: empty item in '1,,2'" },
    { { "compare", "--n", "64", "--n=32", NULL },
      "glnbody: compare: --n given twice ('64', then '32'); give it once" },
    { { "run", "--backend", "cpu", "--t-end", "1", "--t-end", "2", NULL },
      "glnbody: run: --t-end given twice ('1', then '2'); give it once" },
    { { MD_FLAGS, "--steps", "5", NULL },
      "glnbody md: md: --steps given twice ('20', then '5'); give it once" },
};

/* Refused with the one message, exit 2, nothing printed or left. */
START_TEST(test_option_refused)
{
    const struct refusal *c = &option_refusals[_i];
    struct cli_run r;
    char want[512];

    run_args(&r, c->args);
    snprintf(want, sizeof want, "%s\n", c->message);
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    assert_listing("");
    cli_run_free(&r);
}
END_TEST

/* `glnbody compare` under one environment setting: exit 2, nothing on
 * standard output, and exactly `message` on standard error. */
static void assert_env_refused(const char *setting, const char *message)
{
    const char *const env[] = { setting, NULL };
    static const char *const args[] = { "compare", "--n", "64", "--backends", "cpu",
                                        NULL };
    struct cli_run r;

    cli_run_in(&r, g_dir, env, args);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, message);
    ck_assert_str_eq(r.out, "");
    cli_run_free(&r);
}

/* An unknown GLNBODY_SHADERS is refused as --shaders would be, not taken
 * for auto; an unknown GLNBODY_WAIT is refused, not taken for the default. */
START_TEST(test_shaders_env_refused)
{
    assert_env_refused("GLNBODY_SHADERS=hlsl",
                       "glnbody: GLNBODY_SHADERS: 'hlsl' is not auto, spirv or glsl\n");
}
END_TEST

START_TEST(test_wait_env_refused)
{
    assert_env_refused("GLNBODY_WAIT=sleep",
                       "glnbody: GLNBODY_WAIT: 'sleep' is not poll or block\n");
}
END_TEST

START_TEST(test_pieces_env_refused)
{
    assert_env_refused("GLNBODY_BLOCK_PIECES=9",
                       "glnbody: GLNBODY_BLOCK_PIECES: '9' is not auto or 1 to 8\n");
    assert_env_refused("GLNBODY_BLOCK_PIECES=2x",
                       "glnbody: GLNBODY_BLOCK_PIECES: '2x' is not auto or 1 to 8\n");
}
END_TEST

/* ---- the suite ----------------------------------------------------------- */

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("outputs");

    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_output_device);
    tcase_add_test(tc, test_output_symlink);
    tcase_add_test(tc, test_output_dangling_symlink);
    tcase_add_test(tc, test_output_fifo);
    tcase_add_test(tc, test_output_directory);
    tcase_add_test(tc, test_output_dir_found_first);
    tcase_add_test(tc, test_outputs_all_or_none);
    tcase_add_loop_test(tc, test_stdout_full, 0,
                        (int)(sizeof full_cases / sizeof full_cases[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("inputs");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_exclusion_repeated);
    tcase_add_test(tc, test_coeffs_refused);
    tcase_add_loop_test(tc, test_nan_refused, 0,
                        (int)(sizeof nan_cases / sizeof nan_cases[0]));
    tcase_add_test(tc, test_shaders_env_refused);
    tcase_add_test(tc, test_wait_env_refused);
    tcase_add_test(tc, test_pieces_env_refused);
    tcase_add_loop_test(tc, test_option_refused, 0,
                        (int)(sizeof option_refusals / sizeof option_refusals[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_hostile", hostile_suite, 0);
}
