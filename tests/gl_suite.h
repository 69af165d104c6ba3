/* gl_suite.h - the main() of a Check suite that needs a GL context: a
 * fresh random seed (NB_TEST_SEED replays one), one context for every
 * test, and no fork (a forked child cannot use the parent's llvmpipe
 * threads).  Without a context the suite is skipped (gl_probe.h).
 * Included by one test file each. */
#ifndef NB_TEST_GL_SUITE_H
#define NB_TEST_GL_SUITE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gl_probe.h"
#include "nb_gl.h"
#ifdef NB_SUITE_LOOP_UNIFORM_PROBE
#include "loop_uniform_probe.h"
#endif

static int run_gl_suite(const char *name, Suite *suite, struct nb_gl **gl, uint64_t *seed)
{
    const char *env = getenv("NB_TEST_SEED");
    *seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    printf("%s: seed %llu (NB_TEST_SEED to replay)\n", name, (unsigned long long)*seed);

    struct nb_gl_options opt;
    struct nb_error err = { 0 };
    nb_gl_options_default(&opt);
    if (nb_gl_create(gl, &opt, &err) != NB_OK) {
        printf("%s: skipped, no GL context: %s\n", name, err.message);
        return NB_TEST_SKIPPED;
    }
    printf("%s: renderer %s, %s shaders\n", name, nb_gl_renderer(*gl),
           nb_gl_uses_spirv(*gl) ? "SPIR-V" : "GLSL");
#ifdef NB_SUITE_LOOP_UNIFORM_PROBE
    int seen = 0, stale = loop_uniform_stale(&seen);
    if (stale) {
        printf("%s: skipped: this driver runs a compute kernel with a stale value of a "
               "uniform that bounds its loop (set to %d, seen as %d; zink in Mesa 22.3 "
               "does), and every kernel tested here takes its loop bounds from "
               "uniforms\n", name, stale, seen);
        nb_gl_destroy(*gl);
        return NB_TEST_SKIPPED;
    }
#endif
    fflush(stdout);
    SRunner *sr = srunner_create(suite);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    nb_gl_destroy(*gl);
    return failed ? 1 : 0;
}

#endif
