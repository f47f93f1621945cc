/* core.h - bounded-memory k-iteration path profiles with bounds on
 * every reported path (docs/pruning.md): the core of the `ksf-pruned`
 * analyzer, free of the runtime so that tests/prune/unit.c drives it.
 *
 * Epochs.  Each producer thread builds its epoch's n-grams until the
 * analyzer thread's forests would outgrow their share of the budget.
 * Then the epoch ends: each distinct n-gram goes with its exact epoch
 * count into the per-length weighted Space-Saving summary S_n
 * (space-saving.h), and the forest is emptied, keeping its arrays.  By
 * default (PATHPROF_KSF_BUILD=links) the epoch's forest is the k-IPF
 * itself, built through suffix links (ksf/build.h, ksf_link_walk): its
 * nodes are the distinct n-grams, summed once at the epoch's end.  With
 * PATHPROF_KSF_BUILD=slabs (and wherever k is too large for the budget
 * to hold a linked step's nodes, kp_core_links), it is the paper's k-SF
 * (Fig. 6), whose n-grams (Fig. 7's enumeration: each node's down-paths
 * of depth <= k - 1) are summed in a scratch k-IPF (ksf/suffix-links.h)
 * first.  An activation whose state refers to an emptied forest is
 * re-seeded when it next runs: its last k - 1 path IDs (a ring per
 * activation) are replayed with weight 0, so an n-gram that spans the
 * epoch boundary is counted once, in the epoch where it ends.
 *
 * Memory.  The budget B (bytes per analyzer thread) is split once: B/4
 * for the forests of the analyzer thread's live producer threads, B/16
 * for the flush's scratch k-IPF (none when that is too small for k), the
 * rest for the k summaries, whose common capacity m is the largest that
 * fits.  A linked build has no scratch: its forests get B/4 and the
 * scratch's share, and m is the same as with slabs.
 * Every allocation is checked against it (kp_check); with
 * -DPATHPROF_PRUNE_CHECK a breach aborts.  Not counted: the activation
 * stacks, states and rings, which grow with the program's call depth, not
 * with its paths (docs/pruning.md).
 *
 * Threads: like the analyzer interface, a kp_core and its threads are used
 * by one analyzer thread at a time. */
#ifndef PATHPROF_KSF_PRUNE_H
#define PATHPROF_KSF_PRUNE_H

#include "ksf/build.h"
#include "ksf/suffix-links.h"
#include "space-saving.h"

#pragma GCC visibility push(hidden)

struct kp_thread;

struct kp_core {
    uint32_t k;
    uint32_t m;             /* counters per length; 0: unbounded (no budget) */
    int links;              /* forests are k-IPFs built through suffix links */
    uint64_t budget;        /* bytes; 0: off, exact */
    uint64_t forest_share;  /* bytes the live threads' forests may hold */
    uint64_t forest_bytes;  /* what they hold */
    uint64_t peak;          /* the most held at once (forests + summaries) */
    uint64_t threads, events, epochs, lost, overruns;
    uint64_t drains, updates; /* the flushes' scratch drains and summary updates */
    uint64_t skips;         /* updates their prefix's bound covered (ss_add_bounded) */
    uint64_t refits;        /* emptied forests given the whole share (core.c, refit) */
    struct ss_summary sum[KSF_MAX_K]; /* sum[n - 1]: n-grams of n paths */
    /* The flush sums an epoch's n-grams in this k-IPF first (core.c):
     * with a budget, a fixed B/16 that is drained whenever it fills. */
    struct ksf_linked scratch;
    int scratch_ok;         /* 0: too small for k; n-grams go one by one */
    struct kp_thread *live;
    int failed;
};

/* Per activation: Fig. 6's state, the forest epoch it refers to, and its
 * path events so far, which say where its ring of last path IDs stands:
 * the next ID goes to slot items mod ring, and the ring holds the last
 * min(items, k - 1) (one counter instead of a head and a fill level: the
 * batch loop's per-event ring update is a store and an increment). */
struct kp_act {
    struct ksf_state s;
    uint32_t epoch;
    uint64_t items;
};

struct kp_thread {
    struct ksf_builder b;
    uint32_t epoch;
    uint32_t ring;        /* ring slots per activation: a power of two >= k - 1 */
    uint32_t margin;      /* nodes one item may need, re-seeding included */
    uint32_t run_nodes;   /* nodes ksf_run may make for one run */
    size_t bytes;         /* its forest's bytes, as counted in forest_bytes */
    struct kp_thread *prev, *next;
};

/* BUDGET 0: no pruning (summaries grow, never evict).  LINKS asks for
 * the linked build (kp_core_links says whether it is used).  Returns 0,
 * or -1 when out of memory or when BUDGET cannot hold one counter per
 * length. */
int kp_core_init(struct kp_core *c, uint32_t k, uint64_t budget, int links);
/* Whether a core asked for LINKS at K and BUDGET builds through suffix
 * links: k >= 2, and the nodes one linked item may need (a re-seed makes
 * up to k(k - 1)/2 of them, where a k-SF's makes 2(k - 1)) within an
 * eighth of the forests' share. */
int kp_core_links(uint32_t k, uint64_t budget, int links);
void kp_core_free(struct kp_core *c);
/* Bytes held now: forests and summaries. */
uint64_t kp_core_held(const struct kp_core *c);
/* The capacity m a budget gives, 0 when too small (kp_core_init fails). */
uint32_t kp_counters_for(uint32_t k, uint64_t budget);

int kp_thread_init(struct kp_core *c, struct kp_thread *t);
/* Flushes the thread's last epoch and releases its forest. */
void kp_thread_end(struct kp_core *c, struct kp_thread *t);

/* A new activation (Fig. 6's "*"). */
static inline void kp_act_start(const struct kp_thread *t, struct kp_act *a)
{
    ksf_star(&a->s);
    a->epoch = t->epoch;
    a->items = 0;
}

void kp_make_room(struct kp_core *c, struct kp_thread *t);

/* Whether T's forest has room for one item and a re-seed without growing
 * (kp_item's test). */
static inline int kp_has_room(const struct kp_thread *t)
{
    const struct ksf_forest *f = &t->b.f;
    return f->len + t->margin <= f->cap &&
           2 * ((uint64_t)f->nroots + t->b.k + 1) <= f->nslots;
}

/* The longest T's forest may grow with kp_has_room still true, as long
 * as each new root is a new node (always): the node test is the cap, and
 * the root test holds while the nodes made from now on are no more than
 * the roots the table still takes.  The batch loop (feed.c) compares the
 * forest's length with this before each item, one compare for both
 * tests; 0 when kp_has_room is false now. */
static inline uint64_t kp_len_max(const struct kp_thread *t)
{
    const struct ksf_forest *f = &t->b.f;
    uint64_t half = f->nslots / 2, need = (uint64_t)f->nroots + t->b.k + 1;
    if (f->len + (uint64_t)t->margin > f->cap || need > half)
        return 0;
    uint64_t nodes = f->cap - t->margin, roots = f->len + (half - need);
    return nodes < roots ? nodes : roots;
}

void kp_reseed(struct kp_thread *t, struct kp_act *a, const uint64_t *ring);

/* One path event R of activation A, whose ring (t->ring slots) is RING. */
static inline void kp_item(struct kp_core *c, struct kp_thread *t, struct kp_act *a,
                           uint64_t *ring, uint64_t r)
{
    /* The one test the pruning adds per event: room for this item (and a
     * re-seed) without growing.  Growing or ending the epoch is rare and
     * out of line.  (The batch loop, feed.c, counts kp_room down instead.) */
    if (__builtin_expect(!kp_has_room(t), 0))
        kp_make_room(c, t);
    if (__builtin_expect(a->epoch != t->epoch, 0))
        kp_reseed(t, a, ring);
    ksf_item(&t->b, &a->s, r);
    ring[a->items++ & (t->ring - 1)] = r;
}

/* LEN consecutive events of the one ID R in activation A: the counts of
 * LEN kp_item calls in about 3(k - 1) steps (ksf/build.h, ksf_run, says
 * why the segments after the first whole one repeat).  The folded part
 * lies in one epoch: when an epoch ends while the repeating segment is
 * walked, the run goes on one event at a time. */
void kp_run(struct kp_core *c, struct kp_thread *t, struct kp_act *a, uint64_t *ring, uint64_t r,
            uint64_t len);

#pragma GCC visibility pop

#endif
