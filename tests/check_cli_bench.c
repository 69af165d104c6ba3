/* check_cli_bench.c - the measuring commands: bench's CSV and its
 * refusals, the precision reports (forces, newton3, the cutoff) and
 * compare across backends.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody, from the project
 * root) through cli_harness.h; every file lives under one mkdtemp
 * directory, removed at the end.  Skipped without GL. */
#include <check.h>

#include "cli_fixtures.h"

/* ---- bench ------------------------------------------------------------- */

/* Splits a CSV line in place (quoted fields may hold commas). */
static int split_csv(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *start = p;
        if (*p == '"') {
            start = ++p;
            while (*p && *p != '"')
                p++;
            ck_assert_msg(*p == '"', "unterminated quote in CSV line");
            *p++ = '\0';
        } else {
            while (*p && *p != ',')
                p++;
        }
        if (n < max)
            field[n] = start;
        n++;
        if (*p != ',') {
            ck_assert_msg(*p == '\0', "junk after a CSV field");
            return n;
        }
        *p++ = '\0';
    }
}

/* glnbody precision: a row per mode asked for, each with its error against
 * the CPU in double (G near 1e-15, the float modes near 1e-7 f_err: the
 * Plummer coordinates are not float-representable), F's and H's offsets
 * at most double rounding; a bad mode letter is refused (exit 2) before
 * the CSV exists. */
START_TEST(test_precision_report)
{
    const char *csv = in_dir("precision.csv");
    struct cli_run r;
    RUN(&r, "precision", "--n", "211", "--modes", "AFGH", "--runs", "1", "--csv", csv);
    assert_success(&r);
    cli_run_free(&r);
    char *text = read_file(csv);
    ck_assert_msg(text != NULL, "--csv did not create %s", csv);
    char **lines;
    size_t count = split_lines(text, &lines);
    ck_assert_msg(count == 5, "%zu CSV lines, expected a header and 4 rows", count);
    ck_assert_str_eq(lines[0], "system,n,softening,mode,f_err,f_offset,acc_rel_max,"
                     "pot_rel_max,median_s,interactions_per_s,runs");
    const char modes[] = "AFGH";
    for (size_t k = 1; k < count; k++) {
        char *f[16];
        ck_assert_int_eq(split_csv(lines[k], f, 16), 11);
        ck_assert_msg(number(f[1]) == 211 && f[3][0] == modes[k - 1] && !f[3][1],
                      "row %zu: n %s mode %s", k, f[1], f[3]);
        double f_err = number(f[4]), offset = number(f[5]), rate = number(f[9]);
        ck_assert_msg(f[3][0] == 'G' ? f_err < 1e-13 : f_err > 1e-9 && f_err < 1e-6,
                      "mode %s f_err %g", f[3], f_err);
        if (f[3][0] == 'F' || f[3][0] == 'H')
            ck_assert_msg(offset < 1e-15, "mode %s offset %g", f[3], offset);
        ck_assert_msg(rate > 0 && number(f[8]) > 0, "mode %s rate %g", f[3], rate);
    }
    free(lines);
    free(text);
    const char *csv2 = in_dir("refused.csv");
    RUN(&r, "precision", "--n", "64", "--modes", "AQ", "--csv", csv2);
    assert_failure(&r, 2, (const char *const[]){ "'Q'", NULL });
    cli_run_free(&r);
    ck_assert_msg(access(csv2, F_OK) != 0, "a refused run left %s", csv2);
}
END_TEST

/* glnbody newton3 --precision H: the int64 kernels, each row's sums equal
 * to its square loop's bit for bit (dF 0); A (the default), E (ionic) and
 * G (LJ fcc) run every asked variant, near their square loop; G with the
 * ionic law (no double pow in GLSL) or a bad letter is an argument error
 * (exit 2) naming it. */
START_TEST(test_newton3_precision)
{
    struct cli_run r;
    RUN(&r, "newton3", "--cells", "1", "--runs", "1", "--warmup", "0", "--precision", "h",
        "--variants", "tri1-wg,tri3-gpu,lean-gpu");
    assert_success(&r);
    ck_assert_msg(strstr(r.out, "precision H"), "%s", r.out);
    int rows = 0;
    for (const char *line = strstr(r.out, "\ntri"); line; line = strstr(line + 1, "\n")) {
        if (strncmp(line + 1, "tri", 3) != 0 && strncmp(line + 1, "lean", 4) != 0)
            continue;
        const char *end = strchr(line + 1, '\n');
        size_t len = end ? (size_t)(end - line - 1) : strlen(line + 1);
        ck_assert_msg(len >= 8 && strncmp(line + 1 + len - 8, "0.00e+00", 8) == 0,
                      "row not exact: %.*s", (int)len, line + 1);
        rows++;
    }
    ck_assert_int_eq(rows, 3);
    cli_run_free(&r);
    static const char *const modes[][4] = {
        { "A", "ionic", "precision A", "2" }, { "e", "ionic", "precision E", "2" },
        { "G", "fcc", "precision G", "2" } };
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        RUN(&r, "newton3", "--cells", modes[k][3], "--runs", "1", "--warmup", "0", "--ic",
            modes[k][1], "--precision", modes[k][0], "--variants", "tri2-gpu,tri3-wg,tri3-gpu");
        assert_success(&r);
        ck_assert_msg(strstr(r.out, modes[k][2]), "%s", r.out);
        int ran = 0;
        for (const char *line = strstr(r.out, "\ntri"); line; line = strstr(line + 1, "\ntri")) {
            double dev = 1.0;
            const char *last = line + 1;
            for (const char *c = line + 1; *c && *c != '\n'; c++)
                if (*c == ' ')
                    last = c + 1;
            ck_assert_msg(sscanf(last, "%lf", &dev) == 1 && dev < 1e-5, "row: %.60s", line + 1);
            ran++;
        }
        ck_assert_int_eq(ran, 3);
        cli_run_free(&r);
    }
    static const char *const bad[][2] = { { "G", "double" }, { "Q", "'Q'" } };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        RUN(&r, "newton3", "--precision", bad[k][0]);
        assert_failure(&r, 2, (const char *const[]){ "precision", bad[k][1], NULL });
        cli_run_free(&r);
    }
}
END_TEST

/* glnbody precision --cutoff: System 2 in a periodic box through cell
 * lists (343 particles, box 7.7: 3 cells of rc 2.5), G near double
 * rounding, H's offset at most double rounding; a cutoff that is not > 0
 * or that the box cannot hold in 3 cells is refused (exit 2). */
static const char *const cutoff_bad[][2] = {
    { "0", "not > 0" }, { "-1", "not > 0" }, { "x", "'x'" }, { "3", "3 cells" }
};

START_TEST(test_precision_cutoff)
{
    const char *csv = in_dir("cells.csv");
    struct cli_run r;
    RUN(&r, "precision", "--ic", "lj16", "--n", "343", "--cutoff", "2.5", "--modes", "AGH",
        "--runs", "1", "--csv", csv);
    assert_success(&r);
    ck_assert_msg(strstr(r.out, "cell-list kernel") != NULL, "header: %s", r.out);
    cli_run_free(&r);
    char *text = read_file(csv);
    ck_assert_msg(text != NULL, "--csv did not create %s", csv);
    char **lines;
    ck_assert_int_eq(split_lines(text, &lines), 4);
    for (size_t k = 1; k < 4; k++) {
        char *f[16];
        ck_assert_int_eq(split_csv(lines[k], f, 16), 12);
        ck_assert_str_eq(f[0], "lj16, cutoff 2.5");
        double f_err = number(f[4]), offset = number(f[5]);
        ck_assert_msg(f[3][0] == 'G' ? f_err < 1e-13 : f_err < 1e-4, "mode %s f_err %g",
                      f[3], f_err);
        if (f[3][0] == 'H')
            ck_assert_msg(offset < 1e-15, "mode H offset %g", offset);
        ck_assert_msg(number(f[9]) > 0, "mode %s rate %s", f[3], f[9]);
    }
    free(lines);
    free(text);
    for (size_t k = 0; k < sizeof cutoff_bad / sizeof *cutoff_bad; k++) {
        RUN(&r, "precision", "--ic", "lj16", "--n", "343", "--cutoff", cutoff_bad[k][0]);
        assert_failure(&r, 2, (const char *const[]){ "--cutoff", cutoff_bad[k][1], NULL });
        cli_run_free(&r);
    }
}
END_TEST

START_TEST(test_bench_csv)
{
    const char *csv = in_dir("bench.csv");
    struct cli_run r;
    RUN(&r, "bench", "--kernel", "ga", "--backend", "cpu,compute", "--variant", "auto",
        "--n", "64,100", "--runs", "5", "--csv", csv);
    assert_success(&r);
    ck_assert_msg(*r.out != '\0', "bench printed no table");
    char *text = read_file(csv);
    ck_assert_msg(text != NULL, "--csv did not create %s", csv);
    char **lines;
    size_t count = split_lines(text, &lines);
    ck_assert_msg(count == 5, "%zu CSV lines, expected a header and 4 rows", count);
    const char *prefix = "n,backend,variant,renderer,median_s,interactions_per_s,gflops_20";
    ck_assert_msg(strncmp(lines[0], prefix, strlen(prefix)) == 0, "CSV header: %s",
                  lines[0]);
    int seen[2][2] = { { 0 } };
    for (size_t k = 1; k < count; k++) {
        char *f[16];
        char row[1024];
        snprintf(row, sizeof row, "%s", lines[k]);
        int nf = split_csv(lines[k], f, 16);
        ck_assert_msg(nf >= 7, "CSV row with %d fields: %s", nf, row);
        double n = number(f[0]);
        ck_assert_msg(n == 64 || n == 100, "row n=%s: %s", f[0], row);
        int backend = strcmp(f[1], "cpu") == 0 ? 0 : strcmp(f[1], "compute") == 0 ? 1 : -1;
        ck_assert_msg(backend >= 0, "row backend=%s: %s", f[1], row);
        seen[n == 100][backend]++;
        ck_assert_msg(*f[2] && strcmp(f[2], "auto") != 0, "row variant '%s'", f[2]);
        ck_assert_msg(*f[3] != '\0', "row without renderer: %s", row);
        double median = number(f[4]), rate = number(f[5]), gflops = number(f[6]);
        /* gflops has two decimals: a slow row on a busy machine reads 0.00 */
        ck_assert_msg(isfinite(median) && median > 0 && isfinite(rate) && rate > 0 &&
                      isfinite(gflops) && gflops >= 0, "row numbers not positive "
                      "and finite: %s", row);
        ck_assert_msg(fabs(rate * median / (n * n) - 1) < 1e-5,
                      "interactions_per_s != n^2/median_s: %s", row);
        ck_assert_msg(fabs(gflops - 20e-9 * rate) <= 0.006 + 1e-6 * gflops,
                      "gflops_20 != 20 interactions_per_s / 1e9: %s", row);
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            ck_assert_msg(seen[a][b] == 1, "expected one row per n and backend");
    free(lines);
    free(text);
    cli_run_free(&r);
}
END_TEST

static const struct {
    const char *option, *value, *needle;
} bench_bad[] = {
    { "--runs", "3", "--runs" },
    { "--runs", "x", "--runs" },
    { "--kernel", "bogus", "bogus" },
    { "--n", "0", "--n" },
    { "--n", "64,,x", "--n" },
    { "--variant", "bogus", "bogus" },
    { "--backend", "cpu,gpu", "gpu" },
    { "--warmup", "-1", "--warmup" },
    { "--softening", "-1", "--softening" },
    { "--frobnicate", "1", "--frobnicate" },
};

/* Refused with exit 2 and no CSV file.  (A variant or backend name is
 * checked only when its row comes up, after the table's heading went to
 * stdout, so stdout is not required to be empty here.) */
START_TEST(test_bench_refused)
{
    const char *csv = in_dir("bench.csv");
    struct cli_run r;
    RUN(&r, "bench", "--kernel", "ga", "--backend", "cpu", "--n", "64", "--csv", csv,
        bench_bad[_i].option, bench_bad[_i].value);
    const char *needles[] = { bench_bad[_i].needle, NULL };
    assert_failed(&r, 2, needles, 1);
    ck_assert_msg(!path_exists(csv), "CSV file created by a refused bench");
    const char *const none[] = { NULL };
    assert_dir_holds_only(g_dir, none);
    cli_run_free(&r);
}
END_TEST

/* ---- compare ----------------------------------------------------------- */

START_TEST(test_compare)
{
    struct cli_run r;
    RUN(&r, "compare", "--n", "37", "--softening", "0");
    assert_success(&r);
    char *copy = xstrdup(r.out), **lines;
    size_t count = split_lines(copy, &lines);
    int ok[3] = { 0 };
    for (size_t k = 0; k < count; k++) {
        char *w[16];
        int n = split_words(lines[k], w, 16);
        if (n < 2)
            continue;
        for (int b = 0; b < 3; b++)
            if (strcmp(w[0], all_backends[b]) == 0) {
                ck_assert_msg(n <= 16 && strcmp(w[n - 1], "ok") == 0,
                              "compare: %s is not ok:\n%s", all_backends[b], r.out);
                ok[b]++;
            }
    }
    for (int b = 0; b < 3; b++)
        ck_assert_msg(ok[b] == 1, "compare: %d lines for %s:\n%s", ok[b],
                      all_backends[b], r.out);
    ck_assert(strstr(r.out, "FAIL") == NULL);
    free(lines);
    free(copy);
    cli_run_free(&r);
}
END_TEST

START_TEST(test_compare_refused)
{
    struct cli_run r;
    RUN(&r, "compare", "--n", "0");
    const char *needles[] = { "--n", NULL };
    assert_failure(&r, 2, needles);
    cli_run_free(&r);
    RUN(&r, "compare", "--n", "8", "--backends", "cpu,gpu");
    ck_assert_msg(r.status == 2, "exit status %d, expected 2: %s", r.status, r.err);
    ck_assert(strstr(r.err, "'gpu'") != NULL);
    cli_run_free(&r);
}
END_TEST

static Suite *cli_bench_suite(void)
{
    Suite *s = suite_create("cli_bench");
    TCase *tc = tcase(s, "bench");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_test(tc, test_bench_csv);
    tcase_add_test(tc, test_precision_report);
    tcase_add_test(tc, test_precision_cutoff);
    tcase_add_test(tc, test_newton3_precision);
    tcase_add_loop_test(tc, test_bench_refused, 0, COUNT(bench_bad));

    tc = tcase(s, "compare");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_test(tc, test_compare);
    tcase_add_test(tc, test_compare_refused);
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_bench", cli_bench_suite, 1);
}
