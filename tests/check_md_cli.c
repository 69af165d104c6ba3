/* check_md_cli.c - `glnbody md`, the command-line contract of molecular
 * dynamics: thermo CSV columns and values, --per-atom, the three backends
 * agreeing, trajectories in both formats, a run restarted from its own
 * dump, and bad input refused with one message, exit 2 (command line) or 1
 * (files), and no file left behind.  Runs the binary (GLNBODY_BIN, default
 * build/glnbody) in a temporary directory per test. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "cli_harness.h"

/* A fresh directory for one test. */
static const char *test_dir(const char *name)
{
    static char dir[2048];
    snprintf(dir, sizeof dir, "%s/%s", g_root, name);
    ck_assert_msg(mkdir(dir, 0777) == 0 || errno == EEXIST, "mkdir %s", dir);
    return dir;
}

static void run_md(struct cli_run *r, const char *dir, const char *const *args)
{
    const char *argv[64] = { "md" };
    size_t k = 1;
    for (; args[k - 1]; k++)
        argv[k] = args[k - 1];
    argv[k] = NULL;
    cli_run_in(r, dir, NULL, argv);
}

/* The thermo rows of a CSV: rows[k][0..6]; returns the row count. */
static int read_thermo(const char *path, double rows[][7], int max)
{
    char *text = read_file(path);
    ck_assert_msg(text != NULL, "no thermo file %s", path);
    ck_assert_msg(strncmp(text, "step,time,temp,pe,ke,etotal,press\n", 34) == 0,
                  "thermo header: %.60s", text);
    int count = 0;
    for (char *line = strchr(text, '\n') + 1; *line && count < max; count++) {
        double *v = rows[count];
        ck_assert_int_eq(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2],
                                &v[3], &v[4], &v[5], &v[6]), 7);
        line = strchr(line, '\n');
        ck_assert_ptr_nonnull(line);
        line++;
    }
    free(text);
    return count;
}

static char *path_in(const char *dir, const char *name)
{
    static char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* Names in dir other than those listed (NULL-terminated): none expected. */
static void assert_only(const char *dir, const char *const *allowed)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d))) {
        int ok = e->d_name[0] == '.';
        for (size_t k = 0; allowed && allowed[k]; k++)
            ok |= strcmp(e->d_name, allowed[k]) == 0;
        ck_assert_msg(ok, "%s: unexpected file %s left behind", dir, e->d_name);
    }
    closedir(d);
}

#define FCC108 "--ic", "fcc", "--cells", "3", "--cutoff", "2.5", "--shift"

START_TEST(thermo_columns_and_values)
{
    const char *dir = test_dir("thermo");
    struct cli_run r;
    double rows[8][7];
    const char *args[] = { FCC108, "--backend", "cpu", "--steps", "20", "--thermo-every",
                           "5", "--thermo", "t.csv", "--integrals", "i.csv", NULL };
    run_md(&r, dir, args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_int_eq(read_thermo(path_in(dir, "t.csv"), rows, 8), 5);
    for (int k = 0; k < 5; k++) {
        ck_assert_int_eq((int)rows[k][0], 5 * k);
        ck_assert_double_eq_tol(rows[k][1], 0.005 * 5 * k, 1e-15);
        ck_assert_double_eq_tol(rows[k][5], rows[k][3] + rows[k][4], 1e-9 * fabs(rows[k][5]));
        /* velocity Verlet at dt = 0.005: energy within 1e-3 relative */
        ck_assert_msg(fabs(rows[k][5] - rows[0][5]) < 1e-3 * fabs(rows[0][5]),
                      "etotal %g -> %g", rows[0][5], rows[k][5]);
    }
    ck_assert_double_eq_tol(rows[0][2], 1.0, 1e-12);       /* --temperature default */
    ck_assert_double_eq_tol(rows[0][4], 1.5 * 107, 1e-9);   /* ke = (3n-3) T / 2 */
    char *integrals = read_file(path_in(dir, "i.csv"));
    ck_assert_ptr_nonnull(integrals);
    ck_assert(strncmp(integrals, "step,time,px,py,pz,lx,ly,lz,com_x,com_y,com_z\n", 46) == 0);
    free(integrals);
    cli_run_free(&r);
}
END_TEST

START_TEST(per_atom_divides_energies)
{
    const char *dir = test_dir("per_atom");
    struct cli_run r;
    double total[4][7], per[4][7];
    const char *a[] = { FCC108, "--backend", "cpu", "--steps", "10", "--thermo", "a.csv", NULL };
    const char *b[] = { FCC108, "--backend", "cpu", "--steps", "10", "--thermo", "b.csv",
                        "--per-atom", NULL };
    run_md(&r, dir, a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    run_md(&r, dir, b);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    int n = read_thermo(path_in(dir, "a.csv"), total, 4);
    ck_assert_int_eq(read_thermo(path_in(dir, "b.csv"), per, 4), n);
    for (int k = 0; k < n; k++) {
        for (int c = 3; c <= 5; c++)
            ck_assert_double_eq_tol(per[k][c], total[k][c] / 108.0, 1e-12 * fabs(total[k][c]));
        ck_assert(per[k][2] == total[k][2] && per[k][6] == total[k][6]);
    }
}
END_TEST

/* cpu, compute (cell lists: 4^3 fcc is 6.7 wide, too narrow; use 5^3)
 * and fragment agree to float rounding over 20 steps. */
START_TEST(backends_agree)
{
    const char *dir = test_dir("backends");
    static const char *const backends[] = { "cpu", "compute", "fragment" };
    double rows[3][4][7];
    for (int b = 0; b < 3; b++) {
        struct cli_run r;
        char name[32];
        snprintf(name, sizeof name, "%s.csv", backends[b]);
        const char *args[] = { "--ic", "fcc", "--cells", "5", "--cutoff", "2.5", "--shift",
                               "--temperature", "0.8", "--backend", backends[b], "--steps",
                               "20", "--thermo-every", "10", "--thermo", name, NULL };
        run_md(&r, dir, args);
        ck_assert_msg(r.status == 0, "%s: %s", backends[b], r.err);
        ck_assert_msg(strstr(r.out, b == 2 ? "all pairs" : "cell lists") != NULL, "%s", r.out);
        ck_assert_int_eq(read_thermo(path_in(dir, name), rows[b], 4), 3);
        cli_run_free(&r);
    }
    for (int b = 1; b < 3; b++)
        for (int k = 0; k < 3; k++) {
            ck_assert_double_eq_tol(rows[b][k][2], rows[0][k][2], 1e-5);
            ck_assert_double_eq_tol(rows[b][k][5], rows[0][k][5], 1e-5 * fabs(rows[0][k][5]));
        }
}
END_TEST

/* A LAMMPS dump of step 0 restarts the same run: identical thermo. */
START_TEST(dump_restart_and_formats)
{
    const char *dir = test_dir("dump");
    struct cli_run r;
    double first[4][7], again[4][7];
    const char *a[] = { FCC108, "--backend", "cpu", "--steps", "10", "--thermo", "a.csv",
                        "--dump", "traj.dump", "--dump-every", "5", "--output", "final.txt",
                        NULL };
    const char *x[] = { FCC108, "--backend", "cpu", "--steps", "10", "--thermo", "x.csv",
                        "--dump", "traj.xyz", "--dump-every", "10", NULL };
    run_md(&r, dir, a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    run_md(&r, dir, x);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);

    char *dump = read_file(path_in(dir, "traj.dump")), *xyz = read_file(path_in(dir, "traj.xyz"));
    ck_assert(dump && xyz);
    int frames = 0, lines = 0;
    for (char *p = dump; (p = strstr(p, "ITEM: TIMESTEP")); p++)
        frames++;
    ck_assert_int_eq(frames, 3);                        /* steps 0, 5, 10 */
    for (char *p = xyz; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 2 * (108 + 2));             /* steps 0, 10 */
    ck_assert_msg(strstr(xyz, "Lattice=\"") && strstr(xyz, "pbc=\"T T T\""), "%.200s", xyz);
    /* the first frame alone as the input of a new run */
    *strstr(strstr(dump, "ITEM: TIMESTEP") + 1, "ITEM: TIMESTEP") = '\0';
    write_file(path_in(dir, "init.dump"), dump);
    free(dump);
    free(xyz);
    const char *b[] = { "--input", "init.dump", "--cutoff", "2.5", "--shift", "--backend",
                        "cpu", "--steps", "10", "--thermo", "b.csv", NULL };
    run_md(&r, dir, b);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_run_free(&r);
    int n = read_thermo(path_in(dir, "a.csv"), first, 4);
    ck_assert_int_eq(read_thermo(path_in(dir, "b.csv"), again, 4), n);
    for (int k = 0; k < n; k++)
        for (int c = 0; c < 7; c++)
            ck_assert_msg(first[k][c] == again[k][c], "row %d col %d: %.17g vs %.17g", k, c,
                          first[k][c], again[k][c]);
    char *final = read_file(path_in(dir, "final.txt"));
    ck_assert_ptr_nonnull(final);
    ck_assert_msg(strstr(final, "id type m x y z vx vy vz") != NULL, "%.200s", final);
    free(final);
}
END_TEST

START_TEST(ionic_crystal_runs)
{
    const char *dir = test_dir("ionic");
    struct cli_run r;
    double rows[4][7];
    const char *args[] = { "--ic", "ionic", "--cells", "2", "--dt", "0.0005", "--steps", "20",
                           "--thermo-every", "10", "--backend", "cpu", "--thermo", "t.csv",
                           NULL };
    run_md(&r, dir, args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "96 atoms, ionic") != NULL, "%s", r.out);
    int n = read_thermo(path_in(dir, "t.csv"), rows, 4);
    ck_assert_int_eq(n, 3);
    ck_assert(rows[0][3] < 0.0);                        /* a bound crystal */
    ck_assert_double_eq_tol(rows[n - 1][5], rows[0][5], 1e-6 * fabs(rows[0][5]));
    cli_run_free(&r);
}
END_TEST

/* Bad input: one message naming the cause, the exit status, nothing left. */
struct refusal {
    const char *name;
    const char *args[24];
    int status;
    const char *message;
};

static const struct refusal refusals[] = {
    { "cutoff_half", { "--ic", "fcc", "--cells", "3", "--cutoff", "3", "--shift",
                       "--thermo", "t.csv", NULL }, 2, "half" },
    { "no_cutoff", { "--ic", "fcc", "--cells", "3", "--thermo", "t.csv", NULL }, 2, "cutoff" },
    { "cells_narrow", { FCC108, "--cells-list", "on", "--thermo", "t.csv", NULL }, 2, "cell" },
    { "law", { FCC108, "--potential", "morse", "--thermo", "t.csv", NULL }, 2, "morse" },
    { "box", { FCC108, "--box", "1", "0", "0", "1", "0", "1", "--thermo", "t.csv", NULL }, 2,
      "xlo" },
    { "box_short", { FCC108, "--box", "0", "1", "0", NULL }, 2, "six values" },
    { "grid_energy", { "--ic", "grid", "--cutoff", "2.5", NULL }, 2, "--energy" },
    { "dump_every", { FCC108, "--dump", "d.dump", NULL }, 2, "--dump-every" },
    { "steps", { FCC108, "--steps", "-1", NULL }, 2, "steps" },
    { "shift", { "--ic", "fcc", "--shift", NULL }, 2, "--shift needs --cutoff" },
    { "missing_input", { "--input", "missing.dump", "--cutoff", "2.5", "--thermo", "t.csv",
                         "--backend", "cpu", NULL }, 1, "missing.dump" },
    { "bad_dump", { "--input", "bad.dump", "--cutoff", "2.5", "--thermo", "t.csv",
                    "--backend", "cpu", NULL }, 1, "bad.dump:" },
    { "bad_coeffs", { FCC108, "--coeffs", "bad.coeffs", "--thermo", "t.csv", "--backend",
                      "cpu", NULL }, 1, "bad.coeffs:" },
    { "no_types", { "--input", "plain.txt", "--thermo", "t.csv", "--backend", "cpu", NULL },
      1, "type" },
    { "bad_exclude", { FCC108, "--exclude", "bad.exclude", "--thermo", "t.csv", "--backend",
                       "cpu", NULL }, 1, "bad.exclude:2:3: no particle has id 999" },
};

START_TEST(bad_input_refused)
{
    const struct refusal *f = &refusals[_i];
    const char *dir = test_dir(f->name);
    static const char *const inputs[] = { "bad.dump", "bad.coeffs", "plain.txt",
                                          "bad.exclude", NULL };
    struct cli_run r;
    write_file(path_in(dir, "bad.dump"), "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\n"
               "ITEM: BOX BOUNDS pp pp pp\n0 5\n0 5\n0 5\nITEM: ATOMS id type x y z\n"
               "1 1 0 0 0\n2 1 1 1 x\n");
    write_file(path_in(dir, "bad.coeffs"), "types 1\nlj 1 1 1.0 banana\n");
    write_file(path_in(dir, "plain.txt"), "0 1 0 0 0 0 0 0\n1 1 1 1 1 0 0 0\n");
    write_file(path_in(dir, "bad.exclude"), "1 2\n3 999\n");
    run_md(&r, dir, f->args);
    ck_assert_msg(r.status == f->status, "%s: exit %d, expected %d: %s", f->name, r.status,
                  f->status, r.err);
    ck_assert_msg(strstr(r.err, f->message) != NULL, "%s: message '%s' lacks '%s'", f->name,
                  r.err, f->message);
    int messages = 0;
    for (char *line = r.err; *line; line = strchr(line, '\n') + 1) {
        ck_assert_msg(strchr(line, '\n') != NULL, "%s: unterminated: %s", f->name, r.err);
        messages += strncmp(line, "glnbody: renderer", 17) != 0;
    }
    ck_assert_msg(messages == 1 && strncmp(r.err, "glnbody md: ", 12) == 0,
                  "%s: not one message: %s", f->name, r.err);
    assert_only(dir, inputs);
    cli_run_free(&r);
}
END_TEST

static Suite *md_cli_suite(void)
{
    Suite *s = suite_create("md_cli");
    TCase *tc = tcase_create("md");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, thermo_columns_and_values);
    tcase_add_test(tc, per_atom_divides_energies);
    tcase_add_test(tc, dump_restart_and_formats);
    tcase_add_test(tc, ionic_crystal_runs);
    tcase_add_loop_test(tc, bad_input_refused, 0, sizeof refusals / sizeof *refusals);
    suite_add_tcase(s, tc);

    tc = tcase_create("gpu");           /* the GL backends: skipped without GL */
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, backends_agree);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_md_cli", md_cli_suite, 1);
}
