/* api_forces.c - struct nb_forces of glnbody.h: the public face of the
 * force backends (struct nb_force_backend).  It owns a backend, makes its
 * context current before every call that may touch GL, checks the
 * caller's arrays once so that the kernels never see garbage, and keeps
 * the results the caller does not want in scratch space (the backends
 * write every array).  Also the argument checks the other handles share. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

enum nb_status nb_api_need(const void *ptr, const char *func, const char *arg,
                           struct nb_error *err)
{
    if (ptr)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "%s: %s is NULL", func, arg);
}

enum nb_status nb_api_finite(const double *a, size_t count, const char *func,
                             const char *arg, struct nb_error *err)
{
    for (size_t k = 0; k < count; k++)
        if (!isfinite(a[k]))
            return nb_error_set(err, NB_ERR_ARGS, "%s: %s[%zu] is not a finite "
                                "number", func, arg, k);
    return NB_OK;
}

enum nb_status nb_api_fail(struct nb_error *out, const struct nb_error *e,
                           const char *func)
{
    size_t len = strlen(func);
    if (out && e->status == NB_ERR_ARGS && strncmp(e->message, func, len) != 0) {
        out->status = e->status;
        int room = (int)(sizeof out->message - len - 3);    /* the rest is cut */
        snprintf(out->message, sizeof out->message, "%s: %.*s", func, room > 0 ? room : 0,
                 e->message);
        return e->status;
    }
    return nb_error_copy(out, e);
}

enum nb_status nb_api_choices(enum nb_engine engine, enum nb_precision mode,
                               const char *func, struct nb_error *err)
{
    if ((unsigned)engine >= NB_ENGINE_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: engine %d is not NB_ENGINE_CPU, "
                            "_COMPUTE or _FRAGMENT", func, (int)engine);
    if ((unsigned)mode >= NB_PRECISION_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: precision %d is not one of "
                            "NB_PRECISION_A..H", func, (int)mode);
    return NB_OK;
}

enum nb_status nb_api_forces_enter(struct nb_forces *f, struct nb_error *err)
{
    return f->gl ? nb_gl_make_current(f->gl, err) : NB_OK;
}

enum nb_status nb_forces_create(struct nb_forces **out, struct nb_gl *gl,
                                enum nb_engine engine, struct nb_error *err)
{
    const char *func = "nb_forces_create";
    struct nb_error e = { 0 };
    if (nb_api_need(out, func, "f", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    *out = NULL;
    if (nb_api_choices(engine, NB_PRECISION_A, func, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    struct nb_forces *f = nb_alloc(1, sizeof *f, "a force engine", &e);
    if (!f)
        return nb_api_fail(err, &e, func);
    f->engine = engine;
    f->gl = nb_engine_needs_gl(engine) ? gl : NULL;
    snprintf(f->variant, sizeof f->variant, "none");
    if (nb_backend_create_engine(&f->b, engine, gl, &e) != NB_OK) {
        nb_forces_destroy(f);
        return nb_api_fail(err, &e, func);
    }
    *out = f;
    return NB_OK;
}

void nb_forces_destroy(struct nb_forces *f)
{
    if (!f)
        return;
    if (f->b.destroy && nb_api_forces_enter(f, NULL) == NB_OK) {
        if (f->g6_free)
            f->g6_free(f->g6);
        f->b.destroy(f->b.state);
    }
    free(f->scratch);
    free(f->j_set);
    free(f);
}

enum nb_status nb_forces_set_variant(struct nb_forces *f, const char *variant,
                                     struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(f, "nb_forces_set_variant", "f", &e) != NB_OK ||
        nb_api_need(variant, "nb_forces_set_variant", "variant", &e) != NB_OK ||
        nb_api_forces_enter(f, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_forces_set_variant");
    /* An unknown name: the engine's message, which names it and the engine. */
    if (f->b.set_variant(f->b.state, variant, &e) != NB_OK)
        return nb_error_copy(err, &e);
    return NB_OK;
}

enum nb_status nb_forces_set_precision(struct nb_forces *f, enum nb_precision mode,
                                       struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(f, "nb_forces_set_precision", "f", &e) != NB_OK ||
        nb_api_choices(f->engine, mode, "nb_forces_set_precision", &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_forces_set_precision");
    if (!f->b.set_precision && mode != NB_PRECISION_A)
        return nb_error_set(err, NB_ERR_ARGS, "nb_forces_set_precision: the %s engine "
                            "has no accumulation modes (%s sums in %s)", f->b.name,
                            f->b.name, f->engine == NB_ENGINE_CPU ? "double" : "float");
    if (f->b.set_precision && (nb_api_forces_enter(f, &e) != NB_OK ||
                               f->b.set_precision(f->b.state, mode, &e) != NB_OK))
        return nb_api_fail(err, &e, "nb_forces_set_precision");
    f->precision = mode;
    return NB_OK;
}

enum nb_status nb_forces_set_positions(struct nb_forces *f, enum nb_positions format,
                                       struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(f, "nb_forces_set_positions", "f", &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_forces_set_positions");
    if ((unsigned)format >= NB_POSITIONS_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "nb_forces_set_positions: %d is not a position "
                            "format (NB_POSITIONS_DS, NB_POSITIONS_FLOAT, "
                            "NB_POSITIONS_FIXED64)", (int)format);
    f->positions = format;
    return NB_OK;
}

/* count doubles of scratch space, grown as needed. */
static double *scratch(struct nb_forces *f, size_t count, struct nb_error *err)
{
    if (count <= f->scratch_size)
        return f->scratch;
    double *grown = nb_alloc(count, sizeof *grown, "unwanted results", err);
    if (!grown)
        return NULL;
    free(f->scratch);
    f->scratch = grown;
    f->scratch_size = count;
    return grown;
}

/* The time and the variant of the evaluation just read back. */
static void remember_evaluation(struct nb_forces *f)
{
    f->seconds = f->b.last_seconds(f->b.state);
    snprintf(f->variant, sizeof f->variant, "%s", f->b.variant(f->b.state));
}

static enum nb_status check_softening(double eps, const char *func, struct nb_error *err)
{
    if (isfinite(eps) && eps >= 0.0)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "%s: eps = %g must be finite and >= 0",
                        func, eps);
}

static enum nb_status check_ga(struct nb_forces *f, size_t n, const double *x,
                               const double *m, double eps, const char *func,
                               struct nb_error *err)
{
    if (nb_api_need(f, func, "f", err) != NB_OK || nb_api_need(x, func, "x", err) != NB_OK ||
        nb_api_need(m, func, "m", err) != NB_OK)
        return err->status;
    if (n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: n is 0", func);
    if (nb_api_finite(x, 3 * n, func, "x", err) != NB_OK ||
        nb_api_finite(m, n, func, "m", err) != NB_OK)
        return err->status;
    return check_softening(eps, func, err);
}

enum nb_status nb_forces_ga(struct nb_forces *f, size_t n, const double *x,
                            const double *m, double eps, double *acc, double *pot,
                            struct nb_error *err)
{
    const char *func = "nb_forces_ga";
    struct nb_error e = { 0 };
    if (check_ga(f, n, x, m, eps, func, &e) != NB_OK || nb_api_forces_enter(f, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_forces_ga");
    double *spare = acc && pot ? NULL : scratch(f, 4 * n, &e);
    if (f->b.partition.ranks > 0) {     /* j-parallel: through the GAJ kernel */
        f->j_stale = f->n_j > 0;        /* its upload replaces the j-set */
        if (nb_api_gaj_mode_check(f, "nb_forces_ga", &e) != NB_OK ||
            nb_partition_ga(&f->b, n, x, m, eps, acc, pot, &e) != NB_OK)
            return nb_api_fail(err, &e, "nb_forces_ga");
        remember_evaluation(f);
        return NB_OK;
    }
    if ((!(acc && pot) && !spare) ||
        f->b.set_particles(f->b.state, n, x, m, &e) != NB_OK ||
        f->b.compute(f->b.state, NB_KERNEL_GA, eps, &e) != NB_OK ||
        f->b.read(f->b.state, acc ? acc : spare, pot ? pot : spare + 3 * n, &e) != NB_OK)
        return nb_api_fail(err, &e, "nb_forces_ga");
    /* The fragment engine's GA upload replaces its j-set (measured: a GAJ
     * call after it reads the GA particles): the next nb_forces_gaj uploads
     * the copy again. */
    f->j_stale = f->n_j > 0;
    remember_evaluation(f);
    return NB_OK;
}

/* Modes B..H reach the GAJ kernel only where the backend says so; anywhere
 * else the GAJ sums would silently be A's. */
enum nb_status nb_api_gaj_mode_check(const struct nb_forces *f, const char *func,
                                     struct nb_error *err)
{
    if (f->precision == NB_PRECISION_A || (f->b.caps & NB_BACKEND_GAJ_MODES))
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "%s: the %s engine sums the GAJ kernel in "
                        "mode A only; modes B..H need NB_ENGINE_COMPUTE", func,
                        f->b.name);
}

/* A copy of the j-set, so that it survives GA calls on the same handle. */
static enum nb_status keep_j_set(struct nb_forces *f, size_t n, const double *x,
                                 const double *v, const double *m, struct nb_error *err)
{
    if (7 * n > f->j_set_size) {
        double *grown = nb_alloc(7 * n, sizeof *grown, "the j-set's copy", err);
        if (!grown)
            return NB_ERR_NOMEM;
        free(f->j_set);
        f->j_set = grown;
        f->j_set_size = 7 * n;
    }
    memcpy(f->j_set, x, 3 * n * sizeof *x);
    memcpy(f->j_set + 3 * n, v, 3 * n * sizeof *v);
    memcpy(f->j_set + 6 * n, m, n * sizeof *m);
    return NB_OK;
}

enum nb_status nb_forces_set_j(struct nb_forces *f, size_t n, const double *x,
                               const double *v, const double *m, struct nb_error *err)
{
    const char *func = "nb_forces_set_j";
    struct nb_error e = { 0 };
    if (nb_api_need(f, func, "f", &e) != NB_OK || nb_api_need(x, func, "x", &e) != NB_OK ||
        nb_api_need(v, func, "v", &e) != NB_OK || nb_api_need(m, func, "m", &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    if (n == 0 || n > UINT32_MAX)
        return nb_error_set(err, NB_ERR_ARGS, "%s: n = %zu is not 1..2^32-1 (indices "
                            "are uint32_t)", func, n);
    f->n_j = 0;
    if (nb_api_finite(x, 3 * n, func, "x", &e) != NB_OK ||
        nb_api_finite(v, 3 * n, func, "v", &e) != NB_OK ||
        nb_api_finite(m, n, func, "m", &e) != NB_OK ||
        nb_api_gaj_mode_check(f, func, &e) != NB_OK || nb_api_forces_enter(f, &e) != NB_OK ||
        keep_j_set(f, n, x, v, m, &e) != NB_OK ||
        f->b.set_j(f->b.state, n, x, v, m, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    f->n_j = n;
    f->j_stale = 0;
    f->j_precision = f->precision;
    return NB_OK;
}

/* The j-set again where a GA upload replaced it on the engine, in the mode
 * it was set in (a mode changed since: no j-set, as before any set_j). */
static enum nb_status restore_j_set(struct nb_forces *f, struct nb_error *err)
{
    if (!f->j_stale)
        return NB_OK;
    f->j_stale = 0;
    if (f->precision != f->j_precision) {
        f->n_j = 0;
        return NB_OK;
    }
    size_t n = f->n_j;
    enum nb_status st = f->b.set_j(f->b.state, n, f->j_set, f->j_set + 3 * n,
                                   f->j_set + 6 * n, err);
    if (st != NB_OK)
        f->n_j = 0;
    return st;
}

enum nb_status nb_forces_set_partition(struct nb_forces *f, const struct nb_partition *part,
                                       struct nb_error *err)
{
    const char *func = "nb_forces_set_partition";
    struct nb_error e = { 0 };
    if (nb_api_need(f, func, "f", &e) != NB_OK ||
        nb_api_forces_enter(f, &e) != NB_OK ||
        nb_partition_attach(&f->b, part, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    return NB_OK;
}

static enum nb_status check_active(const struct nb_forces *f, size_t n_active,
                                   const uint32_t *active, struct nb_error *err)
{
    const char *func = "nb_forces_gaj";
    if (f->n_j == 0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: no j-particles (call nb_forces_set_j "
                            "first; nb_forces_ga and Hermite runs on f replace "
                            "them)", func);
    if (n_active == 0 || n_active > f->n_j)
        return nb_error_set(err, NB_ERR_ARGS, "%s: n_active = %zu is not 1..%zu", func,
                            n_active, f->n_j);
    for (size_t k = 0; k < n_active; k++)
        if (active[k] >= f->n_j || (k > 0 && active[k] <= active[k - 1]))
            return nb_error_set(err, NB_ERR_ARGS, "%s: active[%zu] = %u is not ascending "
                                "and below n = %zu", func, k, active[k], f->n_j);
    return NB_OK;
}

enum nb_status nb_forces_gaj(struct nb_forces *f, double eps, size_t n_active,
                             const uint32_t *active, double *acc, double *jerk,
                             double *pot, struct nb_error *err)
{
    const char *func = "nb_forces_gaj";
    struct nb_error e = { 0 };
    if (nb_api_need(f, func, "f", &e) != NB_OK ||
        nb_api_need(active, func, "active", &e) != NB_OK ||
        nb_api_need(acc, func, "acc", &e) != NB_OK ||
        check_softening(eps, func, &e) != NB_OK ||
        nb_api_forces_enter(f, &e) != NB_OK || restore_j_set(f, &e) != NB_OK ||
        check_active(f, n_active, active, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    double *spare = jerk && pot ? NULL : scratch(f, 4 * n_active, &e);
    if (f->b.partition.ranks > 0) {     /* this rank's j-slice, summed over all */
        if ((!(jerk && pot) && !spare) ||
            nb_partition_gaj(&f->b, eps, f->n_j, f->j_set + 6 * f->n_j, n_active, active, acc,
                             jerk ? jerk : spare, pot ? pot : spare + 3 * n_active,
                             &e) != NB_OK)
            return nb_api_fail(err, &e, func);
        remember_evaluation(f);
        return NB_OK;
    }
    if ((!(jerk && pot) && !spare) ||
        f->b.compute_gaj(f->b.state, eps, n_active, active, &e) != NB_OK ||
        f->b.read_gaj(f->b.state, acc, jerk ? jerk : spare,
                      pot ? pot : spare + 3 * n_active, &e) != NB_OK)
        return nb_api_fail(err, &e, func);
    remember_evaluation(f);
    return NB_OK;
}

const char *nb_forces_variant(const struct nb_forces *f)
{
    return f ? f->variant : "none";
}

double nb_forces_seconds(const struct nb_forces *f)
{
    return f ? f->seconds : 0.0;
}

unsigned nb_forces_caps(const struct nb_forces *f)
{
    if (!f)
        return 0;
    return ((f->b.caps & NB_BACKEND_DOUBLE) ? NB_FORCES_DOUBLE : 0u) |
           (f->b.set_precision ? NB_FORCES_MODES : 0u) |
           ((f->b.caps & NB_BACKEND_GAJ_MODES) ? NB_FORCES_GAJ_MODES : 0u);
}

const char *nb_forces_renderer(const struct nb_forces *f)
{
    return f ? f->b.renderer(f->b.state) : "none";
}

const char *const *nb_forces_variants(const struct nb_forces *f)
{
    static const char *const none[] = { NULL };
    return f ? f->b.variants(f->b.state) : none;
}

/* warmup + runs evaluations of the particles set last; the median device
 * seconds of the timed ones. */
static enum nb_status time_evaluations(struct nb_forces *f, double eps, int warmup,
                                       int runs, double *median, struct nb_error *err)
{
    double *seconds = nb_alloc((size_t)runs, sizeof *seconds, "timings", err);
    enum nb_status st = seconds ? NB_OK : NB_ERR_NOMEM;
    for (int k = 0; st == NB_OK && k < warmup + runs; k++) {
        st = f->b.compute(f->b.state, NB_KERNEL_GA, eps, err);
        if (st == NB_OK && k >= warmup)
            seconds[k - warmup] = f->b.last_seconds(f->b.state);
    }
    if (st == NB_OK)
        *median = nb_median(seconds, (size_t)runs);
    free(seconds);
    return st;
}

enum nb_status nb_forces_time_ga(struct nb_forces *f, size_t n, const double *x,
                                 const double *m, double eps, int warmup, int runs,
                                 double *acc, double *pot, double *median,
                                 struct nb_error *err)
{
    const char *func = "nb_forces_time_ga";
    struct nb_error e = { 0 };
    if (check_ga(f, n, x, m, eps, func, &e) != NB_OK ||
        nb_api_need(median, func, "median", &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (warmup < 0 || runs < 1)
        return nb_error_set(err, NB_ERR_ARGS, "%s: warmup = %d and runs = %d: need "
                            "warmup >= 0 and runs >= 1", func, warmup, runs);
    double *spare = acc && pot ? NULL : scratch(f, 4 * n, &e);
    f->j_stale = f->n_j > 0;    /* the upload replaces the fragment engine's j-set */
    if ((!(acc && pot) && !spare) || nb_api_forces_enter(f, &e) != NB_OK ||
        f->b.set_particles(f->b.state, n, x, m, &e) != NB_OK ||
        time_evaluations(f, eps, warmup, runs, median, &e) != NB_OK ||
        f->b.read(f->b.state, acc ? acc : spare, pot ? pot : spare + 3 * n, &e) != NB_OK)
        return nb_error_copy(err, &e);
    remember_evaluation(f);
    return NB_OK;
}

enum nb_status nb_particles_plummer(struct nb_particles *p, size_t n, uint64_t seed,
                                    struct nb_forces *f, struct nb_error *err)
{
    struct nb_error e = { 0 };
    if (nb_api_need(p, "nb_particles_plummer", "p", &e) != NB_OK ||
        (f && nb_api_forces_enter(f, &e) != NB_OK) ||
        nb_plummer(p, n, seed, f ? &f->b : NULL, &e) != NB_OK)
        return nb_error_copy(err, &e);
    if (f)
        f->j_stale = f->n_j > 0;    /* its W sums went through GA uploads */
    return NB_OK;
}
