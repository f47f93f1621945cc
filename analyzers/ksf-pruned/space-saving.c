/* space-saving.c - weighted Space-Saving with merging (space-saving.h). */
#include "space-saving.h"

#include <stdlib.h>
#include <string.h>

#define SS_MIN_CAP 16u

/* The hash table: a power of two, at least twice the items (load <= 1/2). */
static uint32_t slots_for(uint32_t cap)
{
    uint32_t s = 2;
    while (s < 2 * (uint64_t)cap)
        s *= 2;
    return s;
}

size_t ss_bytes(uint32_t n, uint32_t cap)
{
    return (size_t)cap * (sizeof(struct ss_entry) + (size_t)n * sizeof(uint64_t) +
                          sizeof(struct ss_heap)) +
           (size_t)slots_for(cap) * sizeof(uint64_t);
}

static uint32_t hash_labels(const uint64_t *l, uint32_t n)
{
    uint64_t h = SS_HASH_SEED;
    for (uint32_t i = 0; i < n; i++)
        h = ss_hash_step(h, l[i]);
    return ss_hash_final(h);
}

/* A slot: entry index + 1 in the low half (0: empty), the entry's hash in
 * the high half, so that a probe compares hashes in the table itself and
 * reads an entry's labels only when the hashes agree: a probe past other
 * items touches no entry (on bzip2's stream at k = 8 most probes missed
 * through e[].hash, a cache miss each). */
static uint64_t slot_make(uint32_t i, uint32_t h) { return (uint64_t)h << 32 | (i + 1); }
static uint32_t slot_hash(uint64_t v) { return (uint32_t)(v >> 32); }

/* The entry holding LABELS (hash H), or UINT32_MAX; *AT: its slot, or the
 * empty slot where it would go. */
static uint32_t find(const struct ss_summary *s, const uint64_t *labels, uint32_t h,
                     uint32_t *at)
{
    uint32_t mask = s->nslots - 1, j = h & mask;
    for (;; j = (j + 1) & mask) {
        uint64_t v = s->slot[j];
        if (v == 0)
            break;
        uint32_t i = (uint32_t)v - 1;
        if (slot_hash(v) == h &&
            memcmp(ss_labels(s, i), labels, (size_t)s->n * sizeof *labels) == 0) {
            *at = j;
            return i;
        }
    }
    *at = j;
    return UINT32_MAX;
}

/* The slot of entry I (which is in the table). */
static uint32_t slot_of(const struct ss_summary *s, uint32_t i)
{
    uint32_t mask = s->nslots - 1, j = s->e[i].hash & mask;
    while ((uint32_t)s->slot[j] != i + 1)
        j = (j + 1) & mask;
    return j;
}

uint32_t ss_lookup(const struct ss_summary *s, const uint64_t *labels)
{
    uint32_t at;
    return s->nslots ? find(s, labels, hash_labels(labels, s->n), &at) : UINT32_MAX;
}

/* Linear probing's backward-shift deletion: no tombstones, so lookups
 * stay short however many evictions there are. */
static void slot_delete(struct ss_summary *s, uint32_t j)
{
    uint32_t mask = s->nslots - 1;
    for (uint32_t k = (j + 1) & mask;; k = (k + 1) & mask) {
        uint64_t v = s->slot[k];
        if (v == 0)
            break;
        uint32_t home = slot_hash(v) & mask;
        /* Move it back to J unless its home lies cyclically in (J, K]. */
        if (((k - home) & mask) >= ((k - j) & mask)) {
            s->slot[j] = v;
            j = k;
        }
    }
    s->slot[j] = 0;
}

/* 4-ary heap, hole-moving sifts. */
static void sift_down(struct ss_summary *s, uint32_t p)
{
    struct ss_heap x = s->heap[p];
    for (;;) {
        uint32_t c = 4 * p + 1, m = p;
        uint64_t best = x.key;
        for (uint32_t j = c; j < c + 4 && j < s->len; j++)
            if (s->heap[j].key < best) {
                best = s->heap[j].key;
                m = j;
            }
        if (m == p)
            break;
        s->heap[p] = s->heap[m];
        p = m;
    }
    s->heap[p] = x;
}

static void sift_up(struct ss_summary *s, uint32_t c)
{
    struct ss_heap x = s->heap[c];
    while (c > 0) {
        uint32_t p = (c - 1) / 4;
        if (s->heap[p].key <= x.key)
            break;
        s->heap[c] = s->heap[p];
        c = p;
    }
    s->heap[c] = x;
}

static void rehash(struct ss_summary *s)
{
    for (uint32_t i = 0; i < s->len; i++) {
        uint32_t j = s->e[i].hash & (s->nslots - 1);
        while (s->slot[j] != 0)
            j = (j + 1) & (s->nslots - 1);
        s->slot[j] = slot_make(i, s->e[i].hash);
    }
}

/* Room for CAP items (a power of two >= len); 0 or -1. */
static int set_cap(struct ss_summary *s, uint32_t cap)
{
    struct ss_entry *e = realloc(s->e, (size_t)cap * sizeof *e);
    if (e == NULL)
        return -1;
    s->e = e;
    uint64_t *l = realloc(s->labels, (size_t)cap * s->n * sizeof *l);
    if (l == NULL)
        return -1;
    s->labels = l;
    struct ss_heap *h = realloc(s->heap, (size_t)cap * sizeof *h);
    if (h == NULL)
        return -1;
    s->heap = h;
    uint32_t nslots = slots_for(cap);
    /* calloc: a large empty table costs address space, not memory,
     * until it fills. */
    uint64_t *slot = calloc(nslots, sizeof *slot);
    if (slot == NULL)
        return -1;
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    s->nslots = nslots;
    rehash(s);
    return 0;
}

int ss_init(struct ss_summary *s, uint32_t n, uint32_t cap_max)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->cap_max = cap_max;
    /* A bounded summary gets its whole room at once: growing by doubling
     * would hold the old and the new arrays for a moment, beyond what the
     * budget planned.  Untouched pages cost nothing until used. */
    uint32_t cap = cap_max ? cap_max : SS_MIN_CAP;
    if (set_cap(s, cap) != 0) {
        ss_free(s);
        s->failed = 1;
        return -1;
    }
    return 0;
}

void ss_free(struct ss_summary *s)
{
    free(s->e);
    free(s->labels);
    free(s->heap);
    free(s->slot);
    s->e = NULL;
    s->labels = NULL;
    s->heap = NULL;
    s->slot = NULL;
    s->len = s->cap = s->nslots = 0;
}

/* A new entry for LABELS at slot AT (found empty by find). */
static void insert(struct ss_summary *s, const uint64_t *labels, uint32_t h, uint32_t at,
                   uint64_t count, uint64_t err)
{
    uint32_t i = s->len++;
    s->e[i] = (struct ss_entry){count, err, h, 0};
    memcpy(s->labels + (size_t)i * s->n, labels, (size_t)s->n * sizeof *labels);
    s->heap[i] = (struct ss_heap){count, i, 0};
    s->slot[at] = slot_make(i, h);
    sift_up(s, i);
}

void ss_add(struct ss_summary *s, const uint64_t *labels, uint64_t w)
{
    ss_add_hashed(s, labels, hash_labels(labels, s->n), w);
}

void ss_add_hashed(struct ss_summary *s, const uint64_t *labels, uint32_t h, uint64_t w)
{
    uint32_t at;
    uint32_t i = find(s, labels, h, &at);
    s->total += w;
    if (i != UINT32_MAX) {
        s->e[i].count += w; /* its heap key goes stale: see ss_heap */
        return;
    }
    if (s->len == s->cap && (s->cap_max == 0 || s->cap < s->cap_max)) {
        uint32_t cap = s->cap * 2;
        if (s->cap_max && cap > s->cap_max)
            cap = s->cap_max;
        if (s->cap >= UINT32_MAX / 8 || set_cap(s, cap) != 0) {
            s->failed = 1; /* the summary stays valid: evict instead */
        } else {
            find(s, labels, h, &at);
        }
    }
    if (s->len < s->cap) {
        insert(s, labels, h, at, w, 0);
        return;
    }
    /* Full: the minimum makes room, and the newcomer inherits its count
     * as error (its true count before this update was at most that). */
    for (i = s->heap[0].idx; s->heap[0].key != s->e[i].count; i = s->heap[0].idx) {
        s->heap[0].key = s->e[i].count;
        sift_down(s, 0);
    }
    uint64_t min = s->e[i].count;
    if (min > s->floor)
        s->floor = min;
    s->evictions++;
    slot_delete(s, slot_of(s, i));
    memcpy(s->labels + (size_t)i * s->n, labels, (size_t)s->n * sizeof *labels);
    s->e[i].count = min + w;
    s->heap[0].key = min + w;
    s->e[i].err = min;
    s->e[i].hash = h;
    find(s, labels, h, &at);
    s->slot[at] = slot_make(i, h);
    sift_down(s, 0);
}

struct cand {
    uint64_t count, err;
    const uint64_t *labels;
};

static int by_count_desc(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

int ss_merge(struct ss_summary *into, const struct ss_summary *from)
{
    size_t n = (size_t)into->len + from->len;
    struct cand *c = malloc((n ? n : 1) * sizeof *c);
    uint64_t *keep = NULL;
    if (c == NULL)
        goto fail;
    size_t m = 0;
    uint32_t at;
    for (uint32_t i = 0; i < into->len; i++) {
        const uint64_t *l = ss_labels(into, i);
        uint32_t f = from->len ? find(from, l, into->e[i].hash, &at) : UINT32_MAX;
        c[m++] = f == UINT32_MAX
                     ? (struct cand){into->e[i].count + from->floor, into->e[i].err + from->floor, l}
                     : (struct cand){into->e[i].count + from->e[f].count,
                                     into->e[i].err + from->e[f].err, l};
    }
    for (uint32_t i = 0; i < from->len; i++) {
        const uint64_t *l = ss_labels(from, i);
        if (into->len && find(into, l, from->e[i].hash, &at) != UINT32_MAX)
            continue;
        c[m++] = (struct cand){from->e[i].count + into->floor, from->e[i].err + into->floor, l};
    }
    qsort(c, m, sizeof *c, by_count_desc);
    uint64_t floor = into->floor + from->floor;
    size_t kept = m;
    if (into->cap_max && kept > into->cap_max) {
        kept = into->cap_max;
        if (c[kept].count > floor)
            floor = c[kept].count;
    }
    /* The candidates point into both summaries: copy the labels out
     * before INTO is rebuilt. */
    keep = malloc((kept ? kept : 1) * into->n * sizeof *keep);
    if (keep == NULL)
        goto fail;
    for (size_t i = 0; i < kept; i++)
        memcpy(keep + i * into->n, c[i].labels, into->n * sizeof *keep);
    uint32_t cap = into->cap;
    while (cap < kept)
        cap = into->cap_max && 2 * cap > into->cap_max ? into->cap_max : 2 * cap;
    if (cap != into->cap && set_cap(into, cap) != 0)
        goto fail;
    into->len = 0;
    memset(into->slot, 0, (size_t)into->nslots * sizeof *into->slot);
    for (size_t i = 0; i < kept; i++) {
        const uint64_t *l = keep + i * into->n;
        uint32_t h = hash_labels(l, into->n);
        find(into, l, h, &at);
        insert(into, l, h, at, c[i].count, c[i].err);
    }
    into->total += from->total;
    into->floor = floor;
    into->evictions += from->evictions;
    into->failed |= from->failed;
    free(keep);
    free(c);
    return 0;
fail:
    free(keep);
    free(c);
    into->failed = 1;
    return -1;
}
