/* backends.c - the factory: a force backend or an MD engine by name.  It
 * only creates; what the pipelines share lives in gl_buffers.c.  Both
 * families answer to the same names (cpu, compute, fragment), so one table
 * serves both, and the GL ones get their context made current first. */
#include <string.h>

#include "gl_internal.h"

enum engine_kind { ENGINE_CPU, ENGINE_COMPUTE, ENGINE_FRAGMENT, ENGINE_KIND_COUNT };

static const char *const engine_names[ENGINE_KIND_COUNT] = { "cpu", "compute", "fragment" };

/* How a family names itself in its errors. */
struct engine_family {
    const char *unknown;        /* "unknown <unknown> 'name'" */
    const char *needs_gl;       /* "<needs_gl> name needs a GL context" */
};

/* The kind called name, its GL context current where it needs one. */
static enum nb_status find_kind(const struct engine_family *family, const char *name,
                                struct nb_gl *gl, enum engine_kind *kind,
                                struct nb_error *err)
{
    int k = 0;
    while (k < ENGINE_KIND_COUNT && strcmp(name, engine_names[k]) != 0)
        k++;
    if (k == ENGINE_KIND_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "unknown %s '%s' (cpu, compute or "
                            "fragment)", family->unknown, name);
    *kind = (enum engine_kind)k;
    if (*kind == ENGINE_CPU)
        return NB_OK;
    if (!gl)
        return nb_error_set(err, NB_ERR_ARGS, "%s %s needs a GL context",
                            family->needs_gl, name);
    return nb_gl_make_current(gl, err);
}

enum nb_status nb_backend_create(struct nb_force_backend *b, const char *name,
                                 struct nb_gl *gl, struct nb_error *err)
{
    static const struct engine_family family = { "backend", "backend" };
    enum engine_kind kind;
    if (find_kind(&family, name, gl, &kind, err) != NB_OK)
        return err->status;
    return kind == ENGINE_CPU ? nb_backend_cpu_create(b, err)
         : kind == ENGINE_COMPUTE ? nb_backend_compute_create(b, gl, err)
         : nb_backend_fragment_create(b, gl, err);
}

enum nb_status nb_md_engine_create(struct nb_md_engine *e, const char *name,
                                   struct nb_gl *gl, struct nb_error *err)
{
    static const struct engine_family family = { "MD backend", "MD engine" };
    enum engine_kind kind;
    if (find_kind(&family, name, gl, &kind, err) != NB_OK)
        return err->status;
    return kind == ENGINE_CPU ? nb_md_engine_cpu_create(e, err)
         : kind == ENGINE_COMPUTE ? nb_md_engine_compute_create(e, gl, err)
         : nb_md_engine_fragment_create(e, gl, err);
}
