/* check_cli_forces.c - `glnbody forces`: the output format and values on
 * every backend, 17 digits, 8 and 9 input columns, one particle.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody, from the project
 * root) through cli_harness.h; every file lives under one mkdtemp
 * directory, removed at the end.  Skipped without GL. */
#include <check.h>

#include "cli_fixtures.h"

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

static Suite *cli_forces_suite(void)
{
    Suite *s = suite_create("cli_forces");
    TCase *tc = tcase(s, "forces");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_test(tc, test_forces_cpu_two_body_exact);
    tcase_add_test(tc, test_forces_cpu_17_digits);
    tcase_add_test(tc, test_forces_8_columns);
    tcase_add_test(tc, test_forces_9_columns);
    tcase_add_test(tc, test_forces_types_ignored);
    tcase_add_loop_test(tc, test_forces_single_particle, 0, COUNT(all_backends));
    tcase_add_loop_test(tc, test_forces_gpu, 0, COUNT(gpu_runs));
    tcase_add_test(tc, test_forces_default_backend);
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_forces", cli_forces_suite, 1);
}
