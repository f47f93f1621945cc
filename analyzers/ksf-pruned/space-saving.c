/* space-saving.c - weighted Space-Saving with batched evictions, and
 * merging (space-saving.h). */
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

/* Room for M counters: M kept after a compaction plus M / 2 (at least 1)
 * arrivals before the next, so a compaction, O(room), comes at most once
 * per M / 2 new items. */
static uint32_t room_for(uint32_t m)
{
    return m + (m / 2 > 1 ? m / 2 : 1);
}

/* Bytes of a summary with room for CAP items; SEL: with the compaction's
 * selection array (bounded summaries). */
static size_t bytes_for(uint32_t n, uint32_t cap, int sel)
{
    return (size_t)cap * (sizeof(struct ss_entry) + (size_t)n * sizeof(uint64_t) +
                          (sel ? sizeof(uint64_t) : 0)) +
           (size_t)slots_for(cap) * sizeof(uint64_t);
}

size_t ss_bytes(uint32_t n, uint32_t m)
{
    return bytes_for(n, room_for(m), 1);
}

size_t ss_held(const struct ss_summary *s)
{
    return s->cap ? bytes_for(s->n, s->cap, s->cap_max != 0) : 0;
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

static int same_labels(const uint64_t *a, const uint64_t *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

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
        if (slot_hash(v) == h && same_labels(ss_labels(s, i), labels, s->n)) {
            *at = j;
            return i;
        }
    }
    *at = j;
    return UINT32_MAX;
}

void ss_prefetch_entry(const struct ss_summary *s, uint32_t h)
{
    if (s->nslots == 0)
        return;
    uint64_t v = s->slot[h & (s->nslots - 1)];
    if (v != 0 && slot_hash(v) == h) {
        uint32_t i = (uint32_t)v - 1;
        __builtin_prefetch(&s->e[i]);
        __builtin_prefetch(ss_labels(s, i));
    }
}

uint32_t ss_lookup(const struct ss_summary *s, const uint64_t *labels)
{
    uint32_t at;
    return s->nslots ? find(s, labels, hash_labels(labels, s->n), &at) : UINT32_MAX;
}

static void rehash(struct ss_summary *s)
{
    memset(s->slot, 0, (size_t)s->nslots * sizeof *s->slot);
    for (uint32_t i = 0; i < s->len; i++) {
        uint32_t j = s->e[i].hash & (s->nslots - 1);
        while (s->slot[j] != 0)
            j = (j + 1) & (s->nslots - 1);
        s->slot[j] = slot_make(i, s->e[i].hash);
    }
}

/* Room for CAP items (>= len); 0 or -1. */
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
    if (s->cap_max) {
        uint64_t *sel = realloc(s->sel, (size_t)cap * sizeof *sel);
        if (sel == NULL)
            return -1;
        s->sel = sel;
    }
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
    uint32_t cap = cap_max ? room_for(cap_max) : SS_MIN_CAP;
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
    free(s->sel);
    free(s->slot);
    s->e = NULL;
    s->labels = NULL;
    s->sel = NULL;
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
    s->slot[at] = slot_make(i, h);
}

static void swap64(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* The value that would stand at index R (from 0) if V[0 .. N) were sorted
 * in decreasing order; V is reordered.  Quickselect with a median of
 * three and Wirth's partition. */
static uint64_t select_desc(uint64_t *v, uint32_t n, uint32_t r)
{
    int64_t lo = 0, hi = (int64_t)n - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid] > v[lo])
            swap64(&v[mid], &v[lo]);
        if (v[hi] > v[lo])
            swap64(&v[hi], &v[lo]);
        if (v[hi] > v[mid])
            swap64(&v[hi], &v[mid]);
        uint64_t p = v[mid]; /* the median of the three */
        int64_t i = lo, j = hi;
        while (i <= j) { /* ends with v[lo .. j] >= p >= v[i .. hi], p between */
            while (v[i] > p)
                i++;
            while (v[j] < p)
                j--;
            if (i <= j)
                swap64(&v[i++], &v[j--]);
        }
        if (r <= j)
            hi = j;
        else if (r >= i)
            lo = i;
        else
            return p;
    }
    return v[lo];
}

/* Full: the batched eviction.  V, the (m + 1)-th largest count, becomes
 * the floor and every entry with count <= V goes, at most m staying
 * (docs/pruning.md, "The guarantee": Misra-Gries's decrement, which keeps
 * floor <= N / (m + 1)). */
static void compact(struct ss_summary *s)
{
    for (uint32_t i = 0; i < s->len; i++)
        s->sel[i] = s->e[i].count;
    uint64_t v = select_desc(s->sel, s->len, s->cap_max);
    if (v > s->floor)
        s->floor = v;
    uint32_t j = 0;
    for (uint32_t i = 0; i < s->len; i++) {
        if (s->e[i].count <= v)
            continue;
        if (i != j) {
            s->e[j] = s->e[i];
            memcpy(s->labels + (size_t)j * s->n, s->labels + (size_t)i * s->n,
                   (size_t)s->n * sizeof *s->labels);
        }
        j++;
    }
    s->evictions += s->len - j;
    s->len = j;
    rehash(s);
}

void ss_trim(struct ss_summary *s)
{
    if (s->cap_max && s->len > s->cap_max)
        compact(s);
}

void ss_add(struct ss_summary *s, const uint64_t *labels, uint64_t w)
{
    ss_add_hashed(s, labels, hash_labels(labels, s->n), w);
}

/* W added to the item LABELS of hash H, which find() answered with I
 * (UINT32_MAX: not monitored) and AT. */
static void add_found(struct ss_summary *s, const uint64_t *labels, uint32_t h, uint64_t w,
                      uint32_t i, uint32_t at)
{
    s->total += w;
    if (i != UINT32_MAX) {
        s->e[i].count += w;
        return;
    }
    if (s->len == s->cap) {
        if (s->cap_max) {
            compact(s);
        } else if (s->cap >= UINT32_MAX / 8 || set_cap(s, s->cap * 2) != 0) {
            /* Unbounded and out of memory: the item stays unmonitored, so
             * the floor must cover its true count, at most floor + W. */
            s->failed = 1;
            s->floor += w;
            return;
        }
        find(s, labels, h, &at);
    }
    /* Its true count before this update was at most the floor: never seen,
     * or dropped with a count <= the floor then, and floors only rise. */
    insert(s, labels, h, at, s->floor + w, s->floor);
}

int ss_add_bounded(struct ss_summary *s, const uint64_t *labels, uint32_t h, uint64_t w,
                   const struct ss_summary *prefix, uint32_t prefix_hash)
{
    uint32_t at, i = find(s, labels, h, &at);
    if (i == UINT32_MAX && s->floor != 0) {
        uint32_t pat, pi = find(prefix, labels, prefix_hash, &pat);
        uint64_t bound = pi == UINT32_MAX ? prefix->floor : prefix->e[pi].count;
        if (bound <= s->floor) {
            s->total += w;
            s->skipped++;
            return 1;
        }
    }
    add_found(s, labels, h, w, i, at);
    return 0;
}

void ss_add_hashed(struct ss_summary *s, const uint64_t *labels, uint32_t h, uint64_t w)
{
    uint32_t at, i = find(s, labels, h, &at);
    add_found(s, labels, h, w, i, at);
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
    uint32_t cap = into->cap; /* a bounded summary's room always holds cap_max */
    while (cap < kept)
        cap *= 2;
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
