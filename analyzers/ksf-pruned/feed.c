/* feed.c - the batch loop of the ksf-pruned analyzer (feed.h). */
#include "feed.h"

#include "pathprof-abi.h"

#include <stdlib.h>

/* Shorter runs are cheaper walked one by one than set up for kp_run. */
#define KP_RUN_MIN 4

void kp_seq_init(struct kp_seq *q)
{
    pp_act_init(&q->acts, NULL, NULL);
    q->act = NULL;
    q->rings = NULL;
    q->cap = 0;
}

void kp_seq_free(struct kp_seq *q)
{
    pp_act_free(&q->acts);
    free(q->act);
    free(q->rings);
    q->act = NULL;
    q->rings = NULL;
    q->cap = 0;
}

/* The activation at DEPTH and its ring, grown on demand; NULL when out of
 * memory. */
static struct kp_act *act_at(const struct kp_thread *t, struct kp_seq *q, size_t depth)
{
    if (depth > q->cap) {
        size_t cap = q->cap ? q->cap : 64;
        while (cap < depth)
            cap *= 2;
        struct kp_act *v = realloc(q->act, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        q->act = v;
        uint64_t *r = realloc(q->rings, cap * t->ring * sizeof *r);
        if (r == NULL)
            return NULL;
        q->rings = r;
        q->cap = cap;
    }
    return &q->act[depth - 1];
}

/* The general form of one word (markers, calls and returns the fast form
 * does not take, activations past the stack's capacity): the activation
 * stack's step, then kp_item for a path; an activation that cannot be
 * stored loses its paths (counted). */
static void feed_slow(struct kp_core *c, struct kp_thread *t, struct kp_seq *q, uint64_t w)
{
    struct pp_act_step step;
    pp_act_feed(&q->acts, w, &step);
    if (!pp_act_step_feeds_sequence(&step))
        return;
    struct kp_act *s = act_at(t, q, step.depth);
    if (s == NULL) {
        t->b.lost += step.what == PP_ACT_PATH ? 1 : step.what == PP_ACT_RUN ? step.repeat : 0;
        return;
    }
    if (step.pushed)
        kp_act_start(t, s);
    uint64_t *ring = q->rings + (step.depth - 1) * t->ring;
    if (step.what == PP_ACT_PATH)
        kp_item(c, t, s, ring, w & PATHPROF_EV_INDEX_MASK);
    else if (step.what == PP_ACT_RUN) /* a loop counted at its exits */
        kp_run(c, t, s, ring, step.word & PATHPROF_EV_INDEX_MASK, step.repeat);
}

/* k = 1 (Ball-Larus counting at the roots), and the general form of
 * every word: kp_item per path event, its room test included. */
static void feed_general(struct kp_core *c, struct kp_thread *t, struct kp_seq *q,
                         const uint64_t *ev, size_t n)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        if ((w & special) == 0 && !q->acts.has_half && depth != 0 && depth <= q->cap) {
            kp_item(c, t, &q->act[depth - 1], q->rings + (depth - 1) * t->ring,
                    w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            if (pushed)
                kp_act_start(t, &q->act[d - 1]);
            kp_item(c, t, &q->act[d - 1], q->rings + (d - 1) * t->ring,
                    w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        feed_slow(c, t, q, w);
    }
}

/* The forest length up to which items need no room test (kp_len_max),
 * after growing T's forest or ending its epoch when it has no room, and A
 * re-seeded when its forest was emptied since it last ran.  The item
 * about to be walked fits either way (kp_make_room leaves room for an
 * item and a re-seed); 0 when nothing more does. */
static uint64_t refill(struct kp_core *c, struct kp_thread *t, struct kp_act *a, uint64_t *ring)
{
    if (!kp_has_room(t))
        kp_make_room(c, t);
    if (a->epoch != t->epoch)
        kp_reseed(t, a, ring);
    return kp_len_max(t);
}

/* ksf/feed.c's loop with the pruned core's two additions: the room test
 * before each item is one compare of the forest's length with a limit
 * (kp_len_max) computed when it last failed, and an activation's epoch is
 * compared when the loop comes to it (a flush can only happen in refill,
 * kp_run or kp_item, after which it is compared again); each event
 * stores its ID in the activation's ring. */
void kp_feed(struct kp_core *c, struct kp_thread *t, struct kp_seq *q, const uint64_t *ev,
             size_t n)
{
    if (t->b.k == 1) {
        feed_general(c, t, q, ev, n);
        return;
    }
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    const uint64_t mask = t->ring - 1;
    const unsigned ring_shift = (unsigned)__builtin_ctz(t->ring); /* a power of two */
    uint64_t paths = 0; /* path events walked here (kp_run and kp_item count their own) */
    uint64_t len_max = kp_len_max(t);
    size_t i = 0;
    while (i < n) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        /* The common events: paths in the middle of the top activation,
         * whose state stays in registers until the next call, return or
         * marker (ksf/feed.c). */
        if (__builtin_expect(((w & special) == 0 || pp_act_run_pair(ev, i, n)) && !q->acts.has_half &&
                                 depth != 0 && depth <= q->cap, 1)) {
            struct kp_act *a = &q->act[depth - 1];
            uint64_t *ring = q->rings + ((depth - 1) << ring_shift);
            if (__builtin_expect(a->epoch != t->epoch || t->b.f.len > len_max, 0))
                len_max = refill(c, t, a, ring);
            struct ksf_state st = a->s;
            uint64_t items = a->items;
            /* Leaf calls (START and RET in one word) stay in this loop as
             * in ksf/feed.c while the forest has room: the root counts,
             * and the activation ends before anything reads its state. */
            const uint64_t leaf = PATHPROF_EV_START | PATHPROF_EV_RET;
            const bool leaf_ok = pp_act_leaf_ok(&q->acts, q->cap);
            uint64_t leaves = 0;
            do {
                /* A run of one path: equal words, or a RUN pair (a loop
                 * counted at its exits: its path, PAYLOAD times), whose
                 * words end at J. */
                uint64_t r, len;
                size_t j;
                if (w & PATHPROF_EV_MARKER) {
                    r = ev[i + 1] & PATHPROF_EV_INDEX_MASK;
                    len = PATHPROF_MARK_PAYLOAD(w);
                    j = i + 2;
                } else if ((w & special) != 0) { /* a leaf call, with room */
                    (void)ksf_count_root(&t->b, w & PATHPROF_EV_INDEX_MASK);
                    leaves++;
                    i++;
                    continue;
                } else {
                    j = i + 1;
                    while (j < n && ev[j] == w)
                        j++;
                    r = w & PATHPROF_EV_INDEX_MASK;
                    len = j - i;
                }
                /* Runs of one path in closed form (kp_run). */
                if (len >= KP_RUN_MIN) {
                    if (t->b.f.len + t->run_nodes <= len_max) {
                        /* ksf_run makes at most run_nodes nodes (k-SF:
                         * 4(k - 1) steps of two; linked: k steps of k):
                         * with room for them (and A's epoch current),
                         * kp_run's tests before each would not fire,
                         * and the exact builder's closed form does the
                         * same steps.  The ring then ends with
                         * min(len, k - 1) copies of R. */
                        ksf_run(&t->b, &st, r, len);
                        uint64_t fill = len < t->b.k - 1 ? len : t->b.k - 1;
                        items += len - fill;
                        for (uint64_t f = 0; f < fill; f++)
                            ring[items++ & mask] = r;
                        i = j;
                        continue;
                    }
                    a->s = st;
                    a->items = items;
                    kp_run(c, t, a, ring, r, len);
                    st = a->s;
                    items = a->items;
                    len_max = kp_len_max(t);
                    i = j;
                    continue;
                }
                paths += len;
                for (uint64_t x = 0; x < len; x++) {
                    if (__builtin_expect(t->b.f.len > len_max, 0)) {
                        a->s = st;
                        a->items = items;
                        len_max = refill(c, t, a, ring); /* may re-seed A */
                        st = a->s;
                    }
                    (void)ksf_walk(&t->b, &st, r, 1);
                    ring[items++ & mask] = r;
                }
                i = j;
            } while (i < n && (((w = ev[i]) & special) == 0 ||
                               (leaf_ok && (w & special) == leaf && t->b.f.len <= len_max) ||
                               pp_act_run_pair(ev, i, n)));
            a->s = st;
            a->items = items;
            pp_act_leaves(&q->acts, leaves);
            paths += leaves;
            continue;
        }
        i++;
        /* Calls and returns: most take the fast form (common/activations.h). */
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            struct kp_act *a = &q->act[d - 1];
            uint64_t *ring = q->rings + ((d - 1) << ring_shift);
            uint64_t r = w & PATHPROF_EV_INDEX_MASK;
            paths++;
            if (pushed) {
                a->epoch = t->epoch; /* a new activation: kp_act_start, then its state */
                if (__builtin_expect(t->b.f.len > len_max, 0)) {
                    kp_act_start(t, a);
                    len_max = refill(c, t, a, ring);
                }
                /* Fig. 6 on a new activation (ksf/feed.c, build.h). */
                uint32_t root = ksf_count_root(&t->b, r);
                if (__builtin_expect(root == 0, 0)) {
                    ksf_star(&a->s); /* out of memory: kp_item's "*" and ring */
                    ring[0] = r;
                    a->items = 1;
                    continue;
                }
                /* (Built through links: the longest suffix, one ID.) */
                a->s = (struct ksf_state){.tau = root, .beta = 0,
                                          .n = t->b.links || t->b.k != 2};
                ring[0] = r;
                a->items = 1;
                continue;
            }
            if (__builtin_expect(a->epoch != t->epoch || t->b.f.len > len_max, 0))
                len_max = refill(c, t, a, ring);
            (void)ksf_walk(&t->b, &a->s, r, 1);
            ring[a->items++ & mask] = r;
            continue;
        }
        feed_slow(c, t, q, w);
        len_max = kp_len_max(t); /* kp_item may have flushed or grown the forest */
    }
    t->b.events += paths;
}
