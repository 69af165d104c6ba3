/* fuzz_exclusions.c - nb_md_exclusions_read on any bytes, against eight
 * particles of ids 1..8: every pair it returns holds two different indices
 * below 8; a refusal names the file and returns no pairs. */
#include "fuzz_input.h"

enum { FUZZ_PARTICLES = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct nb_particles p;
    struct nb_error err = { 0 };
    if (p.n == 0) {
        if (nb_particles_alloc(&p, FUZZ_PARTICLES, &err) != NB_OK)
            abort();
        for (size_t i = 0; i < p.n; i++)
            p.id[i] = (int64_t)i + 1;
    }
    const char *path = fuzz_input_file(data, size);
    uint32_t *pairs = NULL;
    size_t count = 0;
    enum nb_status status = nb_md_exclusions_read(path, &p, &pairs, &count, &err);
    fuzz_check_status(status, &err, path);
    if (status != NB_OK && (pairs || count))
        abort();
    for (size_t k = 0; k < count; k++)
        if (pairs[2 * k] >= p.n || pairs[2 * k + 1] >= p.n ||
            pairs[2 * k] == pairs[2 * k + 1])
            abort();
    free(pairs);
    return 0;
}
