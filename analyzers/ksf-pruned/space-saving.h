/* space-saving.h - a weighted Space-Saving summary of sequences of N
 * labels (Metwally et al., "Efficient computation of frequent and top-k
 * elements in data streams", with weights; merging as Agarwal et al.,
 * "Mergeable summaries"), for the ksf-pruned analyzer (docs/pruning.md).
 *
 * The contract, for any sequence of updates (item x, weight w > 0):
 *   - total is the sum of all weights (N);
 *   - a monitored item has count - err <= true(x) <= count;
 *   - an item not monitored has true(x) <= floor;
 *   - as long as no item was ever evicted, floor = err = 0 and counts are
 *     exact; once full, floor <= N / cap.
 * The summary holds at most CAP_MAX items, allocated at once (its memory
 * is ss_bytes(n, cap_max) from the start, touched as it fills); with
 * CAP_MAX 0 it starts small, doubles, and never evicts.  Eviction
 * takes the minimum of a lazily kept 4-ary heap (struct ss_heap);
 * lookups go through an
 * open-addressing table of entry indices (linear probing, backward-shift
 * deletion, load <= 1/2).  Single-threaded. */
#ifndef PATHPROF_SPACE_SAVING_H
#define PATHPROF_SPACE_SAVING_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct ss_entry {
    uint64_t count, err;
    uint32_t hash;
    uint32_t pad;
};

/* A heap slot: entry IDX with KEY, its count when it last moved in the
 * heap.  Counts only grow, so an update leaves the heap alone (no sift per
 * update): the heap is ordered on these keys, and eviction refreshes stale
 * keys at the top until the top's key is its count - then it is the
 * minimum, since every other count >= its key >= the top's.  Keys live in
 * the heap, four 16-byte children side by side, so that a sift reads one
 * or two cache lines per level, not one entry per child, over half the
 * levels of a binary heap. */
struct ss_heap {
    uint64_t key;
    uint32_t idx;
    uint32_t pad;
};

struct ss_summary {
    uint32_t n;          /* labels per item */
    uint32_t len, cap;   /* items held, room for */
    uint32_t cap_max;    /* 0: unbounded */
    uint32_t nslots;     /* a power of two >= 2 * cap */
    uint64_t total;      /* N */
    uint64_t floor;      /* bound on the true count of any unmonitored item */
    uint64_t evictions;
    struct ss_entry *e;
    uint64_t *labels;    /* cap * n: entry i's labels at i * n */
    struct ss_heap *heap; /* a 4-ary min-heap on keys */
    uint64_t *slot;      /* entry index + 1 | hash << 32, 0 = empty */
    int failed;          /* out of memory: an update was lost */
};

/* Bytes held by a summary of N labels per item with room for CAP items. */
size_t ss_bytes(uint32_t n, uint32_t cap);

/* CAP_MAX: 0 (no limit) or at least 1.  Returns 0, or -1 when out of
 * memory. */
int ss_init(struct ss_summary *s, uint32_t n, uint32_t cap_max);
void ss_free(struct ss_summary *s);

/* Adds W (> 0) to the item LABELS (s->n of them). */
void ss_add(struct ss_summary *s, const uint64_t *labels, uint64_t w);

/* The items' hash, built one label at a time, so that a walk that extends
 * a sequence by one label (core.c's flush) hashes each label
 * once: ss_hash_final(step(...step(SS_HASH_SEED, l[0])..., l[n-1])). */
#define SS_HASH_SEED 0x9E3779B97F4A7C15ull
static inline uint64_t ss_hash_step(uint64_t h, uint64_t label)
{
    h ^= label;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}
static inline uint32_t ss_hash_final(uint64_t h)
{
    return (uint32_t)(h ^ (h >> 29));
}
/* ss_add with the hash of LABELS already computed. */
void ss_add_hashed(struct ss_summary *s, const uint64_t *labels, uint32_t hash, uint64_t w);

/* INTO += FROM (same n): every item's bounds are the sum of both sides',
 * a side where it is not monitored contributing [0, that side's floor];
 * the items kept are the INTO->cap_max (or all) with the highest upper
 * bounds; the floor becomes max(both floors summed, highest upper bound
 * left out).  Returns 0, or -1 when out of memory (INTO->failed set). */
int ss_merge(struct ss_summary *into, const struct ss_summary *from);

/* The entry monitoring LABELS, or UINT32_MAX. */
uint32_t ss_lookup(const struct ss_summary *s, const uint64_t *labels);

/* Entry I's labels. */
static inline const uint64_t *ss_labels(const struct ss_summary *s, uint32_t i)
{
    return s->labels + (size_t)i * s->n;
}

#pragma GCC visibility pop

#endif
