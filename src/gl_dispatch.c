/* gl_dispatch.c - long force evaluations cut into several dispatches.
 *
 * Long GPU work sent in one piece can be stopped by the driver.  Seen with
 * NVIDIA's driver 580: a fragment draw of seconds came back as garbage;
 * two ranks sharing one GPU read back zeros from precision-G dispatches
 * of seconds; at N = 4M, two ranks on two GPUs lost their contexts
 * (GL_CONTEXT_LOST) well into an evaluation queued as short dispatches,
 * and ran on once the host waited for each dispatch before
 * sending the next.  So an evaluation is cut along its i-particles into
 * dispatches of at most NB_DISPATCH_PAIRS pair terms, each waited for.
 * Every i still sums its j in the same order: the cut changes no bit of
 * any result.  No dispatch gets fewer than NB_DISPATCH_MIN_ITEMS
 * i-particles: the precision GA kernel has no j-slices, and 128 work
 * groups leave most of a large GPU's multiprocessors idle; the GAJ
 * kernels size their j-slices for one dispatch. */
#include <stdlib.h>

#include "gl_internal.h"

/* 2^35 pair terms: a small fraction of a second at a large GPU's float
 * rate, a few times that in precision G; at N = 4M the floor of 65536
 * i-particles makes a G dispatch longer, still far below a watchdog. */
#define NB_DISPATCH_PAIRS 34359738368.0
#define NB_DISPATCH_MIN_ITEMS 65536

size_t nb_gl_dispatch_items(size_t pairs_per_item, int tile)
{
    /* GLNBODY_DISPATCH_PAIRS=P (a driver with a shorter watchdog, or a
     * test) sets the budget, with dispatches down to one tile. */
    double pairs = (double)nb_gl_env_long("GLNBODY_DISPATCH_PAIRS", 0);
    double floor = NB_DISPATCH_MIN_ITEMS;
    if (pairs >= 1.0)
        floor = tile;
    else
        pairs = NB_DISPATCH_PAIRS;
    double fit = pairs / (double)(pairs_per_item ? pairs_per_item : 1);
    size_t items = fit < floor ? (size_t)floor : fit > 1e9 ? (size_t)1e9 : (size_t)fit;
    return (items + (size_t)tile - 1) / (size_t)tile * (size_t)tile;
}
