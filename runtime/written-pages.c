/* written-pages.c - see written-pages.h.  Linux's pagemap: one 64-bit
 * entry per virtual page, bit 63 present, bit 62 swapped
 * (Documentation/admin-guide/mm/pagemap.rst); readable without
 * privileges, which hide only the frame numbers. */
#include "written-pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

void pprt_written_pages_open(struct pprt_written_pages *w)
{
    int saved_errno = errno;
    *w = (struct pprt_written_pages){.fd = -1};
    long ps = sysconf(_SC_PAGESIZE);
    w->page = ps > 0 ? (size_t)ps : 4096;
    w->fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    errno = saved_errno;
}

void pprt_written_pages_of(struct pprt_written_pages *w, const void *p, size_t bytes)
{
    w->n = 0; /* until read: all written */
    if (w->fd < 0 || bytes == 0)
        return;
    int saved_errno = errno;
    uintptr_t first = (uintptr_t)p & ~(uintptr_t)(w->page - 1);
    size_t n = ((uintptr_t)p + bytes - first + w->page - 1) / w->page;
    if (n > w->cap) {
        uint64_t *e = realloc(w->entries, n * sizeof *e);
        if (e == NULL) {
            errno = saved_errno;
            return;
        }
        w->entries = e;
        w->cap = n;
    }
    size_t want = n * sizeof *w->entries, got = 0;
    off_t at = (off_t)(first / w->page * sizeof *w->entries);
    while (got < want) {
        ssize_t r = pread(w->fd, (char *)w->entries + got, want - got, at + (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    errno = saved_errno;
    if (got == want) {
        w->first = first;
        w->n = n;
    }
}

void pprt_written_pages_close(struct pprt_written_pages *w)
{
    if (w->fd >= 0) {
        int saved_errno = errno;
        close(w->fd);
        errno = saved_errno;
    }
    free(w->entries);
    *w = (struct pprt_written_pages){.fd = -1};
}
