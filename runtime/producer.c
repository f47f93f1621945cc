/* producer.c - the producer side of stream mode: the probe's thread-local
 * cursor, its slow path, and what a thread does when it exits
 * (docs/streaming.md, sections 3 and 4).
 *
 * The fast path, emitted by the plugin, stores at __pathprof_cur while
 * (__pathprof_cur & __pathprof_mask) != 0.  Chunks are aligned to their
 * size and the mask is chunk bytes - 1, so a cursor reaches a multiple of
 * the chunk size exactly at the end of its own chunk, and at the start of
 * a fresh one: both come here, and the slow path stores slot 0 of every
 * chunk itself.  Before a thread's first event and after its teardown the
 * mask is 0: every event comes here.
 *
 * Why not compare with an end pointer: a probe holds the cursor in a
 * register between its load and its store, and the compiler keeps it there
 * across a whole call-free loop.  An instrumented signal handler that
 * interrupts it and swaps chunks left the interrupted code with the old
 * chunk's cursor and the new chunk's end: it wrote past the chunk until it
 * crashed.  With the mask, a stale cursor stops at its own chunk's end and
 * the slow path notices it (resync_cursor).
 *
 * This file runs in the program's threads, maybe inside its malloc or a
 * signal handler: it never calls malloc, keeps errno, and counts an event
 * it cannot store safely instead of storing it. */
#include "async-signals.h"
#include "lifecycle.h"
#include "message.h"
#include "pathprof-abi.h"
#include "stream-tus.h"
#include "stream.h"
#include "vfork-wrap.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PUBLIC __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

PUBLIC __thread uint64_t *__pathprof_cur __attribute__((tls_model("initial-exec")));
PUBLIC __thread uintptr_t __pathprof_mask __attribute__((tls_model("initial-exec")));

static TLS struct pp_channel *my_channel;
/* Set while this thread is in the slow path: an event from a signal
 * handler (or an instrumented malloc) that interrupts it is counted late
 * rather than stored into a chunk being swapped. */
static TLS int in_slow;
/* Signal handlers of the program running on this thread, under
 * signal-wrap.c's trampoline (one that left by siglongjmp stays counted:
 * the thread then no longer helps its analyzer, which costs time only). */
static TLS uint32_t handler_depth;

/* cur == &late_sentinel[0], mask 0: this thread's events are late. */
static uint64_t late_sentinel[1];

/* What the stream calls back into (stream.h), defined at the end. */
static const struct pprt_producer_ops producer_ops;

static struct pp_channel *own_channel(void) { return my_channel; }
static int own_in_slow_path(void) { return in_slow; }

static void count_late(uint64_t n)
{
    __atomic_fetch_add(&pprt_stream.late, n, __ATOMIC_RELAXED);
}

static void go_late(void)
{
    my_channel = NULL;
    __pathprof_mask = 0;
    __pathprof_cur = late_sentinel;
}

/* The cursor at C's start: the next event comes to the slow path, which
 * stores it in slot 0. */
static void use_chunk(const struct pp_channel *ch, struct pp_chunk *c)
{
    __pathprof_cur = c->ev;
    __pathprof_mask = (uintptr_t)ch->chunk_events * sizeof(uint64_t) - 1;
}

/* The events in the current chunk C: the cursor's offset when it points
 * into C, else (a stale cursor, see resync_cursor) C's non-zero prefix. */
static uint32_t fill_of(const struct pp_channel *ch, const struct pp_chunk *c)
{
    const uint64_t *cur = __pathprof_cur;
    if (cur >= c->ev && cur <= c->ev + ch->chunk_events)
        return (uint32_t)(cur - c->ev);
    return pp_chunk_scan(ch, c, NULL);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct pprt_analyzer *analyzer_of(const struct pp_channel *ch)
{
    const struct pprt_channel_info *info = ch->extra;
    return &pprt_stream.an[info->analyzer];
}

/* How long a producer polls for an empty chunk before it helps or sleeps:
 * about the time an analyzer takes to consume a default chunk, so that a
 * producer merely faster than its analyzer keeps pace with it instead of
 * paying a futex wake-up per chunk.  Longer would take CPU time from the
 * analyzer when both share a core. */
#define SPIN_NS 20000
/* How long a producer sleeps between tries when its analyzer is consuming
 * (it is woken sooner, by the analyzer's next give-back). */
#define RETRY_NS 1000000

/* Polls CH for an empty chunk for about NS. */
static struct pp_chunk *poll_empty(struct pp_channel *ch, uint64_t ns)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 1;; i++) {
        ck_pr_stall();
        struct pp_chunk *c = pp_channel_take_empty(ch);
        if (c != NULL || (i % 64 == 0 && now_ns() - t0 > ns))
            return c;
    }
}

/* Block policy: the analyzer is behind.  Poll for a while if it is awake
 * (it is about to give a chunk back); then consume our own full chunks if
 * the analyzer is not consuming (pprt_analyzer_help: descheduled on a
 * loaded machine, or asleep), else poll a while more and sleep until it
 * gives one back.  Returns NULL when the exit flush has begun: it needs
 * this channel's lock, which the caller holds, and this thread's later
 * events are late anyway.  The whole wait, helping included, counts as
 * blocked time. */
static struct pp_chunk *wait_empty(struct pp_channel *ch)
{
    uint64_t t0 = now_ns();
    struct pprt_analyzer *an = analyzer_of(ch);
    struct pp_chunk *c = NULL;
    uint64_t seen = __atomic_load_n(&an->chunks, __ATOMIC_RELAXED), moved = t0;
    if (__atomic_load_n(&an->wake.sleepers, __ATOMIC_RELAXED) == 0)
        c = poll_empty(ch, SPIN_NS);
    while (c == NULL) {
        if (__atomic_load_n(&pprt_stream.stopping, __ATOMIC_RELAXED))
            break;
        /* Help an analyzer that is asleep, or that has finished no chunk
         * for four times what a chunk takes it (it lost its CPU): while it
         * makes progress, this thread's core had better stay idle for it
         * than take its forest into another cache. */
        uint64_t t = now_ns(), p = __atomic_load_n(&an->chunks, __ATOMIC_RELAXED);
        if (p != seen) {
            seen = p;
            moved = t;
        }
        uint64_t patience = 4 * __atomic_load_n(&an->chunk_ns, __ATOMIC_RELAXED);
        /* Not from a signal handler: the analyzers allocate as they
         * consume, which a handler may not (TSan reported it). */
        if (handler_depth == 0 &&
            (__atomic_load_n(&an->wake.sleepers, __ATOMIC_RELAXED) != 0 ||
             t - moved >= (patience > SPIN_NS ? patience : SPIN_NS)) &&
            pprt_analyzer_help(ch) > 0 && (c = pp_channel_take_empty(ch)) != NULL)
            break;
        /* It is consuming (or exit, fork or a reset is under way): its
         * give-back comes soon while it runs; sleeping would give away this
         * thread's CPU, which a loaded machine gives back late. */
        if ((c = poll_empty(ch, SPIN_NS)) != NULL)
            break;
        uint32_t seq = pp_wake_prepare(&ch->empty_wake);
        if ((c = pp_channel_take_empty(ch)) != NULL) {
            pp_wake_cancel(&ch->empty_wake);
            break;
        }
        pp_wake_signal(&an->wake); /* in case it dozed off */
        pp_wake_wait(&ch->empty_wake, seq, RETRY_NS);
        c = pp_channel_take_empty(ch);
    }
    __atomic_fetch_add(&pprt_stream.blocked_ns, now_ns() - t0, __ATOMIC_RELAXED);
    return c;
}

/* Handler runs whose events went into the current chunk, each with the
 * slot that the interrupted code stores its next event in and the
 * handler's event there (signal-wrap.c): checked when the chunk is
 * published.  More than fit are counted as if overwritten: 16 is more than
 * a handler that interrupts probes can run per chunk without the profile
 * being hopeless anyway. */
#define HANDLER_NOTES 16
static TLS struct handler_note {
    uint64_t *slot;
    uint64_t ev;
} notes[HANDLER_NOTES];
static TLS uint32_t nnotes;

/* How far pprt_handler_enter looks ahead of the cursor.  A probe has at
 * most one event stored ahead of the cursor (it stores the event, then the
 * cursor); the words a rewound cursor (below) left behind are more, and
 * are lost anyway.  Past the limit the handler's run is counted as lost
 * all the same, so the bound costs precision of `late`, never exactness. */
#define AHEAD_MAX 64

static void count_overwritten(uint64_t n)
{
    __atomic_fetch_add(&pprt_stream.overwritten, n, __ATOMIC_RELAXED);
    count_late(n);
}

/* Whether a handler that finds the cursor at CUR, with MASK, can store in
 * the current chunk without the slow path (which copes with interruption
 * itself: resync_cursor). */
static int mid_chunk(const uint64_t *cur, uintptr_t mask)
{
    return mask != 0 && !in_slow && ((uintptr_t)cur & mask) != 0;
}

void pprt_handler_enter(struct pprt_handler_mark *m)
{
    handler_depth++;
    m->cur = __pathprof_cur;
    m->mask = __pathprof_mask;
    m->ahead = 0;
    if (!mid_chunk(m->cur, m->mask))
        return;
    /* Slots at and after the cursor are zero (chunks come back zeroed)
     * unless the interrupted code has stored there without moving the
     * cursor yet.  The loop stops at the chunk's end, which the mask
     * tells from the address alone. */
    const uint64_t *p = m->cur;
    while (m->ahead < AHEAD_MAX && ((uintptr_t)p & m->mask) != 0 && *p != 0) {
        m->ahead++;
        p++;
    }
    /* The handler stores after them, so that they stay: if the handler
     * leaves by siglongjmp, the interrupted code never comes back to move
     * the cursor, and nothing is lost; if it returns, the interrupted code
     * moves the cursor back over the handler's events, which the note
     * below then finds stored over.  (At the chunk's end the handler's
     * first event takes the slow path, which publishes them.) */
    if (m->ahead > 0 && m->ahead < AHEAD_MAX) {
        m->cur += m->ahead;
        __pathprof_cur = m->cur;
    }
}

void pprt_handler_leave(const struct pprt_handler_mark *m)
{
    handler_depth--;
    uint64_t *before = m->cur, *after = __pathprof_cur;
    /* Nothing emitted; or no chunk, or the handler's first event went to
     * the slow path (a chunk's first slot), or its events left the chunk
     * (the interrupted code's cursor is then stale: resync_cursor). */
    if (after == before || !mid_chunk(before, m->mask) ||
        ((uintptr_t)before & ~m->mask) != ((uintptr_t)(after - 1) & ~m->mask))
        return;
    if (m->ahead == AHEAD_MAX) {
        count_overwritten((uint64_t)(after - before)); /* not looked at: not said exact */
        return;
    }
    /* The interrupted code stores its next event at the cursor it holds,
     * over the handler's first, which the check at publication then finds
     * replaced. */
    if (nnotes == HANDLER_NOTES) {
        count_overwritten(1); /* cannot be checked: not said exact */
        return;
    }
    notes[nnotes].slot = before;
    notes[nnotes].ev = *before;
    nnotes++;
}

void pprt_check_handler_notes(const struct pp_chunk *c, uint32_t n)
{
    for (uint32_t i = 0; i < nnotes; i++) {
        const uint64_t *s = notes[i].slot;
        /* The code the handler interrupted stored its own event over the
         * handler's first (it had loaded the cursor before the signal). */
        if (s >= c->ev && s < c->ev + n && *s != notes[i].ev)
            count_overwritten(1);
    }
    nnotes = 0;
}

static void publish(struct pp_channel *ch, struct pp_chunk *c, uint32_t n)
{
    pprt_check_handler_notes(c, n);
    pp_channel_publish(ch, c, n);
    pp_wake_signal(&analyzer_of(ch)->wake);
}

/* A cursor that is neither at the start nor at the end of the current
 * chunk: an instrumented signal handler ran while a probe of the code it
 * interrupted held the cursor in a register, and the handler's events
 * filled the chunk and swapped it.  The interrupted code then went on
 * writing into the old chunk, which the analyzer owns now: those events,
 * and the handler's that they overwrote, are lost, and the profile is not
 * exact (`interrupted` in the STREAM section).  The current chunk holds the
 * handler's events up to its first zero word (chunks come back zeroed).
 * Returns 1 when that chunk is full. */
static int resync_cursor(struct pp_channel *ch, struct pp_chunk *c)
{
    __atomic_fetch_add(&pprt_stream.interrupted, 1, __ATOMIC_RELAXED);
    count_late(1);
    uint32_t n = pp_chunk_scan(ch, c, NULL);
    __pathprof_cur = c->ev + n;
    return n == ch->chunk_events;
}

/* The cursor is at a chunk boundary (or stale): continue in the current
 * chunk if it has room, else hand it over and continue in an empty one. */
static void swap_chunk(struct pp_channel *ch)
{
    pp_channel_lock(ch);
    struct pp_chunk *full = ch->current;
    if (full != NULL && pp_channel_state(ch) == PP_CH_ACTIVE) {
        uint64_t *cur = __pathprof_cur;
        if (cur == full->ev ||
            (cur != full->ev + ch->chunk_events && !resync_cursor(ch, full))) {
            pp_channel_unlock(ch);
            return; /* room left: the caller stores at the cursor */
        }
    }
    if (full == NULL) {
        /* The exit flush took this thread's chunk while it waited. */
        pp_channel_unlock(ch);
        go_late();
        return;
    }
    if (pp_channel_state(ch) != PP_CH_ACTIVE) {
        /* The exit flush took this chunk's first TAIL_N events while the
         * thread kept running; the rest came too late for the profile. */
        uint32_t n = fill_of(ch, full);
        count_late(n > ch->tail_n ? n - ch->tail_n : 0);
        pp_channel_unlock(ch);
        go_late();
        return;
    }
    struct pp_chunk *next;
    if (pprt_config.policy == PATHPROF_POLICY_DROP) {
        next = pp_channel_take_empty(ch);
        if (next) {
            publish(ch, full, ch->chunk_events);
        } else {
            /* Reuse in place; zero it, since a zero word marks the end of
             * the events of a chunk nobody can ask the cursor of. */
            __atomic_fetch_add(&pprt_stream.dropped, ch->chunk_events, __ATOMIC_RELAXED);
            memset(full->ev, 0, ch->chunk_events * sizeof(uint64_t));
            next = full;
        }
    } else {
        publish(ch, full, ch->chunk_events);
        /* Published: none of this thread's events is left in a chunk while
         * it waits, and an exit() from a signal handler that interrupts the
         * wait finds nothing to count lost (stream-control.c). */
        ch->current = NULL;
        next = pp_channel_take_empty(ch);
        if (next == NULL)
            next = wait_empty(ch);
        if (next == NULL) {
            /* Exit is flushing: every event so far is published; the
             * channel has no current chunk for the flush to take. */
            ch->current = NULL;
            pp_channel_unlock(ch);
            go_late();
            return;
        }
    }
    ch->current = next;
    pp_channel_unlock(ch);
    use_chunk(ch, next);
}

static void attach(void)
{
    /* An instrumented malloc that set-up called (lifecycle.h): no stream
     * yet; the event is late, the next one tries again. */
    if (!pprt_set_up_once())
        return;
    sigset_t old; /* the stream mutex is held in there (async-signals.h) */
    int blocked = pprt_block_async_signals(&old);
    struct pp_channel *ch = pprt_stream_attach(&producer_ops);
    pprt_restore_signals(blocked, &old);
    if (ch == NULL) {
        go_late();
        return;
    }
    my_channel = ch;
    use_chunk(ch, ch->current);
}

PUBLIC void __pathprof_emit_slow(uint64_t ev)
{
    if (in_slow || pprt_analyzer_self()) {
        /* Re-entered from a signal handler or from instrumented code our
         * own calls ran; or an analyzer thread running instrumented code:
         * storing would corrupt the chunk being swapped or feed an
         * analyzer its own events. */
        count_late(1);
        return;
    }
    if (pprt_is_set_up() && getpid() != pprt_process_pid() &&
        !(pprt_vfork_child && my_channel != NULL)) {
        /* A child that shares our memory and our thread's TLS without
         * being this process (clone(CLONE_VM) without CLONE_THREAD, a
         * vfork child of libc's vfork or of a thread that had no channel
         * yet): attaching or swapping chunks there would start analyzer
         * threads in the child or hand our channel's state to another
         * process while the parent thread runs on (the parent's own events
         * were lost after such a child attached its thread, while the
         * profile said exact).  Its events until its chunk filled are
         * ours; the rest are late, with a warning (stream-encode.c).  A
         * child of our vfork (vfork-wrap.c) whose thread has a channel
         * swaps chunks below as that thread, which is suspended until the
         * child execs or exits: its events are the thread's, as in
         * counting mode. */
        count_late(1);
        __atomic_fetch_add(&pprt_stream.foreign, 1, __ATOMIC_RELAXED);
        return;
    }
    int saved_errno = errno;
    in_slow = 1;
    if (my_channel != NULL)
        swap_chunk(my_channel);
    else if (__pathprof_cur == NULL)
        attach();
    /* else: torn down (late_sentinel), or a stale cursor from before the
     * teardown (resync_cursor): late either way. */
    for (;;) {
        uint64_t *cur = __pathprof_cur;
        if (my_channel == NULL) {
            count_late(1);
            break;
        }
        /* A signal handler's probes store at the cursor without coming
         * here while it is inside its chunk (after a resync it is in the
         * middle): one that ran since swap_chunk may have filled the chunk
         * to its end (its last event came here and was counted late).
         * Storing there would write past the chunk: swap again.  Slot 0
         * always comes here, so a cursor there is ours to store at. */
        const struct pp_chunk *c = __atomic_load_n(&my_channel->current, __ATOMIC_RELAXED);
        if (((uintptr_t)cur & __pathprof_mask) != 0 || (c != NULL && cur == c->ev)) {
            *cur = ev;
            __pathprof_cur = cur + 1;
            break;
        }
        swap_chunk(my_channel);
    }
    in_slow = 0;
    errno = saved_errno;
}

void pprt_vfork_prepare(void)
{
    pprt_attach_early();
}

void pprt_attach_early(void)
{
    if (my_channel != NULL || __pathprof_cur != NULL || in_slow || pprt_analyzer_self() ||
        pprt_stream_tus_total() == 0 || (pprt_is_set_up() && getpid() != pprt_process_pid()))
        return; /* has one; torn down; count mode; inside the runtime; a foreign child */
    int saved_errno = errno;
    in_slow = 1;
    attach();
    in_slow = 0;
    errno = saved_errno;
}

/* The thread's key destructor: publish the partial chunk and close the
 * channel; the analyzer ends the stream and recycles the channel.  Events
 * after this (later destructors) are late. */
static void thread_exit(void *arg)
{
    struct pp_channel *ch = arg;
    int saved_errno = errno;
    in_slow = 1;
    pp_channel_lock(ch);
    uint64_t *cur = __pathprof_cur;
    struct pp_chunk *c = ch->current;
    if (pp_channel_state(ch) == PP_CH_ACTIVE) {
        /* Once CLOSED, the channel may be recycled and attached to a new
         * thread at any moment: nothing of it is read after that store
         * (but the lock word, which the new owner waits on). */
        struct pprt_analyzer *an = analyzer_of(ch);
        if (c != NULL) /* NULL: it gave up its chunk when exit began */
            publish(ch, c, fill_of(ch, c));
        ch->current = NULL;
        pp_channel_set_state(ch, PP_CH_CLOSED);
        pp_wake_signal(&an->wake);
    } else if (c && cur >= c->ev && cur <= c->ev + ch->chunk_events &&
               (uint64_t)(cur - c->ev) > ch->tail_n) {
        count_late((uint64_t)(cur - c->ev) - ch->tail_n);
    }
    pp_channel_unlock(ch);
    go_late();
    in_slow = 0;
    errno = saved_errno;
}

static void detach_self(void)
{
    if (pprt_stream.key_ok)
        pthread_setspecific(pprt_stream.key, NULL);
    go_late();
}

/* dlclose: the events this thread emitted so far go to the analyzers now,
 * not when its chunk fills. */
static void flush_self(void)
{
    struct pp_channel *ch = my_channel;
    if (ch == NULL || in_slow)
        return;
    in_slow = 1;
    pp_channel_lock(ch);
    struct pp_chunk *c = ch->current;
    uint32_t n = fill_of(ch, c);
    if (n > 0 && pp_channel_state(ch) == PP_CH_ACTIVE &&
        (pprt_config.policy == PATHPROF_POLICY_BLOCK || pp_channel_has_empty(ch))) {
        publish(ch, c, n);
        struct pp_chunk *next = pp_channel_take_empty(ch);
        if (next == NULL)
            next = wait_empty(ch);
        ch->current = next;
        if (next == NULL) { /* exit is flushing (wait_empty) */
            pp_channel_unlock(ch);
            go_late();
            in_slow = 0;
            return;
        }
        use_chunk(ch, next);
    }
    pp_channel_unlock(ch);
    in_slow = 0;
}

static const struct pprt_producer_ops producer_ops = {
    .channel = own_channel,
    .in_slow_path = own_in_slow_path,
    .fill = fill_of,
    .detach_self = detach_self,
    .flush_self = flush_self,
    .thread_exit = thread_exit,
};
