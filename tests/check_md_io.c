/* check_md_io.c - tests of the MD initial conditions (fcc, seed 002's grid,
 * seed 003's fluorite crystal and its default coefficients) and of the MD
 * files: LAMMPS dumps, extended XYZ, snapshots with types and charges.
 *
 * No GL.  main() prints the run's random seed; NB_TEST_SEED=S replays it.
 */
#include "nb_host.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t g_seed;         /* this run's seed, set by main */

/* ---- helpers ------------------------------------------------------------ */

/* A temporary directory and a file name in it; remove with cleanup(). */
struct tmp {
    char dir[1024];
    char path[1100];
};

static void tmp_make(struct tmp *t, const char *name)
{
    const char *base = getenv("TMPDIR");

    snprintf(t->dir, sizeof t->dir, "%s/check_md_io.XXXXXX",
             base && *base ? base : "/tmp");
    ck_assert_msg(mkdtemp(t->dir) != NULL, "mkdtemp failed");
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
}

static void tmp_remove(struct tmp *t)
{
    unlink(t->path);
    rmdir(t->dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");

    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(text, 1, strlen(text), fp), strlen(text));
    ck_assert_int_eq(fclose(fp), 0);
}

/* The whole file, NUL-terminated; free() it. */
static char *read_text(const char *path)
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

static size_t count_lines(const char *text)
{
    size_t n = 0;

    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static void assert_empty(const struct nb_particles *p)
{
    ck_assert_uint_eq(p->n, 0);
    ck_assert_ptr_null(p->id);
    ck_assert_ptr_null(p->type);
    ck_assert_ptr_null(p->q);
    ck_assert_ptr_null(p->m);
    ck_assert_ptr_null(p->x);
    ck_assert_ptr_null(p->v);
}

static double kinetic(const struct nb_particles *p)
{
    double k = 0.0;

    for (size_t i = 0; i < 3 * p->n; i++)
        k += 0.5 * p->m[i / 3] * p->v[i] * p->v[i];
    return k;
}

/* |sum m v| and the scale sum |m v| it is compared with. */
static void momentum(const struct nb_particles *p, double *abs_sum,
                     double *scale)
{
    double mom[3] = {0.0, 0.0, 0.0};

    *scale = 0.0;
    for (size_t i = 0; i < 3 * p->n; i++) {
        mom[i % 3] += p->m[i / 3] * p->v[i];
        *scale += fabs(p->m[i / 3] * p->v[i]);
    }
    *abs_sum = sqrt(mom[0] * mom[0] + mom[1] * mom[1] + mom[2] * mom[2]);
}

/* Smallest minimum-image distance between two particles. */
static double min_distance(const struct nb_particles *p,
                           const struct nb_md_box *box)
{
    double best = INFINITY;

    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++) {
            double r2 = 0.0;

            for (int k = 0; k < 3; k++) {
                double d = p->x[3 * i + k] - p->x[3 * j + k];
                double len = box->hi[k] - box->lo[k];

                if (box->periodic[k])
                    d -= len * round(d / len);
                r2 += d * d;
            }
            best = fmin(best, sqrt(r2));
        }
    return best;
}

/* Total potential energy under pot in box: nb_md_cpu_forces, all pairs. */
static double potential_energy(const struct nb_particles *p,
                               const struct nb_md_potential *pot,
                               const struct nb_md_box *box)
{
    struct nb_md_system sys = { .n = p->n, .type = p->type, .m = p->m, .q = p->q,
                                .pot = pot, .box = box };
    double *f = malloc(3 * p->n * sizeof *f), *pe = malloc(p->n * sizeof *pe);
    double *vir = malloc(p->n * sizeof *vir), u = 0.0;
    struct nb_error err = {NB_OK, ""};

    ck_assert(f && pe && vir);
    ck_assert_msg(nb_md_cpu_forces(&sys, p->x, f, pe, vir, &err) == NB_OK, "%s",
                  err.message);
    for (size_t i = 0; i < p->n; i++)
        u += pe[i];
    free(f), free(pe), free(vir);
    return u;
}

/* The message starts with "path:line: " (line 0: "path: ") and holds
 * reason. */
static void assert_message(const struct nb_error *err, const char *path,
                           int line, const char *reason)
{
    char where[1200];

    if (line > 0)
        snprintf(where, sizeof where, "%s:%d: ", path, line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    ck_assert_msg(strncmp(err->message, where, strlen(where)) == 0,
                  "message '%s' does not start with '%s'", err->message, where);
    ck_assert_msg(strstr(err->message, reason) != NULL,
                  "message '%s' lacks '%s'", err->message, reason);
}

/* ---- fcc ----------------------------------------------------------------- */

/* Count, density, box, zero momentum, exact temperature, nearest
 * neighbours at b / sqrt(2); the same seed gives the same lattice. */
START_TEST(test_fcc)
{
    const int cells = 1 + _i * 2;               /* 1 and 3: n = 4 and 108 */
    const double rho = 0.8442, temp = 0.728;
    const uint64_t seed = g_seed ^ 0xfcc;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double b = cbrt(4.0 / rho), len, mom, scale, t;
    size_t n = 4 * (size_t)cells * cells * cells;

    ck_assert_int_eq(nb_md_fcc(&p, &box, cells, rho, temp, seed, &err), NB_OK);
    ck_assert_uint_eq(p.n, n);
    ck_assert_ptr_nonnull(p.type);
    for (int k = 0; k < 3; k++) {
        ck_assert(box.lo[k] == 0.0 && box.periodic[k] == 1);
        ck_assert(fabs(box.hi[k] / (cells * b) - 1.0) < 1e-15);
    }
    len = box.hi[0];
    ck_assert_msg(fabs(n / (len * len * len) / rho - 1.0) < 1e-14,
                  "density %.17g", n / (len * len * len));
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(p.type[i], 1);
        ck_assert(p.m[i] == 1.0);
        ck_assert_int_eq(p.id[i], (int64_t)i + 1);
        for (int k = 0; k < 3; k++)
            ck_assert(p.x[3 * i + k] >= 0.0 && p.x[3 * i + k] < len);
    }
    momentum(&p, &mom, &scale);
    ck_assert_msg(mom < 1e-14 * scale, "seed %llu: |P| %g of %g",
                  (unsigned long long)seed, mom, scale);
    t = 2.0 * kinetic(&p) / (3.0 * n - 3.0);
    ck_assert_msg(fabs(t / temp - 1.0) < 1e-14, "seed %llu: T %.17g",
                  (unsigned long long)seed, t);
    ck_assert_msg(fabs(min_distance(&p, &box) / (b / sqrt(2.0)) - 1.0) < 1e-13,
                  "nearest neighbours at %.17g, not b/sqrt(2) = %.17g",
                  min_distance(&p, &box), b / sqrt(2.0));
    ck_assert_int_eq(nb_md_fcc(&q, &box, cells, rho, temp, seed, &err), NB_OK);
    ck_assert(memcmp(p.x, q.x, 3 * n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    ck_assert_int_eq(nb_md_fcc(&q, &box, cells, rho, temp, seed + 1, &err),
                     NB_OK);
    ck_assert(memcmp(p.v, q.v, 3 * n * sizeof *p.v) != 0);
    nb_particles_free(&q);
    nb_particles_free(&p);
}
END_TEST

/* T = 0 gives rest; bad arguments are refused, naming the value. */
START_TEST(test_fcc_zero_and_refused)
{
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, 1.0, 0.0, 1, &err), NB_OK);
    for (size_t i = 0; i < 3 * p.n; i++)
        ck_assert(p.v[i] == 0.0);
    nb_particles_free(&p);
    ck_assert_int_eq(nb_md_fcc(&p, &box, 0, 1.0, 1.0, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "cells must be 1.."));
    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, -1.0, 1.0, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "density"));
    ck_assert_int_eq(nb_md_fcc(&p, &box, 2, 1.0, NAN, 1, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "temperature"));
}
END_TEST

/* ---- seed 002's grid ------------------------------------------------------ */

static void lj_potential(struct nb_md_potential *pot, double cutoff)
{
    nb_md_potential_default(pot, NB_LAW_LJ, 1);
    pot->cutoff = cutoff;
    pot->shift = 1;
}

/* E = K + U equals the target to rounding, on the cell-list path (6^3,
 * L = 7.56, rc 2.5: 3 cells) and the all-pairs one (3^3, L = 3.78, rc
 * 1.8: 2 cells); U recomputed independently with all pairs. */
START_TEST(test_grid_energy)
{
    const int side = _i == 0 ? 6 : 3;
    const double rho = 0.5, target = _i == 0 ? -100.0 : 5.0;
    const uint64_t seed = g_seed ^ 0x9d;
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double h = cbrt(1.0 / rho), u, k, mom, scale;

    lj_potential(&pot, _i == 0 ? 2.5 : 1.8);
    ck_assert_msg(nb_md_grid(&p, &box, side, rho, &pot, target, seed, &err) ==
                  NB_OK, "%s", err.message);
    ck_assert_uint_eq(p.n, (size_t)side * side * side);
    for (int a = 0; a < 3; a++) {
        ck_assert(box.periodic[a] == 1);
        /* cbrt is not correctly rounded: the compiler's folded h may
         * differ from the library's in the last place. */
        ck_assert(box.lo[a] == -box.hi[a]);
        ck_assert(fabs(box.hi[a] / (0.5 * side * h) - 1.0) < 1e-15);
    }
    for (size_t i = 0; i < p.n; i++) {
        ck_assert_int_eq(p.type[i], 1);
        for (int a = 0; a < 3; a++)
            ck_assert(p.x[3 * i + a] > box.lo[a] && p.x[3 * i + a] < box.hi[a]);
    }
    ck_assert(fabs(min_distance(&p, &box) / h - 1.0) < 1e-13);
    u = potential_energy(&p, &pot, &box);
    k = kinetic(&p);
    ck_assert_msg(u < target, "U %g not below the target", u);
    ck_assert_msg(fabs(k + u - target) <= 1e-13 * (fabs(k) + fabs(u)),
                  "seed %llu: K %.17g + U %.17g = %.17g, target %g",
                  (unsigned long long)seed, k, u, k + u, target);
    momentum(&p, &mom, &scale);
    ck_assert_msg(mom < 1e-14 * scale, "|P| %g of %g", mom, scale);
    ck_assert_int_eq(nb_md_grid(&q, &box, side, rho, &pot, target, seed, &err),
                     NB_OK);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    nb_particles_free(&p);
}
END_TEST

/* A target below the potential energy, and a box the cutoff does not fit,
 * are refused and leave nothing allocated. */
START_TEST(test_grid_refused)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double u;

    lj_potential(&pot, 2.5);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.5, &pot, 0.0, 3, &err), NB_OK);
    u = potential_energy(&p, &pot, &box);
    nb_particles_free(&p);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.5, &pot, u - 1.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "below the potential energy"));
    assert_empty(&p);
    /* L = 3 * 0.5^(-1/3) = 3.78 < 2 rc */
    ck_assert_int_eq(nb_md_grid(&p, &box, 3, 0.5, &pot, 0.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "half the periodic box"));
    assert_empty(&p);
    ck_assert_int_eq(nb_md_grid(&p, &box, 6, 0.0, &pot, 0.0, 3, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "density"));
}
END_TEST

/* ---- seed 003's fluorite crystal ------------------------------------------ */

/* The default table: charges, masses, cx = q_i q_j, cy, cz = 12, and it
 * passes nb_md_potential_check. */
START_TEST(test_ionic_default)
{
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};
    const struct nb_md_types *t = &pot.types;

    nb_md_ionic_default(&pot);
    ck_assert_msg(nb_md_potential_check(&pot, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_int_eq(pot.law, NB_LAW_IONIC);
    ck_assert_int_eq(t->count, 2);
    ck_assert(t->charge[0] == 2.0 && t->charge[1] == -1.0);
    ck_assert(t->mass[0] == 238.0 / 16.0 && t->mass[1] == 1.0);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            ck_assert(t->ionic[i][j][0] == t->charge[i] * t->charge[j]);
            ck_assert(t->ionic[i][j][2] == 12.0);
            ck_assert(i + j == 0 ? t->ionic[i][j][1] == 0.0
                                 : t->ionic[i][j][1] > 0.5);
        }
    ck_assert(t->ionic[0][1][1] == t->ionic[1][1][1]);
    ck_assert(pot.cutoff == 0.0);
}
END_TEST

/* 12 per cell, types 2:1, ids 1..n, table masses and charges, neutral
 * and dipole-free, open box a beyond the extent, nearest pair sqrt(3)/4 a. */
START_TEST(test_ionic_crystal)
{
    const int cells = 3;
    const double a = 1.25;
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    size_t count[3] = {0, 0, 0};
    double qsum = 0.0, dipole[3] = {0.0, 0.0, 0.0};

    nb_md_ionic_default(&pot);
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, cells, a, &pot, &err), NB_OK);
    ck_assert_uint_eq(p.n, 12u * cells * cells * cells);
    ck_assert_ptr_nonnull(p.q);
    for (size_t i = 0; i < p.n; i++) {
        int t = p.type[i];

        ck_assert(t == 1 || t == 2);
        count[t]++;
        ck_assert_int_eq(p.id[i], (int64_t)i + 1);
        ck_assert(p.m[i] == pot.types.mass[t - 1]);
        ck_assert(p.q[i] == pot.types.charge[t - 1]);
        qsum += p.q[i];
        for (int k = 0; k < 3; k++) {
            dipole[k] += p.q[i] * p.x[3 * i + k];
            ck_assert(p.x[3 * i + k] >= box.lo[k] + a &&
                      p.x[3 * i + k] <= box.hi[k] - a);
            ck_assert(p.v[3 * i + k] == 0.0);
        }
    }
    ck_assert_uint_eq(count[2], 2 * count[1]);
    ck_assert(qsum == 0.0);
    for (int k = 0; k < 3; k++) {
        ck_assert_msg(fabs(dipole[k]) < 1e-12, "dipole %g", dipole[k]);
        ck_assert(box.periodic[k] == 0);
        ck_assert(box.lo[k] == -a && box.hi[k] == (cells + 1) * a);
    }
    ck_assert(fabs(min_distance(&p, &box) / (sqrt(3.0) / 4.0 * a) - 1.0) <
              1e-14);
    nb_particles_free(&p);
    pot.types.count = 1;
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, 1, 1.0, &pot, &err),
                     NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "needs types 1"));
    assert_empty(&p);
}
END_TEST

/* Forces and the virial sum of the atoms of one neutral cell near the
 * centre of a 6^3-cell crystal (2592 ions, open box) at lattice constant
 * a, by nb_md_cpu_forces over all pairs. */
static void central_cell(double a, double *f_max, double *virial)
{
    const int cells = 6, mid = 3;
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    double *f, *pe, *vir;
    struct nb_md_system sys;
    int inside = 0;

    nb_md_ionic_default(&pot);
    ck_assert_int_eq(nb_md_ionic_crystal(&p, &box, cells, a, &pot, &err), NB_OK);
    f = malloc(3 * p.n * sizeof *f);
    pe = malloc(p.n * sizeof *pe);
    vir = malloc(p.n * sizeof *vir);
    ck_assert(f && pe && vir);
    sys = (struct nb_md_system){ .n = p.n, .type = p.type, .m = p.m, .q = p.q,
                                 .pot = &pot, .box = &box };
    ck_assert_msg(nb_md_cpu_forces(&sys, p.x, f, pe, vir, &err) == NB_OK, "%s",
                  err.message);
    *f_max = 0.0;
    *virial = 0.0;
    for (size_t i = 0; i < p.n; i++) {
        const double *x = &p.x[3 * i], *fi = &f[3 * i];
        int in = 1;

        /* The cube [mid a, (mid + 1) a): 4 cations, 8 anions, neutral, so
         * a constant potential offset from the surfaces cancels in the
         * virial sum. */
        for (int k = 0; k < 3; k++)
            in &= x[k] >= (mid - 1e-9) * a && x[k] < (mid + 1 - 1e-9) * a;
        if (!in)
            continue;
        inside++;
        *f_max = fmax(*f_max, sqrt(fi[0] * fi[0] + fi[1] * fi[1] +
                                   fi[2] * fi[2]));
        *virial += vir[i];
    }
    ck_assert_int_eq(inside, 12);
    free(f), free(pe), free(vir);
    nb_particles_free(&p);
}

/* Lattice constant 1 is the equilibrium of the default coefficients: in
 * the bulk every force vanishes by symmetry at any a, but the virial (the
 * pressure) changes sign at a = 1.  Bulk virial per cell: -C/a + C/a^10,
 * C = 46.546, so +9.47 at 0.98 and -7.45 at 1.02; the 6^3 crystal gives
 * 9.34, -0.127 and -7.57 (surface effects).  The largest force in that
 * cell, 0.295, is ~3% of one nearest cation-anion Coulomb force 32/3; a
 * polarised crystal (the corner cation at the origin) would give ~29. */
START_TEST(test_ionic_equilibrium)
{
    const double f_pair = 2.0 / (3.0 / 16.0);
    double f_max, w1, w_lo, w_hi, unused;

    central_cell(1.0, &f_max, &w1);
    central_cell(0.98, &unused, &w_lo);
    central_cell(1.02, &unused, &w_hi);
    ck_assert_msg(f_max < 0.04 * f_pair, "max |F| %g in the central cell",
                  f_max);
    ck_assert_msg(w_lo > 5.0 && w_hi < -5.0, "virial %g at a = 0.98, %g at "
                  "1.02", w_lo, w_hi);
    ck_assert_msg(fabs(w1) < 0.03 * fmin(w_lo, -w_hi), "virial %g at a = 1 "
                  "(%g at 0.98, %g at 1.02)", w1, w_lo, w_hi);
}
END_TEST

/* ---- LAMMPS dumps ---------------------------------------------------------- */

/* A fluorite cell with random velocities, awkward values included. */
static void awkward_set(struct nb_particles *p, struct nb_md_box *box,
                        const struct nb_md_potential *pot, uint64_t seed)
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

/* Write -> read is bit-exact: ids, types, masses, positions, velocities,
 * bounds and flags; a second timestep after the first is not read. */
START_TEST(test_dump_round_trip)
{
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box, back;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    FILE *fp;
    double x0;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0xd0);
    tmp_make(&t, "dump.lammpstrj");
    fp = fopen(t.path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_lammps_dump_write(fp, 42, &p, &box, &err), NB_OK);
    x0 = p.x[0];
    p.x[0] = 99.0;      /* the second timestep differs */
    ck_assert_int_eq(nb_lammps_dump_write(fp, 43, &p, &box, &err), NB_OK);
    p.x[0] = x0;
    ck_assert_int_eq(fclose(fp), 0);
    ck_assert_msg(nb_lammps_dump_read(t.path, &q, &back, &pot, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_uint_eq(q.n, p.n);
    ck_assert_ptr_null(q.q);
    ck_assert(memcmp(p.id, q.id, p.n * sizeof *p.id) == 0);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.m, q.m, p.n * sizeof *p.m) == 0);
    ck_assert(memcmp(p.x, q.x, 3 * p.n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    ck_assert(memcmp(box.lo, back.lo, sizeof box.lo) == 0);
    ck_assert(memcmp(box.hi, back.hi, sizeof box.hi) == 0);
    ck_assert(back.periodic[0] == 1 && back.periodic[1] == 1 &&
              back.periodic[2] == 0);
    {
        char *text = read_text(t.path);

        ck_assert_ptr_nonnull(strstr(text, "ITEM: TIMESTEP\n42\n"));
        ck_assert_ptr_nonnull(strstr(text, "ITEM: BOX BOUNDS pp pp ff\n"));
        ck_assert_ptr_nonnull(strstr(text, "ITEM: ATOMS id type mass x y z "
                                           "vx vy vz\n"));
        ck_assert_uint_eq(count_lines(text), 2 * (9 + p.n));
        free(text);
    }
    tmp_remove(&t);
    nb_particles_free(&p);
    nb_particles_free(&q);
}
END_TEST

/* Columns in another order, extra columns ignored, masses from the type
 * table, no velocities (zero), UNITS and TIME items, scaled coordinates,
 * a q column, flags f s m as open. */
START_TEST(test_dump_columns)
{
    const char *text =
        "ITEM: UNITS\nlj\nITEM: TIME\n0.5\n"
        "ITEM: TIMESTEP\n100\nITEM: NUMBER OF ATOMS\n3\n"
        "ITEM: BOX BOUNDS fs pp fm\n-2 2\n0 10\r\n1e0 3e0\n"
        "ITEM: ATOMS c_pe x type q zs ix id y\n"
        "7.5 0.5 2 -1 0.25 0 30 1.5\n"
        "7.5 -1 1 2 1 3 10 9.75\n"
        "\t7.5 1e-3 2 -1.0 0 -1 20 0   \n";
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "cols.dump");
    write_text(t.path, text);
    ck_assert_msg(nb_lammps_dump_read(t.path, &p, &box, &pot, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_uint_eq(p.n, 3);
    ck_assert_ptr_nonnull(p.q);
    ck_assert_int_eq(p.id[0], 30);
    ck_assert_int_eq(p.id[1], 10);
    ck_assert_int_eq(p.id[2], 20);
    ck_assert(p.type[0] == 2 && p.type[1] == 1 && p.type[2] == 2);
    ck_assert(p.m[0] == 1.0 && p.m[1] == 238.0 / 16.0 && p.m[2] == 1.0);
    ck_assert(p.q[0] == -1.0 && p.q[1] == 2.0 && p.q[2] == -1.0);
    ck_assert(p.x[0] == 0.5 && p.x[1] == 1.5 && p.x[2] == 1.5);
    ck_assert(p.x[3] == -1.0 && p.x[4] == 9.75 && p.x[5] == 3.0);
    ck_assert(p.x[6] == 1e-3 && p.x[7] == 0.0 && p.x[8] == 1.0);
    for (size_t i = 0; i < 9; i++)
        ck_assert(p.v[i] == 0.0);
    ck_assert(box.periodic[0] == 0 && box.periodic[1] == 1 &&
              box.periodic[2] == 0);
    ck_assert(box.lo[0] == -2 && box.hi[1] == 10 && box.hi[2] == 3);
    nb_particles_free(&p);
    /* Old dumps have no flags (periodic); masses from a column, no table. */
    write_text(t.path, "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\n"
               "ITEM: BOX BOUNDS\n0 1\n0 1\n0 1\n"
               "ITEM: ATOMS id type mass vz vy vx x y z\n"
               "5 7 2.5 3 2 1 0.1 0.2 0.3\n");
    ck_assert_msg(nb_lammps_dump_read(t.path, &p, &box, NULL, &err) == NB_OK,
                  "%s", err.message);
    ck_assert(box.periodic[0] && box.periodic[1] && box.periodic[2]);
    ck_assert(p.type[0] == 7 && p.m[0] == 2.5);
    ck_assert(p.v[0] == 1 && p.v[1] == 2 && p.v[2] == 3);
    ck_assert(p.x[2] == 0.3);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

struct bad_dump {
    const char *content;
    int line;               /* 0: the message names no line */
    const char *reason;     /* a substring of the message */
};

#define HEAD "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n"
#define BOX "ITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\n"
#define ATOMS "ITEM: ATOMS id type x y z\n"

static const struct bad_dump bad_dumps[] = {
    {"", 0, "empty file"},
    {"ITEM: NUMBER OF ATOMS\n1\n" BOX ATOMS "1 1 0 0 0\n", 7,
     "ITEM: ATOMS before ITEM: TIMESTEP"},
    {"ITEM: TIMESTEP\n0\n" BOX ATOMS "1 1 0 0 0\n", 7,
     "ITEM: ATOMS before ITEM: NUMBER OF ATOMS"},
    {HEAD "1\n" ATOMS "1 1 0 0 0\n", 5, "ITEM: ATOMS before ITEM: BOX BOUNDS"},
    {HEAD "1\n" BOX, 8, "end of file before ITEM: ATOMS"},
    {HEAD "3\n" BOX ATOMS "1 1 0 0 0\n2 1 0 0 0\n", 11,
     "end of file after 2 of the 3 atoms"},
    {HEAD "2\n" BOX ATOMS "1 1 0 0 0\n" HEAD, 11,
     "'ITEM: TIMESTEP' after 1 of the 2 atoms"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0 0\n2 1 0 0 0\n", 11,
     "more atom lines than the 1 of ITEM: NUMBER OF ATOMS"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type y z\n1 1 0 0\n", 9,
     "has no x column (x, xu or xs)"},
    {HEAD "1\n" BOX "ITEM: ATOMS type x y z\n1 0 0 0\n", 9,
     "has no id column"},
    {HEAD "1\n" BOX ATOMS "1 1 0 abc 0\n", 10,
     "column 4 (y): not a number: 'abc'"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0 0.5x\n", 10,
     "column 5 (z): not a number: '0.5x'"},
    {HEAD "1\n" BOX ATOMS "1 1 nan 0 0\n", 10,
     "column 3 (x): non-finite value 'nan'"},
    {HEAD "1\n" BOX ATOMS "1.5 1 0 0 0\n", 10,
     "column 1 (id): not an integer: '1.5'"},
    {HEAD "1\n" BOX ATOMS "1 3 0 0 0\n", 10,
     "column 2 (type): '3' is outside 1..2"},
    {HEAD "1\n" BOX ATOMS "1 0 0 0 0\n", 10, "'0' is outside 1..2"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0\n", 10,
     "expected 5 values as named by ITEM: ATOMS on line 9, found 4"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type mass x y z\n1 1 0 0 0 0\n", 10,
     "the mass must be > 0"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type x y z vx vy\n1 1 0 0 0 0 0\n", 9,
     "2 of the velocity columns"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type x y x z\n1 1 0 0 0 0\n", 9,
     "the x column twice (columns 3 and 5)"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n", 6,
     "end of file after ITEM: BOX BOUNDS"},
    {HEAD "1\nITEM: BOX BOUNDS pp pf pp\n0 1\n0 1\n0 1\n" ATOMS, 5,
     "boundary 'pf' along y mixes periodic and open"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp qq\n0 1\n0 1\n0 1\n" ATOMS, 5,
     "boundary 'qq' along z is not two of p, f, s, m"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp\n0 1\n0 1\n" ATOMS, 5,
     "expected 3 boundary flags"},
    {HEAD "1\nITEM: BOX BOUNDS xy xz yz pp pp pp\n0 1 0\n0 1 0\n0 1 0\n", 5,
     "triclinic boxes"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n1 0\n0 1\n" ATOMS, 7,
     "lo 1 >= hi 0 along y"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1 2\n0 1\n" ATOMS, 7,
     "expected `lo hi` along y, found 3 values"},
    {HEAD "0\n" BOX ATOMS, 4, "ITEM: NUMBER OF ATOMS: '0' is outside 1.."},
    {HEAD "many\n" BOX ATOMS, 4, "not an integer: 'many'"},
    {"ITEM: TIMESTEP\nabc\n", 2, "ITEM: TIMESTEP: not an integer: 'abc'"},
    {"ITEM: TIMESTEP\n1 2\n", 2, "expected one integer, found 2 values"},
    {"ITEM: TIMESTEP\n0\nITEM: TIMESTEP\n0\n", 3,
     "a second ITEM: TIMESTEP before ITEM: ATOMS (the first is on line 1)"},
    {"ITEM: TIMESTEP\n0\nITEM: ENTRIES c_1\n", 3,
     "unknown item 'ITEM: ENTRIES c_1'"},
    {"# id type x y z\n1 1 0 0 0\n", 1, "expected an ITEM: line, found '#"},
};

/* Each malformed dump is refused with NB_ERR_PARSE, a message naming the
 * file, the line and the cause, and nothing allocated. */
START_TEST(test_dump_refused)
{
    const struct bad_dump *c = &bad_dumps[_i];
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "bad.dump");
    write_text(t.path, c->content);
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, &pot, &err),
                     NB_ERR_PARSE);
    ck_assert_int_eq(err.status, NB_ERR_PARSE);
    assert_message(&err, t.path, c->line, c->reason);
    assert_empty(&p);
    tmp_remove(&t);
}
END_TEST

/* Missing files, a directory, masses with nowhere to come from, and a
 * write to a stream that cannot take it. */
START_TEST(test_dump_io_errors)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    FILE *fp;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "none.dump");
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, &pot, &err),
                     NB_ERR_IO);
    assert_message(&err, t.path, 0, "cannot open");
    assert_empty(&p);
    ck_assert_int_eq(nb_lammps_dump_read(t.dir, &p, &box, &pot, &err),
                     NB_ERR_IO);
    assert_message(&err, t.dir, 0, "read error");
    write_text(t.path, HEAD "1\n" BOX ATOMS "1 1 0 0 0\n");
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, NULL, &err),
                     NB_ERR_PARSE);
    assert_message(&err, t.path, 9, "no mass column and there is no type "
                   "table");
    fp = fopen(t.path, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_md_fcc(&p, &box, 1, 1.0, 1.0, 1, &err), NB_OK);
    ck_assert_int_eq(nb_lammps_dump_write(fp, 0, &p, &box, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "LAMMPS dump: write error"));
    ck_assert_int_eq(nb_extxyz_write(fp, 0.0, &p, &box, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "extended XYZ: write error"));
    fclose(fp);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- extended XYZ ---------------------------------------------------------- */

/* Two frames: n + 2 lines each; the count, the header keys OVITO and ASE
 * read, and atom lines of species, position, velocity and Z that parse
 * back to the exact values. */
START_TEST(test_extxyz)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    char *text, *line, *save = NULL;
    char want[512];
    FILE *fp;
    size_t at = 0;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0x8d);
    tmp_make(&t, "frames.xyz");
    fp = fopen(t.path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_extxyz_write(fp, 0.25, &p, &box, &err), NB_OK);
    ck_assert_int_eq(nb_extxyz_write(fp, 0.5, &p, &box, &err), NB_OK);
    ck_assert_int_eq(fclose(fp), 0);
    text = read_text(t.path);
    ck_assert_uint_eq(count_lines(text), 2 * (p.n + 2));
    snprintf(want, sizeof want, "%zu\nLattice=\"%.17g 0 0 0 %.17g 0 0 0 "
             "%.17g\" Origin=\"%.17g %.17g %.17g\" Properties=species:S:1:"
             "pos:R:3:velo:R:3:Z:I:1 pbc=\"T T F\" Time=0.25\n", p.n,
             box.hi[0] - box.lo[0], box.hi[1] - box.lo[1],
             box.hi[2] - box.lo[2], box.lo[0], box.lo[1], box.lo[2]);
    ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "header:\n%.300s",
                  text);
    ck_assert_ptr_nonnull(strstr(text, "pbc=\"T T F\" Time=0.5\n"));
    for (line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), at++) {
        size_t i = at % (p.n + 2);
        char species[16];
        double x[3], v[3];
        int z, used = 0;

        if (i < 2)
            continue;
        i -= 2;
        ck_assert_int_eq(sscanf(line, "%15s %lf %lf %lf %lf %lf %lf %d %n",
                                species, &x[0], &x[1], &x[2], &v[0], &v[1],
                                &v[2], &z, &used), 8);
        ck_assert_uint_eq((size_t)used, strlen(line));
        snprintf(want, sizeof want, "T%d", p.type[i]);
        ck_assert_str_eq(species, want);
        ck_assert_int_eq(z, p.type[i]);
        ck_assert(memcmp(x, &p.x[3 * i], sizeof x) == 0);
        ck_assert(memcmp(v, &p.v[3 * i], sizeof v) == 0);
    }
    ck_assert_uint_eq(at, 2 * (p.n + 2));
    free(text);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- snapshots with types and charges ---------------------------------------- */

/* 10 columns with charges, 9 with types only: write -> read bit-exact. */
START_TEST(test_snapshot_types_charges)
{
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    char *text;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0x5a);
    p.q[4] = 0.123456789012345678;
    tmp_make(&t, "snap.txt");
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, "fluorite", &err), NB_OK);
    text = read_text(t.path);
    ck_assert_ptr_eq(strstr(text, "# fluorite\n# id type q m x y z vx vy vz\n"),
                     text);
    ck_assert_uint_eq(count_lines(text), p.n + 2);
    free(text);
    ck_assert_msg(nb_snapshot_read(t.path, &q, &err) == NB_OK, "%s",
                  err.message);
    ck_assert_uint_eq(q.n, p.n);
    ck_assert_ptr_nonnull(q.type);
    ck_assert_ptr_nonnull(q.q);
    ck_assert(memcmp(p.id, q.id, p.n * sizeof *p.id) == 0);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.q, q.q, p.n * sizeof *p.q) == 0);
    ck_assert(memcmp(p.m, q.m, p.n * sizeof *p.m) == 0);
    ck_assert(memcmp(p.x, q.x, 3 * p.n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    free(p.q);
    p.q = NULL;
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_snapshot_read(t.path, &q, &err), NB_OK);
    ck_assert_ptr_null(q.q);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    nb_particles_free(&q);
    ck_assert_int_eq(nb_particles_add_charges(&p, &err), NB_OK);
    free(p.type);
    p.type = NULL;
    ck_assert_int_eq(nb_snapshot_write(t.path, &p, NULL, &err), NB_ERR_ARGS);
    ck_assert_ptr_nonnull(strstr(err.message, "needs types too"));
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* The 10-column form needs its declaration, and then every line has 10. */
START_TEST(test_snapshot_10_columns_refused)
{
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    tmp_make(&t, "snap.txt");
    write_text(t.path, "# charges?\n1 1 2 1 0 0 0 0 0 0\n");
    ck_assert_int_eq(nb_snapshot_read(t.path, &p, &err), NB_ERR_PARSE);
    assert_message(&err, t.path, 2, "expected 8 or 9 columns, found 10 (the "
                   "10-column form needs");
    assert_empty(&p);
    write_text(t.path, "#id type q m x y z vx vy vz\n1 1 2 1 0 0 0 0 0 0\n"
               "2 1 1 0 0 0 0 0 0\n");
    ck_assert_int_eq(nb_snapshot_read(t.path, &p, &err), NB_ERR_PARSE);
    assert_message(&err, t.path, 3, "expected 10 columns as declared on line "
                   "1, found 9");
    write_text(t.path, "# t=0 columns: id type q m x y z vx vy vz\n"
               "1 1 x 1 0 0 0 0 0 0\n");
    ck_assert_int_eq(nb_snapshot_read(t.path, &p, &err), NB_ERR_PARSE);
    assert_message(&err, t.path, 2, "column 3 (q): not a number: 'x'");
    write_text(t.path, "# t=0 columns: id type q m x y z vx vy vz\n"
               "1 1 -2 1 0 0 0 0 0 0\n");
    ck_assert_int_eq(nb_snapshot_read(t.path, &p, &err), NB_OK);
    ck_assert(p.q[0] == -2.0 && p.type[0] == 1 && p.m[0] == 1.0);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *md_io_suite(void)
{
    Suite *s = suite_create("md_io");
    TCase *ic = tcase_create("initial conditions");
    TCase *files = tcase_create("files");

    tcase_set_timeout(ic, 60);      /* the 2592-ion crystal, 3 times */
    tcase_add_loop_test(ic, test_fcc, 0, 2);
    tcase_add_test(ic, test_fcc_zero_and_refused);
    tcase_add_loop_test(ic, test_grid_energy, 0, 2);
    tcase_add_test(ic, test_grid_refused);
    tcase_add_test(ic, test_ionic_default);
    tcase_add_test(ic, test_ionic_crystal);
    tcase_add_test(ic, test_ionic_equilibrium);
    suite_add_tcase(s, ic);

    tcase_add_test(files, test_dump_round_trip);
    tcase_add_test(files, test_dump_columns);
    tcase_add_loop_test(files, test_dump_refused, 0,
                        (int)(sizeof bad_dumps / sizeof bad_dumps[0]));
    tcase_add_test(files, test_dump_io_errors);
    tcase_add_test(files, test_extxyz);
    tcase_add_test(files, test_snapshot_types_charges);
    tcase_add_test(files, test_snapshot_10_columns_refused);
    suite_add_tcase(s, files);
    return s;
}

int main(void)
{
    const char *env = getenv("NB_TEST_SEED");
    SRunner *sr;
    int failed;

    g_seed = env && *env ? strtoull(env, NULL, 0)
                         : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    printf("check_md_io: seed %llu (NB_TEST_SEED to replay)\n",
           (unsigned long long)g_seed);
    sr = srunner_create(md_io_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
