/* ksf-replay.c - the ksf analyzer's two costs on a real program's stream,
 * replayed from a trace file (PATHPROF_ANALYZER=trace, docs/format.md
 * section 4) with nothing else running: the k-SF build (Fig. 6, the
 * per-event work of analyzers/ksf/feed.c, in the runtime's batches of
 * 8192 words) and the k-SF -> k-IPF conversion (Fig. 7, done when a
 * thread's stream ends).  Both are timed apart and reported per path
 * event, with the forest's size and the child-list scans that the
 * move-to-front lists cost, so that a change to the forest shows where it
 * moved on the streams of programs the team has not written.
 *
 * Every thread of the trace gets its own builder, as in the analyzer; the
 * k-IPFs are united into one.  The trace is read into memory first (the
 * file's events must fit in RAM).
 *
 * Build and run (docs/performance.md, "Replaying a stream"):
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -Ianalyzers -Ianalyzers/ksf -Iruntime \
 *       perfctl/micro/ksf-replay.c analyzers/ksf/forest.c analyzers/ksf/build.c \
 *       analyzers/ksf/feed.c analyzers/ksf/ipf.c analyzers/ksf/suffix-links.c \
 *       analyzers/common/activations.c analyzers/ksf-pruned/{core,feed,space-saving}.c \
 *       -o ksf-replay
 *   ./ksf-replay TRACE [k ...]      (default k = 8)
 *   ./ksf-replay --prune BYTES TRACE [k ...]   (the pruned analyzer's
 *       default build, through suffix links; --prune-slabs BYTES: its
 *       epochs as k-SFs, PATHPROF_KSF_BUILD=slabs)
 *   ./ksf-replay --links TRACE [k ...]   (the analyzer's default build,
 *       PATHPROF_KSF_BUILD=links: the k-IPF through suffix links, no k-SF;
 *       "convert" is then the summing pass, the k-SF figures are its forest's)
 *   ./ksf-replay --build-only TRACE [k ...]   (no Fig. 7: for cachegrind,
 *       whose per-function counts then hold the build and the trace's
 *       reading only)
 *
 * With --prune, the stream goes through the ksf-pruned analyzer's core
 * instead (feed.c, a budget of BYTES for the one analyzer thread), and the
 * time is the whole run: builds, epoch flushes into the summaries and the
 * last flush.  It prints the flushes' scratch drains and summary updates,
 * and a hash of the summaries (every entry's count, error and labels, in
 * any order, and each length's floor and total): a change that must not
 * alter what is kept prints the same hash. */
#include "common/activations.h"
#include "ksf/build.h"
#include "ksf/feed.h"
#include "ksf/ipf.h"
#include "ksf-pruned/feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 8192

/* CPU time of this thread: on a shared machine, wall time also counts
 * the other jobs' turns. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, const char *file)
{
    fprintf(stderr, "ksf-replay: %s: %s\n", file, what);
    exit(2);
}

/* A forest's content, whatever its sibling order: the sum over nodes of
 * a mix of the node's count and the labels on its path from the root.
 * Two builds that counted the same label sequences print the same value,
 * even when one moved a child to the front of its list and the other did
 * not (build.c's memo of runs skips the lookups, so the order differs). */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static uint64_t forest_hash(const struct ksf_forest *f, uint64_t h)
{
    if (f->len <= 1)
        return h;
    /* Each node's path hash, parents before children: nodes are appended
     * after their parent, so one pass in index order sees a parent
     * first; roots are the nodes that no child list names. */
    uint64_t *ph = calloc(f->len, sizeof *ph);
    unsigned char *is_child = calloc(f->len, 1);
    if (ph == NULL || is_child == NULL)
        die("out of memory", "hash");
    for (uint32_t i = 1; i < f->len; i++)
        for (uint32_t c = f->n[i].child; c; c = f->n[c].sibling)
            is_child[c] = 1;
    for (uint32_t i = 1; i < f->len; i++) {
        if (!is_child[i])
            ph[i] = mix64(f->n[i].label + 0x9E3779B97F4A7C15ull);
        for (uint32_t c = f->n[i].child; c; c = f->n[c].sibling)
            ph[c] = mix64(ph[i] ^ mix64(f->n[c].label));
        h += mix64(ph[i] ^ f->n[i].count * 0x100000001b3ull);
    }
    free(ph);
    free(is_child);
    return h;
}

#include "trace-words.h"

/* Sibling-list shape: how many nodes have how many children. */
static void shape(const struct ksf_forest *f, uint64_t *nodes_with_children, uint64_t *max_fanout,
                  double *mean_fanout)
{
    uint64_t parents = 0, edges = 0, maxf = 0;
    for (uint32_t i = 1; i < f->len; i++) {
        uint64_t c = 0;
        for (uint32_t s = f->n[i].child; s; s = f->n[s].sibling)
            c++;
        if (c) {
            parents++;
            edges += c;
            if (c > maxf)
                maxf = c;
        }
    }
    *nodes_with_children = parents;
    *max_fanout = maxf;
    *mean_fanout = parents ? (double)edges / parents : 0;
}

static int build_only, links;

static void replay(uint32_t k)
{
    struct ksf_forest ipf;
    if (ksf_forest_init(&ipf) != 0)
        die("out of memory", "k-IPF");
    double build = 0, convert = 0;
    uint64_t sf_hash = 0xcbf29ce484222325ull;
    uint64_t events = 0, words = 0, sf_nodes = 0, hash_ops = 0, lost = 0, parents = 0, maxf = 0;
    double meanf = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        if (threads[t].n == 0)
            continue;
        struct ksf_builder b;
        struct ksf_seq q;
        if (ksf_builder_init_links(&b, k, links) != 0)
            die("out of memory", "k-SF");
        ksf_seq_init(&q);
        double t0 = now();
        for (size_t i = 0; i < threads[t].n; i += BATCH) {
            size_t n = threads[t].n - i < BATCH ? threads[t].n - i : BATCH;
            ksf_feed(&b, &q, threads[t].w + i, n);
        }
        double t1 = now();
        sf_hash = forest_hash(&b.f, sf_hash);
        sf_nodes += b.f.len - 1;
        if (t == 0)
            shape(&b.f, &parents, &maxf, &meanf);
        t1 = now();
        if (!build_only)
            ksf_builder_to_ipf(&b, &ipf, NULL, 0);
        double t2 = now();
        build += t1 - t0;
        convert += t2 - t1;
        events += b.events;
        words += threads[t].n;
        hash_ops += b.hash_ops;
        lost += b.lost;
        ksf_seq_free(&q);
        ksf_builder_free(&b);
    }
    printf("k=%-2u  %10llu events  build %7.3f s %7.1f M events/s %6.2f ns/event  "
           "convert %7.3f s %6.2f ns/event  k-SF %9llu nodes (%.2f per 1k events)  "
           "k-IPF %9u nodes  hash ops/event %.3f  thread 1: %llu parents, fan-out mean %.2f max %llu  "
           "k-SF hash %016llx k-IPF hash %016llx%s\n",
           k, (unsigned long long)events, build, events / build / 1e6, build * 1e9 / events,
           convert, convert * 1e9 / events, (unsigned long long)sf_nodes,
           1000.0 * sf_nodes / events, ipf.len - 1, (double)hash_ops / events,
           (unsigned long long)parents, meanf, (unsigned long long)maxf,
           (unsigned long long)sf_hash, (unsigned long long)forest_hash(&ipf, 0xcbf29ce484222325ull),
           lost ? "  LOST EVENTS" : "");
    (void)words;
    ksf_forest_free(&ipf);
}

/* The ksf-pruned core over every thread of the trace, one analyzer
 * thread's budget; the summaries' sizes and floors say what it kept. */
static void replay_pruned(uint32_t k, uint64_t budget)
{
    struct kp_core c;
    if (kp_core_init(&c, k, budget, links) != 0)
        die("budget too small for k, or out of memory", "--prune");
    double t0 = now();
    for (uint32_t t = 0; t < nthreads; t++) {
        if (threads[t].n == 0)
            continue;
        struct kp_thread th;
        struct kp_seq q;
        if (kp_thread_init(&c, &th) != 0)
            die("out of memory", "k-SF");
        kp_seq_init(&q);
        for (size_t i = 0; i < threads[t].n; i += BATCH) {
            size_t n = threads[t].n - i < BATCH ? threads[t].n - i : BATCH;
            kp_feed(&c, &th, &q, threads[t].w + i, n);
        }
        kp_thread_end(&c, &th);
        kp_seq_free(&q);
    }
    double el = now() - t0;
    uint64_t items = 0, sum_hash = 0xcbf29ce484222325ull;
    for (uint32_t n = 1; n <= k; n++) {
        const struct ss_summary *s = &c.sum[n - 1];
        items += s->len;
        /* Every entry (count, err, labels), in any order (their sum), and
         * the floor and total: two runs that kept the same summaries
         * print the same value. */
        uint64_t entries = 0;
        for (uint32_t i = 0; i < s->len; i++) {
            uint64_t h = (0xcbf29ce484222325ull ^ s->e[i].count) * 0x100000001b3ull;
            h = (h ^ s->e[i].err) * 0x100000001b3ull;
            for (uint32_t j = 0; j < n; j++)
                h = (h ^ ss_labels(s, i)[j]) * 0x100000001b3ull;
            entries += h;
        }
        uint64_t head[3] = {s->floor, s->total, entries};
        for (int j = 0; j < 3; j++)
            sum_hash = (sum_hash ^ head[j]) * 0x100000001b3ull;
    }
    const struct ss_summary *top = &c.sum[k - 1];
    printf("k=%-2u  %10llu events  pruned (%s) %7.3f s %7.1f M events/s %6.2f ns/event  "
           "m %u  epochs %llu  refits %llu  drains %llu  updates %llu (%llu skipped)  peak %.1f MB  monitored %llu  "
           "N_k %llu floor_k %llu  summaries hash %016llx%s\n",
           k, (unsigned long long)c.events, c.links ? "links" : "slabs", el, c.events / el / 1e6,
           el * 1e9 / c.events, c.m,
           (unsigned long long)c.epochs, (unsigned long long)c.refits, (unsigned long long)c.drains,
           (unsigned long long)c.updates, (unsigned long long)c.skips, c.peak / 1048576.0, (unsigned long long)items,
           (unsigned long long)top->total, (unsigned long long)top->floor,
           (unsigned long long)sum_hash, c.lost || c.failed ? "  LOST EVENTS" : "");
    kp_core_free(&c);
}

int main(int argc, char **argv)
{
    uint64_t budget = 0;
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "--build-only") == 0) {
        build_only = 1;
        a = 2;
    } else if (argc > 2 && strcmp(argv[1], "--links") == 0) {
        links = 1;
        a = 2;
    } else if (argc > 3 && (strcmp(argv[1], "--prune") == 0 ||
                            strcmp(argv[1], "--prune-slabs") == 0)) {
        links = strcmp(argv[1], "--prune") == 0;
        char *end;
        budget = strtoull(argv[2], &end, 10);
        if (*end == 'M')
            budget <<= 20;
        else if (*end == 'K')
            budget <<= 10;
        else if (*end != '\0' || budget == 0)
            die("a budget is a number of bytes, with K or M", argv[2]);
        a = 3;
    }
    if (argc <= a) {
        fprintf(stderr, "usage: ksf-replay [--prune BYTES | --prune-slabs BYTES | --build-only | --links] TRACE [k ...]\n");
        return 2;
    }
    read_trace(argv[a]);
    static char *eight[] = {"8"};
    char **ks = argc > a + 1 ? argv + a + 1 : eight;
    int nk = argc > a + 1 ? argc - a - 1 : 1;
    for (int i = 0; i < nk; i++) {
        long k = strtol(ks[i], NULL, 10);
        if (k < 1 || k > KSF_MAX_K)
            die("k must be 1 to 64", ks[i]);
        if (budget)
            replay_pruned((uint32_t)k, budget);
        else
            replay((uint32_t)k);
    }
    return 0;
}
