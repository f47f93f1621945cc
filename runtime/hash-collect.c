/* hash-collect.c - reading hash-mode counts out of the tables for the
 * profile, and merging the roots of a dlclose'd TU's snapshot. */
#include "hash-table.h"
#include "path-count-sort.h"

#include <stdlib.h>

static void push(struct pprt_path_counts *c, uint64_t id, uint64_t count)
{
    if (c->failed)
        return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        struct pprt_path_count *v = realloc(c->v, cap * sizeof *v);
        if (v == NULL) {
            c->failed = 1;
            return;
        }
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n].path_id = id;
    c->v[c->n].count = count;
    c->n++;
}

void pprt_hash_collect(uint64_t slot_value, struct pprt_path_counts *out,
                       uint64_t *lost)
{
    out->n = 0;
    for (struct pprt_hash_root *r = pprt_hash_root_of(slot_value); r;
         r = r->next_instance) {
        uint64_t wrap = __atomic_load_n(&r->wrap_count, __ATOMIC_RELAXED);
        if (wrap)
            push(out, UINT64_MAX, wrap);
        *lost += __atomic_load_n(&r->lost, __ATOMIC_RELAXED);
        /* Other threads may still count while we read (exit() called from
         * one thread): every field is read atomically and tables are never
         * freed, so we see a consistent, possibly slightly old, count. */
        for (struct pprt_hash_table *t = __atomic_load_n(&r->current, __ATOMIC_ACQUIRE);
             t; t = t->older) {
            for (uint64_t i = 0; i <= t->mask; i++) {
                uint64_t key = __atomic_load_n(&t->entries[i].key, __ATOMIC_RELAXED);
                uint64_t count = __atomic_load_n(&t->entries[i].count, __ATOMIC_RELAXED);
                if (key != 0 && count != 0)
                    push(out, key - 1, count); /* pprt_hash_key */
            }
        }
    }
    if (out->n == 0)
        return;
    /* An ID counted in several generations or instances: sum its records. */
    pprt_sort_path_counts(out->v, out->n);
    size_t w = 0;
    for (size_t i = 1; i < out->n; i++) {
        if (out->v[i].path_id == out->v[w].path_id)
            out->v[w].count += out->v[i].count;
        else
            out->v[++w] = out->v[i];
    }
    out->n = w + 1;
}

void pprt_path_counts_free(struct pprt_path_counts *c)
{
    free(c->v);
    c->v = NULL;
    c->n = c->cap = 0;
}

void pprt_hash_merge_slot(uint64_t *dest, uint64_t src_value)
{
    struct pprt_hash_root *src = pprt_hash_root_of(src_value);
    struct pprt_hash_root *r = pprt_hash_root_of(*dest);
    if (src == NULL || src == r)
        return;
    if (r == NULL) {
        *dest = src_value;
        return;
    }
    /* Insert SRC's chain right after R: O(1) however many times a library
     * was loaded, and the order of the chain does not matter (it is summed). */
    struct pprt_hash_root *tail = src;
    while (tail->next_instance)
        tail = tail->next_instance;
    tail->next_instance = r->next_instance;
    r->next_instance = src;
}

void pprt_hash_zero_slot(uint64_t slot_value)
{
    for (struct pprt_hash_root *r = pprt_hash_root_of(slot_value); r; r = r->next_instance) {
        r->wrap_count = 0;
        r->lost = 0;
        for (struct pprt_hash_table *t = r->current; t; t = t->older)
            for (uint64_t i = 0; i <= t->mask; i++)
                t->entries[i].count = 0;
    }
}
