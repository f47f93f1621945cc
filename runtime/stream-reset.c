/* stream-reset.c - stream mode, PATHPROF_ACCUMULATE=1, in a forked child
 * (docs/runtime.md, "fork"): the child's profile is added to its
 * parent's, which counts everything up to the fork, so the child counts
 * only what it runs after it.  Counting mode zeroes the counters
 * (registry.c); here the analyzers hold the counts, and events from
 * before the fork may still wait in the channels.  So, with the analyzer
 * threads restarted and the child's one thread still in its fork handler
 * (nothing new can be published): drain every channel, then have each
 * analyzer thread reset its instances (analyzer-host.h, reset). */
#include "analyzer-host.h"
#include "config.h"
#include "message.h"
#include "stream.h"
#include "stream-tus.h"

#include <unistd.h>

void pprt_stream_reset_in_child_locked(void)
{
    struct pprt_stream *s = &pprt_stream;
    uint32_t asked = 0, refused = 0;

    if (!s->started || s->finished || __atomic_load_n(&s->stopping, __ATOMIC_RELAXED))
        return;
    /* Twice: the first drain publishes the forking thread's unfinished
     * chunk only if an empty one can replace it, which with
     * PATHPROF_POLICY=drop may wait for the analyzers to give one back;
     * the second then publishes it (and drains it). */
    pprt_stream_drain_locked("in a child process just forked");
    pprt_stream_drain_locked("in a child process just forked");
    /* TPP's obvious paths count in memory, not in the analyzers: from 0
     * too (nothing runs in the child but this handler yet). */
    pprt_stream_tus_zero_derived();
    for (uint32_t i = 0; i < s->nthreads; i++) {
        if (!s->an[i].running)
            continue;
        s->an[i].reset_refused = 0;
        __atomic_store_n(&s->an[i].reset_req, 1, __ATOMIC_RELEASE);
        asked++;
    }
    pprt_analyzer_wake_all();
    pthread_mutex_lock(&s->park_lock);
    while (s->nreset < asked)
        pthread_cond_wait(&s->park_cond, &s->park_lock);
    s->nreset = 0;
    for (uint32_t i = 0; i < s->nthreads; i++)
        refused |= s->an[i].reset_refused;
    pthread_mutex_unlock(&s->park_lock);
    /* The process-wide STREAM figures: the parent's losses and blocked
     * time are in its own profile. The producer count stays: it numbers
     * the threads (their ids in the trace and the analyzers' streams), and
     * the forking thread produces here too. */
    if (refused == 0) {
        __atomic_store_n(&s->dropped, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->late, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->resync, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->unknown, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->blocked_ns, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->interrupted, 0, __ATOMIC_RELAXED);
    }
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if (refused & (1u << k))
            pprt_warning("PATHPROF_ACCUMULATE=1: the %s analyzer cannot start from 0 in "
                         "the forked child %ld; its counts in this child's profile include "
                         "the parent's up to the fork (docs/runtime.md, \"fork\")",
                         pp_analyzers[pprt_config.analyzers[k]]->name, (long)getpid());
}
