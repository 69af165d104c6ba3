/* check_md_checks.c - what the host MD refuses, and says why: boxes,
 * systems with one thing broken, coefficient files (bad and good), sim
 * setups; and excluded pairs, subtracted from the forces.  No GL. */
#include "md_host_fixtures.h"

/* ---- refusals: boxes, systems, potentials, the coefficient file --------- */

START_TEST(test_box_check)
{
    struct nb_error err = {NB_OK, ""};
    struct nb_md_box box = {{0, 0, 0}, {10, 5, 10}, {1, 1, 0}};

    ck_assert_int_eq(nb_md_box_check(&box, 2.5, &err), NB_OK);
    ck_assert_int_eq(nb_md_box_check(&box, 3.0, &err), NB_ERR_ARGS);
    ck_assert_str_eq(err.message, "cutoff 3 is larger than half the periodic "
                     "box along y (length 5)");
    ck_assert_int_eq(nb_md_box_check(&box, 0.0, &err), NB_ERR_ARGS);
    assert_message(&err, "a periodic box needs --cutoff");
    box.periodic[0] = box.periodic[1] = 0;
    ck_assert_int_eq(nb_md_box_check(&box, 0.0, &err), NB_OK);
    ck_assert_int_eq(nb_md_box_check(&box, 100.0, &err), NB_OK);   /* open */
    box.hi[2] = 0.0;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
    assert_message(&err, "box along z needs finite bounds lo < hi");
    box.hi[2] = 10.0;
    box.lo[0] = NAN;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
    assert_message(&err, "box along x");
    box.lo[0] = -INFINITY;
    ck_assert_int_eq(nb_md_box_check(&box, 1.0, &err), NB_ERR_ARGS);
}
END_TEST

/* Each case breaks one thing of a valid 4-particle, 2-type system. */
static const struct system_case {
    const char *reason;
} system_cases[] = {
    {"has type 3, outside the coefficient table's types 1..2"},
    {"has type 0, outside"},
    {"the mass must be a finite number > 0, not 0"},
    {"the charge must be finite"},
    {"cell lists need a cutoff"},
    {"cell lists need at least 3 cells of width >= the cutoff 2.5 along the "
     "periodic y axis"},
    {"cutoff 4 is larger than half the periodic box along x (length 7.5)"},
    {"sigma must be a finite number > 0, not 0"},
    {"eps must be a finite number >= 0, not -1"},
    {"the dielectric constant must be a finite number > 0"},
    {"cz > 2"},
    {"the type count must be 1..16, not 17"},
    {"the cutoff must be a finite number >= 0"},
    {"the pair tables must be symmetric"},
    {"an MD system needs at least one particle"},
    {"cell lists: the box holds"},
};

static void break_system(struct test_system *t, int which)
{
    switch (which) {
    case 0: t->type[2] = 3; break;
    case 1: t->type[0] = 0; break;
    case 2: t->m[1] = 0.0; break;
    case 3: t->q[3] = NAN; break;
    case 4: t->box.periodic[0] = t->box.periodic[1] = t->box.periodic[2] = 0;
            t->pot.cutoff = 0.0; break;
    case 5: t->box.hi[1] = 7.4; break;          /* 2 cells of 3.7 */
    case 6: t->pot.cutoff = 4.0; break;
    case 7: t->pot.types.sigma[1][1] = 0.0; break;
    case 8: t->pot.types.eps[0][1] = t->pot.types.eps[1][0] = -1.0; break;
    case 9: t->pot.dielectric = 0.0; break;
    case 10: t->pot.types.ionic[1][1][2] = 2.0; break;
    case 11: t->pot.types.count = 17; break;
    case 12: t->pot.cutoff = -1.0; break;
    case 13: t->pot.types.sigma[0][1] = 1.25; break;
    case 14: t->sys.n = 0; break;
    default: t->box.periodic[0] = t->box.periodic[1] = t->box.periodic[2] = 0;
             t->pot.cutoff = 1e-3; break;       /* 7.5e3^3 cells */
    }
}

START_TEST(test_system_check)
{
    struct test_system t;
    struct nb_error err = {NB_OK, ""};

    system_alloc(&t, 4);
    nb_md_potential_default(&t.pot, NB_LAW_LJC_LINEAR, 2);
    t.pot.cutoff = 2.5;
    for (int k = 0; k < 3; k++) {
        t.box.hi[k] = 7.5;
        t.box.periodic[k] = 1;
    }
    for (size_t i = 0; i < 4; i++) {
        t.type[i] = 1 + (int)(i % 2);
        t.m[i] = 1.0;
        t.x[3 * i] = 1.5 * (double)i;
    }
    t.sys.cell_list = 1;
    ck_assert_int_eq(nb_md_system_check(&t.sys, &err), NB_OK);
    break_system(&t, _i);
    ck_assert_int_eq(nb_md_system_check(&t.sys, &err), NB_ERR_ARGS);
    assert_message(&err, system_cases[_i].reason);
    system_free(&t);
}
END_TEST

#define X70 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define X62 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

/* A coefficient file and what reading it must say. */
static const struct coeff_case {
    const char *content;
    enum nb_status status;
    int line;               /* 0: no line in the message */
    const char *reason;
} coeff_cases[] = {
    {"types 2\nmass 1 1\nbond 1 2 3\n", NB_ERR_PARSE, 3,
     "unknown keyword 'bond' (known: types, mass, charge, lj, mix, ionic)"},
    {"# coeffs\n\nmass 1 2.0\ntypes 2\n", NB_ERR_PARSE, 3,
     "'mass' before the 'types' line"},
    {"types 2\nlj 1 2 1.0 x1\n", NB_ERR_PARSE, 2,
     "lj SIGMA: not a number: 'x1'"},
    {"types 2\ncharge 2 1e999\n", NB_ERR_PARSE, 2,
     "charge Q: out of range: '1e999' overflows a double"},
    {"types 2\nlj 1 3 1 1\n", NB_ERR_PARSE, 2,
     "lj J: out of range: '3' is outside 1..2"},
    {"types 2\nionic 0 1 1 1 12\n", NB_ERR_PARSE, 2,
     "ionic I: out of range: '0' is outside 1..2"},
    {"types 2\nmass 1.5 1\n", NB_ERR_PARSE, 2, "mass I: not an integer: '1.5'"},
    {"types 17\n", NB_ERR_PARSE, 1, "types T: out of range: '17' is outside 1..16"},
    {"types two\n", NB_ERR_PARSE, 1, "types T: not an integer: 'two'"},
    {"types 2\ntypes 3\n", NB_ERR_PARSE, 2,
     "'types' given twice (first on line 1)"},
    {"types 2\nlj 1 1 1\n", NB_ERR_PARSE, 2,
     "missing field: expected 5 fields (lj I J EPS SIGMA), found 4"},
    {"types 2\nmix lorentz\n", NB_ERR_PARSE, 2,
     "mix: 'lorentz' is not arithmetic or geometric"},
    {"types 2\nmass 2 -1\n", NB_ERR_PARSE, 2, "mass 2 must be > 0, not -1"},
    {"types 2\nlj 2 2 -0.5 1\n", NB_ERR_PARSE, 2, "EPS must be >= 0"},
    {"types 2\nionic 1 2 -2 1 2\n", NB_ERR_PARSE, 2, "CZ must be > 2"},
    {"types 1\nlj 1 1 1 1 1 1 1 1 1 1 1 1\n", NB_ERR_PARSE, 2, "found 13"},
    {"", NB_ERR_PARSE, 0, "no 'types T' line"},
    {"# only a comment\n", NB_ERR_PARSE, 0, "no 'types T' line"},
    /* An entry given twice would let the last silently win. */
    {"types 2\nlj 1 1 1 1\nlj 1 1 2 1\n", NB_ERR_PARSE, 3,
     "'lj 1 1' given twice (first on line 2); give it once"},
    {"types 2\nlj 1 2 1 1\n# same pair\nlj 2 1 2 1\n", NB_ERR_PARSE, 4,
     "'lj 2 1' given twice (first on line 2); give it once"},
    {"types 2\nionic 1 2 1 1 6\nionic 2 1 1 1 6\n", NB_ERR_PARSE, 3,
     "'ionic 2 1' given twice (first on line 2)"},
    {"types 2\nmass 2 1\ncharge 2 1\nmass 2 3\n", NB_ERR_PARSE, 4,
     "'mass 2' given twice (first on line 2)"},
    {"types 2\ncharge 1 1\ncharge 1 -1\n", NB_ERR_PARSE, 3,
     "'charge 1' given twice (first on line 2)"},
    {"types 2\nmix arithmetic\nmix geometric\n", NB_ERR_PARSE, 3,
     "'mix' given twice (first on line 2)"},
    /* Binary bytes are quoted as '?', and at most 64 of them, as the
     * snapshot reader does (nb_text_excerpt). */
    {"types 2\n\x01\xff" X70 "\n", NB_ERR_PARSE, 2,
     "unknown keyword '??" X62 "' (known:"},
};

/* A table read for a law and what the interaction check says (NULL: no
 * pair is idle). */
static const struct interaction_case {
    enum nb_md_law law;
    const char *content;
    int particle_charges;
    const char *reason;
} interaction_cases[] = {
    {NB_LAW_IONIC, "types 2\nmass 1 1\n", 0, "types 1 and 1 do not interact "
     "under the ionic law: give an 'ionic I J CX CY CZ' line with CX or CY not 0"},
    {NB_LAW_IONIC, "types 2\nionic 1 1 1 1 6\nionic 2 2 1 1 6\n", 0,
     "types 1 and 2 do not interact under the ionic law"},
    {NB_LAW_LJ, "types 2\nlj 2 2 0 1\n", 0,
     "types 1 and 2 do not interact under the lj law: give an 'lj' line"},
    {NB_LAW_LJC_CONSTANT, "types 2\nlj 1 1 0 1\nlj 2 2 0 1\ncharge 1 1\n", 0,
     "types 1 and 2 do not interact under the ljc-constant law"},
    {NB_LAW_LJC_CONSTANT, "types 2\nlj 1 1 0 1\nlj 2 2 0 1\n", 1, NULL},
    {NB_LAW_LJC_CONSTANT, "types 2\nlj 1 1 0 1\ncharge 1 1\ncharge 2 -1\n", 0,
     NULL},
    {NB_LAW_LJ, "types 2\nmass 2 3\n", 0, NULL},
    {NB_LAW_IONIC, "types 2\nionic 1 1 1 1 6\nionic 1 2 -1 1 6\n"
     "ionic 2 2 0 1 6\n", 0, NULL},
};

/* Writes content to a fresh temporary file; its name in path. */
static void temp_file(char *path, size_t size, const char *content)
{
    const char *base = getenv("TMPDIR");
    int fd;
    FILE *fp;

    snprintf(path, size, "%s/check_md.XXXXXX", base && *base ? base : "/tmp");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fp = fdopen(fd, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(content, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

/* A pair that never interacts is refused, naming the file and the pair. */
START_TEST(test_coeff_interactions)
{
    const struct interaction_case *c = &interaction_cases[_i];
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};
    char path[1024], where[1100];

    nb_md_potential_default(&pot, c->law, 1);
    temp_file(path, sizeof path, c->content);
    ck_assert_msg(nb_md_types_read(path, &pot, &err) == NB_OK, "%s",
                  err.message);
    enum nb_status st = nb_md_types_check_interactions(&pot, path,
                                                       c->particle_charges, &err);
    if (c->reason) {
        ck_assert_int_eq(st, NB_ERR_PARSE);
        snprintf(where, sizeof where, "%s: ", path);
        ck_assert_msg(strncmp(err.message, where, strlen(where)) == 0, "%s",
                      err.message);
        assert_message(&err, c->reason);
    } else {
        ck_assert_msg(st == NB_OK, "case %d: %s", _i, err.message);
    }
    unlink(path);
}
END_TEST

START_TEST(test_coeff_file_bad)
{
    const struct coeff_case *c = &coeff_cases[_i];
    struct nb_md_potential pot, before;
    struct nb_error err = {NB_OK, ""};
    char path[1024], where[1100];

    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    before = pot;
    temp_file(path, sizeof path, c->content);
    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), c->status);
    if (c->line > 0)
        snprintf(where, sizeof where, "%s:%d:", path, c->line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    ck_assert_msg(strncmp(err.message, where, strlen(where)) == 0,
                  "case %d: message '%s' does not start with '%s'", _i,
                  err.message, where);
    assert_message(&err, c->reason);
    ck_assert(memcmp(&pot, &before, sizeof pot) == 0);  /* untouched */
    unlink(path);
}
END_TEST

START_TEST(test_coeff_file_good)
{
    static const char content[] =
        "# two ions and a solvent\n"
        "types 3   # numbered 1..3 as in LAMMPS\n"
        "mass 1 2.5\n"
        "charge 1 2\n"
        "charge 2 -1\r\n"
        "lj 1 1 1.0 1.0\n"
        "lj 2 2 4.0 3.0\n"
        "lj 3 3 9.0 2.0\n"
        "lj 3 1 0.5 7.0    # given: not mixed\n"
        "mix arithmetic\n"
        "ionic 2 1 -2 0.5 10\n";
    struct nb_md_potential pot;
    struct nb_error err = {NB_OK, ""};
    char path[1024];
    const struct nb_md_types *t = &pot.types;

    nb_md_potential_default(&pot, NB_LAW_IONIC, 1);
    pot.cutoff = 3.0;
    temp_file(path, sizeof path, content);
    ck_assert_msg(nb_md_types_read(path, &pot, &err) == NB_OK, "%s",
                  err.message);
    ck_assert(pot.law == NB_LAW_IONIC && pot.cutoff == 3.0);   /* untouched */
    ck_assert_int_eq(t->count, 3);
    ck_assert(t->mass[0] == 2.5 && t->mass[1] == 1.0);
    ck_assert(t->charge[0] == 2.0 && t->charge[1] == -1.0 &&
              t->charge[2] == 0.0);
    ck_assert(t->sigma[0][1] == 2.0 && t->eps[1][0] == 2.0);   /* mixed */
    ck_assert(t->sigma[1][2] == 2.5 && t->eps[2][1] == 6.0);
    ck_assert(t->sigma[0][2] == 7.0 && t->eps[2][0] == 0.5);   /* given */
    ck_assert(t->ionic[0][1][0] == -2.0 && t->ionic[1][0][2] == 10.0);
    ck_assert(t->ionic[0][0][2] == 12.0 && t->ionic[2][2][1] == 0.0);
    ck_assert_int_eq(nb_md_potential_check(&pot, &err), NB_OK);
    unlink(path);

    /* Without a mix line the pairs are mixed geometrically (LAMMPS). */
    temp_file(path, sizeof path, "types 2\nlj 1 1 1 1\nlj 2 2 4 4\n");
    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), NB_OK);
    ck_assert(t->sigma[0][1] == 2.0 && t->eps[0][1] == 2.0);
    unlink(path);

    ck_assert_int_eq(nb_md_types_read(path, &pot, &err), NB_ERR_IO);
    assert_message(&err, path);
    assert_message(&err, "cannot open");
}
END_TEST

START_TEST(test_sim_init_refusals)
{
    struct nb_particles p;
    struct nb_md_potential pot;
    struct nb_md_box box;
    struct nb_md_engine e;
    struct nb_md_sim s;
    struct nb_error err = {NB_OK, ""};

    typed_particles(&p, 3);
    p.x[3] = 1.5;
    p.x[6] = 3.0;
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    open_box(&box, 5.0);
    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 0.0, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "time step must be a finite number > 0");
    nb_md_sim_free(&s);
    p.v[4] = INFINITY;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "particle 1 (index 1) has a non-finite");
    nb_md_sim_free(&s);
    p.v[4] = 0.0;
    p.type[2] = 2;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "particle 2 has type 2");
    nb_md_sim_free(&s);
    p.type[2] = 1;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 1, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "cell lists need a cutoff");
    nb_md_sim_free(&s);
    free(p.type);
    p.type = NULL;
    ck_assert_int_eq(nb_md_sim_init(&s, &p, &pot, &box, 0, 1e-3, &e, &err),
                     NB_ERR_ARGS);
    assert_message(&err, "needs particle types");
    nb_md_sim_free(&s);
    ck_assert_ptr_null(s.x);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

/* Exclusions ('exclude afterwards'): three particles, the pair 0-1
 * excluded: what is left is exactly the pairs 0-2 and 1-2, for the forces,
 * energies and virials; a sim with the exclusion integrates on the host. */
START_TEST(test_excluded_pairs_subtracted)
{
    struct nb_particles p = { 0 };
    struct nb_md_potential pot;
    struct nb_md_box box = { { -5, -5, -5 }, { 5, 5, 5 }, { 0, 0, 0 } };
    struct nb_md_pair_coeff c;
    struct nb_error err = { 0 };
    struct nb_md_sim sim;
    struct nb_md_engine e;
    const uint32_t pair[2] = { 1, 0 };
    double f[9], pe[3], vir[3], cshift, want_f[9] = { 0 }, want_pe[3] = { 0 };
    const double x[9] = { 0, 0, 0, 1.1, 0.1, 0, 0.3, 1.2, -0.2 };

    ck_assert_int_eq(nb_particles_alloc(&p, 3, &err), NB_OK);
    ck_assert_int_eq(nb_particles_add_types(&p, &err), NB_OK);
    memcpy(p.x, x, sizeof x);
    for (int i = 0; i < 3; i++) {
        p.type[i] = 1;
        p.m[i] = 1.0;
    }
    nb_md_potential_default(&pot, NB_LAW_LJ, 1);
    nb_md_pair_coeffs(&pot, &c, &cshift);
    for (int i = 0; i < 2; i++) {                   /* the pairs i-2 */
        double d[3], r2 = 0.0, fr, u;
        for (int a = 0; a < 3; a++) {
            d[a] = x[3 * i + a] - x[6 + a];
            r2 += d[a] * d[a];
        }
        nb_md_pair(&pot, &c, cshift, 0.0, r2, &fr, &u);
        for (int a = 0; a < 3; a++) {
            want_f[3 * i + a] += fr * d[a];
            want_f[6 + a] -= fr * d[a];
        }
        want_pe[i] += 0.5 * u;
        want_pe[2] += 0.5 * u;
    }
    struct nb_md_system sys = { .n = 3, .type = p.type, .m = p.m, .pot = &pot, .box = &box,
                                .n_excluded = 1, .excluded = pair };
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_OK);
    ck_assert_int_eq(nb_md_cpu_forces(&sys, x, f, pe, vir, &err), NB_OK);
    nb_md_subtract_excluded(&sys, x, f, pe, vir);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(f[k], want_f[k], 1e-12 * (1.0 + fabs(want_f[k])));
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(pe[k], want_pe[k], 1e-12 * (1.0 + fabs(want_pe[k])));

    ck_assert_int_eq(nb_md_engine_cpu_create(&e, &err), NB_OK);
    ck_assert_int_eq(nb_md_sim_init_excluding(&sim, &p, &pot, &box, 0, 0.001, &e, 1, pair,
                                              &err), NB_OK);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(sim.f[k], want_f[k], 1e-12 * (1.0 + fabs(want_f[k])));
    ck_assert_int_eq(nb_md_sim_advance(&sim, 5, &err), NB_OK);
    nb_md_sim_free(&sim);
    const uint32_t self[2] = { 2, 2 }, beyond[2] = { 0, 3 };
    sys.excluded = self;
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_ERR_ARGS);
    ck_assert_msg(strstr(err.message, "excluded pair") != NULL, "%s", err.message);
    sys.excluded = beyond;
    ck_assert_int_eq(nb_md_system_check(&sys, &err), NB_ERR_ARGS);
    e.destroy(e.state);
    nb_particles_free(&p);
}
END_TEST

static Suite *md_checks_suite(void)
{
    Suite *s = suite_create("md_checks");
    TCase *tc = tcase_create("checks");

    tcase_add_test(tc, test_box_check);
    tcase_add_loop_test(tc, test_system_check, 0,
                        (int)(sizeof system_cases / sizeof *system_cases));
    tcase_add_loop_test(tc, test_coeff_file_bad, 0,
                        (int)(sizeof coeff_cases / sizeof *coeff_cases));
    tcase_add_test(tc, test_coeff_file_good);
    tcase_add_loop_test(tc, test_coeff_interactions, 0,
                        (int)(sizeof interaction_cases / sizeof *interaction_cases));
    tcase_add_test(tc, test_sim_init_refusals);
    tcase_add_test(tc, test_excluded_pairs_subtracted);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_md_host_suite("check_md_checks", md_checks_suite());
}
