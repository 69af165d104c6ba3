/* fuzz_options.c - the option parser every command shares (nb_options_parse
 * with a table of each kind of option: a list, a number, an integer, a
 * flag, and the GL options), then the checked conversions on what it
 * stored (nb_parse_long_list, nb_parse_double, nb_parse_long,
 * nb_gl_cli_validate), on any bytes, one argument a line.  A conversion
 * that succeeds returns values inside its bounds; a refusal has a message. */
#include "fuzz_input.h"
#include "cli.h"

struct fuzz_args {
    const char *n, *t_end, *steps;
    int shared_dt;
    struct nb_gl_cli gl;
};

/* --n as bench takes it: a list of counts in 2..2^24. */
static void check_list(const char *text)
{
    long *values = NULL;
    size_t count = 0;
    struct nb_error err = { 0 };
    enum nb_status status = nb_parse_long_list("n", text, 2, 1L << 24, &values, &count, &err);
    fuzz_check_status(status, &err, "");
    for (size_t k = 0; status == NB_OK && k < count; k++)
        if (values[k] < 2 || values[k] > 1L << 24)
            abort();
    if (status == NB_OK && (count == 0 || count > strlen(text) / 2 + 1))
        abort();
    free(values);
}

static void check_values(const struct fuzz_args *a)
{
    struct nb_error err = { 0 };
    if (a->n)
        check_list(a->n);
    double t_end = 0;
    if (a->t_end && nb_parse_double("t-end", a->t_end, 0.0, &t_end, &err) == NB_OK &&
        (!isfinite(t_end) || t_end < 0.0))
        abort();
    long steps = 0;
    if (a->steps && nb_parse_long("steps", a->steps, 1, 1000000, &steps, &err) == NB_OK &&
        (steps < 1 || steps > 1000000))
        abort();
    err.status = NB_OK;
    fuzz_check_status(nb_gl_cli_validate(&a->gl, &err), &err, "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[FUZZ_MAX_ARGS + 1] = { 0 }, *text;
    int argc = fuzz_arguments(data, size, argv, &text);
    if (argc < 0)
        return 0;
    struct fuzz_args a = { 0 };
    const struct nb_option table[] = {
        { "n", "N[,N...]", "counts", &a.n, NULL },
        { "t-end", "T", "end time", &a.t_end, NULL },
        { "steps", "K", "steps", &a.steps, NULL },
        { "shared-dt", NULL, "a flag", NULL, &a.shared_dt },
        NB_GL_OPTIONS(a.gl),
        { 0 } };
    struct nb_error err = { 0 };
    int help = 0;
    enum nb_status status = nb_options_parse("fuzz", table, argc, argv, &help, &err);
    fuzz_check_status(status, &err, "");
    if (status == NB_OK)
        check_values(&a);
    free(text);
    return 0;
}
