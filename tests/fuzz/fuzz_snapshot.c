/* fuzz_snapshot.c - nb_snapshot_read on any bytes: it returns a set of
 * finite particles with masses >= 0, or an error naming the file. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    struct nb_particles p = { 0 };
    struct nb_error err = { 0 };
    enum nb_status status = nb_snapshot_read(path, &p, &err);
    fuzz_check_status(status, &err, path);
    if (status == NB_OK)
        fuzz_check_particles(&p);
    else if (p.n != 0)
        abort();
    nb_particles_free(&p);
    return 0;
}
