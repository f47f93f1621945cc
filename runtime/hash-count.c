/* hash-count.c - __pathprof_hash_count: the hash-mode probe and table growth.
 * The data structure and its invariants are described in hash-table.h. */
#include "hash-table.h"
#include "pathprof-abi.h"

#include <errno.h>
#include <stdlib.h>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define PP_SINGLE_THREADED() __libc_single_threaded
#else
#define PP_SINGLE_THREADED() 0 /* glibc before 2.32: always the atomic add */
#endif

pthread_mutex_t pprt_hash_grow_lock = PTHREAD_MUTEX_INITIALIZER;

/* 128 entries (2 KiB) first: a hash-mode function has thousands of paths
 * but a run often takes few of them.  Grow 4x while small so a busy
 * function reaches its size in a few generations, then 2x to bound waste. */
#define INITIAL_LOG2 7
#define FAST_GROWTH_LIMIT_LOG2 16

static struct pprt_hash_table *table_new(unsigned log2)
{
    size_t cap = (size_t)1 << log2;
    struct pprt_hash_table *t =
        calloc(1, sizeof *t + cap * sizeof(struct pprt_hash_entry));
    if (t == NULL)
        return NULL;
    t->mask = cap - 1;
    t->shift = 64 - log2;
    return t; /* calloc: every key is 0, i.e. empty */
}

static unsigned table_log2(const struct pprt_hash_table *t) { return 64 - t->shift; }

/* Grow when 3/4 of the entries are taken: linear probing stays short. */
static uint64_t grow_threshold(const struct pprt_hash_table *t)
{
    return (t->mask + 1) - (t->mask + 1) / 4;
}

static struct pprt_hash_root *install_root(uint64_t *slot)
{
    int saved_errno = errno; /* calloc may set it; the program must not see */
    struct pprt_hash_root *r = calloc(1, sizeof *r);
    struct pprt_hash_table *t = table_new(INITIAL_LOG2);
    errno = saved_errno;
    if (r == NULL || t == NULL) {
        free(r);
        free(t);
        return NULL;
    }
    r->current = t;
    uint64_t expected = 0;
    /* Release: a thread that sees the pointer sees the initialised root. */
    if (__atomic_compare_exchange_n(slot, &expected, (uint64_t)(uintptr_t)r, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return r;
    free(t); /* another thread installed its root first: use that one */
    free(r);
    return pprt_hash_root_of(expected);
}

/* Make a table bigger than SEEN current, unless another thread already did.
 * Returns 0 when a newer table than SEEN is current afterwards. */
static int grow(struct pprt_hash_root *r, struct pprt_hash_table *seen)
{
    int ok = 1;
    pthread_mutex_lock(&pprt_hash_grow_lock);
    if (__atomic_load_n(&r->current, __ATOMIC_ACQUIRE) == seen) {
        unsigned log2 = table_log2(seen);
        log2 += log2 < FAST_GROWTH_LIMIT_LOG2 ? 2 : 1;
        int saved_errno = errno;
        struct pprt_hash_table *t = log2 < 48 ? table_new(log2) : NULL;
        errno = saved_errno;
        if (t == NULL) {
            ok = 0;
        } else {
            t->older = seen;
            __atomic_store_n(&r->current, t, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&pprt_hash_grow_lock);
    return ok ? 0 : -1;
}

/* COUNT += 1, safe against other threads and against signal handlers
 * that count too.  While the process has one thread (glibc's
 * __libc_single_threaded, cleared for good by the first thread created),
 * no other thread can touch COUNT, and on x86-64 one add instruction
 * without the lock prefix is indivisible for a signal on this thread: the
 * lock prefix was about half of a hash update's cost (lz4's hash-mode
 * functions: counting mode 1.78x -> 1.54x native). */
static inline __attribute__((always_inline)) void bump(uint64_t *count)
{
#if defined(__x86_64__)
    if (PP_SINGLE_THREADED()) {
        __asm__ volatile("addq $1, %0" : "+m"(*count));
        return;
    }
#endif
    __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
}

/* Count ID once in T.  Returns 0, or -1 when T has no room for a new ID. */
static int table_add(struct pprt_hash_root *r, struct pprt_hash_table *t, uint64_t id)
{
    uint64_t i = (id * 0x9e3779b97f4a7c15ull) >> t->shift;
    for (uint64_t probes = 0; probes <= t->mask; probes++, i = (i + 1) & t->mask) {
        struct pprt_hash_entry *e = &t->entries[i];
        uint64_t key = __atomic_load_n(&e->key, __ATOMIC_RELAXED);
        if (key == 0) {
            if (__atomic_compare_exchange_n(&e->key, &key, id, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
                bump(&e->count);
                /* Only the insertion that crosses the threshold asks for a
                 * bigger table, so threads do not queue on the lock. */
                uint64_t used = __atomic_add_fetch(&t->used, 1, __ATOMIC_RELAXED);
                if (used == grow_threshold(t))
                    grow(r, t);
                return 0;
            }
            /* Lost the race for this entry; KEY now holds the winner's ID. */
        }
        if (key == id) {
            bump(&e->count);
            return 0;
        }
    }
    return -1;
}

__attribute__((visibility("default")))
void __pathprof_hash_count(uint64_t *slot, uint64_t path_id)
{
    struct pprt_hash_root *r =
        pprt_hash_root_of(__atomic_load_n(slot, __ATOMIC_ACQUIRE));
    if (__builtin_expect(r == NULL, 0)) {
        r = install_root(slot);
        if (r == NULL)
            return; /* out of memory before the first count: nowhere to note it */
    }
    if (path_id == 0) {
        bump(&r->zero_count);
        return;
    }
    for (;;) {
        struct pprt_hash_table *t = __atomic_load_n(&r->current, __ATOMIC_ACQUIRE);
        if (__builtin_expect(table_add(r, t, path_id) == 0, 1))
            return;
        /* Full (the growth asked at 3/4 failed or is racing): grow or give up. */
        if (grow(r, t) != 0) {
            __atomic_fetch_add(&r->lost, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}
