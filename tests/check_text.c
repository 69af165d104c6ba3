/* check_text.c - tests of the one text reader of every format
 * (host/text_reader.c): lines of any length and ending, fields and their
 * columns, the three comment rules, numbers with their range and
 * finiteness checks, and messages naming file:line:column exactly.
 *
 * No GL.  main() prints the run's random seed; NB_TEST_SEED=S replays it.
 */
#include "nb_host.h"

#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file_fixtures.h"

static uint64_t g_seed;         /* this run's seed, set by main */

/* Opens content as a file of the given comment rule. */
static void open_text(struct nb_text *t, struct tmp *tmp, const char *content,
                      size_t len, enum nb_text_comments comments)
{
    struct nb_error err = {NB_OK, ""};

    tmp_make(tmp, "input.txt");
    write_bytes(tmp->path, content, len);
    ck_assert_msg(nb_text_open(t, tmp->path, comments, &err) == NB_OK, "%s",
                  err.message);
}

static void next_line(struct nb_text *t)
{
    struct nb_error err = {NB_OK, ""};

    ck_assert_msg(nb_text_next(t, &err) == NB_OK, "%s", err.message);
}

/* ---- lines and fields ---------------------------------------------------- */

/* What one random line holds: its fields' values and columns. */
struct random_line {
    int nfield;
    int is_int[12];
    double real[12];
    long long integer[12];
    size_t column[12];
};

/* Appends one random line to text (at len): random leading whitespace and
 * separators, %.17g doubles and decimal integers, LF or CRLF. */
static size_t append_random_line(char *text, size_t len, struct nb_rng *rng,
                                 struct random_line *want, int last)
{
    static const char *const gaps[] = {" ", "\t", "  ", " \t ", "\v", "\f"};
    size_t start = len;

    /* A last line without a newline holds a field: empty, it would not be
     * a line at all. */
    want->nfield = last ? 1 + (int)(nb_rng_next(rng) % 12) : (int)(nb_rng_next(rng) % 13);
    if (nb_rng_next(rng) % 2)       /* leading whitespace, or none */
        len += (size_t)sprintf(text + len, "%s", gaps[nb_rng_next(rng) % 6]);
    for (int k = 0; k < want->nfield; k++) {
        if (k > 0)
            len += (size_t)sprintf(text + len, "%s", gaps[nb_rng_next(rng) % 6]);
        want->column[k] = len - start + 1;
        want->is_int[k] = nb_rng_next(rng) % 2;
        if (want->is_int[k]) {
            want->integer[k] = (long long)nb_rng_next(rng);
            len += (size_t)sprintf(text + len, "%lld", want->integer[k]);
        } else {
            want->real[k] = (nb_rng_uniform(rng) - 0.5) *
                            pow(10.0, (double)(nb_rng_next(rng) % 600) - 300.0);
            len += (size_t)sprintf(text + len, "%.17g", want->real[k]);
        }
    }
    if (!last)
        len += (size_t)sprintf(text + len, "%s",
                               nb_rng_next(rng) % 2 ? "\r\n" : "\n");
    return len;
}

/* The fields of one line as drawn: count, columns, exact values. */
static void check_random_line(const struct nb_text *t,
                              const struct random_line *want)
{
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(t->nfield, want->nfield);
    for (int k = 0; k < want->nfield; k++) {
        double real;
        long long integer;

        ck_assert_uint_eq(t->column[k], want->column[k]);
        if (want->is_int[k]) {
            ck_assert_int_eq(nb_text_int(t, k, "i", LLONG_MIN, LLONG_MAX,
                                         &integer, &err), NB_OK);
            ck_assert_int_eq(integer, want->integer[k]);
        } else {
            ck_assert_msg(nb_text_double(t, k, "r", &real, &err) == NB_OK,
                          "%s", err.message);
            ck_assert(memcmp(&real, &want->real[k], sizeof real) == 0);
        }
    }
}

/* Random lines, whitespace and endings: every field where it was put,
 * every number read back exactly, the last line with or without a
 * newline. */
START_TEST(test_random_lines)
{
    enum { LINES = 200 };
    struct random_line *want = malloc(LINES * sizeof *want);
    char *text = malloc(LINES * 13 * 40);
    struct nb_rng rng;
    struct nb_text t;
    struct tmp tmp;
    size_t len = 0;

    ck_assert(want && text);
    nb_rng_seed(&rng, g_seed ^ (uint64_t)_i);
    for (int i = 0; i < LINES; i++)
        len = append_random_line(text, len, &rng, &want[i],
                                 _i == 1 && i == LINES - 1);
    open_text(&t, &tmp, text, len, NB_TEXT_NO_COMMENTS);
    for (int i = 0; i < LINES; i++) {
        next_line(&t);
        ck_assert(!t.at_end);
        ck_assert_uint_eq(t.lineno, (size_t)i + 1);
        check_random_line(&t, &want[i]);
    }
    next_line(&t);
    ck_assert(t.at_end);
    ck_assert_int_eq(t.nfield, 0);
    ck_assert_uint_eq(t.lineno, LINES);
    nb_text_close(&t);
    tmp_remove(&tmp);
    free(text);
    free(want);
}
END_TEST

/* A line of exactly NB_TEXT_MAX_LINE bytes (then CRLF) is read whole; one
 * byte more is refused at its line before the rest is read; a chunk
 * boundary inside a line changes nothing. */
START_TEST(test_line_limit)
{
    size_t len = NB_TEXT_MAX_LINE + 16;
    char *text = malloc(len);
    struct nb_text t;
    struct tmp tmp;
    struct nb_error err = {NB_OK, ""};

    ck_assert_ptr_nonnull(text);
    memcpy(text, "a b\n", 4);
    memset(text + 4, 'x', NB_TEXT_MAX_LINE);
    memcpy(text + 4 + NB_TEXT_MAX_LINE, "\r\nyy", 4);
    open_text(&t, &tmp, text, 8 + NB_TEXT_MAX_LINE, NB_TEXT_NO_COMMENTS);
    next_line(&t);
    ck_assert_int_eq(t.nfield, 2);
    next_line(&t);
    ck_assert_uint_eq(t.length, NB_TEXT_MAX_LINE);
    ck_assert_int_eq(t.nfield, 1);
    next_line(&t);
    ck_assert_str_eq(t.line, "yy");
    nb_text_close(&t);
    tmp_remove(&tmp);

    memset(text, 'x', NB_TEXT_MAX_LINE + 1);
    text[NB_TEXT_MAX_LINE + 1] = '\n';
    open_text(&t, &tmp, text, NB_TEXT_MAX_LINE + 2, NB_TEXT_NO_COMMENTS);
    ck_assert_int_eq(nb_text_next(&t, &err), NB_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, ":1: line longer than the limit of 1048576"));
    nb_text_close(&t);
    tmp_remove(&tmp);
    free(text);
}
END_TEST

/* A NUL byte is refused at its line and column; a byte-order mark opens
 * line 1 only. */
START_TEST(test_nul_and_bom)
{
    static const char nul[] = "ok\nab\0c\n";
    static const char bom[] = "\xef\xbb\xbf" "a b\n\xef\xbb\xbf" "c\n";
    struct nb_text t;
    struct tmp tmp;
    struct nb_error err = {NB_OK, ""};

    open_text(&t, &tmp, nul, sizeof nul - 1, NB_TEXT_NO_COMMENTS);
    next_line(&t);
    ck_assert_int_eq(nb_text_next(&t, &err), NB_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, ":2:3: a NUL byte"));
    nb_text_close(&t);
    tmp_remove(&tmp);

    open_text(&t, &tmp, bom, sizeof bom - 1, NB_TEXT_NO_COMMENTS);
    next_line(&t);
    ck_assert_str_eq(t.line, "a b");
    ck_assert_uint_eq(t.column[0], 1);
    next_line(&t);
    ck_assert_str_eq(t.field[0], "\xef\xbb\xbf" "c");
    nb_text_close(&t);
    tmp_remove(&tmp);
}
END_TEST

/* The same text under the three comment rules. */
START_TEST(test_comment_rules)
{
    static const char text[] = "a b # c\n#x y\n  # z\n\n1 2#3\r\n";
    static const int want_fields[3][5] = {
        {4, 2, 2, 0, 2},        /* '#' is data */
        {2, 2, 2, 0, 2},        /* '#' ends the data; lines 2 and 3 are
                                   comments whose fields stay split */
        {2, 0, 0, 0, 2},        /* '#' ends the data */
    };
    static const char *const second_field[3] = {"2#3", "2", "2"};
    struct nb_text t;
    struct tmp tmp;

    for (int rule = 0; rule < 3; rule++) {
        open_text(&t, &tmp, text, strlen(text), (enum nb_text_comments)rule);
        for (int line = 0; line < 5; line++) {
            next_line(&t);
            ck_assert_int_eq(t.nfield, want_fields[rule][line]);
            ck_assert_int_eq(t.is_comment,
                             rule == NB_TEXT_COMMENT_LINES &&
                             (line == 1 || line == 2));
        }
        ck_assert_str_eq(t.field[1], second_field[rule]);
        ck_assert_str_eq(t.line, "1 2#3");
        nb_text_close(&t);
        tmp_remove(&tmp);
    }
}
END_TEST

/* nb_text_next_data skips blank and comment lines and stops at the end. */
START_TEST(test_next_data)
{
    static const char text[] = "\n# a\n  \t\n x 1\n#\n\n y";
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;

    open_text(&t, &tmp, text, strlen(text), NB_TEXT_COMMENT_LINES);
    ck_assert_int_eq(nb_text_next_data(&t, &err), NB_OK);
    ck_assert_uint_eq(t.lineno, 4);
    ck_assert_str_eq(t.field[0], "x");
    ck_assert_uint_eq(t.column[0], 2);
    ck_assert_int_eq(nb_text_next_data(&t, &err), NB_OK);
    ck_assert_uint_eq(t.lineno, 7);
    ck_assert_str_eq(t.field[0], "y");
    ck_assert(!t.newline);
    ck_assert_int_eq(nb_text_next_data(&t, &err), NB_OK);
    ck_assert(t.at_end);
    ck_assert_int_eq(nb_text_next_data(&t, &err), NB_OK);    /* stays */
    ck_assert(t.at_end);
    nb_text_close(&t);
    tmp_remove(&tmp);
}
END_TEST

/* A line of a million bytes: 100000 fields and one of 400000 digits. */
START_TEST(test_long_line)
{
    const size_t fields = 100000, digits = 400000;
    char *text = malloc(2 * fields + digits + 16);
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    size_t len = 0;
    long long value;
    double real;

    ck_assert_ptr_nonnull(text);
    for (size_t k = 0; k < fields; k++)
        len += (size_t)sprintf(text + len, "%zu ", k % 10);
    memcpy(text + len, "0.", 2);
    memset(text + len + 2, '0', digits);
    len += 2 + digits;
    len += (size_t)sprintf(text + len, "25\n7\n");
    open_text(&t, &tmp, text, len, NB_TEXT_NO_COMMENTS);
    next_line(&t);
    ck_assert_int_eq(t.nfield, (int)fields + 1);
    ck_assert_uint_eq(t.column[fields], 2 * fields + 1);
    ck_assert_int_eq(nb_text_int(&t, (int)fields - 1, "k", 0, 9, &value,
                                 &err), NB_OK);
    ck_assert_int_eq(value, (long long)((fields - 1) % 10));
    /* 0.000...025: far below DBL_MIN in text, and so refused. */
    ck_assert_int_eq(nb_text_double(&t, (int)fields, "tiny", &real, &err),
                     NB_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "underflows a double"));
    next_line(&t);
    ck_assert_uint_eq(t.lineno, 2);
    ck_assert_str_eq(t.field[0], "7");
    nb_text_close(&t);
    tmp_remove(&tmp);
    free(text);
}
END_TEST

/* ---- numbers --------------------------------------------------------------- */

/* A field and what reading it must say (NULL: it reads as value). */
static const struct number_case {
    const char *field;
    int integer;                /* read with nb_text_int in lo..hi */
    long long lo, hi;
    const char *message;        /* after "path:1:3: " */
    double value;
} number_cases[] = {
    {"1.5x", 0, 0, 0, "v: not a number: '1.5x'", 0},
    {"abc", 0, 0, 0, "v: not a number: 'abc'", 0},
    {"nan", 0, 0, 0, "v: not finite: 'nan'", 0},
    {"-NaN", 0, 0, 0, "v: not finite: '-NaN'", 0},
    {"inf", 0, 0, 0, "v: not finite: 'inf'", 0},
    {"-Infinity", 0, 0, 0, "v: not finite: '-Infinity'", 0},
    {"1e999", 0, 0, 0, "v: out of range: '1e999' overflows a double", 0},
    {"-2e308", 0, 0, 0, "v: out of range: '-2e308' overflows a double", 0},
    {"1e-400", 0, 0, 0, "v: out of range: '1e-400' underflows a double", 0},
    {"-3e-999", 0, 0, 0, "v: out of range: '-3e-999' underflows a double",
     0},
    {"4.9406564584124654e-324", 0, 0, 0, NULL, DBL_TRUE_MIN},
    {"1.7976931348623157e308", 0, 0, 0, NULL, DBL_MAX},
    {"-0", 0, 0, 0, NULL, -0.0},
    {"0e-999", 0, 0, 0, NULL, 0.0},
    {"12a", 1, 0, 100, "v: not an integer: '12a'", 0},
    {"1.0", 1, 0, 100, "v: not an integer: '1.0'", 0},
    {"1e3", 1, 0, 100000, "v: not an integer: '1e3'", 0},
    {"101", 1, 0, 100, "v: out of range: '101' is outside 0..100", 0},
    {"-1", 1, 0, 100, "v: out of range: '-1' is outside 0..100", 0},
    {"99999999999999999999", 1, LLONG_MIN, LLONG_MAX,
     "v: out of range: '99999999999999999999' is outside "
     "-9223372036854775808..9223372036854775807", 0},
    {"-9223372036854775808", 1, LLONG_MIN, LLONG_MAX, NULL,
     (double)LLONG_MIN},
    {"+7", 1, 1, 7, NULL, 7},
};

START_TEST(test_numbers)
{
    const struct number_case *c = &number_cases[_i];
    char text[128], want[1400];
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    enum nb_status st;
    double real = -1.0;
    long long integer = -1;

    snprintf(text, sizeof text, "  %s 9\n", c->field);
    open_text(&t, &tmp, text, strlen(text), NB_TEXT_NO_COMMENTS);
    next_line(&t);
    st = c->integer ? nb_text_int(&t, 0, "v", c->lo, c->hi, &integer, &err)
                    : nb_text_double(&t, 0, "v", &real, &err);
    if (c->message) {
        ck_assert_int_eq(st, NB_ERR_PARSE);
        ck_assert_int_eq(err.status, NB_ERR_PARSE);
        snprintf(want, sizeof want, "%s:1:3: %s", tmp.path, c->message);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(st == NB_OK, "%s", err.message);
        if (c->integer)
            ck_assert(integer == (long long)c->value);
        else
            ck_assert(memcmp(&real, &c->value, sizeof real) == 0);
    }
    nb_text_close(&t);
    tmp_remove(&tmp);
}
END_TEST

/* A bad field of 200000 characters is quoted by its first 64. */
START_TEST(test_long_bad_field)
{
    const size_t len = 200000;
    char *text = malloc(len + 8);
    char want[1300];
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    double real;

    ck_assert_ptr_nonnull(text);
    memcpy(text, "1 ", 2);
    memset(text + 2, 'z', len);
    memcpy(text + 2 + len, "\n", 2);
    open_text(&t, &tmp, text, len + 3, NB_TEXT_NO_COMMENTS);
    next_line(&t);
    ck_assert_int_eq(nb_text_double(&t, 1, "x", &real, &err), NB_ERR_PARSE);
    snprintf(want, sizeof want, "%s:1:3: x: not a number: '%.64s'", tmp.path,
             text + 2);
    ck_assert_str_eq(err.message, want);
    nb_text_close(&t);
    tmp_remove(&tmp);
    free(text);
}
END_TEST

/* ---- field counts and positions ------------------------------------------- */

START_TEST(test_field_counts)
{
    static const char text[] = "# c\n\t10  20 30   # note\n";
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    char want[1400];
    double real;

    open_text(&t, &tmp, text, strlen(text), NB_TEXT_COMMENT_ANYWHERE);
    ck_assert_int_eq(nb_text_next_data(&t, &err), NB_OK);
    ck_assert_int_eq(nb_text_expect_fields(&t, 3, 3, "a b c", &err), NB_OK);
    ck_assert_int_eq(nb_text_expect_fields(&t, 4, 4, "a b c d", &err),
                     NB_ERR_PARSE);
    snprintf(want, sizeof want, "%s:2:11: missing field: expected 4 fields "
             "(a b c d), found 3", tmp.path);
    ck_assert_str_eq(err.message, want);
    ck_assert_int_eq(nb_text_expect_fields(&t, 1, 2, "a [b]", &err),
                     NB_ERR_PARSE);
    snprintf(want, sizeof want, "%s:2:9: extra field '30': expected 1 or 2 "
             "fields (a [b]), found 3", tmp.path);
    ck_assert_str_eq(err.message, want);
    ck_assert_int_eq(nb_text_expect_fields(&t, 5, 7, "five to seven", &err),
                     NB_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "expected 5 to 7 fields"));
    ck_assert_int_eq(nb_text_expect_fields(&t, 1, 1, "one", &err),
                     NB_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, ":2:6: extra field '20': "
                                 "expected 1 field (one), found 3"));
    ck_assert_int_eq(nb_text_double(&t, 3, "d", &real, &err), NB_ERR_PARSE);
    snprintf(want, sizeof want, "%s:2:11: missing field: d", tmp.path);
    ck_assert_str_eq(err.message, want);
    ck_assert_int_eq(nb_text_double(&t, 2, "c", &real, &err), NB_OK);
    ck_assert(real == 30.0);
    nb_text_close(&t);
    tmp_remove(&tmp);
}
END_TEST

/* Positions at the end of the file: after the last newline, or just past
 * the last character of a line without one; an empty file is at 1:1. */
START_TEST(test_end_positions)
{
    static const struct {
        const char *text;
        size_t lines;
        const char *where;
    } cases[] = {{"", 0, "1:1"}, {"a b\n", 1, "2:1"}, {"a\r\nbc", 2, "2:3"},
                 {"\n\n", 2, "3:1"}};
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    char want[1300];

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        open_text(&t, &tmp, cases[k].text, strlen(cases[k].text),
                  NB_TEXT_NO_COMMENTS);
        do
            next_line(&t);
        while (!t.at_end);
        ck_assert_uint_eq(t.lineno, cases[k].lines);
        ck_assert_int_eq(nb_text_error(&t, 0, &err, "end %d", 1),
                         NB_ERR_PARSE);
        snprintf(want, sizeof want, "%s:%s: end 1", tmp.path, cases[k].where);
        ck_assert_str_eq(err.message, want);
        nb_text_close(&t);
        tmp_remove(&tmp);
    }
}
END_TEST

START_TEST(test_open_and_read_errors)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_text t;
    struct tmp tmp;
    char want[1300];

    tmp_make(&tmp, "missing.txt");
    ck_assert_int_eq(nb_text_open(&t, tmp.path, NB_TEXT_NO_COMMENTS, &err),
                     NB_ERR_IO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory",
             tmp.path);
    ck_assert_str_eq(err.message, want);
    nb_text_close(&t);          /* harmless after a failed open */
    ck_assert_int_eq(nb_text_open(&t, tmp.dir, NB_TEXT_NO_COMMENTS, &err),
                     NB_OK);
    ck_assert_int_eq(nb_text_next(&t, &err), NB_ERR_IO);
    snprintf(want, sizeof want, "%s: read error: Is a directory", tmp.dir);
    ck_assert_str_eq(err.message, want);
    nb_text_close(&t);
    tmp_remove(&tmp);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *lines = tcase_create("lines");
    TCase *numbers = tcase_create("numbers");

    tcase_add_loop_test(lines, test_random_lines, 0, 2);
    tcase_add_test(lines, test_comment_rules);
    tcase_add_test(lines, test_next_data);
    tcase_add_test(lines, test_long_line);
    tcase_add_test(lines, test_line_limit);
    tcase_add_test(lines, test_nul_and_bom);
    tcase_add_test(lines, test_field_counts);
    tcase_add_test(lines, test_end_positions);
    tcase_add_test(lines, test_open_and_read_errors);
    suite_add_tcase(s, lines);
    tcase_add_loop_test(numbers, test_numbers, 0,
                        (int)(sizeof number_cases / sizeof number_cases[0]));
    tcase_add_test(numbers, test_long_bad_field);
    suite_add_tcase(s, numbers);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    g_seed = suite_seed("check_text");
    sr = srunner_create(text_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
