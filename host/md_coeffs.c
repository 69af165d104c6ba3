/* md_coeffs.c - the MD coefficient file (nb_md_types_read): types, masses,
 * charges, Lennard-Jones and ionic pairs and the mixing rule, each entry
 * given once, every field named in messages. */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the coefficient file ----------------------------------------------- */

struct coeff_reader;

/* The entries: keyword, value count after it, usage, handler. */
struct coeff_entry {
    const char *keyword;
    int values;
    const char *usage;          /* its words name the fields in messages */
    enum nb_status (*parse)(struct coeff_reader *, struct nb_error *);
};

/* Reading state of one coefficient file. */
struct coeff_reader {
    struct nb_text text;
    const struct coeff_entry *entry;    /* of the current line */
    char name[64];                      /* of the field being read */
    size_t types_line;                  /* line of `types`, 0: not yet */
    struct nb_md_types types;
    enum nb_md_mixing mix;
    /* The line of each entry given, 0: not given (an lj pair given is not
     * mixed; any entry given twice is refused: the last would win) */
    size_t lj_line[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];
    size_t ionic_line[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];
    size_t mass_line[NB_MD_MAX_TYPES], charge_line[NB_MD_MAX_TYPES];
    size_t mix_line;
};

/* Records the current line as the one that gives an entry (type i, or pair
 * i j where j >= 0); an entry given before is refused, naming both lines. */
static enum nb_status given_once(struct coeff_reader *rd, size_t *first,
                                 int i, int j, struct nb_error *err)
{
    char entry[64];

    if (j >= 0)
        snprintf(entry, sizeof entry, "'%s %d %d'", rd->entry->keyword, i + 1,
                 j + 1);
    else if (i >= 0)
        snprintf(entry, sizeof entry, "'%s %d'", rd->entry->keyword, i + 1);
    else
        snprintf(entry, sizeof entry, "'%s'", rd->entry->keyword);
    if (*first)
        return nb_text_error(&rd->text, 0, err, "%s given twice (first on "
                             "line %zu); give it once", entry, *first);
    *first = rd->text.lineno;
    return NB_OK;
}

/* "lj EPS" for field 3 of an lj line: the keyword and that usage word. */
static const char *field_name(struct coeff_reader *rd, int field)
{
    const char *word = rd->entry->usage;

    for (int k = 0; k < field && word; k++)
        if ((word = strchr(word, ' ')) != NULL)
            word++;
    snprintf(rd->name, sizeof rd->name, "%s %.*s", rd->entry->keyword,
             word ? (int)strcspn(word, " ") : 0, word ? word : "");
    return rd->name;
}

static enum nb_status field_real(struct coeff_reader *rd, int field,
                                 double *out, struct nb_error *err)
{
    return nb_text_double(&rd->text, field, field_name(rd, field), out, err);
}

/* A type number 1..count, returned as a row index 0..count-1. */
static enum nb_status field_type(struct coeff_reader *rd, int field, int *row,
                                 struct nb_error *err)
{
    long long value = 1;
    enum nb_status st = nb_text_int(&rd->text, field, field_name(rd, field),
                                    1, rd->types.count, &value, err);

    *row = (int)value - 1;
    return st;
}

/* `types T`: the table restarts from the defaults for T types. */
static enum nb_status entry_types(struct coeff_reader *rd,
                                  struct nb_error *err)
{
    struct nb_md_potential fresh;
    long long count;

    if (rd->types_line)
        return nb_text_error(&rd->text, 0, err, "'types' given twice (first "
                             "on line %zu)", rd->types_line);
    if (nb_text_int(&rd->text, 1, field_name(rd, 1), 1, NB_MD_MAX_TYPES,
                    &count, err) != NB_OK)
        return err->status;
    nb_md_potential_default(&fresh, NB_LAW_LJ, (int)count);
    rd->types = fresh.types;
    rd->types_line = rd->text.lineno;
    return NB_OK;
}

/* `mass I M` and `charge I Q`. */
static enum nb_status entry_mass_charge(struct coeff_reader *rd,
                                        struct nb_error *err)
{
    int i;
    double value;
    int is_mass = strcmp(rd->entry->keyword, "mass") == 0;
    enum nb_status st = field_type(rd, 1, &i, err);

    if (st == NB_OK)
        st = field_real(rd, 2, &value, err);
    if (st != NB_OK)
        return st;
    if (is_mass && !(value > 0.0))
        return nb_text_error(&rd->text, 2, err, "mass %d must be > 0, not %g",
                             i + 1, value);
    if (given_once(rd, is_mass ? &rd->mass_line[i] : &rd->charge_line[i], i,
                   -1, err) != NB_OK)
        return err->status;
    if (is_mass)
        rd->types.mass[i] = value;
    else
        rd->types.charge[i] = value;
    return NB_OK;
}

/* `lj I J EPS SIGMA`. */
static enum nb_status entry_lj(struct coeff_reader *rd, struct nb_error *err)
{
    int i, j;
    double eps, sigma;
    enum nb_status st = field_type(rd, 1, &i, err);

    if (st == NB_OK)
        st = field_type(rd, 2, &j, err);
    if (st == NB_OK)
        st = field_real(rd, 3, &eps, err);
    if (st == NB_OK)
        st = field_real(rd, 4, &sigma, err);
    if (st != NB_OK)
        return st;
    if (!(eps >= 0.0))
        return nb_text_error(&rd->text, 3, err, "lj: EPS must be >= 0, not %g",
                             eps);
    if (!(sigma > 0.0))
        return nb_text_error(&rd->text, 4, err, "lj: SIGMA must be > 0, not "
                             "%g", sigma);
    if (given_once(rd, &rd->lj_line[i][j], i, j, err) != NB_OK)
        return err->status;
    rd->lj_line[j][i] = rd->lj_line[i][j];
    rd->types.eps[i][j] = rd->types.eps[j][i] = eps;
    rd->types.sigma[i][j] = rd->types.sigma[j][i] = sigma;
    return NB_OK;
}

/* `ionic I J CX CY CZ`. */
static enum nb_status entry_ionic(struct coeff_reader *rd,
                                  struct nb_error *err)
{
    int i, j;
    double c[3];
    enum nb_status st = field_type(rd, 1, &i, err);

    if (st == NB_OK)
        st = field_type(rd, 2, &j, err);
    for (int k = 0; k < 3 && st == NB_OK; k++)
        st = field_real(rd, 3 + k, &c[k], err);
    if (st != NB_OK)
        return st;
    if (!(c[1] >= 0.0))
        return nb_text_error(&rd->text, 4, err, "ionic: CY must be >= 0, not "
                             "%g", c[1]);
    if (!(c[2] > 2.0))
        return nb_text_error(&rd->text, 5, err, "ionic: CZ must be > 2 (the "
                             "energy cy^cz r^(2-cz)/(cz-2) needs it), not %g",
                             c[2]);
    if (given_once(rd, &rd->ionic_line[i][j], i, j, err) != NB_OK)
        return err->status;
    rd->ionic_line[j][i] = rd->ionic_line[i][j];
    memcpy(rd->types.ionic[i][j], c, sizeof c);
    memcpy(rd->types.ionic[j][i], c, sizeof c);
    return NB_OK;
}

static enum nb_status entry_mix(struct coeff_reader *rd, struct nb_error *err)
{
    const char *how = rd->text.field[1];
    char shown[NB_TEXT_EXCERPT_SIZE];

    if (strcmp(how, "arithmetic") == 0)
        rd->mix = NB_MIX_ARITHMETIC;
    else if (strcmp(how, "geometric") == 0)
        rd->mix = NB_MIX_GEOMETRIC;
    else
        return nb_text_error(&rd->text, 1, err, "mix: '%s' is not "
                             "arithmetic or geometric", nb_text_excerpt(how, shown));
    return given_once(rd, &rd->mix_line, -1, -1, err);
}

static const struct coeff_entry coeff_entries[] = {
    {"types", 1, "types T", entry_types},
    {"mass", 2, "mass I M", entry_mass_charge},
    {"charge", 2, "charge I Q", entry_mass_charge},
    {"lj", 4, "lj I J EPS SIGMA", entry_lj},
    {"mix", 1, "mix arithmetic|geometric", entry_mix},
    {"ionic", 5, "ionic I J CX CY CZ", entry_ionic},
};

/* One line with data. */
static enum nb_status coeff_line(struct coeff_reader *rd, struct nb_error *err)
{
    const char *keyword = rd->text.field[0];
    char shown[NB_TEXT_EXCERPT_SIZE];

    rd->entry = NULL;
    for (size_t k = 0; k < sizeof coeff_entries / sizeof *coeff_entries; k++)
        if (strcmp(keyword, coeff_entries[k].keyword) == 0)
            rd->entry = &coeff_entries[k];
    if (!rd->entry)
        return nb_text_error(&rd->text, 0, err, "unknown keyword '%s' "
                             "(known: types, mass, charge, lj, mix, ionic)",
                             nb_text_excerpt(keyword, shown));
    if (!rd->types_line && rd->entry->parse != entry_types)
        return nb_text_error(&rd->text, 0, err, "'%s' before the 'types' "
                             "line: the first entry must be 'types T'",
                             keyword);
    if (nb_text_expect_fields(&rd->text, rd->entry->values + 1,
                              rd->entry->values + 1, rd->entry->usage,
                              err) != NB_OK)
        return err->status;
    return rd->entry->parse(rd, err);
}

/* Every line of the file into rd. */
static enum nb_status coeff_lines(struct coeff_reader *rd,
                                  struct nb_error *err)
{
    enum nb_status st;

    while ((st = nb_text_next_data(&rd->text, err)) == NB_OK &&
           !rd->text.at_end)
        if ((st = coeff_line(rd, err)) != NB_OK)
            break;
    return st;
}

/* Without a `mix` line the pairs not given are mixed geometrically, as
 * LAMMPS does by default for lj/cut. */
enum nb_status nb_md_types_read(const char *path, struct nb_md_potential *pot,
                                struct nb_error *err)
{
    struct coeff_reader *rd = nb_alloc(1, sizeof *rd, "the coefficient reader",
                                       err);
    enum nb_status st;

    if (!rd)
        return NB_ERR_NOMEM;
    rd->mix = NB_MIX_GEOMETRIC;
    st = nb_text_open(&rd->text, path, NB_TEXT_COMMENT_ANYWHERE, err);
    if (st == NB_OK)
        st = coeff_lines(rd, err);
    nb_text_close(&rd->text);
    if (st == NB_OK && !rd->types_line)
        st = nb_error_set(err, NB_ERR_PARSE, "%s: no 'types T' line (it must "
                          "be the first entry)", path);
    if (st == NB_OK) {
        for (int i = 0; i < rd->types.count; i++)
            for (int j = i + 1; j < rd->types.count; j++)
                if (!rd->lj_line[i][j])
                    nb_md_mix_pair(&rd->types, i, j, rd->mix);
        pot->types = rd->types;
    }
    free(rd);
    return st;
}
