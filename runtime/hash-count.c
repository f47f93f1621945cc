/* hash-count.c - __pathprof_hash_count: the hash-mode probe and table growth.
 * The data structure and its invariants are described in hash-table.h. */
#include "hash-table.h"
#include "pathprof-abi.h"

#include <errno.h>
#include <sys/mman.h>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define PP_SINGLE_THREADED() __libc_single_threaded
#else
#define PP_SINGLE_THREADED() 0 /* glibc before 2.32: always the atomic add */
#endif

/* 128 entries (2 KiB) first: a hash-mode function has thousands of paths
 * but a run often takes few of them.  Grow 4x while small so a busy
 * function reaches its size in a few generations, then 2x to bound waste. */
#define INITIAL_LOG2 7
#define FAST_GROWTH_LIMIT_LOG2 16

/* Roots and tables come from mmap, not malloc, and growth takes no lock:
 * a path may be counted first, or fill its table, in a signal handler
 * that interrupted malloc or a growing table on its own thread (a count
 * from a handler used to call calloc and take a mutex there).  Zeroed
 * pages are what an empty table is.  errno is left as the program had it. */
static void *zeroed_pages(size_t bytes)
{
    int saved_errno = errno;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    errno = saved_errno;
    return p == MAP_FAILED ? NULL : p;
}

static void drop_pages(void *p, size_t bytes)
{
    int saved_errno = errno;
    munmap(p, bytes);
    errno = saved_errno;
}

static size_t table_bytes(unsigned log2)
{
    return sizeof(struct pprt_hash_table) + ((size_t)1 << log2) * sizeof(struct pprt_hash_entry);
}

static void table_init(struct pprt_hash_table *t, unsigned log2)
{
    t->mask = ((uint64_t)1 << log2) - 1;
    t->shift = 64 - log2;
}

static unsigned table_log2(const struct pprt_hash_table *t) { return 64 - t->shift; }

/* Grow when 3/4 of the entries are taken: linear probing stays short. */
static uint64_t grow_threshold(const struct pprt_hash_table *t)
{
    return (t->mask + 1) - (t->mask + 1) / 4;
}

/* A root and its first table share one mapping: the root first, padded to
 * keep the entries 16-byte aligned. */
#define ROOT_BYTES ((sizeof(struct pprt_hash_root) + 63) / 64 * 64)

static struct pprt_hash_root *install_root(uint64_t *slot)
{
    size_t bytes = ROOT_BYTES + table_bytes(INITIAL_LOG2);
    char *m = zeroed_pages(bytes);
    if (m == NULL)
        return NULL;
    struct pprt_hash_root *r = (struct pprt_hash_root *)m;
    struct pprt_hash_table *t = (struct pprt_hash_table *)(m + ROOT_BYTES);
    table_init(t, INITIAL_LOG2);
    r->current = t;
    uint64_t expected = 0;
    /* Release: a thread that sees the pointer sees the initialised root. */
    if (__atomic_compare_exchange_n(slot, &expected, (uint64_t)(uintptr_t)r, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return r;
    drop_pages(m, bytes); /* another thread installed its root first: use that one */
    return pprt_hash_root_of(expected);
}

/* Make a table bigger than SEEN current, unless another thread already
 * did: the new table is published by compare-and-swap, and a thread that
 * loses the race unmaps its own.  Returns 0 when a newer table than SEEN
 * is current afterwards. */
static int grow(struct pprt_hash_root *r, struct pprt_hash_table *seen)
{
    if (__atomic_load_n(&r->current, __ATOMIC_ACQUIRE) != seen)
        return 0;
    unsigned log2 = table_log2(seen);
    log2 += log2 < FAST_GROWTH_LIMIT_LOG2 ? 2 : 1;
    struct pprt_hash_table *t = log2 < 48 ? zeroed_pages(table_bytes(log2)) : NULL;
    if (t == NULL)
        return -1;
    table_init(t, log2);
    t->older = seen;
    struct pprt_hash_table *expected = seen;
    if (!__atomic_compare_exchange_n(&r->current, &expected, t, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        drop_pages(t, table_bytes(log2));
    return 0;
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

/* Count WANT (a key) once in T.  Returns 0, or -1 when T has no room for a new key. */
static int table_add(struct pprt_hash_root *r, struct pprt_hash_table *t, uint64_t want)
{
    uint64_t i = (want * PATHPROF_HASH_MULT) >> t->shift;
    for (uint64_t probes = 0; probes <= t->mask; probes++, i = (i + 1) & t->mask) {
        struct pprt_hash_entry *e = &t->entries[i];
        uint64_t key = __atomic_load_n(&e->key, __ATOMIC_RELAXED);
        if (key == 0) {
            if (__atomic_compare_exchange_n(&e->key, &key, want, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
                bump(&e->count);
                /* Only the insertion that crosses the threshold asks for a
                 * bigger table, so threads do not queue on the lock. */
                uint64_t used = __atomic_add_fetch(&t->used, 1, __ATOMIC_RELAXED);
                if (used == grow_threshold(t))
                    grow(r, t);
                return 0;
            }
            /* Lost the race for this entry; KEY now holds the winner's key. */
        }
        if (key == want) {
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
    uint64_t key = pprt_hash_key(path_id);
    if (__builtin_expect(key == 0, 0)) {
        bump(&r->wrap_count);
        return;
    }
    for (;;) {
        struct pprt_hash_table *t = __atomic_load_n(&r->current, __ATOMIC_ACQUIRE);
        if (__builtin_expect(table_add(r, t, key) == 0, 1))
            return;
        /* Full (the growth asked at 3/4 failed or is racing): grow or give up. */
        if (grow(r, t) != 0) {
            __atomic_fetch_add(&r->lost, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}
