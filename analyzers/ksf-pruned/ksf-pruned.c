/* ksf-pruned.c - the `ksf-pruned` analyzer: k-iteration paths in bounded
 * memory, each reported with a lower and an upper bound on its count
 * (docs/pruning.md).  PATHPROF_K is its k, PATHPROF_PRUNE its budget per
 * analyzer thread (off: nothing is pruned, the counts are exact).  It can
 * run beside the exact `ksf` on one stream: the two write different
 * sections (KIPF, KPRUNE).
 *
 * The activation handling is ksf/ksf.c's (docs/kiterations.md), in
 * feed.c: per producer thread an activation stack, and per activation
 * depth a struct kp_act plus a ring of its last k - 1 path IDs. */
#include "analyzer-services.h"
#include "analyzer.h"
#include "config.h"
#include "core.h"
#include "feed.h"
#include "write.h"
#include "message.h"

#include <stdlib.h>

struct kp_an {
    struct kp_core c;
    uint64_t analyzers; /* instances merged into this one, itself included */
};

struct kp_pthread {
    struct kp_thread t;
    struct kp_seq q;
};

/* The budget actually used: PATHPROF_PRUNE, raised (with a warning) to
 * the least that gives every length one counter. */
static uint64_t budget_for(uint32_t k)
{
    uint64_t b = pprt_config.prune_bytes;
    if (b == 0 || kp_counters_for(k, b) >= 1)
        return b;
    uint64_t want = b;
    while (kp_counters_for(k, want) == 0)
        want *= 2;
    pprt_warning("PATHPROF_PRUNE=%llu bytes cannot hold one counter per length for k = %u; "
                 "ksf-pruned uses %llu", (unsigned long long)b, k, (unsigned long long)want);
    return want;
}

static void *kp_open(void)
{
    struct kp_an *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    uint32_t k = pprt_config.k >= 1 && pprt_config.k <= KSF_MAX_K ? pprt_config.k : 8;
    if (kp_core_init(&a->c, k, budget_for(k), pprt_config.ksf_links) != 0) {
        free(a);
        return NULL;
    }
    a->analyzers = 1;
    return a;
}

static void *kp_thread_begin(void *a, uint32_t tid)
{
    struct kp_an *an = a;
    struct kp_pthread *t = calloc(1, sizeof *t);
    (void)tid;
    if (t == NULL)
        return NULL;
    if (kp_thread_init(&an->c, &t->t) != 0) {
        free(t);
        return NULL;
    }
    kp_seq_init(&t->q);
    return t;
}

static void kp_consume(void *a, void *tp, const uint64_t *ev, size_t n)
{
    struct kp_an *an = a;
    struct kp_pthread *t = tp;
    if (t != NULL)
        kp_feed(&an->c, &t->t, &t->q, ev, n);
}

static void kp_thread_end_(void *a, void *tp)
{
    struct kp_an *an = a;
    struct kp_pthread *t = tp;
    if (t == NULL)
        return;
    kp_thread_end(&an->c, &t->t);
    /* An orphan is a repair too: an activation invented for a path
     * whose start the stack never saw (coroutines, lost events). */
    if (t->q.acts.resync || t->q.acts.orphan)
        pp_note_resync(t->q.acts.resync + t->q.acts.orphan);
    kp_seq_free(&t->q);
    free(t);
}

static void kp_merge(void *into, void *from)
{
    struct kp_an *dst = into, *src = from;
    struct kp_core *d = &dst->c, *s = &src->c;
    for (uint32_t n = 1; n <= d->k; n++)
        if (ss_merge(&d->sum[n - 1], &s->sum[n - 1]) != 0)
            d->failed = 1;
    d->threads += s->threads;
    d->events += s->events;
    d->epochs += s->epochs;
    d->lost += s->lost;
    d->overruns += s->overruns;
    d->failed |= s->failed;
    if (s->peak > d->peak)
        d->peak = s->peak;
    dst->analyzers += src->analyzers;
}

static void kp_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct kp_an *an = a;
    /* The section promises at most m sequences per length and analyzer
     * thread; a summary holds up to half as many more between its
     * compactions (space-saving.h). */
    for (uint32_t n = 1; n <= an->c.k; n++)
        ss_trim(&an->c.sum[n - 1]);
    kp_write_section(&an->c, an->analyzers, out, nsections);
}

static void kp_close(void *a)
{
    struct kp_an *an = a;
    if (an == NULL)
        return;
    kp_core_free(&an->c);
    free(an);
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_ksf_pruned = {
    .name = "ksf-pruned",
    .follows_activations = 1,
    .open = kp_open,
    .thread_begin = kp_thread_begin,
    .consume = kp_consume,
    .reads_runs = 1, /* RUN in closed form (feed.c, kp_run) */
    .thread_end = kp_thread_end_,
    .merge = kp_merge,
    .write = kp_write,
    .close = kp_close,
};
