/* count-map.c - dense or hashed path counts (see count-map.h). */
#include "count-map.h"

#include <stdlib.h>
#include <string.h>

int pp_counts_init(struct pp_counts *c, uint64_t n)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    if (n <= PP_DENSE_MAX) {
        /* calloc of a large array maps zero pages: only the pages of paths
         * actually taken cost memory. */
        c->dense = calloc(n ? n : 1, sizeof *c->dense);
        return c->dense ? 0 : -1;
    }
    c->mask = 1023;
    c->shift = 64 - 10;
    c->slots = calloc(c->mask + 1, sizeof *c->slots);
    return c->slots ? 0 : -1;
}

void pp_counts_free(struct pp_counts *c)
{
    free(c->dense);
    free(c->slots);
    memset(c, 0, sizeof *c);
}

void pp_counts_clear(struct pp_counts *c)
{
    if (c->dense) {
        /* A fresh calloc where memory allows: the pages of paths never
         * taken again stay unmapped. */
        uint64_t *fresh = calloc(c->n ? c->n : 1, sizeof *fresh);
        if (fresh == NULL) {
            memset(c->dense, 0, (c->n ? c->n : 1) * sizeof *c->dense);
            return;
        }
        free(c->dense);
        c->dense = fresh;
        return;
    }
    memset(c->slots, 0, (c->mask + 1) * sizeof *c->slots);
    c->used = 0;
    c->last_key = 0;
}

static struct pp_count_slot *find(struct pp_count_slot *slots, uint64_t mask,
                                  unsigned shift, uint64_t key)
{
    for (uint64_t i = pp_counts_home(key, shift);; i = (i + 1) & mask)
        if (slots[i].key == key || slots[i].key == 0)
            return &slots[i];
}

static int grow(struct pp_counts *c)
{
    uint64_t mask = 2 * c->mask + 1;
    struct pp_count_slot *slots = calloc(mask + 1, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (uint64_t i = 0; i <= c->mask; i++)
        if (c->slots[i].key)
            *find(slots, mask, c->shift - 1, c->slots[i].key) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->mask = mask;
    c->shift--;
    c->last_key = 0; /* its slot moved */
    return 0;
}

int pp_counts_hash_add(struct pp_counts *c, uint64_t local, uint64_t k)
{
    struct pp_count_slot *s = find(c->slots, c->mask, c->shift, local + 1);
    if (s->key == 0) {
        if (2 * (c->used + 1) > c->mask + 1) {
            if (grow(c) != 0)
                return -1;
            s = find(c->slots, c->mask, c->shift, local + 1);
        }
        s->key = local + 1;
        c->used++;
    }
    s->count += k;
    c->last_key = s->key;
    c->last = s;
    return 0;
}

int pp_counts_merge(struct pp_counts *into, const struct pp_counts *from)
{
    int rc = 0;
    if (from->dense) {
        for (uint64_t i = 0; i < from->n; i++)
            if (from->dense[i])
                rc |= pp_counts_add(into, i, from->dense[i]);
    } else {
        for (uint64_t i = 0; i <= from->mask; i++)
            if (from->slots[i].key)
                rc |= pp_counts_add(into, from->slots[i].key - 1, from->slots[i].count);
    }
    return rc;
}

static int push(struct pp_count_pair **v, size_t *len, size_t *cap, uint64_t local,
                uint64_t count)
{
    if (*len == *cap) {
        size_t ncap = *cap ? 2 * *cap : 256;
        struct pp_count_pair *nv = realloc(*v, ncap * sizeof *nv);
        if (nv == NULL)
            return -1;
        *v = nv;
        *cap = ncap;
    }
    (*v)[(*len)++] = (struct pp_count_pair){local, count};
    return 0;
}

int pp_counts_collect(const struct pp_counts *c, struct pp_count_pair **v,
                      size_t *len, size_t *cap)
{
    if (c->dense) {
        for (uint64_t i = 0; i < c->n; i++)
            if (c->dense[i] && push(v, len, cap, i, c->dense[i]) != 0)
                return -1;
    } else {
        for (uint64_t i = 0; i <= c->mask; i++)
            if (c->slots[i].key &&
                push(v, len, cap, c->slots[i].key - 1, c->slots[i].count) != 0)
                return -1;
    }
    return 0;
}
