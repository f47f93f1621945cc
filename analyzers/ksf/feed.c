/* feed.c - the batch loop of the ksf analyzer (feed.h). */
#include "feed.h"

#include "pathprof-abi.h"

#include <stdlib.h>

/* Shorter runs are cheaper walked one by one than set up for ksf_run. */
#define KSF_RUN_MIN 4

void ksf_seq_init(struct ksf_seq *q)
{
    /* No resolver: the per-event function lookup would cost more than the
     * k-SF step, and activations are told apart by START/RET/markers. */
    pp_act_init(&q->acts, NULL, NULL);
    q->state = NULL;
    q->cap = 0;
}

void ksf_seq_free(struct ksf_seq *q)
{
    pp_act_free(&q->acts);
    free(q->state);
    q->state = NULL;
    q->cap = 0;
}

struct ksf_state *ksf_seq_state(struct ksf_seq *q, size_t depth)
{
    if (depth > q->cap) {
        size_t cap = q->cap ? q->cap : 64;
        while (cap < depth)
            cap *= 2;
        struct ksf_state *v = realloc(q->state, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        q->state = v;
        q->cap = cap;
    }
    return &q->state[depth - 1];
}

/* The general form of one word (a marker, or a call or return the fast
 * form does not take): the activation stack's step, and the sequence
 * state it moves, or NULL when it moves none or its activation is past
 * the cap (a path there is counted lost). */
static struct ksf_state *feed_slow(struct ksf_builder *b, struct ksf_seq *q, uint64_t w,
                                   struct pp_act_step *step)
{
    pp_act_feed(&q->acts, w, step);
    if (!pp_act_step_feeds_sequence(step))
        return NULL;
    struct ksf_state *s = ksf_seq_state(q, step->depth);
    if (s == NULL)
        b->lost += step->what == PP_ACT_PATH ? 1 : step->what == PP_ACT_RUN ? step->repeat : 0;
    return s;
}

/* k = 1 (Ball-Larus counting at the roots): one ksf_item per event, by
 * the same rules as ksf_feed. */
static void feed_k1(struct ksf_builder *b, struct ksf_seq *q, const uint64_t *ev, size_t n)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        if ((w & special) == 0 && !q->acts.has_half && depth != 0 && depth <= q->cap) {
            ksf_item(b, &q->state[depth - 1], w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            ksf_item(b, &q->state[d - 1], w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        struct pp_act_step step;
        struct ksf_state *s = feed_slow(b, q, w, &step);
        if (s == NULL)
            continue;
        if (step.what == PP_ACT_PATH)
            ksf_item(b, s, w & PATHPROF_EV_INDEX_MASK);
        else if (step.what == PP_ACT_RUN && step.repeat) {
            /* One root found, REPEAT events counted; Fig. 9's statistic
             * as if each had been looked up (ksf_run does the same). */
            (void)ksf_item_weighted(b, s, step.word & PATHPROF_EV_INDEX_MASK, step.repeat);
            b->events += step.repeat - 1;
            b->hash_ops += step.repeat - 1;
        }
    }
}

void ksf_feed(struct ksf_builder *b, struct ksf_seq *q, const uint64_t *ev, size_t n)
{
    if (b->k == 1) {
        feed_k1(b, q, ev, n);
        return;
    }
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    uint64_t paths = 0; /* path events walked here (ksf_run counts its own) */
    size_t i = 0;
    while (i < n) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        /* The common events: paths in the middle of the top activation.
         * common/activations.c would only say "top activation, nothing
         * pushed or popped" (docs/streaming.md, section 2), so they skip
         * it, and the activation's Fig. 6 state stays in registers until
         * the next call, return or marker. */
        if (__builtin_expect(((w & special) == 0 || pp_act_run_pair(ev, i, n)) && !q->acts.has_half &&
                                 depth != 0 && depth <= q->cap, 1)) {
            struct ksf_state *sp = &q->state[depth - 1], st = *sp;
            /* Leaf calls (START and RET in one word: a call that runs one
             * path) between them stay in this loop too: each counts at
             * its root, the Fig. 6 step of a new activation that ends at
             * once, and leaves the stack and this activation's state as
             * they were (common/activations.h, pp_act_leaf_ok). */
            const uint64_t leaf = PATHPROF_EV_START | PATHPROF_EV_RET;
            const bool leaf_ok = pp_act_leaf_ok(&q->acts, q->cap);
            uint64_t leaves = 0;
            do {
                if (w & PATHPROF_EV_MARKER) {
                    /* A RUN pair (the loop's condition): a loop counted at
                     * its exits, its path PAYLOAD times in closed form, as
                     * a run of equal words below.  Going through
                     * common/activations.c would only say "a path of the
                     * top activation, N times" and cost a sixth of the
                     * analyzer's time on a codec (docs/performance.md). */
                    uint64_t r = ev[i + 1] & PATHPROF_EV_INDEX_MASK;
                    uint64_t rep = PATHPROF_MARK_PAYLOAD(w);
                    if (rep >= KSF_RUN_MIN) {
                        *sp = st;
                        ksf_run(b, sp, r, rep);
                        st = *sp;
                    } else {
                        paths += rep;
                        for (uint64_t x = 0; x < rep; x++)
                            (void)ksf_walk(b, &st, r, 1);
                    }
                    i += 2;
                    continue;
                }
                if ((w & special) != 0) { /* a leaf call */
                    (void)ksf_count_root(b, w & PATHPROF_EV_INDEX_MASK);
                    leaves++;
                    i++;
                    continue;
                }
                /* A loop that iterates one path repeats the word: the run
                 * goes through Fig. 6 in closed form (build.h, ksf_run). */
                size_t j = i + 1;
                while (j < n && ev[j] == w)
                    j++;
                uint64_t r = w & PATHPROF_EV_INDEX_MASK;
                if (j - i >= KSF_RUN_MIN) {
                    *sp = st;
                    ksf_run(b, sp, r, j - i);
                    st = *sp;
                } else {
                    paths += j - i;
                    for (; i < j; i++)
                        (void)ksf_walk(b, &st, r, 1);
                }
                i = j;
            } while (i < n && (((w = ev[i]) & special) == 0 || (leaf_ok && (w & special) == leaf) ||
                               pp_act_run_pair(ev, i, n)));
            *sp = st;
            pp_act_leaves(&q->acts, leaves);
            paths += leaves;
            continue;
        }
        i++;
        /* Calls and returns: most take the fast form (common/activations.h). */
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            struct ksf_state *sp = &q->state[d - 1];
            uint64_t r = w & PATHPROF_EV_INDEX_MASK;
            paths++;
            if (pushed) {
                /* Fig. 6 on a new activation ("*": n = 0, tau = beta =
                 * null): a segment starts and, with no beta, the root
                 * counts.  An interpreter's short calls make this a
                 * third of its events. */
                uint32_t root = ksf_count_root(b, r);
                if (__builtin_expect(root == 0, 0)) {
                    ksf_star(sp); /* out of memory */
                    continue;
                }
                /* (Built through links: the longest suffix, one ID.) */
                *sp = (struct ksf_state){.tau = root, .beta = 0, .n = b->links || b->k != 2};
                continue;
            }
            (void)ksf_walk(b, sp, r, 1);
            continue;
        }
        struct pp_act_step step;
        struct ksf_state *s = feed_slow(b, q, w, &step);
        if (s == NULL)
            continue;
        if (step.pushed)
            ksf_star(s); /* Fig. 6 lines 1-4: a new activation */
        if (step.what == PP_ACT_PATH) {
            paths++;
            (void)ksf_walk(b, s, w & PATHPROF_EV_INDEX_MASK, 1);
        } else if (step.what == PP_ACT_RUN) {
            /* A loop counted at its exits: the run in closed form, as a
             * run of equal words above. */
            uint64_t r = step.word & PATHPROF_EV_INDEX_MASK;
            if (step.repeat >= KSF_RUN_MIN) {
                ksf_run(b, s, r, step.repeat);
            } else {
                paths += step.repeat;
                for (uint64_t x = 0; x < step.repeat; x++)
                    (void)ksf_walk(b, s, r, 1);
            }
        }
    }
    b->events += paths;
}
