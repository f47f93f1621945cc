/* plain-updates.c - see plain-updates.h. */
#include "plain-updates.h"
#include "meta.h"
#include "pathprof-abi.h"
#include "written-pages.h"

#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define PPRT_HAVE_SINGLE_THREADED 1
#endif
#endif

/* Whether a counter of C[0, N) is not 0; the pages W says were never
 * written hold zeros and are not read (written-pages.h). */
static int counted(const uint64_t *c, uint64_t n, const struct pprt_written_pages *w)
{
    for (uint64_t i = 0; i < n; i++) {
        if (!pprt_page_written(w, c + i)) {
            i = pprt_next_page_index(w, c, i) - 1;
            continue;
        }
        if (__atomic_load_n(&c[i], __ATOMIC_RELAXED) != 0)
            return 1;
    }
    return 0;
}

/* The plain array counters of function I of TU: hash-mode functions
 * count atomically, PPP functions in their N array counters. */
static int plain_and_counted(const struct pprt_tu *tu, uint32_t i,
                             const struct pprt_written_pages *w)
{
    struct pprt_meta_fn fn;
    pprt_meta_fn(tu->meta, i, &fn);
    if (fn.flags & (PATHPROF_FN_ATOMIC | PATHPROF_FN_HASH))
        return 0;
    uint64_t n = (fn.flags & PATHPROF_FN_PPP) ? fn.ppp_size : fn.npaths;
    if (fn.counter_offset > tu->ncounters || n > tu->ncounters - fn.counter_offset)
        return 0;
    return counted(tu->counters + fn.counter_offset, n, w);
}

unsigned pprt_plain_updates_tus(const struct pprt_tu *list, char *name, size_t size)
{
    unsigned n = 0;
    struct pprt_written_pages w;
    pprt_written_pages_open(&w);
    for (const struct pprt_tu *tu = list; tu != NULL; tu = tu->next) {
        uint32_t nfuncs = pprt_meta_nfuncs(tu->meta);
        pprt_written_pages_of(&w, tu->counters, tu->ncounters * sizeof *tu->counters);
        for (uint32_t i = 0; i < nfuncs; i++) {
            if (!plain_and_counted(tu, i, &w))
                continue;
            if (n++ == 0)
                pprt_meta_tu_name(tu->meta, tu->meta_len, name, size);
            break;
        }
    }
    pprt_written_pages_close(&w);
    return n;
}

int pprt_went_multithreaded(void)
{
#ifdef PPRT_HAVE_SINGLE_THREADED
    return !__libc_single_threaded;
#else
    return 0;
#endif
}
