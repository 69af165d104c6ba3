/* fuzz_types.c - nb_md_types_read on any bytes: a table it accepts has
 * 1..NB_MD_MAX_TYPES types and finite parameters; a refusal names the file. */
#include "fuzz_input.h"

static void check_types(const struct nb_md_types *t)
{
    if (t->count < 1 || t->count > NB_MD_MAX_TYPES)
        abort();
    for (int i = 0; i < t->count; i++) {
        if (!isfinite(t->mass[i]) || !isfinite(t->charge[i]))
            abort();
        for (int j = 0; j < t->count; j++)
            if (!isfinite(t->eps[i][j]) || !isfinite(t->sigma[i][j]))
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    struct nb_md_potential pot;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    struct nb_error err = { 0 };
    enum nb_status status = nb_md_types_read(path, &pot, &err);
    fuzz_check_status(status, &err, path);
    if (status == NB_OK)
        check_types(&pot.types);
    return 0;
}
