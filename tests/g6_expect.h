/* g6_expect.h - EXPECT_ERROR(call, want): a refused GRAPE-6 call gives
 * G6GL_ERROR and exactly one line "g6gl: ..." on stderr that contains
 * want.  Included by check_g6.c and check_g6_probe.c. */
#ifndef G6_EXPECT_H
#define G6_EXPECT_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "g6gl.h"

/* Runs call with stderr into a file; its one line must contain want. */
#define EXPECT_ERROR(call, want)                                             \
    do {                                                                     \
        char path_[64], line_[512] = "";                                     \
        snprintf(path_, sizeof path_, "/tmp/check_g6_err_%d", (int)getpid()); \
        fflush(stderr);                                                      \
        int saved_ = dup(2);                                                 \
        ck_assert_ptr_nonnull(freopen(path_, "w", stderr));                  \
        int r_ = (call);                                                     \
        fflush(stderr);                                                      \
        dup2(saved_, 2);                                                     \
        close(saved_);                                                       \
        FILE *e_ = fopen(path_, "r");                                        \
        ck_assert_ptr_nonnull(fgets(line_, sizeof line_, e_));               \
        int more_ = fgetc(e_) != EOF;                                        \
        fclose(e_);                                                          \
        remove(path_);                                                       \
        ck_assert_int_eq(r_, G6GL_ERROR);                                    \
        ck_assert_msg(strstr(line_, want) && strncmp(line_, "g6gl: ", 6) == 0, \
                      "message \"%s\" lacks \"%s\"", line_, want);           \
        ck_assert_msg(!more_, "more than one line: %s", line_);              \
    } while (0)

#endif
