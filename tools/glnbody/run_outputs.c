/* run_outputs.c - glnbody run's outputs: the energy log, snapshots (numbered
 * and final) and the --output file, written at output times from states
 * predicted to them in double (nb_hermite_predict), so that no particle
 * steps for an output. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "frames.h"
#include "run_cli.h"

int nb_run_is_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

/* The row at t (the state predicted to t in o->x, o->v).  The first and
 * last rows are exact (double, nb_potential_energy): E0 is the reference,
 * and the last row is what the summary reports. */
enum nb_status nb_run_write_row(struct nb_hermite *h, struct outputs *o, double t,
                                struct nb_error *err)
{
    const struct run_config *c = o->c;
    struct nb_diag d = o->first;

    if (t != 0.0 && nb_hermite_diag(h, t, o->x, o->v, o->e0, t == c->t_end, &d,
                                    err) != NB_OK)
        return err->status;
    if (!isfinite(d.etot) || !isfinite(d.virial))
        return nb_error_set(err, NB_ERR_NUMERIC, "t = %.17g (block step %llu): the "
                            "energy is not finite (a position or velocity went "
                            "non-finite)", t, (unsigned long long)d.block_steps);
    if (t == c->t_end) {        /* a longer run has no such row: a checkpoint
                                   at the end continues from before it */
        if (nb_run_resume_mark(o, err) != NB_OK)
            return err->status;
        o->last = d;
        o->have_last = 1;
    }
    if (!o->log.fp)             /* a rank other than 0: the row's sums only */
        return NB_OK;
    nb_diag_csv_row(o->log.fp, &d);
    return nb_outfile_flush(&o->log, 0, err);  /* whole rows on disk as they go */
}

/* The predicted state of h at t as a particle set (borrowed arrays). */
static struct nb_particles predicted_set(const struct nb_hermite *h,
                                         const struct outputs *o)
{
    struct nb_particles view = *nb_hermite_particles(h);

    view.type = NULL;
    view.x = o->x;
    view.v = o->v;
    return view;
}

static void snapshot_comment(char *comment, size_t size, double t, size_t n)
{
    snprintf(comment, size, "glnbody run t=%.17g n=%zu columns: id m x y z vx "
             "vy vz", t, n);
}

static enum nb_status write_snapshot(struct nb_hermite *h, struct outputs *o,
                                     const char *path, double t,
                                     struct nb_error *err)
{
    struct nb_particles view = predicted_set(h, o);
    char comment[128];

    snapshot_comment(comment, sizeof comment, t, view.n);
    return nb_snapshot_write(path, &view, comment, err);
}

/* The state at t_end into --output, committed with the log by finish. */
enum nb_status nb_run_print_final(struct nb_hermite *h, struct outputs *o,
                                  struct nb_error *err)
{
    struct nb_particles view = predicted_set(h, o);
    char comment[128];

    snapshot_comment(comment, sizeof comment, o->c->t_end, view.n);
    return nb_snapshot_print(o->final.fp, o->c->output, &view, comment, err);
}

static enum nb_status write_numbered_snapshot(struct nb_hermite *h, struct outputs *o,
                                              double t, struct nb_error *err)
{
    size_t len = strlen(o->c->snapshot_dir) + 32;
    char *path = nb_cli_alloc(len, 1, "a snapshot name", err);
    enum nb_status st;

    if (!path)
        return NB_ERR_NOMEM;
    snprintf(path, len, "%s/snap_%05llu.txt", o->c->snapshot_dir,
             (unsigned long long)o->snap_k);
    st = write_snapshot(h, o, path, t, err);
    free(path);
    return st;
}

/* Writes every log row and snapshot due before `before` (and not after
 * t_end), each from the state predicted to its own time.  Under mpirun
 * every rank evaluates the rows (their potentials are shared over the
 * ranks); rank 0 alone has the log to write them to. */
enum nb_status nb_run_write_due(struct nb_hermite *h, struct outputs *o,
                                double before, struct nb_error *err)
{
    const struct run_config *c = o->c;
    double t0 = nb_clock_seconds();
    enum nb_status st = NB_OK;

    while (st == NB_OK && c->log_every > 0) {
        double t = (double)o->log_k * c->log_every;
        if (!(t < before && t <= c->t_end))
            break;
        if (nb_run_is_stdout(c->energy_log))
            nb_progress_clear(&o->bar);     /* the row goes to the terminal too */
        if ((st = nb_hermite_predict(h, t, o->x, o->v, err)) == NB_OK &&
            (st = nb_run_write_row(h, o, t, err)) == NB_OK)
            o->log_k++;
    }
    while (st == NB_OK && c->snapshot_dir) {
        double t = (double)o->snap_k * c->snapshot_every;
        if (!(t < before && t <= c->t_end))
            break;
        if ((st = nb_hermite_predict(h, t, o->x, o->v, err)) == NB_OK &&
            (st = write_numbered_snapshot(h, o, t, err)) == NB_OK)
            o->snap_k++;
    }
    o->seconds += nb_clock_seconds() - t0;
    return st;
}

/* The snapshot directory, made if missing (one level). */
static enum nb_status make_dir(const char *dir, struct nb_error *err)
{
    struct stat st;

    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 &&
                                  S_ISDIR(st.st_mode)))
        return NB_OK;
    return nb_error_set(err, NB_ERR_IO, "--snapshot-dir %s: cannot make the "
                        "directory: %s", dir, errno == EEXIST ? "a file of that "
                        "name exists" : strerror(errno));
}

enum nb_status nb_run_outputs_open(struct outputs *o, const struct run_config *c,
                                   size_t n, struct nb_error *err)
{
    memset(o, 0, sizeof *o);
    o->c = c;
    o->saved_t = -1.0;
    if (!(o->x = nb_cli_alloc(n, 3 * sizeof *o->x, "output positions", err)) ||
        !(o->v = nb_cli_alloc(n, 3 * sizeof *o->v, "output velocities", err)))
        return NB_ERR_NOMEM;
    if (c->snapshot_dir && make_dir(c->snapshot_dir, err) != NB_OK)
        return err->status;
    if (c->energy_log) {
        /* A restart continues the log the checkpoint knew (at the same
         * path), cut to its length then; a new log starts with its header. */
        int kept = 0;
        const struct nb_outfile_mark *keep = nb_run_log_to_continue(c);
        if (nb_outfile_open_resume(&o->log, c->energy_log, keep, &kept, err) != NB_OK) {
            if (keep)
                nb_run_explain_log(c, err);
            return err->status;
        }
        if (!kept)
            nb_diag_csv_header(o->log.fp);
        else
            o->log_k = c->restart->resume.log_k;
    }
    /* Checked now, so that a directory or an unwritable place is found
     * before the run; made at the end, so that a killed run leaves none. */
    if (c->output && nb_outfile_check(c->output, err) != NB_OK)
        return err->status;
    return NB_OK;
}

void nb_run_outputs_close(struct outputs *o)
{
    nb_outfile_abort(&o->log);      /* a no-op after a commit */
    nb_outfile_abort(&o->final);
    free(o->x);
    free(o->v);
}
