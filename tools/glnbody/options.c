/* options.c - a small --long-option parser and checked number parsing. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct nb_option *find(const struct nb_option *table,
                                    const char *name, size_t len)
{
    for (; table->name; table++)
        if (strlen(table->name) == len && strncmp(table->name, name, len) == 0)
            return table;
    return NULL;
}

/* An option given a second value would silently take the last one:
 * refused, naming both values. */
static enum nb_status refuse_repeat(const char *command, const struct nb_option *opt,
                                    const char *first, const char *again,
                                    struct nb_error *err)
{
    return nb_error_set(err, NB_ERR_ARGS, "%s: --%s given twice ('%s', then "
                        "'%s'); give it once", command, opt->name, first, again);
}

/* argv[*a], and its value if it takes one (*a moves past it). */
static enum nb_status parse_one(const char *command, const struct nb_option *table,
                                int argc, char **argv, int *a, const char **given,
                                int *help, struct nb_error *err)
{
    const char *arg = argv[*a];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        *help = 1;
        return NB_OK;
    }
    if (strncmp(arg, "--", 2) != 0)
        return nb_error_set(err, NB_ERR_ARGS, "%s: unexpected argument '%s' "
                            "(see glnbody %s --help)", command, arg, command);
    const char *eq = strchr(arg + 2, '=');
    size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    const struct nb_option *opt = find(table, arg + 2, len);
    if (!opt)
        return nb_error_set(err, NB_ERR_ARGS, "%s: unknown option '%.*s' "
                            "(see glnbody %s --help)", command, (int)len + 2,
                            arg, command);
    if (!opt->metavar) {
        if (eq)
            return nb_error_set(err, NB_ERR_ARGS, "%s: --%s takes no value",
                                command, opt->name);
        *opt->flag = 1;
    } else if (eq || *a + 1 < argc) {
        const char *value = eq ? eq + 1 : argv[++*a];
        size_t k = (size_t)(opt - table);
        if (given[k])
            return refuse_repeat(command, opt, given[k], value, err);
        *opt->value = given[k] = value;
    } else {
        return nb_error_set(err, NB_ERR_ARGS, "%s: --%s needs a value (%s)",
                            command, opt->name, opt->metavar);
    }
    return NB_OK;
}

enum nb_status nb_options_parse(const char *command, const struct nb_option *table,
                                int argc, char **argv, int *help,
                                struct nb_error *err)
{
    size_t count = 0;
    while (table[count].name)
        count++;
    /* The value each option got here (its variable may hold a default). */
    const char **given = calloc(count + 1, sizeof *given);
    if (!given)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    enum nb_status st = NB_OK;
    *help = 0;
    for (int a = 0; a < argc && st == NB_OK; a++)
        st = parse_one(command, table, argc, argv, &a, given, help, err);
    free(given);
    return st;
}

void nb_options_print(FILE *out, const char *usage, const char *summary,
                      const struct nb_option *table)
{
    fprintf(out, "usage: %s\n\n%s\n\noptions:\n", usage, summary);
    for (; table->name; table++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", table->name,
                 table->metavar ? " " : "", table->metavar ? table->metavar : "");
        fprintf(out, "  %-28s %s\n", left, table->help);
    }
    fprintf(out, "  %-28s %s\n", "--help", "print this help");
}

enum nb_status nb_parse_double(const char *option, const char *text, double min,
                               double *out, struct nb_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);      /* underflow to 0 or subnormal is fine */
    if (end == text || *end || !isfinite(v))
        return nb_error_set(err, NB_ERR_ARGS, "--%s: '%s' is not a finite number",
                            option, text);
    if (v < min)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: %s is below the minimum %g",
                            option, text, min);
    *out = v;
    return NB_OK;
}

enum nb_status nb_parse_long(const char *option, const char *text, long min,
                             long max, long *out, struct nb_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno == ERANGE)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: '%s' is not an integer",
                            option, text);
    if (v < min || v > max)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: %ld is outside %ld..%ld",
                            option, v, min, max);
    *out = v;
    return NB_OK;
}

enum nb_status nb_check_list(const char *option, const char *text,
                             struct nb_error *err)
{
    if (!*text)
        return nb_error_set(err, NB_ERR_ARGS, "--%s: empty list", option);
    for (const char *p = text; *p; p++)
        if (*p == ',' && (p == text || p[1] == ',' || p[1] == '\0'))
            return nb_error_set(err, NB_ERR_ARGS, "--%s: empty item in '%s'",
                                option, text);
    return NB_OK;
}

enum nb_status nb_parse_long_list(const char *option, const char *text, long min,
                                  long max, long **out, size_t *count,
                                  struct nb_error *err)
{
    if (nb_check_list(option, text, err) != NB_OK)
        return err->status;
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    long *values = nb_cli_alloc(n, sizeof *values, "option list", err);
    char *copy = strdup(text);
    if (!values || !copy) {
        free(values);
        free(copy);
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    }
    size_t k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (nb_parse_long(option, tok, min, max, &values[k++], err) != NB_OK)
            break;
    free(copy);
    if (k == 0 || (err && err->status != NB_OK)) {
        free(values);
        return k == 0 ? nb_error_set(err, NB_ERR_ARGS, "--%s: empty list", option)
                      : err->status;
    }
    *out = values;
    *count = k;
    return NB_OK;
}

/* --api and --gl-version: the versions that exist (GL from 3.3, the
 * oldest glnbody runs on). */
static enum nb_status gl_cli_level(const struct nb_gl_cli *g, struct nb_gl_options *opt,
                                   struct nb_error *err)
{
    if (g->api) {
        if (strcmp(g->api, "gl") == 0)
            opt->api = NB_GL_API_GL;
        else if (strcmp(g->api, "gles") == 0)
            opt->api = NB_GL_API_GLES;
        else if (strcmp(g->api, "auto") == 0)
            opt->api = NB_GL_API_AUTO;
        else
            return nb_error_set(err, NB_ERR_ARGS, "--api: '%s' is not gl, gles or auto",
                                g->api);
    }
    if (!g->gl_version)
        return NB_OK;
    int major = 0, minor = 0;
    char end = 0;
    if (sscanf(g->gl_version, "%d.%d%c", &major, &minor, &end) != 2 || minor < 0 ||
        minor > 9 || strchr(g->gl_version, '+') || strchr(g->gl_version, ' '))
        return nb_error_set(err, NB_ERR_ARGS, "--gl-version: '%s' is not X.Y (e.g. 3.3, "
                            "4.6, or 3.1 with --api gles)", g->gl_version);
    int v = major * 10 + minor;
    int es = opt->api == NB_GL_API_GLES || (opt->api == NB_GL_API_AUTO && v < 33);
    int known = es ? v >= 30 && v <= 32 : v == 33 || (v >= 40 && v <= 46);
    if (!known)
        return nb_error_set(err, NB_ERR_ARGS, "--gl-version: %s is not an %s version "
                            "glnbody runs on (%s)", g->gl_version,
                            es ? "OpenGL ES" : "OpenGL",
                            es ? "3.0, 3.1 or 3.2" : "3.3 or 4.0 to 4.6, core profile");
    opt->version_major = major;
    opt->version_minor = minor;
    return NB_OK;
}

/* The GL options as nb_gl_options; errors name the bad value. */
int nb_gl_cli_default_device = -1;
int nb_cli_rank = -1;
void (*nb_cli_context_made)(int device, int quiet);

static enum nb_status gl_cli_options(const struct nb_gl_cli *g,
                                     struct nb_gl_options *opt,
                                     struct nb_error *err)
{
    nb_gl_options_default(opt);
    /* The library takes an unknown value for auto; a user who set one
     * meant something, so it is refused here as --shaders would be. */
    const char *env = getenv("GLNBODY_SHADERS");
    if (!g->shaders && env && *env && strcmp(env, "spirv") != 0 &&
        strcmp(env, "glsl") != 0 && strcmp(env, "auto") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "GLNBODY_SHADERS: '%s' is not auto, "
                            "spirv or glsl", env);
    const char *wait = getenv("GLNBODY_WAIT");
    if (wait && *wait && strcmp(wait, "poll") != 0 && strcmp(wait, "block") != 0)
        return nb_error_set(err, NB_ERR_ARGS, "GLNBODY_WAIT: '%s' is not poll or block",
                            wait);
    const char *pieces = getenv("GLNBODY_BLOCK_PIECES");
    if (pieces && *pieces && strcmp(pieces, "auto") != 0 &&
        !(strlen(pieces) == 1 && pieces[0] >= '1' && pieces[0] <= '8'))
        return nb_error_set(err, NB_ERR_ARGS, "GLNBODY_BLOCK_PIECES: '%s' is not auto "
                            "or 1 to 8", pieces);
    opt->device = nb_gl_cli_default_device;
    if (g->gpu) {
        long device;
        if (nb_parse_long("gpu", g->gpu, 0, 1023, &device, err) != NB_OK)
            return err->status;
        opt->device = (int)device;
    }
    if (g->shaders) {
        if (strcmp(g->shaders, "spirv") == 0)
            opt->shaders = NB_SHADERS_SPIRV;
        else if (strcmp(g->shaders, "glsl") == 0)
            opt->shaders = NB_SHADERS_GLSL;
        else if (strcmp(g->shaders, "auto") == 0)
            opt->shaders = NB_SHADERS_AUTO;
        else
            return nb_error_set(err, NB_ERR_ARGS, "--shaders: '%s' is not auto, "
                                "spirv or glsl", g->shaders);
    }
    opt->debug |= g->debug;
    return gl_cli_level(g, opt, err);
}

enum nb_status nb_gl_cli_validate(const struct nb_gl_cli *g, struct nb_error *err)
{
    struct nb_gl_options opt;
    return gl_cli_options(g, &opt, err);
}

enum nb_status nb_gl_cli_create(const struct nb_gl_cli *g, struct nb_gl **gl,
                                struct nb_error *err)
{
    struct nb_gl_options opt;
    if (gl_cli_options(g, &opt, err) != NB_OK || nb_gl_create(gl, &opt, err) != NB_OK)
        return err->status;
    if (!g->quiet)
        fprintf(stderr, "glnbody: renderer %s, %s shaders\n", nb_gl_renderer(*gl),
            nb_gl_uses_spirv(*gl) ? "SPIR-V" : "GLSL");
    if (nb_cli_context_made)
        nb_cli_context_made(opt.device, g->quiet);
    return NB_OK;
}

void *nb_cli_alloc(size_t count, size_t size, const char *what, struct nb_error *err)
{
    if (size != 0 && count > SIZE_MAX / size) {
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory allocating %s (%zu x %zu "
                     "bytes)", what, count, size);
        return NULL;
    }
    /* A zero-sized request still yields a pointer: NULL always means failure. */
    if (count == 0 || size == 0)
        count = size = 1;
    void *ptr = calloc(count, size);
    if (!ptr)
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory allocating %s (%zu bytes)",
                     what, count * size);
    return ptr;
}

int nb_cli_fail(const struct nb_error *err)
{
    /* Under mpirun every failing rank may print: each says which it is. */
    if (nb_cli_rank >= 0 && strncmp(err->message, "rank ", 5) != 0)
        fprintf(stderr, "glnbody: rank %d: %s\n", nb_cli_rank, err->message);
    else
        fprintf(stderr, "glnbody: %s\n", err->message);
    return err->status == NB_ERR_ARGS ? 2 : 1;
}
