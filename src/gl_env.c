/* gl_env.c - the library's GLNBODY_* environment variables: one table, one
 * parser with bounds.  A context is refused while any of them holds a
 * value outside its bounds (a user who set one meant something; a silent
 * default would measure or compute something else), and the engines read
 * them through nb_gl_env_long afterwards. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gaj_internal.h"
#include "gl_internal.h"

struct env_var {
    const char *name;
    const char *words;          /* accepted words, '|'-separated, or NULL */
    double lo, hi;              /* bounds of a number, when lo <= hi */
};

/* GLNBODY_SHADER_DIR is a path, checked where the shaders are read. */
static const struct env_var vars[] = {
    { "GLNBODY_DEBUG", "0|1", 1, 0 },
    { "GLNBODY_SHADERS", "auto|spirv|glsl", 1, 0 },
    { "GLNBODY_WAIT", "poll|block", 1, 0 },
    { "GLNBODY_BLOCK_PIECES", "auto", 1, NB_GAJ_PIECES_MAX },
    { "GLNBODY_DISPATCH_PAIRS", NULL, 1, 1e18 },
    { "GLNBODY_GAJ_FILL_GROUPS", NULL, 1, 1 << 20 },
    { "GLNBODY_MD_PASSES", NULL, 1, 2147483647.0 },
};

static int is_word(const char *words, const char *s)
{
    size_t len = strlen(s);
    for (const char *w = words; w && *w; w += strcspn(w, "|"), w += *w == '|')
        if (strncmp(w, s, len) == 0 && (w[len] == '|' || w[len] == '\0') && len > 0)
            return 1;
    return 0;
}

/* An integer in lo..hi, the whole text (decimal or 1e9 form). */
static int in_bounds(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !(v >= lo && v <= hi) || v != (double)(long long)v)
        return 0;
    *out = v;
    return 1;
}

static enum nb_status check_one(const struct env_var *e, struct nb_error *err)
{
    const char *s = getenv(e->name);
    double v;
    if (!s || !*s || is_word(e->words, s))
        return NB_OK;
    if (e->lo <= e->hi && in_bounds(s, e->lo, e->hi, &v))
        return NB_OK;
    if (e->lo > e->hi)
        return nb_error_set(err, NB_ERR_ARGS, "%s='%.64s': expected one of %s",
                            e->name, s, e->words);
    return nb_error_set(err, NB_ERR_ARGS, "%s='%.64s': expected an integer from "
                        "%.0f to %.0f%s%s", e->name, s, e->lo, e->hi,
                        e->words ? " or " : "", e->words ? e->words : "");
}

enum nb_status nb_gl_env_check(struct nb_error *err)
{
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
        if (check_one(&vars[k], err) != NB_OK)
            return err->status;
    return NB_OK;
}

long long nb_gl_env_long(const char *name, long long fallback)
{
    const char *s = getenv(name);
    for (size_t k = 0; s && *s && k < sizeof vars / sizeof vars[0]; k++) {
        double v;
        if (strcmp(vars[k].name, name) == 0 &&
            in_bounds(s, vars[k].lo, vars[k].hi, &v))
            return (long long)v;
    }
    return fallback;
}
