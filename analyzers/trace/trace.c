/* trace.c - the `trace` analyzer: every producer thread's raw events into
 * the trace file (docs/format.md, section 4), for `pathprof dump` and as
 * the oracle input of other analyzers' tests.
 *
 * Nothing is kept per analyzer instance: the events go straight to the
 * process-wide sink (sink.c), whose buffer all instances share, so
 * merge has nothing to fold.  The trace is completed by write() (or by the
 * last close() if the runtime never calls write), when every stream has
 * ended.  It writes no profile section: the trace is its own file. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analyzer.h"
#include "sink.h"

struct trace_thread {
    uint32_t tid;
};

/* Instances still open: the last close completes the trace. */
static pthread_mutex_t instances_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned instances;

/* An instance has no state, but the interface wants a distinct non-NULL
 * pointer per instance. */
static void *trace_open(void)
{
    void *a = malloc(1);
    if (a) {
        pthread_mutex_lock(&instances_lock);
        instances++;
        pthread_mutex_unlock(&instances_lock);
    }
    return a;
}

static void *trace_thread_begin(void *a, uint32_t tid)
{
    struct trace_thread *t = malloc(sizeof *t);
    (void)a;
    if (t)
        t->tid = tid;
    return t;
}

static void trace_consume(void *a, void *t, const uint64_t *ev, size_t n)
{
    (void)a;
    if (t)
        pp_trace_sink_events(((struct trace_thread *)t)->tid, ev, n);
}

static void trace_thread_end(void *a, void *t)
{
    (void)a;
    if (t)
        pp_trace_sink_thread_ended(((struct trace_thread *)t)->tid);
    free(t);
}

static void trace_merge(void *into, void *from)
{
    (void)into;
    (void)from;
}

static void trace_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    (void)a;
    (void)out;
    (void)nsections;
    pp_trace_sink_finish();
}

static void trace_close(void *a)
{
    bool last;
    if (a == NULL)
        return;
    free(a);
    pthread_mutex_lock(&instances_lock);
    last = --instances == 0;
    pthread_mutex_unlock(&instances_lock);
    if (last)
        pp_trace_sink_finish(); /* does nothing when write() did it */
}

const struct pp_analyzer pp_analyzer_trace = {
    .name = "trace",
    .reads_ppp = 1, /* it copies events; pathprof dump decodes PPP indices */
    .open = trace_open,
    .thread_begin = trace_thread_begin,
    .consume = trace_consume,
    .thread_end = trace_thread_end,
    .merge = trace_merge,
    .write = trace_write,
    .close = trace_close,
};
