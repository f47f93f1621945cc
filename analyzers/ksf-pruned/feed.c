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

void kp_feed(struct kp_core *c, struct kp_thread *t, struct kp_seq *q, const uint64_t *ev,
             size_t n)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        /* The common event: a path of the top activation (ksf/feed.c). */
        if (__builtin_expect((w & special) == 0 && !q->acts.has_half && depth != 0 &&
                                 depth <= q->cap, 1)) {
            /* Runs of one path in closed form, as in ksf/feed.c. */
            size_t j = i + 1;
            while (j < n && ev[j] == w)
                j++;
            struct kp_act *a = &q->act[depth - 1];
            uint64_t *ring = q->rings + (depth - 1) * t->ring;
            if (j - i >= KP_RUN_MIN)
                kp_run(c, t, a, ring, w & PATHPROF_EV_INDEX_MASK, j - i);
            else
                for (size_t m = i; m < j; m++)
                    kp_item(c, t, a, ring, w & PATHPROF_EV_INDEX_MASK);
            i = j - 1;
            continue;
        }
        /* Calls and returns: the fast form of common/activations.h. */
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            if (pushed)
                kp_act_start(t, &q->act[d - 1]);
            kp_item(c, t, &q->act[d - 1], q->rings + (d - 1) * t->ring,
                    w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        struct pp_act_step step;
        pp_act_feed(&q->acts, w, &step);
        if (!pp_act_step_feeds_sequence(&step))
            continue;
        struct kp_act *s = act_at(t, q, step.depth);
        if (s == NULL) {
            t->b.lost += step.what == PP_ACT_PATH;
            continue;
        }
        if (step.pushed)
            kp_act_start(t, s);
        if (step.what == PP_ACT_PATH)
            kp_item(c, t, s, q->rings + (step.depth - 1) * t->ring, w & PATHPROF_EV_INDEX_MASK);
    }
}
