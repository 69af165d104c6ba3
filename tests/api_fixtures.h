/* api_fixtures.h - check_api's random bodies and their pair sums in
 * double (the reference the public API is compared with), the program run
 * and its output read back, and handles made and read through the API.
 * Only the C library, Check and glnbody.h; header-only, one copy per
 * suite; include it after <check.h>. */
#ifndef NB_TEST_API_FIXTURES_H
#define NB_TEST_API_FIXTURES_H

#include <math.h>
#include <stdio.h>
#include <stdint.h>

#include "glnbody.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern uint64_t g_seed;     /* the suite's seed, printed by its main */

/* ---- random inputs and the double reference ---------------------------------- */

static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A float-representable value uniform in [lo, hi). */
static inline double uniform(uint64_t *s, double lo, double hi)
{
    return (double)(float)(lo + (hi - lo) * (double)(splitmix(s) >> 11) * 0x1p-53);
}

/* n bodies in [-1, 1)^3, velocities in [-1, 1)^3, masses (0.5..1.5) / n. */
struct bodies { size_t n; double *x, *v, *m; };

static inline struct bodies bodies_random(size_t n, uint64_t salt)
{
    uint64_t s = g_seed ^ (salt * 0x2545f4914f6cdd1dull);
    struct bodies b = { n, malloc(3 * n * sizeof(double)), malloc(3 * n * sizeof(double)),
                        malloc(n * sizeof(double)) };
    for (size_t k = 0; k < 3 * n; k++) {
        b.x[k] = uniform(&s, -1.0, 1.0);
        b.v[k] = uniform(&s, -1.0, 1.0);
    }
    for (size_t i = 0; i < n; i++)
        b.m[i] = uniform(&s, 0.5 / (double)n, 1.5 / (double)n);
    return b;
}

static inline void bodies_free(struct bodies *b)
{
    free(b->x);
    free(b->v);
    free(b->m);
}

/* Body i's reference acc, jerk, pot, and the magnitude sums of each. */
struct ref { double acc[3], jerk[3], pot, acc_abs, jerk_abs, pot_abs; };

static inline struct ref reference(const struct bodies *b, size_t i, double eps)
{
    struct ref r;
    memset(&r, 0, sizeof r);
    for (size_t j = 0; j < b->n; j++) {
        if (j == i)
            continue;
        double dx[3], dv[3], r2 = eps * eps, rv = 0.0, v2 = 0.0;
        for (int c = 0; c < 3; c++) {
            dx[c] = b->x[3 * j + c] - b->x[3 * i + c];
            dv[c] = b->v[3 * j + c] - b->v[3 * i + c];
            r2 += dx[c] * dx[c];
            rv += dx[c] * dv[c];
            v2 += dv[c] * dv[c];
        }
        double s1 = sqrt(r2), s3 = r2 * s1, s5 = s3 * r2, mj = b->m[j];
        for (int c = 0; c < 3; c++) {
            r.acc[c] += mj * dx[c] / s3;
            r.jerk[c] += mj * (dv[c] / s3 - 3.0 * rv * dx[c] / s5);
        }
        r.pot -= mj / s1;
        r.acc_abs += mj * sqrt(r2 - eps * eps) / s3;
        r.jerk_abs += mj * (sqrt(v2) / s3 + 3.0 * (r2 - eps * eps) * sqrt(v2) / s5);
        r.pot_abs += mj / s1;
    }
    return r;
}

static inline double dist3(const double *a, const double *b)
{
    return sqrt(pow(a[0] - b[0], 2) + pow(a[1] - b[1], 2) + pow(a[2] - b[2], 2));
}

/* The energy of run h's n equal masses (1/n) at its time, summed here in
 * double: without softening and with eps. */
static inline void plummer_energies(struct nb_hermite *h, size_t n, double eps, double *plain,
                             double *softened)
{
    double *x = malloc(3 * n * sizeof *x), *v = malloc(3 * n * sizeof *v);
    struct nb_error err = { 0 };
    ck_assert_int_eq(nb_hermite_state(h, x, v, &err), NB_OK);
    double m = 1.0 / (double)n, kinetic = 0.0, w0 = 0.0, weps = 0.0;
    for (size_t i = 0; i < n; i++) {
        kinetic += 0.5 * m * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] +
                              v[3 * i + 2] * v[3 * i + 2]);
        for (size_t j = i + 1; j < n; j++) {
            double r = dist3(x + 3 * i, x + 3 * j);
            w0 -= m * m / r;
            weps -= m * m / sqrt(r * r + eps * eps);
        }
    }
    *plain = kinetic + w0;
    *softened = kinetic + weps;
    free(x);
    free(v);
}

/* The program's binary: $GLNBODY_BIN or build/glnbody (make test runs from the
 * project root). */
static inline const char *program(void)
{
    const char *bin = getenv("GLNBODY_BIN");
    return bin && *bin ? bin : "build/glnbody";
}

/* Runs `glnbody ARGS --output OUT` with stdout and stderr in LOG; OUT and
 * LOG are new temporary names (the caller unlinks them). */
static inline void run_program(const char *args, char out[32], char log[40])
{
    char cmd[2048];
    snprintf(out, 32, "/tmp/check_api_XXXXXX");
    int fd = mkstemp(out);
    ck_assert(fd >= 0);
    close(fd);
    snprintf(log, 40, "%s.log", out);
    snprintf(cmd, sizeof cmd, "%s %s --output %s > %s 2>&1", program(), args, out, log);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

/* Reads the x y z vx vy vz of n rows of a snapshot from path, after the
 * skip columns before them (id m: 2; id type m: 3). */
static inline void read_output(const char *path, size_t n, int skip, double *x, double *v)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    size_t i = 0;
    ck_assert_msg(fp != NULL, "%s: no output", path);
    while (fgets(line, sizeof line, fp))
        if (line[0] != '#' && i < n) {
            char *at = line, *end;
            for (int k = 0; k < skip + 6; k++, at = end) {
                double value = strtod(at, &end);
                ck_assert_msg(end != at, "%s: row %zu is short", path, i);
                if (k >= skip)
                    (k < skip + 3 ? x : v)[3 * i + (k - skip) % 3] = value;
            }
            i++;
        }
    fclose(fp);
    ck_assert_uint_eq(i, n);
}

/* The energy error `glnbody run` printed, as it printed it ("" if none). */
static inline void read_energy_error(const char *path, char out[64])
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    const char *key = "(E - E0)/|E0| = ";
    out[0] = '\0';
    ck_assert(fp != NULL);
    while (fgets(line, sizeof line, fp)) {
        char *at = strstr(line, key);
        if (at)
            sscanf(at + strlen(key), "%63[^,]", out);
    }
    fclose(fp);
}

/* ---- handles made and read, with their errors as test failures ---- */

/* A force handle of engine on gl, in mode (A: left as made). */
static inline struct nb_forces *forces_open(struct nb_gl *gl, enum nb_engine engine,
                                            enum nb_precision mode)
{
    struct nb_forces *f = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_forces_create(&f, gl, engine, &err) == NB_OK, "%s", err.message);
    if (mode != NB_PRECISION_A)
        ck_assert_msg(nb_forces_set_precision(f, mode, &err) == NB_OK, "%s", err.message);
    return f;
}

/* A Hermite run of the circular two-body orbit on f. */
static inline struct nb_hermite *kepler(struct nb_forces *f,
                                        const struct nb_hermite_params *par)
{
    /* Two bodies of mass 1/2 at distance 1 on a circular orbit: relative
     * speed sqrt(G M / a) = 1, period 2 pi. */
    const double m[2] = { 0.5, 0.5 };
    const double x[6] = { 0.5, 0, 0, -0.5, 0, 0 }, v[6] = { 0, 0.5, 0, 0, -0.5, 0 };
    struct nb_hermite *h = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_hermite_create(&h, f, 2, m, x, v, par, &err) == NB_OK, "%s",
                  err.message);
    return h;
}

/* K + W of h at its time. */
static inline double total_energy(struct nb_hermite *h)
{
    double k = 0, w = 0;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_hermite_energy(h, &k, &w, &err) == NB_OK, "%s", err.message);
    return k + w;
}

#define MD_CELLS 3              /* 108 atoms: the smallest fcc box > 2 rc */
#define MD_RHO 0.8442
#define MD_STEPS 200

/* The fcc crystal of MD_CELLS^3 cells on engine: the defaults, shifted. */
static inline struct nb_md *md_fcc(struct nb_gl *gl, enum nb_engine engine)
{
    struct nb_md_params par;
    struct nb_md *md = NULL;
    struct nb_error err = { 0 };
    nb_md_params_default(&par);
    par.shift = 1;
    ck_assert_msg(nb_md_create_fcc(&md, gl, engine, MD_CELLS, MD_RHO, 1.0, g_seed, &par,
                                   &err) == NB_OK, "engine %d: %s", (int)engine, err.message);
    ck_assert_uint_eq(nb_md_count(md), 4 * MD_CELLS * MD_CELLS * MD_CELLS);
    return md;
}

/* md's thermodynamic state. */
static inline struct nb_md_thermo md_thermo(struct nb_md *md)
{
    struct nb_md_thermo th;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_md_get_thermo(md, &th, &err) == NB_OK, "%s", err.message);
    return th;
}

/* The call failed with NB_ERR_ARGS, its message naming func and arg. */
static inline void refused(enum nb_status st, const struct nb_error *err,
                           const char *func, const char *arg)
{
    ck_assert_msg(st == NB_ERR_ARGS && err->status == NB_ERR_ARGS, "%s: status %d, not "
                  "NB_ERR_ARGS (%s)", func, (int)st, err->message);
    ck_assert_msg(strstr(err->message, func) != NULL &&
                  (!arg || strstr(err->message, arg) != NULL),
                  "the message does not name %s and %s: %s", func, arg, err->message);
}

/* The relative energy error of a 64-body Plummer sphere drawn with seed,
 * run to t = 1/4 on engine (of gl) with the defaults (eta 0.02, eps 0.01). */
static inline double plummer_energy_error(struct nb_gl *gl, uint64_t seed,
                                          enum nb_engine engine, int on_device)
{
    struct nb_hermite_params par;
    nb_hermite_params_default(&par);
    par.predict_on_device = on_device;
    struct nb_forces *f = forces_open(engine == NB_ENGINE_CPU ? NULL : gl, engine,
                                      NB_PRECISION_A);
    struct nb_hermite *h = NULL;
    struct nb_error err = { 0 };
    ck_assert_msg(nb_hermite_create_plummer(&h, f, 64, seed, &par, &err) == NB_OK,
                  "%s", err.message);
    double e0 = total_energy(h), plain, softened;
    plummer_energies(h, 64, par.eps, &plain, &softened);
    /* Henon units unsoftened (E = -1/4); the run's E0 is the softened one. */
    ck_assert_msg(fabs(plain + 0.25) < 1e-12, "E0 = %.17g unsoftened, not -1/4", plain);
    ck_assert_msg(fabs(e0 - softened) < 1e-9 * -e0, "E0 %.17g, sum %.17g", e0, softened);
    ck_assert_int_eq(nb_hermite_integrate(h, 0.25, &err), NB_OK);
    double de = (total_energy(h) - e0) / fabs(e0);
    nb_hermite_destroy(h);
    nb_forces_destroy(f);
    return de;
}

#endif
