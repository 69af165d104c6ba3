/* check_restart.c - checkpoints and restarts through
 * the real binary (GLNBODY_BIN, default build/glnbody).
 *
 * Run A goes uninterrupted; run B is interrupted three ways and restarted:
 * in two legs (--t-end / --steps extended from the checkpoint at the end),
 * by kill -9 after a --checkpoint-every checkpoint, and by SIGINT or
 * SIGTERM.  The --output files must be byte-identical to A's, and the log
 * rows after the restart point identical to A's rows.  To interrupt at a
 * known place, B writes one long log into a FIFO that the test reads: the
 * run blocks once the pipe is full, and the signal comes while it does.
 * On the CPU, and on llvmpipe's compute and fragment pipelines in modes A
 * and H (the GL cases are skipped without GL).  Then the corrupt
 * checkpoints, the refused option changes, and what kill -9 leaves. */
#include <check.h>

#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_harness.h"
#include "nb_host.h"
#include "glnbody.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_ARGS 48

static void assert_same_file(const char *a, const char *b)
{
    char *ta = test_dir_read(a), *tb = test_dir_read(b);
    ck_assert_msg(strcmp(ta, tb) == 0, "%s and %s differ", a, b);
    ck_assert_int_gt(strlen(ta), 0);
    free(ta);
    free(tb);
}

/* The rows of the new log (its header line left out) are the last rows of
 * A's log, and there are some. */
static void assert_tail_rows(const char *a, const char *b)
{
    char *ta = test_dir_read(a), *tb = test_dir_read(b);
    const char *rows = strchr(tb, '\n');
    ck_assert_ptr_nonnull(rows);
    rows++;
    size_t la = strlen(ta), lr = strlen(rows);
    ck_assert_msg(lr > 0 && lr < la && strcmp(ta + la - lr, rows) == 0 &&
                  ta[la - lr - 1] == '\n', "the rows of %s are not the last rows of %s",
                  b, a);
    free(ta);
    free(tb);
}

/* No temporary file (*.tmp.*) anywhere in the test's directory tree. */
static void assert_no_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        char child[2400];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        ck_assert_msg(strstr(e->d_name, ".tmp.") == NULL, "left behind: %s/%s", dir,
                      e->d_name);
        snprintf(child, sizeof child, "%s/%s", dir, e->d_name);
        if (stat(child, &st) == 0 && S_ISDIR(st.st_mode))
            assert_no_temporaries(child);
    }
    closedir(d);
}

/* Runs g_bin with `command` and the rest in g_dir; *r as cli_run_in. */
static void run_in(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, g_dir, NULL, args);
}

#define RUN(pr, ...) run_in((pr), (const char *const[]){ __VA_ARGS__, NULL })

/* Joins two NULL-terminated lists into out (MAX_ARGS). */
static void join(const char **out, const char *const *a, const char *const *b)
{
    int n = 0;
    for (; a && *a; a++)
        out[n++] = *a;
    for (; b && *b; b++)
        out[n++] = *b;
    ck_assert_int_lt(n, MAX_ARGS);
    out[n] = NULL;
}

static void run_ok(const char *const *common, const char *const *extra)
{
    const char *args[MAX_ARGS];
    struct cli_run r;
    join(args, common, extra);
    run_in(&r, args);
    ck_assert_msg(r.status == 0, "%s %s: exit %d: %s", args[0], args[1], r.status, r.err);
    cli_run_free(&r);
}

#define RUN_OK(...) run_ok((const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* Starts g_bin (args) in g_dir with stdout and stderr into files of g_root;
 * then reads `before` bytes of the FIFO it writes, waits for the checkpoint
 * file, sends sig, reads the FIFO to its end (except after SIGKILL) and
 * returns the exit status (128 + signal for a killed one); *err gets stderr. */
static int interrupt_run(const char *const *args, const char *fifo, const char *checkpoint,
                         size_t before, int sig, char **err)
{
    const char *argv[MAX_ARGS + 1] = { g_bin };
    char fifo_path[1200], ck_path[1200], err_path[1200];
    int n = 0;
    while (args[n]) {
        argv[n + 1] = args[n];
        n++;
    }
    argv[n + 1] = NULL;
    test_dir_path(fifo_path, sizeof fifo_path, fifo);
    test_dir_path(ck_path, sizeof ck_path, checkpoint);
    snprintf(err_path, sizeof err_path, "%s/interrupted.err", g_root);
    ck_assert_int_eq(mkfifo(fifo_path, 0600), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        int efd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || efd < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
            dup2(efd, 2) < 0 || chdir(g_dir) != 0)
            _exit(126);
        execv(g_bin, (char *const *)argv);
        _exit(127);
    }
    int fd = open(fifo_path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    char buf[4096];
    size_t got = 0;
    ssize_t k;
    while (got < before && (k = read(fd, buf, sizeof buf)) > 0)
        got += (size_t)k;
    ck_assert_msg(got >= before, "the run wrote only %zu bytes", got);
    for (int tries = 0; access(ck_path, F_OK) != 0; tries++) {
        ck_assert_msg(tries < 6000, "no checkpoint %s appeared", checkpoint);
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    }
    ck_assert_int_eq(kill(pid, sig), 0);
    while (sig != SIGKILL && read(fd, buf, sizeof buf) > 0)
        ;
    close(fd);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    unlink(fifo_path);
    *err = read_file(err_path);
    ck_assert_ptr_nonnull(*err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Every snapshot in dir reads back whole (nb_snapshot_read), and there
 * are some. */
static void assert_snapshots(const char *name)
{
    char dir[1200], path[2400];
    struct dirent *e;
    int count = 0;
    test_dir_path(dir, sizeof dir, name);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        struct nb_particles p;
        struct nb_error err = { 0 };
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ck_assert_msg(nb_snapshot_read(path, &p, &err) == NB_OK, "%s", err.message);
        ck_assert(p.n == 32);
        nb_particles_free(&p);
        count++;
    }
    closedir(d);
    ck_assert_int_eq(count, 9);    /* t = 0, 1/8, ..., 1 */
}

/* ---- run: Hermite block steps ---------------------------------------------- */

struct engine_case {
    const char *args[10];    /* NULL-terminated */
    int gl;
};

static const struct engine_case run_cases[] = {
    { { "--backend", "cpu" }, 0 },
    { { "--backend", "compute", "--variant", "t64i1" }, 1 },
    { { "--backend", "compute", "--variant", "t64i1", "--precision", "H" }, 1 },
    { { "--backend", "fragment" }, 1 },
    { { "--backend", "compute", "--variant", "t64i1", "--predict", "gpu" }, 1 },
    { { "--backend", "fragment", "--predict", "gpu" }, 1 },
    { { "--backend", "compute", "--variant", "t64i1", "--predict", "gpu", "--correct", "gpu" },
      1 },
};

/* 1/512 log rows: over 64 KiB of them, more than a pipe holds. */
#define RUN_COMMON "run", "--n", "32", "--seed", "7", "--log-every", "0.001953125", \
    "--quiet"

static void run_restart_case(const struct engine_case *e)
{
    const char *base[MAX_ARGS], *args[MAX_ARGS];
    char *err;

    join(base, (const char *const[]){ RUN_COMMON, NULL }, e->args);
    run_ok(base, (const char *const[]){ "--t-end", "1", "--energy-log", "a.csv",
                                        "--output", "a.txt", NULL });

    /* Two legs: the second extends the first's checkpoint at its end. */
    run_ok(base, (const char *const[]){ "--t-end", "0.5", "--energy-log", "b.csv",
                                        "--output", "b_half.txt", "--checkpoint", "b.ck",
                                        NULL });
    RUN_OK("run", "--restart", "b.ck", "--t-end", "1", "--output",
           "b.txt", "--quiet");
    assert_same_file("a.txt", "b.txt");
    assert_same_file("a.csv", "b.csv");

    /* kill -9 after a --checkpoint-every checkpoint, then the restart. */
    join(args, base, (const char *const[]){ "--t-end", "1", "--energy-log", "c.fifo",
                                            "--output", "c.txt", "--checkpoint", "c.ck",
                                            "--checkpoint-every", "0.0625",
                                            "--snapshot-every", "0.125", "--snapshot-dir",
                                            "snaps", NULL });
    ck_assert_int_eq(interrupt_run(args, "c.fifo", "c.ck", 8192, SIGKILL, &err), 137);
    free(err);
    /* What a kill in the middle of a snapshot leaves (the kill above may
     * land there or not): the restart removes it. */
    char cut_path[2200];
    test_dir_path(cut_path, sizeof cut_path, "snaps");
    mkdir(cut_path, 0777);  /* the kill may have come before the first one */
    test_dir_path(cut_path, sizeof cut_path, "snaps/snap_00007.txt.tmp.Zz0k9q");
    FILE *cut = fopen(cut_path, "w");
    ck_assert_msg(cut && fputs("# glnbody snapshot, cut sh", cut) >= 0 && fclose(cut) == 0,
                  "cannot make a cut-short snapshot");
    RUN_OK("run", "--restart", "c.ck", "--energy-log", "c.csv",
           "--quiet");
    assert_no_temporaries(g_dir);   /* a checkpoint or snapshot cut short: removed */
    assert_snapshots("snaps");
    assert_same_file("a.txt", "c.txt");
    assert_tail_rows("a.csv", "c.csv");
}

START_TEST(test_run_restart)
{
    run_restart_case(&run_cases[_i]);
}
END_TEST

/* SIGINT needs no earlier checkpoint to wait for: a variant of
 * interrupt_run's start that signals after `before` bytes. */
static int signal_run(const char *const *args, const char *fifo, size_t before, int sig,
                      char **err)
{
    char marker[1200];
    test_dir_path(marker, sizeof marker, "started");
    write_file(marker, "");
    int status = interrupt_run(args, fifo, "started", before, sig, err);
    unlink(marker);
    return status;
}

/* A run stopped by signal sig (named sig_name) after `before` bytes on
 * fifo: exit 128 + sig, and a message that names the signal and the
 * checkpoint it wrote. */
static void assert_signal_stops(const char *const *args, const char *fifo, size_t before,
                                int sig, const char *sig_name, const char *checkpoint)
{
    char *err, stopped[64], written[1200];
    ck_assert_int_eq(signal_run(args, fifo, before, sig, &err), 128 + sig);
    snprintf(stopped, sizeof stopped, "stopped by %s", sig_name);
    snprintf(written, sizeof written, "checkpoint written to %s", checkpoint);
    ck_assert_msg(strstr(err, stopped) && strstr(err, written), "%s", err);
    free(err);
}

START_TEST(test_run_sigint)
{
    const struct engine_case *e = &run_cases[_i];
    const char *base[MAX_ARGS], *args[MAX_ARGS];

    join(base, (const char *const[]){ RUN_COMMON, NULL }, e->args);
    run_ok(base, (const char *const[]){ "--t-end", "1", "--energy-log", "a.csv",
                                        "--output", "a.txt", NULL });
    join(args, base, (const char *const[]){ "--t-end", "1", "--energy-log", "d.fifo",
                                            "--output", "d.txt", "--checkpoint", "d.ck",
                                            NULL });
    assert_signal_stops(args, "d.fifo", 8192, SIGINT, "SIGINT", "d.ck");
    assert_no_temporaries(g_dir);
    RUN_OK("run", "--restart", "d.ck", "--energy-log", "d.csv",
           "--quiet");
    assert_same_file("a.txt", "d.txt");
    assert_tail_rows("a.csv", "d.csv");
}
END_TEST

/* Whether two files hold the same bytes (binary files too). */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb, ca = 0, cb = 0;
    while (same && (ca = getc(fa)) == (cb = getc(fb)) && ca != EOF)
        ;
    same = same && ca == cb;
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Pictures (--frames) go on after a restart with the next frame's number;
 * the first leg's stay as they were.  (The frames after the restart are
 * drawn from the same states, but the automatic colour range and camera
 * are fitted anew in the new process, so they are not compared.) */
START_TEST(test_frames_continue)
{
    const char *base[] = { "run", "--backend", "cpu", "--n", "32", "--seed", "7",
                           "--frame-every", "0.25", "--frame-size", "64x48", "--quiet",
                           NULL };
    run_ok(base, (const char *const[]){ "--t-end", "1", "--frames", "fa", NULL });
    run_ok(base, (const char *const[]){ "--t-end", "0.5", "--frames", "fb", "--checkpoint",
                                        "f.ck", NULL });
    RUN_OK("run", "--restart", "f.ck", "--t-end", "1", "--frames",
           "fb", "--frame-every", "0.25", "--frame-size", "64x48",
           "--quiet");
    for (int k = 0; k <= 2; k++) {
        char a[64], b[64], pa[1200], pb[1200];
        snprintf(a, sizeof a, "fa/frame_%05d.png", k);
        snprintf(b, sizeof b, "fb/frame_%05d.png", k);
        test_dir_path(pa, sizeof pa, a);
        test_dir_path(pb, sizeof pb, b);
        ck_assert_msg(same_bytes(pa, pb), "%s and %s differ (or one is missing)", a, b);
    }
    char p3[1200], p4[1200], p5[1200];
    test_dir_path(p3, sizeof p3, "fb/frame_00003.png");
    test_dir_path(p4, sizeof p4, "fb/frame_00004.png");
    test_dir_path(p5, sizeof p5, "fb/frame_00005.png");
    ck_assert(access(p3, F_OK) == 0 && access(p4, F_OK) == 0 && access(p5, F_OK) != 0);
}
END_TEST

/* ---- md: velocity Verlet ----------------------------------------------------- */

static const struct engine_case md_cases[] = {
    { { "--backend", "cpu" }, 0 },
    { { "--backend", "compute" }, 1 },
    { { "--backend", "compute", "--precision", "H" }, 1 },
    { { "--backend", "fragment" }, 1 },
};

/* 108 atoms; a dump frame of them is ~7 KiB: nine fill a pipe. */
#define MD_COMMON "md", "--cells", "3", "--cutoff", "2.5", "--seed", "5", \
    "--thermo-every", "5", "--dump-every", "2", "--quiet"

START_TEST(test_md_restart)
{
    const struct engine_case *e = &md_cases[_i];
    const char *base[MAX_ARGS], *args[MAX_ARGS];
    char *err;

    join(base, (const char *const[]){ MD_COMMON, NULL }, e->args);
    run_ok(base, (const char *const[]){ "--steps", "120", "--thermo", "a.csv", "--dump",
                                        "a.dump", "--output", "a.txt", NULL });

    /* Two legs: --steps counts from step 0 of the first. */
    run_ok(base, (const char *const[]){ "--steps", "63", "--thermo", "b.csv", "--dump",
                                        "b.dump", "--output", "b_half.txt",
                                        "--checkpoint", "b.ck", NULL });
    RUN_OK("md", "--restart", "b.ck", "--steps", "120", "--output",
           "b.txt", "--quiet");
    assert_same_file("a.txt", "b.txt");
    assert_same_file("a.csv", "b.csv");
    assert_same_file("a.dump", "b.dump");

    /* kill -9 after a --checkpoint-every checkpoint: the thermo file holds
     * whole rows and continues; no temporary file stays. */
    join(args, base, (const char *const[]){ "--steps", "120", "--thermo", "c.csv",
                                            "--dump", "c.fifo", "--output", "c.txt",
                                            "--checkpoint", "c.ck", "--checkpoint-every",
                                            "4", NULL });
    ck_assert_int_eq(interrupt_run(args, "c.fifo", "c.ck", 16384, SIGKILL, &err), 137);
    free(err);
    char *rows = test_dir_read("c.csv");
    ck_assert_msg(rows[strlen(rows) - 1] == '\n', "a partial row: %s", rows);
    free(rows);
    RUN_OK("md", "--restart", "c.ck", "--dump", "c.dump",
           "--quiet");
    assert_no_temporaries(g_dir);   /* a checkpoint cut short by the kill: removed */
    assert_same_file("a.txt", "c.txt");
    assert_same_file("a.csv", "c.csv");

    /* SIGTERM: exit 143, then the restart. */
    join(args, base, (const char *const[]){ "--steps", "120", "--thermo", "d.csv",
                                            "--dump", "d.fifo", "--output", "d.txt",
                                            "--checkpoint", "d.ck", NULL });
    assert_signal_stops(args, "d.fifo", 16384, SIGTERM, "SIGTERM", "d.ck");
    RUN_OK("md", "--restart", "d.ck", "--dump", "d.dump",
           "--quiet");
    assert_same_file("a.txt", "d.txt");
    assert_same_file("a.csv", "d.csv");
}
END_TEST

/* ---- refusals ------------------------------------------------------------------ */

static void assert_refused(const struct cli_run *r, int status, const char *fragment)
{
    ck_assert_msg(r->status == status, "exit %d, stderr: %s", r->status, r->err);
    ck_assert_msg(strstr(r->err, fragment) != NULL, "no '%s' in: %s", fragment, r->err);
    ck_assert_msg(strchr(r->err, '\n') == r->err + strlen(r->err) - 1,
                  "not one line: %s", r->err);
}

/* Runs args and expects the refusal that assert_refused describes. */
static void run_refused(int status, const char *fragment, const char *const *args)
{
    struct cli_run r;
    run_in(&r, args);
    assert_refused(&r, status, fragment);
    cli_run_free(&r);
}

#define RUN_REFUSED(status, fragment, ...) \
    run_refused((status), (fragment), (const char *const[]){ __VA_ARGS__, NULL })

/* A copy of the valid checkpoint good.ck, changed by `damage`, as bad.ck. */
static void damaged_copy(int damage)
{
    char *text, path[1200];
    FILE *fp;
    size_t size;
    test_dir_path(path, sizeof path, "good.ck");
    fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    fseek(fp, 0, SEEK_END);
    size = (size_t)ftell(fp);
    rewind(fp);
    text = malloc(size);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(fread(text, 1, size, fp), size);
    fclose(fp);
    if (damage == 0)
        size /= 2;                      /* truncated */
    else if (damage == 1)
        text[size / 2] ^= 0x10;         /* one bit flipped */
    else if (damage == 2)
        text[8] = 99;                   /* another version */
    else if (damage == 3)
        size = 0;                       /* empty */
    else if (damage == 4)
        memcpy(text, "id m x y", 8);    /* not a checkpoint */
    test_dir_path(path, sizeof path, "bad.ck");
    fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fwrite(text, 1, size, fp), size);
    fclose(fp);
    free(text);
}

static const char *const damages[] = {
    "bad.ck: not a usable checkpoint: truncated: the header says",
    "bad.ck: not a usable checkpoint: CRC mismatch: the file is damaged",
    "bad.ck: not a usable checkpoint: format version 99, and this glnbody reads versions 1 to 2",
    "bad.ck: not a usable checkpoint: the file is empty",
    "bad.ck: not a usable checkpoint: no GLNBCKPT magic (not a glnbody checkpoint)",
};

START_TEST(test_corrupt_checkpoint)
{
    RUN_OK("run", "--backend", "cpu", "--n", "16", "--t-end", "0.125", "--checkpoint",
           "good.ck", "--quiet");
    damaged_copy(_i);
    RUN_REFUSED(1, damages[_i], "run", "--restart", "bad.ck", "--output", "out.txt", "--quiet");
    char out[1200];
    test_dir_path(out, sizeof out, "out.txt");
    ck_assert_int_ne(access(out, F_OK), 0);
    RUN_REFUSED(1, damages[_i], "md", "--restart", "bad.ck", "--quiet");
}
END_TEST

START_TEST(test_checkpoint_of_other_command)
{
    RUN_OK("run", "--backend", "cpu", "--n", "16", "--t-end", "0.125", "--checkpoint",
           "run.ck", "--quiet");
    RUN_OK("md", "--backend", "cpu", "--cells", "3", "--cutoff", "2.5", "--steps", "4",
           "--checkpoint", "md.ck", "--thermo", "th.csv", "--quiet");
    RUN_REFUSED(1, "run.ck: not a usable checkpoint: it was written by `glnbody "
                "run`, not `glnbody md`",
                "md", "--restart", "run.ck", "--quiet");
    RUN_REFUSED(1, "md.ck: not a usable checkpoint: it was written by `glnbody "
                "md`, not `glnbody run`",
                "run", "--restart", "md.ck", "--quiet");
    RUN_REFUSED(1, "missing.ck: cannot read the checkpoint: No such file or "
                "directory",
                "run", "--restart", "missing.ck", "--quiet");
}
END_TEST

/* Options that change the trajectory may come again only as they were. */
START_TEST(test_trajectory_options_refused)
{
    struct cli_run r;
    RUN_OK("run", "--backend", "cpu", "--n", "16", "--t-end", "0.25", "--eta", "0.02",
           "--checkpoint", "run.ck", "--quiet");
    RUN_REFUSED(2, "--eta 0.03: the run in run.ck used 0.02; an option that changes the "
                "trajectory",
                "run", "--restart", "run.ck", "--eta", "0.03", "--quiet");
    RUN_REFUSED(2, "an option that changes the trajectory cannot change",
                "run", "--restart", "run.ck", "--softening", "0.1", "--quiet");
    RUN_REFUSED(2, "--restart excludes --input, --ic, --n and --seed",
                "run", "--restart", "run.ck", "--n", "32", "--quiet");
    RUN_REFUSED(2, "--t-end 0.125: the run in run.ck is already at t = 0.25",
                "run", "--restart", "run.ck", "--t-end", "0.125", "--quiet");
    RUN(&r, "run", "--restart", "run.ck", "--eta", "0.02", "--t-end", "0.5", "--quiet");
    ck_assert_msg(r.status == 0, "the same value is allowed: %s", r.err);
    cli_run_free(&r);

    RUN_OK("md", "--backend", "cpu", "--cells", "3", "--cutoff", "2.5", "--steps", "4",
           "--checkpoint", "md.ck", "--thermo", "th.csv", "--quiet");
    RUN_REFUSED(2, "--dt 0.004: the run in md.ck did not give it; an option that sets up "
                "the system or changes its trajectory cannot change",
                "md", "--restart", "md.ck", "--dt", "0.004", "--quiet");
    RUN_REFUSED(2, "--cutoff 2: the run in md.ck used 2.5",
                "md", "--restart", "md.ck", "--cutoff", "2", "--quiet");
    RUN_REFUSED(2, "--steps 2: the run in md.ck is already at step 4",
                "md", "--restart", "md.ck", "--steps", "2", "--quiet");
}
END_TEST

/* A breakdown and a failed write stop the run with the cause, and the
 * breakdown names the last good checkpoint to go back to. */
START_TEST(test_stops_name_checkpoint)
{
    struct cli_run r;
    char in[1200];
    test_dir_path(in, sizeof in, "in.txt");
    write_file(in, "5 0.5 -1 0 0 0 0 0\n6 0.5 1 0 0 0 0 0\n");   /* a head-on fall */
    RUN(&r, "run", "--backend", "cpu", "--input", "in.txt", "--softening", "0", "--t-end",
        "8", "--energy-log", "e.csv", "--checkpoint", "fall.ck", "--checkpoint-every",
        "0.25", "--quiet");
    assert_refused(&r, 1, "particle 5 (index 0) at t = 3.14");
    ck_assert_msg(strstr(r.err, "below the floor 2^-40") && strstr(r.err, "; the last good "
                  "checkpoint is fall.ck (t = 3): go back to it with --restart fall.ck"),
                  "%s", r.err);
    cli_run_free(&r);
    char *rows = test_dir_read("e.csv");     /* whole rows up to the breakdown */
    ck_assert(strncmp(rows, "t,ekin", 6) == 0 && rows[strlen(rows) - 1] == '\n');
    free(rows);
    RUN_REFUSED(1, "/dev/full: write error: No space left on device",
                "run", "--backend", "cpu", "--n", "16", "--energy-log", "/dev/full", "--quiet");
    RUN_REFUSED(1, "/dev/full: write error: No space left on device",
                "md", "--backend", "cpu", "--cells", "3", "--cutoff", "2.5", "--steps", "4",
                "--thermo", "/dev/full", "--quiet");
}
END_TEST

/* ---- the library: nb_hermite_checkpoint/restore, nb_md_checkpoint/restore */

START_TEST(test_api_restart)
{
    struct nb_error err = { 0 };
    struct nb_forces *f;
    struct nb_hermite *a, *b;
    char path[1200];
    double xa[3 * 24], va[3 * 24], xb[3 * 24], vb[3 * 24];

    ck_assert_int_eq(nb_forces_create(&f, NULL, NB_ENGINE_CPU, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_create_plummer(&a, f, 24, 3, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_integrate(a, 0.3, &err), NB_OK);
    test_dir_path(path, sizeof path, "h.ck");
    ck_assert_int_eq(nb_hermite_checkpoint(a, path, "mine", 4, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_integrate(a, 1.0, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_restore(&b, f, path, -1, &err), NB_OK);
    ck_assert(nb_hermite_time(b) == 0.3);
    char *app = NULL;
    size_t app_size = 0;
    test_dir_path(path, sizeof path, "h.ck");
    ck_assert_int_eq(nb_checkpoint_app(path, NB_CHECKPOINT_HERMITE, &app, &app_size, NULL,
                                       &err), NB_OK);
    ck_assert(app_size == 4 && strcmp(app, "mine") == 0);
    free(app);
    ck_assert_int_eq(nb_hermite_integrate(b, 1.0, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_state(a, xa, va, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_state(b, xb, vb, &err), NB_OK);
    ck_assert(memcmp(xa, xb, sizeof xa) == 0 && memcmp(va, vb, sizeof va) == 0);
    nb_hermite_destroy(a);
    nb_hermite_destroy(b);
    nb_forces_destroy(f);

    struct nb_md *ma, *mb;
    struct nb_md_params par;
    struct nb_md_thermo ta, tb;
    nb_md_params_default(&par);
    ck_assert_int_eq(nb_md_create_fcc(&ma, NULL, NB_ENGINE_CPU, 3, 0.8442, 1.0, 2, &par,
                                      &err), NB_OK);
    ck_assert_int_eq(nb_md_step(ma, 7, &err), NB_OK);
    test_dir_path(path, sizeof path, "m.ck");
    ck_assert_int_eq(nb_md_checkpoint(ma, path, NULL, NULL, 0, &err), NB_OK);
    ck_assert_int_eq(nb_md_step(ma, 9, &err), NB_OK);
    ck_assert_int_eq(nb_md_prepare_restart(&mb, path, -1, NULL, NULL, &err), NB_OK);
    ck_assert_int_eq(nb_md_start(mb, NULL, NB_ENGINE_CPU, NB_PRECISION_A, &err), NB_OK);
    ck_assert_int_eq(nb_md_step(mb, 9, &err), NB_OK);
    ck_assert_int_eq(nb_md_get_thermo(ma, &ta, &err), NB_OK);
    ck_assert_int_eq(nb_md_get_thermo(mb, &tb, &err), NB_OK);
    ck_assert(ta.step == 16 && tb.step == 16 && ta.etotal == tb.etotal &&
              ta.press == tb.press);
    nb_md_destroy(ma);
    nb_md_destroy(mb);

    /* the other side's checkpoint, refused with the reason */
    ck_assert_int_eq(nb_hermite_restore(&b, NULL, path, -1, &err), NB_ERR_ARGS);
    ck_assert_int_eq(nb_forces_create(&f, NULL, NB_ENGINE_CPU, &err), NB_OK);
    ck_assert_int_eq(nb_hermite_restore(&b, f, path, -1, &err), NB_ERR_PARSE);
    ck_assert_msg(strstr(err.message, "written by `glnbody md`"), "%s", err.message);
    nb_forces_destroy(f);
}
END_TEST

/* ---- the suite --------------------------------------------------------------- */

static TCase *engine_tcase(const char *name, int gl)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 300);
    if (gl)
        tcase_set_tags(tc, NB_TEST_GL_TAG);
    return tc;
}

static Suite *restart_suite(void)
{
    Suite *s = suite_create("restart");
    TCase *cpu = engine_tcase("cpu", 0), *gl = engine_tcase("gl", 1);

    for (int i = 0; i < COUNT(run_cases); i++) {
        tcase_add_loop_test(run_cases[i].gl ? gl : cpu, test_run_restart, i, i + 1);
        tcase_add_loop_test(run_cases[i].gl ? gl : cpu, test_run_sigint, i, i + 1);
    }
    tcase_add_test(gl, test_frames_continue);
    for (int i = 0; i < COUNT(md_cases); i++)
        tcase_add_loop_test(md_cases[i].gl ? gl : cpu, test_md_restart, i, i + 1);
    tcase_add_loop_test(cpu, test_corrupt_checkpoint, 0, COUNT(damages));
    tcase_add_test(cpu, test_checkpoint_of_other_command);
    tcase_add_test(cpu, test_trajectory_options_refused);
    tcase_add_test(cpu, test_api_restart);
    tcase_add_test(cpu, test_stops_name_checkpoint);
    suite_add_tcase(s, cpu);
    suite_add_tcase(s, gl);
    return s;
}

int main(void)
{
    return cli_harness_main("check_restart", restart_suite, 1);
}
