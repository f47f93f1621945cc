/* writer.c - drives the `trace` analyzer (analyzers/trace/trace.c) the way the
 * runtime does (open per analyzer thread, thread_begin/consume/thread_end,
 * merge, write, close), for tests/trace-writer.t:
 *
 *   writer BLOBDIR streams           the streams of tests/trace/mktrace.pl,
 *                                    thread 1 and 2 on two analyzer threads
 *   writer BLOBDIR stress EXPECTED   4 analyzer threads x 3 producers each,
 *                                    batches of random sizes; EXPECTED gets
 *                                    what `pathprof dump --raw` must print
 *   writer BLOBDIR fork              events, fork, more events in both
 *   writer BLOBDIR late              events after the trace was written
 *
 * The trace goes to $TRACE_PATTERN. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer.h"
#include "pathprof-abi.h"
#include "writer.h"

#define A (&pp_analyzer_trace)
#define S PATHPROF_EV_START
#define R PATHPROF_EV_RET

static void feed(void *a, void *t, const uint64_t *ev, size_t n, size_t batch)
{
    for (size_t at = 0; at < n; at += batch)
        A->consume(a, t, ev + at, n - at < batch ? n - at : batch);
}

/* The words of tests/trace/mktrace.pl (indices: loop 1, helper 7, pick 8,
 * catcher 100; function 10 is catcher). */
static const uint64_t t1[] = {
    S | 2, S | R | 7, 4, R | 6,
    PATHPROF_MARK(PATHPROF_MARK_ENTER, 10), 0x7ffd1000,
    100, S | 9,
    PATHPROF_MARK(PATHPROF_MARK_RESUME, 10), 0x7ffd1000,
    R | 101,
};
static const uint64_t t2[] = {
    S | R | 8, S | R | 9, PATHPROF_MARK(PATHPROF_MARK_RESUME, 10), 0x99, 50, R | 101,
};

struct job {
    void *a;
    uint32_t tid;
    const uint64_t *ev;
    size_t n, batch;
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    void *t = A->thread_begin(j->a, j->tid);
    feed(j->a, t, j->ev, j->n, j->batch);
    A->thread_end(j->a, t);
    return NULL;
}

static int streams(void)
{
    struct job j1 = {A->open(), 1, t1, sizeof t1 / 8, 5}; /* splits the ENTER */
    struct job j2 = {A->open(), 2, t2, sizeof t2 / 8, 1};
    pthread_t p1, p2;
    pthread_create(&p1, NULL, run_job, &j1);
    pthread_create(&p2, NULL, run_job, &j2);
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    A->merge(j1.a, j2.a);
    A->close(j2.a);
    A->write(j1.a, NULL, NULL);
    A->close(j1.a);
    return 0;
}

/* Producer P's I-th word: distinct, and not a marker (bit 63 clear). */
static uint64_t word(uint32_t p, uint64_t i)
{
    return (uint64_t)p << 40 | i;
}

#define NINST 4
#define NPROD 3
#define PER_PROD 150000

struct instance_job {
    void *a;
    uint32_t first_tid;
    unsigned seed;
};

/* One analyzer thread: its producers' batches interleaved at random. */
static void *run_instance(void *arg)
{
    struct instance_job *j = arg;
    void *t[NPROD];
    uint64_t done[NPROD] = {0}, *buf = malloc(20000 * sizeof *buf);
    for (int p = 0; p < NPROD; p++)
        t[p] = A->thread_begin(j->a, j->first_tid + (uint32_t)p);
    for (int left = NPROD; left > 0;) {
        int p = rand_r(&j->seed) % NPROD;
        if (done[p] == PER_PROD)
            continue;
        size_t n = 1 + (size_t)rand_r(&j->seed) % 20000;
        if (n > PER_PROD - done[p])
            n = PER_PROD - done[p];
        for (size_t i = 0; i < n; i++)
            buf[i] = word(j->first_tid + (uint32_t)p, done[p] + i);
        A->consume(j->a, t[p], buf, n);
        done[p] += n;
        if (done[p] == PER_PROD) {
            A->thread_end(j->a, t[p]);
            left--;
        }
    }
    free(buf);
    return NULL;
}

static int stress(const char *expected)
{
    struct instance_job jobs[NINST];
    pthread_t th[NINST];
    FILE *out = fopen(expected, "w");
    if (!out)
        return 99;
    for (int i = 0; i < NINST; i++) {
        jobs[i] = (struct instance_job){A->open(), 1 + (uint32_t)(i * NPROD), 12345u + (unsigned)i};
        pthread_create(&th[i], NULL, run_instance, &jobs[i]);
    }
    for (int i = 0; i < NINST; i++)
        pthread_join(th[i], NULL);
    for (int i = 1; i < NINST; i++) {
        A->merge(jobs[0].a, jobs[i].a);
        A->close(jobs[i].a);
    }
    A->write(jobs[0].a, NULL, NULL);
    A->close(jobs[0].a);
    for (uint32_t p = 1; p <= NINST * NPROD; p++) {
        fprintf(out, "# thread %" PRIu32 ": %d events, stream ended\n", p, PER_PROD);
        for (uint64_t i = 0; i < PER_PROD; i++)
            fprintf(out, "%" PRIu32 " %" PRIu64 " 0x%016" PRIx64 "\n", p, i, word(p, i));
    }
    return fclose(out) == 0 ? 0 : 99;
}

/* 200000 events of thread 1 (more than the sink's buffer: some are in the
 * parent's file, some in its buffer at the fork), fork; the child adds 500
 * of its own (bit 50), the parent 1000 (bit 51); both write.  Prints the
 * two pids. */
#define BEFORE_FORK 200000
static int forking(void)
{
    static uint64_t ev[BEFORE_FORK];
    void *a = A->open(), *t = A->thread_begin(a, 1);
    for (int i = 0; i < BEFORE_FORK; i++)
        ev[i] = (uint64_t)i;
    feed(a, t, ev, BEFORE_FORK, 8192);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        return 99;
    uint64_t mark = child == 0 ? 1ull << 50 : 1ull << 51;
    for (int i = 0; i < 1000; i++)
        ev[i] = mark | (uint64_t)i;
    feed(a, t, ev, child == 0 ? 500 : 1000, 300);
    A->thread_end(a, t);
    A->write(a, NULL, NULL);
    A->close(a);
    if (child == 0)
        _exit(0);
    int status;
    waitpid(child, &status, 0);
    printf("parent %ld child %ld\n", (long)getpid(), (long)child);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 98;
}

static int late(void)
{
    void *a = A->open(), *t = A->thread_begin(a, 1);
    feed(a, t, t1, sizeof t1 / 8, 100);
    A->write(a, NULL, NULL);
    feed(a, t, t2, sizeof t2 / 8, 1); /* a late destructor's events */
    A->thread_end(a, t);
    A->close(a);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 99;
    fake_runtime_load(argv[1]);
    if (strcmp(argv[2], "streams") == 0)
        return streams();
    if (strcmp(argv[2], "stress") == 0 && argc == 4)
        return stress(argv[3]);
    if (strcmp(argv[2], "fork") == 0)
        return forking();
    if (strcmp(argv[2], "late") == 0)
        return late();
    return 99;
}
