/* fuzz_md_options.c - glnbody md's command line (nb_md_options_parse: md's
 * real option table, nb_options_parse, then every value's checks) on any
 * bytes, one argument a line: it accepts the line, or refuses it with a
 * message.  Inputs that ask for --help are skipped (the help goes to
 * stdout and is checked by check_cli_help). */
#include "fuzz_input.h"
#include "md_cli.h"


static int asks_for_help(char **argv, int argc)
{
    for (int a = 0; a < argc; a++)
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[FUZZ_MAX_ARGS + 1] = { 0 }, *text;
    int argc = fuzz_arguments(data, size, argv, &text);
    if (argc < 0)
        return 0;
    if (!asks_for_help(argv, argc)) {
        struct md_args a = { 0 };
        struct md_config c = { 0 };
        struct nb_error err = { 0 };
        int help = 0;
        enum nb_status status = nb_md_options_parse(&a, &c, argc, argv, &help, &err);
        fuzz_check_status(status, &err, "");
        if (help)
            abort();
    }
    free(text);
    return 0;
}
