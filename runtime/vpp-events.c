/* vpp-events.c - the second counter of VPP (see vpp-events.h).
 *
 * Each thread counts its own events (perf_event_open with pid 0, cpu -1:
 * this thread, on any CPU; user space only), so a path's reading is the
 * events of the thread that ran it.  The counter's first page is mapped
 * for the self-monitoring protocol of linux/perf_event.h: under the
 * page's seqlock, the count is offset + rdpmc(index - 1) sign-extended
 * from pmc_width bits.  When rdpmc is not allowed (cap_user_rdpmc 0) or
 * the event is not on the PMU right now (index 0, multiplexed out), a
 * read(2) of the descriptor gives the count instead: slower, still right.
 * A forked child's thread does not own its parent's counter: pthread_atfork
 * makes it open its own. */
#include "vpp-events.h"
#include "vpp-clock.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint32_t events_kind;     /* what PATHPROF_VPP_COUNTER asked for */
static int events_usable;        /* the probe opened one: threads may try */
static pthread_key_t events_key; /* closes a thread's counter at its exit */

struct counter {
    int fd;
    int state;                   /* 0 not tried, 1 open, -1 failed */
    struct perf_event_mmap_page *page; /* NULL: read(2) only */
};
static __thread struct counter self;

static long page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? p : 4096;
}

static void close_counter(struct counter *c)
{
    if (c->page)
        munmap(c->page, (size_t)page_size());
    if (c->state == 1)
        close(c->fd);
    c->page = NULL;
    c->state = 0;
}

static void at_thread_exit(void *v)
{
    (void)v;
    close_counter(&self);
}

/* In the child of fork: the descriptor counts the parent's thread. */
static void in_child(void)
{
    close_counter(&self);
}

static int open_counter(struct counter *c)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_CACHE_MISSES;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        c->state = -1;
        return -1;
    }
    c->fd = (int)fd;
    c->state = 1;
    void *p = mmap(NULL, (size_t)page_size(), PROT_READ, MAP_SHARED, c->fd, 0);
    c->page = p == MAP_FAILED ? NULL : p;
    pthread_setspecific(events_key, c);
    return 0;
}

int pprt_vpp_events_probe(uint32_t kind, char *why, size_t len)
{
    events_kind = kind;
    if (kind == PPRT_VPP_EVENTS_NONE)
        return -1;
    if (pthread_key_create(&events_key, at_thread_exit) != 0) {
        snprintf(why, len, "no thread key left");
        return -1;
    }
    if (open_counter(&self) != 0) {
        snprintf(why, len, "perf_event_open: %s", strerror(errno));
        return -1;
    }
    pthread_atfork(NULL, NULL, in_child);
    __atomic_store_n(&events_usable, 1, __ATOMIC_RELEASE);
    return 0;
}

static uint64_t read_fd(const struct counter *c, int *ok)
{
    uint64_t v = 0;
    *ok = read(c->fd, &v, sizeof v) == (ssize_t)sizeof v;
    return v;
}

uint64_t pprt_vpp_events_read(int *ok)
{
    struct counter *c = &self;
    if (c->state == 0 && (!__atomic_load_n(&events_usable, __ATOMIC_ACQUIRE) ||
                          open_counter(c) != 0))
        c->state = -1;
    if (c->state != 1) {
        *ok = 0;
        return 0;
    }
#if defined(__x86_64__)
    struct perf_event_mmap_page *pc = c->page;
    if (pc != NULL) {
        for (;;) {
            uint32_t seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
            uint32_t idx = pc->index;
            int64_t offset = pc->offset;
            if (!pc->cap_user_rdpmc || idx == 0)
                break;
            uint32_t lo, hi;
            __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
            uint64_t pmc = (uint64_t)hi << 32 | lo;
            unsigned width = pc->pmc_width;
            if (width > 0 && width < 64)
                pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
            /* x86 keeps loads in order: the kernel's own user-space
             * rdpmc loop needs only a compiler barrier here (and TSan
             * builds refuse atomic_thread_fence). */
            __asm__ volatile("" ::: "memory");
            if (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq) {
                *ok = 1;
                return (uint64_t)offset + pmc;
            }
        }
    }
#endif
    return read_fd(c, ok);
}
