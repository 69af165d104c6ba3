/* md_interactions.c - a coefficient table in which some type pair does
 * not interact at all.  Such a table runs, and every thermo value of its
 * pairs stays 0 (a file with only `types 2` and `mass 1 1` under the ionic
 * law gave a whole run of zeros): almost always an entry forgotten, so it
 * is refused, naming the pair and the entries that would make it act. */
#include "nb_host.h"

/* Whether types i and j act on each other under pot's law: LJ through
 * eps, LJC through eps or the charges (those of the particles, where the
 * input gives them), ionic (Boyarchenkov & Potashnikov 2009) through cx
 * or cy of the pair. */
static int pair_interacts(const struct nb_md_potential *pot, int i, int j,
                          int particle_charges)
{
    const struct nb_md_types *t = &pot->types;

    if (pot->law == NB_LAW_IONIC)
        return t->ionic[i][j][0] != 0.0 || t->ionic[i][j][1] != 0.0;
    if (t->eps[i][j] != 0.0)
        return 1;
    return pot->law != NB_LAW_LJ &&
           (particle_charges || t->charge[i] * t->charge[j] != 0.0);
}

static const char *entries_needed(enum nb_md_law law)
{
    if (law == NB_LAW_IONIC)
        return "an 'ionic I J CX CY CZ' line with CX or CY not 0";
    if (law == NB_LAW_LJ)
        return "an 'lj' line with EPS > 0 (or mixing from types with EPS > 0)";
    return "an 'lj' line with EPS > 0, or a 'charge' line for each type";
}

enum nb_status nb_md_types_check_interactions(const struct nb_md_potential *pot,
                                              const char *path,
                                              int particle_charges,
                                              struct nb_error *err)
{
    for (int i = 0; i < pot->types.count; i++)
        for (int j = i; j < pot->types.count; j++)
            if (!pair_interacts(pot, i, j, particle_charges))
                return nb_error_set(err, NB_ERR_PARSE, "%s: types %d and %d "
                                    "do not interact under the %s law: give "
                                    "%s", path, i + 1, j + 1,
                                    nb_md_law_name(pot->law),
                                    entries_needed(pot->law));
    return NB_OK;
}
