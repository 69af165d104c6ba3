/* check_md_io.c - tests of the MD files: LAMMPS dumps (read and
 * write), extended XYZ and exclusion lists (initial conditions:
 * check_md_ic; snapshots: check_snapshot).
 *
 * No GL.  main() prints the run's random seed; NB_TEST_SEED=S replays it.
 */
#include "nb_host.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file_fixtures.h"

static uint64_t g_seed;         /* this run's seed, set by main */

/* ---- LAMMPS dumps ---------------------------------------------------------- */

/* Write -> read is bit-exact: ids, types, masses, positions, velocities,
 * bounds and flags; a second timestep after the first is not read. */
START_TEST(test_dump_round_trip)
{
    struct nb_md_potential pot;
    struct nb_particles p, q;
    struct nb_md_box box, back;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    FILE *fp;
    double x0;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0xd0);
    tmp_make(&t, "dump.lammpstrj");
    fp = fopen(t.path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_lammps_dump_write(fp, 42, &p, &box, &err), NB_OK);
    x0 = p.x[0];
    p.x[0] = 99.0;      /* the second timestep differs */
    ck_assert_int_eq(nb_lammps_dump_write(fp, 43, &p, &box, &err), NB_OK);
    p.x[0] = x0;
    ck_assert_int_eq(fclose(fp), 0);
    /* which frame was meant is a guess: a trajectory is refused */
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &q, &back, &pot, &err), NB_ERR_PARSE);
    {
        char at[1200];

        snprintf(at, sizeof at, "%s:%zu:1: a second frame", t.path, 9 + p.n + 1);
        ck_assert_msg(strstr(err.message, at) != NULL, "%s", err.message);
    }
    err = (struct nb_error){NB_OK, ""};
    {
        char *text = read_text(t.path);

        ck_assert_uint_eq(count_lines(text), 2 * (9 + p.n));
        free(text);
    }
    fp = fopen(t.path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_lammps_dump_write(fp, 42, &p, &box, &err), NB_OK);
    ck_assert_int_eq(fclose(fp), 0);
    ck_assert_msg(nb_lammps_dump_read(t.path, &q, &back, &pot, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_uint_eq(q.n, p.n);
    ck_assert_ptr_null(q.q);
    ck_assert(memcmp(p.id, q.id, p.n * sizeof *p.id) == 0);
    ck_assert(memcmp(p.type, q.type, p.n * sizeof *p.type) == 0);
    ck_assert(memcmp(p.m, q.m, p.n * sizeof *p.m) == 0);
    ck_assert(memcmp(p.x, q.x, 3 * p.n * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 3 * p.n * sizeof *p.v) == 0);
    ck_assert(memcmp(box.lo, back.lo, sizeof box.lo) == 0);
    ck_assert(memcmp(box.hi, back.hi, sizeof box.hi) == 0);
    ck_assert(back.periodic[0] == 1 && back.periodic[1] == 1 &&
              back.periodic[2] == 0);
    {
        char *text = read_text(t.path);

        ck_assert_ptr_nonnull(strstr(text, "ITEM: TIMESTEP\n42\n"));
        ck_assert_ptr_nonnull(strstr(text, "ITEM: BOX BOUNDS pp pp ff\n"));
        ck_assert_ptr_nonnull(strstr(text, "ITEM: ATOMS id type mass x y z "
                                           "vx vy vz\n"));
        ck_assert_uint_eq(count_lines(text), 9 + p.n);
        free(text);
    }
    tmp_remove(&t);
    nb_particles_free(&p);
    nb_particles_free(&q);
}
END_TEST

/* Columns in another order, extra columns ignored, masses from the type
 * table, no velocities (zero), UNITS and TIME items, scaled coordinates,
 * a q column, flags f s m as open. */
START_TEST(test_dump_columns)
{
    const char *text =
        "ITEM: UNITS\nlj\nITEM: TIME\n0.5\n"
        "ITEM: TIMESTEP\n100\nITEM: NUMBER OF ATOMS\n3\n"
        "ITEM: BOX BOUNDS fs pp fm\n-2 2\n0 10\r\n1e0 3e0\n"
        "ITEM: ATOMS c_pe x type q zs ix id y\n"
        "7.5 0.5 2 -1 0.25 0 30 1.5\n"
        "7.5 -1 1 2 1 3 10 9.75\n"
        "\t7.5 1e-3 2 -1.0 0 -1 20 0   \n";
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "cols.dump");
    write_text(t.path, text);
    ck_assert_msg(nb_lammps_dump_read(t.path, &p, &box, &pot, &err) == NB_OK,
                  "%s", err.message);
    ck_assert_uint_eq(p.n, 3);
    ck_assert_ptr_nonnull(p.q);
    ck_assert_int_eq(p.id[0], 30);
    ck_assert_int_eq(p.id[1], 10);
    ck_assert_int_eq(p.id[2], 20);
    ck_assert(p.type[0] == 2 && p.type[1] == 1 && p.type[2] == 2);
    ck_assert(p.m[0] == 1.0 && p.m[1] == 238.0 / 16.0 && p.m[2] == 1.0);
    ck_assert(p.q[0] == -1.0 && p.q[1] == 2.0 && p.q[2] == -1.0);
    ck_assert(p.x[0] == 0.5 && p.x[1] == 1.5 && p.x[2] == 1.5);
    ck_assert(p.x[3] == -1.0 && p.x[4] == 9.75 && p.x[5] == 3.0);
    ck_assert(p.x[6] == 1e-3 && p.x[7] == 0.0 && p.x[8] == 1.0);
    for (size_t i = 0; i < 9; i++)
        ck_assert(p.v[i] == 0.0);
    ck_assert(box.periodic[0] == 0 && box.periodic[1] == 1 &&
              box.periodic[2] == 0);
    ck_assert(box.lo[0] == -2 && box.hi[1] == 10 && box.hi[2] == 3);
    nb_particles_free(&p);
    /* Old dumps have no flags (periodic); masses from a column, no table. */
    write_text(t.path, "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\n"
               "ITEM: BOX BOUNDS\n0 1\n0 1\n0 1\n"
               "ITEM: ATOMS id type mass vz vy vx x y z\n"
               "5 7 2.5 3 2 1 0.1 0.2 0.3\n");
    ck_assert_msg(nb_lammps_dump_read(t.path, &p, &box, NULL, &err) == NB_OK,
                  "%s", err.message);
    ck_assert(box.periodic[0] && box.periodic[1] && box.periodic[2]);
    ck_assert(p.type[0] == 7 && p.m[0] == 2.5);
    ck_assert(p.v[0] == 1 && p.v[1] == 2 && p.v[2] == 3);
    ck_assert(p.x[2] == 0.3);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

struct bad_dump {
    const char *content;
    int line, column;       /* line 0: the message names no line */
    const char *reason;     /* the message after "path:line:column: " */
};

#define HEAD "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n"
#define BOX "ITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\n"
#define ATOMS "ITEM: ATOMS id type x y z\n"
#define HEADER_ORDER " (a timestep needs ITEM: TIMESTEP, ITEM: NUMBER OF " \
    "ATOMS and ITEM: BOX BOUNDS first)"

static const struct bad_dump bad_dumps[] = {
    {"", 0, 0, "empty file"},
    {"ITEM: NUMBER OF ATOMS\n1\n" BOX ATOMS "1 1 0 0 0\n", 7, 1,
     "ITEM: ATOMS before ITEM: TIMESTEP" HEADER_ORDER},
    {"ITEM: TIMESTEP\n0\n" BOX ATOMS "1 1 0 0 0\n", 7, 1,
     "ITEM: ATOMS before ITEM: NUMBER OF ATOMS" HEADER_ORDER},
    {HEAD "1\n" ATOMS "1 1 0 0 0\n", 5, 1,
     "ITEM: ATOMS before ITEM: BOX BOUNDS" HEADER_ORDER},
    {HEAD "1\n" BOX, 9, 1, "end of file before ITEM: ATOMS (truncated, or "
     "not a LAMMPS dump?)"},
    {HEAD "3\n" BOX ATOMS "1 1 0 0 0\n2 1 0 0 0\n", 12, 1,
     "end of file after 2 of the 3 atoms of ITEM: NUMBER OF ATOMS "
     "(truncated?)"},
    {HEAD "2\n" BOX ATOMS "1 1 0 0 0\n" HEAD, 11, 1,
     "'ITEM: TIMESTEP' after 1 of the 2 atoms of ITEM: NUMBER OF ATOMS"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0 0\n2 1 0 0 0\n", 11, 1,
     "more atom lines than the 1 of ITEM: NUMBER OF ATOMS"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type y z\n1 1 0 0\n", 9, 1,
     "ITEM: ATOMS has no x column (x, xu or xs)"},
    {HEAD "1\n" BOX "ITEM: ATOMS type x y z\n1 0 0 0\n", 9, 1,
     "ITEM: ATOMS has no id column"},
    {HEAD "1\n" BOX ATOMS "1 1 0 abc 0\n", 10, 7, "y: not a number: 'abc'"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0 0.5x\n", 10, 9, "z: not a number: '0.5x'"},
    {HEAD "1\n" BOX ATOMS "1 1 nan 0 0\n", 10, 5, "x: not finite: 'nan'"},
    {HEAD "1\n" BOX ATOMS "1 1 0 -1e400 0\n", 10, 7,
     "y: out of range: '-1e400' overflows a double"},
    {HEAD "1\n" BOX ATOMS "1.5 1 0 0 0\n", 10, 1,
     "id: not an integer: '1.5'"},
    {HEAD "1\n" BOX ATOMS "1 3 0 0 0\n", 10, 3,
     "type: out of range: '3' is outside 1..2"},
    {HEAD "1\n" BOX ATOMS "1 0 0 0 0\n", 10, 3,
     "type: out of range: '0' is outside 1..2"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0\n", 10, 8, "missing field: expected 5 "
     "fields (the columns of ITEM: ATOMS on line 9), found 4"},
    {HEAD "1\n" BOX ATOMS "1 1 0 0 0 6\n", 10, 11, "extra field '6': "
     "expected 5 fields (the columns of ITEM: ATOMS on line 9), found 6"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type mass x y z\n1 1 0 0 0 0\n", 10, 5,
     "mass: must be > 0, not '0'"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type x y z vx vy\n1 1 0 0 0 0 0\n", 9, 1,
     "ITEM: ATOMS has 2 of the velocity columns vx vy vz: all three or none"},
    {HEAD "1\n" BOX "ITEM: ATOMS id type x y x z\n1 1 0 0 0 0\n", 9, 25,
     "ITEM: ATOMS gives the x column twice (columns 3 and 5)"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n", 7, 1,
     "end of file after ITEM: BOX BOUNDS (truncated?)"},
    {HEAD "1\nITEM: BOX BOUNDS pp pf pp\n0 1\n0 1\n0 1\n" ATOMS, 5, 21,
     "ITEM: BOX BOUNDS: boundary 'pf' along y mixes periodic and open "
     "(LAMMPS allows p only on both sides)"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp qq\n0 1\n0 1\n0 1\n" ATOMS, 5, 24,
     "ITEM: BOX BOUNDS: boundary 'qq' along z is not two of p, f, s, m"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp\n0 1\n0 1\n" ATOMS, 5, 23,
     "missing field: expected 6 fields (ITEM: BOX BOUNDS and 3 boundary "
     "flags like pp pp ff, or none), found 5"},
    {HEAD "1\nITEM: BOX BOUNDS xy xz yz pp pp pp\n0 1 0\n0 1 0\n0 1 0\n", 5,
     18, "ITEM: BOX BOUNDS: triclinic boxes (xy xz yz) are not supported"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n1 0\n0 1\n" ATOMS, 7, 1,
     "ITEM: BOX BOUNDS: lo 1 >= hi 0 along y"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1 2\n0 1\n" ATOMS, 7, 5,
     "extra field '2': expected 2 fields (ITEM: BOX BOUNDS: lo hi along y), "
     "found 3"},
    {HEAD "1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 inf\n0 1\n" ATOMS, 7, 3,
     "box bound along y: not finite: 'inf'"},
    {HEAD "0\n" BOX ATOMS, 4, 1, "ITEM: NUMBER OF ATOMS: out of range: '0' "
     "is outside 1..9223372036854775807"},
    {HEAD "1000000000000\n" BOX ATOMS "1 1 0 0 0\n", 4, 1, "ITEM: NUMBER OF ATOMS: "
     "1000000000000 atoms claimed, but the 10 bytes after line 9 hold at most 1 "
     "lines of 5 values (truncated?)"},
    {HEAD "many\n" BOX ATOMS, 4, 1,
     "ITEM: NUMBER OF ATOMS: not an integer: 'many'"},
    {"ITEM: TIMESTEP\nabc\n", 2, 1, "ITEM: TIMESTEP: not an integer: 'abc'"},
    {"ITEM: TIMESTEP\n1 2\n", 2, 3,
     "extra field '2': expected 1 field (ITEM: TIMESTEP), found 2"},
    {"ITEM: TIMESTEP\n\n", 2, 1,
     "missing field: expected 1 field (ITEM: TIMESTEP), found 0"},
    {"ITEM: TIMESTEP\n0\nITEM: TIMESTEP\n0\n", 3, 1,
     "a second ITEM: TIMESTEP before ITEM: ATOMS (the first is on line 1)"},
    {"ITEM: TIMESTEP\n0\nITEM: ENTRIES c_1\n", 3, 1,
     "unknown item 'ITEM: ENTRIES c_1'"},
    {"# id type x y z\n1 1 0 0 0\n", 1, 1,
     "expected an ITEM: line, found '# id type x y z'"},
};

/* Each malformed dump is refused with NB_ERR_PARSE, a message naming the
 * file, the line and the cause, and nothing allocated. */
START_TEST(test_dump_refused)
{
    const struct bad_dump *c = &bad_dumps[_i];
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "bad.dump");
    write_text(t.path, c->content);
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, &pot, &err),
                     NB_ERR_PARSE);
    ck_assert_int_eq(err.status, NB_ERR_PARSE);
    assert_at(&err, t.path, c->line, c->column, c->reason);
    assert_particles_empty(&p);
    tmp_remove(&t);
}
END_TEST

/* Missing files, a directory, masses with nowhere to come from, and a
 * write to a stream that cannot take it. */
START_TEST(test_dump_io_errors)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    FILE *fp;

    nb_md_ionic_default(&pot);
    tmp_make(&t, "none.dump");
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, &pot, &err),
                     NB_ERR_IO);
    assert_at(&err, t.path, 0, 0, "cannot open: No such file or directory");
    assert_particles_empty(&p);
    ck_assert_int_eq(nb_lammps_dump_read(t.dir, &p, &box, &pot, &err),
                     NB_ERR_IO);
    assert_at(&err, t.dir, 0, 0, "read error: Is a directory");
    write_text(t.path, HEAD "1\n" BOX ATOMS "1 1 0 0 0\n");
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, NULL, &err),
                     NB_ERR_PARSE);
    assert_at(&err, t.path, 9, 1, "ITEM: ATOMS has no mass column and there "
              "is no type table to take the masses from");
    fp = fopen(t.path, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_md_fcc(&p, &box, 1, 1.0, 1.0, 1, &err), NB_OK);
    ck_assert_int_eq(nb_lammps_dump_write(fp, 0, &p, &box, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "LAMMPS dump: write error"));
    ck_assert_int_eq(nb_extxyz_write(fp, 0.0, &p, &box, &err), NB_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "extended XYZ: write error"));
    fclose(fp);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- extended XYZ ---------------------------------------------------------- */

/* Two frames: n + 2 lines each; the count, the header keys OVITO and ASE
 * read, and atom lines of species, position, velocity and Z that parse
 * back to the exact values. */
START_TEST(test_extxyz)
{
    struct nb_md_potential pot;
    struct nb_particles p;
    struct nb_md_box box;
    struct nb_error err = {NB_OK, ""};
    struct tmp t;
    char *text, *line, *save = NULL;
    char want[512];
    FILE *fp;
    size_t at = 0;

    nb_md_ionic_default(&pot);
    awkward_set(&p, &box, &pot, g_seed ^ 0x8d);
    tmp_make(&t, "frames.xyz");
    fp = fopen(t.path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(nb_extxyz_write(fp, 0.25, &p, &box, &err), NB_OK);
    ck_assert_int_eq(nb_extxyz_write(fp, 0.5, &p, &box, &err), NB_OK);
    ck_assert_int_eq(fclose(fp), 0);
    text = read_text(t.path);
    ck_assert_uint_eq(count_lines(text), 2 * (p.n + 2));
    snprintf(want, sizeof want, "%zu\nLattice=\"%.17g 0 0 0 %.17g 0 0 0 "
             "%.17g\" Origin=\"%.17g %.17g %.17g\" Properties=species:S:1:"
             "pos:R:3:velo:R:3:Z:I:1 pbc=\"T T F\" Time=0.25\n", p.n,
             box.hi[0] - box.lo[0], box.hi[1] - box.lo[1],
             box.hi[2] - box.lo[2], box.lo[0], box.lo[1], box.lo[2]);
    ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "header:\n%.300s",
                  text);
    ck_assert_ptr_nonnull(strstr(text, "pbc=\"T T F\" Time=0.5\n"));
    for (line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), at++) {
        size_t i = at % (p.n + 2);
        char species[16];
        double x[3], v[3];
        int z, used = 0;

        if (i < 2)
            continue;
        i -= 2;
        ck_assert_int_eq(sscanf(line, "%15s %lf %lf %lf %lf %lf %lf %d %n",
                                species, &x[0], &x[1], &x[2], &v[0], &v[1],
                                &v[2], &z, &used), 8);
        ck_assert_uint_eq((size_t)used, strlen(line));
        snprintf(want, sizeof want, "T%d", p.type[i]);
        ck_assert_str_eq(species, want);
        ck_assert_int_eq(z, p.type[i]);
        ck_assert(memcmp(x, &p.x[3 * i], sizeof x) == 0);
        ck_assert(memcmp(v, &p.v[3 * i], sizeof v) == 0);
    }
    ck_assert_uint_eq(at, 2 * (p.n + 2));
    free(text);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* CRLF endings and a last line without a newline read as LF does. */
START_TEST(test_dump_crlf_no_newline)
{
    const char *lf = HEAD "2\nITEM: BOX BOUNDS pp ff pp\n0 1\n-1 2.5\n0 1\n"
                     "ITEM: ATOMS id type x y z vx vy vz\n"
                     "1 2 0.25 0.5 0.75 1 -1 1e-3\n"
                     "-9 1 0.125 -0.5 0 0 0 0\n";
    struct nb_particles p, q;
    struct nb_md_box box, box_crlf;
    struct nb_error err = {NB_OK, ""};
    struct nb_md_potential pot;
    char crlf[1024];
    size_t len = 0;
    struct tmp t;

    nb_md_ionic_default(&pot);
    for (const char *c = lf; *c; c++) {
        if (*c == '\n')
            crlf[len++] = '\r';
        crlf[len++] = *c;
    }
    crlf[len - 2] = '\0';               /* no final CRLF */
    tmp_make(&t, "lf.dump");
    write_text(t.path, lf);
    ck_assert_int_eq(nb_lammps_dump_read(t.path, &p, &box, &pot, &err), NB_OK);
    write_text(t.path, crlf);
    ck_assert_msg(nb_lammps_dump_read(t.path, &q, &box_crlf, &pot, &err) ==
                  NB_OK, "%s", err.message);
    ck_assert_uint_eq(q.n, 2);
    ck_assert(q.id[1] == -9 && q.type[0] == 2 && q.v[2] == 1e-3);
    ck_assert(memcmp(p.x, q.x, 6 * sizeof *p.x) == 0);
    ck_assert(memcmp(p.v, q.v, 6 * sizeof *p.v) == 0);
    ck_assert(memcmp(&box, &box_crlf, sizeof box) == 0);
    ck_assert(box.lo[1] == -1.0 && box.hi[1] == 2.5 && !box.periodic[1]);
    nb_particles_free(&p);
    nb_particles_free(&q);
    tmp_remove(&t);
}
END_TEST

/* ---- exclusion lists -------------------------------------------------------- */

/* Four particles of ids 10, -3, 7, 42 (indices 0..3). */
static void four_particles(struct nb_particles *p)
{
    static const int64_t ids[4] = {10, -3, 7, 42};
    struct nb_error err = {NB_OK, ""};

    ck_assert_int_eq(nb_particles_alloc(p, 4, &err), NB_OK);
    memcpy(p->id, ids, sizeof ids);
}

/* Comments anywhere, blank lines, CRLF, a last line without a newline:
 * the pairs as indices, in file order. */
START_TEST(test_exclusions_read)
{
    const char *text = "# bonds\n\n10 -3\r\n  42\t7 # a comment\n"
                       "#\n-3 42";
    static const uint32_t want[6] = {0, 1, 3, 2, 1, 3};
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    uint32_t *pairs;
    size_t count;
    struct tmp t;

    four_particles(&p);
    tmp_make(&t, "bonds.exclude");
    write_text(t.path, text);
    ck_assert_msg(nb_md_exclusions_read(t.path, &p, &pairs, &count, &err) ==
                  NB_OK, "%s", err.message);
    ck_assert_uint_eq(count, 3);
    ck_assert(memcmp(pairs, want, sizeof want) == 0);
    free(pairs);
    write_text(t.path, "# none\n");
    ck_assert_int_eq(nb_md_exclusions_read(t.path, &p, &pairs, &count, &err),
                     NB_OK);
    ck_assert_uint_eq(count, 0);
    free(pairs);
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

static const struct bad_dump bad_exclusions[] = {
    {"10 -3\n7 999\n", 2, 3, "no particle has id 999"},
    {"10 10\n", 1, 4, "a particle cannot be excluded from itself"},
    {"10 -3 7\n", 1, 7,
     "extra field '7': expected 2 fields (two particle ids), found 3"},
    {"\n  10 # -3\n", 2, 5,
     "missing field: expected 2 fields (two particle ids), found 1"},
    {"10 x\n", 1, 4, "particle id: not an integer: 'x'"},
    {"7.0 10\n", 1, 1, "particle id: not an integer: '7.0'"},
    {"10 99999999999999999999\n", 1, 4, "particle id: out of range: "
     "'99999999999999999999' is outside "
     "-9223372036854775808..9223372036854775807"},
};

START_TEST(test_exclusions_refused)
{
    const struct bad_dump *c = &bad_exclusions[_i];
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    uint32_t *pairs;
    size_t count;
    struct tmp t;

    four_particles(&p);
    tmp_make(&t, "bad.exclude");
    write_text(t.path, c->content);
    ck_assert_int_eq(nb_md_exclusions_read(t.path, &p, &pairs, &count, &err),
                     NB_ERR_PARSE);
    assert_at(&err, t.path, c->line, c->column, c->reason);
    ck_assert_ptr_null(pairs);
    ck_assert_uint_eq(count, 0);
    unlink(t.path);
    ck_assert_int_eq(nb_md_exclusions_read(t.path, &p, &pairs, &count, &err),
                     NB_ERR_IO);
    assert_at(&err, t.path, 0, 0, "cannot open: No such file or directory");
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* A pair given twice, in either order, would be subtracted twice: refused,
 * naming the pair by ids and both lines. */
START_TEST(test_exclusions_repeated)
{
    static const char *const texts[2] = {"10 -3\n7 42\n10 -3\n",
                                         "10 -3\n7 42\n-3 10\n"};
    struct nb_particles p;
    struct nb_error err = {NB_OK, ""};
    uint32_t *pairs;
    size_t count;
    struct tmp t;
    char want[1400];

    four_particles(&p);
    tmp_make(&t, "twice.exclude");
    snprintf(want, sizeof want, "%s:3: the pair of particles 10 and -3 is "
             "excluded again (first on line 1); give each pair once", t.path);
    for (int k = 0; k < 2; k++) {
        write_text(t.path, texts[k]);
        ck_assert_int_eq(nb_md_exclusions_read(t.path, &p, &pairs, &count,
                                               &err), NB_ERR_PARSE);
        ck_assert_str_eq(err.message, want);
        ck_assert_ptr_null(pairs);
        ck_assert_uint_eq(count, 0);
    }
    nb_particles_free(&p);
    tmp_remove(&t);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *md_io_suite(void)
{
    Suite *s = suite_create("md_io");
    TCase *dumps = tcase_create("dumps");
    TCase *exclusions = tcase_create("exclusions");

    tcase_add_test(dumps, test_dump_round_trip);
    tcase_add_test(dumps, test_dump_columns);
    tcase_add_test(dumps, test_dump_crlf_no_newline);
    tcase_add_loop_test(dumps, test_dump_refused, 0,
                        (int)(sizeof bad_dumps / sizeof bad_dumps[0]));
    tcase_add_test(dumps, test_dump_io_errors);
    tcase_add_test(dumps, test_extxyz);
    suite_add_tcase(s, dumps);
    tcase_add_test(exclusions, test_exclusions_read);
    tcase_add_test(exclusions, test_exclusions_repeated);
    tcase_add_loop_test(exclusions, test_exclusions_refused, 0,
                        (int)(sizeof bad_exclusions /
                              sizeof bad_exclusions[0]));
    suite_add_tcase(s, exclusions);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;

    g_seed = suite_seed("check_md_io");
    sr = srunner_create(md_io_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
