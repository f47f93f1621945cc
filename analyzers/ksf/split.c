/* split.c - the owner's pre-pass and the worker's run of one job
 * (split.h). */
#include "split.h"

#include "pathprof-abi.h"

#include <stdlib.h>
#include <string.h>

void ksf_owner_init(struct ksf_owner *o, uint32_t k)
{
    memset(o, 0, sizeof *o);
    o->k = k;
    o->w = k - 1;
    pp_act_init(&o->acts, NULL, NULL);
}

void ksf_owner_free(struct ksf_owner *o)
{
    pp_act_free(&o->acts);
    free(o->ring);
    free(o->win);
    free(o->ck);
    free(o->cklabels);
    memset(o, 0, sizeof *o);
}

/* Room for the windows of depths 1..DEPTH; -1 when out of memory. */
static int grow_windows(struct ksf_owner *o, size_t depth)
{
    if (depth <= o->cap)
        return 0;
    size_t cap = o->cap ? o->cap : 64;
    while (cap < depth)
        cap *= 2;
    struct ksf_win *win = realloc(o->win, cap * sizeof *win);
    if (win == NULL)
        return -1;
    o->win = win;
    if (o->w) {
        uint64_t *ring = realloc(o->ring, cap * o->w * sizeof *ring);
        if (ring == NULL)
            return -1;
        o->ring = ring;
    }
    o->cap = cap;
    return 0;
}

static inline void window_push(struct ksf_owner *o, size_t depth, uint64_t label)
{
    struct ksf_win *v = &o->win[depth - 1];
    if (o->w == 0)
        return; /* k = 1: nothing before an item matters */
    o->ring[(depth - 1) * o->w + v->pos] = label;
    if (++v->pos == o->w)
        v->pos = 0;
    if (v->fill < o->w)
        v->fill++;
}

/* Appends the activation at DEPTH, as it was when the batch began, to the
 * checkpoint.  REAL0 is the number of real (not lost) activations then:
 * deeper ones were stand-ins.  Called only while DEPTH's entry and window
 * are untouched since the batch began (see ksf_owner_batch). */
static int capture(struct ksf_owner *o, size_t depth, size_t real0)
{
    if (o->nck == o->ckcap) {
        size_t cap = o->ckcap ? 2 * o->ckcap : 64;
        struct ksf_ck *ck = realloc(o->ck, cap * sizeof *ck);
        if (ck == NULL)
            return -1;
        o->ck = ck;
        if (o->w) {
            uint64_t *l = realloc(o->cklabels, cap * o->w * sizeof *l);
            if (l == NULL)
                return -1;
            o->cklabels = l;
        }
        o->ckcap = cap;
    }
    struct ksf_ck *c = &o->ck[o->nck];
    if (depth <= real0)
        c->act = o->acts.act[depth - 1];
    else
        c->act = (struct pp_act){.func = PP_ACT_NO_FUNC, .origin = PP_ACT_BY_NOTHING};
    /* An activation with no window yet (pushed, no path event) has none. */
    struct ksf_win v = depth <= o->cap ? o->win[depth - 1] : (struct ksf_win){0, 0};
    c->nlabels = v.fill;
    uint64_t *dst = o->cklabels + o->nck * o->w;
    const uint64_t *ring = o->ring + (depth - 1) * o->w;
    /* Oldest first: a full ring's oldest label is at pos. */
    uint32_t from = v.fill == o->w ? v.pos : 0;
    for (uint32_t i = 0; i < v.fill; i++) {
        uint32_t at = from + i;
        dst[i] = ring[at >= o->w ? at - o->w : at];
    }
    o->nck++;
    return 0;
}

/* The job: the checkpoint reversed (outermost first) and the words. */
static struct ksf_job *make_job(struct ksf_owner *o, const uint64_t *ev, size_t n,
                                bool has_half, uint64_t half)
{
    size_t w = o->w;
    size_t size = sizeof(struct ksf_job) + o->nck * sizeof(struct ksf_ck) +
                  (o->nck * w + n) * sizeof(uint64_t);
    struct ksf_job *j = malloc(size);
    if (j == NULL)
        return NULL;
    j->next = NULL;
    j->k = o->k;
    j->nacts = (uint32_t)o->nck;
    j->has_half = has_half;
    j->half = half;
    j->nwords = n;
    j->acts = (struct ksf_ck *)(j + 1);
    j->labels = (uint64_t *)(j->acts + o->nck);
    j->words = j->labels + o->nck * w;
    for (size_t i = 0; i < o->nck; i++) {
        size_t from = o->nck - 1 - i;
        j->acts[i] = o->ck[from];
        if (o->ck[from].nlabels)
            memcpy(j->labels + i * w, o->cklabels + from * w,
                   o->ck[from].nlabels * sizeof(uint64_t));
    }
    memcpy(j->words, ev, n * sizeof *ev);
    return j;
}

struct ksf_job *ksf_owner_batch(struct ksf_owner *o, const uint64_t *ev, size_t n)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    size_t low = pp_act_depth(&o->acts), real0 = o->acts.depth;
    bool has_half = o->acts.has_half;
    uint64_t half = o->acts.half;
    int failed = 0;

    /* The checkpoint is the activations at depths low..top at the start,
     * where low is the lowest depth the batch reaches: nothing below is
     * touched.  It is captured lazily, top first: an activation's entry
     * and window change only once it is on top, and it comes on top only
     * by the pops that lower LOW, which capture it first. */
    o->nck = 0;
    if (low > 0)
        failed |= capture(o, low, real0);
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&o->acts);
        /* The common events, as in ksf_feed: a run of paths of the top
         * activation.  Only the run's last k - 1 matter to the window, so
         * the owner's cost per event is one load and test: it must stay far
         * below a k-SF step, or workers would gain nothing. */
        if (__builtin_expect((w & special) == 0 && !o->acts.has_half && depth != 0 &&
                                 depth <= o->cap, 1)) {
            size_t end = i + 1;
            while (end < n && (ev[end] & special) == 0)
                end++;
            for (size_t x = end - i > o->w ? end - o->w : i; x < end; x++)
                window_push(o, depth, ev[x] & PATHPROF_EV_INDEX_MASK);
            i = end - 1;
            continue;
        }
        struct pp_act_step step;
        pp_act_feed(&o->acts, w, &step);
        size_t now = pp_act_depth(&o->acts);
        /* Popped below LOW (RET, RESUME): the activations now exposed, and
         * those a RESUME unwound, were untouched since the batch began. */
        for (; low > now; low--)
            if (low > 1)
                failed |= capture(o, low - 1, real0);
        if (!pp_act_step_feeds_sequence(&step))
            continue;
        if (grow_windows(o, step.depth) != 0) {
            failed = 1;
            continue;
        }
        if (step.pushed)
            o->win[step.depth - 1] = (struct ksf_win){0, 0}; /* ksf_star */
        if (step.what == PP_ACT_PATH)
            window_push(o, step.depth, w & PATHPROF_EV_INDEX_MASK);
        else if (step.what == PP_ACT_RUN)   /* only the last k - 1 matter */
            for (uint64_t x = 0; x < step.repeat && x < o->w; x++)
                window_push(o, step.depth, step.word & PATHPROF_EV_INDEX_MASK);
    }
    struct ksf_job *j = failed ? NULL : make_job(o, ev, n, has_half, half);
    if (j == NULL)
        o->failed = 1;
    return j;
}

void ksf_job_run(struct ksf_builder *b, struct ksf_seq *q, const struct ksf_job *j)
{
    uint32_t w = j->k - 1;
    pp_act_reset(&q->acts);
    /* Replaying windows is not the stream's work: the paper's hash
     * operations (Fig. 9) are those of the path events only. */
    uint64_t hash_ops = b->hash_ops;
    for (uint32_t i = 0; i < j->nacts; i++) {
        const struct ksf_ck *c = &j->acts[i];
        size_t depth;
        if (c->act.origin == PP_ACT_BY_NOTHING) {
            q->acts.lost++; /* stand-ins are above every real activation */
            depth = pp_act_depth(&q->acts);
        } else {
            depth = pp_act_push_copy(&q->acts, &c->act);
        }
        struct ksf_state *s = ksf_seq_state(q, depth);
        if (s == NULL) {
            b->f.failed = 1; /* its items would be attributed nowhere */
            continue;
        }
        ksf_star(s);
        for (uint32_t l = 0; l < c->nlabels; l++)
            ksf_seed(b, s, j->labels[(size_t)i * w + l]);
    }
    b->hash_ops = hash_ops;
    q->acts.has_half = j->has_half;
    q->acts.half = j->half;
    ksf_feed(b, q, j->words, j->nwords);
}
