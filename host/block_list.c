/* block_list.c - the particles in order of their steps' levels: level
 * l's particles are order[end[l - 1], end[l]), and a particle whose level
 * changes crosses the boundaries between, one swap each. */
#include "block_list.h"

#include <stdlib.h>
#include <string.h>

/* Blocks this small are sorted by insertion, larger ones through the bit
 * set (n/64 words scanned). */
#define SORT_BY_INSERTION_MAX 32

enum nb_status nb_block_list_alloc(struct nb_block_list *bl, size_t n,
                                   struct nb_error *err)
{
    size_t words = n / 64 + 1;

    memset(bl, 0, sizeof *bl);
    bl->n = n;
    if (!(bl->order = nb_alloc(n ? n : 1, sizeof *bl->order, "the block list", err)) ||
        !(bl->where = nb_alloc(n ? n : 1, sizeof *bl->where, "the block list", err)) ||
        !(bl->level = nb_alloc(n ? n : 1, sizeof *bl->level, "the block list", err)) ||
        !(bl->bits = nb_alloc(words, sizeof *bl->bits, "the block list", err))) {
        nb_block_list_free(bl);
        return err->status;
    }
    memset(bl->bits, 0, words * sizeof *bl->bits);
    return NB_OK;
}

void nb_block_list_free(struct nb_block_list *bl)
{
    free(bl->order), free(bl->where), free(bl->level), free(bl->bits);
    memset(bl, 0, sizeof *bl);
}

void nb_block_list_invalidate(struct nb_block_list *bl)
{
    bl->built = 0;
}

/* A counting sort of the particles by level. */
static void rebuild(struct nb_block_list *bl, const uint8_t *level)
{
    size_t at[NB_STEP_LEVELS] = {0}, total = 0;

    for (size_t i = 0; i < bl->n; i++)
        at[level[i]]++;
    for (int l = 0; l < NB_STEP_LEVELS; l++) {
        size_t count = at[l];

        at[l] = total;
        total += count;
        bl->end[l] = total;
    }
    for (size_t i = 0; i < bl->n; i++) {
        bl->where[i] = (uint32_t)at[level[i]]++;
        bl->order[bl->where[i]] = (uint32_t)i;
        bl->level[i] = level[i];
    }
    bl->built = 1;
}

static void swap_places(struct nb_block_list *bl, size_t p, size_t q)
{
    uint32_t i = bl->order[p], j = bl->order[q];

    bl->order[p] = j, bl->where[j] = (uint32_t)p;
    bl->order[q] = i, bl->where[i] = (uint32_t)q;
}

/* Particle i from its level to `to`: up, it swaps with the last of its
 * level and the boundary moves down past it; down, with the first. */
static void move(struct nb_block_list *bl, uint32_t i, int to)
{
    int l = bl->level[i];

    for (; l < to; l++) {
        swap_places(bl, bl->where[i], bl->end[l] - 1);
        bl->end[l]--;
    }
    for (; l > to; l--) {
        swap_places(bl, bl->where[i], bl->end[l - 1]);
        bl->end[l - 1]++;
    }
    bl->level[i] = (uint8_t)to;
}

void nb_block_list_update(struct nb_block_list *bl, const uint8_t *level,
                          const uint32_t *changed, size_t count)
{
    if (!bl->built) {
        rebuild(bl, level);
        return;
    }
    for (size_t k = 0; k < count; k++)
        if (level[changed[k]] != bl->level[changed[k]])
            move(bl, changed[k], level[changed[k]]);
}

static void sort_by_insertion(uint32_t *a, size_t count)
{
    for (size_t k = 1; k < count; k++) {
        uint32_t x = a[k];
        size_t j = k;

        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* The prefix order[0, count) ascending into block: each member's bit set,
 * then the words read in order (and cleared). */
static void sort_by_bits(struct nb_block_list *bl, size_t count, uint32_t *block)
{
    size_t at = 0;

    for (size_t k = 0; k < count; k++)
        bl->bits[bl->order[k] / 64] |= (uint64_t)1 << (bl->order[k] % 64);
    for (size_t w = 0; at < count; w++) {
        uint64_t word = bl->bits[w];

        bl->bits[w] = 0;
        for (; word; word &= word - 1)
            block[at++] = (uint32_t)(64 * w + (size_t)__builtin_ctzll(word));
    }
}

size_t nb_block_list_collect(struct nb_block_list *bl, int due, uint32_t *block,
                             uint64_t *waiting)
{
    size_t count;

    due = due < NB_STEP_LEVELS - 1 ? due : NB_STEP_LEVELS - 1;
    count = bl->end[due];
    *waiting = 0;
    for (int l = due + 1; l < NB_STEP_LEVELS; l++)
        if (bl->end[l] > bl->end[l - 1])
            *waiting |= (uint64_t)1 << l;
    if (count == bl->n) {
        for (size_t i = 0; i < count; i++)
            block[i] = (uint32_t)i;
    } else if (count <= SORT_BY_INSERTION_MAX) {
        memcpy(block, bl->order, count * sizeof *block);
        sort_by_insertion(block, count);
    } else {
        sort_by_bits(bl, count, block);
    }
    return count;
}
