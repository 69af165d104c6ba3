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

#include <errno.h>
#include <math.h>
#include <stdarg.h>
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

#define MAX_FIELDS 8
#define TOKEN_SHOWN 64

/* Reading state of one coefficient file. */
struct coeff_reader {
    const char *path;
    size_t line;
    size_t types_line;                  /* line of `types`, 0: not yet */
    struct nb_md_types types;
    enum nb_md_mixing mix;
    /* lj pairs given explicitly (not to be mixed) */
    unsigned char given[NB_MD_MAX_TYPES][NB_MD_MAX_TYPES];
};

static enum nb_status coeff_error(const struct coeff_reader *rd,
                                  struct nb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "path:line: reason", the reason formatted from fmt. */
static enum nb_status coeff_error(const struct coeff_reader *rd,
                                  struct nb_error *err, const char *fmt, ...)
{
    char reason[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return nb_error_set(err, NB_ERR_PARSE, "%s:%zu: %s", rd->path, rd->line,
                        reason);
}

/* Splits at whitespace, stopping at `#`; returns the token count (tokens
 * past MAX_FIELDS are counted, not stored). */
static int split_fields(char *line, char **tok)
{
    int count = 0;
    char *c = line;

    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
            c++;
        if (!*c || *c == '#')
            return count;
        if (count < MAX_FIELDS)
            tok[count] = c;
        count++;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n' &&
               *c != '#')
            c++;
        if (*c == '#') {
            *c = '\0';
            return count;
        }
        if (*c)
            *c++ = '\0';
    }
}

/* A finite real; what names the field in the message. */
static enum nb_status field_real(const struct coeff_reader *rd,
                                 const char *what, const char *tok,
                                 double *out, struct nb_error *err)
{
    char *end;

    *out = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return coeff_error(rd, err, "%s: not a number: '%.*s'", what,
                           TOKEN_SHOWN, tok);
    if (!isfinite(*out))
        return coeff_error(rd, err, "%s: non-finite value '%.*s'", what,
                           TOKEN_SHOWN, tok);
    return NB_OK;
}

/* A type number 1..count, returned as a row index 0..count-1. */
static enum nb_status field_type(const struct coeff_reader *rd,
                                 const char *tok, int *row,
                                 struct nb_error *err)
{
    char *end;
    long value;

    errno = 0;
    value = strtol(tok, &end, 10);
    if (end == tok || *end != '\0' || errno == ERANGE)
        return coeff_error(rd, err, "type '%.*s' is not an integer",
                           TOKEN_SHOWN, tok);
    if (value < 1 || value > rd->types.count)
        return coeff_error(rd, err, "type %ld is out of range 1..%d (the "
                           "'types' line)", value, rd->types.count);
    *row = (int)value - 1;
    return NB_OK;
}

/* `types T`: the table restarts from the defaults for T types. */
static enum nb_status entry_types(struct coeff_reader *rd, char **tok,
                                  struct nb_error *err)
{
    struct nb_md_potential fresh;
    char *end;
    long count;

    if (rd->types_line)
        return coeff_error(rd, err, "'types' given twice (first on line %zu)",
                           rd->types_line);
    errno = 0;
    count = strtol(tok[1], &end, 10);
    if (end == tok[1] || *end != '\0' || errno == ERANGE || count < 1 ||
        count > NB_MD_MAX_TYPES)
        return coeff_error(rd, err, "types: '%.*s' is not a count 1..%d",
                           TOKEN_SHOWN, tok[1], NB_MD_MAX_TYPES);
    nb_md_potential_default(&fresh, NB_LAW_LJ, (int)count);
    rd->types = fresh.types;
    rd->types_line = rd->line;
    return NB_OK;
}

/* `mass I M` and `charge I Q`. */
static enum nb_status entry_mass_charge(struct coeff_reader *rd, char **tok,
                                        struct nb_error *err)
{
    int i;
    double value;
    int is_mass = strcmp(tok[0], "mass") == 0;
    enum nb_status st = field_type(rd, tok[1], &i, err);

    if (st == NB_OK)
        st = field_real(rd, tok[0], tok[2], &value, err);
    if (st != NB_OK)
        return st;
    if (is_mass && !(value > 0.0))
        return coeff_error(rd, err, "mass %d must be > 0, not %g", i + 1,
                           value);
    if (is_mass)
        rd->types.mass[i] = value;
    else
        rd->types.charge[i] = value;
    return NB_OK;
}

/* `lj I J EPS SIGMA`. */
static enum nb_status entry_lj(struct coeff_reader *rd, char **tok,
                               struct nb_error *err)
{
    int i, j;
    double eps, sigma;
    enum nb_status st = field_type(rd, tok[1], &i, err);

    if (st == NB_OK)
        st = field_type(rd, tok[2], &j, err);
    if (st == NB_OK)
        st = field_real(rd, "lj EPS", tok[3], &eps, err);
    if (st == NB_OK)
        st = field_real(rd, "lj SIGMA", tok[4], &sigma, err);
    if (st != NB_OK)
        return st;
    if (!(eps >= 0.0))
        return coeff_error(rd, err, "lj: EPS must be >= 0, not %g", eps);
    if (!(sigma > 0.0))
        return coeff_error(rd, err, "lj: SIGMA must be > 0, not %g", sigma);
    rd->types.eps[i][j] = rd->types.eps[j][i] = eps;
    rd->types.sigma[i][j] = rd->types.sigma[j][i] = sigma;
    rd->given[i][j] = rd->given[j][i] = 1;
    return NB_OK;
}

/* `ionic I J CX CY CZ`. */
static enum nb_status entry_ionic(struct coeff_reader *rd, char **tok,
                                  struct nb_error *err)
{
    static const char *const what[3] = {"ionic CX", "ionic CY", "ionic CZ"};
    int i, j;
    double c[3];
    enum nb_status st = field_type(rd, tok[1], &i, err);

    if (st == NB_OK)
        st = field_type(rd, tok[2], &j, err);
    for (int k = 0; k < 3 && st == NB_OK; k++)
        st = field_real(rd, what[k], tok[3 + k], &c[k], err);
    if (st != NB_OK)
        return st;
    if (!(c[1] >= 0.0))
        return coeff_error(rd, err, "ionic: CY must be >= 0, not %g", c[1]);
    if (!(c[2] > 2.0))
        return coeff_error(rd, err, "ionic: CZ must be > 2 (the energy "
                           "cy^cz r^(2-cz)/(cz-2) needs it), not %g", c[2]);
    memcpy(rd->types.ionic[i][j], c, sizeof c);
    memcpy(rd->types.ionic[j][i], c, sizeof c);
    return NB_OK;
}

static enum nb_status entry_mix(struct coeff_reader *rd, char **tok,
                                struct nb_error *err)
{
    if (strcmp(tok[1], "arithmetic") == 0)
        rd->mix = NB_MIX_ARITHMETIC;
    else if (strcmp(tok[1], "geometric") == 0)
        rd->mix = NB_MIX_GEOMETRIC;
    else
        return coeff_error(rd, err, "mix: '%.*s' is not arithmetic or "
                           "geometric", TOKEN_SHOWN, tok[1]);
    return NB_OK;
}

/* The entries: keyword, value count after it, usage, handler. */
static const struct coeff_entry {
    const char *keyword;
    int values;
    const char *usage;
    enum nb_status (*parse)(struct coeff_reader *, char **, struct nb_error *);
} coeff_entries[] = {
    {"types", 1, "types T", entry_types},
    {"mass", 2, "mass I M", entry_mass_charge},
    {"charge", 2, "charge I Q", entry_mass_charge},
    {"lj", 4, "lj I J EPS SIGMA", entry_lj},
    {"mix", 1, "mix arithmetic|geometric", entry_mix},
    {"ionic", 5, "ionic I J CX CY CZ", entry_ionic},
};

/* One non-empty line of ntok tokens. */
static enum nb_status coeff_line(struct coeff_reader *rd, char **tok,
                                 int ntok, struct nb_error *err)
{
    const struct coeff_entry *e = NULL;

    for (size_t k = 0; k < sizeof coeff_entries / sizeof *coeff_entries; k++)
        if (strcmp(tok[0], coeff_entries[k].keyword) == 0)
            e = &coeff_entries[k];
    if (!e)
        return coeff_error(rd, err, "unknown keyword '%.*s' (known: types, "
                           "mass, charge, lj, mix, ionic)", TOKEN_SHOWN,
                           tok[0]);
    if (!rd->types_line && e->parse != entry_types)
        return coeff_error(rd, err, "'%s' before the 'types' line: the first "
                           "entry must be 'types T'", e->keyword);
    if (ntok - 1 != e->values)
        return coeff_error(rd, err, "expected '%s': %d values after the "
                           "keyword, found %d", e->usage, e->values, ntok - 1);
    return e->parse(rd, tok, err);
}

static enum nb_status coeff_lines(struct coeff_reader *rd, FILE *fp,
                                  struct nb_error *err)
{
    char *line = NULL;
    size_t size = 0;
    enum nb_status st = NB_OK;

    errno = 0;
    while (st == NB_OK && getline(&line, &size, fp) != -1) {
        char *tok[MAX_FIELDS];
        int ntok;

        rd->line++;
        ntok = split_fields(line, tok);     /* may exceed MAX_FIELDS: then
                                               no entry matches the count */
        if (ntok > 0)
            st = coeff_line(rd, tok, ntok, err);
    }
    if (st == NB_OK && ferror(fp))
        st = nb_error_set(err, NB_ERR_IO, "%s: read error: %s", rd->path,
                          strerror(errno));
    free(line);
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
    FILE *fp;

    if (!rd)
        return NB_ERR_NOMEM;
    rd->path = path;
    rd->mix = NB_MIX_GEOMETRIC;
    fp = fopen(path, "r");
    if (!fp) {
        st = nb_error_set(err, NB_ERR_IO, "%s: cannot open: %s", path,
                          strerror(errno));
        free(rd);
        return st;
    }
    st = coeff_lines(rd, fp, err);
    fclose(fp);
    if (st == NB_OK && !rd->types_line)
        st = nb_error_set(err, NB_ERR_PARSE, "%s: no 'types T' line (it must "
                          "be the first entry)", path);
    if (st == NB_OK) {
        for (int i = 0; i < rd->types.count; i++)
            for (int j = i + 1; j < rd->types.count; j++)
                if (!rd->given[i][j])
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
    return NB_OK;
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
