/* api_shaders.c - the shader catalogue of glnbody.h (section 6): the
 * programs the library can load, each stage assembled exactly as the GLSL
 * loader assembles it, for building SPIR-V ahead of time
 * (tools/scripts/build_spirv.sh through `glnbody shaders --emit`). */
#include <string.h>

#include "api_internal.h"

static const struct nb_program_desc *find(const char *program)
{
    return program ? nb_gl_program_find(program) : NULL;
}

const char *nb_shader_program(size_t k)
{
    const struct nb_program_desc *d = nb_gl_programs();
    for (size_t i = 0; d[i].name; i++)
        if (i == k)
            return d[i].name;
    return NULL;
}

int nb_shader_stages(const char *program)
{
    const struct nb_program_desc *d = find(program);
    return !d ? 0 : d->vertex[0] ? 2 : 1;
}

/* Stage s of d: the vertex stage first where it has one. */
static int stage_of(const struct nb_program_desc *d, int s, enum nb_stage *stage)
{
    if (s < 0 || s >= (d->vertex[0] ? 2 : 1))
        return 0;
    *stage = d->vertex[0] && s == 0 ? NB_STAGE_VERTEX : d->main_stage;
    return 1;
}

const char *nb_shader_extension(const char *program, int s)
{
    const struct nb_program_desc *d = find(program);
    enum nb_stage stage;
    if (!d || !stage_of(d, s, &stage))
        return NULL;
    return nb_gl_stage_extension(stage);
}

enum nb_status nb_shader_emit(const char *program, int s, const char *shader_dir, FILE *out,
                              struct nb_error *err)
{
    const char *func = "nb_shader_emit";
    const struct nb_program_desc *d = find(program);
    struct nb_gl_options opt;
    enum nb_stage stage;
    if (!d)
        return nb_error_set(err, NB_ERR_ARGS, "%s: no program '%s' (glnbody shaders "
                            "--list)", func, program ? program : "(null)");
    if (!stage_of(d, s, &stage))
        return nb_error_set(err, NB_ERR_ARGS, "%s: %s has no stage %d", func, d->name, s);
    if (!out)
        return nb_error_set(err, NB_ERR_ARGS, "%s: out is NULL", func);
    nb_gl_options_default(&opt);
    return nb_gl_program_emit(d, stage, shader_dir ? shader_dir : opt.shader_dir, out, err);
}
