/* cmd_shaders.c - glnbody shaders: lists the program catalogue or writes
 * each stage, assembled as the GLSL loader assembles it, for the build to
 * compile with glslangValidator.  Needs no GL context. */
#include <errno.h>
#include <string.h>

#include "cli.h"

static enum nb_status emit_stage(const char *program, int stage, const char *dir,
                                 struct nb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, program, nb_shader_extension(program, stage));
    FILE *out = fopen(path, "w");
    if (!out)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    enum nb_status st = nb_shader_emit(program, stage, NULL, out, err);
    if (fclose(out) != 0 && st == NB_OK)
        st = nb_error_set(err, NB_ERR_IO, "%s: write error", path);
    if (st == NB_OK)
        printf("%s\n", path);
    return st;
}

int nb_cmd_shaders(int argc, char **argv)
{
    const char *emit = NULL;
    int list = 0, quiet = 0, help;    /* quiet: shaders writes only errors anyway */
    const struct nb_option table[] = {
        { "list", NULL, "print the program names", NULL, &list },
        { "emit", "DIR", "write every stage of every program to DIR/NAME.{vert,frag,comp}",
          &emit, NULL },
        NB_QUIET_OPTION(quiet),
        { 0 } };
    struct nb_error err = { 0 };
    if (nb_options_parse("shaders", table, argc, argv, &help, &err) != NB_OK)
        return nb_cli_fail(&err);
    if (help || (!emit && !list)) {
        nb_options_print(help ? stdout : stderr, "glnbody shaders --list | --emit DIR",
                         "The shader programs glnbody loads (sources under "
                         "$GLNBODY_SHADER_DIR/glsl).", table);
        return help ? 0 : 2;
    }
    const char *name;
    for (size_t k = 0; (name = nb_shader_program(k)) != NULL; k++) {
        if (list)
            printf("%s\n", name);
        for (int stage = 0; emit && stage < nb_shader_stages(name); stage++)
            if (emit_stage(name, stage, emit, &err) != NB_OK)
                return nb_cli_fail(&err);
    }
    return 0;
}
