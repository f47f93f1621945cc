/* channel.h - one producer thread's event buffers (docs/streaming.md, 4).
 *
 * A channel carries chunks of 64-bit events from one producer thread to
 * one analyzer thread and brings them back empty.  Everything it owns is
 * in one anonymous mapping, so a thread that emits a few events touches a
 * few pages and never calls malloc (the probe's slow path may run inside
 * the program's malloc, or in a signal handler):
 *
 *   +------------------------------+  page 0
 *   | struct pp_channel            |  the fields below, producer and
 *   |   read-mostly line           |  analyzer sides on separate cache
 *   |   ck_ring full  (3 lines)    |  lines (ck_ring pads its consumer
 *   |   ck_ring empty (3 lines)    |  and producer indices itself)
 *   |   owner line / analyzer line |
 *   | full ring slots  [ring_size] |
 *   | empty ring slots [ring_size] |
 *   | chunk headers    [nchunks]   |
 *   | extra (the runtime's bytes)  |
 *   +------------------------------+  aligned to max(page, chunk)
 *   | chunk 0 events [chunk_events]|  each chunk_events * 8 bytes,
 *   | chunk 1 events               |  a power of two >= 128, and
 *   | ...                          |  aligned to it: the probe knows
 *   +------------------------------+  a chunk's end by its address
 *
 * Rings: FULL is SPSC from the owner thread to the analyzer, EMPTY is SPSC
 * from the analyzer back to the owner.  RING_SIZE is the smallest power of
 * two greater than NCHUNKS, so a ring can hold every chunk (ck_ring keeps
 * one slot free) and an enqueue never fails.
 *
 * Invariants (checked by pp_channel_valid when a channel is recycled):
 *   - conservation: each of the NCHUNKS chunks is in exactly one place: the
 *     owner's hand (CURRENT), the FULL ring, the analyzer's hand, or the
 *     EMPTY ring.  A FREE channel has all of them in EMPTY.
 *   - a chunk in EMPTY or in the owner's hand past its cursor is zero.
 *     Every event is non-zero (path index 0 is never assigned, markers have
 *     bit 63), so the events of a chunk whose owner cannot say where its
 *     cursor is (a thread still running at exit, a thread lost in fork) are
 *     exactly its prefix up to the first zero word (pp_chunk_scan).  The
 *     analyzer zeroes what it consumed before giving a chunk back; the
 *     owner zeroes a chunk it reuses in place (drop policy).
 *   - PUBLISHED (chunks the owner enqueued on FULL, ever) >= CONSUMED
 *     (chunks the analyzer consumed and gave back, ever); both only grow,
 *     across owners, so "every chunk published before now is consumed" is
 *     CONSUMED >= a PUBLISHED read earlier (a drain).
 *   - LOCK is held by whoever moves chunks on the owner's side (the owner's
 *     slow path, its exit, the exit-time flush, fork) and whoever changes
 *     STATE away from ACTIVE.  The analyzer side needs no lock: one analyzer
 *     owns the channel while it is not FREE.
 *
 * STATE: FREE (in a pool) -> ACTIVE (a thread attached: it owns CURRENT)
 * -> CLOSED (no more chunks will be published; the analyzer drains FULL,
 * then returns the channel to FREE) -> FREE.  One exception: a channel
 * the exit-time flush closed while its thread still runs gets a TAIL (see
 * below) and is never reused, since that thread may still write into its
 * current chunk. */
#ifndef PATHPROF_CHANNEL_H
#define PATHPROF_CHANNEL_H

#include "hb-annotate.h"
#include "wake.h"

#include <ck_ring.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

enum { PP_CH_FREE, PP_CH_ACTIVE, PP_CH_CLOSED };

#define PP_CACHELINE 64

struct pp_chunk {
    uint64_t *ev;      /* CHUNK_EVENTS words */
    uint32_t n;        /* events in EV when published */
    uint32_t index;    /* position in the channel, for checks */
};

struct pp_channel {
    /* Read-mostly: set at creation, never changed. */
    uint32_t chunk_events, nchunks, ring_size;
    size_t map_size;
    struct pp_chunk *chunk;
    ck_ring_buffer_t *full_slots, *empty_slots;
    void *extra;
    struct pp_channel *next; /* the pool's list; set before the channel is published */

    _Alignas(PP_CACHELINE) ck_ring_t full;
    _Alignas(PP_CACHELINE) ck_ring_t empty;

    /* Owner side. */
    _Alignas(PP_CACHELINE) uint32_t lock;
    uint32_t state;            /* PP_CH_*, atomic: the analyzer polls it */
    struct pp_chunk *current;  /* the chunk the owner's cursor points into */
    uint64_t published;        /* atomic */
    struct pp_wake empty_wake; /* the owner sleeps here for an empty chunk */
    /* Set with STATE = CLOSED by the exit-time flush when the owner still
     * runs: the TAIL_N events its current chunk held then, copied
     * (TAIL_OWNED: malloc'd) so that the analyzer reads memory nobody
     * writes; consumed after FULL is drained. */
    uint64_t *tail;
    uint32_t tail_n;
    uint32_t tail_owned;

    /* Analyzer side. */
    _Alignas(PP_CACHELINE) uint64_t consumed; /* atomic */
    struct pp_channel *next_free;             /* under the pool's lock */
};

/* STATE, with release/acquire ordering and the happens-before edge TSan
 * needs to see what was handed over with the change (hb-annotate.h). */
static inline void pp_channel_set_state(struct pp_channel *ch, uint32_t state)
{
    PP_HB_RELEASE(&ch->state);
    __atomic_store_n(&ch->state, state, __ATOMIC_RELEASE);
}

static inline uint32_t pp_channel_state(struct pp_channel *ch)
{
    uint32_t state = __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE);
    if (state != PP_CH_ACTIVE)
        PP_HB_ACQUIRE(&ch->state);
    return state;
}

/* A FREE channel with every chunk in EMPTY, or NULL (mmap failed).
 * CHUNK_EVENTS: a power of two >= 16; NCHUNKS >= 2. */
struct pp_channel *pp_channel_create(uint32_t chunk_events, uint32_t nchunks,
                                     size_t extra_size);
void pp_channel_destroy(struct pp_channel *ch);

/* Owner side, under LOCK. */
struct pp_chunk *pp_channel_take_empty(struct pp_channel *ch);
int pp_channel_has_empty(struct pp_channel *ch);
/* Consumer side: a full chunk is waiting (a hint; take_full decides). */
int pp_channel_has_full(struct pp_channel *ch);
/* Enqueues C with N events on FULL; cannot fail (see RING_SIZE). */
void pp_channel_publish(struct pp_channel *ch, struct pp_chunk *c, uint32_t n);

/* Analyzer side. */
struct pp_chunk *pp_channel_take_full(struct pp_channel *ch);
/* Zeroes C's first N words (N <= chunk_events) and enqueues it on EMPTY,
 * waking a waiting owner. */
void pp_channel_give_back(struct pp_channel *ch, struct pp_chunk *c, uint32_t n);
/* Counts C as consumed (for drains); after give_back of a FULL chunk. */
void pp_channel_count_consumed(struct pp_channel *ch);

/* The number of leading non-zero words of C: its events when nobody can
 * say where its cursor is (its thread is gone: fork).  With OUT (room for
 * chunk_events words), also copies them there.
 *
 * At exit the owner may still be writing C while this reads it: a race by
 * design, which only the exit-time flush runs.  Each word is read with an
 * atomic load and the probe stores whole aligned words, so a word read is
 * 0 or a complete event; the owner's stores can become visible out of
 * order, so the prefix may stop short of its cursor, never past it. */
uint32_t pp_chunk_scan(const struct pp_channel *ch, const struct pp_chunk *c,
                       uint64_t *out);

/* LOCK: a spin lock that backs off to sleeping, because its holder may be
 * asleep waiting for an empty chunk. */
void pp_channel_lock(struct pp_channel *ch);
int pp_channel_trylock(struct pp_channel *ch);
void pp_channel_unlock(struct pp_channel *ch);

/* The conservation invariant of a quiescent channel (no owner, nothing in
 * FULL, nothing in the analyzer's hand).  Returns 0 when broken. */
int pp_channel_valid(struct pp_channel *ch);

#pragma GCC visibility pop

#endif
