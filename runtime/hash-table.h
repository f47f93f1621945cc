/* hash-table.h - per-function hash tables for hash-mode path counts.
 *
 * A function with too many paths for an array (flag HASH) owns one counter
 * slot; __pathprof_hash_count lazily installs there a pointer to a
 * struct pprt_hash_root.  Layout and invariants:
 *
 *   root --current--> table (newest) --older--> table --older--> ... NULL
 *
 * - A table is open addressing with linear probing over 16-byte entries
 *   {key, count}.  Path ID I has key I + 1 and key 0 means "empty"; the
 *   one ID whose key would wrap to 0, 2^64 - 1, is counted apart, in
 *   root->wrap_count: every 64-bit ID can be counted.
 * - An entry's key goes from 0 to a key once (CAS) and never changes again;
 *   its count only grows (atomic add, or one unlocked add while the process
 *   has one thread).  So the common path is lock-free: a probe and an add.
 * - Instrumented code reads this layout itself: the count-mode probe looks
 *   at the key's home entry in the current table and adds there when the
 *   key is its own, calling __pathprof_hash_count otherwise
 *   (plugin/hash-probe.cc).  The offsets it uses are the run-time ABI's
 *   (pathprof-abi.h, PATHPROF_HASH_*), checked below.
 * - Growing allocates a bigger table and makes it current by
 *   compare-and-swap (no lock: a signal handler may grow a table), but
 *   moves nothing: entries stay where they were
 *   counted, and threads still holding the old table keep counting in it.
 *   An ID may therefore have entries in several generations; its count is
 *   the sum over all of them (pprt_hash_collect).  Nothing is lost or
 *   counted twice, and no reader can see a half-moved table.
 * - Tables and roots are never freed while the process lives: a probe may
 *   run at any time (late destructors, other threads at exit), and a
 *   snapshot of a dlclose'd TU keeps its roots (they live in runtime memory,
 *   not in the TU's).  All generations together take at most twice the
 *   memory of the newest one.
 * - root->next_instance chains the roots of earlier instances of the same
 *   function (a library dlopen'd and dlclose'd several times) whose
 *   snapshots were merged; they are summed too.  Changed only under the
 *   registry lock. */
#ifndef PATHPROF_RT_HASH_TABLE_H
#define PATHPROF_RT_HASH_TABLE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pathprof-abi.h"

#pragma GCC visibility push(hidden)

struct pprt_hash_entry {
    uint64_t key;   /* 0: empty; else the path ID (atomic) */
    uint64_t count; /* atomic */
};

struct pprt_hash_table {
    uint64_t mask;  /* capacity - 1; capacity is a power of two */
    unsigned shift; /* 64 - log2(capacity), for Fibonacci hashing */
    uint64_t used;  /* entries whose key is set (atomic) */
    struct pprt_hash_table *older;
    struct pprt_hash_entry entries[];
};

struct pprt_hash_root {
    struct pprt_hash_table *current; /* atomic; never NULL once installed */
    uint64_t wrap_count;             /* count of path ID 2^64 - 1 (atomic) */
    uint64_t lost;                   /* counts dropped: out of memory (atomic) */
    struct pprt_hash_root *next_instance;
};

_Static_assert(offsetof(struct pprt_hash_root, current) == PATHPROF_HASH_ROOT_CURRENT,
               "the inline probe's root layout");
_Static_assert(offsetof(struct pprt_hash_table, shift) == PATHPROF_HASH_TABLE_SHIFT &&
                   sizeof(unsigned) == 4,
               "the inline probe's table shift");
_Static_assert(offsetof(struct pprt_hash_table, entries) == PATHPROF_HASH_TABLE_ENTRIES,
               "the inline probe's table entries");
_Static_assert(sizeof(struct pprt_hash_entry) == PATHPROF_HASH_ENTRY_SIZE &&
                   offsetof(struct pprt_hash_entry, count) == 8,
               "the inline probe's entry layout");

/* The table key of path ID ID (0 only for 2^64 - 1, counted apart). */
static inline uint64_t pprt_hash_key(uint64_t id)
{
    return id + 1;
}

/* The root installed in a slot, or NULL.  SLOT_VALUE is the slot's content. */
static inline struct pprt_hash_root *pprt_hash_root_of(uint64_t slot_value)
{
    return (struct pprt_hash_root *)(uintptr_t)slot_value;
}

struct pprt_path_count {
    uint64_t path_id, count;
};

struct pprt_path_counts {
    struct pprt_path_count *v;
    size_t n, cap;
    int failed; /* out of memory: incomplete */
};

/* Fill OUT with the non-zero counts of the root installed in SLOT_VALUE and
 * of every root chained to it, one record per ID, ascending path_id.  Also
 * adds the dropped counts to *LOST. */
void pprt_hash_collect(uint64_t slot_value, struct pprt_path_counts *out,
                       uint64_t *lost);
void pprt_path_counts_free(struct pprt_path_counts *c);

/* Make the counts of the root in SRC_VALUE part of the slot *DEST (a slot
 * of a runtime-owned snapshot): install it there when *DEST is empty, else
 * chain it.  Caller holds the registry lock. */
void pprt_hash_merge_slot(uint64_t *dest, uint64_t src_value);

/* Sets every count of the root in SLOT_VALUE (and of the roots chained to
 * it) to 0, keeping the tables: a forked child's counts start again
 * (registry.h).  Only with no other thread counting. */
void pprt_hash_zero_slot(uint64_t slot_value);

#pragma GCC visibility pop

#endif
