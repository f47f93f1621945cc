/* timings.c - per-path timing records (timings.h). */
#include "timings.h"

#include <stdlib.h>
#include <string.h>

unsigned vpp_bucket(uint64_t delta)
{
    if (delta == 0)
        return 0;
    unsigned b = 64u - (unsigned)__builtin_clzll(delta);
    return b < VPP_BUCKETS - 1 ? b : VPP_BUCKETS - 1;
}

uint64_t vpp_bucket_low(unsigned b)
{
    return b == 0 ? 0 : 1ull << (b - 1);
}

static size_t slot_of(uint64_t g, size_t cap)
{
    return (size_t)((g * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static int grow(struct vpp_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    struct vpp_stat *v = calloc(cap, sizeof *v);
    if (v == NULL)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].g == 0)
            continue;
        size_t j = slot_of(t->slots[i].g, cap);
        while (v[j].g != 0)
            j = (j + 1) & (cap - 1);
        v[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = v;
    t->cap = cap;
    return 0;
}

struct vpp_stat *vpp_table_find(const struct vpp_table *t, uint64_t g)
{
    if (t->cap == 0)
        return NULL;
    for (size_t j = slot_of(g, t->cap);; j = (j + 1) & (t->cap - 1)) {
        if (t->slots[j].g == g)
            return &t->slots[j];
        if (t->slots[j].g == 0)
            return NULL;
    }
}

struct vpp_stat *vpp_table_get(struct vpp_table *t, uint64_t g, uint64_t tu_id,
                               uint32_t func, uint64_t path_id)
{
    struct vpp_stat *s = vpp_table_find(t, g);
    if (s != NULL)
        return s;
    if (2 * (t->n + 1) > t->cap && grow(t) != 0)
        return NULL;
    size_t j = slot_of(g, t->cap);
    while (t->slots[j].g != 0)
        j = (j + 1) & (t->cap - 1);
    s = &t->slots[j];
    memset(s, 0, sizeof *s);
    s->g = g;
    s->tu_id = tu_id;
    s->func = func;
    s->path_id = path_id;
    t->n++;
    return s;
}

/* The histogram was kept against FROM; it is now against TO < FROM. */
static void rebase(uint64_t *hist, uint64_t from, uint64_t to)
{
    uint64_t moved[VPP_BUCKETS] = {0};
    uint64_t shift = from - to;
    for (unsigned b = 0; b < VPP_BUCKETS; b++) {
        if (hist[b] == 0)
            continue;
        uint64_t low = vpp_bucket_low(b);
        uint64_t d = low > UINT64_MAX - shift ? UINT64_MAX : low + shift;
        moved[vpp_bucket(d)] += hist[b];
    }
    memcpy(hist, moved, sizeof moved);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void vpp_stat_add(struct vpp_stat *s, uint64_t ticks)
{
    if (s->samples == 0) {
        s->base = ticks;
        s->max = ticks;
    } else if (ticks < s->base) {
        rebase(s->hist, s->base, ticks);
        s->base = ticks;
    }
    if (ticks > s->max)
        s->max = ticks;
    s->samples++;
    s->total = sat_add(s->total, ticks);
    s->hist[vpp_bucket(ticks - s->base)]++;
}

void vpp_stat_merge(struct vpp_stat *into, const struct vpp_stat *from)
{
    if (from->samples == 0)
        return;
    if (into->samples == 0) {
        uint64_t g = into->g;
        *into = *from;
        into->g = g;
        return;
    }
    uint64_t hist[VPP_BUCKETS];
    memcpy(hist, from->hist, sizeof hist);
    uint64_t base = into->base < from->base ? into->base : from->base;
    if (into->base > base)
        rebase(into->hist, into->base, base);
    if (from->base > base)
        rebase(hist, from->base, base);
    for (unsigned b = 0; b < VPP_BUCKETS; b++)
        into->hist[b] += hist[b];
    into->base = base;
    into->samples += from->samples;
    into->total = sat_add(into->total, from->total);
    if (from->max > into->max)
        into->max = from->max;
}

void vpp_table_free(struct vpp_table *t)
{
    free(t->slots);
    memset(t, 0, sizeof *t);
}
