/* check_run_cli.c - `glnbody run` through the real binary (GLNBODY_BIN,
 * default build/glnbody): refusals, outputs, the floor, the help and the
 * no-option default. */
#include <check.h>

#include <math.h>

#include "cli_harness.h"
#include "nb_host.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- cli: the real binary ------------------------------------------------- */


/* Runs `g_bin run ARGS` in g_dir. */
static void run_cli(struct cli_run *r, const char *const *args)
{
    const char *argv[64] = { "run" };
    int n = 1;
    for (; args[n - 1]; n++) {
        ck_assert_int_lt(n, 63);
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    cli_run_in(r, g_dir, NULL, argv);
}

#define RUN_CLI(pr, ...) run_cli((pr), (const char *const[]){ __VA_ARGS__, NULL })

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL)
        count += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return count;
}

static void write_text(const char *name, const char *text)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    write_file(path, text);
}

/* Every refusal: exit 2, one line on stderr naming the problem, nothing on
 * stdout and no file made, though each asks for an energy log, an output
 * and (most) snapshots. */
static const struct {
    const char *args[8];
    const char *needle;
} refusals[] = {
    { { "--eta", "0" }, "--eta" },
    { { "--eta", "-0.1" }, "--eta" },
    { { "--eta", "nan" }, "--eta" },
    { { "--t-end", "-1" }, "--t-end" },
    { { "--t-end", "1e6" }, "--t-end" },
    { { "--n", "0" }, "--n" },
    { { "--n", "1" }, "--n" },
    { { "--n", "12x" }, "--n" },
    { { "--seed", "-3" }, "--seed" },
    { { "--dt-max", "0" }, "--dt-max" },
    { { "--dt-max", "1e-20" }, "--dt-max" },
    { { "--softening", "-0.01" }, "--softening" },
    { { "--snapshot-every", "0.1" }, "--snapshot-dir" },
    { { "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--snapshot-every", "0", "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--snapshot-every", "1e-7", "--snapshot-dir", "snaps" }, "--snapshot-every" },
    { { "--log-every", "0" }, "--log-every" },
    { { "--input", "in.txt", "--ic", "plummer" }, "--input" },
    { { "--input", "in.txt", "--n", "10" }, "--input" },
    { { "--ic", "king" }, "king" },
    { { "--predict", "cpu" }, "--predict" },
    { { "--backend", "cpu", "--predict", "gpu" }, "load_state" },
    { { "--correct", "cpu" }, "--correct" },
    { { "--correct", "gpu" }, "--predict gpu" },
    { { "--predict", "gpu", "--correct", "gpu", "--precision", "B" }, "--precision A" },
    { { "--predict", "gpu", "--correct", "gpu", "--shared-dt" }, "--shared-dt" },
    { { "--backend", "fragment", "--predict", "gpu", "--correct", "gpu" }, "no corrector" },
    { { "--backend", "gpu" }, "'gpu'" },
    { { "--backend", "cpu", "--variant", "nope" }, "nope" },
    { { "--shaders", "dxil" }, "--shaders" },
    { { "--frobnicate" }, "--frobnicate" },
};

START_TEST(test_cli_refused)
{
    struct cli_run run = { 0 }, *pr = &run;
    const char *args[16];
    int n = 0;
    write_text("in.txt", "0 1 0 0 0 0 0 0\n1 1 1 0 0 0 1 0\n");
    for (const char *const *a = refusals[_i].args; *a; a++)
        args[n++] = *a;
    const char *extra[] = { "--energy-log", "e.csv", "--output", "out.txt", NULL };
    int snaps = 0;
    for (const char *const *a = extra; *a; a++)
        args[n++] = *a;
    for (int k = 0; k < n; k++)
        snaps |= strncmp(args[k], "--snapshot", 10) == 0;
    if (!snaps) {               /* ask for snapshots too, where legal */
        args[n++] = "--snapshot-every";
        args[n++] = "0.5";
        args[n++] = "--snapshot-dir";
        args[n++] = "snaps";
    }
    args[n] = NULL;
    run_cli(pr, args);
    ck_assert_msg(pr->status == 2, "case %d: exit %d, stderr %s", _i, pr->status,
                  pr->err);
    ck_assert_msg(pr->out[0] == '\0', "stdout: %s", pr->out);
    ck_assert_msg(strncmp(pr->err, "glnbody: ", 9) == 0 &&
                  strchr(pr->err, '\n') == pr->err + strlen(pr->err) - 1,
                  "not one message line: %s", pr->err);
    ck_assert_msg(strstr(pr->err, refusals[_i].needle), "'%s' not named: %s",
                  refusals[_i].needle, pr->err);
    ck_assert_msg(dir_entries(g_dir) == 1, "files left after a refusal (%s)", pr->err);
    cli_run_free(pr);
}
END_TEST

/* Counts the lines of text. */
static int line_count(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* A CPU run with every output: the log's exact header and rows at 0, 0.1,
 * ..., 0.5 with small de_rel and growing step counts, snapshots
 * snap_00000..00002 at t = 0, 0.25, 0.5, the final state, the summary. */
START_TEST(test_cli_outputs)
{
    struct cli_run run = { 0 }, *pr = &run;
    char path[1200];
    struct nb_particles p;
    struct nb_error err = { 0 };
    RUN_CLI(pr, "--backend", "cpu", "--n", "64", "--t-end", "0.5", "--energy-log",
            "e.csv", "--log-every", "0.1", "--snapshot-every", "0.25",
            "--snapshot-dir", "snaps", "--output", "final.txt");
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    /* stderr: the progress lines of the log rows after 0 (check_progress) */
    for (int k = 1; k <= 5; k++) {
        char line[64];
        snprintf(line, sizeof line, "glnbody run: t = %g of 0.5 (", 0.1 * k);
        ck_assert_msg(strstr(pr->err, line), "no '%s': %s", line, pr->err);
    }
    ck_assert_msg(line_count(pr->err) == 5, "stderr: %s", pr->err);
    ck_assert(strstr(pr->out, "relative energy error") && strstr(pr->out, "t_host") &&
              strstr(pr->out, "t_force") && strstr(pr->out, "t_comm"));
    snprintf(path, sizeof path, "%s/e.csv", g_dir);
    char *text = read_file(path);
    ck_assert_ptr_nonnull(text);
    const char *header = "t,ekin,epot,etot,de_rel,virial,p_abs,l_abs,com_x,com_y,"
                         "com_z,block_steps,particle_steps\n";
    ck_assert(strncmp(text, header, strlen(header)) == 0);
    ck_assert_int_eq(line_count(text), 7);
    const char *row = strchr(text, '\n') + 1;
    for (int k = 0; k < 6; k++, row = strchr(row, '\n') + 1) {
        double v[13];
        ck_assert_int_eq(sscanf(row, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,"
                                "%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                                &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12]), 13);
        ck_assert(fabs(v[0] - 0.1 * k) < 1e-15);
        ck_assert(fabs(v[3] - v[1] - v[2]) < 1e-15);
        ck_assert_msg(fabs(v[4]) < 1e-5, "de_rel %g", v[4]);
        ck_assert(k > 0 || (v[4] == 0.0 && v[11] == 0.0));
        ck_assert(fabs(v[5] - 2 * v[1] / fabs(v[2])) < 1e-12);
        /* Blocks feel forces from particles at other times, so Newton's
         * third law holds only to the integration error: |P| ~ 5e-8. */
        ck_assert_msg(v[6] < 1e-6 && fabs(v[8]) < 1e-6, "|P| %g, com_x %g", v[6], v[8]);
    }
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/snaps/snap_%05d.txt", g_dir, k);
        ck_assert_msg(nb_snapshot_read(path, &p, &err) == NB_OK, "%s", err.message);
        ck_assert_uint_eq(p.n, 64);
        nb_particles_free(&p);
    }
    snprintf(path, sizeof path, "%s/snaps", g_dir);
    ck_assert_int_eq(dir_entries(path), 3);
    snprintf(path, sizeof path, "%s/final.txt", g_dir);
    ck_assert_int_eq(nb_snapshot_read(path, &p, &err), NB_OK);
    ck_assert_uint_eq(p.n, 64);
    nb_particles_free(&p);
    ck_assert_int_eq(dir_entries(g_dir), 3);       /* no temporary left */
    free(text);
    cli_run_free(pr);
}
END_TEST

/* Input files are taken in their own units, never rescaled: with t-end 0
 * the output is the input, digit for digit, ids kept. */
START_TEST(test_cli_input_not_rescaled)
{
    struct cli_run run = { 0 }, *pr = &run;
    char path[1200];
    struct nb_particles p;
    struct nb_error err = { 0 };
    write_text("in.txt", "# two\n7 3 0.1 0 0 0 0.2 0\n9 5 -1 0.5 0 0.3 0 0.1\n");
    RUN_CLI(pr, "--backend", "cpu", "--input", "in.txt", "--t-end", "0", "--output",
            "out.txt", "--softening", "0");
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    snprintf(path, sizeof path, "%s/out.txt", g_dir);
    ck_assert_int_eq(nb_snapshot_read(path, &p, &err), NB_OK);
    ck_assert(p.n == 2 && p.id[0] == 7 && p.id[1] == 9 && p.m[0] == 3 && p.m[1] == 5);
    ck_assert(p.x[0] == 0.1 && p.x[3] == -1 && p.x[4] == 0.5 && p.v[1] == 0.2 &&
              p.v[3] == 0.3 && p.v[5] == 0.1);
    nb_particles_free(&p);
    cli_run_free(pr);
}
END_TEST

/* A run that hits the step floor fails with exit 1, names the particle
 * and leaves no output; the energy log keeps its whole rows up to there
 * (a long log is kept as it goes). */
START_TEST(test_cli_floor)
{
    struct cli_run run = { 0 }, *pr = &run;
    write_text("in.txt", "5 0.5 -0.001 0 0 0 0 0\n6 0.5 0.001 0 0 0 0 0\n");
    RUN_CLI(pr, "--backend", "cpu", "--input", "in.txt", "--softening", "0",
            "--energy-log", "e.csv", "--output", "out.txt");
    ck_assert_msg(pr->status == 1, "exit %d: %s", pr->status, pr->err);
    ck_assert_msg(strstr(pr->err, "particle") && strstr(pr->err, "floor"), "%s",
                  pr->err);
    ck_assert_int_eq(dir_entries(g_dir), 2);
    char log[1200];
    snprintf(log, sizeof log, "%s/e.csv", g_dir);
    char *rows = read_file(log);
    ck_assert_ptr_nonnull(rows);
    ck_assert_msg(strncmp(rows, "t,ekin", 6) == 0 && rows[strlen(rows) - 1] == '\n',
                  "%s", rows);
    free(rows);
    cli_run_free(pr);
}
END_TEST

START_TEST(test_cli_help)
{
    struct cli_run run = { 0 }, *pr = &run;
    const char *options[] = { "--input", "--ic", "--n", "--seed", "--t-end", "--eta",
                              "--softening", "--dt-max", "--shared-dt", "--backend",
                              "--predict", "--correct", "--energy-log", "--log-every",
                              "--snapshot-every", "--snapshot-dir", "--output",
                              "--variant", "--gpu", "--shaders", "--debug" };
    RUN_CLI(pr, "--help");
    ck_assert_int_eq(pr->status, 0);
    for (int k = 0; k < COUNT(options); k++)
        ck_assert_msg(strstr(pr->out, options[k]), "help lacks %s", options[k]);
    cli_run_free(pr);
}
END_TEST

/* `glnbody run` with no option: a Plummer sphere on the default (compute)
 * backend to t = 1, the energy error and the time split on stdout. */
START_TEST(test_cli_default)
{
    struct cli_run run = { 0 }, *pr = &run;
    double de;
    run_cli(pr, (const char *const[]){ NULL });
    ck_assert_msg(pr->status == 0, "exit %d: %s", pr->status, pr->err);
    ck_assert(strstr(pr->out, "N = 512, seed 1") && strstr(pr->out, "backend compute"));
    de = cli_energy_error(pr);
    ck_assert_msg(fabs(de) < 1e-5, "energy error %g", de);
    ck_assert(strstr(pr->out, "t_host") && strstr(pr->out, "t_force"));
    cli_run_free(pr);
}
END_TEST

/* ---- the suite ----------------------------------------------------------- */

static Suite *run_cli_suite(void)
{
    Suite *s = suite_create("run_cli");
    TCase *tc;

    tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_cli_refused, 0, COUNT(refusals));
    tcase_add_test(tc, test_cli_outputs);
    tcase_add_test(tc, test_cli_input_not_rescaled);
    tcase_add_test(tc, test_cli_floor);
    tcase_add_test(tc, test_cli_help);
    suite_add_tcase(s, tc);

    tc = tcase_create("cli_gpu");       /* the default backend is a GL one */
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_default);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_run_cli", run_cli_suite, 1);
}
