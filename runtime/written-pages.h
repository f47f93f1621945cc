/* written-pages.h - which pages of a counter array were ever written.
 *
 * Why: a counting-mode process scans all its array counters at exit to
 * write the non-zero ones, and most pages of a large array were never
 * touched: reading each of them faults in the zero page.  libjpeg-turbo's
 * programs have 5 MB of counters; the scan took 1,250 of a 12 ms
 * process's 1,767 page faults (docs/performance.md, "The exit's scan of
 * the counters").  The kernel says per page, in /proc/self/pagemap,
 * whether it is present or swapped; a page that is neither was never
 * written since the program was loaded (or forked from a process where
 * it was neither), so it holds its initial contents: zeros, for counters,
 * which start at 0 in .bss (or in .data under -fno-zero-initialized-in-bss,
 * where a never-written page is the file's zeros). */
#ifndef PATHPROF_WRITTEN_PAGES_H
#define PATHPROF_WRITTEN_PAGES_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* A page map entry's bits: the page is in memory; it is in swap. */
#define PPRT_PAGEMAP_PRESENT (1ull << 63)
#define PPRT_PAGEMAP_SWAPPED (1ull << 62)

struct pprt_written_pages {
    int fd;            /* /proc/self/pagemap, or -1: every page counts as written */
    size_t page;       /* the page size */
    uintptr_t first;   /* the first page of the range asked last */
    size_t n;          /* its pages; 0 when they could not be read */
    uint64_t *entries; /* their N page map entries */
    size_t cap;
};

/* Opens the kernel's page map (fails quietly: then nothing is skipped). */
void pprt_written_pages_open(struct pprt_written_pages *w);
/* Reads the entries of the pages of [P, P + BYTES); on any failure (no
 * page map, no memory) every page counts as written. */
void pprt_written_pages_of(struct pprt_written_pages *w, const void *p, size_t bytes);
/* Whether the page holding ADDR may have been written: outside the range
 * asked last (or none could be read), yes. */
static inline int pprt_page_written(const struct pprt_written_pages *w, const void *addr)
{
    size_t i = ((uintptr_t)addr - w->first) / w->page;
    return i >= w->n || (w->entries[i] & (PPRT_PAGEMAP_PRESENT | PPRT_PAGEMAP_SWAPPED)) != 0;
}
/* The index of the first counter of C after I's page. */
static inline uint64_t pprt_next_page_index(const struct pprt_written_pages *w, const uint64_t *c,
                                            uint64_t i)
{
    uintptr_t end_of_page = ((uintptr_t)(c + i) | (uintptr_t)(w->page - 1)) + 1;
    return i + (end_of_page - (uintptr_t)(c + i)) / sizeof *c;
}
void pprt_written_pages_close(struct pprt_written_pages *w);

#pragma GCC visibility pop

#endif
