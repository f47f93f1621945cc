/* forest.h - the node arena shared by the k-slab forest (k-SF) and the
 * k-iteration path forest (k-IPF) of the `ksf` analyzer
 * (docs/kiterations.md).
 *
 * Why this shape: the k-SF is walked once per path event, so a node is 24
 * bytes in one growing array (no malloc per node, neighbours in the cache,
 * 32-bit indices that survive the array moving), children are a
 * first-child/next-sibling list kept hottest-first by move-to-front (the
 * paper's eclipse slowdown came from long sibling scans), and the roots
 * are found through an open-addressing hash table keyed by the label.
 * Index 0 is a sentinel meaning "no node". */
#ifndef PATHPROF_KSF_FOREST_H
#define PATHPROF_KSF_FOREST_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* label, child and sibling first: a lookup reads those 16 bytes, which
 * straddle a cache line in 1 node of 8 (24-byte nodes from offset 0);
 * with the count before the links it was 2 of 8. */
struct ksf_node {
    uint64_t label;   /* global path index (event bits 0..60) */
    uint32_t child;   /* first child, 0 = none */
    uint32_t sibling; /* next sibling, 0 = none */
    uint64_t count;
};

/* A forest's shape at one depth (the KIPF section's level figures,
 * docs/format.md): its nodes, those of them with children, and their
 * children. */
struct ksf_level {
    uint64_t nodes, internal, children;
};

/* Root table entry: node 0 marks an empty slot. */
struct ksf_slot {
    uint64_t label;
    uint32_t node;
    uint32_t pad;
};

struct ksf_forest {
    struct ksf_node *n; /* n[0] is the sentinel */
    uint32_t len, cap;
    struct ksf_slot *slot;
    uint32_t nslots, nroots; /* nslots: a power of two, or 0 */
    uint32_t slot_shift;     /* 32 - log2(nslots): ksf_home_slot's shift */
    int failed;              /* an allocation failed: the forest is incomplete */
    /* build.c's memo of runs (ksf_run), which names nodes of this
     * forest: freed with it, and void from the moment the nodes it names
     * are gone (clear and resize bump GEN; the memo keeps the GEN it was
     * filled under). */
    void *run_memo;
    uint32_t gen;
};

int ksf_forest_init(struct ksf_forest *f);
void ksf_forest_free(struct ksf_forest *f);

/* Appends a node (child 0, sibling 0); returns its index, 0 when out of
 * memory (f->failed is set). */
uint32_t ksf_new_node(struct ksf_forest *f, uint64_t label);

/* The root labelled LABEL, created with count 0 when missing; 0 when out
 * of memory.  *INSERTED says whether it was created (a hash operation). */
uint32_t ksf_root(struct ksf_forest *f, uint64_t label, int *inserted);
/* The root labelled LABEL, or 0. */
uint32_t ksf_root_find(const struct ksf_forest *f, uint64_t label);

uint32_t ksf_child_slow(struct ksf_forest *f, uint32_t parent, uint64_t label);

/* The root table's home slot of LABEL.  Fibonacci hashing: path indices
 * of one function are consecutive, the multiply spreads them over the
 * high bits, and the slot is the top log2(NSLOTS) of them (the middle
 * bits, taken before, left clusters that linear probing walked: 6 probes
 * a miss of the home slot on lua's stream). */
static inline uint32_t ksf_slot_of(uint64_t label, uint32_t nslots)
{
    return (uint32_t)(((label * 0x9E3779B97F4A7C15ull) >> 32) >> (32 - __builtin_ctz(nslots)));
}

/* ksf_slot_of for F's own table, with the shift kept beside it (the
 * lookup of a call's first event is a third of an interpreter's events;
 * the shift's tzcnt and subtraction were a tenth of their work). */
static inline uint32_t ksf_home_slot(const struct ksf_forest *f, uint64_t label)
{
    return (uint32_t)(((label * 0x9E3779B97F4A7C15ull) >> 32) >> f->slot_shift);
}

/* The child of PARENT labelled LABEL, created with count 0 when missing,
 * and moved to the front of PARENT's list either way: the hot child is
 * found by one compare next time.  0 only when out of memory. */
static inline uint32_t ksf_child(struct ksf_forest *f, uint32_t parent, uint64_t label)
{
    uint32_t c = f->n[parent].child;
    if (__builtin_expect(c != 0 && f->n[c].label == label, 1))
        return c;
    return ksf_child_slow(f, parent, label);
}

/* For a forest held within a memory budget (ksf-pruned/ksf-pruned.c): the bytes its
 * arrays hold; growing them ahead (doubling) so that NODES more nodes and
 * ROOTS more roots need no allocation; emptying it while keeping the
 * arrays (a new epoch reuses them); and giving an empty forest arrays of
 * exactly CAP nodes and NSLOTS root slots (a power of two), to shrink it.
 * reserve and resize return 0, or -1 when out of memory (the forest is
 * unchanged). */
size_t ksf_forest_bytes(const struct ksf_forest *f);
int ksf_forest_reserve(struct ksf_forest *f, uint32_t nodes, uint32_t roots);
void ksf_forest_clear(struct ksf_forest *f);
int ksf_forest_resize(struct ksf_forest *f, uint32_t cap, uint32_t nslots);

/* Calls FN(node, ctx) for every root, in table order. */
/* Asks for transparent huge pages on the whole 2 MiB pages inside
 * [P, P + BYTES) when that is 4 MiB or more (see forest.c). */
void ksf_huge_pages(void *p, size_t bytes);
void ksf_each_root(const struct ksf_forest *f, void (*fn)(uint32_t root, void *ctx), void *ctx);

#pragma GCC visibility pop

#endif
