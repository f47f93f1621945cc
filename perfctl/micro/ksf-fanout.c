/* ksf-fanout.c - does fanning one producer stream out to k-SF workers
 * (PATHPROF_KSF_WORKERS, analyzers/ksf/split.h, analyzers/ksf/pool.h) make the ksf
 * analyzer keep up with more?  One synthetic stream of event words, cut in
 * 8192-word batches (the default chunk) as the runtime hands them over, is
 * run in-process:
 *   W = 0:  ksf_feed on each batch in one thread, as analyzers/ksf/ksf.c does without
 *           workers, then Fig. 7 (ksf_make_k_ipf);
 *   W >= 1: the calling thread is the owner (ksf_owner_batch per batch,
 *           ksf_pool_submit), W worker threads build, then ksf_pool_finish
 *           converts (in the workers) and unites;
 *   owner:  the owner's pre-pass alone (jobs made and freed): the bound on
 *           what any number of workers can reach.
 * Streams (as perfctl/micro/ksf-throughput.c): "loop", one activation repeating
 * paths 101/102 with a rare 103; "random", IDs uniform from 8, a new
 * activation (START, the previous one RET) every 48 events on average -
 * the heavy case, every step a cache miss.  RUNS rounds, each running
 * every configuration once; medians.  Every W >= 1 forest is checked against W = 0's (nodes
 * and total count).
 * Build and run (docs/kiterations.md):
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -pthread -Ianalyzers -Iruntime perfctl/micro/ksf-fanout.c \
 *       analyzers/ksf/{forest,build,ipf,suffix-links,stats,feed,split,pool}.c analyzers/common/activations.c runtime/thread-start.c \
 *       -o ksf-fanout
 *   ./ksf-fanout [runs] [scale] */
#include "ksf/feed.h"
#include "ksf/ipf.h"
#include "ksf/pool.h"
#include "ksf/split.h"
#include "pathprof-abi.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 8192

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU time of every thread of the process: what the fan-out costs in all,
 * whatever the machine's load did to the wall time. */
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t *make(int random, size_t n)
{
    uint64_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        if (!random) {
            v[i] = i == 0 ? PATHPROF_EV_START | 101 : (i % 100 == 0 ? 103 : 101 + i % 2);
        } else if (i == 0 || next() % 48 == 0) {
            v[i] = PATHPROF_EV_START | (1 + next() % 8);
            if (i > 0)
                v[i - 1] |= PATHPROF_EV_RET;
        } else {
            v[i] = 1 + next() % 8;
        }
    }
    return v;
}

struct sum {
    uint64_t nodes, count;
};

static void sum_node(const struct ksf_forest *f, uint32_t x, struct sum *s)
{
    for (; x; x = f->n[x].sibling) {
        s->nodes++;
        s->count += f->n[x].count;
        sum_node(f, f->n[x].child, s);
    }
}

/* W = 0: the analyzer thread's work, in a thread of its own as in the
 * runtime (malloc's per-thread arenas behave unlike the main one's). */
struct alone {
    const uint64_t *v;
    size_t n;
    uint32_t k;
    struct ksf_forest *ipf;
    double t1, c1;
};

static void *alone_main(void *arg)
{
    struct alone *a = arg;
    struct ksf_builder b;
    struct ksf_seq q;
    ksf_builder_init(&b, a->k);
    ksf_seq_init(&q);
    for (size_t at = 0; at < a->n; at += BATCH)
        ksf_feed(&b, &q, a->v + at, a->n - at < BATCH ? a->n - at : BATCH);
    a->t1 = now();
    a->c1 = cpu();
    ksf_make_k_ipf(&b.f, a->k, a->ipf);
    ksf_builder_free(&b);
    ksf_seq_free(&q);
    return NULL;
}

/* One run: build seconds and k-IPF seconds; *S the forest's shape. */
static void run(const uint64_t *v, size_t n, uint32_t k, int w, double *build, double *conv,
                double *build_cpu, struct sum *s)
{
    struct ksf_forest ipf;
    ksf_forest_init(&ipf);
    double c0 = cpu(), c1;
    double t0 = now(), t1, t2;
    if (w == 0) {
        struct alone a = {v, n, k, &ipf, 0, 0};
        pthread_t t;
        if (pthread_create(&t, NULL, alone_main, &a) != 0) {
            fprintf(stderr, "ksf-fanout: cannot start a thread\n");
            exit(1);
        }
        pthread_join(t, NULL);
        t2 = now();
        t1 = a.t1;
        c1 = a.c1;
    } else {
        struct ksf_owner o;
        struct ksf_stats st;
        memset(&st, 0, sizeof st);
        ksf_owner_init(&o, k);
        struct ksf_pool *p = w > 0 ? ksf_pool_create(k, (uint32_t)w, NULL, 0) : NULL;
        if (w > 0 && p == NULL) {
            fprintf(stderr, "ksf-fanout: cannot start %d workers\n", w);
            exit(1);
        }
        for (size_t at = 0; at < n; at += BATCH) {
            struct ksf_job *j = ksf_owner_batch(&o, v + at, n - at < BATCH ? n - at : BATCH);
            if (p)
                ksf_pool_submit(p, j);
            else
                free(j); /* the owner alone */
        }
        if (p)
            ksf_pool_quiesce(p);
        t1 = now();
        c1 = cpu();
        if (p) {
            ksf_pool_finish(p, &ipf, &st);
            ksf_pool_free(p);
        }
        t2 = now();
        ksf_owner_free(&o);
    }
    *build = t1 - t0;
    *conv = t2 - t1;
    *build_cpu = c1 - c0;
    memset(s, 0, sizeof *s);
    /* Roots (the table) and their subtrees. */
    for (uint32_t i = 0; i < ipf.nslots; i++)
        if (ipf.slot[i].node) {
            uint32_t r = ipf.slot[i].node;
            s->nodes++;
            s->count += ipf.n[r].count;
            sum_node(&ipf, ipf.n[r].child, s);
        }
    ksf_forest_free(&ipf);
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    double scale = argc > 2 ? atof(argv[2]) : 1;
    if (runs < 1 || runs > 99 || scale <= 0) {
        fprintf(stderr, "usage: ksf-fanout [runs 1..99] [scale]\n");
        return 2;
    }
    static const struct {
        int random;
        uint32_t k;
        double mevents;
    } cases[] = {{0, 8, 20}, {1, 4, 2}, {1, 8, 2}};
    printf("| stream | k | events | workers | build M events/s | x W=0 | build CPU ns/event "
           "| k-IPF ms | total s | x W=0 |\n");
    printf("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = (size_t)(cases[c].mevents * scale * 1e6);
        uint64_t *v = make(cases[c].random, n);
        double b[4][99], cv[4][99], tot[4][99], bc[4][99];
        struct sum want = {0, 0};
        /* Rounds interleave the configurations, so that a change of the
         * machine's load hits them all alike. */
        for (int r = 0; r < runs; r++)
            for (int w = 0; w <= 3; w++) {
                int workers = w == 3 ? -1 : w; /* -1: the owner alone */
                struct sum s;
                run(v, n, cases[c].k, workers, &b[w][r], &cv[w][r], &bc[w][r], &s);
                tot[w][r] = b[w][r] + cv[w][r];
                if (workers == 0)
                    want = s;
                else if (workers > 0 && (s.nodes != want.nodes || s.count != want.count)) {
                    fprintf(stderr, "ksf-fanout: %d workers: k-IPF %llu nodes / %llu, want "
                            "%llu / %llu\n", workers, (unsigned long long)s.nodes,
                            (unsigned long long)s.count, (unsigned long long)want.nodes,
                            (unsigned long long)want.count);
                    return 1;
                }
            }
        double base_rate = 0, base_total = 0;
        for (int w = 0; w <= 3; w++) {
            int workers = w == 3 ? -1 : w;
            double mb = median(b[w], runs), mc = median(cv[w], runs), mt = median(tot[w], runs);
            double rate = n / mb / 1e6, cpu_ns = median(bc[w], runs) * 1e9 / n;
            if (workers == 0) {
                base_rate = rate;
                base_total = mt;
            }
            const char *stream = cases[c].random ? "random" : "loop";
            if (workers < 0)
                printf("| %s | %u | %zu | owner only | %.1f | %.2f | %.2f | - | - | - |\n",
                       stream, cases[c].k, n, rate, rate / base_rate, cpu_ns);
            else
                printf("| %s | %u | %zu | %d | %.1f | %.2f | %.2f | %.1f | %.3f | %.2f |\n",
                       stream, cases[c].k, n, workers, rate, rate / base_rate, cpu_ns, mc * 1e3,
                       mt, base_total / mt);
            fflush(stdout);
        }
        free(v);
    }
    return 0;
}
