/* check_mpi.c - `mpirun -np P glnbody run|forces`, the j-parallel runs of
 * Harfst et al. 2007, through the real binary (GLNBODY_BIN, default
 * build/glnbody) on 1, 2 and 3 ranks, --oversubscribe (2 cores in CI):
 *   - precision H gives the same bytes for any P (--output and the energy
 *     log), with --predict host and --predict gpu;
 *   - precision A agrees across P to float rounding;
 *   - forces over 2 ranks equal 1 rank within check_gpu's bounds (and the
 *     CPU backend to double rounding);
 *   - a failure on rank 1 alone stops every rank with rank 1's message, no
 *     output file, and no hang (each mpirun runs under timeout(1));
 *   - the fragment engine's slices, which end inside its 4-particle blocks;
 *   - ranks > 0 are silent, and a command that is not j-parallel is refused;
 *   - rank 0 names each rank's GPU, a restart on 2 ranks is bit for bit.
 * The library's hook in one process without MPI is check_partition's.
 * Skipped (77) without mpirun, without GL, or where the binary was built
 * without MPI (make NB_MPI=0; make sanitize's). */
#include <check.h>

#include <math.h>

#include "cli_harness.h"
#include "nb_host.h"

#define TOLERANCE 1e-5          /* check_gpu.c's, relative to sum_j |a_ij| */
#define TIMEOUT "120"           /* seconds for one mpirun, then it fails */

static const char *g_glnbody;   /* the program; g_bin is timeout(1) */
static char g_mpirun[1024];

/* Open MPI's environment for a small shared machine: as root where the
 * tests run as root, and no single-copy kernel mechanism (containers often
 * forbid it); one llvmpipe thread a rank, as ranks share the cores. */
static const char *const mpi_env[] = {
    "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
    "OMPI_MCA_btl_vader_single_copy_mechanism=none", "OMPI_MCA_rmaps_base_oversubscribe=1",
    "LP_NUM_THREADS=1", NULL };

/* `timeout mpirun -np ranks glnbody ARGS` in g_dir (ranks 0: the program
 * alone, without mpirun), with extra environment entries env (NULL-ended,
 * or NULL). */
static void mpi_run(struct cli_run *r, int ranks, const char *fault_rank,
                    const char *const *args)
{
    const char *argv[64] = { "-k", "10", TIMEOUT };
    const char *env[16];
    char np[16], fault[64];
    int n = 3, e = 0;
    snprintf(np, sizeof np, "%d", ranks);
    if (ranks > 0) {
        argv[n++] = g_mpirun;
        argv[n++] = "--oversubscribe";
        argv[n++] = "-np";
        argv[n++] = np;
    }
    argv[n++] = g_glnbody;
    for (; *args; args++) {
        ck_assert_int_lt(n, 62);
        argv[n++] = *args;
    }
    argv[n] = NULL;
    for (; mpi_env[e]; e++)
        env[e] = mpi_env[e];
    if (fault_rank) {
        snprintf(fault, sizeof fault, "GLNBODY_TEST_FAIL_RANK=%s", fault_rank);
        env[e++] = fault;
    }
    env[e] = NULL;
    cli_run_in(r, g_dir, env, argv);
}

#define MPI_RUN(pr, ranks, ...) \
    mpi_run((pr), (ranks), NULL, (const char *const[]){ __VA_ARGS__, NULL })

static int exists_in_dir(const char *name)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    return access(path, F_OK) == 0;
}

static void expect_ok(const struct cli_run *r, const char *what)
{
    ck_assert_msg(r->status == 0, "%s: exit %d, stderr:\n%s", what, r->status, r->err);
}

/* Occurrences of needle in text. */
static int count(const char *text, const char *needle)
{
    int k = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* ---- precision H: the same bytes for any number of ranks ------------------ */

/* A Plummer N = 512 run of 1/8 time unit in mode H on P = 1, 2, 3 ranks
 * and as one process without mpirun (p = 0): the final state and the energy
 * log byte for byte. */
static void same_bytes_for_any_p(const char *predict)
{
    char *out[4], *log[4];
    for (int p = 0; p <= 3; p++) {
        char output[32], energy[32];
        struct cli_run r;
        snprintf(output, sizeof output, "out%d.txt", p);
        snprintf(energy, sizeof energy, "energy%d.csv", p);
        MPI_RUN(&r, p, "run", "--n", "512", "--t-end", "0.125", "--precision", "H",
                "--predict", predict, "--backend", "compute", "--output", output,
                "--energy-log", energy, "--log-every", "0.0625");
        expect_ok(&r, "run --precision H");
        /* rank 0 alone reports: one summary, with the split of t_comm */
        ck_assert_int_eq(count(r.out, "glnbody run:"), 1);
        ck_assert_int_eq(count(r.out, "MPI_Allreduce"), p > 0);
        cli_run_free(&r);
        out[p] = test_dir_read(output);
        log[p] = test_dir_read(energy);
    }
    ck_assert_int_eq(count(log[1], "\n"), 4);       /* header, t = 0, 1/16, 1/8 */
    for (int p = 0; p <= 3; p++) {
        ck_assert_msg(strcmp(out[1], out[p]) == 0, "--predict %s: the final state "
                      "on %d ranks differs from 1 rank", predict, p);
        ck_assert_msg(strcmp(log[1], log[p]) == 0, "--predict %s: the energy log "
                      "on %d ranks differs from 1 rank", predict, p);
    }
    for (int p = 0; p <= 3; p++)
        free(out[p]), free(log[p]);
}

/* A run stopped at a checkpoint and restarted on 2 ranks ends, log rows
 * and final state, byte for byte as one process that never stopped: every
 * rank evaluates the rows after the restart (their potentials are shared
 * over the ranks), with the same row indices as rank 0. */
START_TEST(test_h_restart_identical)
{
    struct cli_run r;
    MPI_RUN(&r, 2, "run", "--n", "300", "--precision", "H", "--t-end", "0.125",
            "--energy-log", "e2.csv", "--log-every", "0.03125", "--checkpoint", "c2.ck");
    expect_ok(&r, "run to a checkpoint on 2 ranks");
    cli_run_free(&r);
    MPI_RUN(&r, 2, "run", "--restart", "c2.ck", "--t-end", "0.25", "--output", "o2.txt");
    expect_ok(&r, "restart on 2 ranks");
    cli_run_free(&r);
    MPI_RUN(&r, 0, "run", "--n", "300", "--precision", "H", "--t-end", "0.25",
            "--energy-log", "e1.csv", "--log-every", "0.03125", "--output", "o1.txt");
    expect_ok(&r, "run as one process");
    cli_run_free(&r);
    char *o1 = test_dir_read("o1.txt"), *o2 = test_dir_read("o2.txt"),
         *e1 = test_dir_read("e1.csv"), *e2 = test_dir_read("e2.csv");
    ck_assert_int_eq(count(e1, "\n"), 10);     /* header, t = 0, 1/32, ..., 1/4 */
    ck_assert_msg(strcmp(o1, o2) == 0, "the restarted final state differs");
    ck_assert_msg(strcmp(e1, e2) == 0, "the restarted energy log differs:\n%s\n%s", e1, e2);
    free(o1), free(o2), free(e1), free(e2);
}
END_TEST

START_TEST(test_h_identical_predict_host)
{
    same_bytes_for_any_p("host");
}
END_TEST

START_TEST(test_h_identical_predict_gpu)
{
    same_bytes_for_any_p("gpu");
}
END_TEST

/* ---- precision A: the same trajectory to float rounding ------------------- */

/* The numbers of an `id m x y z vx vy vz` or forces file, row by row. */
static size_t numbers(const char *text, double *v, size_t cap)
{
    size_t k = 0;
    const char *p = text;
    while (*p) {
        if (*p == '#') {
            p += strcspn(p, "\n");
        } else {
            char *end;
            double x = strtod(p, &end);
            if (end != p) {
                ck_assert_uint_lt(k, cap);
                v[k++] = x;
                p = end;
                continue;
            }
        }
        if (*p)
            p++;
    }
    return k;
}

START_TEST(test_a_agrees)
{
    enum { N = 512, CAP = 8 * N + 16 };
    static double ref[CAP], got[CAP];
    size_t count_ref = 0;
    for (int p = 1; p <= 3; p++) {
        char output[32];
        struct cli_run r;
        snprintf(output, sizeof output, "out%d.txt", p);
        MPI_RUN(&r, p, "run", "--n", "512", "--t-end", "0.125", "--backend", "compute",
                "--output", output, "--quiet");
        expect_ok(&r, "run --precision A");
        cli_run_free(&r);
        char *text = test_dir_read(output);
        size_t k = numbers(text, p == 1 ? ref : got, CAP);
        free(text);
        ck_assert_uint_eq(k, 8 * N);
        if (p == 1) {
            count_ref = k;
            continue;
        }
        /* positions and velocities are O(1) in N-body units: float sums
         * of the forces differ by ~1e-7 relative, and 1/8 time unit of
         * integration keeps that far below 1e-5 */
        for (size_t i = 0; i < count_ref; i++) {
            if (i % 8 < 2)
                ck_assert_double_eq(got[i], ref[i]);    /* id and mass */
            else
                ck_assert_msg(fabs(got[i] - ref[i]) <= 1e-5, "P = %d: value %zu: %.9g "
                              "vs %.9g", p, i, got[i], ref[i]);
        }
    }
}
END_TEST

/* ---- forces ---------------------------------------------------------------- */

/* A Plummer sphere of n written by the program (no MPI) as a snapshot. */
static void plummer_file(const char *name, const char *n)
{
    struct cli_run r;
    mpi_run(&r, 0, NULL, (const char *const[]){ "run", "--n", n, "--t-end", "0",
                                                "--output", name, "--quiet", NULL });
    expect_ok(&r, "writing the Plummer sphere");
    cli_run_free(&r);
}

/* forces of ic.txt on `backend`, on one process and on 2 ranks: each
 * particle's acceleration and potential within `tol` of sum_j |pair|. */
static void forces_match(const char *backend, double tol)
{
    enum { N = 1001 };          /* odd: the slices differ in length */
    static double one[6 * N], two[6 * N];
    plummer_file("ic.txt", "1001");
    struct cli_run r;
    mpi_run(&r, 0, NULL, (const char *const[]){ "forces", "--input", "ic.txt",
            "--softening", "0.01", "--backend", backend, "--output", "f1.txt",
            "--quiet", NULL });
    expect_ok(&r, "forces, one process");
    cli_run_free(&r);
    MPI_RUN(&r, 2, "forces", "--input", "ic.txt", "--softening", "0.01", "--backend",
            backend, "--output", "f2.txt");
    expect_ok(&r, "forces, 2 ranks");
    cli_run_free(&r);

    char *t1 = test_dir_read("f1.txt"), *t2 = test_dir_read("f2.txt");
    ck_assert_uint_eq(numbers(t1, one, 5 * N), 5 * N);
    ck_assert_uint_eq(numbers(t2, two, 5 * N), 5 * N);
    free(t1);
    free(t2);

    char path[1200];
    struct nb_particles p = { 0 };
    struct nb_error err = { 0 };
    snprintf(path, sizeof path, "%s/ic.txt", g_dir);
    ck_assert_msg(nb_snapshot_read(path, &p, &err) == NB_OK, "%s", err.message);
    ck_assert_uint_eq(p.n, N);
    double *acc_abs = malloc(N * sizeof *acc_abs), *pot_abs = malloc(N * sizeof *pot_abs);
    ck_assert(acc_abs && pot_abs);
    ck_assert_int_eq(nb_cpu_ga_magnitudes(N, p.x, p.m, 0.01, acc_abs, pot_abs, &err), NB_OK);
    for (size_t i = 0; i < N; i++) {
        const double *a = one + 5 * i, *b = two + 5 * i;
        ck_assert_double_eq(a[0], b[0]);                    /* the id */
        double da = sqrt((a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]) +
                         (a[3] - b[3]) * (a[3] - b[3]));
        ck_assert_msg(da <= tol * acc_abs[i], "%s: particle %zu: |a2 - a1| = %g, "
                      "bound %g", backend, i, da, tol * acc_abs[i]);
        ck_assert(fabs(a[4] - b[4]) <= tol * pot_abs[i]);
    }
    free(acc_abs);
    free(pot_abs);
    nb_particles_free(&p);
}

START_TEST(test_forces_compute)
{
    forces_match("compute", 2 * TOLERANCE);     /* two float results: check_gpu's */
}
END_TEST

START_TEST(test_forces_cpu)
{
    forces_match("cpu", 1e-13);                 /* double, summed in two parts */
}
END_TEST

/* ---- failures --------------------------------------------------------------- */

/* Rank 1 fails alone in its first reduction, while rank 0 waits in its
 * own: the job stops with rank 1's message, exit 1, no file, no hang. */
START_TEST(test_rank1_failure_stops_all)
{
    struct cli_run r;
    mpi_run(&r, 2, "1", (const char *const[]){ "run", "--n", "256", "--t-end",
            "0.125", "--output", "out.txt", "--energy-log", "energy.csv", NULL });
    ck_assert_msg(r.status != 0 && r.status != 124 && r.status < 128, "exit %d "
                  "(124: the job hung until timeout killed it), stderr:\n%s",
                  r.status, r.err);
    ck_assert_msg(strstr(r.err, "glnbody: rank 1: injected fault"), "stderr:\n%s", r.err);
    ck_assert(!exists_in_dir("out.txt"));
    ck_assert(!exists_in_dir("energy.csv"));
    cli_run_free(&r);
}
END_TEST

/* The same fault on the only rank: an ordinary failure. */
START_TEST(test_rank0_failure_alone)
{
    struct cli_run r;
    mpi_run(&r, 1, "0", (const char *const[]){ "run", "--n", "64", "--t-end",
            "0.125", "--output", "out.txt", NULL });
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "glnbody: rank 0: injected fault"));
    ck_assert(!exists_in_dir("out.txt"));
    cli_run_free(&r);
}
END_TEST

/* A command that does not share its work would run P times over. */
START_TEST(test_other_command_refused)
{
    struct cli_run r;
    MPI_RUN(&r, 2, "md", "--steps", "1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "md does not run j-parallel"));
    cli_run_free(&r);
}
END_TEST

/* Rank 0 says once which GPU each rank drives (a run whose ranks all
 * landed on one GPU looked like a slow one), and an error every rank meets
 * is printed by each, naming its rank. */
START_TEST(test_devices_and_rank_errors)
{
    struct cli_run r;
    MPI_RUN(&r, 2, "run", "--n", "64", "--t-end", "0.03125");
    ck_assert_msg(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
    static const char said[] = "glnbody: 2 ranks, EGL device of each:";
    const char *line = strstr(r.err, said);
    ck_assert_msg(line && !strstr(line + sizeof said - 1, said), "stderr:\n%s", r.err);
    cli_run_free(&r);
    MPI_RUN(&r, 2, "run", "--n", "64", "--t-end", "0.03125", "--softening", "-1");
    ck_assert_int_eq(r.status, 2);
    /* MPI_Abort may stop the other rank before it prints: one at least */
    ck_assert_msg(strstr(r.err, "glnbody: rank ") && strstr(r.err, "softening") &&
                  !strstr(r.err, "glnbody: run:"), "stderr:\n%s", r.err);
    cli_run_free(&r);
}
END_TEST

/* The fragment engine sums slices too (N odd: they end inside 4-blocks):
 * one rank is the run without mpirun bit for bit, two agree to float
 * rounding. */
START_TEST(test_fragment_agrees)
{
    enum { N = 509, CAP = 8 * N + 16 };
    static double v[3][CAP];
    char *text[3];
    for (int p = 0; p < 3; p++) {
        char output[32];
        struct cli_run r;
        snprintf(output, sizeof output, "out%d.txt", p);
        MPI_RUN(&r, p, "run", "--n", "509", "--t-end", "0.0625", "--backend", "fragment",
                "--predict", p == 2 ? "gpu" : "host", "--output", output, "--quiet");
        expect_ok(&r, "run --backend fragment");
        cli_run_free(&r);
        text[p] = test_dir_read(output);
        ck_assert_uint_eq(numbers(text[p], v[p], CAP), 8 * N);
    }
    ck_assert_str_eq(text[0], text[1]);
    for (size_t i = 0; i < 8 * N; i++)
        ck_assert_msg(fabs(v[2][i] - v[0][i]) <= 1e-5, "value %zu: %.9g vs %.9g", i,
                      v[2][i], v[0][i]);
    for (int p = 0; p < 3; p++)
        free(text[p]);
}
END_TEST


static int g_have_mpi;

static Suite *mpi_suite(void)
{
    Suite *s = suite_create("mpi");
    if (!g_have_mpi)
        return s;
    TCase *tc = tcase_create("mpi");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 600);
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_test(tc, test_h_identical_predict_host);
    tcase_add_test(tc, test_h_identical_predict_gpu);
    tcase_add_test(tc, test_a_agrees);
    tcase_add_test(tc, test_forces_compute);
    tcase_add_test(tc, test_forces_cpu);
    tcase_add_test(tc, test_rank1_failure_stops_all);
    tcase_add_test(tc, test_rank0_failure_alone);
    tcase_add_test(tc, test_other_command_refused);
    tcase_add_test(tc, test_devices_and_rank_errors);
    tcase_add_test(tc, test_h_restart_identical);
    tcase_add_test(tc, test_fragment_agrees);
    suite_add_tcase(s, tc);
    return s;
}

/* The program as built: with MPI, its --help says so. */
static int built_with_mpi(const char *bin)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' --help 2>/dev/null | grep -q '^Open MPI:'", bin);
    return system(cmd) == 0;
}

/* Where mpirun is: $PATH searched by the shell. */
static int find_mpirun(void)
{
    FILE *fp = popen("command -v mpirun 2>/dev/null", "r");
    if (!fp)
        return 0;
    int found = fgets(g_mpirun, sizeof g_mpirun, fp) != NULL;
    pclose(fp);
    g_mpirun[strcspn(g_mpirun, "\n")] = '\0';
    return found && g_mpirun[0] == '/';
}

int main(void)
{
    static char bin[4096];
    char cwd[2048];
    const char *env = getenv("GLNBODY_BIN"), *name = env && *env ? env : "build/glnbody";
    (void)write_file;           /* the harness's, unused here */
    if (name[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(bin, sizeof bin, "%.2047s", name);
    else
        snprintf(bin, sizeof bin, "%.2040s/%.2040s", cwd, name);
    g_have_mpi = find_mpirun() && built_with_mpi(bin);
    if (!g_have_mpi)
        printf("check_mpi: the mpirun cases skipped: %s\n", g_mpirun[0] ?
               "the program was built without MPI (make NB_MPI=0)" :
               "no mpirun (Debian openmpi-bin)");
    g_glnbody = bin;
    /* the harness runs g_bin: timeout(1), which runs mpirun */
    setenv("GLNBODY_BIN", "/usr/bin/timeout", 1);
    int status = cli_harness_main("check_mpi", mpi_suite, 1);
    return status == EXIT_SUCCESS && !g_have_mpi ? NB_TEST_SKIPPED : status;
}
