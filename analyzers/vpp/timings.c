/* timings.c - per-path timing records (timings.h). */
#include "timings.h"

#include <stdlib.h>
#include <string.h>

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

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t vpp_stat_bucket(const struct vpp_stat *s, unsigned b)
{
    const uint64_t *g = s->grp[b / VPP_GROUP];
    return g ? g[b % VPP_GROUP] : 0;
}

static int have_group(struct vpp_stat *s, unsigned k)
{
    if (s->grp[k] == NULL)
        s->grp[k] = calloc(VPP_GROUP, sizeof *s->grp[k]);
    return s->grp[k] ? 0 : -1;
}

int vpp_stat_add(struct vpp_stat *s, uint64_t ticks)
{
    unsigned b = pprt_vpp_hist_bucket(ticks);
    if (have_group(s, b / VPP_GROUP) != 0)
        return -1;
    if (s->samples == 0 || ticks < s->base)
        s->base = ticks;
    if (ticks > s->max)
        s->max = ticks;
    s->samples++;
    s->total = sat_add(s->total, ticks);
    s->grp[b / VPP_GROUP][b % VPP_GROUP]++;
    return 0;
}

int vpp_stat_merge(struct vpp_stat *into, const struct vpp_stat *from)
{
    for (unsigned k = 0; k < VPP_GROUPS; k++)
        if (from->grp[k] && have_group(into, k) != 0)
            return -1; /* the groups made stay, empty: harmless */
    if (from->samples && (into->samples == 0 || from->base < into->base))
        into->base = from->base;
    if (from->max > into->max)
        into->max = from->max;
    into->samples += from->samples;
    into->total = sat_add(into->total, from->total);
    into->outliers += from->outliers;
    into->ev_samples += from->ev_samples;
    into->events = sat_add(into->events, from->events);
    for (unsigned k = 0; k < VPP_GROUPS; k++)
        for (unsigned j = 0; from->grp[k] && j < VPP_GROUP; j++)
            into->grp[k][j] += from->grp[k][j];
    return 0;
}

void vpp_table_free(struct vpp_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        for (unsigned k = 0; t->slots[i].g && k < VPP_GROUPS; k++)
            free(t->slots[i].grp[k]);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
