/* registry.h - the list of registered translation units.
 *
 * An entry is either LIVE (its metadata and counters are the TU's own
 * memory, which stays valid until the TU's destructor) or a SNAPSHOT (the TU
 * went away before the profile was written: its blob and counters were
 * copied into runtime memory).  The list keeps registration order, which is
 * the order of TU sections in the profile.
 *
 * One mutex protects the list and the "written" flag.  Probes never take it:
 * only registration, unregistration, the final write and fork do. */
#ifndef PATHPROF_RT_REGISTRY_H
#define PATHPROF_RT_REGISTRY_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_tu {
    struct pprt_tu *next;
    const unsigned char *meta;
    uint64_t meta_len;
    uint64_t *counters;
    uint64_t ncounters;
    int snapshot; /* meta and counters are runtime-owned copies */
};

/* Adds a TU whose blob passed pprt_meta_check. */
void pprt_registry_add(const unsigned char *meta, uint64_t meta_len,
                       uint64_t *counters, uint64_t ncounters);

/* The TU owning COUNTERS is going away.  Before the profile is written its
 * counts are snapshot (and merged into an earlier snapshot of an identical
 * blob: a library dlopen'd again); after, it is simply forgotten. */
void pprt_registry_remove(uint64_t *counters);

/* Marks the profile written and, the first time only, calls EMIT with the
 * list while holding the lock.  Returns 1 when EMIT ran, the lock then
 * still held: the encoded profile refers to the TUs' metadata, which a
 * dlclose in another thread would take away (pprt_registry_remove), so
 * the caller writes it and then calls pprt_registry_unlock.  Returns 0
 * otherwise, the lock released. */
int pprt_registry_finish(void (*emit)(const struct pprt_tu *list, void *arg),
                         void *arg);

/* Whether no counting-mode TU is registered (a process whose only
 * instrumented code is in stream mode, or none: nothing to write). */
int pprt_registry_empty(void);

/* In a child just forked, the registry lock held: every TU's counts,
 * snapshots of unloaded ones included, start again from 0, as gcov's do,
 * so that the parent's counts up to the fork are in the parent's profile
 * only (PATHPROF_ACCUMULATE adds both). */
void pprt_registry_zero_counts_in_child(void);

/* For pthread_atfork: hold the lock across fork() so the child never
 * inherits it locked by a thread that does not exist there. */
void pprt_registry_lock(void);
void pprt_registry_unlock(void);

#pragma GCC visibility pop

#endif
