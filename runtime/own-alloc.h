/* own-alloc.h - the runtime's own memory comes from glibc's allocator,
 * never from the program's (forced into every object of libpathprof by
 * the GNUmakefile: -include runtime/own-alloc.h).
 *
 * Why: a program may define malloc and free itself, in instrumented code
 * (docs/runtime.md, "A program's own allocator").  The analyzers allocate
 * as they go (a count map growing, a forest's nodes, a VPP histogram), so
 * an analyzer thread would call the program's allocator, whose lock a
 * producer thread may hold while it waits for that very analyzer to give
 * a chunk back: both wait forever (tests/os-hazards.t's allocator under
 * blpp hung so in a loaded CI run; under vpp=yes 11 runs in 15).  glibc's
 * __libc_malloc family is its own allocator whatever the program defines.
 * Every allocation and free of the runtime goes through the macros below,
 * so the two allocators' blocks never mix: what libc allocates for us and
 * frees itself (fopen's FILE, opendir's DIR) stays libc's business, and
 * strdup and strndup, whose result we free, are our own here.
 *
 * Not under ASan or TSan: their allocators must see every block (TSan
 * resets its shadow of a block at malloc and free, and ASan checks every
 * free against its own mallocs), and a program built with them runs
 * their allocator, not one of its own. */
#ifndef PATHPROF_OWN_ALLOC_H
#define PATHPROF_OWN_ALLOC_H

#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t size);

static inline char *pprt_own_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = __libc_malloc(len + 1);
    if (d != NULL) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static inline int pprt_own_posix_memalign(void **p, size_t align, size_t size)
{
    void *m = __libc_memalign(align, size);
    if (m == NULL)
        return 12; /* ENOMEM */
    *p = m;
    return 0;
}

#define malloc(n) __libc_malloc(n)
#define calloc(n, s) __libc_calloc((n), (s))
#define realloc(p, n) __libc_realloc((p), (n))
#define free(p) __libc_free(p)
#define aligned_alloc(a, n) __libc_memalign((a), (n))
#define posix_memalign(p, a, n) pprt_own_posix_memalign((p), (a), (n))
#define strndup(s, n) pprt_own_strndup((s), (n))
#define strdup(s) pprt_own_strndup((s), (size_t)-1)
#endif

#endif
