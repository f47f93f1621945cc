/* channel.c - the channel's mapping, its two rings and its lock
 * (see channel.h for the layout and the invariants). */
#include "channel.h"
#include "hb-annotate.h"

#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

struct pp_channel *pp_channel_create(uint32_t chunk_events, uint32_t nchunks,
                                     size_t extra_size)
{
    if (chunk_events < 16 || (chunk_events & (chunk_events - 1)) || nchunks < 2)
        return NULL;
    uint32_t ring_size = 2;
    while (ring_size <= nchunks)
        ring_size *= 2;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t off_slots = round_up(sizeof(struct pp_channel), PP_CACHELINE);
    size_t off_empty = off_slots + ring_size * sizeof(ck_ring_buffer_t);
    size_t off_chunks = off_empty + ring_size * sizeof(ck_ring_buffer_t);
    size_t off_extra = round_up(off_chunks + nchunks * sizeof(struct pp_chunk),
                                PP_CACHELINE);
    size_t chunk_bytes = (size_t)chunk_events * sizeof(uint64_t);
    /* Chunks are aligned to their size (the probe finds a chunk's end by
     * its address, see channel.h): map CHUNK_BYTES - PAGE more than needed
     * and start the events at the first aligned address past the header. */
    size_t align = chunk_bytes > page ? chunk_bytes : page;
    size_t header = round_up(off_extra + extra_size, page);
    size_t size = header + (align - page) + (size_t)nchunks * chunk_bytes;

    /* Fresh anonymous pages are zero: the chunks start out as the
     * invariant wants them, and untouched pages cost no memory. */
    unsigned char *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    size_t off_events = round_up((size_t)(uintptr_t)m + header, align) - (size_t)(uintptr_t)m;
    struct pp_channel *ch = (struct pp_channel *)m;
    ch->chunk_events = chunk_events;
    ch->nchunks = nchunks;
    ch->ring_size = ring_size;
    ch->map_size = size;
    ch->full_slots = (ck_ring_buffer_t *)(m + off_slots);
    ch->empty_slots = (ck_ring_buffer_t *)(m + off_empty);
    ch->chunk = (struct pp_chunk *)(m + off_chunks);
    ch->extra = extra_size ? m + off_extra : NULL;
    ck_ring_init(&ch->full, ring_size);
    ck_ring_init(&ch->empty, ring_size);
    for (uint32_t i = 0; i < nchunks; i++) {
        ch->chunk[i].ev = (uint64_t *)(m + off_events + i * chunk_bytes);
        ch->chunk[i].index = i;
        ck_ring_enqueue_spsc(&ch->empty, ch->empty_slots, &ch->chunk[i]);
    }
    ch->state = PP_CH_FREE;
    return ch;
}

void pp_channel_destroy(struct pp_channel *ch)
{
    if (ch)
        munmap(ch, ch->map_size);
}

/* Dequeue for either ring.  The slot is read inside ck_ring before we can
 * say "acquire", hence the ignored reads (hb-annotate.h). */
static struct pp_chunk *dequeue(ck_ring_t *ring, ck_ring_buffer_t *slots)
{
    struct pp_chunk *c = NULL;
    PP_IGNORE_READS_BEGIN();
    int ok = ck_ring_dequeue_spsc(ring, slots, &c);
    PP_IGNORE_READS_END();
    if (!ok)
        return NULL;
    PP_HB_ACQUIRE(ring);
    return c;
}

static void enqueue(ck_ring_t *ring, ck_ring_buffer_t *slots, struct pp_chunk *c)
{
    PP_HB_RELEASE(ring);
    /* Cannot fail: the ring has room for every chunk of the channel. */
    (void)ck_ring_enqueue_spsc(ring, slots, c);
}

struct pp_chunk *pp_channel_take_empty(struct pp_channel *ch)
{
    return dequeue(&ch->empty, ch->empty_slots);
}

int pp_channel_has_empty(struct pp_channel *ch)
{
    return ck_ring_size(&ch->empty) > 0;
}

int pp_channel_has_full(struct pp_channel *ch)
{
    return ck_ring_size(&ch->full) > 0;
}

void pp_channel_publish(struct pp_channel *ch, struct pp_chunk *c, uint32_t n)
{
    c->n = n;
    enqueue(&ch->full, ch->full_slots, c);
    __atomic_fetch_add(&ch->published, 1, __ATOMIC_RELEASE);
}

struct pp_chunk *pp_channel_take_full(struct pp_channel *ch)
{
    return dequeue(&ch->full, ch->full_slots);
}

void pp_channel_give_back(struct pp_channel *ch, struct pp_chunk *c, uint32_t n)
{
    memset(c->ev, 0, (size_t)(n < ch->chunk_events ? n : ch->chunk_events) *
                         sizeof(uint64_t));
    enqueue(&ch->empty, ch->empty_slots, c);
    pp_wake_signal(&ch->empty_wake);
}

void pp_channel_count_consumed(struct pp_channel *ch)
{
    __atomic_fetch_add(&ch->consumed, 1, __ATOMIC_RELEASE);
}

uint32_t pp_chunk_scan(const struct pp_channel *ch, const struct pp_chunk *c,
                       uint64_t *out)
{
    uint32_t n = 0;
    PP_IGNORE_READS_BEGIN(); /* the race described in channel.h */
    for (; n < ch->chunk_events; n++) {
        uint64_t w = __atomic_load_n(&c->ev[n], __ATOMIC_RELAXED);
        if (w == 0)
            break;
        if (out)
            out[n] = w;
    }
    PP_IGNORE_READS_END();
    return n;
}

int pp_channel_trylock(struct pp_channel *ch)
{
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(&ch->lock, &expected, 1, 0,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void pp_channel_lock(struct pp_channel *ch)
{
    for (unsigned spins = 0; !pp_channel_trylock(ch); spins++) {
        if (spins < 64) {
            ck_pr_stall(); /* pause: be kind to the holder's hyperthread */
        } else if (spins < 128) {
            sched_yield();
        } else {
            struct timespec ts = {0, 50 * 1000};
            nanosleep(&ts, NULL);
        }
    }
}

void pp_channel_unlock(struct pp_channel *ch)
{
    __atomic_store_n(&ch->lock, 0, __ATOMIC_RELEASE);
}

int pp_channel_valid(struct pp_channel *ch)
{
    /* Not ck_ring_valid: it compares free-running indices, which wrap
     * after 2^32 chunks, and a channel can live that long. */
    if (ck_ring_size(&ch->full) != 0 || ck_ring_size(&ch->empty) != ch->nchunks)
        return 0;
    return __atomic_load_n(&ch->consumed, __ATOMIC_ACQUIRE) ==
           __atomic_load_n(&ch->published, __ATOMIC_ACQUIRE);
}
