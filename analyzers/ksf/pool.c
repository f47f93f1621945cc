/* pool.c - the ksf fan-out workers (pool.h).
 *
 * One mutex per pool guards every queue: a job is a whole batch (a chunk,
 * 8192 events by default), so the lock is taken a few times per thousands
 * of events and a lock-free queue would buy nothing measurable. */
#include "pool.h"

#include "ipf.h"
#include "stats.h"
#include "thread-start.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Jobs queued per worker before the submitter waits: enough to cover the
 * jitter of one job, few enough that copies of batches do not pile up. */
#define QUEUE_MAX 4

struct worker {
    struct ksf_pool *pool;
    uint32_t index;
    int cpu;
    pthread_t thread;
    int running;            /* a thread runs it (owner's view) */
    pid_t tid;              /* atomic: its kernel thread id, 0 before start */
    pthread_cond_t wake;    /* work or stop for it */
    struct ksf_job *head, *tail;
    uint32_t queued;        /* jobs in the queue or being run */
    struct ksf_builder b;
    struct ksf_seq q;
    struct ksf_forest ipf;  /* its k-SF converted, at stop */
    struct ksf_level shape[KSF_MAX_LEVELS]; /* its k-SF's, found converting it */
    int converted;
};

struct ksf_pool {
    pthread_mutex_t lock;
    pthread_cond_t progress; /* a job was taken or done: for the submitter */
    uint32_t k, n;
    uint32_t nrunning;       /* 0: the submitter runs jobs itself */
    int stop, finished;
    struct worker w[];
};

static void convert(struct worker *w)
{
    if (w->converted)
        return;
    ksf_builder_to_ipf(&w->b, &w->ipf, w->shape, KSF_MAX_LEVELS);
    w->converted = 1;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct ksf_pool *p = w->pool;
    __atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (w->head == NULL && !p->stop)
            pthread_cond_wait(&w->wake, &p->lock);
        struct ksf_job *j = w->head;
        if (j == NULL)
            break; /* stopping, queue empty */
        pthread_mutex_unlock(&p->lock);
        ksf_job_run(&w->b, &w->q, j);
        pthread_mutex_lock(&p->lock);
        /* Dequeued only now: quiesce must not see an empty queue while
         * the job still runs. */
        w->head = j->next;
        if (w->head == NULL)
            w->tail = NULL;
        w->queued--;
        pthread_cond_broadcast(&p->progress);
        free(j);
    }
    pthread_mutex_unlock(&p->lock);
    /* Fig. 7 on this worker's k-SF, in parallel with the others. */
    convert(w);
    return NULL;
}

/* Starts W's thread pinned to CPU (-1: unpinned), every signal blocked
 * (as for analyzer threads: thread-start.h). */
static int start_on(struct worker *w, int cpu)
{
    char name[16];
    snprintf(name, sizeof name, "pathprof-w%u", w->index);
    return pprt_thread_start(&w->thread, cpu, worker_main, w, name);
}

static int start(struct worker *w)
{
    w->tid = 0;
    int err = start_on(w, w->cpu);
    if (err != 0 && w->cpu >= 0) {
        w->cpu = -1; /* the CPU left the affinity mask: unpinned */
        err = start_on(w, -1);
    }
    w->running = err == 0;
    w->pool->nrunning += w->running;
    return err;
}

struct ksf_pool *ksf_pool_create(uint32_t k, uint32_t nworkers, const int *cpus, int links)
{
    struct ksf_pool *p = calloc(1, sizeof *p + nworkers * sizeof p->w[0]);
    if (p == NULL)
        return NULL;
    p->k = k;
    p->n = nworkers;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->progress, NULL);
    for (uint32_t i = 0; i < nworkers; i++) {
        struct worker *w = &p->w[i];
        w->pool = p;
        w->index = i;
        w->cpu = cpus ? cpus[i] : -1;
        pthread_cond_init(&w->wake, NULL);
        ksf_seq_init(&w->q);
        if (ksf_builder_init_links(&w->b, k, links) != 0 || ksf_forest_init(&w->ipf) != 0) {
            p->n = i + 1; /* free what was set up */
            ksf_pool_free(p);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < nworkers; i++)
        start(&p->w[i]);
    if (p->nrunning == 0) {
        ksf_pool_free(p);
        return NULL;
    }
    return p;
}

void ksf_pool_submit(struct ksf_pool *p, struct ksf_job *j)
{
    if (p->finished) {
        free(j); /* cannot happen: the runtime stops streams first */
        return;
    }
    if (p->nrunning == 0) {
        /* No worker (a child whose workers could not be restarted): the
         * analyzer thread builds, as with PATHPROF_KSF_WORKERS=0. */
        ksf_job_run(&p->w[0].b, &p->w[0].q, j);
        free(j);
        return;
    }
    pthread_mutex_lock(&p->lock);
    struct worker *best;
    for (;;) {
        /* The least loaded worker; ties go to the lowest index. */
        best = NULL;
        for (uint32_t i = 0; i < p->n; i++)
            if (p->w[i].running && (best == NULL || p->w[i].queued < best->queued))
                best = &p->w[i];
        if (best->queued < QUEUE_MAX)
            break;
        pthread_cond_wait(&p->progress, &p->lock);
    }
    if (best->tail)
        best->tail->next = j;
    else
        best->head = j;
    best->tail = j;
    best->queued++;
    pthread_cond_signal(&best->wake);
    pthread_mutex_unlock(&p->lock);
}

static int all_done(const struct ksf_pool *p)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->w[i].queued)
            return 0;
    return 1;
}

void ksf_pool_quiesce(struct ksf_pool *p)
{
    if (p->nrunning == 0)
        return;
    pthread_mutex_lock(&p->lock);
    while (!all_done(p))
        pthread_cond_wait(&p->progress, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void ksf_pool_after_fork_child(struct ksf_pool *p)
{
    if (p->finished)
        return;
    /* The parent's workers are not in the child.  They were asleep, so
     * the lock was free; its memory and the conditions are made new. */
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->progress, NULL);
    p->nrunning = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        pthread_cond_init(&p->w[i].wake, NULL);
        p->w[i].running = 0;
    }
    for (uint32_t i = 0; i < p->n; i++)
        start(&p->w[i]);
}

uint32_t ksf_pool_tids(struct ksf_pool *p, pid_t *tids, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->n && n < max; i++)
        if (p->w[i].running)
            tids[n++] = __atomic_load_n(&p->w[i].tid, __ATOMIC_ACQUIRE);
    return n;
}

/* Every queued job run, every worker converted and joined. */
static void stop_workers(struct ksf_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    for (uint32_t i = 0; i < p->n; i++)
        pthread_cond_signal(&p->w[i].wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->n; i++)
        if (p->w[i].running) {
            pthread_join(p->w[i].thread, NULL);
            p->w[i].running = 0;
        }
    p->nrunning = 0;
    p->finished = 1;
}

int ksf_pool_finish(struct ksf_pool *p, struct ksf_forest *ipf, struct ksf_stats *st)
{
    if (p->finished)
        return 0;
    stop_workers(p);
    /* Worker order, whatever order they finished in: the united forest's
     * layout, hence everything derived from it, does not depend on
     * scheduling. */
    struct ksf_stats add;
    memset(&add, 0, sizeof add);
    for (uint32_t i = 0; i < p->n; i++) {
        struct worker *w = &p->w[i];
        convert(w); /* a worker without a thread (a fork child's fallback) */
        if (w->b.f.failed || w->ipf.failed)
            ipf->failed = 1;
        ksf_ipf_merge(ipf, &w->ipf);
        ksf_stats_add_thread(&add, &w->b);
        for (int l = 0; l < KSF_MAX_LEVELS; l++) {
            add.level[l].nodes += w->shape[l].nodes;
            add.level[l].internal += w->shape[l].internal;
            add.level[l].children += w->shape[l].children;
        }
    }
    add.threads = 0; /* workers are not producer threads */
    ksf_stats_merge(st, &add);
    return ipf->failed ? -1 : 0;
}

void ksf_pool_free(struct ksf_pool *p)
{
    if (p == NULL)
        return;
    if (!p->finished)
        stop_workers(p);
    for (uint32_t i = 0; i < p->n; i++) {
        struct worker *w = &p->w[i];
        ksf_builder_free(&w->b);
        ksf_seq_free(&w->q);
        ksf_forest_free(&w->ipf);
        pthread_cond_destroy(&w->wake);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->progress);
    free(p);
}
