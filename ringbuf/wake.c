/* wake.c - the futex event count (see wake.h). */
#include "wake.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint32_t pp_wake_prepare(struct pp_wake *w)
{
    __atomic_fetch_add(&w->sleepers, 1, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&w->seq, __ATOMIC_SEQ_CST);
}

void pp_wake_cancel(struct pp_wake *w)
{
    __atomic_fetch_sub(&w->sleepers, 1, __ATOMIC_RELAXED);
}

void pp_wake_wait(struct pp_wake *w, uint32_t seq, long timeout_ns)
{
    struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
    int saved = errno; /* called from the probe's slow path */
    /* Private futex: the word never leaves this process. */
    syscall(SYS_futex, &w->seq, FUTEX_WAIT_PRIVATE, seq, &ts, NULL, 0);
    errno = saved;
    __atomic_fetch_sub(&w->sleepers, 1, __ATOMIC_RELAXED);
}

void pp_wake_signal(struct pp_wake *w)
{
    /* A read-modify-write rather than a fence plus a load: both sides then
     * order themselves on SLEEPERS itself (if prepare's increment comes
     * later, it reads from this one and sees COND), which ThreadSanitizer
     * understands and fences it does not. */
    if (__atomic_fetch_add(&w->sleepers, 0, __ATOMIC_SEQ_CST) == 0)
        return;
    __atomic_fetch_add(&w->seq, 1, __ATOMIC_SEQ_CST);
    int saved = errno;
    syscall(SYS_futex, &w->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    errno = saved;
}
