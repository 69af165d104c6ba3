/* check_g6_jmem.c - the j-memory block steps of glnbody.h (section 7a)
 * that libg6gl stands on, through the library's own calls:
 *  - refusals: engines without j-memory, calls out of order, numbers that
 *    are not finite;
 *  - the queue of j-updates past a small block's carry, an address put
 *    again in its batch (the last put wins), and a queue that duplicates
 *    fill past twice the addresses;
 *  - the total mass that modes E, F and H bound their sums with, read back
 *    from the device after puts in mode A;
 *  - the device seconds of a timed block;
 *  - the hints of mode H's ranges (nb_forces_block_hint).
 * Forces against the double-precision CPU prediction and sum of
 * tests/g6_jset.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6_jset.h"
#include "gl_suite.h"
#include "glnbody.h"

static struct nb_gl *g_gl;
static uint64_t g_seed;

/* Each number of a block's i-particles made an infinity or a NaN in turn,
 * the block timed: refused, naming the array and the index, and no query
 * left open (a block then runs).  Finite numbers whose sum overflows pass,
 * and a block on no j-particles is checked too. */
static void check_block_numbers(struct nb_forces *f)
{
    struct nb_error e = { 0 };
    double xi[2][3] = { { 0, 0, 0 }, { 0.5, 0, 0 } }, vi[2][3] = { { 0 } }, h2[2] = { 0 };
    int32_t ids[2] = { 0, 1 };
    static const char *names[] = { "x[", "v[", "h2[" };
    for (int k = 0; k < 14; k++) {
        double *slot = k < 6 ? &xi[k / 3][k % 3] : k < 12 ? &vi[(k - 6) / 3][k % 3] : &h2[k - 12];
        double keep = *slot;
        *slot = k % 2 ? NAN : -INFINITY;
        ck_assert_int_eq(nb_forces_block_start(f, 8, 0.0, 0.01, 2, ids, &xi[0][0], &vi[0][0],
                                               h2, NB_BLOCK_TIMED, &e), NB_ERR_ARGS);
        ck_assert_msg(strstr(e.message, names[k / 6]) && strstr(e.message, "not a finite"),
                      "%d: %s", k, e.message);
        *slot = keep;
    }
    xi[1][0] = vi[1][0] = 1e308;
    ck_assert_int_eq(nb_forces_block_start(f, 8, 0.0, 0.01, 2, ids, &xi[0][0], &vi[0][0], h2,
                                           NB_BLOCK_TIMED, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_finish(f, NULL, NULL, NULL, NULL, NULL, &e), NB_OK);
    xi[0][1] = NAN;
    ck_assert_int_eq(nb_forces_block_start(f, 0, 0.0, 0.01, 2, ids, &xi[0][0], &vi[0][0], h2,
                                           0, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "x[1] is not a finite"), "%s", e.message);
}

/* The engines without j-memory block steps refuse them by name; the calls
 * out of order refuse too. */
START_TEST(api_refusals)
{
    struct nb_error e = { 0 };
    struct nb_forces *f;
    static const enum nb_engine others[] = { NB_ENGINE_CPU, NB_ENGINE_FRAGMENT };
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(nb_forces_create(&f, g_gl, others[k], &e), NB_OK);
        ck_assert_int_eq(nb_forces_jmem_reserve(f, 16, &e), NB_ERR_UNSUPPORTED);
        ck_assert_msg(strstr(e.message, "need the compute engine"), "%s", e.message);
        ck_assert_int_eq(nb_forces_block_size(f), 0);
        nb_forces_destroy(f);
    }
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_finish(f, NULL, NULL, NULL, NULL, NULL, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "no block was started"), "%s", e.message);
    ck_assert_int_eq(nb_forces_jmem_reserve(f, 8, &e), NB_OK);
    struct nb_jparticle p = { .mass = 1.0 };
    uint32_t at = 8;
    ck_assert_int_eq(nb_forces_jmem_put(f, 1, &at, &p, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "address 8 out of range"), "%s", e.message);
    at = 3;
    for (int k = 0; k < 14; k++) {      /* each number of a j-particle, bad */
        struct nb_jparticle q = { .mass = 1.0 };
        double *slot = k < 12 ? (k < 3 ? q.x : k < 6 ? q.v : k < 9 ? q.a2 : q.j6) + k % 3
                     : k == 12 ? &q.t : &q.mass;
        *slot = k % 2 ? NAN : -INFINITY;
        ck_assert_int_eq(nb_forces_jmem_put(f, 1, &at, &q, &e), NB_ERR_ARGS);
        ck_assert_msg(strstr(e.message, k < 12 ? "non-finite" : "mass"), "%s", e.message);
    }
    p.mass = -1.0;
    ck_assert_int_eq(nb_forces_jmem_put(f, 1, &at, &p, &e), NB_ERR_ARGS);
    p.mass = 1.0;
    /* the put of one by its parts refuses the same, in the same words */
    double ok[3] = { 0, 0, 0 }, bad[3] = { 0, NAN, 0 };
    ck_assert_int_eq(nb_forces_jmem_put_one(f, 8, 0, 0.0, 1.0, ok, ok, ok, ok, &e),
                     NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "address 8 out of range"), "%s", e.message);
    ck_assert_int_eq(nb_forces_jmem_put_one(f, 3, 0, 0.0, 1.0, ok, ok, bad, ok, &e),
                     NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "non-finite"), "%s", e.message);
    ck_assert_int_eq(nb_forces_jmem_put_one(f, 3, 0, 0.0, -1.0, ok, ok, ok, ok, &e),
                     NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "mass"), "%s", e.message);
    ck_assert_int_eq(nb_forces_jmem_put_one(f, 3, 0, 0.0, 1.0, ok, NULL, ok, ok, &e),
                     NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "NULL"), "%s", e.message);
    double x[3] = { 0, 0, 0 };
    int32_t id = 0;
    ck_assert_int_eq(nb_forces_block_start(f, 9, 0.0, 0.01, 1, &id, x, x, NULL, 0, &e),
                     NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_block_start(f, 8, 0.0, 0.01, 1, &id, x, x, NULL, 0, &e), NB_OK);
    int32_t nn;
    ck_assert_int_eq(nb_forces_block_finish(f, NULL, NULL, NULL, &nn, NULL, &e), NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_block_finish(f, NULL, NULL, NULL, NULL, NULL, &e), NB_OK);
    uint32_t count;
    ck_assert_int_eq(nb_forces_block_neighbours(f, 4, &count, &id, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "without h2"), "%s", e.message);
    check_block_numbers(f);
    nb_forces_destroy(f);
}
END_TEST

/* Puts of j-set s's addresses [from, to) through the library; decoy:
 * fifty times the mass, elsewhere (a later put must replace it); one: by
 * nb_forces_jmem_put_one, not nb_forces_jmem_put. */
static void put_range(struct nb_forces *f, const struct jset *s, int from, int to, int decoy,
                      int one)
{
    struct nb_error e = { 0 };
    for (int j = from; j < to; j++) {
        struct nb_jparticle p = { .t = s->t[j], .mass = s->m[j] * (decoy ? 50 : 1), .id = j };
        uint32_t at = (uint32_t)j;
        for (int c = 0; c < 3; c++) {
            p.x[c] = s->x[j][c] + (decoy ? 0.3 : 0.0);
            p.v[c] = s->v[j][c];
            p.a2[c] = s->a2[j][c];
            p.j6[c] = s->j6[j][c];
        }
        if (one)
            ck_assert_int_eq(nb_forces_jmem_put_one(f, at, p.id, p.t, p.mass, p.x, p.v, p.a2,
                                                    p.j6, &e), NB_OK);
        else
            ck_assert_int_eq(nb_forces_jmem_put(f, 1, &at, &p, &e), NB_OK);
    }
}

/* A block of ni of s's particles (every 7th) through the library, against
 * the CPU, as check_sent_block. */
static void check_library_block(struct nb_forces *f, const struct jset *s, int ni, double tol)
{
    struct nb_error e = { 0 };
    double ti = 0.5, eps2 = 1e-4, *x = malloc(sizeof *x * 3 * (size_t)ni);
    double *v = malloc(sizeof *v * 3 * (size_t)ni), *acc = malloc(sizeof *acc * 3 * (size_t)ni);
    double *jer = malloc(sizeof *jer * 3 * (size_t)ni), *pot = malloc(sizeof *pot * (size_t)ni);
    int32_t *id = malloc(sizeof *id * (size_t)ni);
    for (int k = 0; k < ni; k++) {
        id[k] = (k * 7) % s->n;
        predict(s, id[k], ti, x + 3 * k, v + 3 * k);
    }
    ck_assert_int_eq(nb_forces_block_start(f, (size_t)s->n, ti, eps2, (size_t)ni, id, x, v,
                                           NULL, 0, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_finish(f, acc, jer, pot, NULL, NULL, &e), NB_OK);
    for (int k = 0; k < ni; k++) {
        double ra[3], rj[3], rp, sc[3], ro[3], r2;
        int nn;
        cpu_forces(s, ti, eps2, x + 3 * k, v + 3 * k, id[k], ra, rj, &rp, sc, ro, &nn, &r2);
        for (int c = 0; c < 3; c++)
            ck_assert_msg(fabs(acc[3 * k + c] - ra[c]) <= tol * sc[0] + ro[0],
                          "n %d, ni %d, i %d: acc %.9g, CPU %.9g", s->n, ni, k,
                          acc[3 * k + c], ra[c]);
        ck_assert_msg(fabs(pot[k] - rp) <= tol * sc[2] + ro[2], "n %d, ni %d, i %d: pot "
                      "%.9g, CPU %.9g", s->n, ni, k, pot[k], rp);
    }
    free(x), free(v), free(acc), free(jer), free(pot), free(id);
}

/* A compute engine whose j-memory holds n addresses, and s drawn afresh
 * (n particles at t <= 0.5); jmem_done frees both. */
static struct nb_forces *jmem_with(struct jset *s, int n, uint64_t salt)
{
    struct nb_error e = { 0 };
    struct nb_forces *f;
    uint64_t rng = g_seed ^ salt;
    jset_make(s, n, 0.5, &rng);
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    ck_assert_int_eq(nb_forces_jmem_reserve(f, (size_t)n, &e), NB_OK);
    return f;
}

static void jmem_done(struct nb_forces *f, struct jset *s)
{
    nb_forces_destroy(f);
    jset_free(s);
}

/* The queue past NB_G6_INLINE_MAX updates: a batch moves from host memory
 * into its transfer area, which grows while it fills, keeping what it
 * holds; an address put again lands in its slot wherever that is; the
 * next batches alternate between two areas. */
START_TEST(queue_grows_in_batch)
{
    struct jset s;
    struct nb_forces *f = jmem_with(&s, 3001, 0x51ed);
    put_range(f, &s, 0, 20, 1, 0);      /* decoys, in host memory */
    put_range(f, &s, 20, 40, 0, 1);     /* in host memory, then moved */
    put_range(f, &s, 40, 140, 0, 0);    /* into the area */
    put_range(f, &s, 140, 3001, 0, 1);  /* the area grows */
    put_range(f, &s, 0, 20, 0, 1);      /* the decoys' slots, now in the area */
    check_library_block(f, &s, 5, 1e-5);
    for (int batch = 0; batch < 3; batch++) {   /* 70 moved particles each */
        int from = 100 + 500 * batch;
        for (int j = from; j < from + 70; j++)
            s.x[j][batch % 3] += 0.05;
        put_range(f, &s, from, from + 70, 1, 0);
        put_range(f, &s, from, from + 70, 0, batch % 2);
        check_library_block(f, &s, batch == 1 ? 100 : 3, 1e-5);
    }
    jmem_done(f, &s);
}
END_TEST

/* A block's device seconds come with NB_BLOCK_TIMED only (the timer query
 * costs every block otherwise). */
START_TEST(block_seconds)
{
    struct nb_error e = { 0 };
    struct nb_forces *f;
    double x[3] = { 0, 0, 0 }, acc[3];
    int32_t id = 0;
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_COMPUTE, &e), NB_OK);
    ck_assert_int_eq(nb_forces_jmem_reserve(f, 4099, &e), NB_OK);
    for (int timed = 1; timed >= 0; timed--) {
        ck_assert_int_eq(nb_forces_block_start(f, 4099, 0.0, 0.01, 1, &id, x, x, NULL,
                                               timed ? NB_BLOCK_TIMED : 0u, &e), NB_OK);
        ck_assert_int_eq(nb_forces_block_finish(f, acc, NULL, NULL, NULL, NULL, &e), NB_OK);
        if (timed)
            ck_assert_msg(nb_forces_seconds(f) > 0.0, "timed block: %g s",
                          nb_forces_seconds(f));
        else
            ck_assert_msg(nb_forces_seconds(f) == 0.0, "untimed block: %g s",
                          nb_forces_seconds(f));
    }
    nb_forces_destroy(f);
}
END_TEST

/* Puts in mode A keep no masses (a put then reads no per-address memory);
 * a block in mode H reads them back from the device for its fixed-point
 * bounds, and puts in mode H keep them from there on. */
START_TEST(masses_after_mode_change)
{
    struct nb_error e = { 0 };
    struct jset s;
    struct nb_forces *f = jmem_with(&s, 1031, 0x3a55);
    put_range(f, &s, 0, 1031, 0, 1);
    ck_assert_int_eq(nb_forces_set_precision(f, NB_PRECISION_H, &e), NB_OK);
    check_library_block(f, &s, 5, 2e-6);
    for (int j = 0; j < 200; j++)
        s.m[j] *= 3.0;
    put_range(f, &s, 0, 200, 1, 0);
    put_range(f, &s, 0, 200, 0, 1);
    check_library_block(f, &s, 70, 2e-6);
    jmem_done(f, &s);
}
END_TEST

/* Two addresses put again and again in one batch, a decoy each time but
 * the last: the queue, past twice the j-memory's addresses, goes out before
 * it grows further, and the last put of each address wins. */
START_TEST(many_puts_of_one_address)
{
    struct jset s;
    struct nb_forces *f = jmem_with(&s, 97, 0x7e11);
    put_range(f, &s, 0, 97, 0, 0);
    for (int round = 0; round < 300; round++)
        put_range(f, &s, 3, 5, 1, round & 1);
    put_range(f, &s, 3, 5, 0, 1);
    check_library_block(f, &s, 5, 1e-5);
    jmem_done(f, &s);
}
END_TEST

/* nb_forces_block_hint: its refusals; and mode H's block that must run
 * again (hints 2^-40 of the true magnitudes: its sums leave the range they
 * set), after puts that went to the device while it ran: the finish
 * refuses it, naming the cause, instead of mixing two j-memories. */
START_TEST(hints)
{
    struct nb_error e = { 0 };
    struct nb_forces *f;
    struct jset s;
    double one[3] = { 1, 1, 1 };
    ck_assert_int_eq(nb_forces_block_hint(NULL, 1, one, one, one, &e), NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_create(&f, g_gl, NB_ENGINE_CPU, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_hint(f, 1, one, one, one, &e), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(e.message, "need the compute engine"), "%s", e.message);
    nb_forces_destroy(f);
    f = jmem_with(&s, 97, 0x4171);
    size_t big = nb_forces_block_size(f) + 1;
    ck_assert_int_eq(nb_forces_block_hint(f, big, NULL, NULL, NULL, &e), NB_ERR_ARGS);
    ck_assert_msg(strstr(e.message, "above the block size"), "%s", e.message);
    enum nb_status int64 = nb_forces_set_precision(f, NB_PRECISION_H, &e);
    if (int64 == NB_ERR_UNSUPPORTED) {
        printf("check_g6_jmem: mode H's hints not tested: %s\n", e.message);
        jmem_done(f, &s);
        return;
    }
    put_range(f, &s, 0, 97, 0, 0);
    double x[3], v[3], acc[3], jer[3], pot, tiny[3];
    int32_t id = 5;
    predict(&s, id, 0.5, x, v);
    ck_assert_int_eq(nb_forces_block_start(f, 97, 0.5, 1e-4, 1, &id, x, v, NULL, 0, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_finish(f, acc, jer, &pot, NULL, NULL, &e), NB_OK);
    for (int c = 0; c < 3; c++)
        tiny[c] = acc[c] * 0x1p-40;
    ck_assert_int_eq(nb_forces_block_hint(f, 1, tiny, tiny, NULL, &e), NB_OK);
    ck_assert_int_eq(nb_forces_block_start(f, 97, 0.5, 1e-4, 1, &id, x, v, NULL, 0, &e), NB_OK);
    for (int round = 0; round < 300; round++)   /* past twice the addresses: sent */
        put_range(f, &s, 3, 5, 1, round & 1);
    ck_assert_int_eq(nb_forces_block_finish(f, acc, jer, &pot, NULL, NULL, &e), NB_ERR_LIMIT);
    ck_assert_msg(strstr(e.message, "the j-memory has changed"), "%s", e.message);
    jmem_done(f, &s);
}
END_TEST

static Suite *jmem_suite(void)
{
    Suite *s = suite_create("g6_jmem");
    TCase *tc = tcase_create("g6_jmem");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, api_refusals);
    tcase_add_test(tc, block_seconds);
    tcase_add_test(tc, queue_grows_in_batch);
    tcase_add_test(tc, masses_after_mode_change);
    tcase_add_test(tc, many_puts_of_one_address);
    tcase_add_test(tc, hints);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_g6_jmem", jmem_suite(), &g_gl, &g_seed);
}
