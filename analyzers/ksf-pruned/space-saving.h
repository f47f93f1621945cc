/* space-saving.h - a weighted Space-Saving summary of sequences of N
 * labels (Metwally et al., "Efficient computation of frequent and top-k
 * elements in data streams", with weights), whose evictions are batched
 * as Misra-Gries's decrements (the two are isomorphic: Agarwal et al.,
 * "Mergeable summaries", who also give the merge), for the ksf-pruned
 * analyzer (docs/pruning.md).
 *
 * The contract, for any sequence of updates (item x, weight w > 0):
 *   - total is the sum of all weights (N);
 *   - a monitored item has count - err <= true(x) <= count;
 *   - an item not monitored has true(x) <= floor;
 *   - as long as no item was ever dropped, floor = err = 0 and counts are
 *     exact; always floor <= N / (m + 1), m = CAP_MAX.
 *
 * How.  A new item enters with count floor + w and err floor (its true
 * count before was at most the floor).  When the room is full, one
 * compaction makes room for many: the (m + 1)-th largest count V becomes
 * the floor and every entry with count <= V is dropped (at most m stay).
 * Per new item that is one hash probe and an append, plus an amortised
 * share of the compaction's sequential passes, where an eviction at a
 * time cost a heap sift, a slot deletion and a second probe (3-5 cache
 * misses each on bzip2's stream).
 *
 * A bounded summary (CAP_MAX = m >= 1) allocates its room at once (its
 * memory is ss_bytes(n, m) from the start, touched as it fills); with
 * CAP_MAX 0 it starts small, doubles, and never drops.  Lookups go through
 * an open-addressing table of entry indices (linear probing, load <= 1/2,
 * rebuilt by each compaction).  Single-threaded. */
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

struct ss_summary {
    uint32_t n;          /* labels per item */
    uint32_t len, cap;   /* items held, room for */
    uint32_t cap_max;    /* m, the items kept by a compaction; 0: unbounded */
    uint32_t nslots;     /* a power of two >= 2 * cap */
    uint64_t total;      /* N */
    uint64_t floor;      /* bound on the true count of any unmonitored item */
    uint64_t evictions;  /* items dropped */
    uint64_t skipped;    /* updates not inserted: their prefix bounds them (ss_add_bounded) */
    struct ss_entry *e;
    uint64_t *labels;    /* cap * n: entry i's labels at i * n */
    uint64_t *sel;       /* cap counts: the compaction's scratch (bounded only) */
    uint64_t *slot;      /* entry index + 1 | hash << 32, 0 = empty */
    int failed;          /* out of memory: an update was lost */
};

/* Bytes a bounded summary of N labels per item with M counters holds (its
 * room is more than M: see space-saving.c, room_for). */
size_t ss_bytes(uint32_t n, uint32_t m);
/* Bytes S holds now. */
size_t ss_held(const struct ss_summary *s);

/* CAP_MAX: 0 (no limit) or at least 1.  Returns 0, or -1 when out of
 * memory. */
int ss_init(struct ss_summary *s, uint32_t n, uint32_t cap_max);
void ss_free(struct ss_summary *s);

/* At most m items, as the profile states (a compaction when more are
 * held): before the summary is written. */
void ss_trim(struct ss_summary *s);

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
/* Brings the table slot where an item of hash H is looked up toward the
 * cache: a caller that knows its next items (core.c's drain) asks for
 * them a few updates ahead, so that the probe's miss overlaps others. */
static inline void ss_prefetch(const struct ss_summary *s, uint32_t h)
{
    __builtin_prefetch(&s->slot[h & (s->nslots - 1)]);
}

/* The second step of the same: once that slot has come, the entry it
 * names (count and labels, which the probe compares next) when its hash
 * is H.  Only a hint: the table may change before the update. */
void ss_prefetch_entry(const struct ss_summary *s, uint32_t h);

/* ss_add with the hash of LABELS already computed. */
void ss_add_hashed(struct ss_summary *s, const uint64_t *labels, uint32_t hash, uint64_t w);

/* ss_add_hashed for an item whose prefix of n - 1 labels, of hash
 * PREFIX_HASH, has the summary PREFIX (n - 1 labels, over the same
 * stream, and already given every occurrence of the prefix that precedes
 * an occurrence of the item counted so far).  An item not monitored here
 * whose prefix's bound (its count there, or that summary's floor) is at
 * most this summary's floor is not inserted: every occurrence of the item
 * extends one of the prefix, so its true count is at most that bound, and
 * the floor covers it as it covers every unmonitored item; only N takes
 * W.  Dropping it is what the next compaction would do anyway (it would
 * enter with floor + W, err floor, and a compaction keeps counts above
 * a V >= floor + 1), and the weight it would have held is mass removed,
 * which keeps floor <= N / (m + 1).  Returns 1 when skipped so. */
int ss_add_bounded(struct ss_summary *s, const uint64_t *labels, uint32_t hash, uint64_t w,
                   const struct ss_summary *prefix, uint32_t prefix_hash);

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
