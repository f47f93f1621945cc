/* analyzer-thread.c - the analyzer threads: each walks its pool's channels
 * (an RCU read-side section per pass), feeds every full chunk to the
 * selected analyzers, gives the chunk back zeroed, ends a producer's
 * stream when its channel is closed and drained, and sleeps when there is
 * nothing to do (docs/streaming.md, sections 4-6). */
#include "analyzer-host.h"
#include "async-signals.h"
#include "cpu-list.h"
#include "live-threads.h"
#include "message.h"
#include "rcu.h"
#include "stream.h"
#include "thread-start.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Chunks taken from one channel per pass: a busy producer cannot starve
 * the others of its analyzer. */
#define BUDGET 16
/* Idle after work, an analyzer polls its channels this long before it
 * sleeps: a busy producer's next chunk usually comes sooner, and a futex
 * wake-up costs both threads far more than the polling (on a VM the
 * wake-up latency alone can exceed the slack of a producer's chunks: with
 * 0.1 ms, bzip2's producer was blocked 3.3 s of a 6.5 s run; with 2 ms,
 * 0.23 s of 3.0 s - docs/performance.md).  The analyzer owns its core, so
 * the spin costs the program nothing.  An analyzer that had nothing to do
 * for longer sleeps at once. */
#define IDLE_SPIN_NS 2000000
#define SLEEP_NS (10 * 1000 * 1000L)
#define LAST_THREAD_CHECK_NS (100 * 1000 * 1000ull)

static __thread struct pprt_analyzer *self
    __attribute__((tls_model("initial-exec")));

struct pprt_analyzer *pprt_analyzer_self(void) { return self; }

static const struct pp_analyzer *kind(uint32_t k)
{
    return pp_analyzers[pprt_config.analyzers[k]];
}

static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

static void begin_stream(struct pprt_analyzer *an, struct pprt_channel_info *info)
{
    info->runs = (struct pprt_run_state){0};
    info->runs_counted = 0;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        info->stream[k] = kind(k)->thread_begin(an->inst[k], info->tid);
    __atomic_store_n(&info->begun, 1, __ATOMIC_RELEASE); /* read unlocked in service() */
}

static void end_stream(struct pprt_analyzer *an, struct pprt_channel_info *info)
{
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        kind(k)->thread_end(an->inst[k], info->stream[k]);
        info->stream[k] = NULL;
    }
    __atomic_store_n(&info->begun, 0, __ATOMIC_RELEASE);
}

/* The test hooks' sleeps (PATHPROF_TEST_ANALYZER_DELAY_NS, _PAUSE_NS):
 * NS nanoseconds, at most a second. */
static void test_sleep(uint64_t ns)
{
    struct timespec ts = {0, (long)ns};
    if (ns >= 1000000000u)
        ts = (struct timespec){1, 0};
    nanosleep(&ts, NULL);
}

struct expanded {
    struct pprt_analyzer *an;
    struct pprt_channel_info *info;
    uint64_t events;   /* words fed, the RUN markers expanded */
};

/* The analyzers that do not read RUN markers, fed the expanded stream. */
static void consume_expanded(void *ctx, const uint64_t *ev, size_t n)
{
    struct expanded *x = ctx;
    x->events += n;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if (!kind(k)->reads_runs)
            kind(k)->consume(x->an->inst[k], x->info->stream[k], ev, n);
}

static void consume(struct pprt_analyzer *an, struct pprt_channel_info *info,
                    const uint64_t *ev, uint32_t n)
{
    /* CPU time, not wall time: on a loaded machine the analyzer's rate
     * per core must not count the time it was not running. */
    uint64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    int expand = 0;
    uint64_t counted = UINT64_MAX;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        if (kind(k)->reads_runs) {
            kind(k)->consume(an->inst[k], info->stream[k], ev, n);
            if (counted == UINT64_MAX && kind(k)->chunk_events)
                counted = kind(k)->chunk_events(an->inst[k], info->stream[k]);
        } else {
            expand = 1;
        }
    }
    /* The stream's events count a RUN pair as the events it stands for,
     * as a trace holds them. */
    uint64_t events;
    if (expand) {
        struct expanded x = {an, info, 0};
        pprt_run_expand(&info->runs, ev, n, an->run_buf, PPRT_RUN_BUF_WORDS, consume_expanded, &x);
        events = x.events;
    } else if (counted != UINT64_MAX && !info->runs_counted) {
        events = counted;
    } else {
        /* No analyzer counted this stream (or one stopped knowing):
         * from its first chunk on, so that the split pairs' state here
         * is the stream's. */
        info->runs_counted = 1;
        events = pprt_run_count(&info->runs, ev, n);
    }
    uint64_t dt = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    an->busy_ns += dt;
    /* For producers deciding whether to help (producer.c): how long a
     * chunk takes, and that one more was done (CHUNKS has one writer, the
     * holder of the consume lock; producers read it). */
    uint64_t avg = __atomic_load_n(&an->chunk_ns, __ATOMIC_RELAXED);
    __atomic_store_n(&an->chunk_ns, avg - avg / 8 + dt / 8, __ATOMIC_RELAXED);
    if (pprt_config.test_delay_ns)
        test_sleep(pprt_config.test_delay_ns);
    an->events += events;
    __atomic_store_n(&an->chunks, an->chunks + 1, __ATOMIC_RELAXED);
}

/* The channel is closed (or abandoned at exit) and FULL is empty: its last
 * events, then the end of the producer's stream, then the channel goes
 * back to the pool. */
static void finish_channel(struct pprt_analyzer *an, struct pp_channel *ch,
                           uint32_t state, int abandoned)
{
    struct pprt_channel_info *info = ch->extra;
    uint64_t *tail = state == PP_CH_CLOSED ? ch->tail : NULL;
    if (tail) {
        consume(an, info, tail, ch->tail_n);
        if (ch->tail_owned)
            free(tail);
        ch->tail = NULL;
    }
    end_stream(an, info);
    if (abandoned || tail) {
        /* Its thread still runs (exit flush): never reused. */
        info->finished = 1;
        return;
    }
    if (!pp_channel_valid(ch)) {
        static int said;
        if (!said++)
            pprt_error("internal error: the buffers of producer thread %u are "
                       "inconsistent when it ended; not reusing them", info->tid);
        info->finished = 1;
        return;
    }
    pp_channel_set_state(ch, PP_CH_FREE);
    pp_pool_put(&an->pool, ch);
}

/* The consume lock (pprt_analyzer.consuming): taken by the analyzer
 * thread for each pass and by a helping producer, never waited for. */
static int consume_trylock(struct pprt_analyzer *an)
{
    int unlocked = 0;
    return __atomic_compare_exchange_n(&an->consuming, &unlocked, 1, 0, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}

static void consume_unlock(struct pprt_analyzer *an)
{
    __atomic_store_n(&an->consuming, 0, __ATOMIC_RELEASE);
}

/* With the consume lock held: begins CH's stream if need be and consumes
 * up to BUDGET of its full chunks, in order; returns how many, and says
 * in *MORE whether the budget ran out first. */
static int drain(struct pprt_analyzer *an, struct pp_channel *ch, int *more)
{
    struct pprt_channel_info *info = ch->extra;
    if (!info->begun)
        begin_stream(an, info);
    int did = 0;
    struct pp_chunk *c = NULL;
    while (did < BUDGET && (c = pp_channel_take_full(ch)) != NULL) {
        uint32_t n = c->n;
        consume(an, info, c->ev, n);
        pp_channel_give_back(ch, c, n);
        pp_channel_count_consumed(ch);
        did++;
    }
    *more = c != NULL;
    return did;
}

/* service() with the consume lock held. */
static int service_locked(struct pprt_analyzer *an, struct pp_channel *ch, uint32_t state,
                          int abandoned, int *open)
{
    int more;
    int did = drain(an, ch, &more);
    if (more || (state != PP_CH_CLOSED && !abandoned))
        return did; /* more to do, or the producer is still at work */
    finish_channel(an, ch, state, abandoned);
    (*open)--;
    return did + 1;
}

/* One visit of one channel; returns how much work it did, and counts in
 * *OPEN the channels this analyzer has not finished. */
static int service(struct pprt_analyzer *an, struct pp_channel *ch, int *open)
{
    /* Loaded before draining FULL: a channel seen CLOSED here has no chunk
     * coming after the ones the loop below finds. */
    uint32_t state = pp_channel_state(ch);
    struct pprt_channel_info *info = ch->extra;
    if (state == PP_CH_FREE || info->finished)
        return 0;
    int abandoned = __atomic_load_n(&info->abandoned, __ATOMIC_ACQUIRE);
    (*open)++;
    /* The consume lock only while there is something to do: an analyzer
     * that polls its channels holds it for nothing most of the time, and a
     * producer would then rarely find it free when the analyzer lost its
     * CPU. */
    if (__atomic_load_n(&info->begun, __ATOMIC_ACQUIRE) && state != PP_CH_CLOSED && !abandoned &&
        !pp_channel_has_full(ch))
        return 0;
    if (!consume_trylock(an))
        return 0; /* a producer consumes its chunks itself: nothing for us */
    int did = service_locked(an, ch, state, abandoned, open);
    consume_unlock(an);
    return did;
}

static int pass(struct pprt_analyzer *an, int *open)
{
    int did = 0;
    *open = 0;
    pprt_rcu_read_lock();
    for (struct pp_channel *ch = pp_pool_first(&an->pool); ch; ch = pp_pool_next(ch))
        did += service(an, ch, open);
    pprt_rcu_read_unlock();
    return did;
}

/* Why a producer may consume: on a loaded machine the analyzer thread is
 * often not running when its producer fills the last chunk (it waits for
 * its CPU behind other processes, or for a futex wake-up), and the
 * producer then slept for most of the run (lua at load 4: blocked 1.1 s of
 * a 1.2 s run while its analyzer needed 0.12 s of CPU).  The analyzer's
 * instances are used by one thread at a time (the consume lock), so the
 * producer runs exactly the analyzer's code on its own chunks, in order:
 * the same profile.  It holds the stream mutex meanwhile instead of
 * liburcu's read lock (application threads are not registered readers):
 * writers of what analyzers read (TU registration, dlclose) hold that
 * mutex across their grace periods, so none is in progress.  Fork, exit
 * and a forked child's reset also hold it or set flags checked here. */
int pprt_analyzer_help(struct pp_channel *ch)
{
    struct pprt_stream *s = &pprt_stream;
    struct pprt_channel_info *info = ch->extra;
    struct pprt_analyzer *an = &s->an[info->analyzer];
    /* Consume lock, stream mutex, an instance half updated: no handler
     * may run in there (async-signals.h). */
    sigset_t old;
    int blocked = pprt_block_async_signals(&old);
    if (!consume_trylock(an)) {
        pprt_restore_signals(blocked, &old);
        return 0;
    }
    int did = 0;
    if (pthread_mutex_trylock(&s->mutex) == 0) {
        if (!__atomic_load_n(&s->stopping, __ATOMIC_RELAXED) &&
            !__atomic_load_n(&s->park, __ATOMIC_ACQUIRE) &&
            !__atomic_load_n(&an->reset_req, __ATOMIC_ACQUIRE) &&
            pp_channel_state(ch) == PP_CH_ACTIVE && !info->finished) {
            int more;
            did = drain(an, ch, &more);
            an->helped += (uint64_t)did;
        }
        pthread_mutex_unlock(&s->mutex);
    }
    consume_unlock(an);
    pprt_restore_signals(blocked, &old);
    return did;
}

/* fork is in progress in another thread: wait between chunks, outside
 * liburcu's registry (the child gets new threads; see stream-control.c). */
static void park(struct pprt_analyzer *an)
{
    struct pprt_stream *s = &pprt_stream;
    /* Work this analyzer handed to threads of an analyzer's own must be
     * done before fork: the child would inherit it half done. */
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if (kind(k)->quiesce)
            kind(k)->quiesce(an->inst[k]);
    pprt_rcu_unregister();
    pthread_mutex_lock(&s->park_lock);
    s->nparked++;
    pthread_cond_broadcast(&s->park_cond);
    while (__atomic_load_n(&s->park, __ATOMIC_ACQUIRE))
        pthread_cond_wait(&s->park_cond, &s->park_lock);
    s->nparked--;
    pthread_mutex_unlock(&s->park_lock);
    pprt_rcu_register();
}

/* A forked child accumulating asked (stream-reset.c): every event from
 * before the fork is consumed and none from after it is published yet (the
 * child's one thread waits in its fork handler), so each instance forgets
 * its counts here, then each stream it has begun and not ended. */
static void reset_counts(struct pprt_analyzer *an)
{
    struct pprt_stream *s = &pprt_stream;
    uint32_t refused = 0;
    pprt_rcu_read_lock();
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        const struct pp_analyzer *a = kind(k);
        if (a->reset == NULL || an->inst[k] == NULL || a->reset(an->inst[k]) != 0) {
            refused |= 1u << k;
            continue;
        }
        if (a->reset_stream == NULL)
            continue;
        for (struct pp_channel *ch = pp_pool_first(&an->pool); ch; ch = pp_pool_next(ch)) {
            struct pprt_channel_info *info = ch->extra;
            if (info->begun && !info->finished)
                a->reset_stream(an->inst[k], info->stream[k]);
        }
    }
    pprt_rcu_read_unlock();
    /* This thread's STREAM figures start over too: the parent's profile
     * has the events consumed before the fork, and the accumulated sum
     * counted them once more per child (dash: 21.6 G events for 88.9 M
     * paths). An instance that refused keeps the parent's counts: so do
     * the figures. */
    if (refused == 0) {
        an->events = 0;
        an->busy_ns = 0;
        __atomic_store_n(&an->chunks, 0, __ATOMIC_RELAXED);
    }
    pthread_mutex_lock(&s->park_lock);
    an->reset_refused = refused;
    __atomic_store_n(&an->reset_req, 0, __ATOMIC_RELAXED);
    s->nreset++;
    pthread_cond_broadcast(&s->park_cond);
    pthread_mutex_unlock(&s->park_lock);
}

/* Analyzer 0, idle: if the program's threads are all gone (main called
 * pthread_exit and the others ended), end the process as glibc would have
 * without us. */
static void exit_if_last(void)
{
    struct pprt_stream *s = &pprt_stream;
    /* The analyzer threads, then the threads analyzers run themselves
     * (16 at most per instance: PATHPROF_KSF_WORKERS). */
    enum { MAX = PPRT_MAX_ANALYZER_THREADS * (1 + 16 * PPRT_MAX_ANALYZERS) };
    static pid_t tids[MAX]; /* only analyzer 0 comes here */
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nthreads; i++)
        tids[n++] = __atomic_load_n(&s->an[i].tid, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < s->nthreads; i++)
        for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
            if (kind(k)->threads)
                n += kind(k)->threads(s->an[i].inst[k], tids + n, MAX - n);
    if (!__atomic_load_n(&s->stopping, __ATOMIC_RELAXED) &&
        pprt_only_runtime_threads_left(tids, n))
        exit(0);
}

void pprt_analyzer_run(struct pprt_analyzer *an)
{
    struct pprt_stream *s = &pprt_stream;
    uint64_t idle_since = 0; /* 0: it just did some work */
    uint64_t last_check = now_ns();
    for (;;) {
        if (__atomic_load_n(&s->park, __ATOMIC_ACQUIRE)) {
            park(an);
            continue;
        }
        if (__atomic_load_n(&an->reset_req, __ATOMIC_ACQUIRE)) {
            reset_counts(an);
            continue;
        }
        int stop = __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
        if (stop)
            PP_HB_ACQUIRE(&s->stop);
        int open;
        int did = pass(an, &open);
        if (stop && open == 0)
            return;
        if (did || stop) {
            idle_since = 0;
            /* Tests: an analyzer that loses its CPU after each pass with
             * work (outside the consume lock), as on a loaded machine, so
             * that producers help (pprt_analyzer_help). */
            if (did && pprt_config.test_pause_ns)
                test_sleep(pprt_config.test_pause_ns);
            continue;
        }
        uint64_t t = now_ns();
        if (idle_since == 0)
            idle_since = t;
        if (t - idle_since < IDLE_SPIN_NS) {
            ck_pr_stall();
            continue;
        }
        uint32_t seq = pp_wake_prepare(&an->wake);
        if (__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&s->park, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&an->reset_req, __ATOMIC_ACQUIRE) || pass(an, &open)) {
            pp_wake_cancel(&an->wake);
            idle_since = 0;
            continue;
        }
        pp_wake_wait(&an->wake, seq, SLEEP_NS);
        /* Woken by a producer: poll again after the next work, not now;
         * timed out: sleep again without polling. */
        idle_since = now_ns() - IDLE_SPIN_NS;
        if (an->index == 0 && now_ns() - last_check > LAST_THREAD_CHECK_NS) {
            last_check = now_ns();
            exit_if_last();
        }
    }
}

void pprt_analyzer_wake_all(void)
{
    for (uint32_t i = 0; i < pprt_stream.nthreads; i++)
        pp_wake_signal(&pprt_stream.an[i].wake);
}

static void *analyzer_main(void *arg)
{
    struct pprt_analyzer *an = arg;
    self = an;
    __atomic_store_n(&an->tid, gettid(), __ATOMIC_RELEASE);
    pprt_rcu_register();
    pprt_analyzer_run(an);
    pprt_rcu_unregister();
    return NULL;
}

static int create(struct pprt_analyzer *an, int cpu)
{
    char name[16];
    snprintf(name, sizeof name, "pathprof-an%u", an->index);
    return pprt_thread_start(&an->thread, cpu, analyzer_main, an, name);
}

int pprt_analyzer_start(struct pprt_analyzer *an)
{
    int cpu = pprt_config.ncpus       ? pprt_config.cpus[an->index % pprt_config.ncpus]
              : pprt_config.cpus_none ? -1
                                      : pprt_default_cpu();
    an->cpu = cpu;
    /* Atomic: analyzer 0, already running, reads every tid (exit_if_last)
     * while the others are still being started. */
    __atomic_store_n(&an->tid, 0, __ATOMIC_RELAXED);
    int err = create(an, cpu);
    if (err != 0 && cpu >= 0) {
        /* The CPU left the affinity mask since the variable was read. */
        pprt_warning("cannot pin analyzer thread %u to CPU %d (PATHPROF_CPUS); "
                     "running it unpinned", an->index, cpu);
        an->cpu = -1;
        err = create(an, -1);
    }
    if (err != 0)
        return -1;
    an->running = 1;
    return 0;
}
