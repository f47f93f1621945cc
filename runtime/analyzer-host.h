/* analyzer-host.h - the one small interface through which the runtime
 * hosts analyzers (docs/streaming.md, section 6; docs/architecture.md).
 *
 * Why here, in the runtime: the runtime is the side that calls it (it
 * starts the analyzer threads, hands them batches, merges and writes), so
 * the contract belongs to the lower layer and the analyzers, above it,
 * implement it; analyzers/analyzer.h adds the analyzers' own list.  The
 * one name the runtime takes from above is the table pp_analyzers[], a
 * link-time callback table that analyzers/registry.c provides.
 *
 * Threads: open/close/merge/write run in the runtime's control thread or in
 * one analyzer thread; thread_begin/consume/thread_end run in the analyzer
 * thread that owns the producer's channel, never concurrently for one
 * analyzer instance.  An analyzer never sees the producers' memory: only
 * batches of events, in the order the producer emitted them. */
#ifndef PATHPROF_ANALYZER_HOST_H
#define PATHPROF_ANALYZER_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bytebuf.h"

#pragma GCC visibility push(hidden)

/* What an analyzer may ask about the registered code: map a global path
 * index (event bits 0..60) to its TU and function.  Safe to call from an
 * analyzer thread inside consume(); the runtime keeps the map valid (RCU)
 * while any event referring to a TU can still be in flight. */
struct pp_path_ref {
    const unsigned char *meta;  /* the TU's metadata blob */
    uint64_t meta_len;
    uint64_t tu_base;           /* the TU's first global path index */
    uint64_t tu_id;             /* registration order, from 0 */
    uint32_t func;              /* index in the TU's directory */
    uint64_t path_id;           /* ID within the function */
};
/* Returns 0 when INDEX belongs to no registered TU. */
int pp_lookup_path(uint64_t index, struct pp_path_ref *out);

struct pp_analyzer {
    const char *name;
    /* One instance per analyzer thread. */
    void *(*open)(void);
    /* A producer stream (one thread's events) starts; TID numbers producer
     * threads of the process from 1 in registration order. */
    void *(*thread_begin)(void *a, uint32_t tid);
    void (*consume)(void *a, void *t, const uint64_t *ev, size_t n);
    void (*thread_end)(void *a, void *t);
    /* Folds instance FROM into INTO (after every stream has ended). */
    void (*merge)(void *into, void *from);
    /* Appends this analyzer's sections (tag, reserved, length, bytes: see
     * docs/format.md) to OUT; *NSECTIONS is incremented per section. */
    void (*write)(void *a, struct pprt_buf *out, uint32_t *nsections);
    void (*close)(void *a);

    /* Optional (NULL: nothing to do), for an analyzer that runs threads of
     * its own (the ksf workers of PATHPROF_KSF_WORKERS).  QUIESCE: fork is
     * coming, called by the instance's analyzer thread between chunks:
     * return when all work handed to those threads is done, so the child
     * inherits it complete and no lock held.  AFTER_FORK_CHILD: in the
     * child, for every instance, before the analyzer threads restart: the
     * threads are gone; start new ones or work without.  THREADS: the
     * kernel ids of those threads (at most MAX), how many: the runtime's
     * "only runtime threads are left" test must not count them. */
    void (*quiesce)(void *a);
    void (*after_fork_child)(void *a);
    uint32_t (*threads)(void *a, pid_t *tids, uint32_t max);

    /* Optional, for PATHPROF_ACCUMULATE=1 in a forked child, whose profile
     * is added to its parent's (docs/runtime.md, "fork"): the child must
     * count only what it runs after the fork.  Called by the instance's
     * analyzer thread once every event from before the fork is consumed
     * and before any from after it.  RESET: forget the instance's counts
     * (those of streams already ended, its totals); 0 done, -1 when it
     * cannot be exact (the instance is left as it was; the runtime warns,
     * naming the analyzer).  Then, after a 0, RESET_STREAM (may be NULL)
     * for every stream begun and not ended (T from thread_begin): forget
     * its counts but keep what its later events need (the open
     * activations, a sequence's last k - 1 paths).  NULL RESET: the
     * analyzer cannot start from zero (the runtime warns). */
    int (*reset)(void *a);
    void (*reset_stream)(void *a, void *t);

    /* Set by an analyzer that reads the indices of PPP functions right
     * (ppp=FILE with mode=stream, docs/format.md "PPP functions"): it maps
     * them with pprt_meta_stream_path_id or pp_lookup_path.  A TU with PPP
     * functions is refused when an analyzer selected lacks it. */
    int reads_ppp;
    /* Set by an analyzer that is exact on a TPP stream (tpp=I,J with
     * mode=stream, docs/tpp.md "Streams"): obvious paths emit no event
     * (their counters stay in memory, pp_tu_info.derived), a path through
     * a cold edge emits an ID of the cold region, and disconnected loops
     * end paths where Ball-Larus does not; only a counter of paths that
     * adds the in-memory counts is right (blpp).  A TU with TPP
     * functions is refused when an analyzer selected lacks it. */
    int reads_tpp;
    /* Set by an analyzer that takes RUN markers (pathprof-abi.h: a loop
     * counted at its exits, "W n more times") in its consume(); the
     * others get every RUN expanded into its n events (run-expand.h),
     * so they, and traces, see the stream one event a word. */
    int reads_runs;
    /* Optional, for an analyzer with reads_runs: how many events the chunk
     * its last consume() took for stream T stands for, each RUN pair
     * counted as its n events and split pairs and dropped chunks as
     * pprt_run_count counts them (run-expand.h), or UINT64_MAX when it
     * does not know (T is NULL).  The runtime then skips its own pass
     * over the chunk (a tenth of an interpreter's analyzer time, whose
     * every chunk holds call markers). */
    uint64_t (*chunk_events)(void *a, void *t);
    /* 1: its write() appends the TU sections (blpp, and vpp, which counts
     * with a blpp inside unless blpp runs too); the runtime adds empty
     * ones only when no analyzer that ran does. */
    int writes_tu_sections;
    /* 1: it rebuilds each thread's call stack from the stream (ksf,
     * ksf-pruned), which a program that switches stacks (swapcontext,
     * runtime/context-wrap.c) leads astray: the runtime then says the
     * profile is not exact. */
    int follows_activations;
};

/* The analyzers built in, NULL-terminated: the callback table the
 * analyzers layer provides (analyzers/registry.c).  The runtime selects
 * from it by name (PATHPROF_ANALYZER) and never names an analyzer's
 * symbol itself. */
extern const struct pp_analyzer *const pp_analyzers[];

#pragma GCC visibility pop

#endif
