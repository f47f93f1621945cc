/* symbols.c - numbering stream symbols in order of first appearance (see
 * symbols.h). */
#include "symbols.h"

#include <stdlib.h>
#include <string.h>

static size_t bytes_of(const struct wpp_symbols *m)
{
    return m->cap * sizeof *m->by_id + (m->mask + 1) * sizeof *m->slot + sizeof m->cache;
}

static inline uint64_t hash(uint64_t w1, uint64_t w2)
{
    uint64_t h = (w1 ^ (w2 * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

int wpp_symbols_init(struct wpp_symbols *m)
{
    memset(m, 0, sizeof *m);
    m->cap = 256;
    m->mask = 511;
    m->by_id = malloc(m->cap * sizeof *m->by_id);
    m->slot = calloc(m->mask + 1, sizeof *m->slot);
    if (!m->by_id || !m->slot) {
        wpp_symbols_free(m);
        return -1;
    }
    for (unsigned i = 0; i < WPP_SYM_CACHE; i++)
        m->cache[i].w1 = UINT64_MAX;
    m->bytes = bytes_of(m);
    return 0;
}

void wpp_symbols_reset(struct wpp_symbols *m)
{
    m->n = 0;
    memset(m->slot, 0, (size_t)(m->mask + 1) * sizeof *m->slot);
    for (unsigned i = 0; i < WPP_SYM_CACHE; i++)
        m->cache[i].w1 = UINT64_MAX;
}

void wpp_symbols_free(struct wpp_symbols *m)
{
    free(m->by_id);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

static int grow(struct wpp_symbols *m)
{
    uint32_t cap = m->cap * 2;
    struct wpp_sym *v = realloc(m->by_id, (size_t)cap * sizeof *v);
    if (v == NULL)
        return -1;
    m->by_id = v;
    m->cap = cap;
    m->bytes = bytes_of(m);
    uint64_t mask = m->mask * 2 + 1;
    uint32_t *slot = calloc(mask + 1, sizeof *slot);
    if (slot == NULL)
        return -1;
    for (uint32_t id = 0; id < m->n; id++) {
        uint64_t i = hash(m->by_id[id].w1, m->by_id[id].w2) & mask;
        while (slot[i])
            i = (i + 1) & mask;
        slot[i] = id + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->mask = mask;
    m->bytes = bytes_of(m);
    return 0;
}

uint32_t wpp_symbols_find(struct wpp_symbols *m, uint64_t w1, uint64_t w2)
{
    uint64_t i = hash(w1, w2) & m->mask;
    for (;;) {
        uint32_t s = m->slot[i];
        if (s == 0)
            break;
        const struct wpp_sym *y = &m->by_id[s - 1];
        if (y->w1 == w1 && y->w2 == w2)
            return s - 1;
        i = (i + 1) & m->mask;
    }
    if (m->n == UINT32_MAX - 1)
        return UINT32_MAX;
    uint32_t id = m->n++;
    m->by_id[id].w1 = w1;
    m->by_id[id].w2 = w2;
    m->slot[i] = id + 1;
    if (m->n == m->cap && grow(m) != 0) {
        m->n--;
        m->slot[i] = 0; /* not kept: the caller sees the failure */
        return UINT32_MAX;
    }
    return id;
}
