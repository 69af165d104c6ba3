/* cli_harness.h - running the real glnbody binary from a Check suite
 * (check_cli, check_run): fork/execve with stdin from /dev/null, stdout and
 * stderr captured separately through mkstemp files in the suite's
 * temporary directory, the exit status (or 128 + signal); each test's own
 * directory (test_dir_setup, test_dir_teardown); and the main() of such a
 * suite, skipped where it needs GL and finds none.  Header-only, one
 * copy per suite; include it after <check.h>. */
#ifndef NB_CLI_HARNESS_H
#define NB_CLI_HARNESS_H

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

#include "gl_probe.h"

extern char **environ;

static char g_root[1024];       /* the suite's temporary directory */
static const char *g_bin;       /* the program under test, absolute */

static inline void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    ck_assert_msg(fp != NULL, "cannot create %s: %s", path, strerror(errno));
    ck_assert_int_ge(fputs(text, fp), 0);
    ck_assert_int_eq(fclose(fp), 0);
}

/* The whole file, NUL-terminated; NULL if it cannot be opened. */
static char *read_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    ck_assert_ptr_nonnull(data);
    for (;;) {
        len += fread(data + len, 1, cap - len - 1, fp);
        if (len < cap - 1)
            break;
        cap *= 2;
        data = realloc(data, cap);
        ck_assert_ptr_nonnull(data);
    }
    ck_assert_int_eq(ferror(fp), 0);
    fclose(fp);
    data[len] = '\0';
    return data;
}

/* rm -rf of a tree of plain files and directories. */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char child[4096];
                snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- the current test's own directory (a checked fixture) ------------- */

static char g_dir[1100];        /* made by test_dir_setup below g_root */

static inline void test_dir_setup(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/test.XXXXXX", g_root);
    ck_assert_msg(mkdtemp(g_dir) != NULL, "mkdtemp %s: %s", g_dir, strerror(errno));
}

static inline void test_dir_teardown(void)
{
    remove_tree(g_dir);
}

/* g_dir/name into path. */
static inline void test_dir_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/%s", g_dir, name);
}

/* The text of g_dir/name, which the test expects to be there; freed by the
 * caller. */
static inline char *test_dir_read(const char *name)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    char *text = read_file(path);
    ck_assert_msg(text != NULL, "%s was not written", name);
    return text;
}

/* ---- running the program ----------------------------------------------- */

struct cli_run {
    int status;         /* exit status, or 128 + signal */
    char *out, *err;    /* everything written to stdout and stderr */
};

static void cli_run_free(struct cli_run *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

static int capture_file(char *path, size_t size)
{
    snprintf(path, size, "%s/capture.XXXXXX", g_root);
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
    return fd;
}

/* The environment with extra entries ("NAME=VALUE", NULL-terminated or
 * NULL) replacing their namesakes; the inherited GLNBODY_DEBUG is dropped
 * so that stderr holds only messages.  Freed by the caller. */
static const char **child_environment(const char *const *env)
{
    size_t nenv = 0, nextra = 0, k = 0;
    while (environ[nenv])
        nenv++;
    while (env && env[nextra])
        nextra++;
    const char **envp = calloc(nenv + nextra + 1, sizeof *envp);
    ck_assert_ptr_nonnull(envp);
    for (size_t i = 0; i < nenv; i++) {
        const char *e = environ[i];
        int drop = strncmp(e, "GLNBODY_DEBUG=", 14) == 0;
        for (size_t j = 0; j < nextra; j++) {
            size_t name = strcspn(env[j], "=");
            drop |= strncmp(e, env[j], name + 1) == 0;
        }
        if (!drop)
            envp[k++] = e;
    }
    for (size_t j = 0; j < nextra; j++)
        envp[k++] = env[j];
    return envp;
}

/* Runs g_bin with args (NULL-terminated) in directory dir (NULL: here)
 * with extra environment entries env (see child_environment). */
static void cli_run_in(struct cli_run *r, const char *dir, const char *const *env,
                       const char *const *args)
{
    size_t nargs = 0;
    while (args[nargs])
        nargs++;
    const char **argv = calloc(nargs + 2, sizeof *argv);
    const char **envp = child_environment(env);
    ck_assert_ptr_nonnull(argv);
    argv[0] = g_bin;
    memcpy(argv + 1, args, nargs * sizeof *args);

    char out_path[4096], err_path[4096];
    int out_fd = capture_file(out_path, sizeof out_path);
    int err_fd = capture_file(err_path, sizeof err_path);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int in_fd = open("/dev/null", O_RDONLY);
        if (in_fd < 0 || dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 ||
            dup2(err_fd, 2) < 0 || (dir && chdir(dir) != 0))
            _exit(126);
        execve(g_bin, (char *const *)argv, (char *const *)envp);
        _exit(127);
    }
    close(out_fd);
    close(err_fd);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->out = read_file(out_path);
    r->err = read_file(err_path);
    ck_assert_ptr_nonnull(r->out);
    ck_assert_ptr_nonnull(r->err);
    unlink(out_path);
    unlink(err_path);
    free(argv);
    free(envp);
    ck_assert_msg(r->status != 127 && r->status != 126, "cannot execute %s in %s "
                  "(set GLNBODY_BIN)", g_bin, dir ? dir : ".");
}

/* The relative energy error (E - E0)/|E0| of a finished run's summary. */
static inline double cli_energy_error(const struct cli_run *r)
{
    const char *e = strstr(r->out, "(E - E0)/|E0| = ");
    double de = NAN;
    ck_assert_msg(e && sscanf(e + 16, "%lf", &de) == 1, "no energy error in: %s", r->out);
    return de;
}

/* g_bin from GLNBODY_BIN (default build/glnbody), made absolute so that tests
 * may run it from their own directories, and the suite's temporary
 * directory.  Returns 0, or prints why not and returns -1. */
static int cli_harness_start(const char *suite)
{
    static char absolute[4096];
    const char *bin = getenv("GLNBODY_BIN"), *tmp = getenv("TMPDIR");
    if (!bin || !*bin)
        bin = "build/glnbody";
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "%s: %s is not an executable (build it, or set GLNBODY_BIN): "
                "%s\n", suite, bin, strerror(errno));
        return -1;
    }
    if (bin[0] != '/' && getcwd(absolute, sizeof absolute - strlen(bin) - 2)) {
        strcat(absolute, "/");
        strcat(absolute, bin);
        bin = absolute;
    }
    g_bin = bin;
    snprintf(g_root, sizeof g_root, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", suite);
    if (!mkdtemp(g_root)) {
        fprintf(stderr, "%s: mkdtemp %s: %s\n", suite, g_root, strerror(errno));
        return -1;
    }
    return 0;
}

/* The main() of a suite that runs the binary: the harness, the tests
 * (forked), the temporary directory removed.  Where the suite has
 * has_gl_tests, test cases tagged NB_TEST_GL_TAG, and this machine has no
 * GL context (so the binary cannot get one either), the other cases run
 * alone and the suite exits NB_TEST_SKIPPED unless they fail. */
static inline int cli_harness_main(const char *suite, Suite *(*make_tests)(void),
                                   int has_gl_tests)
{
    int gl = !has_gl_tests || gl_context_available(suite);
    if (cli_harness_start(suite) != 0)
        return EXIT_FAILURE;
    SRunner *sr = srunner_create(make_tests());
    srunner_run_tagged(sr, NULL, NULL, NULL, gl ? NULL : NB_TEST_GL_TAG, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_tree(g_root);
    if (failed)
        return EXIT_FAILURE;
    return gl ? EXIT_SUCCESS : NB_TEST_SKIPPED;
}

#endif
