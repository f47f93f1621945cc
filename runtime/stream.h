/* stream.h - the stream runtime's shared state (docs/streaming.md, 4-5).
 *
 * Threads and who may touch what:
 *   - producer threads (the program's): their own channel's owner side,
 *     under the channel's lock, in __pathprof_emit_slow and at thread exit
 *     (producer.c); they take the stream mutex only to attach a channel;
 *   - analyzer threads (analyzer-thread.c): the analyzer side of the
 *     channels in their pool, inside RCU read-side sections; they take no
 *     lock but their pool's (a leaf) and the park lock;
 *   - the control paths (stream-control.c): exit, exec, fork, dlclose;
 *     they hold the stream mutex.
 *
 * Lock order: write lock (profile-write.c, taken by lifecycle.c) -> stream mutex -> channel
 * locks -> park lock -> registry lock -> hash growth lock.  Nobody waits
 * for a grace period or for analyzers while holding a channel lock other
 * than its own, or a pool lock. */
#ifndef PATHPROF_RT_STREAM_H
#define PATHPROF_RT_STREAM_H

#include "bytebuf.h"
#include "config.h"
#include "pool.h"
#include "run-expand.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

/* Words of a RUN marker's copies handed to an analyzer at a time. */
#define PPRT_RUN_BUF_WORDS 8192

#pragma GCC visibility push(hidden)

/* One analyzer thread. */
struct pprt_analyzer {
    uint32_t index;
    pthread_t thread;
    int running;              /* a thread runs (or is parked) for it */
    pid_t tid;                /* atomic: its kernel thread id, 0 before start */
    int cpu;                  /* pinned to it, or -1 */
    struct pp_pool pool;      /* its channels */
    struct pp_wake wake;      /* producers signal after publishing */
    void *inst[PPRT_MAX_ANALYZERS]; /* one instance per selected analyzer */
    /* Atomic: 1 while a thread consumes for this analyzer (its own thread
     * in a pass over its channels, or a producer helping: analyzer-thread.c,
     * pprt_analyzer_help).  Its instances and statistics are touched only
     * by the thread that set it. */
    int consuming;
    /* Atomic: a running mean of a chunk's consume time (ns), for
     * producers deciding whether to help (they also watch CHUNKS). */
    uint64_t chunk_ns;
    /* Statistics, written under CONSUMING, read after the thread stopped
     * (CHUNKS, stored atomically, also while it runs).  HELPED: chunks
     * that producers consumed themselves. */
    uint64_t events, busy_ns, chunks, helped;
    /* A forked child accumulating (stream-reset.c): RESET_REQ (atomic)
     * asks the thread to reset its instances; it answers through
     * pprt_stream.nreset, with the analyzers (bit k: pprt_config's k-th)
     * that could not in RESET_REFUSED. */
    int reset_req;
    uint32_t reset_refused;
    /* Under CONSUMING: the copies of expanded RUN markers (run-expand.h). */
    uint64_t run_buf[PPRT_RUN_BUF_WORDS];
};

/* The runtime's part of a channel (pp_channel.extra). */
struct pprt_channel_info {
    uint32_t tid;       /* producer thread number, from 1 */
    uint32_t analyzer;  /* the analyzer whose pool holds the channel */
    /* Analyzer side only. */
    int begun;          /* thread_begin was called for this producer */
    struct pprt_run_state runs; /* a RUN marker split between two chunks */
    int runs_counted;   /* pprt_run_count counts its events (no analyzer does) */
    int finished;       /* finalised at exit; never reused */
    void *stream[PPRT_MAX_ANALYZERS];
    /* Control side, under the stream mutex. */
    uint64_t drain_target;
    int abandoned;      /* atomic: the exit flush could not lock it */
};

struct pprt_stream {
    pthread_mutex_t mutex;
    int started;          /* analyzers were started (under the mutex) */
    int stopping;         /* atomic: the exit flush began, no new producers */
    int stop;             /* atomic: analyzers finish their channels and return */
    int finished;         /* analyzers stopped and merged (under the mutex) */
    int park;             /* atomic: analyzers park (fork) */
    uint32_t nparked;     /* under park_lock */
    uint32_t nreset;      /* under park_lock: analyzers done resetting */
    pthread_mutex_t park_lock;
    pthread_cond_t park_cond;
    uint32_t nthreads;    /* analyzer threads */
    struct pprt_analyzer *an;
    uint32_t round_robin; /* next analyzer for a new producer */
    pthread_key_t key;    /* producer exit: its destructor publishes */
    int key_ok;
    /* The merged instances, written into the profile, then closed. */
    void *merged[PPRT_MAX_ANALYZERS];
    /* Counters of the STREAM section (atomic). */
    uint64_t producers, dropped, late, blocked_ns, resync, unknown;
    /* Stale cursors repaired (producer.c, resync_cursor); each is also one
     * `late` word: the events it cost are not known, at least one. */
    uint64_t interrupted;
    /* swapcontext/setcontext calls (context-wrap.c): stacks switched under
     * the analyzers' activation stacks. */
    uint64_t context_switches;
    /* Events that an instrumented signal handler and the code it
     * interrupted stored over each other's (producer.c,
     * pprt_handler_leave and pprt_check_handler_notes); each also one
     * `late` word. */
    uint64_t overwritten;
    /* Events of a child sharing our memory (producer.c), also `late`. */
    uint64_t foreign;
};

extern struct pprt_stream pprt_stream;

/* Where a signal found the thread's stream (signal-wrap.c's trampoline,
 * producer.c): the cursor the handler's events start at and the mask, and
 * how many events the interrupted code had stored at and after the cursor
 * before it moved the cursor (a probe stores its event, then the cursor:
 * a signal between the two finds the event ahead of the cursor, and the
 * handler's first event would go over it; the handler's events start
 * after them instead). */
struct pprt_handler_mark {
    uint64_t *cur;
    uintptr_t mask;
    uint32_t ahead;
};
/* Before the program's handler runs. */
void pprt_handler_enter(struct pprt_handler_mark *m);
/* After it: notes where the handler's first event went, which the
 * interrupted code stores over if it held the cursor, for
 * pprt_check_handler_notes. */
void pprt_handler_leave(const struct pprt_handler_mark *m);
/* Attaches the calling thread to the stream now (starting the stream when
 * it is the first), in ordinary context, when stream mode is on and it has
 * no channel yet: vfork (vfork-wrap.c) and the installation of a signal
 * handler (signal-wrap.c), so that neither a vfork child nor a handler's
 * first event has to allocate (malloc is not async-signal-safe, and a
 * first attach from a handler called it: TSan reported it). */
void pprt_attach_early(void);

/* Before the calling thread's chunk C, holding N events, is published:
 * a handler's first event no longer there was overwritten by the code it
 * interrupted (counted `overwritten` and `late`). */
void pprt_check_handler_notes(const struct pp_chunk *c, uint32_t n);

void pprt_stream_lock(void);
void pprt_stream_unlock(void);

/* The producer side's callbacks (producer.c), handed to the stream by the
 * first thread that attaches (pprt_stream_attach).  Each acts on the
 * calling thread's own producer state; the stream drives the threads
 * through them at exit, exec and fork, and never calls producer.c by name:
 * the producer (the probes' slow path) sits above the stream, which is its
 * one documented callback into the layer above (docs/architecture.md). */
struct pprt_producer_ops {
    /* The calling thread's channel, or NULL. */
    struct pp_channel *(*channel)(void);
    /* Whether the calling thread is inside the slow path (a signal
     * handler interrupted it). */
    int (*in_slow_path)(void);
    /* The events in C, the calling thread's current chunk of CH (its
     * cursor's offset, or C's non-zero prefix when the cursor is stale). */
    uint32_t (*fill)(const struct pp_channel *ch, const struct pp_chunk *c);
    /* After the exit flush took the calling thread's chunk: its later
     * events are late. */
    void (*detach_self)(void);
    /* Publishes the calling thread's partial chunk (under its lock). */
    void (*flush_self)(void);
    /* The thread-specific key's destructor: a producer thread exits. */
    void (*thread_exit)(void *channel);
};

/* stream-control.c */
/* A new producer: a channel attached to the caller, ACTIVE, with its
 * first chunk in CURRENT; NULL when the stream is stopping or failed.
 * OPS: the producer side's callbacks (the same every call). */
struct pp_channel *pprt_stream_attach(const struct pprt_producer_ops *ops);
/* Exit/exec: close every channel, stop and join the analyzers, merge.
 * Leaves the stream mutex held for the encoder; pprt_stream_finish_done
 * releases it. */
void pprt_stream_finish(void);
void pprt_stream_finish_done(void);
/* Under the stream mutex: wait until every chunk published so far is
 * consumed (dlclose, a forked child); WHY completes the error when that
 * takes over 30 s ("while a library was unloaded"). */
void pprt_stream_drain_locked(const char *why);
/* stream-reset.c: in a forked child with PATHPROF_ACCUMULATE=1, under the
 * stream mutex, the analyzer threads restarted: every event from before
 * the fork consumed, every analyzer's counts start from 0 (or a warning
 * names the analyzer that cannot). */
void pprt_stream_reset_in_child_locked(void);
/* Fork handlers, called by lifecycle.c in lock order. */
void pprt_stream_before_fork(void);
void pprt_stream_after_fork_parent(void);
void pprt_stream_after_fork_child(void);
/* Whether anything of stream mode happened: the profile's mode. */
int pprt_stream_used(void);

/* analyzer-thread.c */
int pprt_analyzer_start(struct pprt_analyzer *an);
/* The calling thread's analyzer, or NULL for any other thread. */
struct pprt_analyzer *pprt_analyzer_self(void);
/* A producer blocked on CH, which it holds locked (producer.c,
 * wait_empty): consumes CH's full chunks itself when CH's analyzer thread
 * is not consuming (descheduled, or asleep); returns how many. */
int pprt_analyzer_help(struct pp_channel *ch);
/* Runs AN's loop in the calling thread until STOP and every channel is
 * finished (exit() called from an analyzer thread). */
void pprt_analyzer_run(struct pprt_analyzer *an);
void pprt_analyzer_wake_all(void);

/* stream-encode.c: the analyzers' sections and the STREAM section. */
void pprt_stream_encode(struct pprt_buf *b, uint32_t *nsections);

#pragma GCC visibility pop

#endif
