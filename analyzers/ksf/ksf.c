/* ksf.c - the `ksf` analyzer: k-iteration path profiling on the event
 * stream (docs/kiterations.md; the k-BLPP paper, sections 2.2-2.3).
 *
 * Per producer thread: one k-SF builder (build.h) and the thread's
 * activation stack rebuilt by analyzers/common/activations.h.  Fig. 6's
 * per-sequence state (n, tau, beta) is kept per activation in an array
 * parallel to that stack, indexed by depth: a pushed activation starts
 * with the "*" behaviour, a popped one is simply forgotten, so the caller
 * finds its own state as it left it.  When the stream ends, the k-SF
 * becomes a k-IPF (Fig. 7) folded into the analyzer thread's k-IPF;
 * merge() unites the analyzer threads' forests; write() emits KIPF.
 *
 * With PATHPROF_KSF_WORKERS=n the analyzer thread only follows each
 * stream's activations and cuts it into jobs (split.h) that its n
 * workers (pool.h) build into their own k-SFs; those become k-IPFs
 * when the instance is first merged or written. */
#include "analyzer-services.h"
#include "analyzer.h"
#include "common/activations.h"
#include "config.h"
#include "build.h"
#include "feed.h"
#include "ipf.h"
#include "pool.h"
#include "split.h"
#include "stats.h"
#include "write.h"
#include "message.h"
#include "pathprof-abi.h"

#include <stdlib.h>
#include <string.h>

struct ksf_an {
    uint32_t k;
    struct ksf_forest ipf; /* every ended thread's k-IPF, united */
    struct ksf_stats st;
    struct ksf_pool *pool; /* PATHPROF_KSF_WORKERS > 0, else NULL */
};

struct ksf_thread {
    struct ksf_builder b;
    struct ksf_seq q;
    struct ksf_owner *own; /* with workers: b and q are unused */
};

/* Worker I of the INST-th instance: on the PATHPROF_CPUS list after the
 * analyzer threads (which take its first entries), else unpinned: with
 * "auto" every analyzer is on the one spare CPU, where workers would only
 * take turns with it. */
static int worker_cpu(uint32_t inst, uint32_t i)
{
    if (pprt_config.ncpus == 0)
        return -1;
    uint32_t at = pprt_config.analyzer_threads + inst * pprt_config.ksf_workers + i;
    return pprt_config.cpus[at % pprt_config.ncpus];
}

static struct ksf_pool *start_workers(uint32_t k)
{
    static uint32_t instances; /* open() runs in the control thread */
    uint32_t n = pprt_config.ksf_workers, inst = instances++;
    int cpus[16];
    for (uint32_t i = 0; i < n; i++)
        cpus[i] = worker_cpu(inst, i);
    struct ksf_pool *p = ksf_pool_create(k, n, cpus, pprt_config.ksf_links);
    if (p == NULL)
        pprt_warning("ksf: cannot start %u k-SF worker threads (PATHPROF_KSF_WORKERS); "
                     "the analyzer thread builds the k-SF itself", n);
    return p;
}

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
    if (pprt_config.ksf_workers > 0 && pprt_config.ksf_workers <= 16)
        a->pool = start_workers(a->k);
    return a;
}

static void *ksf_thread_begin(void *a, uint32_t tid)
{
    struct ksf_an *an = a;
    struct ksf_thread *t = calloc(1, sizeof *t);
    (void)tid;
    if (t == NULL)
        return NULL;
    if (an->pool) {
        t->own = malloc(sizeof *t->own);
        if (t->own == NULL) {
            free(t);
            return NULL;
        }
        ksf_owner_init(t->own, an->k);
        return t;
    }
    if (ksf_builder_init_links(&t->b, an->k, pprt_config.ksf_links) != 0) {
        free(t);
        return NULL;
    }
    ksf_seq_init(&t->q);
    return t;
}

static void ksf_consume(void *a, void *tp, const uint64_t *ev, size_t n)
{
    struct ksf_an *an = a;
    struct ksf_thread *t = tp;
    if (t == NULL)
        return; /* thread_begin found no memory: counted nowhere but STREAM */
    if (t->own == NULL) {
        ksf_feed(&t->b, &t->q, ev, n);
        return;
    }
    struct ksf_job *j = ksf_owner_batch(t->own, ev, n);
    if (j == NULL)
        an->ipf.failed = 1; /* written as "out of memory", not silently short */
    else
        ksf_pool_submit(an->pool, j);
}

static void ksf_thread_end(void *a, void *tp)
{
    struct ksf_an *an = a;
    struct ksf_thread *t = tp;
    if (t == NULL)
        return;
    if (t->own) {
        /* Its jobs may still be queued: the workers' k-SFs are converted
         * when the instance is merged or written. */
        an->st.threads++;
        if (t->own->acts.resync || t->own->acts.orphan) /* an orphan is a repair too */
            pp_note_resync(t->own->acts.resync + t->own->acts.orphan);
        ksf_owner_free(t->own);
        free(t->own);
        free(t);
        return;
    }
    ksf_stats_add_thread(&an->st, &t->b);
    if (t->b.f.failed)
        an->ipf.failed = 1;
    ksf_builder_to_ipf(&t->b, &an->ipf, an->st.level, KSF_MAX_LEVELS);
    /* An orphan is a repair too: an activation invented for a path
     * whose start the stack never saw (coroutines, lost events). */
    if (t->q.acts.resync || t->q.acts.orphan)
        pp_note_resync(t->q.acts.resync + t->q.acts.orphan);
    ksf_builder_free(&t->b);
    ksf_seq_free(&t->q);
    free(t);
}

/* Every stream has ended: the workers' k-SFs join the instance's k-IPF. */
static void finish_workers(struct ksf_an *an)
{
    if (an->pool)
        ksf_pool_finish(an->pool, &an->ipf, &an->st);
}

/* A forked child accumulating (analyzer-host.h): the ended threads'
 * k-IPF and the statistics start over.  With workers the streams' k-SFs
 * are theirs, in jobs possibly still queued: not reset (the runtime says
 * so). */
static int ksf_reset(void *a)
{
    struct ksf_an *an = a;
    struct ksf_forest fresh;
    if (an == NULL || an->pool != NULL || ksf_forest_init(&fresh) != 0)
        return -1;
    ksf_forest_free(&an->ipf);
    an->ipf = fresh;
    memset(&an->st, 0, sizeof an->st);
    return 0;
}

/* A k-iteration path is counted in the process where its first BL path
 * runs: the stream's k-SF starts over, empty, and every open activation's
 * sequence starts afresh at the fork (Fig. 6's "*"), as if the activation
 * began there; the activations themselves stay (a return after the fork
 * still finds its caller).  So the sequences that begin after the fork
 * are counted here exactly as in a process that did not fork, and those
 * that began before it only in the parent.  Out of memory the old k-SF
 * stays and the section says it is incomplete. */
static void ksf_reset_stream(void *a, void *tp)
{
    struct ksf_thread *t = tp;
    struct ksf_builder fresh;
    (void)a;
    if (t == NULL || t->own != NULL)
        return;
    if (ksf_builder_init_links(&fresh, t->b.k, t->b.links) != 0) {
        t->b.f.failed = 1;
        return;
    }
    ksf_builder_free(&t->b);
    t->b = fresh;
    for (size_t i = 0; i < t->q.cap; i++)
        ksf_star(&t->q.state[i]);
}

static void ksf_merge(void *into, void *from)
{
    struct ksf_an *dst = into, *src = from;
    finish_workers(dst);
    finish_workers(src);
    ksf_stats_merge(&dst->st, &src->st);
    if (src->ipf.failed)
        dst->ipf.failed = 1;
    ksf_ipf_merge(&dst->ipf, &src->ipf);
}

static void ksf_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct ksf_an *an = a;
    finish_workers(an);
    ksf_write_section(an->k, &an->ipf, &an->st, out, nsections);
}

static void ksf_close(void *a)
{
    struct ksf_an *an = a;
    if (an == NULL)
        return;
    ksf_pool_free(an->pool);
    ksf_forest_free(&an->ipf);
    free(an);
}

static void ksf_quiesce(void *a)
{
    struct ksf_an *an = a;
    if (an && an->pool)
        ksf_pool_quiesce(an->pool);
}

static void ksf_after_fork_child(void *a)
{
    struct ksf_an *an = a;
    if (an && an->pool)
        ksf_pool_after_fork_child(an->pool);
}

static uint32_t ksf_threads(void *a, pid_t *tids, uint32_t max)
{
    struct ksf_an *an = a;
    return an && an->pool ? ksf_pool_tids(an->pool, tids, max) : 0;
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_ksf = {
    .name = "ksf",
    .follows_activations = 1,
    .open = ksf_open,
    .thread_begin = ksf_thread_begin,
    .consume = ksf_consume,
    .reads_runs = 1, /* RUN in closed form (feed.c), windows in split.c */
    .thread_end = ksf_thread_end,
    .merge = ksf_merge,
    .write = ksf_write,
    .close = ksf_close,
    .reset = ksf_reset,
    .reset_stream = ksf_reset_stream,
    .quiesce = ksf_quiesce,
    .after_fork_child = ksf_after_fork_child,
    .threads = ksf_threads,
};
