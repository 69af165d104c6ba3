/* check_fragment_precision.c - the accumulation modes B..H on the fragment
 * pipeline (src/fragment_precision.c: ga_precision.frag behind the
 * fragment backend's set_precision, md_precision.frag behind
 * nb_md_prec_forces_fragment), on fresh random inputs (NB_TEST_SEED=S
 * replays).  Inputs are float-representable.
 *
 * GA, N in {1, 2, 3, 5, 97, 1031}, unequal masses: every mode against the
 * CPU reference in double with the bounds of check_precision (per
 * particle, relative to S_i = sum_j |a_ij|; f_err where N is large enough
 * for it to average: 1031), and the same bits as the compute pipeline's
 * precision kernel: both walk the same j-tiles, the fragment passes carry
 * the accumulator state bit for bit, and the pair terms come from the same
 * law.  Mode H: the raw int64 sums equal the compute pipeline's and do
 * not change with the pass count P = 1, 2, 3, 7 (j-splits), and the force
 * sums add up to exactly zero; modes B..G give the same bits for every P
 * (the state is resumed exactly: C's float pair, F's float + int32, the
 * doubles of B and G).  MD (md_fixtures.h: 16 LJ types with random
 * parameters on a jittered lattice; LJC linear for G's Coulomb term):
 * every mode within check_md_precision's bounds and mode H's int64 sums
 * those of the compute pipeline for every P.  Refusals: G for the MD
 * sigmoidal and ionic laws, H without softening or with a massless
 * particle, E/F at coincident particles, the prec1x1 variant in mode A,
 * GAJ in B..H, a fixed-point read after another mode.  The CLI: `glnbody
 * forces --backend fragment --precision H` writes the compute backend's
 * numbers, `glnbody precision --backend fragment` reports GA and MD. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_gl.h"
#define NB_SUITE_LOOP_UNIFORM_PROBE   /* loop_uniform_probe.h */
#include "gl_suite.h"
#include "ga_fixtures.h"
#include "md_fixtures.h"
#include "cli_harness.h"

#define EPS 0.01

static struct nb_gl *gl;
static uint64_t seed;

/* check_precision's bounds: per particle (relative to S_i) and f_err. */
static const double max_rel[NB_PRECISION_COUNT] = {
    1e-5, 4.8e-7, 4.8e-7, 1e-6, 1e-6, 4.8e-7, 1e-12, 4.8e-7 };
static const double max_f_err[NB_PRECISION_COUNT] = {
    1e-6, 1e-7, 1e-7, 1e-6, 1e-7, 1e-7, 1e-12, 1e-7 };

static struct nb_force_backend open_backend(const char *name)
{
    struct nb_force_backend b;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_backend_create(&b, name, gl, &err) == NB_OK, "%s", err.message);
    return b;
}

/* One GA evaluation in mode on b with variant (NULL: as set before). */
static void evaluate(struct nb_force_backend *b, enum nb_precision mode, const char *variant,
                     const struct nb_particles *p, double *acc, double *pot)
{
    struct nb_error err = { 0 };
    if (variant)
        ck_assert_msg(b->set_variant(b->state, variant, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_precision(b->state, mode, &err) == NB_OK, "%s", err.message);
    ck_assert_msg(b->set_particles(b->state, p->n, p->x, p->m, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_msg(b->compute(b->state, NB_KERNEL_GA, EPS, &err) == NB_OK, "%s %s: %s",
                  b->name, nb_precision_name(mode), err.message);
    for (size_t i = 0; i < 3 * p->n; i++)
        acc[i] = NAN;
    for (size_t i = 0; i < p->n; i++)
        pot[i] = NAN;
    ck_assert_msg(b->read(b->state, acc, pot, &err) == NB_OK, "%s", err.message);
}

static int same_bits(const double *a, const double *b, size_t count)
{
    return memcmp(a, b, count * sizeof *a) == 0;
}

START_TEST(ga_modes_match_cpu_and_compute)
{
    static const size_t sizes[] = { 1, 2, 3, 5, 97, 1031 };
    struct nb_force_backend frag = open_backend("fragment"), comp = open_backend("compute");
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    size_t n = sizes[_i];
    ga_random_system(&p, n, seed + n, 0);
    double *ref = calloc(3 * n, 8), *ref_pot = calloc(n, 8), *aabs = calloc(n, 8),
           *pabs = calloc(n, 8), *acc = calloc(3 * n, 8), *pot = calloc(n, 8),
           *cacc = calloc(3 * n, 8), *cpot = calloc(n, 8);
    ck_assert(ref && ref_pot && aabs && pabs && acc && pot && cacc && cpot);
    ck_assert_int_eq(nb_cpu_ga(n, p.x, p.m, EPS, ref, ref_pot, &err), NB_OK);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(n, p.x, p.m, EPS, aabs, pabs, &err), NB_OK);
    if (n == 1031)
        printf("fragment, N = %zu random cube, unequal masses, eps %g, seed %llu\n"
               "mode  max da/|a|  max dphi/|phi|      f_err   f_offset  variant\n", n, EPS,
               (unsigned long long)seed);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        struct nb_accuracy q;
        evaluate(&frag, (enum nb_precision)m, "auto", &p, acc, pot);
        nb_accuracy_ga(n, p.m, acc, pot, ref, ref_pot, aabs, pabs, &q);
        if (n == 1031)
            printf("%-4s  %10.3e  %14.3e  %9.3e  %9.3e  %s\n", nb_precision_name(m),
                   q.acc_rel_max, q.pot_rel_max, q.f_err, q.f_offset,
                   frag.variant(frag.state));
        ck_assert_msg(q.nonfinite == 0 && q.acc_rel_max <= max_rel[m] &&
                      q.pot_rel_max <= max_rel[m] && (n < 1031 || q.f_err <= max_f_err[m]),
                      "fragment %s, N = %zu: da %.3g dphi %.3g f_err %.3g over %.3g/%.3g "
                      "(seed %llu)", nb_precision_name(m), n, q.acc_rel_max, q.pot_rel_max,
                      q.f_err, max_rel[m], max_f_err[m], (unsigned long long)seed);
        ck_assert_str_eq(frag.variant(frag.state), "prec1x1-p1");
        evaluate(&comp, (enum nb_precision)m, NULL, &p, cacc, cpot);
        ck_assert_msg(same_bits(acc, cacc, 3 * n) && same_bits(pot, cpot, n),
                      "fragment %s, N = %zu: not the compute pipeline's bits (seed %llu)",
                      nb_precision_name(m), n, (unsigned long long)seed);
    }
    frag.destroy(frag.state);
    comp.destroy(comp.state);
    free(ref); free(ref_pot); free(aabs); free(pabs); free(acc); free(pot);
    free(cacc); free(cpot);
    nb_particles_free(&p);
}
END_TEST

/* j-splits: P = 1, 2, 3, 7 passes over the 9 tiles of N = 1031 (7 gives
 * uneven passes of one and two tiles). */
START_TEST(passes_bit_identical)
{
    static const int passes[] = { 1, 2, 3, 7 };
    struct nb_force_backend frag = open_backend("fragment"), comp = open_backend("compute");
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    size_t n = 1031;
    ga_random_system(&p, n, seed + 11, 0);
    int64_t *fixed = malloc(32 * n), *cfixed = malloc(32 * n);
    double *acc = malloc(24 * n), *pot = malloc(8 * n);
    double *acc1 = malloc(24 * n), *pot1 = malloc(8 * n);
    ck_assert(fixed && cfixed && acc && pot && acc1 && pot1);
    int ka, kp, cka, ckp;
    evaluate(&comp, NB_PRECISION_H, NULL, &p, acc, pot);
    ck_assert_int_eq(nb_backend_compute_read_fixed(&comp, cfixed, &cka, &ckp, &err), NB_OK);
    for (size_t k = 0; k < 4; k++) {
        char variant[32];
        snprintf(variant, sizeof variant, "prec1x1-p%d", passes[k]);
        evaluate(&frag, NB_PRECISION_H, variant, &p, acc, pot);
        ck_assert_str_eq(frag.variant(frag.state), variant);
        ck_assert_int_eq(nb_backend_fragment_read_fixed(&frag, fixed, &ka, &kp, &err), NB_OK);
        ck_assert(ka == cka && kp == ckp);
        uint64_t sum[3] = { 0 };   /* modulo 2^64: exact, no overflow */
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 4; c++) {
                ck_assert_msg(fixed[4 * i + c] == cfixed[4 * i + c], "H, P = %d: particle "
                              "%zu component %d is not the compute pipeline's (seed %llu)",
                              passes[k], i, c, (unsigned long long)seed);
                if (c < 3)
                    sum[c] += (uint64_t)fixed[4 * i + c];
            }
        ck_assert_msg(sum[0] == 0 && sum[1] == 0 && sum[2] == 0, "H, P = %d: sum of forces "
                      "%lld %lld %lld (units 2^-%d), not zero", passes[k], (long long)sum[0],
                      (long long)sum[1], (long long)sum[2], ka);
    }
    for (int m = NB_PRECISION_B; m < NB_PRECISION_H; m++)
        for (size_t k = 0; k < 4; k++) {
            char variant[32];
            snprintf(variant, sizeof variant, "1x1-p%d", passes[k]);   /* any -p<P> */
            evaluate(&frag, (enum nb_precision)m, variant, &p, k ? acc : acc1, k ? pot : pot1);
            snprintf(variant, sizeof variant, "prec1x1-p%d", passes[k]);
            ck_assert_str_eq(frag.variant(frag.state), variant);
            ck_assert_msg(k == 0 || (same_bits(acc, acc1, 3 * n) && same_bits(pot, pot1, n)),
                          "%s: P = %d and P = 1 differ (seed %llu)", nb_precision_name(m),
                          passes[k], (unsigned long long)seed);
        }
    frag.destroy(frag.state);
    comp.destroy(comp.state);
    free(fixed); free(cfixed); free(acc); free(pot); free(acc1); free(pot1);
    nb_particles_free(&p);
}
END_TEST

/* MD: every mode of md_precision.frag within check_md_precision's bounds
 * (S_i counted part by part), the same bits as md_precision.comp, and H's
 * int64 sums the compute pipeline's for P = 1, 2, 5, summing to zero. */
static void check_md(enum nb_md_law law, size_t n, int types)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    md_lattice(&p, &box, n, types, 1.1, 0.2, 0.0, 0, seed + n);
    md_random_potential(&pot, law, types, 0.0, 0, seed + n);
    md_system_of(&sys, &p, &pot, &box, 0);
    double *ref = calloc(3 * n, 8), *pe_ref = calloc(n, 8), *vir = calloc(n, 8);
    double *f = calloc(3 * n, 8), *pe = calloc(n, 8), *cf = calloc(3 * n, 8);
    double *cpe = calloc(n, 8), *s_abs = calloc(n, 8), *u_abs = calloc(n, 8);
    double *w_abs = calloc(n, 8), seconds[2];
    int64_t *fixed = calloc(4 * n, 8), *cfixed = calloc(4 * n, 8);
    ck_assert(ref && pe_ref && vir && f && pe && cf && cpe && s_abs && u_abs && w_abs &&
              fixed && cfixed);
    ck_assert_int_eq(nb_md_cpu_forces(&sys, p.x, ref, pe_ref, vir, &err), NB_OK);
    md_pair_magnitudes(&sys, p.x, s_abs, u_abs, w_abs);
    for (int m = NB_PRECISION_B; m < NB_PRECISION_COUNT; m++) {
        double bound = m == NB_PRECISION_G ? 1e-12 : m == NB_PRECISION_E ? 4e-6 : 2e-6;
        int log2s[2], clog2s[2];
        ck_assert_msg(nb_md_prec_forces(gl, &sys, p.x, (enum nb_precision)m, cf, cpe, seconds,
                                        cfixed, clog2s, &err) == NB_OK, "%s", err.message);
        static const int passes[] = { 1, 2, 5 };
        for (int k = 0; k < (m == NB_PRECISION_H ? 3 : 1); k++) {
            ck_assert_msg(nb_md_prec_forces_fragment(gl, &sys, p.x, (enum nb_precision)m,
                                                     passes[k], f, pe, seconds, fixed, log2s,
                                                     &err) == NB_OK, "%s %s: %s",
                          nb_md_law_name(law), nb_precision_name(m), err.message);
            for (size_t i = 0; i < n; i++)
                for (int a = 0; a < 3; a++)
                    ck_assert_msg(fabs(f[3 * i + a] - ref[3 * i + a]) <= bound * s_abs[i],
                                  "%s %s: F[%zu][%d] = %.12g, reference %.12g, S_i %.3g "
                                  "(seed %llu)", nb_md_law_name(law), nb_precision_name(m),
                                  i, a, f[3 * i + a], ref[3 * i + a], s_abs[i],
                                  (unsigned long long)seed);
            ck_assert_msg(same_bits(f, cf, 3 * n) && same_bits(pe, cpe, n), "%s %s, P = %d: "
                          "not the compute pipeline's bits (seed %llu)", nb_md_law_name(law),
                          nb_precision_name(m), passes[k], (unsigned long long)seed);
            if (m != NB_PRECISION_H)
                continue;
            ck_assert(log2s[0] == clog2s[0] && log2s[1] == clog2s[1]);
            uint64_t sum[3] = { 0 };   /* modulo 2^64: exact, no overflow */
            for (size_t i = 0; i < n; i++)
                for (int c = 0; c < 4; c++) {
                    ck_assert_msg(fixed[4 * i + c] == cfixed[4 * i + c], "MD H, P = %d: "
                                  "particle %zu component %d differs from compute",
                                  passes[k], i, c);
                    if (c < 3)
                        sum[c] += (uint64_t)fixed[4 * i + c];
                }
            ck_assert_msg(sum[0] == 0 && sum[1] == 0 && sum[2] == 0, "MD H: sum of forces "
                          "%lld %lld %lld, not zero", (long long)sum[0], (long long)sum[1],
                          (long long)sum[2]);
        }
    }
    free(ref); free(pe_ref); free(vir); free(f); free(pe); free(cf); free(cpe);
    free(s_abs); free(u_abs); free(w_abs); free(fixed); free(cfixed);
    nb_particles_free(&p);
}

START_TEST(md_lj16_matches_compute)
{
    check_md(NB_LAW_LJ, 700, 16);           /* 6 tiles: P = 5 cuts unevenly */
}
END_TEST

START_TEST(md_ljc_linear_matches_compute)
{
    check_md(NB_LAW_LJC_LINEAR, 131, 5);
}
END_TEST

START_TEST(ga_refusals)
{
    struct nb_force_backend b = open_backend("fragment");
    struct nb_error err = { 0 };
    struct nb_particles p = { 0 };
    int64_t fixed[4 * 100];
    int ka, kp;
    ga_random_system(&p, 100, seed + 3, 0);
    /* set_particles before set_precision: the precision kernel has no data */
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_C, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, EPS, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "set_particles") != NULL, "%s", err.message);
    ck_assert_int_eq(nb_backend_fragment_read_fixed(&b, fixed, &ka, &kp, &err), NB_ERR_ARGS);
    /* H needs eps > 0 and masses > 0 */
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_H, &err), NB_OK);
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.0, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "softening") != NULL, "%s", err.message);
    p.m[5] = 0.0;
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, EPS, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "mass") != NULL, "%s", err.message);
    nb_particles_free(&p);
    ga_random_system(&p, 100, seed + 3, 0);
    /* E, F: coincident particles at eps = 0 */
    memcpy(&p.x[3 * 7], &p.x[3 * 8], 3 * sizeof(double));
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_F, &err), NB_OK);
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, 0.0, &err), NB_ERR_NUMERIC);
    ck_assert_msg(strstr(err.message, "softening 0") != NULL, "%s", err.message);
    /* GAJ stays in float */
    ck_assert_int_eq(b.set_j(b.state, p.n, p.x, p.x, p.m, &err), NB_OK);
    const uint32_t active[2] = { 0, 1 };
    ck_assert_int_eq(b.compute_gaj(b.state, EPS, 2, active, &err), NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "GAJ") != NULL, "%s", err.message);
    /* the precision kernel's variant needs a precision mode; bad passes */
    ck_assert_int_eq(b.set_variant(b.state, "prec1x1-p0", &err), NB_ERR_ARGS);
    ck_assert_int_eq(b.set_variant(b.state, "prec1x1-p3x", &err), NB_ERR_ARGS);
    ck_assert_int_eq(b.set_variant(b.state, "prec1x1-p3", &err), NB_OK);
    ck_assert_int_eq(b.set_precision(b.state, NB_PRECISION_A, &err), NB_OK);
    ck_assert_int_eq(b.set_particles(b.state, p.n, p.x, p.m, &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, EPS, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "B..H") != NULL, "%s", err.message);
    /* back to a mode-A variant: the float kernel */
    ck_assert_int_eq(b.set_variant(b.state, "4x4", &err), NB_OK);
    ck_assert_int_eq(b.compute(b.state, NB_KERNEL_GA, EPS, &err), NB_OK);
    b.destroy(b.state);
    /* the compute backend's hook refuses a fragment backend and the reverse */
    struct nb_force_backend c = open_backend("compute");
    ck_assert_int_eq(nb_backend_fragment_read_fixed(&c, fixed, &ka, &kp, &err), NB_ERR_ARGS);
    c.destroy(c.state);
    nb_particles_free(&p);
}
END_TEST

START_TEST(md_refusals)
{
    struct nb_particles p = { 0 };
    struct nb_md_box box;
    struct nb_md_potential pot;
    struct nb_md_system sys;
    struct nb_error err = { 0 };
    double f[3 * 24], pe[24], seconds[2];
    static const enum nb_md_law laws[] = { NB_LAW_LJC_SIGMOIDAL, NB_LAW_IONIC };
    md_lattice(&p, &box, 24, 3, 1.1, 0.2, 0.0, 0, seed);
    for (int l = 0; l < 2; l++) {
        md_random_potential(&pot, laws[l], 3, 0.0, 0, seed);
        md_system_of(&sys, &p, &pot, &box, 0);
        ck_assert_int_eq(nb_md_prec_forces_fragment(gl, &sys, p.x, NB_PRECISION_G, 0, f, pe,
                                                    seconds, NULL, NULL, &err),
                         NB_ERR_UNSUPPORTED);
        ck_assert_msg(strstr(err.message, "double") != NULL &&
                      strstr(err.message, nb_md_law_name(laws[l])) != NULL, "%s", err.message);
        /* the other modes run */
        ck_assert_msg(nb_md_prec_forces_fragment(gl, &sys, p.x, NB_PRECISION_F, 0, f, pe,
                                                 seconds, NULL, NULL, &err) == NB_OK, "%s",
                      err.message);
    }
    ck_assert_int_eq(nb_md_prec_forces_fragment(gl, &sys, p.x, NB_PRECISION_A, 0, f, pe,
                                                seconds, NULL, NULL, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "fragment") != NULL, "%s", err.message);
    pot.cutoff = 2.5;
    sys.cell_list = 1;
    for (int a = 0; a < 3; a++)
        box.hi[a] = 10.0;
    ck_assert_int_eq(nb_md_prec_forces_fragment(gl, &sys, p.x, NB_PRECISION_B, 0, f, pe,
                                                seconds, NULL, NULL, &err),
                     NB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.message, "cells-list off") != NULL, "%s", err.message);
    nb_particles_free(&p);
}
END_TEST

/* ---- the command line ---------------------------------------------------- */

static void run_cli(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, NULL, NULL, args);
}

/* The output of `forces` without its header line. */
static const char *rows_of(const char *out)
{
    const char *nl = strchr(out, '\n');
    ck_assert_ptr_nonnull(nl);
    return nl + 1;
}

START_TEST(cli_forces_fragment_precision)
{
    char in[1200], out_c[1200], out_f[1200];
    struct nb_particles p = { 0 };
    struct cli_run r, c;
    ga_random_system(&p, 300, seed + 5, 0);
    size_t size = 160 * p.n + 1, len = 0;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < p.n; i++)
        len += (size_t)snprintf(text + len, size - len, "%zu %.17g %.17g %.17g %.17g 0 0 0\n",
                                i, p.m[i], p.x[3 * i], p.x[3 * i + 1], p.x[3 * i + 2]);
    snprintf(in, sizeof in, "%s/in.txt", g_root);
    write_file(in, text);
    free(text);
    snprintf(out_c, sizeof out_c, "%s/compute.txt", g_root);
    snprintf(out_f, sizeof out_f, "%s/fragment.txt", g_root);
    run_cli(&c, (const char *const[]){ "forces", "--input", in, "--softening", "0.01",
                                       "--backend", "compute", "--precision", "H",
                                       "--output", out_c, NULL });
    ck_assert_msg(c.status == 0, "%s", c.err);
    run_cli(&r, (const char *const[]){ "forces", "--input", in, "--softening", "0.01",
                                       "--backend", "fragment", "--precision", "H",
                                       "--variant", "prec1x1-p3", "--output", out_f, NULL });
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *tc = read_file(out_c), *tf = read_file(out_f);
    ck_assert(tc && tf);
    ck_assert_msg(strstr(tf, "backend=fragment variant=prec1x1-p3 precision=H") != NULL,
                  "%.200s", tf);
    ck_assert_msg(strcmp(rows_of(tc), rows_of(tf)) == 0, "fragment H rows differ from "
                  "compute's (seed %llu)", (unsigned long long)seed);
    free(tc);
    free(tf);
    cli_run_free(&c);
    cli_run_free(&r);
    nb_particles_free(&p);
}
END_TEST

START_TEST(cli_precision_report_fragment)
{
    struct cli_run r;
    run_cli(&r, (const char *const[]){ "precision", "--backend", "fragment", "--n", "300",
                                       "--modes", "AFGH", "--runs", "1", "--warmup", "0",
                                       NULL });
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "backend fragment") != NULL, "%s", r.out);
    for (const char *m = "AFGH"; *m; m++) {
        char row[4] = { '\n', *m, ' ', 0 };
        ck_assert_msg(strstr(r.out, row) != NULL, "no row for %c:\n%s", *m, r.out);
    }
    cli_run_free(&r);
    run_cli(&r, (const char *const[]){ "precision", "--backend", "fragment", "--ic", "ionic",
                                       "--n", "324", "--modes", "AGH", "--runs", "1",
                                       "--warmup", "0", NULL });
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "backend fragment") != NULL &&
                  strstr(r.out, "\nH ") != NULL && strstr(r.out, "needs exp or pow") != NULL,
                  "%s", r.out);
    cli_run_free(&r);
    run_cli(&r, (const char *const[]){ "precision", "--backend", "cpu", NULL });
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "compute or fragment") != NULL && r.out[0] == '\0', "%s",
                  r.err);
    cli_run_free(&r);
}
END_TEST

static Suite *fragment_precision_suite(void)
{
    Suite *s = suite_create("fragment_precision");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, ga_modes_match_cpu_and_compute, 0, 6);
    tcase_add_test(tc, passes_bit_identical);
    tcase_add_test(tc, md_lj16_matches_compute);
    tcase_add_test(tc, md_ljc_linear_matches_compute);
    tcase_add_test(tc, ga_refusals);
    tcase_add_test(tc, md_refusals);
    tcase_add_test(tc, cli_forces_fragment_precision);
    tcase_add_test(tc, cli_precision_report_fragment);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (cli_harness_start("check_fragment_precision") != 0)
        return 1;
    int failed = run_gl_suite("check_fragment_precision", fragment_precision_suite(), &gl,
                              &seed);
    remove_tree(g_root);
    return failed;
}
