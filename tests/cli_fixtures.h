/* cli_fixtures.h - what the check_cli_* suites share: small string and
 * directory utilities, RUN and the assertions on a run's status and
 * messages, the per-test directory, the backends, a valid input, and the
 * test cases' fixture.  Header-only, one copy per suite; its functions
 * are static inline since each suite uses only some of them.  Include it
 * after <check.h>. */
#ifndef NB_TEST_CLI_FIXTURES_H
#define NB_TEST_CLI_FIXTURES_H

#include <math.h>
#include <stdarg.h>
#include <sys/types.h>

#include "cli_harness.h"

#define GPU_TIMEOUT 60          /* seconds a test case may take */

/* ---- small utilities --------------------------------------------------- */

static inline char *xstrdup(const char *s)
{
    char *copy = strdup(s);
    ck_assert_ptr_nonnull(copy);
    return copy;
}

/* Strings made during a test (paths, needles), freed by the teardown. */
static char *g_pool[1024];
static size_t g_pooled;

static inline char *pool(char *s)
{
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_lt(g_pooled, sizeof g_pool / sizeof g_pool[0]);
    return g_pool[g_pooled++] = s;
}

static inline void pool_free(void)
{
    while (g_pooled > 0)
        free(g_pool[--g_pooled]);
}

/* A formatted string that lives until the end of the test. */
static inline const char *fmt(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
static inline const char *fmt(const char *format, ...)
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

static inline int path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static inline int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copies the plain files of directory src into the new directory dst,
 * byte for byte. */
static inline void copy_directory(const char *src, const char *dst)
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
        char *text = read_file(from);     /* binary too: SPIR-V has NUL bytes */
        ck_assert_ptr_nonnull(text);
        FILE *fp = fopen(fmt("%s/%s", dst, e->d_name), "wb");
        ck_assert_ptr_nonnull(fp);
        ck_assert_uint_eq(fwrite(text, 1, (size_t)st.st_size, fp), (size_t)st.st_size);
        ck_assert_int_eq(fclose(fp), 0);
        free(text);
        copied++;
    }
    closedir(d);
    ck_assert_int_gt(copied, 0);
}

/* Fails unless every entry of dir is one of the NULL-terminated names. */
static inline void assert_dir_holds_only(const char *dir, const char *const *names)
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
static inline size_t split_lines(char *text, char ***lines)
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
static inline int split_words(char *line, char **word, int max)
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
static inline int has_option(const char *text, const char *option)
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
static inline double number(const char *tok)
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

/* A progress line of a long command on a stderr that is not a terminal
 * ("glnbody bench: row 1 of 2 (50%), 9 rows/s, 0 s left"; check_progress
 * tests them). */
static inline int is_progress_line(const char *line, size_t len)
{
    static const char tail[] = " left\n";
    return strncmp(line, "glnbody ", 8) == 0 && len >= sizeof tail - 1 &&
           strncmp(line + len - (sizeof tail - 1), tail, sizeof tail - 1) == 0;
}

/* stderr without the informational "glnbody: renderer ..." line a GPU run
 * prints and the progress lines; the messages of a failure are what is
 * left. */
static inline char *messages(const char *err)
{
    char *copy = xstrdup(err), *dst = copy;
    for (const char *line = err; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (strncmp(line, "glnbody: renderer ", 18) != 0 && !is_progress_line(line, len)) {
            memmove(dst, line, len);
            dst += len;
        }
        line += len;
    }
    *dst = '\0';
    return copy;
}

static inline void assert_success(const struct cli_run *r)
{
    ck_assert_msg(r->status == 0, "exit status %d, stderr: %s", r->status, r->err);
    char *m = messages(r->err);
    ck_assert_msg(*m == '\0', "unexpected stderr: %s", r->err);
    free(m);
}

/* The run failed with status and one message line naming every needle;
 * stdout is empty unless allow_stdout. */
static inline void assert_failed(const struct cli_run *r, int status,
                                 const char *const *needles, int allow_stdout)
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

static inline void assert_failure(const struct cli_run *r, int status,
                                  const char *const *needles)
{
    assert_failed(r, status, needles, 0);
}

/* ---- fixtures ---------------------------------------------------------- */

static inline void setup(void)
{
    test_dir_setup();
}

static inline void teardown(void)
{
    test_dir_teardown();
    pool_free();
}

static inline const char *in_dir(const char *name)
{
    return fmt("%s/%s", g_dir, name);
}

static const char *const all_backends[] = { "cpu", "compute", "fragment" };

/* A valid forces input of two particles. */
#define VALID "# fine\n1 1 0 0 0 0 0 0\n2 0.5 2 0 0 0 0 0\n"

/* A test case with the per-test directory, the timeout of a GPU run. */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static inline TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, GPU_TIMEOUT);
    suite_add_tcase(s, tc);
    return tc;
}

#endif
