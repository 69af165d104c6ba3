/* integrator_hermite4.c - fourth-order Hermite predictor-corrector with
 * block time steps (Makino and Aarseth 1992; seed 001, section 2).
 *
 * All arithmetic is double precision on the host.  Each block step:
 *   1. the block: every particle due at t1 = min_i t0_i + dt_i, in
 *      ascending index order (the fragment kernel relies on the order);
 *   2. the j-set at t1: the host predicts all n (eqs. 3-4) and calls set_j,
 *      or the backend predicts its own copy (predict_j, issued before step
 *      1 so that the device works while the host finds the block); the
 *      corrector always uses the host's own prediction of the block;
 *   3. acceleration and jerk of the block at t1 (compute_gaj, read_gaj;
 *      or in pieces, compute_gaj_pieces and read_gaj_piece);
 *   4. the corrector (eqs. 5-8) with a2, a3 from the Hermite interpolation,
 *      piece by piece as the pieces arrive;
 *   5. new steps from the Aarseth criterion (eq. 9), quantised: the largest
 *      power of two <= the criterion that divides t1, at most twice the old
 *      step and at most dt_max (McMillan and Aarseth 1993).
 * Time steps are powers of two and every t0_i is a multiple of dt_i, so
 * block times are exact binary fractions and blocks really share a time.
 */
#include "nb_host.h"
#include "hermite4.h"

#include <math.h>
#include "nb_omp.h"
#include <stdlib.h>
#include <string.h>

/* Predicting or scanning all n on the host is memory bound: threads only
 * pay above a few thousand particles. */
#define ALL_N_PARALLEL_MIN 4096
/* Correcting a block particle is ~200 flops and four square roots: threads
 * pay from a few hundred on. */
#define BLOCK_PARALLEL_MIN 256

/* ---- allocation -------------------------------------------------------- */

static void hermite_free(void *state)
{
    struct hermite4 *h = state;

    if (!h)
        return;
    free(h->a), free(h->jerk), free(h->a2), free(h->a3);
    free(h->xp), free(h->vp), free(h->active), free(h->level);
    free(h->ba), free(h->bj), free(h->bpot);
    free(h->bx), free(h->bv), free(h->bt), free(h->crit);
    free(h->range_hits), free(h->dw);
    free(h);
}

static struct hermite4 *hermite_alloc(size_t n, struct nb_error *err)
{
    struct hermite4 *h = nb_alloc(1, sizeof *h, "the Hermite state", err);
    double **vec3[] = {&h->a, &h->jerk, &h->a2, &h->a3, &h->xp, &h->vp,
                       &h->ba, &h->bj, &h->bx, &h->bv};
    double **scalar[] = {&h->bpot, &h->bt, &h->crit, &h->dw};

    if (!h)
        return NULL;
    for (size_t k = 0; k < sizeof vec3 / sizeof vec3[0]; k++)
        if (!(*vec3[k] = nb_alloc(n, 3 * sizeof(double), "Hermite arrays", err)))
            goto fail;
    for (size_t k = 0; k < sizeof scalar / sizeof scalar[0]; k++)
        if (!(*scalar[k] = nb_alloc(n, sizeof(double), "Hermite arrays", err)))
            goto fail;
    if (!(h->active = nb_alloc(n, sizeof *h->active, "the block list", err)) ||
        !(h->level = nb_alloc(n, sizeof *h->level, "the block list", err)) ||
        !(h->range_hits = nb_alloc((size_t)omp_get_max_threads(),
                                   sizeof *h->range_hits, "the block list", err)))
        goto fail;
    return h;
fail:
    hermite_free(h);
    return NULL;
}

/* ---- time steps -------------------------------------------------------- */

/* Particle i's step, and its level for collect_block; dt a power of two
 * in NB_DT_FLOOR..NB_T_MAX. */
void nb_hermite4_set_step(struct nb_sim *s, struct hermite4 *h, size_t i, double dt)
{
    s->dt[i] = dt;
    h->level[i] = (uint8_t)nb_step_level(dt);
}

enum nb_status nb_hermite4_too_small(const struct nb_sim *s, size_t i, double crit,
                                     double t, struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_NUMERIC, "particle %lld (index %zu) "
                        "at t = %.17g: the time-step criterion %.3g is below "
                        "the floor 2^-40 (a close encounter? raise "
                        "--softening)", (long long)s->p.id[i], i, t, crit);
}

/* Index of the block particle with the smallest criterion. */
static size_t smallest_criterion(const struct hermite4 *h)
{
    size_t best = 0;

    for (size_t k = 1; k < h->n_active; k++)
        if (h->crit[k] < h->crit[best])
            best = k;
    return best;
}

/* Shared steps (shared_dt): the block is everyone, and everyone gets the
 * step the smallest criterion allows. */
static enum nb_status shared_steps(struct nb_sim *s, struct hermite4 *h,
                                   double t1, struct nb_error *err)
{
    size_t worst = smallest_criterion(h);
    double dt = nb_step_next(s->dt[h->active[worst]], h->crit[worst], t1,
                             s->par.dt_max);

    if (dt < NB_DT_FLOOR)
        return nb_hermite4_too_small(s, h->active[worst], h->crit[worst], t1, err);
    for (size_t k = 0; k < h->n_active; k++)
        nb_hermite4_set_step(s, h, h->active[k], dt);
    s->t_next = t1 + dt;
    return NB_OK;
}

/* ---- prediction -------------------------------------------------------- */

/* Eqs. 3-4, Horner form: x + v dt + a dt^2/2 + j dt^3/6, v + a dt +
 * j dt^2/2. */
static void predict_one(const struct nb_sim *s, const struct hermite4 *h,
                        size_t i, double t, double *xp, double *vp)
{
    double dt = t - s->t0[i];

    for (size_t c = 3 * i; c < 3 * i + 3; c++) {
        double a = h->a[c], j = h->jerk[c];

        xp[c] = s->p.x[c] + dt * (s->p.v[c] + dt / 2 * (a + dt / 3 * j));
        vp[c] = s->p.v[c] + dt * (a + dt / 2 * j);
    }
}

/* The same to fifth order with a2, a3: the diagnostics' state between
 * block times, as accurate as the corrector itself. */
static void hermite_predict(const struct nb_sim *s, const void *state, double t,
                            double *x, double *v)
{
    const struct hermite4 *h = state;

    #pragma omp parallel for schedule(static) if (s->p.n > ALL_N_PARALLEL_MIN)
    for (size_t i = 0; i < s->p.n; i++) {
        double dt = t - s->t0[i];

        for (size_t c = 3 * i; c < 3 * i + 3; c++) {
            double a = h->a[c], j = h->jerk[c], a2 = h->a2[c], a3 = h->a3[c];

            x[c] = s->p.x[c] + dt * (s->p.v[c] + dt / 2 * (a + dt / 3 *
                   (j + dt / 4 * (a2 + dt / 5 * a3))));
            v[c] = s->p.v[c] + dt * (a + dt / 2 * (j + dt / 3 *
                   (a2 + dt / 4 * a3)));
        }
    }
}

/* ---- the backend ------------------------------------------------------- */

/* Hands the backend the j-set at t1: everyone predicted on the host, or
 * the backend's own prediction (the block was predicted on the host for
 * the corrector by collect_block). */
static enum nb_status feed_j(struct nb_sim *s, struct hermite4 *h, double t1,
                             struct split *sp, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    enum nb_status st;
    double t0;

    if (s->par.predict == NB_PREDICT_GPU) {      /* block: in collect_block */
        t0 = nb_clock_seconds();
        st = b->predict_j(b->state, t1, err);
    } else {
        #pragma omp parallel for schedule(static) if (s->p.n > ALL_N_PARALLEL_MIN)
        for (size_t i = 0; i < s->p.n; i++)
            predict_one(s, h, i, t1, h->xp, h->vp);
        t0 = nb_clock_seconds();
        st = b->set_j(b->state, s->p.n, h->xp, h->vp, s->p.m, err);
    }
    sp->wall += nb_clock_seconds() - t0;
    return st;
}

/* GAJ of the block into ba, bj, bpot.  The device time is asked for after
 * the read-back, which has waited for the work already. */
static enum nb_status evaluate(struct nb_sim *s, struct hermite4 *h,
                               struct split *sp, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    double t0 = nb_clock_seconds(), reduce0 = b->partition_seconds;
    enum nb_status st;

    if (b->partition.ranks > 0) {       /* shared over the ranks (partition.c) */
        st = nb_partition_gaj(b, s->par.eps, s->p.n, s->p.m, h->n_active, h->active,
                              h->ba, h->bj, h->bpot, err);
        if (st == NB_OK && h->prepare_steps && b->prepare_steps)
            b->prepare_steps(b->state, h->device_corrects);
    } else {
        st = b->compute_gaj(b->state, s->par.eps, h->n_active, h->active, err);
        if (st == NB_OK && h->prepare_steps && b->prepare_steps)
            b->prepare_steps(b->state, h->device_corrects);
        if (st == NB_OK)
            st = b->read_gaj(b->state, h->ba, h->bj, h->bpot, err);
    }
    h->prepare_steps = 0;
    if (st == NB_OK)
        sp->device += b->last_seconds(b->state);
    sp->reduce += b->partition_seconds - reduce0;
    sp->wall += nb_clock_seconds() - t0;
    return st;
}

/* The corrected block (bx, bv, bt, gathered by correct_one) into the
 * backend's own state (--predict gpu). */
static enum nb_status push_block(struct nb_sim *s, struct hermite4 *h,
                                 struct split *sp, struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    double t0;
    enum nb_status st;

    t0 = nb_clock_seconds();
    st = b->update_state(b->state, h->n_active, h->active, h->bx, h->bv, h->ba,
                         h->bj, h->bt, err);
    sp->wall += nb_clock_seconds() - t0;
    return st;
}

/* ---- correction -------------------------------------------------------- */

enum nb_status nb_hermite4_not_finite(const struct nb_sim *s, size_t i, double t,
                                      struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_NUMERIC, "particle %lld (index %zu) "
                        "at t = %.17g: non-finite position, velocity or force "
                        "(two particles at one place with softening 0?)",
                        (long long)s->p.id[i], i, t);
}

/* Eqs. 5-8 for block particle k (index i) with the new a1, j1 at t1; the
 * Hermite interpolation gives a2 and a3 at t0, and a2 moves on to t1.
 * The corrected x, v, t0 also go to slot k of bx, bv, bt (for
 * update_state).  Returns 0 when a result is not finite.  Touches only
 * particle i and slot k, so block particles correct in parallel. */
static int correct_one(struct nb_sim *s, struct hermite4 *h, size_t k, double t1)
{
    size_t i = h->active[k];
    double dt = t1 - s->t0[i], dt2 = dt * dt, *a1 = &h->ba[3 * k];
    double *j1 = &h->bj[3 * k];

    for (size_t c = 0; c < 3; c++) {
        size_t q = 3 * i + c;
        double da = h->a[q] - a1[c];
        double a2 = (-6.0 * da - dt * (4.0 * h->jerk[q] + 2.0 * j1[c])) / dt2;
        double a3 = (12.0 * da + 6.0 * dt * (h->jerk[q] + j1[c])) / (dt2 * dt);

        s->p.x[q] = h->bx[3 * k + c] = h->xp[q] + dt2 * dt2 * (a2 / 24.0 +
                                                                  dt * a3 / 120.0);
        s->p.v[q] = h->bv[3 * k + c] = h->vp[q] + dt2 * dt * (a2 / 6.0 + dt * a3 / 24.0);
        h->a[q] = a1[c];
        h->jerk[q] = j1[c];
        h->a2[q] = a2 + dt * a3;
        h->a3[q] = a3;
        if (!isfinite(s->p.x[q]) || !isfinite(s->p.v[q]) ||
            !isfinite(h->a2[q]) || !isfinite(h->a3[q]))
            return 0;
    }
    s->t0[i] = h->bt[k] = t1;
    h->crit[k] = nb_step_aarseth_criterion(s->par.eta, &h->a[3 * i], &h->jerk[3 * i],
                                           &h->a2[3 * i], &h->a3[3 * i]);
    return 1;
}

/* W at the corrected positions of a block holding everyone, from the GAJ
 * potentials at the predicted ones: W(x1) = W(xp) - sum m a.(x1 - xp) to
 * first order in the corrector's O(dt^4) displacement (dW/dx_i = -m_i a_i). */
static void sync_potential(struct nb_sim *s, const struct hermite4 *h,
                           double t1)
{
    double w = 0.0, dw = 0.0;

    for (size_t i = 0; i < s->p.n; i++) {
        w += 0.5 * s->p.m[i] * h->bpot[i];
        for (size_t c = 3 * i; c < 3 * i + 3; c++)
            dw += s->p.m[i] * h->ba[c] * (s->p.x[c] - h->xp[c]);
    }
    s->sync_t = t1;
    s->sync_epot = w - dw;
}

/* ---- the step ---------------------------------------------------------- */

/* Every particle due at t1, ascending, into h->active; returns the next
 * time of the others, min t0 + dt (infinite if none).  The block clock
 * (each t0 a multiple of its step, t0 <= t < t0 + dt) makes a particle
 * due exactly when its step divides t1, and the others' steps end at
 * the next multiples of theirs: so the scan reads one byte a particle,
 * its level, and notes which levels wait.  Each thread scans a
 * contiguous range twice: it counts its members, then writes them after
 * those of the ranges before it, so the block comes out in order with no
 * sort.  With predict_block, the second pass also predicts each member to
 * t1 (the corrector's xp, vp), while its data are in cache. */
static double collect_block(const struct nb_sim *s, struct hermite4 *h, double t1,
                            int predict_block)
{
    size_t n = s->p.n;
    unsigned due = (unsigned)nb_step_dividing_level(t1);
    uint64_t waiting = 0;

    #pragma omp parallel if (n > ALL_N_PARALLEL_MIN) reduction(| : waiting)
    {
        size_t threads = (size_t)omp_get_num_threads();
        size_t me = (size_t)omp_get_thread_num(), hits = 0, at = 0;
        size_t lo = n * me / threads, hi = n * (me + 1) / threads;

        for (size_t i = lo; i < hi; i++) {
            if (h->level[i] <= due)
                hits++;
            else
                waiting |= (uint64_t)1 << h->level[i];
        }
        h->range_hits[me] = hits;
        #pragma omp barrier
        for (size_t k = 0; k < me; k++)
            at += h->range_hits[k];
        for (size_t i = lo; i < hi; i++)
            if (h->level[i] <= due) {
                h->active[at++] = (uint32_t)i;
                if (predict_block)
                    predict_one(s, h, i, t1, h->xp, h->vp);
            }
        if (me == threads - 1)
            h->n_active = at;
    }
    return nb_step_next_ends(waiting, t1);
}

/* What correcting block slots found: the first slot whose result is not
 * finite, the first whose step fell below the floor (n_active: none),
 * and the earliest next time among them and the rest. */
struct corrected {
    size_t bad, small;
    double next;
};

/* Corrects block slots [k0, k1) at t1 and gives each particle its new
 * step (shared steps wait for the whole block: finish_block). */
static void correct_slots(struct nb_sim *s, struct hermite4 *h, size_t k0, size_t k1,
                          double t1, struct corrected *c)
{
    size_t bad = c->bad, small = c->small;
    int own = !s->par.shared_dt;
    double next = c->next;

    #pragma omp parallel for schedule(static) reduction(min : bad, small, next) \
        if (k1 - k0 > BLOCK_PARALLEL_MIN)
    for (size_t k = k0; k < k1; k++) {
        size_t i = h->active[k];
        double dt;

        if (!correct_one(s, h, k, t1)) {
            bad = k < bad ? k : bad;
        } else if (own) {
            dt = nb_step_next(s->dt[i], h->crit[k], t1, s->par.dt_max);
            if (dt < NB_DT_FLOOR)
                small = k < small ? k : small;
            else
                nb_hermite4_set_step(s, h, i, dt);
            next = t1 + dt < next ? t1 + dt : next;
        }
    }
    c->bad = bad;
    c->small = small;
    c->next = next;
}

/* After every slot is corrected: the first failure in block order is
 * reported, as a serial loop would; shared steps are given; s->t_next
 * needs no scan of all n. */
static enum nb_status finish_block(struct nb_sim *s, struct hermite4 *h, double t1,
                                   const struct corrected *c, struct nb_error *err)
{
    size_t na = h->n_active;

    if (c->bad < na && c->bad <= c->small)
        return nb_hermite4_not_finite(s, h->active[c->bad], t1, err);
    if (c->small < na)
        return nb_hermite4_too_small(s, h->active[c->small], h->crit[c->small], t1, err);
    if (na == s->p.n)                       /* block order = index order */
        sync_potential(s, h, t1);
    if (s->par.shared_dt)
        return shared_steps(s, h, t1, err);
    s->t_next = c->next;
    return NB_OK;
}

/* GAJ of the block in the pieces the backend cuts it into, each corrected
 * as soon as it is back while the device computes the pieces after it.
 * The wall time from the queueing to the last piece's arrival counts as
 * backend time: the corrector's work inside it is hidden behind the
 * device's, and only the last piece's shows in t_host. */
static enum nb_status evaluate_in_pieces(struct nb_sim *s, struct hermite4 *h, double t1,
                                         struct corrected *c, struct split *sp,
                                         struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    double t0 = nb_clock_seconds();
    size_t done = 0, first, count;
    int pieces;
    enum nb_status st = b->compute_gaj_pieces(b->state, s->par.eps, h->n_active,
                                              h->active, &pieces, err);

    for (int k = 0; st == NB_OK && k < pieces; k++) {
        st = b->read_gaj_piece(b->state, k, h->ba, h->bj, h->bpot, &first, &count, err);
        if (k == pieces - 1)
            sp->wall += nb_clock_seconds() - t0;
        if (st == NB_OK && (first != done || count > h->n_active - done))
            st = nb_error_set(err, NB_ERR_GL, "GAJ piece %d of %d: block slots "
                              "%zu..%zu, expected from %zu", k, pieces, first,
                              first + count, done);
        if (st == NB_OK)
            correct_slots(s, h, first, first + count, t1, c);
        done += count;
    }
    if (st == NB_OK && done != h->n_active)
        st = nb_error_set(err, NB_ERR_GL, "GAJ pieces: %zu of the block's %zu "
                          "slots", done, h->n_active);
    if (st == NB_OK)
        sp->device += b->last_seconds(b->state);
    return st;
}

/* GAJ of the block at t1 and its correction: in pieces where the backend
 * cuts blocks (and no j-parallel partition sums them), else whole. */
static enum nb_status evaluate_and_correct(struct nb_sim *s, struct hermite4 *h,
                                           double t1, double rest, struct split *sp,
                                           struct nb_error *err)
{
    struct nb_force_backend *b = s->backend;
    struct corrected c = { h->n_active, h->n_active, rest };
    enum nb_status st;

    if (b->compute_gaj_pieces && b->partition.ranks == 0) {
        st = evaluate_in_pieces(s, h, t1, &c, sp, err);
    } else {
        st = evaluate(s, h, sp, err);
        if (st == NB_OK)
            correct_slots(s, h, 0, h->n_active, t1, &c);
    }
    return st == NB_OK ? finish_block(s, h, t1, &c, err) : st;
}

static void add_split(struct nb_sim *s, double wall0, const struct split *sp)
{
    s->stats.t_host += nb_clock_seconds() - wall0 - sp->wall;
    s->stats.t_force += sp->device;
    s->stats.t_comm += sp->wall - sp->device - sp->reduce;
    s->stats.t_reduce += sp->reduce;
}

static enum nb_status hermite_step(struct nb_sim *s, void *state, struct nb_error *err)
{
    struct hermite4 *h = state;
    struct split sp = {0.0, 0.0, 0.0};
    double wall0 = nb_clock_seconds(), t1 = s->t_next;
    int on_device = s->par.predict == NB_PREDICT_GPU;
    /* The device predicts while the host finds the block (and predicts
     * it for its corrector); where the device corrects, it finds it too. */
    enum nb_status st = on_device ? feed_j(s, h, t1, &sp, err) : NB_OK;

    if (st == NB_OK && h->device_corrects) {
        st = nb_hermite4_device_block(s, h, t1, &sp, err);
    } else if (st == NB_OK) {
        double rest = collect_block(s, h, t1, on_device);

        if (!on_device)
            st = feed_j(s, h, t1, &sp, err);
        if (st == NB_OK)
            st = evaluate_and_correct(s, h, t1, rest, &sp, err);
        if (st == NB_OK && on_device)
            st = push_block(s, h, &sp, err);
    }
    if (st == NB_OK) {
        s->t = t1;
        s->stats.block_steps++;
        s->stats.particle_steps += h->n_active;
    }
    add_split(s, wall0, &sp);
    return st;
}

/* ---- start ------------------------------------------------------------- */

/* Forces on everyone at t = 0 from the exact initial state, and eq. 2. */
static enum nb_status initial_forces(struct nb_sim *s, struct hermite4 *h,
                                     struct split *sp, struct nb_error *err)
{
    size_t n = s->p.n;
    double t0 = nb_clock_seconds();
    enum nb_status st;

    h->n_active = n;
    #pragma omp parallel for schedule(static) if (n > ALL_N_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++) {
        memcpy(&h->xp[3 * i], &s->p.x[3 * i], 3 * sizeof(double));  /* prediction to 0 */
        h->active[i] = (uint32_t)i;
    }
    st = s->backend->set_j(s->backend->state, n, s->p.x, s->p.v, s->p.m,
                           err);
    sp->wall += nb_clock_seconds() - t0;
    if (st == NB_OK)
        st = evaluate(s, h, sp, err);
    if (st != NB_OK)
        return st;
    #pragma omp parallel for schedule(static) if (n > ALL_N_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++) {
        memcpy(&h->a[3 * i], &h->ba[3 * i], 3 * sizeof(double));
        memcpy(&h->jerk[3 * i], &h->bj[3 * i], 3 * sizeof(double));
        h->crit[i] = nb_step_initial_criterion(s->par.eta, &h->a[3 * i],
                                               &h->jerk[3 * i], h->bpot[i]);
    }
    sync_potential(s, h, 0.0);
    return NB_OK;
}

/* First steps: each its own, or everyone the smallest (shared_dt).  The
 * first particle with a non-finite force or a step below the floor is
 * reported, whatever the threads. */
static enum nb_status first_steps(struct nb_sim *s, struct hermite4 *h,
                                  struct nb_error *err)
{
    size_t worst = smallest_criterion(h), n = s->p.n, bad = n;
    double next = INFINITY;

    #pragma omp parallel for schedule(static) reduction(min : bad, next) \
        if (n > ALL_N_PARALLEL_MIN)
    for (size_t i = 0; i < n; i++) {
        double crit = s->par.shared_dt ? h->crit[worst] : h->crit[i];
        double dt = nb_step_first(crit, s->par.dt_max);

        s->t0[i] = 0.0;
        if (!isfinite(h->a[3 * i]) || !isfinite(h->a[3 * i + 1]) ||
            !isfinite(h->a[3 * i + 2]) || dt < NB_DT_FLOOR) {
            bad = i < bad ? i : bad;
            continue;
        }
        nb_hermite4_set_step(s, h, i, dt);
        next = dt < next ? dt : next;
    }
    if (bad < n) {
        const double *a = &h->a[3 * bad];
        if (!isfinite(a[0]) || !isfinite(a[1]) || !isfinite(a[2]))
            return nb_hermite4_not_finite(s, bad, 0.0, err);
        return nb_hermite4_too_small(s, s->par.shared_dt ? worst : bad,
                                     s->par.shared_dt ? h->crit[worst] : h->crit[bad], 0.0,
                                     err);
    }
    s->t_next = next;
    return NB_OK;
}

/* The backend's own copy of the state (--predict gpu). */
static enum nb_status load_state(struct nb_sim *s, struct hermite4 *h,
                                 struct split *sp, struct nb_error *err)
{
    double t0 = nb_clock_seconds();
    enum nb_status st = s->backend->load_state(
        s->backend->state, s->p.n, s->p.x, s->p.v, h->a, h->jerk, s->t0,
        s->p.m, err);

    sp->wall += nb_clock_seconds() - t0;
    return st;
}

static enum nb_status hermite_create(struct nb_sim *s, void **state,
                                     struct nb_error *err)
{
    struct split sp = {0.0, 0.0, 0.0};
    double wall0 = nb_clock_seconds();
    struct hermite4 *h = hermite_alloc(s->p.n, err);
    enum nb_status st;

    *state = h;
    if (!h)
        return NB_ERR_NOMEM;
    h->device_corrects = s->par.correct_gpu;
    h->prepare_steps = s->par.predict == NB_PREDICT_GPU;
    st = initial_forces(s, h, &sp, err);
    if (st == NB_OK)
        st = first_steps(s, h, err);
    if (st == NB_OK && s->par.predict == NB_PREDICT_GPU)
        st = load_state(s, h, &sp, err);
    if (st == NB_OK && h->device_corrects)
        st = nb_hermite4_device_load(s, h, &sp, err);
    s->t = 0.0;
    add_split(s, wall0, &sp);
    return st;
}

/* ---- checkpoints ------------------------------------------------------- */

/* a, jerk, a2 and a3 at each particle's own t0: with x, v, t0 and dt (the
 * sim's) the whole state; xp, vp and the block arrays are rebuilt by
 * every step before they are read. */
static enum nb_status hermite_save(const struct nb_sim *s, const void *state,
                                   struct nb_ckpt *c, struct nb_error *err)
{
    const struct hermite4 *h = state;
    size_t bytes = 3 * s->p.n * sizeof(double);
    /* nb_sim's save synced them first (hermite_sync) */

    if (nb_ckpt_put(c, "HACC", h->a, bytes, err) != NB_OK ||
        nb_ckpt_put(c, "HJRK", h->jerk, bytes, err) != NB_OK ||
        nb_ckpt_put(c, "HAC2", h->a2, bytes, err) != NB_OK ||
        nb_ckpt_put(c, "HAC3", h->a3, bytes, err) != NB_OK)
        return err->status;
    return NB_OK;
}

static enum nb_status hermite_restore(struct nb_sim *s, void **state,
                                      const struct nb_ckpt *c, const char *name,
                                      struct nb_error *err)
{
    struct split sp = {0.0, 0.0, 0.0};
    double wall0 = nb_clock_seconds();
    struct hermite4 *h = hermite_alloc(s->p.n, err);
    size_t bytes = 3 * s->p.n * sizeof(double);

    *state = h;
    if (!h)
        return NB_ERR_NOMEM;
    if (nb_ckpt_get(c, name, "HACC", h->a, bytes, err) != NB_OK ||
        nb_ckpt_get(c, name, "HJRK", h->jerk, bytes, err) != NB_OK ||
        nb_ckpt_get(c, name, "HAC2", h->a2, bytes, err) != NB_OK ||
        nb_ckpt_get(c, name, "HAC3", h->a3, bytes, err) != NB_OK)
        return err->status;
    for (size_t k = 0; k < 3 * s->p.n; k++)
        if (!isfinite(h->a[k]) || !isfinite(h->jerk[k]) || !isfinite(h->a2[k]) ||
            !isfinite(h->a3[k]))
            return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: "
                                "particle index %zu has a non-finite acceleration "
                                "or derivative", name, k / 3);
    for (size_t i = 0; i < s->p.n; i++)     /* steps checked by nb_sim_restore */
        nb_hermite4_set_step(s, h, i, s->dt[i]);
    /* The device copy is what load_state and every update_state since
     * would have left: the same x, v, a, jerk and t0 of each particle. */
    h->device_corrects = s->par.correct_gpu;
    if (s->par.predict == NB_PREDICT_GPU && load_state(s, h, &sp, err) != NB_OK)
        return err->status;
    if (h->device_corrects && nb_hermite4_device_load(s, h, &sp, err) != NB_OK)
        return err->status;
    add_split(s, wall0, &sp);
    return NB_OK;
}

/* The host's copy of the state, where the device corrects (the rest of
 * the state is the host's own). */
static enum nb_status hermite_sync(const struct nb_sim *s, void *state, struct nb_error *err)
{
    return nb_hermite4_device_sync(s, state, err);
}

const struct nb_integrator nb_integrator_hermite4 = {
    .name = "hermite4",
    .create = hermite_create,
    .step = hermite_step,
    .sync = hermite_sync,
    .predict = hermite_predict,
    .free = hermite_free,
    .save = hermite_save,
    .restore = hermite_restore,
};
