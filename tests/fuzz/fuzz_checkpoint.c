/* fuzz_checkpoint.c - the checkpoint reader on any bytes: nb_ckpt_read as
 * either command's checkpoint, then what a restart reads from it (the
 * Hermite state into a sim on the CPU backend, the MD system), which
 * either succeeds with a consistent state or refuses naming the file. */
#include "fuzz_input.h"

/* The Hermite state: a sim that restores is one that can step. */
static void check_run(const struct nb_ckpt *c, const char *path)
{
    struct nb_sim_params par;
    struct nb_error err = { 0 };
    struct nb_force_backend b = { 0 };
    struct nb_sim s = { 0 };

    if (nb_sim_checkpoint_params(c, path, &par, &err) != NB_OK) {
        fuzz_check_status(err.status, &err, path);
        return;
    }
    par.predict = NB_PREDICT_HOST;      /* the CPU keeps no device state */
    if (nb_backend_cpu_create(&b, &err) != NB_OK)
        abort();
    enum nb_status st = nb_sim_restore(&s, c, path, &par, &b, &err);
    if (st != NB_OK)
        fuzz_check_status(st, &err, path);
    else if (!(s.t_next > s.t) || s.p.n != c->n)
        abort();
    nb_sim_free(&s);
    b.destroy(b.state);
}

static void check_md(const struct nb_ckpt *c, const char *path)
{
    struct nb_md_saved m;
    struct nb_error err = { 0 };
    enum nb_status st = nb_md_saved_read(c, path, &m, &err);

    if (st != NB_OK) {
        fuzz_check_status(st, &err, path);
    } else {
        if (m.p.n != c->n || !(m.dt > 0.0))
            abort();
        fuzz_check_particles(&m.p);
    }
    nb_md_saved_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    struct nb_ckpt c;
    struct nb_error err = { 0 };
    enum nb_status st;

    if ((st = nb_ckpt_read(&c, path, NB_CKPT_RUN, &err)) == NB_OK)
        check_run(&c, path);
    else
        fuzz_check_status(st, &err, path);
    nb_ckpt_free(&c);
    if ((st = nb_ckpt_read(&c, path, NB_CKPT_MD, &err)) == NB_OK)
        check_md(&c, path);
    else
        fuzz_check_status(st, &err, path);
    nb_ckpt_free(&c);
    return 0;
}
