/* check_hostile_input.c - hostile inputs to every reader, option and
 * environment variable a user can reach, and damaged shaders: each case
 * is a file (or none), a command line and what must come of it.  A
 * refusal is one message naming the cause, the exit status of its class
 * (1: a file, 2: an option or setting) and no output file; an accepted
 * oddity (a byte-order mark, CRLF, a trailing comment) must give exactly
 * the output of the clean file.  Runs the real binary (GLNBODY_BIN,
 * default ./glnbody); the cases tagged GL are skipped without a context. */
#include <check.h>

#include "cli_fixtures.h"

/* A file's bytes (NUL bytes allowed). */
#define BYTES(s) s, sizeof(s) - 1

/* Generated contents too large for a literal. */
enum gen { GEN_NONE, GEN_LONG_LINE, GEN_LONG_DUMP };

struct hcase {
    const char *name;
    const char *file;           /* written to IN (NULL: no file) */
    size_t len;
    enum gen gen;
    const char *args[20];       /* IN, OUT, DIR: paths of the case */
    const char *env;            /* "NAME=VALUE" or NULL */
    int status;                 /* 0: accepted */
    const char *needle;         /* in the one message of a refusal */
    const char *clean;          /* accepted: the file whose output it equals */
    size_t clean_len;
};

/* ---- inputs -------------------------------------------------------------- */

#define SNAP "1 1 0 0 0 0 0 0\n2 0.5 2 0 0 0 0.1 0\n3 0.25 0 1.5 0.5 0 0 0\n"
#define SNAP_TYPES "1 1 1 1 1 1 0 0 0\n2 1 1 2.1 1 1 0 0 0\n3 1 1 1 2.1 1 0 0 0\n"
#define DUMP_HEAD "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n3\nITEM: BOX BOUNDS pp pp pp\n" \
                  "0 10\n0 10\n0 10\nITEM: ATOMS id type x y z\n"
#define DUMP_ATOMS "1 1 1 1 1\n2 1 2.1 1 1\n3 1 1 2.1 1\n"
#define DUMP DUMP_HEAD DUMP_ATOMS
#define COEFFS "types 1\nlj 1 1 1 1\n"
#define REPORT_HEAD "{\"format\": \"glnbody-report\", \"version\": 1, \"machine\": " \
                    "{\"cpu\": {\"model\": \"test cpu\"}}, \"rows\": ["
#define ROW(rate, median, n, kernel) "{\"kernel\": " kernel ", \"backend\": \"cpu\", " \
    "\"variant\": \"newton3\", \"precision\": \"A\", \"n\": " n ", \"seconds\": " \
    "{\"median\": " median "}, \"rate\": " rate ", \"gflops\": null, \"error\": " \
    "{\"max\": 1e-15}}"
#define REPORT(row) REPORT_HEAD row "]}\n"
#define GOOD_ROW ROW("2e5", "0.02", "64", "\"GA\"")

#define FORCES "forces", "--backend", "cpu", "--softening", "0.01", "--input", "IN", \
               "--output", "OUT"
#define GL_FORCES "forces", "--softening", "0.01", "--input", "IN", "--output", "OUT"
#define RUN_CPU "run", "--backend", "cpu", "--t-end", "0.01", "--quiet", "--input", "IN", \
                "--output", "OUT"
#define MD_CPU "md", "--backend", "cpu", "--cutoff", "2.5", "--steps", "2", "--output", "OUT"
#define MD_DUMP MD_CPU, "--input", "IN"
#define REPORT_CMD "report", "IN"

static const struct hcase cases[] = {
    /* snapshots: encodings, line ends, comments */
    { "snapshot BOM", BYTES("\xef\xbb\xbf" SNAP), 0, { FORCES }, NULL, 0, NULL, BYTES(SNAP) },
    { "snapshot CRLF", BYTES("1 1 0 0 0 0 0 0\r\n2 0.5 2 0 0 0 0.1 0\r\n3 0.25 0 1.5 0.5 0 0 0\r\n"),
      0, { FORCES }, NULL, 0, NULL, BYTES(SNAP) },
    { "snapshot BOM CRLF", BYTES("\xef\xbb\xbf" "1 1 0 0 0 0 0 0\r\n2 0.5 2 0 0 0 0.1 0\r\n"
                                 "3 0.25 0 1.5 0.5 0 0 0\r\n"), 0, { FORCES }, NULL, 0, NULL,
      BYTES(SNAP) },
    { "snapshot trailing comment", BYTES("1 1 0 0 0 0 0 0 # heavy\n2 0.5 2 0 0 0 0.1 0#x\n"
                                         "3 0.25 0 1.5 0.5 0 0 0 #\n"),
      0, { FORCES }, NULL, 0, NULL, BYTES(SNAP) },
    { "snapshot no final newline", BYTES("1 1 0 0 0 0 0 0\n2 0.5 2 0 0 0 0.1 0\n"
                                         "3 0.25 0 1.5 0.5 0 0 0"), 0, { FORCES }, NULL, 0,
      NULL, BYTES(SNAP) },
    { "snapshot BOM only", BYTES("\xef\xbb\xbf"), 0, { FORCES }, NULL, 1, "no particles", NULL, 0 },
    { "snapshot BOM twice", BYTES("\xef\xbb\xbf\xef\xbb\xbf" SNAP), 0, { FORCES }, NULL, 1,
      "in:1:1: id: not an integer", NULL, 0 },
    { "snapshot NUL", BYTES("1 1 0 0 0 0 0 0\n2 0.5 2\0 0 0 0 0.1 0\n"), 0, { FORCES }, NULL, 1,
      "in:2:8: a NUL byte", NULL, 0 },
    { "snapshot UTF-16", BYTES("\xff\xfe" "1\0 \0" "1\0\n\0"), 0, { FORCES }, NULL, 1,
      "a NUL byte", NULL, 0 },
    { "snapshot long line", NULL, 0, GEN_LONG_LINE, { FORCES }, NULL, 1,
      "in:1: line longer than the limit of 1048576 bytes", NULL, 0 },
    { "snapshot /dev/zero", NULL, 0, 0, { "forces", "--backend", "cpu", "--softening", "0.01",
      "--input", "/dev/zero", "--output", "OUT" }, NULL, 1, "/dev/zero:1:1: a NUL byte", NULL, 0 },
    { "snapshot directory", NULL, 0, 0, { "forces", "--backend", "cpu", "--softening", "0.01",
      "--input", "DIR", "--output", "OUT" }, NULL, 1, "read error: Is a directory", NULL, 0 },
    { "snapshot is a dump", BYTES(DUMP), 0, { FORCES }, NULL, 1,
      "in:1:1: this is a LAMMPS dump", NULL, 0 },
    { "run input is a dump", BYTES(DUMP), 0, { RUN_CPU }, NULL, 1, "this is a LAMMPS dump",
      NULL, 0 },
    { "snapshot binary", BYTES("\x7f" "ELF\x02\x01\x01\0\0\0"), 0, { FORCES }, NULL, 1,
      "a NUL byte", NULL, 0 },
    { "snapshot nan", BYTES("1 1 nan 0 0 0 0 0\n2 1 1 0 0 0 0 0\n"), 0, { FORCES }, NULL, 1,
      "x: not finite", NULL, 0 },
    { "snapshot -inf", BYTES("1 1 0 -inf 0 0 0 0\n2 1 1 0 0 0 0 0\n"), 0, { FORCES }, NULL, 1,
      "y: not finite", NULL, 0 },
    { "snapshot 1e999", BYTES("1 1 0 0 1e999 0 0 0\n2 1 1 0 0 0 0 0\n"), 0, { FORCES }, NULL, 1,
      "overflows a double", NULL, 0 },
    { "snapshot 1e-999", BYTES("1 1e-999 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n"), 0, { FORCES }, NULL,
      1, "underflows a double", NULL, 0 },
    { "snapshot decimal comma", BYTES("1 1 0,5 0 0 0 0 0\n2 1 1 0 0 0 0 0\n"), 0, { FORCES },
      NULL, 1, "x: not a number: '0,5'", NULL, 0 },
    { "snapshot id 2^63", BYTES("9223372036854775808 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n"), 0,
      { FORCES }, NULL, 1, "id: out of range", NULL, 0 },
    { "snapshot control bytes", BYTES("1 1 0 \x1b[31m 0 0 0 0\n"), 0, { FORCES }, NULL, 1,
      "'?[31m'", NULL, 0 },
    { "snapshot empty", BYTES(""), 0, { FORCES }, NULL, 1, "no particles (empty file)", NULL, 0 },
    { "snapshot comment in id", BYTES("#1 1 0 0 0 0 0 0\n"), 0, { FORCES }, NULL, 1,
      "no particles", NULL, 0 },
    /* magnitudes beyond the arithmetic asked for */
    { "run cpu 1e154", BYTES("0 1 1e154 0 0 0 0 0\n1 1 -1e154 0 0 0 0 0\n"), 0, { RUN_CPU },
      NULL, 2, "x = 1e+154 is beyond +-3.35e+153, the largest the double", NULL, 0 },
    { "forces cpu 1e154", BYTES("0 1 1e154 1e154 1e154 0 0 0\n1 1 -1e154 0 0 0 0 0\n"), 0,
      { FORCES }, NULL, 2, "particle 0: x = 1e+154", NULL, 0 },
    { "forces cpu speed 1e160", BYTES("0 1 0 0 0 0 0 1e160\n1 1 1 0 0 0 0 0\n"), 0, { FORCES },
      NULL, 2, "vz = 1e+160", NULL, 0 },
    { "forces cpu mass 1e200", BYTES("0 1e200 0 0 0 0 0 0\n1 1 1 0 0 0 0 0\n"), 0, { FORCES },
      NULL, 2, "m = 1e+200", NULL, 0 },
    { "forces cpu softening 1e160", BYTES(SNAP), 0, { "forces", "--backend", "cpu",
      "--softening", "1e160", "--input", "IN", "--output", "OUT" }, NULL, 2,
      "--softening 1e+160: above 3.35e+153", NULL, 0 },
    { "forces cpu pair 1e-200 apart", BYTES("1 1 0 0 0 0 0 0\n2 1 1e-200 0 0 0 0 0\n"), 0,
      { "forces", "--backend", "cpu", "--softening", "0", "--input", "IN", "--output", "OUT" },
      NULL, 1, "particle 1: the force is not finite", NULL, 0 },
    { "run cpu 1e153 accepted", BYTES("0 1 1e153 0 0 0 0 0\n1 1 -1e153 0 0 0 0 0\n"), 0,
      { "run", "--backend", "cpu", "--t-end", "0", "--quiet", "--input", "IN", "--output",
        "OUT" }, NULL, 0, NULL, NULL, 0 },
    { "compare softening 1e19", NULL, 0, 0, { "compare", "--n", "64", "--backends", "cpu",
      "--softening", "1e19" }, NULL, 2, "--softening 1e+19: above 4.61e+18", NULL, 0 },
    { "precision softening 1e30", NULL, 0, 0, { "precision", "--n", "64", "--softening",
      "1e30" }, NULL, 2, "--softening 1e+30", NULL, 0 },
    /* LAMMPS dumps */
    { "dump BOM", BYTES("\xef\xbb\xbf" DUMP), 0, { MD_DUMP }, NULL, 0, NULL, BYTES(DUMP) },
    { "dump CRLF", BYTES("ITEM: TIMESTEP\r\n0\r\nITEM: NUMBER OF ATOMS\r\n3\r\n"
                         "ITEM: BOX BOUNDS pp pp pp\r\n0 10\r\n0 10\r\n0 10\r\n"
                         "ITEM: ATOMS id type x y z\r\n1 1 1 1 1\r\n2 1 2.1 1 1\r\n"
                         "3 1 1 2.1 1\r\n"), 0, { MD_DUMP }, NULL, 0, NULL, BYTES(DUMP) },
    { "dump trailing blank lines", BYTES(DUMP "\n\n"), 0, { MD_DUMP }, NULL, 0, NULL,
      BYTES(DUMP) },
    { "dump duplicate id", BYTES(DUMP_HEAD "1 1 1 1 1\n2 1 2.1 1 1\n1 1 1 2.1 1\n"), 0,
      { MD_DUMP }, NULL, 1, "in:12: id 1 again (first on line 10)", NULL, 0 },
    { "dump second frame", BYTES(DUMP DUMP), 0, { MD_DUMP }, NULL, 1,
      "in:13:1: a second frame", NULL, 0 },
    { "dump second frame after blank", BYTES(DUMP "\n" DUMP), 0, { MD_DUMP }, NULL, 1,
      "a second frame", NULL, 0 },
    { "dump atoms 3e9", BYTES("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n3000000000\n"
      "ITEM: BOX BOUNDS pp pp pp\n0 10\n0 10\n0 10\nITEM: ATOMS id type x y z\n" DUMP_ATOMS),
      0, { MD_DUMP }, NULL, 1, "in:4:1: ITEM: NUMBER OF ATOMS: 3000000000 atoms claimed",
      NULL, 0 },
    { "dump atoms 1e3", BYTES("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1e3\n"), 0,
      { MD_DUMP }, NULL, 1, "not an integer: '1e3'", NULL, 0 },
    { "dump truncated", BYTES(DUMP_HEAD "1 1 1 1 1\n2 1 2.1"), 0, { MD_DUMP }, NULL, 1,
      "in:11:", NULL, 0 },
    { "dump NUL", BYTES(DUMP_HEAD "1 1 1 1 1\n2 1 2.1 1\0 1\n3 1 1 2.1 1\n"), 0, { MD_DUMP },
      NULL, 1, "in:11:10: a NUL byte", NULL, 0 },
    { "dump long line", NULL, 0, GEN_LONG_DUMP, { MD_DUMP }, NULL, 1, "line longer than the limit",
      NULL, 0 },
    { "dump nan", BYTES(DUMP_HEAD "1 1 nan 1 1\n2 1 2.1 1 1\n3 1 1 2.1 1\n"), 0, { MD_DUMP },
      NULL, 1, "x: not finite", NULL, 0 },
    { "dump directory", NULL, 0, 0, { MD_CPU, "--input", "DIR" }, NULL, 1, "read error: Is a directory",
      NULL, 0 },
    /* coefficient tables and exclusion lists */
    { "coeffs BOM", BYTES("\xef\xbb\xbf" COEFFS), 0, { MD_CPU, "--input", "DUMPFILE", "--coeffs",
      "IN" }, NULL, 0, NULL, BYTES(COEFFS) },
    { "coeffs CRLF and comments", BYTES("types 1 # one\r\nlj 1 1 1 1 # argon\r\n"), 0,
      { MD_CPU, "--input", "DUMPFILE", "--coeffs", "IN" }, NULL, 0, NULL, BYTES(COEFFS) },
    { "coeffs NUL", BYTES("types 1\nlj 1 1\0 1 1\n"), 0, { MD_CPU, "--input", "DUMPFILE",
      "--coeffs", "IN" }, NULL, 1, "in:2:7: a NUL byte", NULL, 0 },
    { "coeffs long line", NULL, 0, GEN_LONG_LINE, { MD_CPU, "--input", "DUMPFILE", "--coeffs",
      "IN" }, NULL, 1, "line longer than the limit", NULL, 0 },
    { "coeffs sigma 1e200", BYTES("types 1\nlj 1 1 1 1e200\n"), 0, { MD_CPU, "--input",
      "DUMPFILE", "--coeffs", "IN" }, NULL, 2, "types 1 and 1: the pair coefficients overflow",
      NULL, 0 },
    { "coeffs directory", NULL, 0, 0, { MD_CPU, "--input", "DUMPFILE", "--coeffs", "DIR" },
      NULL, 1, "read error: Is a directory", NULL, 0 },
    { "exclusions BOM", BYTES("\xef\xbb\xbf" "1 2\n"), 0, { MD_CPU, "--input", "DUMPFILE",
      "--exclude", "IN" }, NULL, 0, NULL, BYTES("1 2\n") },
    { "exclusions NUL", BYTES("1 2\0\n"), 0, { MD_CPU, "--input", "DUMPFILE", "--exclude",
      "IN" }, NULL, 1, "a NUL byte", NULL, 0 },
    { "exclusions /dev/zero", NULL, 0, 0, { MD_CPU, "--input", "DUMPFILE", "--exclude",
      "/dev/zero" }, NULL, 1, "/dev/zero:1:1: a NUL byte", NULL, 0 },
    { "exclusions directory", NULL, 0, 0, { MD_CPU, "--input", "DUMPFILE", "--exclude",
      "DIR" }, NULL, 1, "read error: Is a directory", NULL, 0 },
    { "md snapshot BOM", BYTES("\xef\xbb\xbf" SNAP_TYPES), 0, { MD_CPU, "--input", "IN" }, NULL,
      0, NULL, BYTES(SNAP_TYPES) },
    /* an md blow-up is one, not a coincident pair */
    { "md blow-up dt 1", NULL, 0, 0, { "md", "--backend", "cpu", "--cutoff", "2.5", "--steps",
      "50", "--dt", "1" }, NULL, 1, "the system blew up", NULL, 0 },
    { "md blow-up dt 0.05", NULL, 0, 0, { "md", "--backend", "cpu", "--cutoff", "2.5",
      "--steps", "200", "--dt", "0.05", "--output", "OUT" }, NULL, 1, "the system blew up",
      NULL, 0 },
    /* reports */
    { "report good", BYTES(REPORT(GOOD_ROW)), 0, { REPORT_CMD }, NULL, 0, NULL,
      BYTES(REPORT(GOOD_ROW)) },
    { "report version string", BYTES("{\"format\": \"glnbody-report\", \"version\": \"1\", "
      "\"rows\": [" GOOD_ROW "]}"), 0, { REPORT_CMD }, NULL, 1,
      "\"version\" is a string, not an integer", NULL, 0 },
    { "report version 2", BYTES("{\"format\": \"glnbody-report\", \"version\": 2, "
      "\"rows\": [" GOOD_ROW "]}"), 0, { REPORT_CMD }, NULL, 1, "report of version 2;", NULL, 0 },
    { "report version missing", BYTES("{\"format\": \"glnbody-report\", \"rows\": []}"), 0,
      { REPORT_CMD }, NULL, 1, "\"version\" is missing", NULL, 0 },
    { "report rows empty", BYTES(REPORT("")), 0, { REPORT_CMD }, NULL, 1, "\"rows\" is empty",
      NULL, 0 },
    { "report rate null", BYTES(REPORT(ROW("null", "0.02", "64", "\"GA\""))), 0, { REPORT_CMD },
      NULL, 1, "row 1: \"rate\" must be a finite number above 0, not null", NULL, 0 },
    { "report rate string", BYTES(REPORT(ROW("\"fast\"", "0.02", "64", "\"GA\""))), 0,
      { REPORT_CMD }, NULL, 1, "\"rate\" must be a finite number above 0, not a string",
      NULL, 0 },
    { "report rate negative", BYTES(REPORT(GOOD_ROW "," ROW("-5", "0.02", "64", "\"GA\""))), 0,
      { REPORT_CMD }, NULL, 1, "row 2: \"rate\" must be a finite number above 0, not -5",
      NULL, 0 },
    { "report rate 0", BYTES(REPORT(ROW("0", "0.02", "64", "\"GA\""))), 0, { REPORT_CMD },
      NULL, 1, "not 0", NULL, 0 },
    { "report median 0", BYTES(REPORT(ROW("2e5", "0", "64", "\"GA\""))), 0, { REPORT_CMD },
      NULL, 1, "\"seconds.median\" must be", NULL, 0 },
    { "report n 0", BYTES(REPORT(ROW("2e5", "0.02", "0", "\"GA\""))), 0, { REPORT_CMD }, NULL,
      1, "\"n\" must be 1 or more", NULL, 0 },
    { "report unknown kernel", BYTES(REPORT(ROW("2e5", "0.02", "64", "\"XX\""))), 0,
      { REPORT_CMD }, NULL, 1, "unknown kernel 'XX'", NULL, 0 },
    { "report kernel escape", BYTES(REPORT(ROW("2e5", "0.02", "64", "\"G\\u001b\""))), 0,
      { REPORT_CMD }, NULL, 1, "unknown kernel 'G?'", NULL, 0 },
    { "report directory", NULL, 0, 0, { "report", "DIR" }, NULL, 1,
      "is a directory, not a report", NULL, 0 },
    { "report --backend foo", BYTES(REPORT(GOOD_ROW)), 0, { REPORT_CMD, "--backend", "foo" },
      NULL, 2, "--backend: unknown backend 'foo'", NULL, 0 },
    { "report --backend without rows", BYTES(REPORT(GOOD_ROW)), 0, { REPORT_CMD, "--backend",
      "fragment" }, NULL, 2, "no row of backend fragment", NULL, 0 },
    { "report truncated", BYTES(REPORT_HEAD), 0, { REPORT_CMD }, NULL, 1, "cut short", NULL, 0 },
    { "report /dev/zero", NULL, 0, 0, { "report", "/dev/zero" }, NULL, 1, "not JSON", NULL, 0 },
    { "report not JSON", BYTES(SNAP), 0, { REPORT_CMD }, NULL, 1, "not JSON", NULL, 0 },
    { "report JSON array", BYTES("[1, 2]"), 0, { REPORT_CMD }, NULL, 1,
      "not a glnbody report", NULL, 0 },
    { "report rate 1e400", BYTES(REPORT(ROW("1e400", "0.02", "64", "\"GA\""))), 0,
      { REPORT_CMD }, NULL, 1, "not JSON", NULL, 0 },
};

/* Cases that need a GL context: the engines' environment variables, the
 * float range and the shaders. */
static const struct hcase gl_cases[] = {
    { "GLNBODY_DISPATCH_PAIRS=abc", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_DISPATCH_PAIRS=abc",
      2, "GLNBODY_DISPATCH_PAIRS='abc': expected an integer from 1 to", NULL, 0 },
    { "GLNBODY_DISPATCH_PAIRS=0", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_DISPATCH_PAIRS=0", 2,
      "GLNBODY_DISPATCH_PAIRS='0'", NULL, 0 },
    { "GLNBODY_DISPATCH_PAIRS=-1", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_DISPATCH_PAIRS=-1",
      2, "GLNBODY_DISPATCH_PAIRS='-1'", NULL, 0 },
    { "GLNBODY_DISPATCH_PAIRS=1e30", BYTES(SNAP), 0, { GL_FORCES },
      "GLNBODY_DISPATCH_PAIRS=1e30", 2, "GLNBODY_DISPATCH_PAIRS='1e30'", NULL, 0 },
    { "GLNBODY_DISPATCH_PAIRS=2.5", BYTES(SNAP), 0, { GL_FORCES },
      "GLNBODY_DISPATCH_PAIRS=2.5", 2, "GLNBODY_DISPATCH_PAIRS='2.5'", NULL, 0 },
    { "GLNBODY_DISPATCH_PAIRS=3000", BYTES(SNAP), 0, { GL_FORCES },
      "GLNBODY_DISPATCH_PAIRS=3000", 0, NULL, BYTES(SNAP) },
    { "GLNBODY_GAJ_FILL_GROUPS=-5", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_GAJ_FILL_GROUPS=-5",
      2, "GLNBODY_GAJ_FILL_GROUPS='-5': expected an integer from 1 to 1048576", NULL, 0 },
    { "GLNBODY_GAJ_FILL_GROUPS=0", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_GAJ_FILL_GROUPS=0",
      2, "GLNBODY_GAJ_FILL_GROUPS='0'", NULL, 0 },
    { "GLNBODY_GAJ_FILL_GROUPS=2x", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_GAJ_FILL_GROUPS=2x",
      2, "GLNBODY_GAJ_FILL_GROUPS='2x'", NULL, 0 },
    { "GLNBODY_MD_PASSES=0", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_MD_PASSES=0", 2,
      "GLNBODY_MD_PASSES='0'", NULL, 0 },
    { "GLNBODY_MD_PASSES=many", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_MD_PASSES=many", 2,
      "GLNBODY_MD_PASSES='many'", NULL, 0 },
    { "GLNBODY_DEBUG=yes", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_DEBUG=yes", 2,
      "GLNBODY_DEBUG='yes': expected one of 0|1", NULL, 0 },
    { "GLNBODY_DEBUG=0", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_DEBUG=0", 0, NULL, BYTES(SNAP) },
    { "GLNBODY_BLOCK_PIECES=0", BYTES(SNAP), 0, { GL_FORCES }, "GLNBODY_BLOCK_PIECES=0", 2,
      "GLNBODY_BLOCK_PIECES", NULL, 0 },
    { "forces compute 1e20", BYTES("0 1 1e20 0 0 0 0 0\n1 1 -1 0 0 0 0 0\n"), 0, { GL_FORCES },
      NULL, 2, "x = 1e+20 is beyond +-4.61e+18, the largest the float arithmetic", NULL, 0 },
    { "forces compute pair 1e-20 apart", BYTES("1 1 0 0 0 0 0 0\n2 1 1e-20 0 0 0 0 0\n"), 0,
      { "forces", "--softening", "0", "--input", "IN", "--output", "OUT" }, NULL, 1,
      "the force is not finite", NULL, 0 },
    { "forces compute softening 1e20", BYTES(SNAP), 0, { "forces", "--softening", "1e20",
      "--input", "IN", "--output", "OUT" }, NULL, 2,
      "--softening 1e+20: above 4.61e+18, the largest the float arithmetic of backend "
      "compute", NULL, 0 },
    { "forces fragment softening 2e19", BYTES(SNAP), 0, { "forces", "--backend", "fragment",
      "--softening", "2e19", "--input", "IN", "--output", "OUT" }, NULL, 2,
      "of backend fragment", NULL, 0 },
    { "md compute temperature 1e30", NULL, 0, 0, { "md", "--cutoff", "2.5", "--steps", "2",
      "--temperature", "1e30", "--output", "OUT" }, NULL, 1, "the system blew up", NULL, 0 },
    { "run compute softening 1e20", NULL, 0, 0, { "run", "--n", "64", "--softening", "1e20",
      "--t-end", "0.01", "--quiet" }, NULL, 2, "--softening 1e+20", NULL, 0 },
};

/* ---- running a case -------------------------------------------------------- */

static const char *subst(const char *arg)
{
    return strcmp(arg, "IN") == 0 ? in_dir("in")
         : strcmp(arg, "OUT") == 0 ? in_dir("out")
         : strcmp(arg, "DIR") == 0 ? in_dir("subdir")
         : strcmp(arg, "DUMPFILE") == 0 ? in_dir("dump.txt") : arg;
}

static void write_bytes(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

/* 2 MiB of digits without a newline (after a dump's header for dumps). */
static void write_long(const char *path, int dump)
{
    size_t len = 2u << 20;
    char *text = malloc(len);
    ck_assert_ptr_nonnull(text);
    memset(text, '7', len);
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    if (dump)
        fputs(DUMP_HEAD, fp);
    ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
    free(text);
}

static void run_case(const struct hcase *c, const char *file, size_t len, struct cli_run *r)
{
    const char *args[24];
    int k = 0;
    if (!is_directory(in_dir("subdir")))
        ck_assert_int_eq(mkdir(in_dir("subdir"), 0700), 0);
    write_bytes(in_dir("dump.txt"), BYTES(DUMP));
    unlink(in_dir("out"));
    if (file)
        write_bytes(in_dir("in"), file, len);
    else if (c->gen != GEN_NONE)
        write_long(in_dir("in"), c->gen == GEN_LONG_DUMP);
    for (; c->args[k]; k++)
        args[k] = subst(c->args[k]);
    args[k] = NULL;
    const char *env[] = { c->env, NULL };
    cli_run_in(r, g_dir, c->env ? env : NULL, args);
}

/* What an accepted case made: its output file, or else its stdout,
 * without the comment lines (the header names the variant that auto
 * measured fastest, which may differ between two runs). */
static char *strip_comments(char *text)
{
    char *dst = text;
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');
        if (line[0] != '#') {
            memmove(dst, line, len);
            dst += len;
        }
        line += len;
    }
    *dst = '\0';
    return text;
}

static char *result(const struct cli_run *r)
{
    char *out = read_file(in_dir("out"));
    return strip_comments(out ? out : xstrdup(r->out));
}

/* One line on stderr, from the program, naming the cause; the status of
 * its class.  (md's messages say "glnbody md: ".) */
static void assert_refused(const struct cli_run *r, const struct hcase *c)
{
    ck_assert_msg(r->status == c->status, "%s: exit %d, expected %d; stderr: %s", c->name,
                  r->status, c->status, r->err);
    char *m = messages(r->err);
    size_t len = strlen(m);
    ck_assert_msg(len > 0 && strchr(m, '\n') == m + len - 1, "%s: not one line: '%s'",
                  c->name, r->err);
    ck_assert_msg(strncmp(m, "glnbody", 7) == 0, "%s: not the program's: %s", c->name, m);
    ck_assert_msg(strstr(m, c->needle) != NULL, "%s: no '%s' in: %s", c->name, c->needle, m);
    free(m);
}

static void check_case(const struct hcase *c)
{
    struct cli_run r, clean;
    run_case(c, c->file, c->len, &r);
    if (c->status != 0) {
        assert_refused(&r, c);
        ck_assert_msg(!path_exists(in_dir("out")), "%s: a refused run left its output",
                      c->name);
        cli_run_free(&r);
        return;
    }
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", c->name, r.status, r.err);
    if (c->clean) {
        char *got = result(&r);
        run_case(c, c->clean, c->clean_len, &clean);
        ck_assert_msg(clean.status == 0, "%s: the clean file failed: %s", c->name, clean.err);
        char *want = result(&clean);
        ck_assert_msg(strcmp(got, want) == 0, "%s: output differs from the clean file's:\n"
                      "%s\n---\n%s", c->name, got, want);
        free(got);
        free(want);
        cli_run_free(&clean);
    }
    cli_run_free(&r);
}

START_TEST(test_hostile_case)
{
    check_case(&cases[_i]);
}
END_TEST

START_TEST(test_hostile_gl_case)
{
    check_case(&gl_cases[_i]);
}
END_TEST

/* ---- damaged SPIR-V ------------------------------------------------------- */

enum damage { FLIP, RANDOM, HALF, EMPTY, NO_MANIFEST, UNLISTED };

struct spirv_case {
    const char *backend;        /* whose programs */
    const char *suffix;         /* which stage's modules: .comp.spv ... */
    enum damage damage;
    int spirv_only;             /* --shaders spirv: refused, no fallback */
};

static const struct spirv_case spirv_cases[] = {
    { "compute", ".comp.spv", FLIP, 0 }, { "compute", ".comp.spv", RANDOM, 0 },
    { "compute", ".comp.spv", HALF, 0 }, { "compute", ".comp.spv", EMPTY, 0 },
    { "compute", ".comp.spv", NO_MANIFEST, 0 }, { "compute", ".comp.spv", UNLISTED, 0 },
    { "fragment", ".vert.spv", FLIP, 0 }, { "fragment", ".frag.spv", FLIP, 0 },
    { "fragment", ".frag.spv", RANDOM, 0 }, { "fragment", ".vert.spv", HALF, 0 },
    { "compute", ".comp.spv", FLIP, 1 }, { "fragment", ".frag.spv", RANDOM, 1 },
};

/* Copies the files of src (spirv/: hundreds) into dst, byte for byte. */
static void copy_files(const char *src, const char *dst)
{
    char from[4096], to[4096];
    DIR *d = opendir(src);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(mkdir(dst, 0700), 0);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        char *data = read_file(from);
        ck_assert_ptr_nonnull(data);
        write_bytes(to, data, (size_t)st.st_size);
        free(data);
    }
    closedir(d);
}

/* Damages every module of the stage in dir/spirv (or the manifest). */
static void damage(const char *dir, const struct spirv_case *c)
{
    const char *spirv = fmt("%s/spirv", dir), *manifest = fmt("%s/MANIFEST", spirv);
    if (c->damage == NO_MANIFEST) {
        ck_assert_int_eq(unlink(manifest), 0);
        return;
    }
    if (c->damage == UNLISTED) {
        write_file(manifest, "1 2 none.spv\n");
        return;
    }
    DIR *d = opendir(spirv);
    ck_assert_ptr_nonnull(d);
    unsigned seed = 12345;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name), slen = strlen(c->suffix);
        if (len < slen || strcmp(e->d_name + len - slen, c->suffix) != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", spirv, e->d_name);
        char *data = read_file(path);
        struct stat st;
        ck_assert_int_eq(stat(path, &st), 0);
        size_t size = (size_t)st.st_size;
        if (c->damage == FLIP)
            data[size / 2] ^= 0x40;
        for (size_t k = 0; c->damage == RANDOM && k < size; k++)
            data[k] = (char)((seed = seed * 1103515245u + 12345u) >> 16);
        write_bytes(path, data, c->damage == HALF ? size / 2 : c->damage == EMPTY ? 0 : size);
        free(data);
    }
    closedir(d);
}

/* Damaged modules never reach the driver: with SPIR-V chosen
 * automatically the run names a damaged file and gives the forces of the
 * GLSL source; with --shaders spirv it fails naming the file. */
START_TEST(test_spirv_damaged)
{
    const struct spirv_case *c = &spirv_cases[_i];
    const char *shaders = in_dir("shaders"), *in = in_dir("in.txt");
    if (!path_exists("spirv/MANIFEST")) {   /* a build without glslangValidator */
        printf("check_hostile_input: no spirv/MANIFEST: SPIR-V case %d not run\n", _i);
        return;
    }
    write_file(in, SNAP);
    ck_assert_int_eq(mkdir(shaders, 0700), 0);
    copy_directory("glsl", fmt("%s/glsl", shaders));
    copy_files("spirv", fmt("%s/spirv", shaders));
    const char *env[] = { fmt("GLNBODY_SHADER_DIR=%s", shaders), NULL };
    struct cli_run good, r;
    RUN_ENV(&good, env, "forces", "--backend", c->backend, "--input", in, "--softening",
            "0.01", "--output", in_dir("good.txt"));
    assert_success(&good);
    damage(shaders, c);
    RUN_ENV(&r, env, "forces", "--backend", c->backend, "--input", in, "--softening", "0.01",
            "--output", in_dir("out.txt"), "--shaders", c->spirv_only ? "spirv" : "auto");
    if (c->spirv_only) {
        const char *needles[] = { fmt("%s/spirv/", shaders), c->suffix, NULL };
        assert_failure(&r, 1, needles);
        ck_assert(!path_exists(in_dir("out.txt")));
    } else {
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
        ck_assert_msg(strstr(r.err, fmt("%s/spirv/", shaders)) &&
                      strstr(r.err, "compiled from its GLSL source instead"),
                      "no message naming the module: %s", r.err);
        char *want = strip_comments(test_dir_read("good.txt"));
        char *got = strip_comments(test_dir_read("out.txt"));
        ck_assert_str_eq(got, want);
        free(want);
        free(got);
    }
    cli_run_free(&good);
    cli_run_free(&r);
}
END_TEST

/* A GLSL compile error prints the driver's log, not an empty reason. */
START_TEST(test_glsl_log_printed)
{
    const char *shaders = in_dir("shaders"), *in = in_dir("in.txt");
    write_file(in, SNAP);
    ck_assert_int_eq(mkdir(shaders, 0700), 0);
    copy_directory("glsl", fmt("%s/glsl", shaders));
    FILE *fp = fopen(fmt("%s/glsl/ga.glsl", shaders), "a");
    ck_assert_ptr_nonnull(fp);
    fputs("\nfloat broken = ;\n", fp);
    ck_assert_int_eq(fclose(fp), 0);
    const char *env[] = { fmt("GLNBODY_SHADER_DIR=%s", shaders), NULL };
    struct cli_run r;
    RUN_ENV(&r, env, "forces", "--shaders", "glsl", "--input", in, "--softening", "0.01",
            "--output", in_dir("out.txt"));
    const char *needles[] = { "failed to compile: ", NULL };
    assert_failure(&r, 1, needles);
    const char *reason = strstr(r.err, "failed to compile: ") + 19;
    ck_assert_msg(strlen(reason) > 8 && strncmp(reason, "(the driver", 11) != 0,
                  "no driver log: %s", r.err);
    cli_run_free(&r);
}
END_TEST

static Suite *hostile_input_suite(void)
{
    Suite *s = suite_create("hostile_input");
    TCase *tc = tcase(s, "inputs");
    tcase_add_loop_test(tc, test_hostile_case, 0, COUNT(cases));
    tc = tcase(s, "gl");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_loop_test(tc, test_hostile_gl_case, 0, COUNT(gl_cases));
    tcase_add_loop_test(tc, test_spirv_damaged, 0, COUNT(spirv_cases));
    tcase_add_test(tc, test_glsl_log_printed);
    return s;
}

int main(void)
{
    return cli_harness_main("check_hostile_input", hostile_input_suite, 1);
}
