/* md_sim_checkpoint.c - an MD run saved and continued bit for bit.
 *
 * Velocity Verlet carries x and v from step to step; the forces are a
 * function of x, so a restart re-evaluates them and gets the very numbers
 * the saved run held.  Saved: x and v in double (the host's state, or the
 * device's double state fetched), the step, dt, the box, the potential
 * with its type table, types, masses, charges, ids, the excluded pairs,
 * and the scales a scaled accumulation mode measured at load (which a new
 * measurement at the restart's positions would not reproduce).
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The scalars, doubles and 64-bit integers only (no padding). */
struct md_scalars {
    double dt, lo[3], hi[3];
    uint64_t step, periodic[3], has_q, n_excluded, has_scales;
    int64_t scales[2];
};

enum nb_status nb_md_sim_checkpoint(struct nb_md_sim *s, const int64_t *ids, int has_q,
                                    struct nb_ckpt *c, struct nb_error *err)
{
    size_t n = s->n;
    int scales[2] = { 0, 0 };
    struct md_scalars sc = { .dt = s->dt, .step = s->step, .has_q = has_q != 0,
                             .n_excluded = s->sys.n_excluded };
    struct nb_md_potential pot;

    if (nb_md_sim_sync(s, err) != NB_OK)
        return err->status;
    for (int a = 0; a < 3; a++) {
        sc.lo[a] = s->box.lo[a];
        sc.hi[a] = s->box.hi[a];
        sc.periodic[a] = (uint64_t)s->box.periodic[a];
    }
    if (s->engine && s->engine->get_scales && s->engine->get_scales(s->engine->state, scales)) {
        sc.has_scales = 1;
        sc.scales[0] = scales[0];
        sc.scales[1] = scales[1];
    }
    int32_t *types = nb_alloc(n, sizeof *types, "checkpoint types", err);
    if (!types)
        return NB_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        types[i] = (int32_t)s->type[i];
    memset(&pot, 0, sizeof pot);        /* no stray bytes in the padding */
    pot.law = s->pot.law;
    pot.types = s->pot.types;
    memcpy(pot.sigmoid, s->pot.sigmoid, sizeof pot.sigmoid);
    pot.dielectric = s->pot.dielectric;
    pot.cutoff = s->pot.cutoff;
    pot.shift = s->pot.shift;
    enum nb_status st = NB_OK;
    if (nb_ckpt_put(c, "MDSC", &sc, sizeof sc, err) != NB_OK ||
        nb_ckpt_put(c, "MDPT", &pot, sizeof pot, err) != NB_OK ||
        nb_ckpt_put(c, "PID ", ids, n * sizeof *ids, err) != NB_OK ||
        nb_ckpt_put(c, "TYPE", types, n * sizeof *types, err) != NB_OK ||
        nb_ckpt_put(c, "MASS", s->m, n * sizeof *s->m, err) != NB_OK ||
        nb_ckpt_put(c, "CHRG", s->q, n * sizeof *s->q, err) != NB_OK ||
        nb_ckpt_put(c, "POS ", s->x, 3 * n * sizeof *s->x, err) != NB_OK ||
        nb_ckpt_put(c, "VEL ", s->v, 3 * n * sizeof *s->v, err) != NB_OK ||
        nb_ckpt_put(c, "EXCL", s->sys.excluded, 2 * s->sys.n_excluded *
                    sizeof *s->sys.excluded, err) != NB_OK)
        st = err->status;
    free(types);
    return st;
}

static enum nb_status unusable(const char *name, const char *why, struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s: not a usable checkpoint: %s", name, why);
}

static enum nb_status read_arrays(const struct nb_ckpt *c, const char *name,
                                  struct nb_md_saved *m, int has_q, struct nb_error *err)
{
    size_t n = m->p.n;
    int32_t *types = nb_alloc(n, sizeof *types, "checkpoint types", err);
    enum nb_status st;

    if (!types)
        return NB_ERR_NOMEM;
    st = nb_ckpt_get(c, name, "TYPE", types, n * sizeof *types, err);
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        if (types[i] < 1 || types[i] > m->pot.types.count)
            st = unusable(name, "a particle type is outside the type table", err);
        m->p.type[i] = types[i];
    }
    free(types);
    if (st != NB_OK ||
        nb_ckpt_get(c, name, "PID ", m->p.id, n * sizeof *m->p.id, err) != NB_OK ||
        nb_ckpt_get(c, name, "MASS", m->p.m, n * sizeof *m->p.m, err) != NB_OK ||
        nb_ckpt_get(c, name, "CHRG", m->p.q, n * sizeof *m->p.q, err) != NB_OK ||
        nb_ckpt_get(c, name, "POS ", m->p.x, 3 * n * sizeof *m->p.x, err) != NB_OK ||
        nb_ckpt_get(c, name, "VEL ", m->p.v, 3 * n * sizeof *m->p.v, err) != NB_OK ||
        nb_ckpt_get(c, name, "EXCL", m->excluded, 2 * m->n_excluded * sizeof *m->excluded,
                    err) != NB_OK)
        return err->status;
    for (size_t i = 0; i < n; i++)
        if (!(m->p.m[i] > 0.0) || !isfinite(m->p.m[i]) || !isfinite(m->p.q[i]))
            return unusable(name, "a mass is not positive or a charge not finite", err);
    for (size_t k = 0; k < 3 * n; k++)
        if (!isfinite(m->p.x[k]) || !isfinite(m->p.v[k]))
            return unusable(name, "a position or velocity is not finite", err);
    for (size_t k = 0; k < 2 * m->n_excluded; k++)
        if (m->excluded[k] >= n)
            return unusable(name, "an excluded pair names a particle that is not there",
                            err);
    if (!has_q) {
        free(m->p.q);
        m->p.q = NULL;
    }
    return NB_OK;
}

enum nb_status nb_md_saved_read(const struct nb_ckpt *c, const char *name,
                                struct nb_md_saved *m, struct nb_error *err)
{
    struct md_scalars sc;

    memset(m, 0, sizeof *m);
    if (nb_ckpt_get(c, name, "MDSC", &sc, sizeof sc, err) != NB_OK ||
        nb_ckpt_get(c, name, "MDPT", &m->pot, sizeof m->pot, err) != NB_OK)
        return err->status;
    if (c->n == 0 || c->n > UINT32_MAX || sc.n_excluded > c->n * (c->n - 1) / 2)
        return unusable(name, "the particle or excluded-pair count is out of range", err);
    if ((unsigned)m->pot.law >= NB_LAW_COUNT || m->pot.types.count < 1 ||
        m->pot.types.count > NB_MD_MAX_TYPES || nb_md_potential_check(&m->pot, err) != NB_OK)
        return unusable(name, "the force law or its coefficients are out of range", err);
    if (!(sc.dt > 0.0) || !isfinite(sc.dt))
        return unusable(name, "the time step is not a finite number > 0", err);
    m->dt = sc.dt;
    m->step = sc.step;
    m->has_scales = sc.has_scales != 0;
    m->scales[0] = (int)sc.scales[0];
    m->scales[1] = (int)sc.scales[1];
    for (int a = 0; a < 3; a++) {
        m->box.lo[a] = sc.lo[a];
        m->box.hi[a] = sc.hi[a];
        m->box.periodic[a] = sc.periodic[a] != 0;
    }
    m->n_excluded = (size_t)sc.n_excluded;
    size_t n = (size_t)c->n;
    /* The counts are trusted only once the file holds that much. */
    if (nb_ckpt_get(c, name, "POS ", NULL, 3 * n * sizeof(double), err) != NB_OK ||
        nb_ckpt_get(c, name, "EXCL", NULL, 2 * m->n_excluded * sizeof *m->excluded,
                    err) != NB_OK)
        return err->status;
    if (nb_particles_alloc(&m->p, n, err) != NB_OK ||
        !(m->p.type = nb_alloc(n, sizeof *m->p.type, "checkpoint types", err)) ||
        !(m->p.q = nb_alloc(n, sizeof *m->p.q, "checkpoint charges", err)) ||
        !(m->excluded = nb_alloc(2 * m->n_excluded + 1, sizeof *m->excluded,
                                 "excluded pairs", err)))
        return NB_ERR_NOMEM;
    return read_arrays(c, name, m, sc.has_q != 0, err);
}

void nb_md_saved_free(struct nb_md_saved *m)
{
    nb_particles_free(&m->p);
    free(m->excluded);
    memset(m, 0, sizeof *m);
}
