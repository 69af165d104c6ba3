/* gl_dispatch.c - long force evaluations cut into several dispatches.
 *
 * Long GPU work sent in one piece can be stopped by the driver.  Seen on
 * NVIDIA 580 (H100, H200): a fragment draw of seconds came back as
 * garbage; two ranks sharing one H100 read back zeros from
 * 12 s precision-G dispatches; at N = 4M, 2 ranks on 2 H100s lost their
 * contexts (GL_CONTEXT_LOST) ~21 s into an evaluation queued as 0.1-0.3 s
 * dispatches, and ran on once the host waited for each dispatch before
 * sending the next.  So an evaluation is cut along its i-particles into
 * dispatches of at most NB_DISPATCH_PAIRS pair terms, each waited for.
 * Every i still sums its j in the same order: the cut changes no bit of
 * any result.  No dispatch gets fewer than NB_DISPATCH_MIN_ITEMS
 * i-particles: the precision GA kernel has no j-slices, and 128 work
 * groups leave most of an H100's 132 multiprocessors idle; the GAJ
 * kernels size their j-slices for one dispatch. */
#include <stdlib.h>

#include "gl_internal.h"

/* 2^35 pair terms: 0.02 s at the float kernels' 1.8e12 interactions/s on
 * an H200, 0.08 s in precision G (4.2e11 on an H100); at N = 4M the floor
 * of 65536 i-particles makes it 0.66 s in G. */
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
