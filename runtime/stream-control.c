/* stream-control.c - starting stream mode, attaching producers, and the
 * moments when every buffer must be accounted for: exit (and exec),
 * fork, dlclose (docs/streaming.md, section 5). */
#include "analyzer-host.h"
#include "hb-annotate.h"
#include "message.h"
#include "pathprof-abi.h"
#include "stream-tus.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pprt_stream pprt_stream = {
    .mutex = PTHREAD_MUTEX_INITIALIZER,
    .park_lock = PTHREAD_MUTEX_INITIALIZER,
    .park_cond = PTHREAD_COND_INITIALIZER,
};

void pprt_stream_lock(void) { pthread_mutex_lock(&pprt_stream.mutex); }
void pprt_stream_unlock(void) { pthread_mutex_unlock(&pprt_stream.mutex); }

int pprt_stream_used(void)
{
    return pprt_stream.started || pprt_stream_tus_total() > 0;
}

#define FOR_EACH_CHANNEL(ch)                                                  \
    for (uint32_t a_ = 0; a_ < pprt_stream.nthreads; a_++)                    \
        for (struct pp_channel *ch = pp_pool_first(&pprt_stream.an[a_].pool); \
             ch; ch = pp_pool_next(ch))

static const struct pp_analyzer *kind(uint32_t k)
{
    return pp_analyzers[pprt_config.analyzers[k]];
}

static void sleep_ns(long ns)
{
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&ts, NULL);
}

static int open_instances(void **inst)
{
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if ((inst[k] = kind(k)->open()) == NULL) {
            pprt_error("out of memory opening analyzer %s (PATHPROF_ANALYZER); "
                       "stream mode is off", kind(k)->name);
            return -1;
        }
    return 0;
}

/* libpathprof.so unloaded (it came in with a dlopen'ed library): threads
 * still alive must not call a key destructor whose code is gone.  At
 * process exit this is harmless: the profile was written before. */
__attribute__((destructor)) static void forget_key(void)
{
    if (pprt_stream.key_ok) {
        pprt_stream.key_ok = 0;
        pthread_key_delete(pprt_stream.key);
    }
}

/* The producer side's callbacks (stream.h); until a producer attaches
 * there is no producer thread to drive, and these say so. */
static struct pp_channel *no_channel(void) { return NULL; }
static int not_in_slow_path(void) { return 0; }
static void nothing(void) {}
static const struct pprt_producer_ops no_producer = {
    .channel = no_channel,
    .in_slow_path = not_in_slow_path,
    .detach_self = nothing,
    .flush_self = nothing,
};
/* Set by every attach (always to the same table), read at exit, exec,
 * fork and dlclose: atomic, as those may run in a thread that never
 * attached. */
static const struct pprt_producer_ops *producer_ops = &no_producer;

static const struct pprt_producer_ops *producer(void)
{
    return __atomic_load_n(&producer_ops, __ATOMIC_ACQUIRE);
}

/* Under the stream mutex: starts the analyzer threads (once).  Returns 0,
 * or -1 when stream mode cannot run (message printed). */
static int start_locked(void)
{
    static int failed;
    struct pprt_stream *s = &pprt_stream;
    if (s->started)
        return 0;
    if (failed)
        return -1;
    failed = 1; /* until proven otherwise: say why once, not per thread */
    pp_hb_init();
    uint32_t n = pprt_config.analyzer_threads;
    if (pthread_key_create(&s->key, producer()->thread_exit) != 0) {
        pprt_error("cannot create a thread-specific key; stream mode is off "
                   "(every event is counted late)");
        return -1;
    }
    s->key_ok = 1;
    if ((s->an = calloc(n, sizeof *s->an)) == NULL) {
        pprt_error("out of memory starting %u analyzer threads (PATHPROF_ANALYZERS); "
                   "stream mode is off", n);
        return -1;
    }
    s->nthreads = n;
    for (uint32_t i = 0; i < n; i++) {
        struct pprt_analyzer *an = &s->an[i];
        an->index = i;
        pp_pool_init(&an->pool);
        if (open_instances(an->inst) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (pprt_analyzer_start(&s->an[i]) != 0) {
            pprt_error("cannot start analyzer thread %u of %u (PATHPROF_ANALYZERS); "
                       "stream mode is off", i + 1, n);
            /* Stop those already started (they have no channel): none may
             * outlive the library's code. */
            s->nthreads = i;
            __atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
            pprt_analyzer_wake_all();
            for (uint32_t j = 0; j < i; j++) {
                pthread_join(s->an[j].thread, NULL);
                s->an[j].running = 0;
            }
            return -1;
        }
    s->started = 1;
    failed = 0;
    return 0;
}

struct pp_channel *pprt_stream_attach(const struct pprt_producer_ops *ops)
{
    struct pprt_stream *s = &pprt_stream;
    static int map_failed;
    pprt_stream_lock();
    __atomic_store_n(&producer_ops, ops, __ATOMIC_RELEASE);
    if (__atomic_load_n(&s->stopping, __ATOMIC_RELAXED) || s->finished ||
        start_locked() != 0) {
        pprt_stream_unlock();
        return NULL;
    }
    uint32_t a = s->round_robin++ % s->nthreads;
    struct pp_channel *ch = pp_pool_take(&s->an[a].pool, pprt_config.chunk_events,
                                         pprt_config.chunks_per_thread,
                                         sizeof(struct pprt_channel_info));
    if (ch == NULL) {
        if (!map_failed++)
            pprt_error("cannot map the event buffers of a new thread (%u chunks of "
                       "PATHPROF_CHUNK=%u events); its events are counted late",
                       pprt_config.chunks_per_thread, pprt_config.chunk_events);
        pprt_stream_unlock();
        return NULL;
    }
    struct pprt_channel_info *info = ch->extra;
    info->tid = (uint32_t)__atomic_add_fetch(&s->producers, 1, __ATOMIC_RELAXED);
    info->analyzer = a;
    ch->current = pp_channel_take_empty(ch); /* a FREE channel has them all */
    ch->tail = NULL;
    ch->tail_n = 0;
    pp_channel_set_state(ch, PP_CH_ACTIVE);
    pthread_setspecific(s->key, ch);
    pprt_stream_unlock();
    return ch;
}

/* Lock CH, giving up after a few seconds: its holder may be a thread that
 * will never release it (stopped in a debugger, or the caller itself
 * interrupted by a signal). */
static int lock_patiently(struct pp_channel *ch)
{
    for (long waited = 0; waited < 5000000000L; waited += 100000) {
        if (pp_channel_trylock(ch))
            return 1;
        sleep_ns(100000);
    }
    return 0;
}

/* A still-running thread's chunk at exit: its events so far (the chunk's
 * non-zero prefix) become the channel's tail, copied, since the thread may
 * go on writing there; the channel is never reused. */
static void take_tail(struct pp_channel *ch)
{
    struct pp_chunk *c = ch->current;
    uint64_t *copy = malloc((size_t)ch->chunk_events * sizeof *copy);
    ch->tail_n = pp_chunk_scan(ch, c, copy);
    ch->tail = copy ? copy : c->ev; /* out of memory: read it in place */
    ch->tail_owned = copy != NULL;
}

/* Exit: no thread will publish again.  The calling thread publishes its
 * own chunk; a thread still running hands over what it wrote so far
 * (take_tail), and anything it writes later is late. */
static void close_all_channels(void)
{
    struct pp_channel *me = producer()->channel();
    FOR_EACH_CHANNEL(ch) {
        if (pp_channel_state(ch) == PP_CH_FREE)
            continue; /* and stays so: attach needs the mutex we hold */
        struct pprt_channel_info *info = ch->extra;
        if (ch == me && producer()->in_slow_path() && ch->current == NULL) {
            /* A handler interrupted this thread while it waited for an
             * empty chunk (producer.c, swap_chunk): all it wrote is
             * published, and the wait will not resume. */
            __atomic_store_n(&info->abandoned, 1, __ATOMIC_RELEASE);
            continue;
        }
        if ((ch == me && producer()->in_slow_path()) || !lock_patiently(ch)) {
            pprt_error("producer thread %u kept its event buffer locked at exit; "
                       "its unpublished events are not in the profile", info->tid);
            /* They must not go unsaid in the STREAM section (it said exact
             * after an exit() from a handler that interrupted the slow
             * path, tests/os-hazards.t): the calling thread's current
             * chunk is frozen under its handler, count what it holds;
             * another thread's is unknown, count one, as for a stale
             * cursor. */
            uint64_t lost = 1;
            if (ch == me && ch->current != NULL) {
                uint32_t n = producer()->fill(ch, ch->current);
                lost = n > 0 ? n : 1;
            }
            __atomic_fetch_add(&pprt_stream.late, lost, __ATOMIC_RELAXED);
            __atomic_store_n(&info->abandoned, 1, __ATOMIC_RELEASE);
            continue;
        }
        if (pp_channel_state(ch) == PP_CH_ACTIVE) {
            if (ch == me) {
                uint32_t n = producer()->fill(ch, ch->current);
                pprt_check_handler_notes(ch->current, n);
                pp_channel_publish(ch, ch->current, n);
                ch->current = NULL;
            } else if (ch->current != NULL) {
                take_tail(ch);
            } /* else: its thread gave up waiting when the flush began
                 (wait_empty); all it wrote is published */
            pp_channel_set_state(ch, PP_CH_CLOSED);
        }
        pp_channel_unlock(ch);
    }
    if (me)
        producer()->detach_self();
}

/* PATHPROF_VERBOSE: how much analysis the producers did themselves
 * (analyzer-thread.c, pprt_analyzer_help). */
static void say_helped(void)
{
    struct pprt_stream *s = &pprt_stream;
    uint64_t chunks = 0, helped = 0;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        chunks += s->an[i].chunks;
        helped += s->an[i].helped;
    }
    if (helped)
        pprt_info("producers consumed %llu of %llu chunks themselves (their analyzer thread "
                  "was not running)", (unsigned long long)helped, (unsigned long long)chunks);
}

static void merge_instances(void)
{
    struct pprt_stream *s = &pprt_stream;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        s->merged[k] = s->an[0].inst[k];
        for (uint32_t i = 1; i < s->nthreads; i++) {
            kind(k)->merge(s->merged[k], s->an[i].inst[k]);
            kind(k)->close(s->an[i].inst[k]);
            s->an[i].inst[k] = NULL;
        }
        s->an[0].inst[k] = NULL;
    }
}

void pprt_stream_finish(void)
{
    struct pprt_stream *s = &pprt_stream;
    pprt_stream_lock();
    if (s->finished)
        return;
    __atomic_store_n(&s->stopping, 1, __ATOMIC_RELAXED);
    s->finished = 1;
    if (!s->started) {
        /* Stream TUs but no event: their sections, all zero, still belong
         * in the profile (as in counting mode). */
        if (pprt_stream_tus_total() > 0 && open_instances(s->merged) != 0)
            memset(s->merged, 0, sizeof s->merged);
        return;
    }
    close_all_channels();
    PP_HB_RELEASE(&s->stop);
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
    pprt_analyzer_wake_all();
    struct pprt_analyzer *self = pprt_analyzer_self();
    if (self)
        pprt_analyzer_run(self); /* exit() from an analyzer thread */
    for (uint32_t i = 0; i < s->nthreads; i++)
        if (&s->an[i] != self && s->an[i].running) {
            pthread_join(s->an[i].thread, NULL);
            s->an[i].running = 0;
        }
    say_helped();
    merge_instances();
}

void pprt_stream_finish_done(void)
{
    struct pprt_stream *s = &pprt_stream;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if (s->merged[k]) {
            kind(k)->close(s->merged[k]);
            s->merged[k] = NULL;
        }
    pprt_stream_unlock();
}

void pprt_stream_drain_locked(const char *why)
{
    struct pprt_stream *s = &pprt_stream;
    if (!s->started || __atomic_load_n(&s->stopping, __ATOMIC_RELAXED))
        return;
    producer()->flush_self();
    FOR_EACH_CHANNEL(ch) {
        struct pprt_channel_info *info = ch->extra;
        info->drain_target = __atomic_load_n(&ch->published, __ATOMIC_ACQUIRE);
    }
    long pause = 20000, waited = 0;
    for (;;) {
        int done = 1;
        FOR_EACH_CHANNEL(ch) {
            struct pprt_channel_info *info = ch->extra;
            if (__atomic_load_n(&ch->consumed, __ATOMIC_ACQUIRE) < info->drain_target)
                done = 0;
        }
        if (done)
            return;
        if (waited > 30000000000L) {
            pprt_error("the analyzers did not consume the buffered events within "
                       "30 s %s; continuing without them", why);
            return;
        }
        pprt_analyzer_wake_all();
        sleep_ns(pause);
        waited += pause;
        if (pause < 1000000)
            pause *= 2;
    }
}

/* fork: the child must not inherit a lock held by a thread it will not
 * have, nor an analyzer stopped in the middle of a chunk.  So: no producer
 * in its slow path (every channel lock held), every analyzer parked
 * between chunks and out of liburcu's reader registry. */
void pprt_stream_before_fork(void)
{
    struct pprt_stream *s = &pprt_stream;
    pprt_stream_lock();
    if (!s->started || s->finished)
        return;
    FOR_EACH_CHANNEL(ch)
        pp_channel_lock(ch);
    __atomic_store_n(&s->park, 1, __ATOMIC_RELEASE);
    pprt_analyzer_wake_all();
    uint32_t running = 0;
    for (uint32_t i = 0; i < s->nthreads; i++)
        running += s->an[i].running != 0;
    pthread_mutex_lock(&s->park_lock);
    while (s->nparked < running)
        pthread_cond_wait(&s->park_cond, &s->park_lock);
    pthread_mutex_unlock(&s->park_lock);
}

void pprt_stream_after_fork_parent(void)
{
    struct pprt_stream *s = &pprt_stream;
    if (s->started && !s->finished) {
        pthread_mutex_lock(&s->park_lock);
        __atomic_store_n(&s->park, 0, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&s->park_cond);
        pthread_mutex_unlock(&s->park_lock);
        FOR_EACH_CHANNEL(ch)
            pp_channel_unlock(ch);
    }
    pprt_stream_unlock();
}

/* The child has one thread, the one that forked.  Every other producer is
 * gone with its cursor: its channel is closed with what its chunk holds
 * (the events it wrote before fork), so the child's profile has the
 * parent's events up to fork, as in counting mode.  New analyzer threads
 * take over the parked ones' state; accumulating, they then consume every
 * event from before the fork and start counting from 0 (stream-reset.c). */
void pprt_stream_after_fork_child(void)
{
    struct pprt_stream *s = &pprt_stream;
    if (s->started && !s->finished) {
        pthread_mutex_init(&s->park_lock, NULL);
        pthread_cond_init(&s->park_cond, NULL);
        s->park = 0;
        s->nparked = 0;
        struct pp_channel *me = producer()->channel();
        FOR_EACH_CHANNEL(ch) {
            if (ch != me && pp_channel_state(ch) == PP_CH_ACTIVE && ch->current) {
                /* Its owner is gone, so we publish for it (its lock is
                 * ours): the chunk up to the first zero word, the rest
                 * zeroed (a store it made visible out of order before the
                 * fork must not survive into the chunk's next use). */
                struct pp_chunk *c = ch->current;
                uint32_t n = pp_chunk_scan(ch, c, NULL);
                memset(c->ev + n, 0, (size_t)(ch->chunk_events - n) * sizeof *c->ev);
                pp_channel_publish(ch, c, n);
                ch->current = NULL;
                pp_channel_set_state(ch, PP_CH_CLOSED);
            }
            pp_channel_unlock(ch);
        }
        /* The threads analyzers run themselves are gone too (they were
         * quiesced when their analyzer parked). */
        for (uint32_t i = 0; i < s->nthreads; i++)
            for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
                if (kind(k)->after_fork_child)
                    kind(k)->after_fork_child(s->an[i].inst[k]);
        for (uint32_t i = 0; i < s->nthreads; i++) {
            s->an[i].running = 0;
            /* A producer of the parent may have held it for an instant
             * (pprt_analyzer_help takes it before trying the stream
             * mutex, which fork held); nobody holds it here. */
            __atomic_store_n(&s->an[i].consuming, 0, __ATOMIC_RELAXED);
            if (pprt_analyzer_start(&s->an[i]) != 0) {
                /* Without its analyzer a producer would wait forever. */
                pprt_error("cannot restart analyzer thread %u in the child process "
                           "%ld; the child's events are not profiled", i + 1,
                           (long)getpid());
                __atomic_store_n(&s->stopping, 1, __ATOMIC_RELAXED);
                producer()->detach_self();
                break;
            }
        }
        if (pprt_config.accumulate)
            pprt_stream_reset_in_child_locked();
    }
    pprt_stream_unlock();
}
