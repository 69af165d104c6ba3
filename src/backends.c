/* backends.c - the factory: the one table of engine names, and a force
 * backend or an MD engine of each.  It only creates; what the pipelines
 * share lives in gl_buffers.c.  Both families answer to the same names
 * (cpu, compute, fragment), and the GL ones get their context made
 * current first. */
#include <string.h>

#include "gl_internal.h"

static const char *const engine_names[NB_ENGINE_COUNT] = { "cpu", "compute", "fragment" };

enum nb_status nb_engine_parse(const char *name, enum nb_engine *engine,
                               struct nb_error *err)
{
    for (int k = 0; k < NB_ENGINE_COUNT; k++)
        if (strcmp(name, engine_names[k]) == 0) {
            if (engine)
                *engine = (enum nb_engine)k;
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "unknown backend '%s' (cpu, compute or "
                        "fragment)", name);
}

const char *nb_engine_name(enum nb_engine engine)
{
    return engine < NB_ENGINE_COUNT ? engine_names[engine] : "none";
}

int nb_engine_needs_gl(enum nb_engine engine)
{
    return engine != NB_ENGINE_CPU;
}

/* The context of a GL engine, made current; `family` names the caller in
 * the refusal. */
static enum nb_status engine_context(enum nb_engine engine, const char *family,
                                     struct nb_gl *gl, struct nb_error *err)
{
    if (engine >= NB_ENGINE_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "%s: no engine %d", family, (int)engine);
    if (!nb_engine_needs_gl(engine))
        return NB_OK;
    if (!gl)
        return nb_error_set(err, NB_ERR_ARGS, "%s %s needs a GL context", family,
                            engine_names[engine]);
    if (nb_gl_make_current(gl, err) != NB_OK)
        return err->status;
    /* What the API level lacks is refused here, in one line naming it. */
    if (engine == NB_ENGINE_COMPUTE)
        return nb_gl_require(gl, "compute", 43, 31, err);
    return nb_gl_require_float_targets(gl, "the fragment pipeline", err);
}

#ifdef NB_GL_NO_COMPUTE
/* engine_context refuses compute on these levels first. */
#define nb_backend_compute_create(b, gl, err) \
    nb_gl_require(gl, "compute", 43, 31, err)
#define nb_md_engine_compute_create(e, gl, err) \
    nb_gl_require(gl, "compute", 43, 31, err)
#endif

enum nb_status nb_backend_create_engine(struct nb_force_backend *b, enum nb_engine engine,
                                        struct nb_gl *gl, struct nb_error *err)
{
    if (engine_context(engine, "backend", gl, err) != NB_OK)
        return err->status;
    return engine == NB_ENGINE_CPU ? nb_backend_cpu_create(b, err)
         : engine == NB_ENGINE_COMPUTE ? nb_backend_compute_create(b, gl, err)
         : nb_backend_fragment_create(b, gl, err);
}

enum nb_status nb_md_engine_create_engine(struct nb_md_engine *e, enum nb_engine engine,
                                          struct nb_gl *gl, struct nb_error *err)
{
    if (engine_context(engine, "MD engine", gl, err) != NB_OK)
        return err->status;
    return engine == NB_ENGINE_CPU ? nb_md_engine_cpu_create(e, err)
         : engine == NB_ENGINE_COMPUTE ? nb_md_engine_compute_create(e, gl, err)
         : nb_md_engine_fragment_create(e, gl, err);
}

enum nb_status nb_backend_create(struct nb_force_backend *b, const char *name,
                                 struct nb_gl *gl, struct nb_error *err)
{
    enum nb_engine engine = NB_ENGINE_COUNT;
    if (nb_engine_parse(name, &engine, err) != NB_OK)
        return err->status;
    return nb_backend_create_engine(b, engine, gl, err);
}

enum nb_status nb_md_engine_create(struct nb_md_engine *e, const char *name,
                                   struct nb_gl *gl, struct nb_error *err)
{
    enum nb_engine engine = NB_ENGINE_COUNT;
    if (nb_engine_parse(name, &engine, err) != NB_OK)
        return err->status;
    return nb_md_engine_create_engine(e, engine, gl, err);
}
