/* alloc.c - an instrumented allocator, for tests/os-hazards.t: malloc,
 * free, calloc, realloc and the aligned ones over a static arena (a bump
 * allocator behind a spinlock; free only counts), so that glibc,
 * pthread_create and the pathprof runtime itself (its set-up, its analyzer
 * threads, the profile's writing) allocate through instrumented code.
 * Linked into the program, or built as a shared library for LD_PRELOAD. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#define ARENA (64u << 20)
static _Alignas(64) unsigned char arena[ARENA];
static size_t top;
static volatile int lock;

struct hdr { size_t size, pad; };

static void acquire(void)
{
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
        ;
}

static void release(void) { __atomic_store_n(&lock, 0, __ATOMIC_RELEASE); }

static void *bump(size_t size, size_t align)
{
    if (align < 16)
        align = 16;
    acquire();
    size_t at = (top + sizeof(struct hdr) + align - 1) & ~(align - 1);
    if (size > ARENA || at + size > ARENA) {
        release();
        errno = ENOMEM;
        return NULL;
    }
    top = at + size;
    release();
    ((struct hdr *)(arena + at))[-1].size = size;
    return arena + at;
}

void *malloc(size_t n) { return bump(n, 16); }

void free(void *p)
{
    (void)p; /* a bump arena never reuses */
}

void *calloc(size_t a, size_t b)
{
    size_t n;
    if (__builtin_mul_overflow(a, b, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = bump(n, 16);
    if (p)
        memset(p, 0, n);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (p == NULL)
        return malloc(n);
    size_t old = ((struct hdr *)p)[-1].size;
    void *q = malloc(n);
    if (q)
        memcpy(q, p, old < n ? old : n);
    return q;
}

void *memalign(size_t al, size_t n) { return bump(n, al); }
void *aligned_alloc(size_t al, size_t n) { return bump(n, al); }

int posix_memalign(void **out, size_t al, size_t n)
{
    void *p = bump(n, al);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

size_t malloc_usable_size(void *p) { return p ? ((struct hdr *)p)[-1].size : 0; }
