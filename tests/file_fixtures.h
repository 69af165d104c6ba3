/* file_fixtures.h - temporary files and the checks of the text-format
 * suites (check_text, check_snapshot, check_md_io): write a file, read it
 * back, and assert that an error names file:line:column exactly.
 * Header-only, one copy per suite; include it after <check.h>. */
#ifndef NB_TEST_FILE_FIXTURES_H
#define NB_TEST_FILE_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nb_host.h"

/* A temporary directory and a file name in it; remove with tmp_remove. */
struct tmp {
    char dir[1024];
    char path[1100];
};

static inline void tmp_make(struct tmp *t, const char *name)
{
    const char *base = getenv("TMPDIR");

    snprintf(t->dir, sizeof t->dir, "%s/check_files.XXXXXX",
             base && *base ? base : "/tmp");
    ck_assert_msg(mkdtemp(t->dir) != NULL, "mkdtemp failed");
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
}

static inline void tmp_remove(struct tmp *t)
{
    unlink(t->path);
    rmdir(t->dir);
}

static inline void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *fp = fopen(path, "wb");

    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(bytes, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

static inline void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* The whole file (under 64 KiB), NUL-terminated; free() it. */
static inline char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    size_t cap = 1 << 16, len;
    char *buf = malloc(cap);

    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(buf);
    len = fread(buf, 1, cap - 1, fp);
    ck_assert_uint_lt(len, cap - 1);
    buf[len] = '\0';
    fclose(fp);
    return buf;
}

static inline size_t count_lines(const char *text)
{
    size_t n = 0;

    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static inline void assert_particles_empty(const struct nb_particles *p)
{
    ck_assert_uint_eq(p->n, 0);
    ck_assert_ptr_null(p->id);
    ck_assert_ptr_null(p->type);
    ck_assert_ptr_null(p->q);
    ck_assert_ptr_null(p->m);
    ck_assert_ptr_null(p->x);
    ck_assert_ptr_null(p->v);
}

/* The message is exactly "path:line:column: reason" (line 0: "path:
 * reason", a message about the whole file). */
static inline void assert_at(const struct nb_error *err, const char *path,
                             int line, int column, const char *reason)
{
    char want[2048];

    if (line > 0)
        snprintf(want, sizeof want, "%s:%d:%d: %s", path, line, column,
                 reason);
    else
        snprintf(want, sizeof want, "%s: %s", path, reason);
    ck_assert_str_eq(err->message, want);
}

/* A fluorite cell with random velocities, awkward values included. */
static inline void awkward_set(struct nb_particles *p, struct nb_md_box *box,
                               const struct nb_md_potential *pot,
                               uint64_t seed)
{
    struct nb_rng rng;
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_md_ionic_crystal(p, box, 1, 1.0, pot, &err), NB_OK);
    nb_rng_seed(&rng, seed);
    for (size_t i = 0; i < 3 * p->n; i++) {
        p->x[i] += 0.1 * (nb_rng_uniform(&rng) - 0.5);
        p->v[i] = 2.0 * nb_rng_uniform(&rng) - 1.0;
    }
    p->v[0] = -0.0;
    p->v[1] = 1e-300;
    p->v[2] = -1.7976931348623157e308;
    p->m[3] = 0.1;
    p->id[5] = -1234567890123LL;
    box->periodic[0] = box->periodic[1] = 1;    /* pp pp ff */
    box->lo[1] = -0.1;
}

/* A fresh seed per run, or NB_TEST_SEED when set; printed by main. */
static inline uint64_t suite_seed(const char *suite)
{
    const char *env = getenv("NB_TEST_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 0)
                  : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);

    printf("%s: seed %llu (NB_TEST_SEED to replay)\n", suite,
           (unsigned long long)seed);
    return seed;
}

#endif
