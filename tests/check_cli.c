/* check_cli.c - the command-line contract of the glnbody program.
 *
 * Runs the real binary (GLNBODY_BIN, default ./glnbody; the suite runs from
 * the project root) with fork/execve, stdout and stderr captured separately
 * into files made with mkstemp, and checks: the forces output format and
 * values on every backend, the error messages, exit statuses (2 for a bad
 * command line, 1 for other failures) and the absence of partial output
 * files, the help texts, bench's CSV, shader load failures and compare.
 * Every file lives under one mkdtemp directory, removed at the end.
 */
#include <check.h>

#include <math.h>
#include <stdarg.h>
#include <sys/types.h>

#include "cli_harness.h"

#define GPU_TIMEOUT 60          /* seconds a test case may take */

static char g_dir[4096];        /* the current test's own directory */

/* ---- small utilities --------------------------------------------------- */

static char *xstrdup(const char *s)
{
    char *copy = strdup(s);
    ck_assert_ptr_nonnull(copy);
    return copy;
}

/* Strings made during a test (paths, needles), freed by the teardown. */
static char *g_pool[1024];
static size_t g_pooled;

static char *pool(char *s)
{
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_lt(g_pooled, sizeof g_pool / sizeof g_pool[0]);
    return g_pool[g_pooled++] = s;
}

static void pool_free(void)
{
    while (g_pooled > 0)
        free(g_pool[--g_pooled]);
}

/* A formatted string that lives until the end of the test. */
static const char *fmt(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int len = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    ck_assert_int_ge(len, 0);
    char *buf = pool(malloc((size_t)len + 1));
    va_start(ap, format);
    vsnprintf(buf, (size_t)len + 1, format, ap);
    va_end(ap);
    return buf;
}

static int path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copies the plain files of directory src into the new directory dst. */
static void copy_directory(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    ck_assert_msg(d != NULL, "cannot open %s (run the suite from the project "
                  "root): %s", src, strerror(errno));
    ck_assert_int_eq(mkdir(dst, 0700), 0);
    struct dirent *e;
    int copied = 0;
    while ((e = readdir(d)) != NULL) {
        const char *from = fmt("%s/%s", src, e->d_name);
        struct stat st;
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        char *text = read_file(from);
        ck_assert_ptr_nonnull(text);
        write_file(fmt("%s/%s", dst, e->d_name), text);
        free(text);
        copied++;
    }
    closedir(d);
    ck_assert_int_gt(copied, 0);
}

/* Fails unless every entry of dir is one of the NULL-terminated names. */
static void assert_dir_holds_only(const char *dir, const char *const *names)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        int known = 0;
        for (const char *const *n = names; *n; n++)
            known |= strcmp(*n, e->d_name) == 0;
        ck_assert_msg(known, "unexpected file '%s' left in %s", e->d_name, dir);
    }
    closedir(d);
}

/* Splits text into lines in place (the text must end with '\n'); returns
 * the count, and the lines in a new array. */
static size_t split_lines(char *text, char ***lines)
{
    size_t n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    *lines = calloc(n + 1, sizeof **lines);
    ck_assert_ptr_nonnull(*lines);
    size_t k = 0;
    for (char *c = text; *c && k < n;) {
        char *nl = strchr(c, '\n');
        *nl = '\0';
        (*lines)[k++] = c;
        c = nl + 1;
    }
    return n;
}

/* Whitespace-separated tokens of a line (modified in place). */
static int split_words(char *line, char **word, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (n < max)
            word[n] = w;
        n++;
    }
    return n;
}

/* Does text contain option (e.g. "--n") as a whole word? */
static int has_option(const char *text, const char *option)
{
    size_t len = strlen(option);
    for (const char *p = strstr(text, option); p; p = strstr(p + 1, option)) {
        int before = p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[' ||
                     p[-1] == '(';
        char after = p[len];
        if (before && (after == ' ' || after == '\n' || after == '=' ||
                       after == ']' || after == '\0'))
            return 1;
    }
    return 0;
}

/* strtod of a whole token, failing the test if it is not a number. */
static double number(const char *tok)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    ck_assert_msg(end != tok && *end == '\0', "'%s' is not a number", tok);
    return v;
}

/* ---- running the program ----------------------------------------------- */

#define RUN(r, ...) cli_run_in((r), NULL, NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define RUN_ENV(r, env, ...) \
    cli_run_in((r), NULL, (env), (const char *const[]){ __VA_ARGS__, NULL })

/* stderr without the informational "glnbody: renderer ..." line a GPU run
 * prints; the messages of a failure are what is left. */
static char *messages(const char *err)
{
    char *copy = xstrdup(err), *dst = copy;
    for (const char *line = err; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (strncmp(line, "glnbody: renderer ", 18) != 0) {
            memmove(dst, line, len);
            dst += len;
        }
        line += len;
    }
    *dst = '\0';
    return copy;
}

static void assert_success(const struct cli_run *r)
{
    ck_assert_msg(r->status == 0, "exit status %d, stderr: %s", r->status, r->err);
    char *m = messages(r->err);
    ck_assert_msg(*m == '\0', "unexpected stderr: %s", r->err);
    free(m);
}

/* The run failed with status and one message line naming every needle;
 * stdout is empty unless allow_stdout. */
static void assert_failed(const struct cli_run *r, int status, const char *const *needles,
                          int allow_stdout)
{
    ck_assert_msg(r->status == status, "exit status %d, expected %d; stderr: %s",
                  r->status, status, r->err);
    ck_assert_msg(allow_stdout || *r->out == '\0', "stdout not empty on failure: %s",
                  r->out);
    char *m = messages(r->err);
    size_t len = strlen(m);
    ck_assert_msg(len > 0 && m[len - 1] == '\n' && strchr(m, '\n') == m + len - 1,
                  "expected one message line on stderr, got: '%s'", r->err);
    ck_assert_msg(strncmp(m, "glnbody: ", 9) == 0, "message without the program "
                  "name: %s", m);
    for (const char *const *n = needles; n && *n; n++)
        ck_assert_msg(strstr(m, *n) != NULL, "message does not name '%s': %s", *n, m);
    free(m);
}

static void assert_failure(const struct cli_run *r, int status, const char *const *needles)
{
    assert_failed(r, status, needles, 0);
}

/* ---- fixtures ---------------------------------------------------------- */

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/test.XXXXXX", g_root);
    ck_assert_msg(mkdtemp(g_dir) != NULL, "mkdtemp: %s", strerror(errno));
}

static void teardown(void)
{
    remove_tree(g_dir);
    pool_free();
}

static const char *in_dir(const char *name)
{
    return fmt("%s/%s", g_dir, name);
}

/* ---- forces output ----------------------------------------------------- */

/* A particle set and its expected GA result, computed here in double. */
#define MAXP 8
struct system {
    size_t n;
    const char *id[MAXP];
    double m[MAXP], x[MAXP][3];
};

struct expected {
    double acc[MAXP][3], pot[MAXP];
    double acc_scale[MAXP], pot_scale[MAXP];    /* sums of pair magnitudes */
};

static void expect_ga(const struct system *s, double eps, struct expected *e)
{
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = 0; j < s->n; j++) {
            if (j == i)
                continue;
            double d[3], r2 = eps * eps;
            for (int c = 0; c < 3; c++) {
                d[c] = s->x[j][c] - s->x[i][c];
                r2 += d[c] * d[c];
            }
            double r = sqrt(r2);
            for (int c = 0; c < 3; c++)
                e->acc[i][c] += s->m[j] * d[c] / (r2 * r);
            e->acc_scale[i] += s->m[j] * sqrt(r2 - eps * eps) / (r2 * r);
            e->pot[i] -= s->m[j] / r;
            e->pot_scale[i] += s->m[j] / r;
        }
}

/* Writes s as a snapshot with comments, blank lines and (with types) the
 * 9-column layout; every number printed exactly (%.17g). */
static void write_system(const char *path, const struct system *s, int types)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "# snapshot for check_cli: %s\n\n", types ? "id type m x y z vx vy vz"
                                                          : "id m x y z vx vy vz");
    for (size_t i = 0; i < s->n; i++) {
        if (i == 1)
            fprintf(fp, "   \n# a comment between particles\n");
        fprintf(fp, "%s", s->id[i]);
        if (types)
            fprintf(fp, " %zu", i % 3);
        fprintf(fp, " %.17g %.17g %.17g %.17g 0.5 -0.25 0\n", s->m[i], s->x[i][0],
                s->x[i][1], s->x[i][2]);
    }
    fprintf(fp, "\n# end\n");
    ck_assert_int_eq(fclose(fp), 0);
}

/* The value of key=VALUE in the header (VALUE up to a blank, or quoted). */
static const char *header_value(const char *header, const char *key)
{
    const char *p = strstr(header, fmt(" %s=", key));
    ck_assert_msg(p != NULL, "header does not name %s=: %s", key, header);
    p += strlen(key) + 2;
    int quoted = *p == '"';
    size_t len = quoted ? strcspn(p + 1, "\"") : strcspn(p, " \t");
    return fmt("%.*s", (int)len, p + quoted);
}

/* Checks forces output text for system s: one header line naming backend,
 * variant (starting with variant_prefix), renderer and softening eps, then
 * `id ax ay az pot` in input order.  CPU numbers are %.17g and within
 * 1e-14 of the pair-magnitude scale; GPU numbers %.9g and within 1e-6. */
static void check_forces(const char *text, const struct system *s, double eps,
                         const char *backend, const char *variant_prefix)
{
    size_t len = strlen(text);
    ck_assert_msg(len > 0 && text[len - 1] == '\n', "output does not end in a "
                  "newline: '%s'", text);
    char *copy = xstrdup(text), **lines;
    size_t count = split_lines(copy, &lines);
    ck_assert_msg(count == s->n + 1, "%zu lines, expected %zu:\n%s", count, s->n + 1,
                  text);
    ck_assert_msg(lines[0][0] == '#', "first line is not the header: %s", lines[0]);
    ck_assert_str_eq(header_value(lines[0], "backend"), backend);
    const char *variant = header_value(lines[0], "variant");
    ck_assert_msg(strncmp(variant, variant_prefix, strlen(variant_prefix)) == 0 &&
                  strcmp(variant, "auto") != 0, "variant=%s, expected %s...",
                  variant, variant_prefix);
    ck_assert_msg(*header_value(lines[0], "renderer") != '\0', "empty renderer=");
    ck_assert(number(header_value(lines[0], "softening")) == eps);

    int cpu = strcmp(backend, "cpu") == 0;
    double tol = cpu ? 1e-14 : 1e-6;
    struct expected e;
    expect_ga(s, eps, &e);
    for (size_t i = 0; i < s->n; i++) {
        char line[1024], *w[6];
        snprintf(line, sizeof line, "%s", lines[i + 1]);
        ck_assert_msg(split_words(lines[i + 1], w, 6) == 5, "line %zu is not "
                      "`id ax ay az pot`: %s", i + 2, line);
        ck_assert_msg(strcmp(w[0], s->id[i]) == 0, "line %zu: id %s, expected %s "
                      "(input order)", i + 2, w[0], s->id[i]);
        for (int c = 0; c < 4; c++) {
            double v = number(w[c + 1]);
            char again[64];
            snprintf(again, sizeof again, cpu ? "%.17g" : "%.9g", v);
            ck_assert_msg(strcmp(again, w[c + 1]) == 0, "id %s: '%s' is not printed "
                          "with %s", w[0], w[c + 1], cpu ? "%.17g" : "%.9g");
            double want = c < 3 ? e.acc[i][c] : e.pot[i];
            double scale = c < 3 ? e.acc_scale[i] : e.pot_scale[i];
            ck_assert_msg(fabs(v - want) <= tol * scale, "id %s column %d: %.17g, "
                          "expected %.17g (tolerance %g x %g)", w[0], c + 2, v, want,
                          tol, scale);
        }
    }
    free(lines);
    free(copy);
}

/* Masses 1 and 0.5 at distance 2 on the x axis, ids 17 and 3: every value
 * is a power of two, exact in any order of evaluation. */
static const struct system two_body = {
    2, { "17", "3" }, { 1.0, 0.5 }, { { 0, 0, 0 }, { 2, 0, 0 } } };

/* Four particles, ids out of order and one beyond 2^53, no symmetry. */
static const struct system four_body = {
    4, { "17", "3", "99", "9007199254740993" }, { 1.0, 0.5, 0.25, 2.0 },
    { { 0, 0, 0 }, { 1.5, -0.5, 0.25 }, { -0.75, 1.25, 2 }, { 0.5, 1, -1.5 } } };

/* cpu: the printed numbers read back to exactly the doubles computed here
 * (a = m_j / r^2 toward j, pot = -m_j / r), header first, input order. */
START_TEST(test_forces_cpu_two_body_exact)
{
    const char *in = in_dir("two.txt");
    write_system(in, &two_body, 0);
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0", "--backend", "cpu");
    assert_success(&r);
    check_forces(r.out, &two_body, 0.0, "cpu", "newton3");

    char *copy = xstrdup(r.out), **lines, *w[6];
    ck_assert_uint_eq(split_lines(copy, &lines), 3);
    const double want[2][4] = { { 0.5 / 4.0, 0, 0, -0.5 / 2.0 },
                                { -1.0 / 4.0, 0, 0, -1.0 / 2.0 } };
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(split_words(lines[i + 1], w, 6), 5);
        for (int c = 0; c < 4; c++)
            ck_assert_msg(number(w[c + 1]) == want[i][c], "particle %d column %d: "
                          "%s != %.17g", i, c + 2, w[c + 1], want[i][c]);
    }
    free(lines);
    free(copy);
    cli_run_free(&r);
}
END_TEST

/* cpu: a value with no short decimal form comes with all 17 digits, and
 * reads back within an ulp or two of the value computed here. */
START_TEST(test_forces_cpu_17_digits)
{
    const struct system s = { 2, { "1", "2" }, { 1.0, 0.5 }, { { 0, 0, 0 }, { 0, 0, 3 } } };
    const char *in = in_dir("three.txt");
    write_system(in, &s, 0);
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0", "--backend", "cpu");
    assert_success(&r);
    check_forces(r.out, &s, 0.0, "cpu", "newton3");
    /* az of particle 1 is 0.5/9: %.9g would print 0.0555555556 */
    char *copy = xstrdup(r.out), **lines, *w[6];
    split_lines(copy, &lines);
    ck_assert_int_eq(split_words(lines[1], w, 6), 5);
    ck_assert_msg(strlen(w[3]) >= 18, "az printed with too few digits: %s", w[3]);
    ck_assert(fabs(number(w[3]) - 0.5 / 9.0) <= 4e-16 * (0.5 / 9.0));
    ck_assert(fabs(number(w[4]) + 0.5 / 3.0) <= 4e-16 * (0.5 / 3.0));
    free(lines);
    free(copy);
    cli_run_free(&r);
}
END_TEST

/* 8 and 9 columns, comments and blank lines, ids 17 3 99 2^53+1 in input
 * order, softening; --output writes exactly N+1 lines and nothing goes to
 * stdout; without --output the same text goes to stdout. */
static void forces_file_case(int types)
{
    const char *in = in_dir("in.txt"), *out = in_dir("out.txt");
    write_system(in, &four_body, types);
    struct cli_run r, s;
    RUN(&r, "forces", "--input", in, "--softening", "0.125", "--backend", "cpu",
        "--output", out);
    assert_success(&r);
    ck_assert_msg(*r.out == '\0', "stdout not empty with --output: %s", r.out);
    char *text = read_file(out);
    ck_assert_msg(text != NULL, "--output did not create %s", out);
    check_forces(text, &four_body, 0.125, "cpu", "newton3");
    const char *const names[] = { "in.txt", "out.txt", NULL };
    assert_dir_holds_only(g_dir, names);

    RUN(&s, "forces", "--input", in, "--softening", "0.125", "--backend", "cpu");
    assert_success(&s);
    ck_assert_str_eq(s.out, text);
    free(text);
    cli_run_free(&r);
    cli_run_free(&s);
}

START_TEST(test_forces_8_columns)
{
    forces_file_case(0);
}
END_TEST

START_TEST(test_forces_9_columns)
{
    forces_file_case(1);
}
END_TEST

/* The type column changes nothing: 8- and 9-column files give equal data. */
START_TEST(test_forces_types_ignored)
{
    const char *in8 = in_dir("in8.txt"), *in9 = in_dir("in9.txt");
    write_system(in8, &four_body, 0);
    write_system(in9, &four_body, 1);
    struct cli_run a, b;
    RUN(&a, "forces", "--input", in8, "--softening", "0", "--backend", "cpu");
    RUN(&b, "forces", "--input", in9, "--softening", "0", "--backend", "cpu");
    assert_success(&a);
    assert_success(&b);
    ck_assert_str_eq(a.out, b.out);
    cli_run_free(&a);
    cli_run_free(&b);
}
END_TEST

static const char *const all_backends[] = { "cpu", "compute", "fragment" };

/* N = 1: zero acceleration and potential, one data line, every backend. */
START_TEST(test_forces_single_particle)
{
    const char *backend = all_backends[_i];
    const struct system s = { 1, { "42" }, { 3.0 }, { { 0.5, -1, 2 } } };
    const char *in = in_dir("one.txt"), *out = in_dir("out.txt");
    write_system(in, &s, _i == 1);
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0", "--backend", backend,
        "--output", out);
    assert_success(&r);
    char *text = read_file(out);
    ck_assert_ptr_nonnull(text);
    check_forces(text, &s, 0.0, backend, "");
    char *copy = xstrdup(text), **lines, *w[6];
    split_lines(copy, &lines);
    ck_assert_int_eq(split_words(lines[1], w, 6), 5);
    for (int c = 1; c < 5; c++)
        ck_assert_msg(number(w[c]) == 0.0, "%s: column %d is %s, not 0", backend,
                      c + 1, w[c]);
    free(lines);
    free(copy);
    free(text);
    cli_run_free(&r);
}
END_TEST

/* The GPU backends: %.9g, within 1e-6 of the double result, input order,
 * header naming the backend and the variant asked for (or auto's pick). */
static const struct {
    const char *backend, *variant;
} gpu_runs[] = {
    { "compute", NULL }, { "compute", "t64i1" }, { "compute", "t256i4" },
    { "fragment", NULL }, { "fragment", "1x1" }, { "fragment", "4x4" },
};

START_TEST(test_forces_gpu)
{
    const char *backend = gpu_runs[_i].backend, *variant = gpu_runs[_i].variant;
    const char *in2 = in_dir("two.txt"), *in4 = in_dir("four.txt");
    const char *out = in_dir("out.txt");
    write_system(in2, &two_body, 0);
    write_system(in4, &four_body, 1);
    struct cli_run r, s;
    if (variant)
        RUN(&r, "forces", "--input", in4, "--softening", "0.125", "--backend", backend,
            "--variant", variant, "--output", out);
    else
        RUN(&r, "forces", "--input", in4, "--softening", "0.125", "--backend", backend,
            "--output", out);
    assert_success(&r);
    ck_assert_msg(*r.out == '\0', "stdout not empty with --output: %s", r.out);
    char *text = read_file(out);
    ck_assert_msg(text != NULL, "--output did not create %s", out);
    check_forces(text, &four_body, 0.125, backend, variant ? variant : "");
    free(text);

    /* eps = 0, to stdout, exact powers of two */
    if (variant)
        RUN(&s, "forces", "--input", in2, "--softening", "0", "--backend", backend,
            "--variant", variant);
    else
        RUN(&s, "forces", "--input", in2, "--softening", "0", "--backend", backend);
    assert_success(&s);
    check_forces(s.out, &two_body, 0.0, backend, variant ? variant : "");
    cli_run_free(&r);
    cli_run_free(&s);
}
END_TEST

/* Without --backend the forces come from the compute backend. */
START_TEST(test_forces_default_backend)
{
    const char *in = in_dir("two.txt");
    write_system(in, &two_body, 0);
    struct cli_run r;
    RUN(&r, "forces", "--input", in, "--softening", "0");
    assert_success(&r);
    check_forces(r.out, &two_body, 0.0, "compute", "t");
    cli_run_free(&r);
}
END_TEST

/* ---- forces errors ----------------------------------------------------- */

#define VALID "# fine\n1 1 0 0 0 0 0 0\n2 0.5 2 0 0 0 0 0\n"

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
    const char *csv2 = in_dir("refused.csv");
    RUN(&r, "precision", "--n", "64", "--modes", "AQ", "--csv", csv2);
    assert_failure(&r, 2, (const char *const[]){ "'Q'", NULL });
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
    for (size_t k = 0; k < sizeof cutoff_bad / sizeof *cutoff_bad; k++) {
        RUN(&r, "precision", "--ic", "lj16", "--n", "343", "--cutoff", cutoff_bad[k][0]);
        assert_failure(&r, 2, (const char *const[]){ "--cutoff", cutoff_bad[k][1], NULL });
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
        ck_assert_msg(isfinite(median) && median > 0 && isfinite(rate) && rate > 0 &&
                      isfinite(gflops) && gflops > 0, "row numbers not positive "
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

/* ---- the suite --------------------------------------------------------- */

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, GPU_TIMEOUT);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase(s, "forces");
    tcase_add_test(tc, test_forces_cpu_two_body_exact);
    tcase_add_test(tc, test_forces_cpu_17_digits);
    tcase_add_test(tc, test_forces_8_columns);
    tcase_add_test(tc, test_forces_9_columns);
    tcase_add_test(tc, test_forces_types_ignored);
    tcase_add_loop_test(tc, test_forces_single_particle, 0, COUNT(all_backends));
    tcase_add_loop_test(tc, test_forces_gpu, 0, COUNT(gpu_runs));
    tcase_add_test(tc, test_forces_default_backend);

    tc = tcase(s, "errors");
    tcase_add_loop_test(tc, test_forces_bad_input, 0, COUNT(bad_cases));
    tcase_add_test(tc, test_forces_output_is_directory);
    tcase_add_test(tc, test_forces_failure_keeps_old_output);

    tc = tcase(s, "help");
    tcase_add_test(tc, test_help_main);
    tcase_add_test(tc, test_help_forces);
    tcase_add_test(tc, test_help_bench);
    tcase_add_test(tc, test_help_compare);
    tcase_add_test(tc, test_help_forces_alone);
    tcase_add_test(tc, test_no_arguments);
    tcase_add_test(tc, test_unknown_command);

    tc = tcase(s, "bench");
    tcase_add_test(tc, test_bench_csv);
    tcase_add_test(tc, test_precision_report);
    tcase_add_test(tc, test_precision_cutoff);
    tcase_add_test(tc, test_newton3_precision);
    tcase_add_loop_test(tc, test_bench_refused, 0, COUNT(bench_bad));

    tc = tcase(s, "shaders");
    tcase_add_loop_test(tc, test_shader_compile_error, 0, COUNT(shader_backends));
    tcase_add_loop_test(tc, test_shader_spirv_missing, 0, COUNT(shader_backends));

    tc = tcase(s, "compare");
    tcase_add_test(tc, test_compare);
    tcase_add_test(tc, test_compare_refused);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_cli") != 0)
        return EXIT_FAILURE;
    SRunner *sr = srunner_create(cli_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_tree(g_root);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
