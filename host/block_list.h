/* block_list.h - the particles kept in order of their steps' levels, so
 * that a block step's block (every particle whose level is at most the
 * level dividing t1: nb_hermite.h) is a prefix of that order and is found
 * in time proportional to its size, not to n (the scan of all n levels
 * took 29 us a block at N = 65536 on the H200's host). */
#ifndef NB_BLOCK_LIST_H
#define NB_BLOCK_LIST_H

#include "nb_host.h"
#include "nb_hermite.h"

struct nb_block_list {
    size_t n;
    uint32_t *order;                /* the particles, levels ascending */
    uint32_t *where;                /* order[where[i]] == i */
    uint8_t *level;                 /* each particle's level in `order` */
    size_t end[NB_STEP_LEVELS];     /* levels 0..l: order[0, end[l]) */
    uint64_t *bits;                 /* n bits, all 0 between calls */
    int built;                      /* 0: rebuild from the levels */
};

enum nb_status nb_block_list_alloc(struct nb_block_list *bl, size_t n,
                                   struct nb_error *err);
void nb_block_list_free(struct nb_block_list *bl);
/* The order rebuilt from every particle's level at the next update. */
void nb_block_list_invalidate(struct nb_block_list *bl);
/* Follows level[] where it changed: count particles `changed` (the last
 * block), or all n where the list was invalidated. */
void nb_block_list_update(struct nb_block_list *bl, const uint8_t *level,
                          const uint32_t *changed, size_t count);
/* Every particle of level <= due into block, ascending; returns how many.
 * *waiting: the set of the others' levels (for nb_step_next_ends). */
size_t nb_block_list_collect(struct nb_block_list *bl, int due, uint32_t *block,
                             uint64_t *waiting);

#endif
