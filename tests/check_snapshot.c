/* check_snapshot.c - tests of the particle snapshot files: 8, 9 and 10
 * columns, comments, CRLF and long lines, write -> read bit-exact, and
 * every malformed file refused with its exact file:line:column message.
 *
 * No GL.  main() prints the run's random seed; NB_TEST_SEED=S replays it.
 */
#include "nb_host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file_fixtures.h"

static uint64_t g_seed;         /* this run's seed, set by main */

/* Writes content (len bytes) to a fresh file, reads it back into p. */
static enum nb_status read_snapshot(const char *content, size_t len,
                                    struct nb_particles *p,
                                    struct nb_error *err, struct tmp *t)
{
    enum nb_status st;

    tmp_make(t, "snap.txt");
    write_bytes(t->path, content, len);
    st = nb_snapshot_read(t->path, p, err);
    tmp_remove(t);
    return st;
}

/* ---- valid files ----------------------------------------------------------- */

START_TEST(test_snapshot_8_columns)
{
    const char *text =
        "# id m x y z vx vy vz\n"
        "\n"
        "   # indented comment\n"
        "7 0.5 1 2 3 4 5 6\n"
        "\t \n"
        "-3 0.25  -1.5e0\t-2 -3 0.125 0 1e-3\n";
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_int_eq(read_snapshot(text, strlen(text), &p, &err, &t), NB_OK);
    ck_assert_uint_eq(p.n, 2);
    ck_assert_ptr_null(p.type);
    ck_assert_int_eq(p.id[0], 7);
    ck_assert_int_eq(p.id[1], -3);
    ck_assert(p.m[0] == 0.5 && p.m[1] == 0.25);
    ck_assert(p.x[0] == 1 && p.x[1] == 2 && p.x[2] == 3);
    ck_assert(p.x[3] == -1.5 && p.x[4] == -2 && p.x[5] == -3);
    ck_assert(p.v[0] == 4 && p.v[1] == 5 && p.v[2] == 6);
    ck_assert(p.v[3] == 0.125 && p.v[4] == 0 && p.v[5] == 1e-3);
    nb_particles_free(&p);
}
END_TEST

START_TEST(test_snapshot_9_columns)
{
    const char *text =
        "# id type m x y z vx vy vz\n"
        "1 0 1.0 0 0 0 0 0 0\n"
        "2 3 2.0 1 1 1 -1 -1 -1\n"
        "9223372036854775807 2147483647 0 0 0 0 0 0 4.9406564584124654e-324\n";
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_int_eq(read_snapshot(text, strlen(text), &p, &err, &t), NB_OK);
    ck_assert_uint_eq(p.n, 3);
    ck_assert_ptr_nonnull(p.type);
    ck_assert_int_eq(p.type[0], 0);
    ck_assert_int_eq(p.type[1], 3);
    ck_assert_int_eq(p.type[2], 2147483647);
    ck_assert_int_eq(p.id[2], INT64_MAX);
    ck_assert(p.m[1] == 2.0 && p.m[2] == 0.0);
    ck_assert(p.x[3] == 1 && p.v[5] == -1);
    ck_assert(p.v[8] == DBL_TRUE_MIN);      /* subnormals are read */
    nb_particles_free(&p);
}
END_TEST

START_TEST(test_snapshot_crlf_no_newline)
{
    const char *text =
        "# crlf\r\n"
        "\r\n"
        "1 1 0.5 0 0 0 0 0\r\n"
        "2 1 0 0.5 0 0 0 2.5";
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_int_eq(read_snapshot(text, strlen(text), &p, &err, &t), NB_OK);
    ck_assert_uint_eq(p.n, 2);
    ck_assert(p.x[0] == 0.5 && p.v[2] == 0.0);
    ck_assert(p.x[4] == 0.5 && p.v[5] == 2.5);
    nb_particles_free(&p);
}
END_TEST

/* Many lines (array growth) and one very long line: a position of 100000
 * digits, 0.5000...0. */
START_TEST(test_snapshot_many_and_long_lines)
{
    const size_t n = 5000, pad = 100000;
    size_t cap = n * 64 + pad + 256, len = 0;
    char *text = malloc(cap);
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "%zu 1 %zu 0 0 0 0 0\n",
                                i, i);
    len += (size_t)snprintf(text + len, cap - len, "%zu 1 0.5", n);
    memset(text + len, '0', pad);
    len += pad;
    len += (size_t)snprintf(text + len, cap - len, " 0 0 0 0 0\n");
    ck_assert_int_eq(read_snapshot(text, len, &p, &err, &t), NB_OK);
    ck_assert_uint_eq(p.n, n + 1);
    ck_assert(p.x[3 * (n - 1)] == (double)(n - 1));
    ck_assert(p.x[3 * n] == 0.5);
    nb_particles_free(&p);
    free(text);
}
END_TEST

/* 10 columns with charges, 9 with types only: write -> read bit-exact. */
START_TEST(test_snapshot_types_charges)
{
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    char *text;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0x5a);
    p.q[4] = 0.123456789012345678;
    tmp_make(&t, "snap.txt");
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, "fluorite", &err), NB_OK);
    text = read_text(t.path);
    ck_assert_ptr_eq(strstr(text, "# fluorite\n# id type q m x y z vx vy vz\n"),
                     text);
    ck_assert_uint_eq(count_lines(text), p.n + 2);
    free(text);
    ck_assert_msg(nb_snapshot_read(t.path, &q, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_uint_eq(q.n, p.n);
    ck_assert_ptr_nonnull(q.type);
    ck_assert_ptr_nonnull(q.q);
    ck_assert(memcmp(p.id, q.id, p.n * sizeof *p.id) == 0);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.q, q.q, p.n * sizeof *p.q) == 0);
    ck_assert(memcmp(p.m, q.m, p.n * sizeof *p.m) == 0);
    ck_assert(memcmp(p.x, q.x, 3 * p.n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    free(p.q);
    p.q = NULL;
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_snapshot_read(t.path, &q, &err), NB_OK);
    ck_assert_ptr_null(q.q);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    ck_assert_int_eq(nb_particles_add_charges(&p, &err), NB_OK);
    free(p.type);
    p.type = NULL;
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, NULL, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "needs types too"));
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- refused files --------------------------------------------------------- */

#define EIGHT_OR_NINE "columns id [type] m x y z vx vy vz; the 10-column " \
    "form needs a line `# id type q m x y z vx vy vz` before the data"

#define X70 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define X62 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

struct bad_case {
    const char *content;
    int line, column;       /* line 0: the message names no line */
    const char *reason;     /* the message after "path:line:column: " */
};

static const struct bad_case bad_cases[] = {
    {"# c\n1 1 0 0 0 0 0 0\n2 abc 0 0 0 0 0 0\n", 3, 3,
     "m: not a number: 'abc'"},
    {"1 1 0 0 0 0 0 0\n2 1 0 0.5x 0 0 0 0\n", 2, 7,
     "y: not a number: '0.5x'"},
    {"\n3.5 1 0 0 0 0 0 0\n", 2, 1, "id: not an integer: '3.5'"},
    {"99999999999999999999 1 0 0 0 0 0 0\n", 1, 1,
     "id: out of range: '99999999999999999999' is outside "
     "-9223372036854775808..9223372036854775807"},
    {"1 1 inf 0 0 0 0 0\n", 1, 5, "x: not finite: 'inf'"},
    {"1 0 1 0 0 0 nan 1 0\n", 1, 13, "vx: not finite: 'nan'"},
    {"1 1 1e999 0 0 0 0 0\n", 1, 5,
     "x: out of range: '1e999' overflows a double"},
    {"1 1 0 0 0 1e-999 0 0\n", 1, 11,
     "vx: out of range: '1e-999' underflows a double"},
    {"# a\n# b\n\n1 1 0 0 0 0 0 0\n5 -1 0 0 0 0 0 0\n", 5, 3,
     "m: negative mass -1"},
    {"1 -2 1 0 0 0 0 0 0\n", 1, 3,
     "type: out of range: '-2' is outside 0..2147483647"},
    {"1 x 1 0 0 0 0 0 0\n", 1, 3, "type: not an integer: 'x'"},
    {"1 2 3 4 5\n", 1, 10,
     "missing field: expected 8 or 9 fields (" EIGHT_OR_NINE "), found 5"},
    {"# x\r\n1 2 3 4 5 6 7 8 9 10\r\n", 2, 19,
     "extra field '10': expected 8 or 9 fields (" EIGHT_OR_NINE "), "
     "found 10"},
    {"1 1 0 0 0 0 0 0\n2 0 1 0 0 0 0 0 0\n", 2, 17,
     "extra field '0': expected 8 fields (columns like the first data "
     "line), found 9"},
    {"1 0 1 0 0 0 0 0 0\n\n2 1 0 0 0 0 0 0", 3, 16,
     "missing field: expected 9 fields (columns like the first data line), "
     "found 8"},
    {"1 1 0 0 0 0 0 # trailing comment\n", 1, 14,
     "missing field: expected 8 or 9 fields (" EIGHT_OR_NINE "), found 7"},
    {"# charges?\n1 1 2 1 0 0 0 0 0 0\n", 2, 19,
     "extra field '0': expected 8 or 9 fields (" EIGHT_OR_NINE "), found 10"},
    {"#id type q m x y z vx vy vz\n1 1 2 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0 0\n",
     3, 18, "missing field: expected 10 fields (the columns declared on line "
     "1), found 9"},
    {"# t=0 columns: id type q m x y z vx vy vz\n1 1 x 1 0 0 0 0 0 0\n", 2,
     5, "q: not a number: 'x'"},
    {"1 1 0 0 \x02\x80" X70 " 0 0 0\n", 1, 9,
     "z: not a number: '??" X62 "'"},
    {"", 0, 0, "no particles (empty file)"},
    {"# nothing\n\n   # here\n", 0, 0,
     "no particles (3 lines, all blank or comments)"},
};

START_TEST(test_snapshot_bad)
{
    const struct bad_case *c = &bad_cases[_i];
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_int_eq(read_snapshot(c->content, strlen(c->content), &p, &err,
                                   &t), NB_ERR_PARSE);
    ck_assert_int_eq(err.status, NB_ERR_PARSE);
    assert_at(&err, t.path, c->line, c->column, c->reason);
    assert_particles_empty(&p);
}
END_TEST

/* Two particles with one id are refused, naming both lines. */
START_TEST(test_snapshot_repeated_ids)
{
    const char *content = "# c\n7 1 0 0 0 0 0 0\n-2 1 1 0 0 0 0 0\n"
                          "\n7 1 2 0 0 0 0 0\n";
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    char want[1400];

    ck_assert_int_eq(read_snapshot(content, strlen(content), &p, &err, &t),
                     NB_ERR_PARSE);
    snprintf(want, sizeof want, "%s:5: id 7 again (first on line 2): each "
             "particle needs its own id", t.path);
    ck_assert_str_eq(err.message, want);
    assert_particles_empty(&p);
}
END_TEST

/* The declared 10-column form reads its charges. */
START_TEST(test_snapshot_10_columns_declared)
{
    const char *text = "# t=0 columns: id type q m x y z vx vy vz\n"
                       "1 1 -2 1 0 0 0 0 0 0\n";
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    ck_assert_int_eq(read_snapshot(text, strlen(text), &p, &err, &t), NB_OK);
    ck_assert(p.q[0] == -2.0 && p.type[0] == 1 && p.m[0] == 1.0);
    nb_particles_free(&p);
}
END_TEST

START_TEST(test_snapshot_missing)
{
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    tmp_make(&t, "missing.txt");
    ck_assert_int_eq(nb_snapshot_read(t.path, &p, &err), NB_ERR_IO);
    ck_assert_int_eq(err.status, NB_ERR_IO);
    assert_at(&err, t.path, 0, 0, "cannot open: No such file or directory");
    assert_particles_empty(&p);
    /* A directory opens but cannot be read. */
    ck_assert_int_eq(nb_snapshot_read(t.dir, &p, &err), NB_ERR_IO);
    assert_at(&err, t.dir, 0, 0, "read error: Is a directory");
    assert_particles_empty(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *snapshot_suite(void)
{
    Suite *s = suite_create("snapshot");
    TCase *tc = tcase_create("files");

    tcase_add_test(tc, test_snapshot_8_columns);
    tcase_add_test(tc, test_snapshot_9_columns);
    tcase_add_test(tc, test_snapshot_crlf_no_newline);
    tcase_add_test(tc, test_snapshot_many_and_long_lines);
    tcase_add_test(tc, test_snapshot_types_charges);
    tcase_add_loop_test(tc, test_snapshot_bad, 0,
                        (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(tc, test_snapshot_10_columns_declared);
    tcase_add_test(tc, test_snapshot_repeated_ids);
    tcase_add_test(tc, test_snapshot_missing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    g_seed = suite_seed("check_snapshot");
    sr = srunner_create(snapshot_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
