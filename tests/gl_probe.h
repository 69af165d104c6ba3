/* gl_probe.h - whether this machine gives a GL context at all, for the
 * suites that need one.  Such a suite, finding none, exits
 * NB_TEST_SKIPPED (77: "skipped" to Automake, Check and
 * tools/scripts/run_tests.sh) with one line saying why, after running
 * the tests that need none; a failure of its own tests stays a failure.
 * Header-only; include it after <check.h>. */
#ifndef NB_TEST_GL_PROBE_H
#define NB_TEST_GL_PROBE_H

#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nb_gl.h"

#define NB_TEST_SKIPPED 77
#define NB_TEST_GL_TAG "gl"     /* Check's tag of the test cases that need GL */

/* Creates and destroys a context in a forked child, so that the suite's
 * process, which forks every test, keeps no llvmpipe threads.  Only the
 * child's own "no context" answer counts as no GL: a crash or a failed
 * fork counts as GL here, and the tests that follow say what is wrong. */
static inline int gl_context_available(const char *suite)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        struct nb_gl *gl = NULL;
        struct nb_gl_options opt;
        struct nb_error err = { 0 };
        nb_gl_options_default(&opt);
        if (nb_gl_create(&gl, &opt, &err) != NB_OK) {
            printf("%s: its GL tests skipped, no GL context: %s\n", suite,
                   err.message);
            fflush(stdout);
            _exit(NB_TEST_SKIPPED);
        }
        nb_gl_destroy(gl);
        _exit(0);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == NB_TEST_SKIPPED);
}

#endif
