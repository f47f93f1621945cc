/* core.c - epochs, the memory budget and the flush of a k-SF
 * into the per-length summaries (core.h, docs/pruning.md). */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The smallest forest a thread keeps: a thread that runs little costs
 * little, and a forest taken away from an idle thread shrinks to this. */
#define KP_MIN_NODES 64u
#define KP_MIN_SLOTS 16u

uint32_t kp_counters_for(uint32_t k, uint64_t budget)
{
    uint64_t room = budget - budget / 4, lo = 0, hi = UINT32_MAX / 8;
    /* The largest m whose k summaries fit: ss_bytes grows with m. */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2, sum = 0;
        for (uint32_t n = 1; n <= k && sum <= room; n++)
            sum += ss_bytes(n, (uint32_t)mid);
        if (sum <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (uint32_t)lo;
}

uint64_t kp_core_held(const struct kp_core *c)
{
    uint64_t b = c->forest_bytes;
    for (uint32_t n = 1; n <= c->k; n++)
        b += ss_bytes(n, c->sum[n - 1].cap);
    return b;
}

/* After every allocation: the bound, and the peak the section reports. */
static void kp_check(struct kp_core *c)
{
    uint64_t held = kp_core_held(c);
    if (held > c->peak)
        c->peak = held;
#ifdef PATHPROF_PRUNE_CHECK
    if (c->budget && held > c->budget) {
        fprintf(stderr, "ksf-pruned: %llu bytes held, budget %llu\n", (unsigned long long)held,
                (unsigned long long)c->budget);
        abort();
    }
#endif
}

int kp_core_init(struct kp_core *c, uint32_t k, uint64_t budget)
{
    memset(c, 0, sizeof *c);
    c->k = k;
    c->budget = budget;
    if (budget) {
        c->m = kp_counters_for(k, budget);
        c->forest_share = budget / 4;
        if (c->m == 0)
            return -1;
    }
    for (uint32_t n = 1; n <= k; n++)
        if (ss_init(&c->sum[n - 1], n, c->m) != 0) {
            kp_core_free(c);
            return -1;
        }
    kp_check(c);
    return 0;
}

void kp_core_free(struct kp_core *c)
{
    for (uint32_t n = 1; n <= c->k; n++)
        ss_free(&c->sum[n - 1]);
}

/* Fig. 7's enumeration without building the k-IPF: the down-paths of
 * depth <= k - 1 of every node are the n-gram occurrences, each ending at
 * the node that counted it.  LABELS[0 .. d] is the path to U, H its
 * running hash (space-saving.h). */
static void flush_walk(struct kp_core *c, const struct ksf_forest *f, uint32_t u, uint32_t d,
                       uint64_t *labels, uint64_t h)
{
    if (f->n[u].count)
        ss_add_hashed(&c->sum[d], labels, ss_hash_final(h), f->n[u].count);
    if (d + 1 >= c->k)
        return;
    for (uint32_t ch = f->n[u].child; ch != 0; ch = f->n[ch].sibling) {
        labels[d + 1] = f->n[ch].label;
        flush_walk(c, f, ch, d + 1, labels, ss_hash_step(h, f->n[ch].label));
    }
}

/* Ends T's epoch: its n-grams into the summaries, its forest emptied. */
static void flush(struct kp_core *c, struct kp_thread *t)
{
    struct ksf_forest *f = &t->b.f;
    uint64_t labels[KSF_MAX_K];
    for (uint32_t v = 1; v < f->len; v++) {
        labels[0] = f->n[v].label;
        flush_walk(c, f, v, 0, labels, ss_hash_step(SS_HASH_SEED, labels[0]));
    }
    for (uint32_t n = 1; n <= c->k; n++)
        c->failed |= c->sum[n - 1].failed;
    if (f->n != NULL)
        ksf_forest_clear(f);
    t->b.last_root = 0; /* the one-entry root cache names an old node */
    t->epoch++;
    c->epochs++;
    kp_check(c); /* summaries may have grown */
}

static void account(struct kp_core *c, struct kp_thread *t)
{
    size_t now = ksf_forest_bytes(&t->b.f);
    c->forest_bytes = c->forest_bytes - t->bytes + now;
    t->bytes = now;
    kp_check(c);
}

/* What T's forest would hold after growing for one more item. */
static size_t grown_bytes(const struct kp_thread *t)
{
    const struct ksf_forest *f = &t->b.f;
    uint64_t cap = f->cap ? f->cap : 1, ns = f->nslots ? f->nslots : 1;
    while (f->len + (uint64_t)t->margin > cap)
        cap *= 2;
    while (2 * ((uint64_t)f->nroots + t->b.k + 1) > ns)
        ns *= 2;
    return cap * sizeof(struct ksf_node) + ns * sizeof(struct ksf_slot);
}

/* Another live thread's forest, flushed and shrunk to the minimum; 0 when
 * no thread has more than the minimum. */
static int steal(struct kp_core *c, struct kp_thread *self)
{
    struct kp_thread *best = NULL;
    size_t min = KP_MIN_NODES * sizeof(struct ksf_node) + KP_MIN_SLOTS * sizeof(struct ksf_slot);
    for (struct kp_thread *t = c->live; t; t = t->next)
        if (t != self && t->bytes > min && (!best || t->bytes > best->bytes))
            best = t;
    if (best == NULL)
        return 0;
    flush(c, best);
    if (ksf_forest_resize(&best->b.f, KP_MIN_NODES, KP_MIN_SLOTS) != 0)
        best->b.f.failed = 1;
    account(c, best);
    return 1;
}

void kp_make_room(struct kp_core *c, struct kp_thread *t)
{
    for (;;) {
        size_t after = grown_bytes(t);
        /* Growing holds the old arrays and the new ones for a moment
         * (realloc may move, the root table is rebuilt): both count. */
        if (c->budget == 0 || after == t->bytes ||
            c->forest_bytes + after <= c->forest_share)
            break; /* no growth needed, or it fits */
        if (t->b.f.len > 1) {
            flush(c, t); /* the common case: this thread's epoch ends */
            continue;
        }
        if (!steal(c, t)) {
            /* More live threads than the share holds at their minimum:
             * counted and reported rather than lose events. */
            c->overruns++;
            break;
        }
    }
    if (ksf_forest_reserve(&t->b.f, t->margin, t->b.k + 1) != 0) {
        t->b.f.failed = 1;
        c->failed = 1;
    }
    account(c, t);
}

void kp_reseed(struct kp_thread *t, struct kp_act *a, const uint64_t *ring)
{
    ksf_star(&a->s);
    a->epoch = t->epoch;
    /* The last SEEN IDs, oldest first, end just before HEAD. */
    for (uint32_t i = a->seen; i > 0; i--)
        ksf_seed(&t->b, &a->s, ring[(a->head - i) & (t->ring - 1)]);
}

int kp_thread_init(struct kp_core *c, struct kp_thread *t)
{
    memset(t, 0, sizeof *t);
    t->b.k = c->k;
    t->ring = 1;
    while (t->ring + 1 < c->k)
        t->ring *= 2;
    /* Up to two nodes per item (Fig. 6: the upper and the lower copy), for
     * the item and the k - 1 re-seeded before it. */
    t->margin = 2 * c->k + 2;
    t->b.f.len = 1;
    if (ksf_forest_resize(&t->b.f, KP_MIN_NODES, KP_MIN_SLOTS) != 0) {
        ksf_forest_free(&t->b.f);
        return -1;
    }
    t->next = c->live;
    if (c->live)
        c->live->prev = t;
    c->live = t;
    c->threads++;
    account(c, t);
    return 0;
}

void kp_thread_end(struct kp_core *c, struct kp_thread *t)
{
    flush(c, t);
    c->events += t->b.events;
    c->lost += t->b.lost;
    c->failed |= t->b.f.failed;
    ksf_forest_free(&t->b.f);
    if (t->prev)
        t->prev->next = t->next;
    else
        c->live = t->next;
    if (t->next)
        t->next->prev = t->prev;
    account(c, t);
}
