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

static uint64_t scratch_plan(uint32_t k, uint64_t budget, uint32_t *nodes, uint32_t *nslots);
static int scratch_init(struct kp_core *c);

uint32_t kp_counters_for(uint32_t k, uint64_t budget)
{
    uint32_t nodes, nslots;
    uint64_t room = budget - budget / 4 - scratch_plan(k, budget, &nodes, &nslots);
    uint64_t lo = 0, hi = UINT32_MAX / 8;
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

/* Nodes the scratch k-IPF must hold for the flush to make progress: after
 * a drain, the current k-SF path's last k - 1 labels are inserted again,
 * each with the nodes of its suffixes (k(k - 1)/2), then one node and its
 * links (k). */
static uint32_t scratch_min_nodes(uint32_t k)
{
    return k * (k - 1) / 2 + 2 * k + 2;
}

/* The scratch a budget B gives at K: B/16, an eighth of it root slots;
 * 0 when that is too small for K (a tiny budget at a large k): n-grams
 * then go into the summaries one by one, as Fig. 7 enumerates them. */
static uint64_t scratch_plan(uint32_t k, uint64_t budget, uint32_t *nodes, uint32_t *nslots)
{
    uint64_t share = budget / 16, ns = 2;
    while (ns * 2 * sizeof(struct ksf_slot) <= share / 8)
        ns *= 2;
    if (share < ns * sizeof(struct ksf_slot))
        return 0;
    uint64_t n = (share - ns * sizeof(struct ksf_slot)) /
                 (sizeof(struct ksf_node) + sizeof(uint32_t));
    if (n > UINT32_MAX / 2)
        n = UINT32_MAX / 2;
    if (n < scratch_min_nodes(k))
        return 0;
    *nodes = (uint32_t)n;
    *nslots = (uint32_t)ns;
    return ksf_linked_bytes(*nodes, *nslots);
}

/* Without a budget, the scratch grows as needed (the flush then sums a
 * whole epoch at once). */
static int scratch_init(struct kp_core *c)
{
    c->scratch_ok = 0;
    uint32_t nodes = 0, nslots = 0;
    if (c->budget != 0 && scratch_plan(c->k, c->budget, &nodes, &nslots) == 0)
        return 0;
    if (ksf_linked_init(&c->scratch, nodes, nslots) != 0)
        return -1;
    c->scratch_ok = 1;
    return 0;
}

static uint64_t scratch_bytes(const struct kp_core *c)
{
    if (!c->scratch_ok)
        return 0;
    return ksf_linked_bytes(c->scratch.f.cap, c->scratch.f.nslots);
}

uint64_t kp_core_held(const struct kp_core *c)
{
    uint64_t b = c->forest_bytes + scratch_bytes(c);
    for (uint32_t n = 1; n <= c->k; n++)
        b += ss_held(&c->sum[n - 1]);
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

/* Nodes one item may make, a re-seed before it included.  A k-SF step
 * makes at most two (Fig. 6: the upper and the lower copy).  A linked
 * step makes the node of its longest suffix and, missing, the nodes of
 * the shorter ones (at most k); a re-seed into an emptied forest replays
 * k - 1 IDs, the i-th making at most i. */
static uint32_t item_margin(uint32_t k, int links)
{
    return links ? k * (k - 1) / 2 + k + 2 : 2 * k + 2;
}

/* Bytes a forest holds per node: the node, and its link when linked. */
static size_t node_bytes(int links)
{
    return sizeof(struct ksf_node) + (links ? sizeof(uint32_t) : 0);
}

/* The forests' share of BUDGET: B/4, and with links the scratch's too. */
static uint64_t forest_share(uint32_t k, uint64_t budget, int links)
{
    uint32_t nodes, nslots;
    return budget / 4 + (links ? scratch_plan(k, budget, &nodes, &nslots) : 0);
}

int kp_core_links(uint32_t k, uint64_t budget, int links)
{
    if (!links || k < 2)
        return 0;
    uint64_t margin = (uint64_t)item_margin(k, 1) * node_bytes(1);
    return budget == 0 || margin <= forest_share(k, budget, 1) / 8;
}

int kp_core_init(struct kp_core *c, uint32_t k, uint64_t budget, int links)
{
    memset(c, 0, sizeof *c);
    c->k = k;
    c->budget = budget;
    c->links = kp_core_links(k, budget, links);
    if (budget) {
        c->m = kp_counters_for(k, budget);
        c->forest_share = forest_share(k, budget, c->links);
        if (c->m == 0)
            return -1;
    }
    for (uint32_t n = 1; n <= k; n++)
        if (ss_init(&c->sum[n - 1], n, c->m) != 0) {
            kp_core_free(c);
            return -1;
        }
    if (!c->links && scratch_init(c) != 0) {
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
    if (c->scratch_ok)
        ksf_linked_free(&c->scratch);
    c->scratch_ok = 0;
}

/* Fig. 7's enumeration without building the k-IPF: the down-paths of
 * depth <= k - 1 of every node are the n-gram occurrences, each ending at
 * the node that counted it.  LABELS[0 .. d] is the path to U, H its
 * running hash (space-saving.h). */
static void flush_walk(struct kp_core *c, const struct ksf_forest *f, uint32_t u, uint32_t d,
                       uint64_t *labels, uint64_t h)
{
    if (f->n[u].count) {
        ss_add_hashed(&c->sum[d], labels, ss_hash_final(h), f->n[u].count);
        c->updates++;
    }
    if (d + 1 >= c->k)
        return;
    for (uint32_t ch = f->n[u].child; ch != 0; ch = f->n[ch].sibling) {
        labels[d + 1] = f->n[ch].label;
        flush_walk(c, f, ch, d + 1, labels, ss_hash_step(h, f->n[ch].label));
    }
}

/* The flush through the scratch k-IPF.  Fig. 7's enumeration adds each
 * occurrence to the summaries, k updates per k-SF node (three cache
 * misses each: the summary's slot, its entry, its labels), where an
 * epoch has 3 to 10 times fewer distinct n-grams (bzip2's stream: 30 M
 * updates against 3.7 M at k = 8; perfctl/micro/ksf-replay.c).  Summed
 * first (ksf/suffix-links.h: one lookup per k-SF node), each distinct
 * n-gram goes in once per drain with its exact count, which weighted
 * Space-Saving takes as one update of that weight: the guarantee is the
 * same (docs/pruning.md).
 *
 * The scratch has a fixed size: when it is full, it is drained (summed,
 * its n-grams into the summaries, emptied) and the walk goes on; the
 * nodes the walk holds for the current k-SF path are then made again
 * from the path's labels (their generation is older than the drain). */
/* The drain's updates wait in a ring of SS_AHEAD, their slots prefetched
 * when they enter, so that each probe finds its line on the way, and the
 * entries those slots name prefetched halfway through the ring, once the
 * slot has come (the probe's second and third misses: lz4's stream at
 * k = 8 spent a fifth of its time in the probe). */
#define SS_AHEAD 8 /* a power of two */

struct pending {
    uint64_t w;
    uint32_t h, n;
    uint32_t ph; /* the hash of its first n - 1 labels (n >= 2) */
    uint64_t labels[KSF_MAX_K];
};

struct flusher {
    struct kp_core *c;
    const struct ksf_forest *sf;
    struct ksf_linked *l;
    uint32_t k;
    uint32_t gen;                    /* drains so far, + 1 */
    uint64_t lab[2 * KSF_MAX_K + 1]; /* lab[d]: the label at k-SF depth d */
    uint32_t node[2 * KSF_MAX_K + 1]; /* its longest suffix's k-IPF node */
    uint32_t node_gen[2 * KSF_MAX_K + 1];
    uint64_t labels[KSF_MAX_K];      /* the drain's n-gram */
    struct pending ahead[SS_AHEAD];  /* updates on their way, oldest at next */
    uint32_t next, waiting;
    /* The drained k-IPF is an epoch's own (the linked build): its counts
     * are whole, so each n-gram's prefix, its parent, was given all its
     * occurrences that precede the n-gram's before the n-gram comes
     * (ss_add_bounded).  Not so for the k-SF's scratch: an occurrence's
     * prefix is counted at the k-SF node that counted the event before,
     * which may be another copy, walked later or after a drain. */
    int bounded;
};

/* The oldest pending update into its summary. */
static void add_oldest(struct flusher *fl)
{
    struct pending *p = &fl->ahead[fl->next];
    /* The walk is depth-first: the n-gram's prefix, its parent, was
     * added before it, and its bound there covers it (ss_add_bounded). */
    if (p->n >= 2 && fl->bounded)
        fl->c->skips += (uint64_t)ss_add_bounded(&fl->c->sum[p->n - 1], p->labels, p->h, p->w,
                                                 &fl->c->sum[p->n - 2], p->ph);
    else
        ss_add_hashed(&fl->c->sum[p->n - 1], p->labels, p->h, p->w);
    fl->c->updates++;
    fl->next = (fl->next + 1) & (SS_AHEAD - 1);
    fl->waiting--;
}

/* Adds W to the n-gram fl->labels[0 .. N) of hash H, SS_AHEAD updates
 * later. */
static void add_ahead(struct flusher *fl, uint32_t n, uint32_t h, uint32_t ph, uint64_t w)
{
    if (fl->waiting == SS_AHEAD)
        add_oldest(fl);
    struct pending *p = &fl->ahead[(fl->next + fl->waiting) & (SS_AHEAD - 1)];
    ss_prefetch(&fl->c->sum[n - 1], h);
    p->w = w;
    p->h = h;
    p->ph = ph;
    p->n = n;
    for (uint32_t i = 0; i < n; i++) /* short: a call to memcpy cost more */
        p->labels[i] = fl->labels[i];
    fl->waiting++;
    if (fl->waiting > SS_AHEAD / 2) {
        const struct pending *q =
            &fl->ahead[(fl->next + fl->waiting - 1 - SS_AHEAD / 2) & (SS_AHEAD - 1)];
        ss_prefetch_entry(&fl->c->sum[q->n - 1], q->h);
    }
}

/* Every n-gram under ROOT (depth <= k) into the summaries, in depth-first
 * order, without recursion (a call per scratch node was a seventh of the
 * drain's instructions at k = 16): up[d] is the node at depth d on the
 * way down, hs[d] the hash of the labels down to it. */
static void drain_root(uint32_t root, void *ctx)
{
    struct flusher *fl = ctx;
    const struct ksf_node *n = fl->l->f.n;
    uint32_t up[KSF_MAX_K + 1];
    uint64_t hs[KSF_MAX_K + 1];
    hs[0] = SS_HASH_SEED;
    uint32_t u = root, d = 1;
    for (;;) {
        /* Each node is a cache miss (the walk's order is not the array's):
         * the next ones on their way while this one is added, its child
         * next and its sibling after its subtree (bzip2's stream at k = 8:
         * 0.96 -> 0.92 s of CPU for the replay, medians of 3). */
        __builtin_prefetch(&n[n[u].sibling]);
        __builtin_prefetch(&n[n[u].child]);
        fl->labels[d - 1] = n[u].label;
        hs[d] = ss_hash_step(hs[d - 1], n[u].label);
        if (n[u].count)
            add_ahead(fl, d, ss_hash_final(hs[d]), ss_hash_final(hs[d - 1]), n[u].count);
        if (d < fl->k && n[u].child != 0) {
            up[d++] = u;
            u = n[u].child;
            continue;
        }
        /* The next sibling of U or of its nearest ancestor below the root. */
        while (d > 1 && n[u].sibling == 0)
            u = up[--d];
        if (d == 1)
            return;
        u = n[u].sibling;
    }
}

/* Every n-gram of L, summed, into the summaries; L emptied. */
static void drain_linked(struct flusher *fl)
{
    ksf_linked_sum(fl->l);
    ksf_each_root(&fl->l->f, drain_root, fl);
    while (fl->waiting)
        add_oldest(fl);
    ksf_linked_clear(fl->l);
}

static void drain(struct flusher *fl)
{
    drain_linked(fl);
    fl->gen++;
    fl->c->drains++;
}

/* The k-IPF node of the longest suffix (at most k labels) of lab[1 .. d];
 * 0 when the scratch is full or out of memory. */
static uint32_t node_at(struct flusher *fl, uint32_t d)
{
    if (fl->node_gen[d] == fl->gen)
        return fl->node[d];
    uint32_t base = 0;
    if (d > 1 && fl->node_gen[d - 1] == fl->gen) {
        uint32_t p = fl->node[d - 1];
        base = d - 1 < fl->k ? p : ksf_linked_link(fl->l, p);
    } else if (d > 1) {
        /* Drained since: the parent's last min(d - 1, k - 1) labels again. */
        uint32_t len = d - 1 < fl->k - 1 ? d - 1 : fl->k - 1;
        for (uint32_t i = d - len; i < d; i++)
            if ((base = ksf_linked_child(fl->l, base, fl->lab[i])) == 0)
                return 0;
    }
    uint32_t t = ksf_linked_child(fl->l, base, fl->lab[d]);
    if (t != 0) {
        fl->node[d] = t;
        fl->node_gen[d] = fl->gen;
    }
    return t;
}

static void flush_linked_walk(struct flusher *fl, uint32_t u, uint32_t d)
{
    if (d > 2 * KSF_MAX_K) {
        fl->c->failed = 1; /* deeper than Fig. 6 builds: never */
        return;
    }
    fl->lab[d] = fl->sf->n[u].label;
    fl->node_gen[d] = 0; /* a new node at this depth */
    uint32_t t = node_at(fl, d);
    if (t == 0 && fl->l->full) {
        drain(fl);
        t = node_at(fl, d);
    }
    if (t == 0) {
        fl->c->failed = 1; /* out of memory: the summaries miss counts */
        return;
    }
    fl->l->f.n[t].count += fl->sf->n[u].count;
    for (uint32_t ch = fl->sf->n[u].child; ch != 0; ch = fl->sf->n[ch].sibling)
        flush_linked_walk(fl, ch, d + 1);
}

static void flush_linked_root(uint32_t root, void *ctx)
{
    flush_linked_walk(ctx, root, 1);
}

/* Ends T's epoch: its n-grams into the summaries, its forest emptied. */
static void flush(struct kp_core *c, struct kp_thread *t)
{
    struct ksf_forest *f = &t->b.f;
    if (t->b.links) {
        /* The forest is the epoch's k-IPF: summed and drained in place
         * (ksf_linked_clear bumps the gen, as ksf_forest_clear does);
         * without arrays there is nothing to flush. */
        struct flusher fl = {.c = c, .l = &t->b.lk, .k = c->k, .bounded = 1};
        c->failed |= t->b.lk.f.failed;
        if (f->n != NULL)
            drain_linked(&fl);
    } else if (c->scratch_ok) {
        struct flusher fl = {.c = c, .sf = f, .l = &c->scratch, .k = c->k, .gen = 1};
        ksf_each_root(f, flush_linked_root, &fl);
        drain(&fl);
        c->failed |= c->scratch.f.failed;
    } else {
        uint64_t labels[KSF_MAX_K];
        for (uint32_t v = 1; v < f->len; v++) {
            labels[0] = f->n[v].label;
            flush_walk(c, f, v, 0, labels, ss_hash_step(SS_HASH_SEED, labels[0]));
        }
    }
    for (uint32_t n = 1; n <= c->k; n++)
        c->failed |= c->sum[n - 1].failed;
    if (f->n != NULL && !t->b.links)
        ksf_forest_clear(f);
    t->b.last_root = 0; /* the one-entry root cache names an old node */
    t->epoch++;
    c->epochs++;
    kp_check(c); /* summaries may have grown */
}

/* T's forest's bytes: nodes and root slots, and links when linked. */
static size_t thread_bytes(const struct kp_thread *t)
{
    return t->b.links ? ksf_linked_held(&t->b.lk) : ksf_forest_bytes(&t->b.f);
}

/* ksf_forest_reserve and ksf_forest_resize, the links following. */
static int thread_reserve(struct kp_thread *t, uint32_t nodes, uint32_t roots)
{
    if (ksf_forest_reserve(&t->b.f, nodes, roots) != 0)
        return -1;
    return t->b.links ? ksf_linked_fit(&t->b.lk) : 0;
}

static int thread_resize(struct kp_thread *t, uint32_t cap, uint32_t nslots)
{
    if (ksf_forest_resize(&t->b.f, cap, nslots) != 0)
        return -1;
    return t->b.links ? ksf_linked_fit(&t->b.lk) : 0;
}

static void account(struct kp_core *c, struct kp_thread *t)
{
    size_t now = thread_bytes(t);
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
    return cap * node_bytes(t->b.links) + ns * sizeof(struct ksf_slot);
}

/* Another live thread's forest, flushed and shrunk to the minimum; 0 when
 * no thread has more than the minimum. */
static int steal(struct kp_core *c, struct kp_thread *self)
{
    struct kp_thread *best = NULL;
    size_t min = KP_MIN_NODES * node_bytes(c->links) + KP_MIN_SLOTS * sizeof(struct ksf_slot);
    for (struct kp_thread *t = c->live; t; t = t->next)
        if (t != self && t->bytes > min && (!best || t->bytes > best->bytes))
            best = t;
    if (best == NULL)
        return 0;
    flush(c, best);
    if (thread_resize(best, KP_MIN_NODES, KP_MIN_SLOTS) != 0)
        best->b.f.failed = 1;
    account(c, best);
    return 1;
}

/* After T's epoch ended because its forest could not double within the
 * share: the emptied forest given all the share it may hold alone, so
 * that the next epoch is as long as the budget allows (its fair part of
 * it, when other producer threads are live).  Doubling holds
 * the old and the new arrays at once, so it stops at a power of two that
 * may fill as little as a third of the share (bzip2 at 16 MiB, k = 8:
 * 64 Ki nodes where the share holds 187 Ki); an empty forest has nothing
 * to keep, and its arrays are replaced (realloc of a block that is
 * copied only as far as it is used).  ROOTS_FULL: the root table, not the
 * nodes, ran out, and doubles. */
static void refit(struct kp_core *c, struct kp_thread *t, int roots_full)
{
    const struct ksf_forest *f = &t->b.f;
    uint64_t others = c->forest_bytes - t->bytes;
    uint64_t nslots = roots_full ? 2 * (uint64_t)f->nslots : f->nslots;
    uint64_t slots = nslots * sizeof(struct ksf_slot);
    /* No more than a live thread's fair part: a thread that took all
     * the rest would leave the others short epochs (they flush rather
     * than take from it while their own forest holds anything). */
    uint64_t live = 0;
    for (const struct kp_thread *u = c->live; u; u = u->next)
        live++;
    uint64_t room = c->forest_share - (others < c->forest_share ? others : c->forest_share);
    if (live > 1 && room > c->forest_share / live)
        room = c->forest_share / live;
    if (f->n == NULL || slots >= room || nslots > UINT32_MAX / 2 + 1)
        return;
    uint64_t cap = (room - slots) / node_bytes(t->b.links);
    if (cap > UINT32_MAX / 2)
        cap = UINT32_MAX / 2;
    if (cap < KP_MIN_NODES + (uint64_t)t->margin || (!roots_full && cap <= f->cap + f->cap / 8))
        return; /* too little gained */
    if (thread_resize(t, (uint32_t)cap, (uint32_t)nslots) != 0)
        t->b.f.failed = c->failed = 1;
    c->refits++;
    account(c, t);
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
            const struct ksf_forest *f = &t->b.f;
            int roots_full = 2 * ((uint64_t)f->nroots + t->b.k + 1) > f->nslots;
            flush(c, t); /* the common case: this thread's epoch ends */
            refit(c, t, roots_full);
            continue;
        }
        if (!steal(c, t)) {
            /* More live threads than the share holds at their minimum:
             * counted and reported rather than lose events. */
            c->overruns++;
            break;
        }
    }
    if (thread_reserve(t, t->margin, t->b.k + 1) != 0) {
        t->b.f.failed = 1;
        c->failed = 1;
    }
    account(c, t);
}

void kp_reseed(struct kp_thread *t, struct kp_act *a, const uint64_t *ring)
{
    ksf_star(&a->s);
    a->epoch = t->epoch;
    /* The last min(items, k - 1) IDs, oldest first. */
    uint64_t seen = a->items < t->b.k - 1 ? a->items : t->b.k - 1;
    for (uint64_t i = seen; i > 0; i--)
        ksf_seed(&t->b, &a->s, ring[(a->items - i) & (t->ring - 1)]);
}

int kp_thread_init(struct kp_core *c, struct kp_thread *t)
{
    memset(t, 0, sizeof *t);
    t->b.k = c->k;
    t->b.links = c->links;
    t->ring = 1;
    while (t->ring + 1 < c->k)
        t->ring *= 2;
    t->margin = item_margin(c->k, c->links);
    /* ksf_run's steps for one run: a linked run walks k of them, each
     * making at most k nodes (build.c, run_linked); a k-SF run at most
     * 4(k - 1), two nodes each. */
    t->run_nodes = c->links ? c->k * c->k : 8 * c->k;
    t->b.f.len = 1;
    if (thread_resize(t, KP_MIN_NODES, KP_MIN_SLOTS) != 0) {
        ksf_builder_free(&t->b);
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
    ksf_builder_free(&t->b);
    if (t->prev)
        t->prev->next = t->next;
    else
        c->live = t->next;
    if (t->next)
        t->next->prev = t->prev;
    account(c, t);
}

/* kp_run built through links: after k steps of R the longest suffix is
 * R^k and every later step counts there (build.c, run_linked).  The k
 * steps are items with their room tests; whatever epoch they end in,
 * the last one left the state in the current forest, so the rest is one
 * addition there, and the ring, already ending with k - 1 copies of R,
 * needs no more (a re-seed would replay the same IDs). */
static void run_linked(struct kp_core *c, struct kp_thread *t, struct kp_act *a, uint64_t *ring,
                       uint64_t r, uint64_t len)
{
    uint64_t j = 0;
    for (; j < len && j < t->b.k; j++)
        kp_item(c, t, a, ring, r);
    if (j < len && a->s.n != 0) { /* n = 0: the last item was lost */
        t->b.f.n[a->s.tau].count += len - j;
        t->b.events += len - j;
    } else {
        for (; j < len; j++)
            kp_item(c, t, a, ring, r);
    }
}

void kp_run(struct kp_core *c, struct kp_thread *t, struct kp_act *a, uint64_t *ring, uint64_t r,
            uint64_t len)
{
    if (t->b.links) {
        run_linked(c, t, a, ring, r, len);
        return;
    }
    uint64_t seg = t->b.k > 1 ? t->b.k - 1 : 1, done = 0;
    while (done < len && !(a->s.n == 0 && done >= seg - (t->b.k == 1))) {
        kp_item(c, t, a, ring, r);
        done++;
    }
    if (len - done >= 2 * seg) {
        uint32_t counted[KSF_MAX_K], epoch = t->epoch;
        uint64_t j = 0;
        for (; j < seg; j++) {
            /* kp_item's room check and re-seed, then the item itself. */
            if (!kp_has_room(t))
                kp_make_room(c, t);
            if (a->epoch != t->epoch)
                kp_reseed(t, a, ring);
            counted[j] = ksf_item_weighted(&t->b, &a->s, r, 1);
            ring[a->items++ & (t->ring - 1)] = r;
            if (counted[j] == 0)
                break;
        }
        done += j;
        if (j == seg && t->epoch == epoch) {
            /* The ring already holds k - 1 copies of R last: the folded
             * events would not change what a re-seed replays. */
            uint64_t q = (len - done) / seg;
            for (j = 0; j < seg; j++)
                t->b.f.n[counted[j]].count += q;
            t->b.events += q * seg;
            t->b.hash_ops += q;
            done += q * seg;
        }
    }
    for (; done < len; done++)
        kp_item(c, t, a, ring, r);
}
