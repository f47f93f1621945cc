/* ksf-fanout-sim.c - how would PATHPROF_KSF_WORKERS scale on a machine
 * with more cores than this one?  A simulation on a real program's stream
 * (issue 13, item 5): measured on one core, one stage at a time, so that
 * neither a shared machine's load nor its two cores limit the answer.
 *
 * A trace (PATHPROF_ANALYZER=trace) is cut into the runtime's 8192-word
 * batches; the owner's pre-pass (ksf_owner_batch, analyzers/ksf/split.h)
 * makes one job per batch, timed alone.  For W workers the jobs are dealt
 * round-robin (the pool's "least loaded" with equal batches) and each
 * worker's share is run on a builder of its own, one worker after the
 * other, each timed alone; then each worker's k-SF is converted (Fig. 7,
 * timed per worker) and the owner unites them (timed).  On W + 1 cores the
 * pipeline's build rate is bounded by its slowest stage:
 *   build makespan = max(owner pass, slowest worker's build),
 *   end of run     = slowest worker's conversion + the union,
 * and the united k-IPF must equal W = 0's (nodes and total count; else it
 * exits 1).  What the model leaves out, so the figures are upper bounds:
 * the workers' contention for memory bandwidth and the shared last-level
 * cache (each is timed with the whole cache to itself), the hand-over of
 * each batch to another core (cache-to-cache transfers of 64 KB), and the
 * producer itself (here the stream is already in memory).
 *
 * Build and run (docs/kiterations.md, "How far the fan-out could go"):
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -Ianalyzers -Ianalyzers/ksf -Iruntime \
 *       perfctl/micro/ksf-fanout-sim.c analyzers/ksf/{forest,build,feed,ipf,suffix-links,split}.c \
 *       analyzers/common/activations.c -o ksf-fanout-sim
 *   ./ksf-fanout-sim TRACE K [W ...]     (default W: 1 2 4 8)
 * Only the trace's first thread is used (one producer stream: the case
 * fan-out is for). */
#include "common/activations.h"
#include "ksf/build.h"
#include "ksf/feed.h"
#include "ksf/ipf.h"
#include "ksf/split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 8192
#define MAX_W 64

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, const char *file)
{
    fprintf(stderr, "ksf-fanout-sim: %s: %s\n", file, what);
    exit(2);
}

#include "trace-words.h"

struct shape {
    uint64_t nodes, count;
};

static void sum_subtree(const struct ksf_forest *f, uint32_t x, struct shape *s)
{
    for (; x; x = f->n[x].sibling) {
        s->nodes++;
        s->count += f->n[x].count;
        sum_subtree(f, f->n[x].child, s);
    }
}

static struct shape shape_of(const struct ksf_forest *ipf)
{
    struct shape s = {0, 0};
    for (uint32_t i = 0; i < ipf->nslots; i++)
        if (ipf->slot[i].node) {
            uint32_t r = ipf->slot[i].node;
            s.nodes++;
            s.count += ipf->n[r].count;
            sum_subtree(ipf, ipf->n[r].child, &s);
        }
    return s;
}

/* W = 0: the analyzer thread alone (analyzers/ksf/ksf.c without workers). */
static struct shape alone(const uint64_t *v, size_t n, uint32_t k, double *build, double *conv)
{
    struct ksf_builder b;
    struct ksf_seq q;
    struct ksf_forest ipf;
    if (ksf_builder_init(&b, k) != 0 || ksf_forest_init(&ipf) != 0)
        die("out of memory", "W = 0");
    ksf_seq_init(&q);
    double t0 = cpu_now();
    for (size_t at = 0; at < n; at += BATCH)
        ksf_feed(&b, &q, v + at, n - at < BATCH ? n - at : BATCH);
    double t1 = cpu_now();
    ksf_make_k_ipf(&b.f, k, &ipf);
    double t2 = cpu_now();
    *build = t1 - t0;
    *conv = t2 - t1;
    struct shape s = shape_of(&ipf);
    ksf_builder_free(&b);
    ksf_seq_free(&q);
    ksf_forest_free(&ipf);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ksf-fanout-sim TRACE K [W ...]\n");
        return 2;
    }
    read_trace(argv[1]);
    if (nthreads == 0 || threads[0].n == 0)
        die("no events of thread 1", argv[1]);
    uint32_t k = (uint32_t)atoi(argv[2]);
    if (k < 2 || k > KSF_MAX_K)
        die("K must be 2 to 64", argv[2]);
    int ws[16], nws = 0;
    for (int i = 3; i < argc && nws < 16; i++) {
        ws[nws] = atoi(argv[i]);
        if (ws[nws] < 1 || ws[nws] > MAX_W)
            die("W must be 1 to 64", argv[i]);
        nws++;
    }
    if (nws == 0) {
        static const int def[] = {1, 2, 4, 8};
        memcpy(ws, def, sizeof def);
        nws = 4;
    }
    const uint64_t *v = threads[0].w;
    size_t n = threads[0].n;

    double b0, c0;
    struct shape want = alone(v, n, k, &b0, &c0);

    /* The owner's pass, once: the jobs are the same for every W. */
    struct ksf_owner o;
    ksf_owner_init(&o, k);
    size_t njobs = (n + BATCH - 1) / BATCH;
    struct ksf_job **jobs = malloc(njobs * sizeof *jobs);
    if (jobs == NULL)
        die("out of memory", "jobs");
    double t0 = cpu_now();
    for (size_t j = 0; j < njobs; j++) {
        size_t at = j * BATCH;
        jobs[j] = ksf_owner_batch(&o, v + at, n - at < BATCH ? n - at : BATCH);
        if (jobs[j] == NULL)
            die("out of memory", "a job");
    }
    double owner = cpu_now() - t0;
    ksf_owner_free(&o);

    printf("k = %u, %zu words, %zu jobs of %d words; one core, each stage timed alone (CPU s)\n\n",
           k, n, njobs, BATCH);
    printf("| workers | owner pass s | slowest worker build s | build makespan s | build M words/s "
           "| x W=0 | slowest conversion s | union s | build + end s | x W=0 |\n");
    printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    printf("| 0 | - | %.3f | %.3f | %.1f | 1.00 | %.3f | - | %.3f | 1.00 |\n", b0, b0,
           n / b0 / 1e6, c0, b0 + c0);
    for (int wi = 0; wi < nws; wi++) {
        int w = ws[wi];
        struct ksf_forest ipf;
        if (ksf_forest_init(&ipf) != 0)
            die("out of memory", "the union");
        double slow_build = 0, slow_conv = 0, unite = 0;
        for (int x = 0; x < w; x++) {
            struct ksf_builder b;
            struct ksf_seq q;
            struct ksf_forest part;
            if (ksf_builder_init(&b, k) != 0 || ksf_forest_init(&part) != 0)
                die("out of memory", "a worker");
            ksf_seq_init(&q);
            double s0 = cpu_now();
            for (size_t j = (size_t)x; j < njobs; j += (size_t)w)
                ksf_job_run(&b, &q, jobs[j]);
            double s1 = cpu_now();
            ksf_make_k_ipf(&b.f, k, &part);
            double s2 = cpu_now();
            ksf_ipf_merge(&ipf, &part);
            double s3 = cpu_now();
            if (s1 - s0 > slow_build)
                slow_build = s1 - s0;
            if (s2 - s1 > slow_conv)
                slow_conv = s2 - s1;
            unite += s3 - s2;
            ksf_builder_free(&b);
            ksf_seq_free(&q);
            ksf_forest_free(&part);
        }
        struct shape got = shape_of(&ipf);
        ksf_forest_free(&ipf);
        if (got.nodes != want.nodes || got.count != want.count) {
            fprintf(stderr, "ksf-fanout-sim: %d workers: k-IPF %llu nodes / count %llu, W = 0 "
                            "%llu / %llu\n", w, (unsigned long long)got.nodes,
                    (unsigned long long)got.count, (unsigned long long)want.nodes,
                    (unsigned long long)want.count);
            return 1;
        }
        double makespan = owner > slow_build ? owner : slow_build;
        double total = makespan + slow_conv + unite;
        printf("| %d | %.3f | %.3f | %.3f | %.1f | %.2f | %.3f | %.3f | %.3f | %.2f |\n", w, owner,
               slow_build, makespan, n / makespan / 1e6, b0 / makespan, slow_conv, unite, total,
               (b0 + c0) / total);
        fflush(stdout);
    }
    for (size_t j = 0; j < njobs; j++)
        free(jobs[j]);
    free(jobs);
    return 0;
}
