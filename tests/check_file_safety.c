/* check_file_safety.c - a user's files come first: a restart writes only
 * into files that are provably its own, no two outputs (and no output and
 * input) share a file, temporaries never outlive a killed run, and the
 * checkpoint's CRC covers every byte.  Runs the program (GLNBODY_BIN,
 * default build/glnbody) on the CPU backend: no GL needed. */
#include <check.h>

#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <zlib.h>

#include "cli_harness.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void run_args(struct cli_run *r, const char *const *args)
{
    cli_run_in(r, g_dir, NULL, args);
}

#define RUN(pr, ...) run_args((pr), (const char *const[]){ __VA_ARGS__, NULL })

static void run_ok(const char *const *args)
{
    struct cli_run r;
    run_args(&r, args);
    ck_assert_msg(r.status == 0, "%s %s: exit %d: %s", args[0], args[1], r.status, r.err);
    cli_run_free(&r);
}

#define RUN_OK(...) run_ok((const char *const[]){ __VA_ARGS__, NULL })

/* The names in g_dir, each followed by a space, sorted. */
static void assert_listing(const char *expected)
{
    struct dirent **names;
    char out[4096] = "";
    int n = scandir(g_dir, &names, NULL, alphasort);
    ck_assert_int_ge(n, 0);
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            strncat(out, names[i]->d_name, sizeof out - strlen(out) - 2);
            strcat(out, " ");
        }
        free(names[i]);
    }
    free(names);
    ck_assert_str_eq(out, expected);
}

/* Exit status, one line on stderr holding fragment (and fragment2). */
static void assert_refused(const struct cli_run *r, int status, const char *fragment,
                           const char *fragment2)
{
    ck_assert_msg(r->status == status, "exit %d, stderr: %s", r->status, r->err);
    ck_assert_msg(strstr(r->err, fragment) != NULL, "no '%s' in: %s", fragment, r->err);
    ck_assert_msg(!fragment2 || strstr(r->err, fragment2) != NULL, "no '%s' in: %s",
                  fragment2, r->err);
    ck_assert_msg(strchr(r->err, '\n') == r->err + strlen(r->err) - 1, "not one line: %s",
                  r->err);
    ck_assert_msg(strstr(r->err, "(null)") == NULL, "%s", r->err);
}

/* The bytes of g_dir/name and their count. */
static unsigned char *slurp(const char *name, size_t *size)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "%s: %s", name, strerror(errno));
    ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
    long len = ftell(fp);
    rewind(fp);
    unsigned char *data = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(fread(data, 1, (size_t)len, fp), (size_t)len);
    fclose(fp);
    *size = (size_t)len;
    return data;
}

static void spill(const char *name, const void *data, size_t size)
{
    char path[1200];
    test_dir_path(path, sizeof path, name);
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fwrite(data, 1, size, fp), size);
    ck_assert_int_eq(fclose(fp), 0);
}

/* A megabyte of someone's data at name. */
static void precious(const char *name)
{
    size_t size = 1000000;
    char *data = malloc(size);
    ck_assert_ptr_nonnull(data);
    for (size_t k = 0; k < size; k++)
        data[k] = "IMPORTANT DATA\n"[k % 15];
    spill(name, data, size);
    free(data);
}

static void assert_precious(const char *name)
{
    size_t size;
    unsigned char *data = slurp(name, &size);
    ck_assert_uint_eq(size, 1000000);
    for (size_t k = 0; k < size; k++)
        ck_assert(data[k] == (unsigned char)"IMPORTANT DATA\n"[k % 15]);
    free(data);
}

static int same_file_bytes(const char *a, const char *b)
{
    size_t sa, sb;
    unsigned char *da = slurp(a, &sa), *db = slurp(b, &sb);
    int same = sa == sb && memcmp(da, db, sa) == 0;
    free(da);
    free(db);
    return same;
}

/* The checkpoint's CRC made valid again after an edit, in the layout of
 * its format version (1: the CRC before a zero word; 2: the CRC last). */
static void reseal(unsigned char *d, size_t size)
{
    uint32_t version;
    memcpy(&version, d + 8, 4);
    size_t at = version == 1 ? size - 8 : size - 4;
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), d, (uInt)at);
    memcpy(d + at, &crc, 4);
}

/* In checkpoint `name`, the text from replaced by to (same length). */
static void edit_checkpoint(const char *name, const char *from, const char *to)
{
    size_t size, len = strlen(from);
    unsigned char *d = slurp(name, &size);
    ck_assert_uint_eq(strlen(to), len);
    unsigned char *at = NULL;
    for (size_t k = 0; k + len <= size && !at; k++)
        if (memcmp(d + k, from, len) == 0)
            at = d + k;
    ck_assert_msg(at != NULL, "no '%s' in %s", from, name);
    memcpy(at, to, len);
    reseal(d, size);
    spill(name, d, size);
    free(d);
}

#define RUN_FLAGS "--backend", "cpu", "--n", "64", "--quiet"
#define MD_FLAGS "md", "--backend", "cpu", "--cells", "3", "--cutoff", "2.5", "--quiet"

/* ---- 1. a restart writes only into its own files ----------------------- */

static void first_leg(void)
{
    RUN_OK("run", RUN_FLAGS, "--t-end", "0.5", "--energy-log", "e.csv", "--checkpoint",
           "c.ck");
}

/* A restart refused because of e.csv: exit 1, the file named, nothing run. */
static void assert_log_refused(const char *why)
{
    struct cli_run r;
    RUN(&r, "run", "--restart", "c.ck", "--t-end", "1", "--quiet");
    assert_refused(&r, 1, "e.csv: not the file this run wrote there", why);
    ck_assert_msg(strstr(r.err, "give --energy-log another file"), "%s", r.err);
    cli_run_free(&r);
}

START_TEST(test_restart_keeps_foreign_file)
{
    first_leg();
    precious("e.csv");
    assert_log_refused("differ");
    assert_precious("e.csv");
    assert_listing("c.ck e.csv ");
}
END_TEST

START_TEST(test_restart_refuses_shorter_log)
{
    size_t size;
    first_leg();
    unsigned char *log = slurp("e.csv", &size);
    spill("e.csv", log, size / 2);
    assert_log_refused("fewer than");
    unsigned char *now = slurp("e.csv", &size);
    ck_assert(memcmp(now, log, size) == 0);
    free(log);
    free(now);
}
END_TEST

START_TEST(test_restart_refuses_missing_log)
{
    char path[1200];
    first_leg();
    test_dir_path(path, sizeof path, "e.csv");
    ck_assert_int_eq(unlink(path), 0);
    assert_log_refused("it is gone");
    assert_listing("c.ck ");
}
END_TEST

/* A checkpoint edited by hand, its CRC made valid, pointing at another
 * file: refused by the hash, the other file untouched. */
START_TEST(test_restart_edited_checkpoint)
{
    struct cli_run r;
    first_leg();
    precious("o.csv");
    edit_checkpoint("c.ck", "energy-log=e.csv", "energy-log=o.csv");
    RUN(&r, "run", "--restart", "c.ck", "--t-end", "1", "--quiet");
    assert_refused(&r, 1, "o.csv: not the file this run wrote there", NULL);
    cli_run_free(&r);
    assert_precious("o.csv");
}
END_TEST

/* Its own log with rows written after the checkpoint (a kill) continues,
 * also spelt another way, and ends as one uninterrupted run's. */
START_TEST(test_restart_continues_own_log)
{
    RUN_OK("run", RUN_FLAGS, "--t-end", "1", "--energy-log", "a.csv");
    first_leg();
    char path[1200];
    test_dir_path(path, sizeof path, "e.csv");
    FILE *fp = fopen(path, "a");
    ck_assert_ptr_nonnull(fp);
    fputs("0.625,1,2,3\n", fp);
    fclose(fp);
    RUN_OK("run", "--restart", "c.ck", "--t-end", "1", "--energy-log", "./e.csv", "--quiet");
    ck_assert(same_file_bytes("a.csv", "e.csv"));
}
END_TEST

/* md: each long output checked (thermo replaced, dump cut short). */
START_TEST(test_md_restart_keeps_foreign_files)
{
    struct cli_run r;
    size_t size;
    RUN_OK(MD_FLAGS, "--steps", "10", "--thermo", "t.csv", "--dump", "d.dump",
           "--dump-every", "5", "--checkpoint", "m.ck");
    precious("t.csv");
    RUN(&r, "md", "--restart", "m.ck", "--steps", "20", "--quiet");
    assert_refused(&r, 1, "t.csv: not the file this run wrote there",
                   "give --thermo another file");
    cli_run_free(&r);
    assert_precious("t.csv");
    unsigned char *dump = slurp("d.dump", &size);
    spill("d.dump", dump, size / 3);
    RUN(&r, "md", "--restart", "m.ck", "--steps", "20", "--thermo", "t2.csv", "--quiet");
    assert_refused(&r, 1, "d.dump: not the file this run wrote there", "fewer than");
    cli_run_free(&r);
    free(dump);
    assert_listing("d.dump m.ck t.csv ");
}
END_TEST

/* A log replaced by another program while the run writes it stops the run
 * at its next checkpoint, naming the file. */
START_TEST(test_log_replaced_during_run)
{
    const char *argv[] = { g_bin, "run", "--backend", "cpu", "--n", "64", "--t-end",
                           "4000", "--energy-log", "e.csv", "--checkpoint", "c.ck",
                           "--checkpoint-every", "0.0625", "--quiet", NULL };
    char log[1200], moved[1200], err_path[1200];
    test_dir_path(log, sizeof log, "e.csv");
    test_dir_path(moved, sizeof moved, "moved.csv");
    snprintf(err_path, sizeof err_path, "%s/replaced.err", g_root);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int efd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (efd < 0 || dup2(efd, 2) < 0 || chdir(g_dir) != 0)
            _exit(126);
        execv(g_bin, (char *const *)argv);
        _exit(127);
    }
    for (int tries = 0; access(log, F_OK) != 0; tries++) {
        ck_assert_msg(tries < 30000, "no e.csv appeared");
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    }
    ck_assert_int_eq(rename(log, moved), 0);
    write_file(log, "someone else's\n");
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char *err = read_file(err_path);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    ck_assert_msg(strstr(err, "e.csv: removed or replaced by another program"), "%s", err);
    free(err);
    char *text = test_dir_read("e.csv");
    ck_assert_str_eq(text, "someone else's\n");
    free(text);
}
END_TEST

/* ---- 2 and 3. one file, one role ---------------------------------------- */

static const struct collision {
    const char *args[24];
    const char *message;
} collisions[] = {
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "s.txt", "--energy-log", "s.txt" },
      "run: --energy-log s.txt and --output s.txt are one file" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "s.txt", "--checkpoint", "s.txt" },
      "run: --output s.txt and --checkpoint s.txt are one file" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "s.txt", "--energy-log",
        "./s.txt" }, "run: --energy-log ./s.txt and --output s.txt are one file" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "s.txt", "--energy-log",
        "sub/../s.txt" }, "--energy-log sub/../s.txt and --output s.txt are one file" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "in.txt", "--energy-log",
        "hard.txt" }, "--energy-log hard.txt and --output in.txt are one file" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "new.txt", "--energy-log",
        "dangling" }, "--energy-log dangling and --output new.txt are one file" },
    { { "run", "--backend", "cpu", "--quiet", "--input", "in.txt", "--output", "link.txt" },
      "run: --output link.txt would replace --input in.txt, which this command reads" },
    { { "run", RUN_FLAGS, "--t-end", "0.25", "--snapshot-dir", "snaps", "--snapshot-every",
        "0.125", "--output", "snaps/snap_00001.txt" },
      "--output snaps/snap_00001.txt is one of the numbered files (snap_NNNNN.txt) that "
      "--snapshot-dir snaps holds" },
    { { "run", RUN_FLAGS, "--t-end", "0.25", "--snapshot-dir", "in.txt", "--snapshot-every",
        "0.125" }, "run: --snapshot-dir in.txt: not a directory" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--output", "" },
      "run: --output: an empty file name" },
    { { "run", RUN_FLAGS, "--t-end", "0.125", "--energy-log", "" },
      "run: --energy-log: an empty file name" },
    { { MD_FLAGS, "--steps", "5", "--thermo", "t.csv", "--dump", "t.csv", "--dump-every",
        "1" }, "md: --thermo t.csv and --dump t.csv are one file" },
    { { MD_FLAGS, "--steps", "5", "--thermo", "t.csv", "--output", "./t.csv" },
      "md: --thermo t.csv and --output ./t.csv are one file" },
    { { MD_FLAGS, "--steps", "5", "--thermo", "t.csv", "--integrals", "t.csv" },
      "md: --thermo t.csv and --integrals t.csv are one file" },
    { { MD_FLAGS, "--steps", "5", "--timing", "t.csv", "--checkpoint", "t.csv" },
      "md: --timing t.csv and --checkpoint t.csv are one file" },
    { { "md", "--backend", "cpu", "--quiet", "--input", "in.txt", "--steps", "5",
        "--output", "in.txt" }, "md: --output in.txt would replace --input in.txt" },
    { { MD_FLAGS, "--steps", "5", "--output", "" }, "md: --output: an empty file name" },
    { { "forces", "--input", "in.txt", "--output", "in.txt", "--softening", "0.1",
        "--backend", "cpu" }, "forces: --output in.txt would replace --input in.txt" },
    { { "forces", "--input", "in.txt", "--output", "hard.txt", "--softening", "0.1",
        "--backend", "cpu" }, "forces: --output hard.txt would replace --input in.txt" },
    { { "forces", "--input", "link.txt", "--output", "./in.txt", "--softening", "0.1",
        "--backend", "cpu" }, "forces: --output ./in.txt would replace --input link.txt" },
    { { "forces", "--input", "in.txt", "--output", "", "--softening", "0.1", "--backend",
        "cpu" }, "forces: --output: an empty file name" },
    { { "precision", "--input", "in.txt", "--csv", "in.txt" },
      "precision: --csv in.txt would replace --input in.txt" },
    { { "report", "in.txt", "--plot", "hard.txt" },
      "report: --plot hard.txt would replace the report in.txt" },
};

/* Refused before any work, exit 2, the input and the links as they were,
 * nothing made. */
START_TEST(test_one_file_one_role)
{
    const struct collision *c = &collisions[_i];
    const char *in = "1 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n3 1 0 1 0 0 0 0\n";
    char path[1200], hard[1200], sub[1200];
    struct cli_run r;

    test_dir_path(path, sizeof path, "in.txt");
    write_file(path, in);
    test_dir_path(hard, sizeof hard, "hard.txt");
    ck_assert_int_eq(link(path, hard), 0);
    test_dir_path(path, sizeof path, "link.txt");
    ck_assert_int_eq(symlink("in.txt", path), 0);
    test_dir_path(path, sizeof path, "dangling");
    ck_assert_int_eq(symlink("new.txt", path), 0);
    test_dir_path(sub, sizeof sub, "sub");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    run_args(&r, c->args);
    assert_refused(&r, 2, c->message, NULL);
    ck_assert_str_eq(r.out, "");
    cli_run_free(&r);
    char *text = test_dir_read("in.txt");
    ck_assert_str_eq(text, in);
    free(text);
    assert_listing("dangling hard.txt in.txt link.txt sub ");
}
END_TEST

/* A restart may replace the checkpoint it reads (the usual way), but not
 * with another output. */
START_TEST(test_restart_checkpoint_roles)
{
    struct cli_run r;
    RUN_OK("run", RUN_FLAGS, "--t-end", "0.125", "--checkpoint", "c.ck");
    RUN_OK("run", "--restart", "c.ck", "--t-end", "0.25", "--checkpoint", "./c.ck",
           "--quiet");
    RUN(&r, "run", "--restart", "c.ck", "--t-end", "0.5", "--output", "c.ck", "--quiet");
    assert_refused(&r, 2, "run: --output c.ck would replace --restart c.ck", NULL);
    cli_run_free(&r);
}
END_TEST

/* ---- 4. a finished md restarted with the same --steps ------------------- */

START_TEST(test_md_nothing_to_do)
{
    struct cli_run r;
    RUN_OK(MD_FLAGS, "--steps", "10", "--thermo", "t.csv", "--checkpoint", "m.ck");
    size_t before, after;
    unsigned char *t0 = slurp("t.csv", &before);
    RUN(&r, "md", "--restart", "m.ck", "--steps", "10", "--quiet");
    assert_refused(&r, 2, "--steps 10: the run in m.ck already ended at step 10",
                   "nothing to do");
    ck_assert_str_eq(r.out, "");
    cli_run_free(&r);
    unsigned char *t1 = slurp("t.csv", &after);
    ck_assert(before == after && memcmp(t0, t1, before) == 0);
    free(t0);
    free(t1);
    /* A leg's rate counts its own steps. */
    RUN(&r, "md", "--restart", "m.ck", "--steps", "20");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "steps 10 to 20, from m.ck: 10 steps of"), "%s", r.out);
    cli_run_free(&r);
}
END_TEST

/* ---- 5. messages ---------------------------------------------------------- */

/* --snapshot-dir naming a file: refused before the run, no "(null)". */
START_TEST(test_snapshot_dir_is_file)
{
    struct cli_run r;
    char path[1200];
    test_dir_path(path, sizeof path, "afile");
    write_file(path, "x\n");
    RUN(&r, "run", RUN_FLAGS, "--t-end", "0.25", "--checkpoint", "c.ck", "--snapshot-dir",
        "afile", "--snapshot-every", "0.125");
    assert_refused(&r, 2, "--snapshot-dir afile: not a directory", NULL);
    cli_run_free(&r);
    assert_listing("afile ");
}
END_TEST

/* --output /dev/stdout into a pipe: written through, no temporary file. */
START_TEST(test_output_dev_stdout_pipe)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(fds[1], 1) < 0 || dup2(null, 2) < 0 || chdir(g_dir) != 0)
            _exit(126);
        close(fds[0]);
        execl(g_bin, g_bin, "run", "--backend", "cpu", "--n", "16", "--t-end", "0.125",
              "--quiet", "--output", "/dev/stdout", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[65536];
    size_t got = 0;
    ssize_t k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    close(fds[0]);
    buf[got] = '\0';
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    ck_assert_msg(strstr(buf, "# glnbody run t=0.125 n=16"), "%s", buf);
    assert_listing("");
}
END_TEST

START_TEST(test_dump_full_named)
{
    struct cli_run r;
    RUN(&r, MD_FLAGS, "--steps", "4", "--thermo", "t.csv", "--dump", "/dev/full",
        "--dump-every", "2");
    assert_refused(&r, 1, "/dev/full: LAMMPS dump: write error: No space left on device",
                   NULL);
    cli_run_free(&r);
}
END_TEST

/* --quiet silences a restart's notes (the renderer, edited in the
 * checkpoint, differs from this machine's). */
START_TEST(test_quiet_restart_notes)
{
    struct cli_run r;
    RUN_OK("run", RUN_FLAGS, "--t-end", "0.125", "--checkpoint", "c.ck");
    edit_checkpoint("c.ck", "renderer=c", "renderer=C");
    RUN(&r, "run", "--restart", "c.ck", "--t-end", "0.25", "--checkpoint", "d.ck");
    ck_assert_msg(r.status == 0 && strstr(r.err, "note: renderer"), "%s", r.err);
    cli_run_free(&r);
    RUN(&r, "run", "--restart", "c.ck", "--t-end", "0.25", "--checkpoint", "d.ck",
        "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "");
    cli_run_free(&r);
}
END_TEST

START_TEST(test_view_size_named)
{
    struct cli_run r;
    RUN(&r, "view", "--size", "0x0");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--size: '0x0' is not WIDTHxHEIGHT"), "%s", r.err);
    cli_run_free(&r);
}
END_TEST

/* ---- 6. temporaries and the CRC ------------------------------------------ */

/* 1 once process pid holds a file of g_dir open for writing. */
static int holds_file_here(pid_t pid)
{
    char fd_dir[64], link[512], target[4096];
    snprintf(fd_dir, sizeof fd_dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fd_dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        snprintf(link, sizeof link, "%s/%s", fd_dir, e->d_name);
        ssize_t len = readlink(link, target, sizeof target - 1);
        if (len > 0) {
            target[len] = '\0';
            found = strncmp(target, g_dir, strlen(g_dir)) == 0;
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* kill -9 while the log is open, before the run is under way: nothing
 * left behind (no "e.csv.tmp.XXXXXX"). */
START_TEST(test_kill_leaves_no_temporary)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 || chdir(g_dir) != 0)
            _exit(126);
        execl(g_bin, g_bin, "run", "--backend", "cpu", "--n", "6000", "--t-end", "1",
              "--energy-log", "e.csv", "--quiet", (char *)NULL);
        _exit(127);
    }
    for (int tries = 0; !holds_file_here(pid); tries++) {
        ck_assert_msg(tries < 200000, "the run never opened its log");
        nanosleep(&(struct timespec){ 0, 100000 }, NULL);
    }
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    struct dirent **names;
    int n = scandir(g_dir, &names, NULL, alphasort);
    ck_assert_int_ge(n, 0);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(strstr(names[i]->d_name, ".tmp.") == NULL, "left: %s",
                      names[i]->d_name);
        free(names[i]);
    }
    free(names);
}
END_TEST

/* A disk that fills in the middle of a row (here a file-size limit): the
 * published log keeps whole rows only, and the run names the file. */
START_TEST(test_full_log_keeps_whole_rows)
{
    char err_path[1200];
    snprintf(err_path, sizeof err_path, "%s/full.err", g_root);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit lim = { 20000, 20000 };
        int efd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_RDWR);
        signal(SIGXFSZ, SIG_IGN);       /* a write past the limit fails: EFBIG */
        if (efd < 0 || null < 0 || dup2(null, 1) < 0 || dup2(efd, 2) < 0 ||
            chdir(g_dir) != 0 || setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(126);
        execl(g_bin, g_bin, "run", "--backend", "cpu", "--n", "64", "--t-end", "0.5",
              "--log-every", "0.001", "--energy-log", "e.csv", "--quiet", (char *)NULL);
        _exit(127);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char *err = read_file(err_path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d: %s", status,
                  err);
    ck_assert_msg(strstr(err, "e.csv: write error: File too large"), "%s", err);
    free(err);
    char *log = test_dir_read("e.csv");
    size_t len = strlen(log);
    ck_assert(len > 1000 && len <= 20000);
    ck_assert_msg(log[len - 1] == '\n', "a partial row ends the log: ...%s",
                  log + len - 40);
    free(log);
    assert_listing("e.csv ");
}
END_TEST

/* Any change to the checkpoint's last four bytes is found. */
START_TEST(test_crc_covers_last_bytes)
{
    struct cli_run r;
    size_t size;
    RUN_OK("run", RUN_FLAGS, "--t-end", "0.125", "--checkpoint", "c.ck");
    unsigned char *d = slurp("c.ck", &size);
    d[size - 1 - _i] ^= 0x40;
    spill("bad.ck", d, size);
    free(d);
    RUN(&r, "run", "--restart", "bad.ck", "--t-end", "0.25", "--quiet");
    assert_refused(&r, 1, "bad.ck: not a usable checkpoint: CRC mismatch", NULL);
    cli_run_free(&r);
}
END_TEST

/* A checkpoint of format version 1 (the CRC before a zero word) is still
 * read, its zero word checked. */
START_TEST(test_version_1_read)
{
    struct cli_run r;
    size_t size;
    uint32_t one = 1, zero = 0;
    RUN_OK("run", RUN_FLAGS, "--t-end", "0.125", "--checkpoint", "c.ck");
    unsigned char *d = slurp("c.ck", &size);
    memcpy(d + 8, &one, 4);
    memcpy(d + size - 4, &zero, 4);
    reseal(d, size);
    spill("v1.ck", d, size);
    RUN_OK("run", "--restart", "v1.ck", "--t-end", "0.25", "--checkpoint", "v1b.ck",
           "--quiet");
    d[size - 2] = 7;       /* the zero word, not covered by version 1's CRC */
    spill("v1.ck", d, size);
    free(d);
    RUN(&r, "run", "--restart", "v1.ck", "--t-end", "0.25", "--checkpoint", "v1b.ck",
        "--quiet");
    assert_refused(&r, 1, "v1.ck: not a usable checkpoint: CRC mismatch", NULL);
    cli_run_free(&r);
}
END_TEST

static Suite *file_safety_suite(void)
{
    Suite *s = suite_create("file_safety");
    TCase *tc = tcase_create("restart");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_restart_keeps_foreign_file);
    tcase_add_test(tc, test_restart_refuses_shorter_log);
    tcase_add_test(tc, test_restart_refuses_missing_log);
    tcase_add_test(tc, test_restart_edited_checkpoint);
    tcase_add_test(tc, test_restart_continues_own_log);
    tcase_add_test(tc, test_md_restart_keeps_foreign_files);
    tcase_add_test(tc, test_log_replaced_during_run);
    tcase_add_test(tc, test_md_nothing_to_do);
    suite_add_tcase(s, tc);

    tc = tcase_create("roles");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_one_file_one_role, 0, COUNT(collisions));
    tcase_add_test(tc, test_restart_checkpoint_roles);
    suite_add_tcase(s, tc);

    tc = tcase_create("messages");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_snapshot_dir_is_file);
    tcase_add_test(tc, test_output_dev_stdout_pipe);
    tcase_add_test(tc, test_dump_full_named);
    tcase_add_test(tc, test_quiet_restart_notes);
    tcase_add_test(tc, test_view_size_named);
    suite_add_tcase(s, tc);

    tc = tcase_create("temporaries");
    tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_kill_leaves_no_temporary);
    tcase_add_test(tc, test_full_log_keeps_whole_rows);
    tcase_add_loop_test(tc, test_crc_covers_last_bytes, 0, 4);
    tcase_add_test(tc, test_version_1_read);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cli_harness_main("check_file_safety", file_safety_suite, 0);
}
