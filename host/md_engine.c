/* md_engine.c - what every MD engine answers through its vtable. */
#include "nb_host.h"

enum nb_status nb_md_engine_set_precision(struct nb_md_engine *e, enum nb_precision mode,
                                          struct nb_error *err)
{
    if (e->set_precision)
        return e->set_precision(e->state, mode, err);
    if (mode == NB_PRECISION_A)
        return NB_OK;
    return nb_error_set(err, NB_ERR_ARGS, "precision: the %s MD engine has no accumulation "
                        "modes (only --backend compute has them)", e->name);
}

/* Engines set up on a system nb_md_sim_prepare checked trust it: one check
 * a run, and still one for whoever calls an engine directly. */
enum nb_status nb_md_system_require(const struct nb_md_system *sys,
                                    struct nb_error *err)
{
    return sys->checked ? NB_OK : nb_md_system_check(sys, err);
}
