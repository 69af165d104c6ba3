/* shader.c - builds the catalogue's programs from GLSL files or SPIR-V.
 *
 * A stage's source is a list of strings: the prelude of the context's API
 * level (the #version line, `precision highp` on ES, the macros
 * NB_LOCATION, NB_BINDING and NB_VARYING, stand-ins for fma and precise
 * below GLSL 4.00 / ES 3.20, and the constants host/ owns), the program's
 * defines, glsl/nb_config.h and the stage's files, each file preceded by
 * "#line 1 K" so that a driver's log ("K:LINE" or "K(LINE)") points into
 * source K; errors list which K is which file.  One text per kernel: the
 * prelude is the only thing that differs between levels. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

/* The constants that host/ owns (host/ cannot include glsl/nb_config.h),
 * spelled from their C definitions. */
#define NB_STRINGIFY(x) #x
#define NB_SPELL(x) NB_STRINGIFY(x)
#define NB_HOST_CONSTANTS "#define NB_MD_MAX_TYPES " NB_SPELL(NB_MD_MAX_TYPES) "\n"
#define NB_MAX_SOURCES (4 + 2 * NB_PROGRAM_FILES)   /* prelude, defines, nb_config.h, files */
#define NB_PRELUDE_SIZE 1024

/* What the prelude of a GLSL level declares. */
static const char explicit_layouts[] =
    "#define NB_LOCATION(n) layout(location = n)\n"
    "#define NB_BINDING(n) layout(binding = n)\n";
static const char named_layouts[] =         /* looked up by name (nb_gl_loc) */
    "#define NB_LOCATION(n)\n"
    "#define NB_BINDING(n)\n";
static const char es_precision[] =
    "precision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
    "precision highp isampler2D;\nprecision highp usampler2D;\n";
/* fma() and `precise` came with GLSL 4.00 and ES 3.20; before them the
 * kernels' multiply-adds are plain (the compilers do not fuse across the
 * error-free transformations of accumulate.glsl without fast-math). */
static const char before_fma[] =
    "#define fma(a, b, c) ((a) * (b) + (c))\n"
    "#define precise\n"
    "uniform float nb_exact_one;\n"       /* 1.0, set at the build (shader.c) */
    "#define NB_EXACT(x) ((x) * nb_exact_one)\n";
static const char with_precise[] = "#define NB_EXACT(x) (x)\n";

static void prelude(char *buf, size_t size, int es, int glsl)
{
    int explicit_ok = es ? glsl >= 310 : glsl >= 430;
    int varyings_ok = es ? glsl >= 310 : glsl >= 410;
    int fma_ok = es ? glsl >= 320 : glsl >= 400;
    snprintf(buf, size, "#version %d %s\n%s%s%s%s#define NB_GLSL_ES %d\n%s", glsl,
             es ? "es" : "core", es ? es_precision : "",
             explicit_ok ? explicit_layouts : named_layouts,
             varyings_ok ? "#define NB_VARYING(n) layout(location = n)\n"
                         : "#define NB_VARYING(n)\n",
             fma_ok ? with_precise : before_fma, es, NB_HOST_CONSTANTS);
}

struct stage_source {
    char prelude[NB_PRELUDE_SIZE];
    const char *strings[NB_MAX_SOURCES];
    char *owned[NB_MAX_SOURCES];        /* file contents and #line lines */
    char files[NB_MAX_SOURCES][64];     /* source K -> file, for messages */
    int count;
};

static char *read_file(const char *path, size_t *size, struct nb_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *data = NULL;
    long len = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    if (len >= 0 && fseek(fp, 0, SEEK_SET) == 0)
        data = nb_alloc((size_t)len + 1, 1, path, err);
    if (data && fread(data, 1, (size_t)len, fp) != (size_t)len) {
        nb_error_set(err, NB_ERR_IO, "%s: read error", path);
        free(data);
        data = NULL;
    } else if (!data && len < 0) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    }
    fclose(fp);
    if (data) {
        data[len] = '\0';
        *size = (size_t)len;
    }
    return data;
}

static void stage_source_free(struct stage_source *s)
{
    for (int k = 0; k < s->count; k++)
        free(s->owned[k]);
    s->count = 0;
}

static int push(struct stage_source *s, const char *str, char *owned)
{
    s->strings[s->count] = str;
    s->owned[s->count] = owned;
    return s->count++;
}

static enum nb_status push_file(struct stage_source *s, const char *dir,
                                const char *file, struct nb_error *err)
{
    char path[4096], line[64];
    size_t size;
    snprintf(path, sizeof path, "%s/glsl/%s", dir, file);
    char *text = read_file(path, &size, err);
    if (!text)
        return err->status;
    snprintf(line, sizeof line, "#line 1 %d\n", s->count + 1);
    char *directive = strdup(line);
    if (!directive) {
        free(text);
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    }
    push(s, directive, directive);
    snprintf(s->files[s->count], sizeof s->files[0], "glsl/%s", file);
    push(s, text, text);
    return NB_OK;
}

/* Assembles a stage's strings at a GLSL level (es, glsl: 430 core is
 * SPIR-V's); files[K] names what string K came from. */
static enum nb_status stage_source_build(struct stage_source *s,
                                         const struct nb_program_desc *desc,
                                         enum nb_stage stage, const char *dir, int es,
                                         int glsl, struct nb_error *err)
{
    const char *const *files = stage == NB_STAGE_VERTEX ? desc->vertex : desc->main;
    memset(s, 0, sizeof *s);
    prelude(s->prelude, sizeof s->prelude, es, glsl);
    push(s, s->prelude, NULL);
    snprintf(s->files[s->count], sizeof s->files[0], "(defines of %s)", desc->name);
    push(s, desc->defines, NULL);
    if (push_file(s, dir, "nb_config.h", err) != NB_OK)
        goto fail;
    for (int f = 0; f < NB_PROGRAM_FILES && files[f]; f++)
        if (push_file(s, dir, files[f], err) != NB_OK)
            goto fail;
    return NB_OK;
fail:
    stage_source_free(s);
    return err->status;
}

enum nb_status nb_gl_program_emit(const struct nb_program_desc *desc,
                                  enum nb_stage stage, const char *shader_dir,
                                  FILE *out, struct nb_error *err)
{
    struct stage_source s;
    if (stage_source_build(&s, desc, stage, shader_dir, 0, 430, err) != NB_OK)
        return err->status;
    for (int k = 0; k < s.count; k++)
        fputs(s.strings[k], out);
    stage_source_free(&s);
    return ferror(out) ? nb_error_set(err, NB_ERR_IO, "write error") : NB_OK;
}

static GLenum gl_stage(enum nb_stage stage)
{
    return stage == NB_STAGE_VERTEX ? GL_VERTEX_SHADER
         : stage == NB_STAGE_FRAGMENT ? GL_FRAGMENT_SHADER : GL_COMPUTE_SHADER;
}

/* A driver's log on one line: its newlines (several errors) become ";",
 * trailing ones go. */
static void one_line(char *log)
{
    size_t len = strlen(log);
    while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == '\r' || log[len - 1] == ' '))
        log[--len] = '\0';
    for (char *c = log; (c = strchr(c, '\n')) != NULL;)
        *c = ';';
}

static enum nb_status compile_failed(GLuint shader, const char *name,
                                     const char *origin, struct nb_error *err)
{
    char log[768] = "";
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    one_line(log);
    glDeleteShader(shader);
    return nb_error_set(err, NB_ERR_GL, "program %s: %s failed to compile: %s",
                        name, origin, log[0] ? log : "(the driver gave no log)");
}

/* Compiles a stage at gl's level; where the level has no explicit
 * locations, the stage's NB_LOCATION / NB_BINDING uniforms go into names. */
static enum nb_status compile_glsl(const struct nb_gl *gl, const struct nb_program_desc *desc,
                                   enum nb_stage stage, struct nb_gl_names *names,
                                   GLuint *out, struct nb_error *err)
{
    struct stage_source s;
    if (stage_source_build(&s, desc, stage, gl->shader_dir, gl->es, gl->glsl, err) != NB_OK)
        return err->status;
    if (names)
        nb_gl_names_scan(names, s.strings, s.count);
    GLuint shader = glCreateShader(gl_stage(stage));
    glShaderSource(shader, s.count, s.strings, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char origin[512] = "", *p = origin;
        for (int k = 1; k < s.count; k++)
            if (s.files[k][0])
                p += snprintf(p, (size_t)(origin + sizeof origin - p), "%s%d=%s",
                              p == origin ? "sources " : ", ", k, s.files[k]);
        stage_source_free(&s);
        return compile_failed(shader, desc->name, origin, err);
    }
    stage_source_free(&s);
    *out = shader;
    return NB_OK;
}

static enum nb_status load_spirv(const struct nb_program_desc *desc,
                                 enum nb_stage stage, const char *dir,
                                 GLuint *out, struct nb_error *err)
{
    char path[4096];
    size_t size;
    snprintf(path, sizeof path, "%s/spirv/%s.%s.spv", dir, desc->name,
             nb_gl_stage_extension(stage));
    char *binary = read_file(path, &size, err);
    if (!binary)
        return err->status;
    if (nb_gl_spirv_check(dir, path, (const unsigned char *)binary, size, err) != NB_OK) {
        free(binary);
        return err->status;
    }
    GLuint shader = glCreateShader(gl_stage(stage));
    glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V_ARB, binary, (GLsizei)size);
    free(binary);
    if (epoxy_has_gl_extension("GL_ARB_gl_spirv"))
        glSpecializeShaderARB(shader, "main", 0, NULL, NULL);
    else
        glSpecializeShader(shader, "main", 0, NULL, NULL);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok)
        return compile_failed(shader, desc->name, path, err);
    *out = shader;
    return NB_OK;
}

static enum nb_status link_program(const char *name, const GLuint *shaders,
                                   int count, GLuint *out, struct nb_error *err)
{
    GLuint program = glCreateProgram();
    for (int k = 0; k < count; k++)
        glAttachShader(program, shaders[k]);
    glLinkProgram(program);
    for (int k = 0; k < count; k++)
        glDeleteShader(shaders[k]);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[768] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        one_line(log);
        glDeleteProgram(program);
        return nb_error_set(err, NB_ERR_GL, "program %s failed to link: %s", name, log);
    }
    *out = program;
    return NB_OK;
}

static enum nb_status build(struct nb_gl *gl, const struct nb_program_desc *desc,
                            int spirv, struct nb_gl_names *names, GLuint *program,
                            struct nb_error *err)
{
    enum nb_stage stages[2] = { NB_STAGE_VERTEX, desc->main_stage };
    GLuint shaders[2];
    int count = 0;
    if (desc->main_stage == NB_STAGE_COMPUTE &&
        nb_gl_require(gl, "compute", 43, 31, err) != NB_OK)
        return err->status;
    for (int k = desc->vertex[0] ? 0 : 1; k < 2; k++) {
        enum nb_status st = spirv
            ? load_spirv(desc, stages[k], gl->shader_dir, &shaders[count], err)
            : compile_glsl(gl, desc, stages[k], names, &shaders[count], err);
        if (st != NB_OK) {
            while (count > 0)
                glDeleteShader(shaders[--count]);
            return st;
        }
        count++;
    }
    return link_program(desc->name, shaders, count, program, err);
}

/* The explicit locations of program's active uniforms (a round of GL
 * queries); with a name map, the NB_LOC values whose uniform is active. */
static uint64_t active_uniforms(GLuint program, const GLint *loc)
{
    if (loc) {
        uint64_t mask = 0;
        for (int k = 0; k < NB_GL_MAX_LOCATIONS; k++)
            if (loc[k] >= 0)
                mask |= (uint64_t)1 << k;
        return mask;
    }
    static const GLenum props[1] = { GL_LOCATION };
    GLint count = 0;
    uint64_t mask = 0;
    glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &count);
    for (GLint k = 0; k < count; k++) {
        GLint location = -1;
        glGetProgramResourceiv(program, GL_UNIFORM, (GLuint)k, 1, props, 1, NULL, &location);
        if (location >= 0 && location < 64)
            mask |= (uint64_t)1 << location;
    }
    return mask;
}

/* The prelude's nb_exact_one (levels without `precise`) is 1.0 for good. */
static void set_exact_one(GLuint program)
{
    GLint at = glGetUniformLocation(program, "nb_exact_one"), previous = 0;
    if (at < 0)
        return;
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous);
    glUseProgram(program);
    glUniform1f(at, 1.0f);
    glUseProgram((GLuint)previous);
}

/* A SPIR-V program that failed (a damaged, stale or missing module) is
 * built from the GLSL source where SPIR-V was the automatic choice and the
 * context has explicit locations, which the SPIR-V path's uniform
 * locations rely on; the reason is printed once a program.  1 when that
 * worked. */
static int spirv_fallback(struct nb_gl *gl, const struct nb_program_desc *desc,
                          GLuint *built, struct nb_error *err)
{
    if (!gl->use_spirv || gl->spirv_only || !nb_gl_explicit_layouts(gl))
        return 0;
    fprintf(stderr, "glnbody: %s; program %s is compiled from its GLSL source "
            "instead\n", err->message, desc->name);
    struct nb_error glsl_err = { 0 };
    if (build(gl, desc, 0, NULL, built, &glsl_err) != NB_OK) {
        nb_error_copy(err, &glsl_err);
        return 0;
    }
    *err = (struct nb_error){ 0 };
    return 1;
}

enum nb_status nb_gl_program(struct nb_gl *gl, const char *name,
                             unsigned *program, struct nb_error *err)
{
    for (size_t k = 0; k < gl->program_count; k++)
        if (strcmp(gl->programs[k].name, name) == 0) {
            *program = gl->programs[k].program;
            return NB_OK;
        }
    const struct nb_program_desc *desc = nb_gl_program_find(name);
    if (!desc)
        return nb_error_set(err, NB_ERR_ARGS, "no shader program called %s", name);
    struct nb_gl_cached_program *grown =
        realloc(gl->programs, (gl->program_count + 1) * sizeof *grown);
    if (!grown)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    gl->programs = grown;
    GLuint built = 0;
    struct nb_gl_names names = { 0 };
    int by_name = !gl->use_spirv && !nb_gl_explicit_layouts(gl);
    if (build(gl, desc, gl->use_spirv, by_name ? &names : NULL, &built, err) != NB_OK &&
        !spirv_fallback(gl, desc, &built, err))
        return err->status;
    GLint *loc = NULL;
    if (by_name && !(loc = nb_gl_names_apply(&names, built, desc->name, err))) {
        glDeleteProgram(built);
        return err->status;
    }
    set_exact_one(built);
    gl->programs[gl->program_count++] =
        (struct nb_gl_cached_program){ desc->name, built, active_uniforms(built, loc), loc };
    *program = built;
    return NB_OK;
}

void nb_gl_compute_warm(struct nb_gl *gl, const char *name)
{
    GLuint prog = 0;
    struct nb_error ignored = { 0 };
    if (nb_gl_program(gl, name, &prog, &ignored) != NB_OK)
        return;
    glUseProgram(prog);
    glDispatchCompute(0, 1, 1);
}

uint64_t nb_gl_uniforms_of(const struct nb_gl *gl, GLuint program)
{
    for (size_t k = 0; k < gl->program_count; k++)
        if (gl->programs[k].program == program)
            return gl->programs[k].active;
    return 0;
}

void nb_gl_programs_release(struct nb_gl *gl)
{
    for (size_t k = 0; k < gl->program_count; k++) {
        glDeleteProgram(gl->programs[k].program);
        free(gl->programs[k].loc);
    }
    free(gl->programs);
    gl->programs = NULL;
    gl->program_count = 0;
}

uint64_t nb_gl_use_program(struct nb_gl *gl, const char *name)
{
    GLuint prog = 0;
    struct nb_error ignored;
    nb_gl_program(gl, name, &prog, &ignored);
    glUseProgram(prog);
    return nb_gl_uniforms_of(gl, prog);
}
