/* profile-write.h - encoding the profile and writing it where the user
 * asked, or somewhere it can be found (docs/runtime.md).  lifecycle.c
 * decides when: once, at exit or before an exec, with the stream finished
 * first. */
#ifndef PATHPROF_RT_PROFILE_WRITE_H
#define PATHPROF_RT_PROFILE_WRITE_H

#include "bytebuf.h"

#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

struct pprt_profile_bytes {
    pid_t pid;          /* the process the profile is of (%p) */
    struct pprt_buf buf;
    uint64_t hash_lost; /* hash-mode counts dropped for lack of memory */
    /* TUs with plain (update=single) array counters that counted, and
     * the first one's name (plain-updates.h) */
    unsigned plain_tus;
    char plain_tu[256];
};

/* Encodes the profile into *P.  Returns 1 when this call is the first
 * (the one that writes), the registry then locked until
 * pprt_profile_store (*P refers to the TUs' metadata, registry.h); 0
 * otherwise, *P then empty.  Call with the write lock held and the
 * stream finished. */
int pprt_profile_build(struct pprt_profile_bytes *p);

/* Writes *P to PATHPROF_OUT (atomically where it is a regular file), or to
 * a fallback location, says where, frees *P's bytes and unlocks the
 * registry. */
void pprt_profile_store(struct pprt_profile_bytes *p);

/* Held for the whole write; for pthread_atfork (a child must not inherit it
 * locked).  Taken before the registry lock. */
void pprt_write_lock(void);
void pprt_write_unlock(void);

#pragma GCC visibility pop

#endif
