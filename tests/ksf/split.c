/* split.c - several workers on one stream give the k-IPF of one builder
 * (PATHPROF_KSF_WORKERS, analyzers/ksf/split.h).  Random streams of real
 * event words (START, RET, ENTER and RESUME markers, recursion, resyncs,
 * orphans) are cut at random word boundaries (inside two-word markers
 * too); the owner pre-pass makes the jobs, which are dealt to 1..5
 * workers and run in a shuffled order, each worker with one builder for
 * all it gets; the workers' k-IPFs united must equal, node for node and
 * count for count, the k-IPF of ksf_feed on the whole stream, for k = 1,
 * 2, 3, 4, 8, 16.  Also: the path events and lost counts agree, seeding
 * adds no hash operation, and (the test can fail) jobs run without their
 * windows give a different forest.  Prints TAP. */
#include "ksf/feed.h"
#include "ksf/ipf.h"
#include "ksf/pool.h"
#include "ksf/split.h"
#include "pathprof-abi.h"
#include "forest-text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int ntests, nfailed;

static void ok(int cond, const char *name)
{
    ntests++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", ntests, name);
    nfailed += !cond;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
}

/* --- random streams of event words */

#define NFUNCS 5

struct gen_act {
    uint64_t func, frame;
    int entered; /* ENTER marker, so a RESUME may target it */
};

static size_t gen_stream(uint64_t *ev, size_t max)
{
    struct gen_act st[400];
    size_t depth = 0, n = 0;
    uint64_t frames = 0x1000;
    int labels = 2 + (int)rnd(6); /* few labels: repeated n-grams */
    while (n + 2 <= max) {
        uint64_t r = rnd(100);
        uint64_t fn = rnd(NFUNCS);
        uint64_t label = fn * 16 + rnd((uint64_t)labels);
        if (r < 8 && depth < 400) { /* a call by START (sometimes START|RET) */
            uint64_t w = PATHPROF_EV_START | label;
            if (rnd(4) == 0)
                w |= PATHPROF_EV_RET;
            else
                st[depth++] = (struct gen_act){fn, 0, 0};
            ev[n++] = w;
        } else if (r < 12 && depth < 400) { /* ENTER of a function with a frame */
            ev[n++] = PATHPROF_MARK(PATHPROF_MARK_ENTER, fn);
            ev[n++] = ++frames;
            st[depth++] = (struct gen_act){fn, frames, 1};
        } else if (r < 20 && depth > 0) { /* a return */
            ev[n++] = PATHPROF_EV_RET | (st[depth - 1].func * 16 + rnd((uint64_t)labels));
            depth--;
        } else if (r < 22) { /* longjmp/throw to an entered activation, or nowhere */
            size_t d = depth;
            while (d > 0 && !(st[d - 1].entered && rnd(3) == 0))
                d--;
            if (d > 0) {
                ev[n++] = PATHPROF_MARK(PATHPROF_MARK_RESUME, st[d - 1].func);
                ev[n++] = st[d - 1].frame;
                depth = d;
            } else { /* resync: a RESUME matching nothing pushes one */
                ev[n++] = PATHPROF_MARK(PATHPROF_MARK_RESUME, fn);
                ev[n++] = ++frames;
                if (depth < 400)
                    st[depth++] = (struct gen_act){fn, frames, 1};
                else
                    n -= 2;
            }
        } else if (r < 23) { /* a marker of unknown kind: two words skipped */
            ev[n++] = PATHPROF_MARK(5, fn);
            ev[n++] = 0;
        } else { /* a path of the top activation (orphan if none) */
            uint64_t f = depth ? st[depth - 1].func : fn;
            ev[n++] = f * 16 + rnd((uint64_t)labels);
            if (depth == 0)
                st[depth++] = (struct gen_act){f, 0, 0};
        }
    }
    return n;
}

/* --- one builder vs. split */

struct result {
    char *text;
    uint64_t events, lost, hash_ops;
};

static struct result whole(const uint64_t *ev, size_t n, uint32_t k)
{
    struct ksf_builder b;
    struct ksf_seq q;
    struct ksf_forest ipf;
    ksf_builder_init(&b, k);
    ksf_seq_init(&q);
    ksf_feed(&b, &q, ev, n);
    ksf_forest_init(&ipf);
    ksf_make_k_ipf(&b.f, k, &ipf);
    struct result r = {forest_text(&ipf), b.events, b.lost, b.hash_ops};
    ksf_forest_free(&ipf);
    ksf_builder_free(&b);
    ksf_seq_free(&q);
    return r;
}

/* Jobs of random batches (1 to MAXB words, or whole-stream), dealt to
 * NW workers, run in a shuffled order; NOWIN: windows dropped. */
static struct result split(const uint64_t *ev, size_t n, uint32_t k, uint32_t nw, size_t maxb,
                           int nowin, size_t *njobs_out)
{
    struct ksf_owner o;
    ksf_owner_init(&o, k);
    size_t cap = n + 1, njobs = 0;
    struct ksf_job **jobs = malloc(cap * sizeof *jobs);
    for (size_t at = 0; at < n;) {
        size_t len = maxb >= n ? n : 1 + rnd(maxb);
        if (len > n - at)
            len = n - at;
        jobs[njobs++] = ksf_owner_batch(&o, ev + at, len);
        at += len;
    }
    for (size_t i = njobs; i > 1; i--) { /* Fisher-Yates */
        size_t j = rnd(i);
        struct ksf_job *t = jobs[i - 1];
        jobs[i - 1] = jobs[j];
        jobs[j] = t;
    }
    struct ksf_builder b[5];
    struct ksf_seq q[5];
    for (uint32_t w = 0; w < nw; w++) {
        ksf_builder_init(&b[w], k);
        ksf_seq_init(&q[w]);
    }
    int failed = o.failed;
    for (size_t i = 0; i < njobs; i++) {
        if (jobs[i] == NULL) {
            failed = 1;
            continue;
        }
        if (nowin)
            for (uint32_t a = 0; a < jobs[i]->nacts; a++)
                jobs[i]->acts[a].nlabels = 0;
        uint32_t w = (uint32_t)rnd(nw);
        ksf_job_run(&b[w], &q[w], jobs[i]);
        free(jobs[i]);
    }
    struct ksf_forest ipf;
    ksf_forest_init(&ipf);
    struct result r = {NULL, 0, failed, 0};
    for (uint32_t w = 0; w < nw; w++) {
        ksf_make_k_ipf(&b[w].f, k, &ipf);
        r.events += b[w].events;
        r.lost += b[w].lost;
        r.hash_ops += b[w].hash_ops;
        ksf_builder_free(&b[w]);
        ksf_seq_free(&q[w]);
    }
    r.text = forest_text(&ipf);
    ksf_forest_free(&ipf);
    ksf_owner_free(&o);
    free(jobs);
    *njobs_out = njobs;
    return r;
}

/* The same through a ksf_pool: NW worker threads, jobs in stream order. */
static struct result pooled(const uint64_t *ev, size_t n, uint32_t k, uint32_t nw, size_t maxb)
{
    struct ksf_owner o;
    struct ksf_forest ipf;
    struct ksf_stats st;
    memset(&st, 0, sizeof st);
    ksf_owner_init(&o, k);
    ksf_forest_init(&ipf);
    struct ksf_pool *p = ksf_pool_create(k, nw, NULL, nw % 2);
    struct result r = {NULL, 0, 0, 0};
    if (p == NULL) {
        r.text = strdup("no pool");
        return r;
    }
    for (size_t at = 0; at < n;) {
        size_t len = maxb >= n ? n : 1 + rnd(maxb);
        if (len > n - at)
            len = n - at;
        struct ksf_job *j = ksf_owner_batch(&o, ev + at, len);
        if (j)
            ksf_pool_submit(p, j);
        at += len;
        if (rnd(50) == 0)
            ksf_pool_quiesce(p);
    }
    ksf_pool_finish(p, &ipf, &st);
    ksf_pool_finish(p, &ipf, &st); /* a second call does nothing */
    ksf_pool_free(p);
    r.text = forest_text(&ipf);
    r.events = st.events;
    r.lost = st.lost + (uint64_t)o.failed + (uint64_t)ipf.failed + st.threads;
    ksf_forest_free(&ipf);
    ksf_owner_free(&o);
    return r;
}

/* fork in the middle of a pooled run, after ksf_pool_quiesce as the
 * runtime does: parent and child each finish the stream (the child on new
 * workers) and each has the whole stream's k-IPF.  Not under TSan, which
 * cannot follow threads created in the child of a multithreaded fork. */
static void fork_case(const uint64_t *ev, size_t n, const char *want)
{
#ifndef __SANITIZE_THREAD__
    struct ksf_owner o;
    ksf_owner_init(&o, 4);
    struct ksf_pool *p = ksf_pool_create(4, 2, NULL, 1);
    if (p == NULL) {
        ok(0, "fork: a pool");
        return;
    }
    size_t at = 0;
    for (; at < n / 2; at += 7)
        ksf_pool_submit(p, ksf_owner_batch(&o, ev + at, 7));
    ksf_pool_quiesce(p);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0)
        ksf_pool_after_fork_child(p);
    for (; at < n; at += 7)
        ksf_pool_submit(p, ksf_owner_batch(&o, ev + at, n - at < 7 ? n - at : 7));
    struct ksf_forest ipf;
    struct ksf_stats st;
    memset(&st, 0, sizeof st);
    ksf_forest_init(&ipf);
    ksf_pool_finish(p, &ipf, &st);
    char *got = forest_text(&ipf);
    int same = strcmp(got, want) == 0;
    free(got);
    ksf_forest_free(&ipf);
    ksf_pool_free(p);
    ksf_owner_free(&o);
    if (child == 0)
        _exit(same ? 0 : 1);
    int status = -1;
    waitpid(child, &status, 0);
    ok(same, "fork: the parent's workers finish the stream, the k-IPF of one builder");
    ok(child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
       "fork: the child's new workers finish the stream, the k-IPF of one builder");
#else
    (void)ev;
    (void)n;
    (void)want;
#endif
}

/* Path events in the stream, by the docs/streaming.md rules: every word
 * that is not part of a marker. */
static uint64_t path_events(const uint64_t *ev, size_t n)
{
    uint64_t e = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i] & PATHPROF_EV_MARKER)
            i++;
        else
            e++;
    }
    return e;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    static const uint32_t ks[] = {1, 2, 3, 4, 8, 16};
    static uint64_t ev[6000];
    int mutant_caught = 0, mutant_tries = 0;
    for (int round = 0; round < rounds; round++) {
        size_t n = gen_stream(ev, 200 + rnd(5800));
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            uint32_t k = ks[ki];
            struct result want = whole(ev, n, k);
            uint32_t nw = 1 + (uint32_t)rnd(5);
            size_t maxb = round % 4 == 0 ? 3 : round % 4 == 1 ? 17 : 300;
            size_t njobs;
            struct result got = split(ev, n, k, nw, maxb, 0, &njobs);
            char name[200];
            snprintf(name, sizeof name,
                     "stream %d (%zu words) k=%u: %zu batches on %u workers = one builder",
                     round, n, k, njobs, nw);
            int same = strcmp(got.text, want.text) == 0;
            ok(same && got.events == want.events && got.lost == 0 && want.lost == 0 &&
                   want.events == path_events(ev, n),
               name);
            if (!same)
                printf("#   want %.300s\n#   got  %.300s\n", want.text, got.text);
            if (njobs == 1 && nw == 1 && got.hash_ops != want.hash_ops)
                ok(0, "one job, one worker: the same hash operations");
            if (round % 5 == 0) {
                struct result pr = pooled(ev, n, k, 1 + (uint32_t)rnd(4), maxb);
                snprintf(name, sizeof name, "stream %d k=%u: worker threads = one builder",
                         round, k);
                ok(strcmp(pr.text, want.text) == 0 && pr.events == want.events && pr.lost == 0,
                   name);
                free(pr.text);
            }
            if (k >= 2 && njobs > 1) {
                struct result bad = split(ev, n, k, nw, maxb, 1, &njobs);
                mutant_tries++;
                mutant_caught += strcmp(bad.text, want.text) != 0;
                free(bad.text);
            }
            free(want.text);
            free(got.text);
        }
    }
    /* Seeding counts no hash operation: one whole-stream job (one seed
     * set, empty) and the single builder agree exactly. */
    {
        size_t n = gen_stream(ev, 3000), njobs;
        struct result want = whole(ev, n, 8);
        struct result got = split(ev, n, 8, 1, n, 0, &njobs);
        ok(njobs == 1 && got.hash_ops == want.hash_ops,
           "one batch: hash operations as one builder's");
        free(want.text);
        free(got.text);
    }
    {
        size_t n = gen_stream(ev, 4000);
        struct result want = whole(ev, n, 4);
        fork_case(ev, n, want.text);
        free(want.text);
    }
    char name[120];
    snprintf(name, sizeof name, "without windows the forests differ (%d of %d splits)",
             mutant_caught, mutant_tries);
    ok(mutant_caught * 10 >= mutant_tries * 9, name);
    printf("1..%d\n", ntests);
    return nfailed != 0;
}
