/* md_potential.c - the molecular-dynamics force laws: names, parameters,
 * the coefficient file, the pair function in double, boxes and the checks
 * a system must pass before any engine sees it.
 *
 * nb_md_pair is the double-precision twin of glsl/md_law.glsl: the same
 * formulas in the same order, so that the CPU reference and the GPU differ
 * by float rounding only.  One deliberate difference: the ionic law here
 * uses the exact r, not the GPU's max(r^2, 1e-4) floor (which only exists
 * there to let i == j through without a branch; the CPU never evaluates a
 * self pair).
 */
#include "nb_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const law_names[NB_LAW_COUNT] = {
    "lj", "ljc-constant", "ljc-linear", "ljc-sigmoidal", "ionic"
};

/* Cell lists allocate one start index per cell; a tiny cutoff in a huge
 * box would ask for more cells than particles could ever fill. */
#define MAX_CELLS (1u << 24)

static const char axis_name[3] = {'x', 'y', 'z'};

const char *nb_md_law_name(enum nb_md_law law)
{
    return (unsigned)law < NB_LAW_COUNT ? law_names[law] : "unknown";
}

enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law,
                               struct nb_error *err)
{
    for (int k = 0; k < NB_LAW_COUNT; k++)
        if (strcmp(text, law_names[k]) == 0) {
            *law = (enum nb_md_law)k;
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "unknown force law '%s' (known: lj, "
                        "ljc-constant, ljc-linear, ljc-sigmoidal, ionic)",
                        text);
}

/* Every row of the tables is filled, not only count of them, so that a
 * table grown later by a coefficient file starts from sane values. */
void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law,
                             int count)
{
    struct nb_md_types *t = &pot->types;

    memset(pot, 0, sizeof *pot);
    pot->law = law;
    t->count = count;
    for (int i = 0; i < NB_MD_MAX_TYPES; i++) {
        t->mass[i] = 1.0;
        for (int j = 0; j < NB_MD_MAX_TYPES; j++) {
            t->eps[i][j] = 1.0;
            t->sigma[i][j] = 1.0;
            t->ionic[i][j][2] = 12.0;
        }
    }
    pot->dielectric = 1.0;
    pot->sigmoid[2] = 1.0;      /* zeta(r) = e^r */
}

/* eps and sigma of the pair i-j (and j-i) from the diagonal. */
static void mix_pair(struct nb_md_types *t, int i, int j,
                     enum nb_md_mixing mix)
{
    double sigma = mix == NB_MIX_ARITHMETIC
        ? 0.5 * (t->sigma[i][i] + t->sigma[j][j])
        : sqrt(t->sigma[i][i] * t->sigma[j][j]);
    double eps = sqrt(t->eps[i][i] * t->eps[j][j]);

    t->sigma[i][j] = t->sigma[j][i] = sigma;
    t->eps[i][j] = t->eps[j][i] = eps;
}

void nb_md_potential_mix(struct nb_md_potential *pot, enum nb_md_mixing mix)
{
    for (int i = 0; i < pot->types.count; i++)
        for (int j = i + 1; j < pot->types.count; j++)
            mix_pair(&pot->types, i, j, mix);
}

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
                    mix_pair(&rd->types, i, j, rd->mix);
        pot->types = rd->types;
    }
    free(rd);
    return st;
}

/* ---- checks ------------------------------------------------------------- */

/* One pair entry (rows i, j) of the type table. */
static enum nb_status check_pair(const struct nb_md_types *t, int i, int j,
                                 struct nb_error *err)
{
    const double *c = t->ionic[i][j], *cji = t->ionic[j][i];

    if (!(t->eps[i][j] >= 0.0) || !isfinite(t->eps[i][j]))
        return nb_error_set(err, NB_ERR_ARGS, "lj %d %d: eps must be a finite "
                            "number >= 0, not %g", i + 1, j + 1, t->eps[i][j]);
    if (!(t->sigma[i][j] > 0.0) || !isfinite(t->sigma[i][j]))
        return nb_error_set(err, NB_ERR_ARGS, "lj %d %d: sigma must be a finite"
                            " number > 0, not %g", i + 1, j + 1,
                            t->sigma[i][j]);
    if (!isfinite(c[0]) || !(c[1] >= 0.0) || !isfinite(c[1]) ||
        !(c[2] > 2.0) || !isfinite(c[2]))
        return nb_error_set(err, NB_ERR_ARGS, "ionic %d %d: (cx, cy, cz) = "
                            "(%g, %g, %g) needs finite values, cy >= 0 and "
                            "cz > 2", i + 1, j + 1, c[0], c[1], c[2]);
    /* Each i sums over all j != i, so an asymmetric table would break
     * Newton's third law and with it momentum conservation. */
    if (t->eps[i][j] != t->eps[j][i] || t->sigma[i][j] != t->sigma[j][i] ||
        memcmp(c, cji, 3 * sizeof *c) != 0)
        return nb_error_set(err, NB_ERR_ARGS, "pair %d %d differs from pair "
                            "%d %d: the pair tables must be symmetric", i + 1,
                            j + 1, j + 1, i + 1);
    return NB_OK;
}

static enum nb_status check_types(const struct nb_md_types *t,
                                  struct nb_error *err)
{
    if (t->count < 1 || t->count > NB_MD_MAX_TYPES)
        return nb_error_set(err, NB_ERR_ARGS, "the type count must be 1..%d, "
                            "not %d", NB_MD_MAX_TYPES, t->count);
    for (int i = 0; i < t->count; i++) {
        if (!(t->mass[i] > 0.0) || !isfinite(t->mass[i]))
            return nb_error_set(err, NB_ERR_ARGS, "mass %d must be a finite "
                                "number > 0, not %g", i + 1, t->mass[i]);
        if (!isfinite(t->charge[i]))
            return nb_error_set(err, NB_ERR_ARGS, "charge %d must be finite, "
                                "not %g", i + 1, t->charge[i]);
        for (int j = 0; j < t->count; j++) {
            enum nb_status st = check_pair(t, i, j, err);
            if (st != NB_OK)
                return st;
        }
    }
    return NB_OK;
}

static int law_has_coulomb(enum nb_md_law law);

/* Coefficients that overflow (an LJ sigma^12, an ionic cy^cz) would give
 * non-finite forces at the first step, read as a blow-up: refused here,
 * naming the pair of types. */
static enum nb_status check_pair_coeffs(const struct nb_md_potential *pot,
                                        struct nb_error *err)
{
    int n = pot->types.count;
    double shift;
    struct nb_md_pair_coeff *c = nb_alloc((size_t)n * (size_t)n, sizeof *c,
                                          "pair coefficients", err);
    enum nb_status st = c ? NB_OK : NB_ERR_NOMEM;

    if (c)
        nb_md_pair_coeffs(pot, c, &shift);
    for (int k = 0; c && k < n * n && st == NB_OK; k++)
        if (!isfinite(c[k].c12) || !isfinite(c[k].c6) || !isfinite(c[k].a) ||
            !isfinite(c[k].u_shift))
            st = nb_error_set(err, NB_ERR_ARGS, "types %d and %d: the pair "
                              "coefficients overflow a double (4 eps sigma^12 = "
                              "%g, cy^cz = %g); rescale the units", k / n + 1,
                              k % n + 1, c[k].c12, c[k].a);
    free(c);
    return st;
}

enum nb_status nb_md_potential_check(const struct nb_md_potential *pot,
                                     struct nb_error *err)
{
    enum nb_status st;

    if ((unsigned)pot->law >= NB_LAW_COUNT)
        return nb_error_set(err, NB_ERR_ARGS, "unknown force law %d",
                            (int)pot->law);
    st = check_types(&pot->types, err);
    if (st != NB_OK)
        return st;
    if (!(pot->dielectric > 0.0) || !isfinite(pot->dielectric))
        return nb_error_set(err, NB_ERR_ARGS, "the dielectric constant must be "
                            "a finite number > 0, not %g", pot->dielectric);
    for (int k = 0; k < 4; k++)
        if (!isfinite(pot->sigmoid[k]))
            return nb_error_set(err, NB_ERR_ARGS, "sigmoid coefficient %c must "
                                "be finite, not %g", "abcd"[k],
                                pot->sigmoid[k]);
    if (!(pot->cutoff >= 0.0) || !isfinite(pot->cutoff))
        return nb_error_set(err, NB_ERR_ARGS, "the cutoff must be a finite "
                            "number >= 0 (0: none), not %g", pot->cutoff);
    return check_pair_coeffs(pot, err);
}

/* ---- pair coefficients and the pair function ---------------------------- */

static int law_has_coulomb(enum nb_md_law law)
{
    return law == NB_LAW_LJC_CONSTANT || law == NB_LAW_LJC_LINEAR ||
           law == NB_LAW_LJC_SIGMOIDAL;
}

/* The Coulomb part u_c(rc) / (q_i q_j) of an LJC law. */
static double coulomb_at(const struct nb_md_potential *pot, double rc)
{
    const double *s = pot->sigmoid;

    switch (pot->law) {
    case NB_LAW_LJC_CONSTANT:
        return 1.0 / (pot->dielectric * rc);
    case NB_LAW_LJC_LINEAR:
        return 1.0 / (pot->dielectric * rc * rc);
    case NB_LAW_LJC_SIGMOIDAL:
        return exp(-(((s[0] * rc + s[1]) * rc + s[2]) * rc + s[3])) / rc;
    default:
        return 0.0;
    }
}

void nb_md_pair_coeffs(const struct nb_md_potential *pot,
                       struct nb_md_pair_coeff *out, double *coulomb_shift)
{
    const struct nb_md_types *t = &pot->types;
    const int shift = pot->shift && pot->cutoff > 0.0;
    const double rc = pot->cutoff;

    for (int i = 0; i < t->count; i++)
        for (int j = 0; j < t->count; j++) {
            struct nb_md_pair_coeff *c = &out[i * t->count + j];
            double s6 = pow(t->sigma[i][j], 6.0);

            c->c12 = 4.0 * t->eps[i][j] * s6 * s6;
            c->c6 = 4.0 * t->eps[i][j] * s6;
            c->cx = t->ionic[i][j][0];
            c->a = pow(t->ionic[i][j][1], t->ionic[i][j][2]);
            c->cz = t->ionic[i][j][2];
            c->u_shift = 0.0;
            if (shift && pot->law == NB_LAW_IONIC)
                c->u_shift = c->cx / rc +
                             c->a * pow(rc, 2.0 - c->cz) / (c->cz - 2.0);
            else if (shift) {
                double rc6 = rc * rc * rc * rc * rc * rc;
                c->u_shift = c->c12 / (rc6 * rc6) - c->c6 / rc6;
            }
        }
    *coulomb_shift = shift && law_has_coulomb(pot->law)
                   ? coulomb_at(pot, rc) : 0.0;
}

/* The Coulomb term of an LJC law: adds its fr to *fr, returns u_c. */
static double coulomb_pair(const struct nb_md_potential *pot, double qq,
                           double r2, double rinv2, double *fr)
{
    const double *s = pot->sigmoid;
    double rinv = 1.0 / sqrt(r2), uc;

    switch (pot->law) {
    case NB_LAW_LJC_CONSTANT:
        uc = qq * rinv / pot->dielectric;
        *fr += uc * rinv2;
        return uc;
    case NB_LAW_LJC_LINEAR:
        /* u = qq / (D r^2): the force keeps D'(r), twice Table 1's. */
        uc = qq * rinv2 / pot->dielectric;
        *fr += 2.0 * uc * rinv2;
        return uc;
    default: {      /* sigmoidal: u = qq exp(-p(r)) / r */
        double r = r2 * rinv;
        double p = ((s[0] * r + s[1]) * r + s[2]) * r + s[3];
        double dp = (3.0 * s[0] * r + 2.0 * s[1]) * r + s[2];

        uc = qq * exp(-p) * rinv;
        *fr += uc * (rinv + dp) * rinv;
        return uc;
    }
    }
}

void nb_md_pair(const struct nb_md_potential *pot,
                const struct nb_md_pair_coeff *c, double coulomb_shift,
                double qq, double r2, double *fr, double *u)
{
    double rinv2 = 1.0 / r2;

    if (pot->law == NB_LAW_IONIC) {
        double rinv = 1.0 / sqrt(r2);
        double coulomb = c->cx * rinv;
        double repulsion = c->a * pow(rinv, c->cz);     /* (cy / r)^cz */

        *fr = (coulomb + repulsion * r2) * rinv2;       /* cx/r^3 + (cy/r)^cz */
        *u = coulomb + repulsion * r2 / (c->cz - 2.0) - c->u_shift;
        return;
    }
    double s6 = rinv2 * rinv2 * rinv2;
    double w12 = c->c12 * s6 * s6, w6 = c->c6 * s6;

    *fr = (12.0 * w12 - 6.0 * w6) * rinv2;
    *u = w12 - w6 - c->u_shift;
    if (law_has_coulomb(pot->law))
        *u += coulomb_pair(pot, qq, r2, rinv2, fr) - qq * coulomb_shift;
}

/* ---- boxes and systems -------------------------------------------------- */

enum nb_status nb_md_box_check(const struct nb_md_box *box, double cutoff,
                               struct nb_error *err)
{
    for (int k = 0; k < 3; k++) {
        double len = box->hi[k] - box->lo[k];

        if (!isfinite(box->lo[k]) || !isfinite(box->hi[k]) || !(len > 0.0) ||
            !isfinite(len))
            return nb_error_set(err, NB_ERR_ARGS, "the box along %c needs "
                                "finite bounds lo < hi, not [%g, %g]",
                                axis_name[k], box->lo[k], box->hi[k]);
        if (!box->periodic[k])
            continue;
        if (!(cutoff > 0.0))
            return nb_error_set(err, NB_ERR_ARGS, "a periodic box needs "
                                "--cutoff (periodic along %c, cutoff %g)",
                                axis_name[k], cutoff);
        /* Minimum image: beyond L/2 a pair would meet two of its images. */
        if (cutoff > 0.5 * len)
            return nb_error_set(err, NB_ERR_ARGS, "cutoff %g is larger than "
                                "half the periodic box along %c (length %g)",
                                cutoff, axis_name[k], len);
    }
    return NB_OK;
}

/* Points already inside are left alone: x - lo + lo need not equal x. */
static double wrap_one(double x, double lo, double hi)
{
    double len = hi - lo, s, w;

    if (x >= lo && x < hi)
        return x;
    s = x - lo;
    s -= len * floor(s / len);
    if (s >= len)               /* a tiny negative s rounds up to len */
        s -= len;
    w = lo + s;
    return w < hi ? w : nextafter(hi, lo);
}

void nb_md_box_wrap(const struct nb_md_box *box, size_t n, double *x)
{
    for (int k = 0; k < 3; k++) {
        if (!box->periodic[k])
            continue;
        for (size_t i = 0; i < n; i++)
            x[3 * i + k] = wrap_one(x[3 * i + k], box->lo[k], box->hi[k]);
    }
}

/* Cell-list geometry, the same rule as the GPU engines: max(1,
 * floor(L / rc)) cells per axis, each at least rc wide; a periodic axis
 * needs 3 so that the 27 neighbour cells are distinct. */
static enum nb_status check_cells(const struct nb_md_system *sys,
                                  struct nb_error *err)
{
    const struct nb_md_box *box = sys->box;
    double rc = sys->pot->cutoff, total = 1.0;

    if (!(rc > 0.0))
        return nb_error_set(err, NB_ERR_ARGS, "cell lists need a cutoff "
                            "(--cutoff > 0)");
    for (int k = 0; k < 3; k++) {
        double len = box->hi[k] - box->lo[k];
        double cells = fmax(1.0, floor(len / rc));

        if (box->periodic[k] && cells < 3.0)
            return nb_error_set(err, NB_ERR_ARGS, "cell lists need at least 3 "
                                "cells of width >= the cutoff %g along the "
                                "periodic %c axis, but its length %g holds "
                                "%.0f; use all pairs or a larger box", rc,
                                axis_name[k], len, cells);
        total *= cells;
    }
    if (total > (double)MAX_CELLS)
        return nb_error_set(err, NB_ERR_ARGS, "cell lists: the box holds %.3g "
                            "cells of width %g, more than the limit %u; use a "
                            "larger cutoff or all pairs", total, rc,
                            MAX_CELLS);
    return NB_OK;
}

static enum nb_status check_particles(const struct nb_md_system *sys,
                                      struct nb_error *err)
{
    int count = sys->pot->types.count;

    for (size_t i = 0; i < sys->n; i++) {
        if (sys->type[i] < 1 || sys->type[i] > count)
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu has type %d, "
                                "outside the coefficient table's types 1..%d",
                                i, sys->type[i], count);
        if (!(sys->m[i] > 0.0) || !isfinite(sys->m[i]))
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu: the mass must "
                                "be a finite number > 0, not %g", i,
                                sys->m[i]);
        if (sys->q && !isfinite(sys->q[i]))
            return nb_error_set(err, NB_ERR_ARGS, "particle %zu: the charge "
                                "must be finite, not %g", i, sys->q[i]);
    }
    return NB_OK;
}

/* Each excluded pair names two distinct particles. */
static enum nb_status check_excluded(const struct nb_md_system *sys, struct nb_error *err)
{
    for (size_t k = 0; k < sys->n_excluded; k++) {
        uint32_t i = sys->excluded[2 * k], j = sys->excluded[2 * k + 1];
        if (i >= sys->n || j >= sys->n || i == j)
            return nb_error_set(err, NB_ERR_ARGS, "excluded pair %zu (%u, %u) does "
                                "not name two distinct particles of %zu", k, (unsigned)i,
                                (unsigned)j, sys->n);
    }
    return NB_OK;
}

enum nb_status nb_md_system_check(const struct nb_md_system *sys,
                                  struct nb_error *err)
{
    enum nb_status st;

    if (sys->n == 0)
        return nb_error_set(err, NB_ERR_ARGS, "an MD system needs at least one "
                            "particle");
    st = nb_md_potential_check(sys->pot, err);
    if (st == NB_OK)
        st = nb_md_box_check(sys->box, sys->pot->cutoff, err);
    if (st == NB_OK)
        st = check_particles(sys, err);
    if (st == NB_OK)
        st = check_excluded(sys, err);
    if (st == NB_OK && sys->cell_list)
        st = check_cells(sys, err);
    return st;
}
