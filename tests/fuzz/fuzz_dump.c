/* fuzz_dump.c - nb_lammps_dump_read on any bytes, with a table of two
 * types: it returns finite particles of types 1..2 in a box of positive
 * extent, or an error naming the file and an empty set. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    struct nb_md_potential pot;
    nb_md_potential_default(&pot, NB_LAW_LJ, 2);
    struct nb_particles p = { 0 };
    struct nb_md_box box = { 0 };
    struct nb_error err = { 0 };
    enum nb_status status = nb_lammps_dump_read(path, &p, &box, &pot, &err);
    fuzz_check_status(status, &err, path);
    if (status == NB_OK) {
        fuzz_check_particles(&p);
        for (size_t i = 0; i < p.n; i++)
            if (!p.type || p.type[i] < 1 || p.type[i] > pot.types.count)
                abort();
    } else if (p.n != 0) {
        abort();
    }
    nb_particles_free(&p);
    return 0;
}
