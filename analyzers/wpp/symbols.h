/* symbols.h - the terminals of one grammar: each distinct stream symbol
 * (a path event word, or a marker's two words) gets the next number the
 * first time it appears, as PPCompress numbers executed (function, path)
 * pairs (the WPP paper, section 3.3).  The words are kept exactly, START
 * and RET bits and frame addresses included, so expanding the grammar
 * gives back the stream word for word.  Open addressing, doubling at half
 * load: constant expected time per lookup. */
#ifndef PATHPROF_WPP_SYMBOLS_H
#define PATHPROF_WPP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct wpp_sym {
    uint64_t w1; /* the path event, or the marker's first word */
    uint64_t w2; /* the marker's frame word; 0 for a path event */
};

#define WPP_SYM_CACHE 256

struct wpp_symbols {
    struct wpp_sym *by_id; /* in order of first appearance */
    uint32_t n, cap;
    uint32_t *slot;        /* id + 1, 0 empty */
    uint64_t mask;
    size_t bytes;          /* what the arrays hold (wpp_symbols_bytes) */
    /* Path events recently looked up, direct-mapped by their low bits (a
     * loop's few paths stay here): w1 UINT64_MAX, a marker's word, never
     * matches one. */
    struct { uint64_t w1; uint32_t id; } cache[WPP_SYM_CACHE];
};

int wpp_symbols_init(struct wpp_symbols *m);
void wpp_symbols_free(struct wpp_symbols *m);
/* Forgets every symbol, keeping the arrays (the next epoch's table). */
void wpp_symbols_reset(struct wpp_symbols *m);
/* Bytes the table holds (checked before every symbol that is not a
 * repeat: kept up to date by init and grow, one load here). */
static inline size_t wpp_symbols_bytes(const struct wpp_symbols *m)
{
    return m->bytes;
}
/* The symbol's number, a new one when first seen; UINT32_MAX when memory
 * ran out. */
uint32_t wpp_symbols_find(struct wpp_symbols *m, uint64_t w1, uint64_t w2);
static inline uint32_t wpp_symbols_id(struct wpp_symbols *m, uint64_t w1, uint64_t w2)
{
    if (w2 == 0) {
        unsigned c = (unsigned)(w1 ^ (w1 >> 7)) & (WPP_SYM_CACHE - 1);
        if (m->cache[c].w1 == w1)
            return m->cache[c].id;
        uint32_t id = wpp_symbols_find(m, w1, w2);
        if (id != UINT32_MAX) {
            m->cache[c].w1 = w1;
            m->cache[c].id = id;
        }
        return id;
    }
    return wpp_symbols_find(m, w1, w2);
}

#pragma GCC visibility pop

#endif
