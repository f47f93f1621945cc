/* perfctl/programs/tcc-alloc.c - the heap of tcc's own allocations in
 * perfctl/programs/tcc.sh: tcc is linked with --wrap=malloc, free, realloc
 * and calloc, so its calls (tcc_malloc, tcc_free and tcc_realloc in
 * libtcc.c are its only ones) come here; libc's and the pathprof
 * runtime's own calls still go to glibc's malloc.
 *
 * Why: tccpp.c's tiny allocator tells its own blocks from malloc's by
 * address (tal_realloc_impl: is_own = al->buffer <= p && p <
 * al->buffer + al->size), and for a malloc'd p the first comparison's
 * outcome follows where glibc put p and the arena, which malloc's state
 * decides - and stream mode's runtime, which allocates too, moves it (the
 * first run: 1 of 2,864 such calls took the other path in stream mode,
 * the same total). Here every block comes from one mapping, reused
 * through free lists by size class, so the addresses' order follows tcc's
 * own sequence of calls only, the same in every build (as yaml-alloc.cpp
 * for yaml-cpp and -heap for sqlite3). Single-threaded, as tcc is. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stddef.h>
#include <string.h>

#include <sys/mman.h>

#define ARENA ((size_t)8 << 30) /* reserved, not committed */
#define HEADER 16               /* keeps 16-byte alignment */
#define SMALL 4096
#define PAGE 4096
#define MAX_PAGES 65536

static char *arena_base, *arena_next;
static void *free_small[SMALL / 16 + 1]; /* by size / 16 */
static void *free_large[MAX_PAGES + 1];  /* by pages */

static void **list_of(size_t size)
{
    if (size <= SMALL)
        return &free_small[size / 16];
    return size / PAGE <= MAX_PAGES ? &free_large[size / PAGE] : NULL;
}

void *__wrap_malloc(size_t n)
{
    size_t size;
    void **list;
    char *b;
    if (!arena_base) {
        void *p = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        arena_base = arena_next = p;
    }
    if (n <= SMALL)
        size = n <= 16 ? 16 : (n + 15) / 16 * 16;
    else
        size = (n + PAGE - 1) / PAGE * PAGE;
    list = list_of(size);
    if (list && *list) {
        b = (char *)*list - HEADER;
        *list = *(void **)*list;
    } else {
        if (size + HEADER > ARENA - (size_t)(arena_next - arena_base))
            return NULL;
        b = arena_next;
        arena_next += size + HEADER;
    }
    *(size_t *)b = size;
    return b + HEADER;
}

void __wrap_free(void *p)
{
    void **list;
    if (!p)
        return;
    list = list_of(*(size_t *)((char *)p - HEADER));
    if (!list)
        return; /* larger than any list: left unused */
    *(void **)p = *list;
    *list = p;
}

void *__wrap_realloc(void *p, size_t n)
{
    size_t old;
    void *q;
    if (!p)
        return __wrap_malloc(n);
    if (!n) {
        __wrap_free(p);
        return NULL;
    }
    old = *(size_t *)((char *)p - HEADER);
    if (n <= old)
        return p;
    q = __wrap_malloc(n);
    if (q) {
        memcpy(q, p, old);
        __wrap_free(p);
    }
    return q;
}

void *__wrap_calloc(size_t k, size_t n)
{
    void *p;
    if (n && k > (size_t)-1 / n)
        return NULL;
    p = __wrap_malloc(k * n);
    if (p)
        memset(p, 0, k * n);
    return p;
}
