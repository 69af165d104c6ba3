/* check_md_fragment.c - the fragment pipeline's MD force engine
 * (src/md_fragment.c, glsl/md.frag) against the CPU reference
 * nb_md_cpu_forces, on fresh random multi-type systems (Mesa llvmpipe in
 * CI, any GL 4.3 GPU elsewhere).
 *
 * Bounds, per particle i and with the sums over the pairs (i, j) that the
 * law counts (j != i, inside the cutoff, minimum image):
 *   |F_i,d - ref| <= 1e-5 sum_j |fr_ij| r_ij      (each component)
 *   |pe_i - ref|  <= 1e-5 sum_j |u_ij| / 2
 *   |vir_i - ref| <= 1e-5 sum_j |fr_ij| r_ij^2 / 2
 * where |fr| and |u| are the sums of the magnitudes of the law's terms
 * (r^-12 and r^-6, Coulomb, repulsion, shifts): they bound float rounding
 * even where the terms cancel, as LJ does near its minimum (the lattice
 * spacing) or a shifted energy near the cutoff.  A particle without pairs
 * must come back as exact zeros.
 *
 * Positions are multiples of 2^-16 below 2^8 and the box bounds multiples
 * of 2^-16, so the engine's float positions (relative to the box centre)
 * and separations are exact and the bounds measure the kernel's
 * arithmetic; no pair lies within 1e-6 (relative) of the cutoff, where
 * float and double may disagree about inside and out (r^2 is good to
 * 3e-7 in float).  Seen on llvmpipe: errors below 0.1 of the bounds.
 * Particles sit on a jittered lattice (spacing 1.125, jitter +-15%), so
 * no pair comes closer than 0.79 and LJ stays far from its singularity.
 *
 * NB_TEST_SEED=S replays a failing run.  Runs without fork (CK_NOFORK):
 * one GL context serves every test. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epoxy/gl.h>

#include "nb_config.h"
#include "nb_gl.h"
#include "gl_suite.h"

#define TOLERANCE 1e-5
#define SPACING 1.125
#define JITTER 0.15
#define QUANTUM (1.0 / 65536.0)
#define CUTOFF_GUARD 1e-6
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_gl *gl;
static uint64_t seed;

static const enum nb_md_law laws[] = { NB_LAW_LJ, NB_LAW_LJC_CONSTANT, NB_LAW_LJC_LINEAR,
                                       NB_LAW_LJC_SIGMOIDAL, NB_LAW_IONIC };
/* 1, 2, 3 and primes: never a multiple of 4 or of the stream width. */
static const size_t sizes[] = { 1, 2, 3, 5, 13, 31, 97, 257, 1031, 2053 };

/* Boxes: periodic with a cutoff, open without one, open with one, and
 * periodic in x and y only. */
enum box_kind { BOX_PERIODIC, BOX_OPEN, BOX_OPEN_CUT, BOX_MIXED, BOX_KINDS };
static const char *const box_names[] = { "periodic", "open", "open+cutoff", "xy-periodic" };

struct system {
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_system sys;
    size_t n;
    int *type;
    double *m, *q, *x;
};

struct reference {
    double *f, *pe, *vir;           /* nb_md_cpu_forces */
    double *f_abs, *pe_abs, *vir_abs;   /* the pair magnitude sums */
};

static double uniform(struct nb_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * nb_rng_uniform(rng);
}

static double quantize(double v)
{
    return nearbyint(v / QUANTUM) * QUANTUM;
}

/* 1..4 types with random LJ (mixed), charges, ionic pairs, dielectric and
 * sigmoid. */
static void make_potential(struct nb_md_potential *pot, enum nb_md_law law,
                           struct nb_rng *rng)
{
    int types = 1 + (int)(4.0 * nb_rng_uniform(rng));
    nb_md_potential_default(pot, law, types);
    for (int a = 0; a < types; a++) {
        pot->types.mass[a] = uniform(rng, 1.0, 3.0);
        pot->types.charge[a] = uniform(rng, -1.5, 1.5);
        pot->types.eps[a][a] = uniform(rng, 0.5, 1.5);
        pot->types.sigma[a][a] = uniform(rng, 0.85, 1.15);
    }
    nb_md_potential_mix(pot, NB_MIX_ARITHMETIC);
    for (int a = 0; a < types; a++)
        for (int b = a; b < types; b++) {
            double c[3] = { uniform(rng, -2.0, 2.0), uniform(rng, 0.4, 0.7),
                            uniform(rng, 6.0, 12.0) };
            memcpy(pot->types.ionic[a][b], c, sizeof c);
            memcpy(pot->types.ionic[b][a], c, sizeof c);
        }
    pot->dielectric = uniform(rng, 1.0, 3.0);
    const double sig[4] = { 0.004, 0.02, uniform(rng, 0.3, 0.7), -0.2 };
    memcpy(pot->sigmoid, sig, sizeof sig);
}

static void min_image(const struct nb_md_box *box, double *d)
{
    for (int k = 0; k < 3; k++)
        if (box->periodic[k]) {
            double len = box->hi[k] - box->lo[k];
            d[k] -= len * nearbyint(d[k] / len);
        }
}

static double pair_distance2(const struct system *s, size_t i, size_t j)
{
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = s->x[3 * i + k] - s->x[3 * j + k];
    min_image(&s->box, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* Places particle i at its lattice site with a fresh jitter. */
static void jitter(struct system *s, size_t i, size_t site, int side, struct nb_rng *rng)
{
    size_t at[3] = { site % (size_t)side, site / (size_t)side % (size_t)side,
                     site / ((size_t)side * (size_t)side) };
    for (int k = 0; k < 3; k++)
        s->x[3 * i + k] = quantize(s->box.lo[k] + SPACING * ((double)at[k] + 0.5 +
                                   uniform(rng, -JITTER, JITTER)));
}

/* Jitters again the second particle of every pair within CUTOFF_GUARD of
 * the cutoff, until none is; the number of sweeps that found one. */
static int clear_cutoff(struct system *s, const size_t *site, int side, struct nb_rng *rng)
{
    double rc = s->pot.cutoff;
    int sweeps = 0, moved = rc > 0.0;
    while (moved && sweeps < 50) {
        moved = 0;
        for (size_t i = 0; i < s->n; i++)
            for (size_t j = i + 1; j < s->n; j++)
                if (fabs(sqrt(pair_distance2(s, i, j)) - rc) < CUTOFF_GUARD * rc) {
                    jitter(s, j, site[j], side, rng);
                    moved = 1;
                }
        sweeps += moved;
    }
    return moved;
}

/* n particles on distinct random sites of a jittered cubic lattice of
 * side^3 sites in the box, none within CUTOFF_GUARD of the cutoff. */
static void make_positions(struct system *s, int side, struct nb_rng *rng)
{
    size_t sites = (size_t)side * side * side;
    size_t *order = malloc(sites * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (size_t k = 0; k < sites; k++)
        order[k] = k;
    for (size_t k = sites - 1; k > 0; k--) {
        size_t r = (size_t)(nb_rng_uniform(rng) * (double)(k + 1)), t = order[k];
        order[k] = order[r], order[r] = t;
    }
    for (size_t i = 0; i < s->n; i++)
        jitter(s, i, order[i], side, rng);
    ck_assert_msg(!clear_cutoff(s, order, side, rng), "pairs stay at the cutoff "
                  "(seed %llu)", (unsigned long long)seed);
    free(order);
}

static void make_system(struct system *s, enum nb_md_law law, enum box_kind kind,
                        size_t n, int own_charges, uint64_t sd)
{
    struct nb_rng rng;
    nb_rng_seed(&rng, sd);
    memset(s, 0, sizeof *s);
    s->n = n;
    make_potential(&s->pot, law, &rng);
    int side = 1;
    while ((size_t)side * side * side < n)
        side++;
    for (int k = 0; k < 3; k++) {
        s->box.lo[k] = floor(uniform(&rng, -4.0, 4.0));
        s->box.hi[k] = s->box.lo[k] + SPACING * side;
        s->box.periodic[k] = kind == BOX_PERIODIC || (kind == BOX_MIXED && k < 2);
    }
    if (kind != BOX_OPEN) {
        s->pot.cutoff = fmin(2.5, 0.45 * SPACING * side);
        s->pot.shift = nb_rng_uniform(&rng) < 0.5;
    }
    s->type = malloc((n ? n : 1) * sizeof *s->type);
    s->m = malloc((n ? n : 1) * sizeof *s->m);
    s->q = malloc((n ? n : 1) * sizeof *s->q);
    s->x = malloc((3 * n + 1) * sizeof *s->x);
    ck_assert(s->type && s->m && s->q && s->x);
    for (size_t i = 0; i < n; i++) {
        s->type[i] = 1 + (int)(nb_rng_uniform(&rng) * s->pot.types.count);
        s->m[i] = s->pot.types.mass[s->type[i] - 1];
        s->q[i] = uniform(&rng, -1.0, 1.0);
    }
    make_positions(s, side, &rng);
    s->sys = (struct nb_md_system){ .n = n, .type = s->type, .m = s->m,
                                    .q = own_charges ? s->q : NULL, .pot = &s->pot,
                                    .box = &s->box };
}

static void system_free(struct system *s)
{
    free(s->type);
    free(s->m);
    free(s->q);
    free(s->x);
}

static double charge_of(const struct system *s, size_t i)
{
    return s->sys.q ? s->sys.q[i] : s->pot.types.charge[s->type[i] - 1];
}

/* The magnitudes of the terms that make up fr (*fr_abs) and u (*u_abs) of
 * one pair: float rounding is a few ulps of each term, also where the
 * terms cancel (LJ near its minimum, Coulomb against LJ, a shift near the
 * cutoff), so these and not |fr| or |u| bound a correct kernel's error. */
static void pair_magnitudes(const struct system *s, const struct nb_md_pair_coeff *c,
                            double cshift, double qq, double r2, double *fr_abs,
                            double *u_abs)
{
    const struct nb_md_potential *pot = &s->pot;
    double r = sqrt(r2), fr = 0.0, u = fabs(c->u_shift), uc = 0.0;
    if (pot->law == NB_LAW_IONIC) {
        double coulomb = fabs(c->cx) / r, repulsion = c->a * pow(r, -c->cz);
        fr += coulomb / r2 + repulsion;
        u += coulomb + repulsion * r2 / (c->cz - 2.0);
    } else {
        double w12 = fabs(c->c12) / (r2 * r2 * r2 * r2 * r2 * r2);
        double w6 = fabs(c->c6) / (r2 * r2 * r2);
        fr += (12.0 * w12 + 6.0 * w6) / r2;
        u += w12 + w6;
    }
    switch (pot->law) {
    case NB_LAW_LJC_CONSTANT:
        uc = fabs(qq) / (pot->dielectric * r);
        fr += uc / r2;
        break;
    case NB_LAW_LJC_LINEAR:
        uc = fabs(qq) / (pot->dielectric * r2);
        fr += 2.0 * uc / r2;
        break;
    case NB_LAW_LJC_SIGMOIDAL: {
        const double *g = pot->sigmoid;
        double p = ((g[0] * r + g[1]) * r + g[2]) * r + g[3];
        double dp = (3.0 * g[0] * r + 2.0 * g[1]) * r + g[2];
        uc = fabs(qq) * exp(-p) / r;
        fr += uc * (1.0 / r + fabs(dp)) / r;
        break;
    }
    default:
        break;
    }
    *fr_abs = fr;
    *u_abs = u + uc + fabs(qq * cshift);
}

/* The reference and, per particle, the sums of the pair term magnitudes
 * that bound its rounding: sum |fr| r, sum |u| / 2, sum |fr| r^2 / 2. */
static void reference_make(struct reference *r, const struct system *s)
{
    struct nb_error err = { 0 };
    struct nb_md_pair_coeff c[NB_MD_MAX_TYPES * NB_MD_MAX_TYPES];
    double cshift = 0.0, rc2 = s->pot.cutoff * s->pot.cutoff;
    size_t n = s->n ? s->n : 1;
    int types = s->pot.types.count;
    r->f = calloc(3 * n, sizeof(double));
    r->f_abs = calloc(n, sizeof(double));
    r->pe = calloc(n, sizeof(double));
    r->pe_abs = calloc(n, sizeof(double));
    r->vir = calloc(n, sizeof(double));
    r->vir_abs = calloc(n, sizeof(double));
    ck_assert(r->f && r->f_abs && r->pe && r->pe_abs && r->vir && r->vir_abs);
    ck_assert_msg(nb_md_cpu_forces(&s->sys, s->x, r->f, r->pe, r->vir, &err) == NB_OK,
                  "%s", err.message);
    nb_md_pair_coeffs(&s->pot, c, &cshift);
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = 0; j < s->n; j++) {
            double r2 = pair_distance2(s, i, j), fr, u;
            if (j == i || (s->pot.cutoff > 0.0 && r2 >= rc2))
                continue;
            pair_magnitudes(s, &c[(s->type[i] - 1) * types + s->type[j] - 1], cshift,
                            charge_of(s, i) * charge_of(s, j), r2, &fr, &u);
            r->f_abs[i] += fr * sqrt(r2);
            r->pe_abs[i] += 0.5 * u;
            r->vir_abs[i] += 0.5 * fr * r2;
        }
}

static void reference_free(struct reference *r)
{
    free(r->f);
    free(r->f_abs);
    free(r->pe);
    free(r->pe_abs);
    free(r->vir);
    free(r->vir_abs);
}

/* Runs the engine on s; f, pe and vir are poisoned first, so every
 * particle must be written. */
static void run_engine(struct nb_md_engine *e, const struct system *s, double *f,
                       double *pe, double *vir)
{
    struct nb_error err = { 0 };
    for (size_t i = 0; i < 3 * s->n; i++)
        f[i] = NAN;
    for (size_t i = 0; i < s->n; i++)
        pe[i] = vir[i] = NAN;
    ck_assert_msg(e->setup(e->state, &s->sys, &err) == NB_OK, "setup: %s", err.message);
    ck_assert_msg(e->forces(e->state, s->x, f, pe, vir, &err) == NB_OK, "forces: %s",
                  err.message);
}

/* The worst ratio of error to bound; a bound of 0 demands an exact 0. */
static double ratio(double got, double want, double bound)
{
    double e = fabs(got - want);
    if (!isfinite(got))
        return INFINITY;
    return bound > 0.0 ? e / (TOLERANCE * bound) : e > 0.0 ? INFINITY : 0.0;
}

static void check_against(const char *what, const struct system *s,
                          const struct reference *r, const double *f, const double *pe,
                          const double *vir, double tolerance_factor)
{
    for (size_t i = 0; i < s->n; i++) {
        double rf = 0.0;
        for (int d = 0; d < 3; d++)
            rf = fmax(rf, ratio(f[3 * i + d], r->f[3 * i + d], r->f_abs[i]));
        double rp = ratio(pe[i], r->pe[i], r->pe_abs[i]);
        double rv = ratio(vir[i], r->vir[i], r->vir_abs[i]);
        ck_assert_msg(rf <= tolerance_factor && rp <= tolerance_factor &&
                      rv <= tolerance_factor,
                      "%s: particle %zu (type %d) off by %.3g (F) %.3g (pe) %.3g (vir) "
                      "of the bound: F (%.9g %.9g %.9g) vs (%.9g %.9g %.9g), pe %.9g vs "
                      "%.9g, vir %.9g vs %.9g (seed %llu)", what, i, s->type[i], rf, rp,
                      rv, f[3 * i], f[3 * i + 1], f[3 * i + 2], r->f[3 * i],
                      r->f[3 * i + 1], r->f[3 * i + 2], pe[i], r->pe[i], vir[i],
                      r->vir[i], (unsigned long long)seed);
    }
}

static void make_engine(struct nb_md_engine *e)
{
    struct nb_error err = { 0 };
    ck_assert_msg(nb_md_engine_fragment_create(e, gl, &err) == NB_OK, "%s", err.message);
    ck_assert_str_eq(e->name, "fragment");
    ck_assert(e->load == NULL && e->steps == NULL && e->fetch == NULL);
    ck_assert_ptr_nonnull(strstr(e->renderer(e->state), nb_gl_renderer(gl)));
}

/* One law: every box kind and size on one engine (set up again each
 * time), per-particle charges and type-table charges in turn. */
static void check_law(enum nb_md_law law)
{
    struct nb_md_engine e;
    unsetenv("GLNBODY_MD_PASSES");
    make_engine(&e);
    for (int kind = 0; kind < BOX_KINDS; kind++)
        for (size_t k = 0; k < COUNT(sizes); k++) {
            struct system s;
            struct reference r;
            char what[160];
            size_t n = sizes[k];
            make_system(&s, law, (enum box_kind)kind, n, (int)(k + kind) % 2,
                        seed + 1000u * (unsigned)law + 100u * (unsigned)kind + k);
            reference_make(&r, &s);
            double *f = malloc((3 * n + 1) * sizeof *f), *pe = malloc((n + 1) * sizeof *pe),
                   *vir = malloc((n + 1) * sizeof *vir);
            ck_assert(f && pe && vir);
            snprintf(what, sizeof what, "%s %s N=%zu types=%d rc=%g shift=%d charges=%s",
                     nb_md_law_name(law), box_names[kind], n, s.pot.types.count,
                     s.pot.cutoff, s.pot.shift, s.sys.q ? "own" : "table");
            run_engine(&e, &s, f, pe, vir);
            check_against(what, &s, &r, f, pe, vir, 1.0);
            free(f);
            free(pe);
            free(vir);
            reference_free(&r);
            system_free(&s);
        }
    struct nb_md_timings t;
    e.timings(e.state, &t);
    ck_assert_int_eq(t.evaluations, 1);     /* since the last setup */
    ck_assert(t.force > 0.0 && t.k1 == 0.0 && t.k2 == 0.0 && t.cells == 0.0);
    e.destroy(e.state);
}

START_TEST(law_matches_cpu)
{
    check_law(laws[_i]);
}
END_TEST

/* Passes change only the summation order: every pass count agrees with
 * the reference and with the single pass; counts above n are clamped. */
START_TEST(passes_agree)
{
    static const char *const counts[] = { "1", "2", "3", "7", "64", "5000" };
    static const size_t ns[] = { 3, 1031 };
    struct nb_md_engine e;
    make_engine(&e);
    for (size_t k = 0; k < COUNT(ns); k++) {
        struct system s;
        struct reference r;
        size_t n = ns[k];
        make_system(&s, NB_LAW_LJC_SIGMOIDAL, BOX_MIXED, n, 1, seed + 77 + k);
        reference_make(&r, &s);
        double *f0 = malloc(3 * n * sizeof *f0), *pe0 = malloc(n * sizeof *pe0),
               *vir0 = malloc(n * sizeof *vir0), *f = malloc(3 * n * sizeof *f),
               *pe = malloc(n * sizeof *pe), *vir = malloc(n * sizeof *vir);
        ck_assert(f0 && pe0 && vir0 && f && pe && vir);
        for (size_t c = 0; c < COUNT(counts); c++) {
            char what[96];
            setenv("GLNBODY_MD_PASSES", counts[c], 1);
            run_engine(&e, &s, c ? f : f0, c ? pe : pe0, c ? vir : vir0);
            snprintf(what, sizeof what, "N=%zu passes=%s", n, counts[c]);
            check_against(what, &s, &r, c ? f : f0, c ? pe : pe0, c ? vir : vir0, 1.0);
            if (c == 0)
                continue;
            /* Against the single pass: within twice the bound. */
            struct reference one = r;
            one.f = f0, one.pe = pe0, one.vir = vir0;
            snprintf(what, sizeof what, "N=%zu passes=%s vs 1 pass", n, counts[c]);
            check_against(what, &s, &one, f, pe, vir, 2.0);
        }
        free(f0); free(pe0); free(vir0); free(f); free(pe); free(vir);
        reference_free(&r);
        system_free(&s);
    }
    unsetenv("GLNBODY_MD_PASSES");
    e.destroy(e.state);
}
END_TEST

/* Cell lists are refused with NB_ERR_UNSUPPORTED and the advice; forces
 * after a failed setup are refused, not run on stale state; a bad type
 * and a bad pass count are NB_ERR_ARGS; the engine works afterwards. */
START_TEST(refusals)
{
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    struct system s;
    double f[3 * 257], pe[257], vir[257];
    make_engine(&e);
    make_system(&s, NB_LAW_LJ, BOX_PERIODIC, 257, 0, seed + 5);
    run_engine(&e, &s, f, pe, vir);             /* a good setup first */

    s.sys.cell_list = 1;
    ck_assert_int_eq(e.setup(e.state, &s.sys, &err), NB_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.message, "no cell lists"));
    ck_assert_ptr_nonnull(strstr(err.message, "--backend compute"));
    ck_assert_int_eq(e.forces(e.state, s.x, f, pe, vir, &err), NB_ERR_ARGS);
    s.sys.cell_list = 0;

    s.type[100] = s.pot.types.count + 1;
    ck_assert_int_eq(e.setup(e.state, &s.sys, &err), NB_ERR_ARGS);
    ck_assert_int_eq(e.forces(e.state, s.x, f, pe, vir, &err), NB_ERR_ARGS);
    s.type[100] = 1;

    setenv("GLNBODY_MD_PASSES", "0", 1);
    ck_assert_int_eq(e.setup(e.state, &s.sys, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "GLNBODY_MD_PASSES"));
    unsetenv("GLNBODY_MD_PASSES");

    struct reference r;
    reference_make(&r, &s);
    run_engine(&e, &s, f, pe, vir);
    check_against("after refusals", &s, &r, f, pe, vir, 1.0);
    reference_free(&r);
    system_free(&s);
    e.destroy(e.state);
}
END_TEST

/* A stream longer than GL_MAX_TEXTURE_SIZE rows: NB_ERR_LIMIT before the
 * arrays are read (calloc'd, never touched). */
START_TEST(texture_limit_refused)
{
    struct nb_md_engine e;
    struct nb_error err = { 0 };
    struct system s;
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    make_system(&s, NB_LAW_LJ, BOX_OPEN, 2, 0, seed + 9);
    size_t n = (size_t)max * NB_STREAM_WIDTH + 1;
    int *type = calloc(n, sizeof *type);
    double *m = calloc(n, sizeof *m);
    ck_assert(type && m);
    s.sys.n = n, s.sys.type = type, s.sys.m = m;
    make_engine(&e);
    ck_assert_int_eq(e.setup(e.state, &s.sys, &err), NB_ERR_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.message, "GL_MAX_TEXTURE_SIZE"));
    free(type);
    free(m);
    system_free(&s);
    e.destroy(e.state);
}
END_TEST

/* The timings count evaluations and force seconds; the rate is printed
 * (n (n - 1) pair interactions per second of force passes). */
START_TEST(timings_and_rate)
{
    const size_t n = 4099;
    struct nb_md_engine e;
    struct nb_md_timings t;
    struct system s;
    double *f = malloc(3 * n * sizeof *f), *pe = malloc(n * sizeof *pe),
           *vir = malloc(n * sizeof *vir);
    struct nb_error err = { 0 };
    ck_assert(f && pe && vir);
    make_engine(&e);
    make_system(&s, NB_LAW_LJ, BOX_PERIODIC, n, 0, seed + 11);
    run_engine(&e, &s, f, pe, vir);             /* setup and one evaluation */
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(e.forces(e.state, s.x, f, pe, vir, &err), NB_OK);
    e.timings(e.state, &t);
    ck_assert_int_eq(t.evaluations, 3);
    ck_assert(t.force > 0.0);
    printf("check_md_fragment: lj, N=%zu, rc=%g: %.3g interactions/s on %s\n", n,
           s.pot.cutoff, 3.0 * (double)n * (double)(n - 1) / t.force, e.renderer(e.state));
    ck_assert_int_eq(e.setup(e.state, &s.sys, &err), NB_OK);
    e.timings(e.state, &t);
    ck_assert_int_eq(t.evaluations, 0);         /* summed since setup */
    free(f);
    free(pe);
    free(vir);
    system_free(&s);
    e.destroy(e.state);
}
END_TEST

static Suite *md_fragment_suite(void)
{
    Suite *s = suite_create("md_fragment");
    TCase *tc = tcase_create("md_fragment");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, law_matches_cpu, 0, COUNT(laws));
    tcase_add_test(tc, passes_agree);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, texture_limit_refused);
    tcase_add_test(tc, timings_and_rate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_gl_suite("check_md_fragment", md_fragment_suite(), &gl, &seed);
}
