/* shader_names.c - uniforms by name where the GLSL level has no explicit
 * layouts (OpenGL 3.3 to 4.2, OpenGL ES 3.0).
 *
 * The kernels declare their uniforms once, as
 *     NB_LOCATION(NB_LOC_EPS2) uniform float eps2;
 *     NB_BINDING(NB_UNIT_POS) uniform sampler2D pos;
 * The 4.3 / ES 3.1 prelude turns the macros into layout qualifiers (and
 * SPIR-V needs them); below, they vanish, and this file reads the same
 * declarations from the assembled source, so that after the link the
 * host finds each uniform by name: samplers get their units through
 * glUniform1i, and nb_gl_loc maps an NB_LOC_ constant to the linker's
 * location.  The source stays the one text of each kernel. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_internal.h"

#define NB_MAX_DEFINES 256

struct defines {
    char name[NB_MAX_DEFINES][48];
    long value[NB_MAX_DEFINES];
    int count;
};

int nb_gl_explicit_layouts(const struct nb_gl *gl)
{
    return gl->es ? gl->glsl >= 310 : gl->glsl >= 430;
}

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* An identifier at p into out (size bytes); the character after it. */
static const char *identifier(const char *p, char *out, size_t size)
{
    size_t n = 0;
    while (isalnum((unsigned char)*p) || *p == '_') {
        if (n + 1 < size)
            out[n++] = *p;
        p++;
    }
    out[n] = '\0';
    return p;
}

/* "#define NAME INTEGER" lines (a trailing comment allowed). */
static void collect_defines(struct defines *d, const char *text)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *p = skip_space(line);
        if (strncmp(p, "#define", 7) != 0 || (p[7] != ' ' && p[7] != '\t'))
            continue;
        char name[48];
        p = identifier(skip_space(p + 7), name, sizeof name);
        if (!name[0] || (*p != ' ' && *p != '\t'))
            continue;       /* a function-like macro or an empty one */
        char *end;
        long v = strtol(p, &end, 0);
        const char *rest = skip_space(end);
        if (end == skip_space(p) || (*rest && *rest != '\n' && *rest != '/' && *rest != '\r'))
            continue;
        if (d->count < NB_MAX_DEFINES) {
            snprintf(d->name[d->count], sizeof d->name[0], "%s", name);
            d->value[d->count++] = v;
        }
    }
}

static int lookup(const struct defines *d, const char *name, long *value)
{
    for (int k = d->count - 1; k >= 0; k--)
        if (strcmp(d->name[k], name) == 0) {
            *value = d->value[k];
            return 1;
        }
    char *end;
    *value = strtol(name, &end, 0);     /* a literal number */
    return name[0] && !*end;
}

/* One declaration after "MACRO(": "SYM) uniform TYPE NAME". */
static void declaration(struct nb_gl_names *names, const struct defines *d,
                        const char *p, int sampler)
{
    char sym[48], word[48], type[48], name[40];
    long value;
    p = identifier(skip_space(p), sym, sizeof sym);
    p = skip_space(p);
    if (*p != ')' || !lookup(d, sym, &value))
        return;         /* the prelude's own "#define NB_LOCATION(n)" */
    p = identifier(skip_space(p + 1), word, sizeof word);
    if (strcmp(word, "uniform") != 0)
        return;
    p = identifier(skip_space(p), type, sizeof type);
    identifier(skip_space(p), name, sizeof name);
    if (!name[0] || names->count >= NB_GL_MAX_NAMED)
        return;
    for (int k = 0; k < names->count; k++)      /* a name both stages declare */
        if (strcmp(names->u[k].name, name) == 0)
            return;
    struct nb_gl_named *u = &names->u[names->count++];
    snprintf(u->name, sizeof u->name, "%s", name);
    u->value = (int)value;
    u->sampler = sampler;
}

void nb_gl_names_scan(struct nb_gl_names *names, const char *const *strings, int count)
{
    static const char *const macros[2] = { "NB_LOCATION(", "NB_BINDING(" };
    struct defines *d = calloc(1, sizeof *d);
    if (!d)
        return;         /* the link then finds no names; nb_gl_names_apply reports */
    for (int k = 0; k < count; k++)
        collect_defines(d, strings[k]);
    for (int k = 0; k < count; k++)
        for (int m = 0; m < 2; m++)
            for (const char *p = strstr(strings[k], macros[m]); p;
                 p = strstr(p + 1, macros[m]))
                declaration(names, d, p + strlen(macros[m]), m == 1);
    free(d);
}

/* Binds sampler u (or each element of its array) to its units. */
static void bind_sampler(GLuint program, const struct nb_gl_named *u)
{
    GLint at = glGetUniformLocation(program, u->name);
    if (at >= 0)
        glUniform1i(at, u->value);
    char element[64];
    for (int k = 0; k < 16; k++) {
        snprintf(element, sizeof element, "%s[%d]", u->name, k);
        at = glGetUniformLocation(program, element);
        if (at < 0 && k > 0)
            break;
        if (at >= 0)
            glUniform1i(at, u->value + k);
    }
}

GLint *nb_gl_names_apply(const struct nb_gl_names *names, GLuint program,
                         const char *program_name, struct nb_error *err)
{
    GLint *loc = malloc(NB_GL_MAX_LOCATIONS * sizeof *loc);
    if (!loc) {
        nb_error_set(err, NB_ERR_NOMEM, "program %s: out of host memory", program_name);
        return NULL;
    }
    for (int k = 0; k < NB_GL_MAX_LOCATIONS; k++)
        loc[k] = -1;
    GLint previous = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous);
    glUseProgram(program);
    for (int k = 0; k < names->count; k++) {
        const struct nb_gl_named *u = &names->u[k];
        if (u->sampler)
            bind_sampler(program, u);
        else if (u->value >= 0 && u->value < NB_GL_MAX_LOCATIONS)
            loc[u->value] = glGetUniformLocation(program, u->name);
    }
    glUseProgram((GLuint)previous);
    return loc;
}
