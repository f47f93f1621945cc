/* pool.c - channel reuse (see pool.h). */
#include "pool.h"

void pp_pool_init(struct pp_pool *p)
{
    p->head = NULL;
    p->free = NULL;
    p->nchannels = 0;
    pthread_mutex_init(&p->lock, NULL);
}

struct pp_channel *pp_pool_take(struct pp_pool *p, uint32_t chunk_events,
                                uint32_t nchunks, size_t extra_size)
{
    pthread_mutex_lock(&p->lock);
    struct pp_channel *ch = p->free;
    if (ch)
        p->free = ch->next_free;
    pthread_mutex_unlock(&p->lock);
    if (ch)
        return ch;

    ch = pp_channel_create(chunk_events, nchunks, extra_size);
    if (ch == NULL)
        return NULL;
    /* Several producers may add at once (each pool belongs to one
     * analyzer but producers of any thread pick it): a CAS loop. */
    struct pp_channel *old = __atomic_load_n(&p->head, __ATOMIC_RELAXED);
    do {
        ch->next = old;
    } while (!__atomic_compare_exchange_n(&p->head, &old, ch, 1, __ATOMIC_RELEASE,
                                          __ATOMIC_RELAXED));
    __atomic_fetch_add(&p->nchannels, 1, __ATOMIC_RELAXED);
    return ch;
}

void pp_pool_put(struct pp_pool *p, struct pp_channel *ch)
{
    pthread_mutex_lock(&p->lock);
    ch->next_free = p->free;
    p->free = ch;
    pthread_mutex_unlock(&p->lock);
}
