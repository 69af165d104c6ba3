/* fuzz_input.h - what every fuzz target shares: the input as a file (the
 * readers take paths), and the checks on what a reader returned.
 *
 * A target defines LLVMFuzzerTestOneInput; libFuzzer's main calls it under
 * make fuzz, tests/fuzz/replay.c's under make test.  A check that fails
 * calls abort(), which both report as a crash. */
#ifndef NB_FUZZ_INPUT_H
#define NB_FUZZ_INPUT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nb_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_ARGS = 64 };

/* The command-line targets' input: text (NUL-terminated, modified) split
 * at newlines into at most FUZZ_MAX_ARGS arguments. */
static inline int split_lines(char *text, char **argv)
{
    int argc = 0;
    for (char *line = text; argc < FUZZ_MAX_ARGS;) {
        argv[argc++] = line;
        char *nl = strchr(line, '\n');
        if (!nl)
            break;
        *nl = '\0';
        line = nl + 1;
    }
    return argc;
}

/* data as a NUL-terminated copy in *text (the caller frees it) split into
 * argv, one argument a line; the count, or -1 without memory. */
static inline int fuzz_arguments(const uint8_t *data, size_t size, char **argv,
                                 char **text)
{
    *text = malloc(size + 1);
    if (!*text)
        return -1;
    memcpy(*text, data, size);
    (*text)[size] = '\0';
    return size ? split_lines(*text, argv) : 0;
}

/* Writes data into this process's scratch file (made once, rewritten on
 * every call) and returns its path. */
static inline const char *fuzz_input_file(const uint8_t *data, size_t size)
{
    static char path[256];
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/nb_fuzz_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(path);
        if (fd < 0)
            abort();
        close(fd);
    }
    FILE *fp = fopen(path, "wb");
    if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp) != 0)
        abort();
    return path;
}

/* A reader's answer holds together: the status is err's, an error has a
 * message, and a parse error names the file (file:line:column). */
static inline void fuzz_check_status(enum nb_status status, const struct nb_error *err,
                              const char *path)
{
    if (status != err->status)
        abort();
    if (status != NB_OK && !err->message[0])
        abort();
    if (status == NB_ERR_PARSE && !strstr(err->message, path))
        abort();
}

/* Every particle a reader returned is finite, with a mass >= 0. */
static inline void fuzz_check_particles(const struct nb_particles *p)
{
    for (size_t i = 0; i < p->n; i++) {
        if (!isfinite(p->m[i]) || p->m[i] < 0)
            abort();
        for (int k = 0; k < 3; k++)
            if (!isfinite(p->x[3 * i + k]) || !isfinite(p->v[3 * i + k]))
                abort();
    }
}

#endif
