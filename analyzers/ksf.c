/* ksf.c - the `ksf` analyzer: k-iteration path profiling on the event
 * stream (docs/kiterations.md; the k-BLPP paper, sections 2.2-2.3).
 *
 * Per producer thread: one k-SF builder (ksf-build.h) and the thread's
 * activation stack rebuilt by analyzers/activations.h.  Fig. 6's
 * per-sequence state (n, tau, beta) is kept per activation in an array
 * parallel to that stack, indexed by depth: a pushed activation starts
 * with the "*" behaviour, a popped one is simply forgotten, so the caller
 * finds its own state as it left it.  When the stream ends, the k-SF
 * becomes a k-IPF (Fig. 7) folded into the analyzer thread's k-IPF;
 * merge() unites the analyzer threads' forests; write() emits KIPF. */
#include "analyzer-services.h"
#include "analyzer.h"
#include "activations.h"
#include "config.h"
#include "ksf-build.h"
#include "ksf-ipf.h"
#include "ksf-stats.h"
#include "ksf-write.h"
#include "pathprof-abi.h"

#include <stdlib.h>

struct ksf_an {
    uint32_t k;
    struct ksf_forest ipf; /* every ended thread's k-IPF, united */
    struct ksf_stats st;
};

struct ksf_thread {
    struct ksf_builder b;
    struct pp_act_stack acts;
    struct ksf_state *state; /* state[d - 1]: the activation at depth d */
    size_t cap;
};

static void *ksf_open(void)
{
    struct ksf_an *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->k = pprt_config.k >= 1 && pprt_config.k <= KSF_MAX_K ? pprt_config.k : 8;
    if (ksf_forest_init(&a->ipf) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

static void *ksf_thread_begin(void *a, uint32_t tid)
{
    struct ksf_an *an = a;
    struct ksf_thread *t = calloc(1, sizeof *t);
    (void)tid;
    if (t == NULL)
        return NULL;
    if (ksf_builder_init(&t->b, an->k) != 0) {
        free(t);
        return NULL;
    }
    /* No resolver: the per-event function lookup would cost more than the
     * k-SF step, and activations are told apart by START/RET/markers. */
    pp_act_init(&t->acts, NULL, NULL);
    return t;
}

/* The state of the activation at DEPTH, grown on demand; NULL when out of
 * memory. */
static struct ksf_state *state_at(struct ksf_thread *t, size_t depth)
{
    if (depth > t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap < depth)
            cap *= 2;
        struct ksf_state *v = realloc(t->state, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        t->state = v;
        t->cap = cap;
    }
    return &t->state[depth - 1];
}

static void ksf_consume(void *a, void *tp, const uint64_t *ev, size_t n)
{
    struct ksf_thread *t = tp;
    (void)a;
    if (t == NULL)
        return; /* thread_begin found no memory: counted nowhere but STREAM */
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&t->acts);
        /* The common event: a path in the middle of the top activation.
         * activations.c would only say "top activation, nothing pushed or
         * popped" (docs/streaming.md, section 2), so it is skipped. */
        if (__builtin_expect((w & special) == 0 && !t->acts.has_half && depth != 0 &&
                                 depth <= t->cap, 1)) {
            ksf_item(&t->b, &t->state[depth - 1], w & PATHPROF_EV_INDEX_MASK);
            continue;
        }
        struct pp_act_step step;
        pp_act_feed(&t->acts, w, &step);
        if (step.what != PP_ACT_PATH && step.what != PP_ACT_ENTER &&
            !(step.what == PP_ACT_RESUME && step.pushed))
            continue;
        struct ksf_state *s = state_at(t, step.depth);
        if (s == NULL) {
            t->b.lost += step.what == PP_ACT_PATH;
            continue;
        }
        if (step.pushed)
            ksf_star(s); /* Fig. 6 lines 1-4: a new activation */
        if (step.what == PP_ACT_PATH)
            ksf_item(&t->b, s, w & PATHPROF_EV_INDEX_MASK);
    }
}

static void ksf_thread_end(void *a, void *tp)
{
    struct ksf_an *an = a;
    struct ksf_thread *t = tp;
    if (t == NULL)
        return;
    ksf_stats_add_thread(&an->st, &t->b);
    if (t->b.f.failed)
        an->ipf.failed = 1;
    ksf_make_k_ipf(&t->b.f, an->k, &an->ipf);
    if (t->acts.resync)
        pp_note_resync(t->acts.resync);
    ksf_builder_free(&t->b);
    pp_act_free(&t->acts);
    free(t->state);
    free(t);
}

static void ksf_merge(void *into, void *from)
{
    struct ksf_an *dst = into, *src = from;
    ksf_stats_merge(&dst->st, &src->st);
    if (src->ipf.failed)
        dst->ipf.failed = 1;
    ksf_ipf_merge(&dst->ipf, &src->ipf);
}

static void ksf_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct ksf_an *an = a;
    ksf_write_section(an->k, &an->ipf, &an->st, out, nsections);
}

static void ksf_close(void *a)
{
    struct ksf_an *an = a;
    if (an == NULL)
        return;
    ksf_forest_free(&an->ipf);
    free(an);
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_ksf = {
    .name = "ksf",
    .open = ksf_open,
    .thread_begin = ksf_thread_begin,
    .consume = ksf_consume,
    .thread_end = ksf_thread_end,
    .merge = ksf_merge,
    .write = ksf_write,
    .close = ksf_close,
};
