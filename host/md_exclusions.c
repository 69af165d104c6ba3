/* md_exclusions.c - the exclusion list of an MD run (--exclude): one
 * bonded pair a line, `ID_I ID_J` (the particles' ids), '#' comments
 * anywhere, read into pairs of particle indices.
 */
#include "nb_host.h"

#include <stdlib.h>

/* The particle index of each id: (id, index) sorted by id. */
struct id_index { int64_t id; uint32_t index; };

static int by_id(const void *a, const void *b)
{
    int64_t x = ((const struct id_index *)a)->id;
    int64_t y = ((const struct id_index *)b)->id;

    return (x > y) - (x < y);
}

/* The map of p's ids, for bsearch. */
static struct id_index *id_map(const struct nb_particles *p,
                               struct nb_error *err)
{
    struct id_index *map = nb_alloc(p->n, sizeof *map, "particle ids", err);

    if (!map)
        return NULL;
    for (size_t i = 0; i < p->n; i++)
        map[i] = (struct id_index){p->id[i], (uint32_t)i};
    qsort(map, p->n, sizeof *map, by_id);
    return map;
}

/* Field f of the current line: the id of a particle, as its index. */
static enum nb_status particle_of(const struct nb_text *t, int f,
                                  const struct id_index *map, size_t n,
                                  uint32_t *index, struct nb_error *err)
{
    struct id_index key = {0, 0}, *hit;
    long long id;

    if (nb_text_int(t, f, "particle id", INT64_MIN, INT64_MAX, &id,
                    err) != NB_OK)
        return err->status;
    key.id = (int64_t)id;
    hit = bsearch(&key, map, n, sizeof *map, by_id);
    if (!hit)
        return nb_text_error(t, f, err, "no particle has id %s", t->field[f]);
    *index = hit->index;
    return NB_OK;
}

/* The pairs read so far and the line each came from. */
struct pair_list {
    uint32_t *pairs;
    size_t *lines;
    size_t count, cap;
};

/* Room for one more pair in the list. */
static enum nb_status reserve_pair(struct pair_list *l, struct nb_error *err)
{
    size_t grown_cap = l->cap ? 2 * l->cap : 64;
    uint32_t *grown;
    size_t *grown_lines;

    if (l->count < l->cap)
        return NB_OK;
    grown = realloc(l->pairs, grown_cap * 2 * sizeof *grown);
    if (grown)
        l->pairs = grown;
    grown_lines = grown ? realloc(l->lines, grown_cap * sizeof *grown_lines)
                        : NULL;
    if (!grown_lines)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory for %zu "
                            "excluded pairs", grown_cap);
    l->lines = grown_lines;
    l->cap = grown_cap;
    return NB_OK;
}

/* A pair in either order, and its line, for finding repeats. */
struct sorted_pair { uint32_t lo, hi; size_t line; };

static int by_pair_then_line(const void *a, const void *b)
{
    const struct sorted_pair *x = a, *y = b;

    if (x->lo != y->lo)
        return (x->lo > y->lo) - (x->lo < y->lo);
    if (x->hi != y->hi)
        return (x->hi > y->hi) - (x->hi < y->hi);
    return (x->line > y->line) - (x->line < y->line);
}

/* A pair given twice (1 2 and 1 2, or 1 2 and 2 1) would be subtracted
 * twice; refuse it, naming both lines. */
static enum nb_status refuse_repeats(const char *path, const struct pair_list *l,
                                     const struct nb_particles *p,
                                     struct nb_error *err)
{
    struct sorted_pair *s = nb_alloc(l->count, sizeof *s, "excluded pairs", err);
    enum nb_status st = NB_OK;

    if (!s)
        return NB_ERR_NOMEM;
    for (size_t k = 0; k < l->count; k++) {
        uint32_t i = l->pairs[2 * k], j = l->pairs[2 * k + 1];
        s[k] = (struct sorted_pair){i < j ? i : j, i < j ? j : i, l->lines[k]};
    }
    qsort(s, l->count, sizeof *s, by_pair_then_line);
    for (size_t k = 1; k < l->count && st == NB_OK; k++)
        if (s[k].lo == s[k - 1].lo && s[k].hi == s[k - 1].hi)
            st = nb_error_set(err, NB_ERR_PARSE, "%s:%zu: the pair of "
                              "particles %lld and %lld is excluded again "
                              "(first on line %zu); give each pair once",
                              path, s[k].line, (long long)p->id[s[k].lo],
                              (long long)p->id[s[k].hi], s[k - 1].line);
    free(s);
    return st;
}

/* One line: a pair of distinct particles. */
static enum nb_status read_pair(const struct nb_text *t,
                                const struct id_index *map, size_t n,
                                uint32_t *pair, struct nb_error *err)
{
    if (nb_text_expect_fields(t, 2, 2, "two particle ids", err) != NB_OK ||
        particle_of(t, 0, map, n, &pair[0], err) != NB_OK ||
        particle_of(t, 1, map, n, &pair[1], err) != NB_OK)
        return err->status;
    if (pair[0] == pair[1])
        return nb_text_error(t, 1, err, "a particle cannot be excluded from "
                             "itself");
    return NB_OK;
}

static enum nb_status read_pairs(struct nb_text *t, const struct id_index *map,
                                 size_t n, struct pair_list *l,
                                 struct nb_error *err)
{
    enum nb_status st;

    while ((st = nb_text_next_data(t, err)) == NB_OK && !t->at_end) {
        if ((st = reserve_pair(l, err)) != NB_OK ||
            (st = read_pair(t, map, n, l->pairs + 2 * l->count, err)) != NB_OK)
            break;
        l->lines[l->count++] = t->lineno;
    }
    return st;
}

enum nb_status nb_md_exclusions_read(const char *path,
                                     const struct nb_particles *p,
                                     uint32_t **pairs, size_t *count,
                                     struct nb_error *err)
{
    struct nb_text t;
    struct id_index *map;
    struct pair_list l = {NULL, NULL, 0, 0};
    enum nb_status st;

    *pairs = NULL;
    *count = 0;
    if ((map = id_map(p, err)) == NULL)
        return NB_ERR_NOMEM;
    st = nb_text_open(&t, path, NB_TEXT_COMMENT_ANYWHERE, err);
    if (st == NB_OK)
        st = read_pairs(&t, map, p->n, &l, err);
    nb_text_close(&t);
    free(map);
    if (st == NB_OK)
        st = refuse_repeats(path, &l, p, err);
    free(l.lines);
    if (st != NB_OK) {
        free(l.pairs);
        return st;
    }
    *pairs = l.pairs;
    *count = l.count;
    return st;
}
