/* pool.h - the channels of one analyzer thread: a list the analyzer walks,
 * and a stack of free channels that new producer threads reuse.
 *
 * Programs that create and join thousands of short-lived threads would
 * otherwise map and unmap a channel per thread; with the pool, the number
 * of channels is the peak number of producer threads alive at once.
 *
 *   pool->head --next--> ch --next--> ch ... NULL   every channel ever made,
 *                                                   newest first
 *   pool->free --next_free--> ch ... NULL           the FREE ones (LOCK)
 *
 * The list is an RCU list that only grows: a channel is fully built before
 * a release store links it at the head, NEXT never changes afterwards, and
 * channels are never unmapped while the process lives, so a reader (the
 * analyzer, inside an RCU read-side section) may walk it at any time
 * without a lock.  Pushing and popping free channels takes LOCK, a leaf
 * lock: nothing else is acquired while it is held, and nobody waits for a
 * grace period with it held (analyzers take it inside read-side sections). */
#ifndef PATHPROF_POOL_H
#define PATHPROF_POOL_H

#include "channel.h"

#include <pthread.h>

#pragma GCC visibility push(hidden)

struct pp_pool {
    struct pp_channel *head; /* atomic (acquire/release) */
    struct pp_channel *free;
    uint32_t nchannels;      /* atomic: channels ever made */
    pthread_mutex_t lock;
};

void pp_pool_init(struct pp_pool *p);

/* A FREE channel: a recycled one, or a new one linked into the list.
 * NULL when a new one cannot be mapped. */
struct pp_channel *pp_pool_take(struct pp_pool *p, uint32_t chunk_events,
                                uint32_t nchunks, size_t extra_size);

/* CH, FREE again, goes back on the stack. */
void pp_pool_put(struct pp_pool *p, struct pp_channel *ch);

static inline struct pp_channel *pp_pool_first(const struct pp_pool *p)
{
    return __atomic_load_n(&p->head, __ATOMIC_ACQUIRE);
}

static inline struct pp_channel *pp_pool_next(const struct pp_channel *ch)
{
    return ch->next; /* immutable once the channel is in the list */
}

#pragma GCC visibility pop

#endif
