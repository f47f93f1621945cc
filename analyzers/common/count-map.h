/* count-map.h - the path counts of one TU in one analyzer instance,
 * indexed by the path's index within the TU (global index - tu_base).
 *
 * Most TUs have few path indices: a dense array of counters, allocated on
 * the TU's first event, makes counting one load and one store.  A TU with
 * more than PP_DENSE_MAX indices (functions with 2^40 paths exist, see
 * docs/algorithms.md) counts in an open-addressing hash table instead
 * (key = local index + 1, so 0 marks an empty slot), grown at 1/2 load,
 * its slot the top bits of key x 2^64/phi (one multiply: Fibonacci
 * hashing).  The hit in the key's own slot, the common case at 1/2 load,
 * is inline: a function too big for an array is often the program's
 * hottest (lz4's HC match loop, 2.9e9 paths of which a run takes 233), and
 * a call and splitmix64's finaliser for each of its events were half of
 * the analyzer's time (docs/performance.md).
 * Single-threaded: one analyzer thread owns an instance. */
#ifndef PATHPROF_COUNT_MAP_H
#define PATHPROF_COUNT_MAP_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define PP_DENSE_MAX (1ull << 22)

struct pp_count_slot {
    uint64_t key, count;
};

struct pp_count_pair {
    uint64_t local, count;
};

struct pp_counts {
    uint64_t n;                  /* indices [0, n) */
    uint64_t *dense;             /* n counters, or NULL: hash */
    struct pp_count_slot *slots; /* mask + 1 slots */
    uint64_t mask, used;
    unsigned shift;              /* 64 - log2(mask + 1) */
    /* Hash mode: the slot of the last key counted (0: none).  A loop that
     * iterates one path repeats its event, and in a function too big for
     * an array that is most events (brotli's match finder: 84% repeat the
     * one before), so most adds are a compare and an add, not a hash. */
    uint64_t last_key;
    struct pp_count_slot *last;
};

/* Returns 0, or -1 when out of memory. */
int pp_counts_init(struct pp_counts *c, uint64_t n);
void pp_counts_free(struct pp_counts *c);
/* Every count back to 0 (the indices stay). */
void pp_counts_clear(struct pp_counts *c);
/* Hash-mode add; -1 when out of memory (the count is lost). */
int pp_counts_hash_add(struct pp_counts *c, uint64_t local, uint64_t k);

/* The first slot KEY's probe looks at. */
static inline uint64_t pp_counts_home(uint64_t key, unsigned shift)
{
    return (key * 0x9e3779b97f4a7c15ull) >> shift;
}

static inline int pp_counts_add(struct pp_counts *c, uint64_t local, uint64_t k)
{
    if (c->dense) {
        c->dense[local] += k;
        return 0;
    }
    uint64_t key = local + 1;
    if (c->last_key == key) {
        c->last->count += k;
        return 0;
    }
    struct pp_count_slot *s = &c->slots[pp_counts_home(key, c->shift)];
    if (s->key == key) {
        s->count += k;
        c->last_key = key;
        c->last = s;
        return 0;
    }
    return pp_counts_hash_add(c, local, k);
}

/* Adds FROM's counts (same N) into INTO; -1 when out of memory. */
int pp_counts_merge(struct pp_counts *into, const struct pp_counts *from);

/* Appends every non-zero count to *V (length *LEN, capacity *CAP), in no
 * particular order; -1 when out of memory. */
int pp_counts_collect(const struct pp_counts *c, struct pp_count_pair **v,
                      size_t *len, size_t *cap);

#pragma GCC visibility pop

#endif
