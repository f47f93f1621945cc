/* unit.c - the ksf-pruned core (analyzers/ksf-pruned/core.h) on synthetic
 * adversarial streams, against brute-force n-gram counts; built with
 * -DPATHPROF_PRUNE_CHECK, so the core aborts the moment it holds more than
 * its budget.  Prints TAP.
 *
 * For every stream, k and budget: per length n, N_n equals the brute-force
 * number of occurrences; every monitored sequence's [count - err, count]
 * holds its true count; every sequence above the floor is monitored; the
 * floor is at most N_n / m; the peak stays within the budget; and with no
 * budget the summaries equal the brute force exactly. */
#include "ksf-pruned/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap-c.h"

/* ---- brute force: every n-gram of one activation's items ---- */

struct bf_entry {
    uint64_t count;
    uint32_t n, used;
    size_t at; /* labels at pool[at .. at + n) */
};

struct bf {
    struct bf_entry *e;
    size_t cap, len;
    uint64_t *pool;
    size_t pool_len, pool_cap;
    uint64_t total[KSF_MAX_K];
};

static const uint64_t *bf_labels(const struct bf *b, const struct bf_entry *e)
{
    return b->pool + e->at;
}

static uint64_t bf_hash(const uint64_t *l, uint32_t n)
{
    uint64_t h = 1469598103934665603ull + n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ l[i]) * 1099511628211ull;
    return h;
}

static struct bf_entry *bf_slot(struct bf *b, const uint64_t *l, uint32_t n)
{
    for (size_t j = bf_hash(l, n) & (b->cap - 1);; j = (j + 1) & (b->cap - 1)) {
        struct bf_entry *e = &b->e[j];
        if (!e->used || (e->n == n && memcmp(bf_labels(b, e), l, n * sizeof *l) == 0))
            return e;
    }
}

static struct bf_entry *bf_find(struct bf *b, const uint64_t *l, uint32_t n, int add)
{
    if (add && 2 * (b->len + 1) > b->cap) {
        struct bf_entry *old = b->e;
        size_t ocap = b->cap;
        b->cap = b->cap ? 2 * b->cap : 1024;
        b->e = calloc(b->cap, sizeof *b->e);
        for (size_t i = 0; i < ocap; i++)
            if (old[i].used)
                *bf_slot(b, bf_labels(b, &old[i]), old[i].n) = old[i];
        free(old);
    }
    if (b->cap == 0)
        return NULL;
    struct bf_entry *e = bf_slot(b, l, n);
    if (e->used)
        return e;
    if (!add)
        return NULL;
    if (b->pool_len + n > b->pool_cap) {
        b->pool_cap = b->pool_cap ? 2 * b->pool_cap : 4096;
        b->pool = realloc(b->pool, b->pool_cap * sizeof *b->pool);
    }
    *e = (struct bf_entry){0, n, 1, b->pool_len};
    memcpy(b->pool + b->pool_len, l, n * sizeof *l);
    b->pool_len += n;
    b->len++;
    return e;
}

/* ---- a driver: activations of one or more producer threads ---- */

#define MAX_DEPTH 64
#define MAX_THREADS 4

struct act {
    struct kp_act a;
    uint64_t ring[64];
    uint64_t win[KSF_MAX_K]; /* the brute force's window */
    uint32_t nwin;
};

struct thr {
    struct kp_thread t;
    struct act stack[MAX_DEPTH];
    int depth;
};

struct run {
    struct kp_core c;
    struct bf bf;
    struct thr th[MAX_THREADS];
    int nthreads;
    uint32_t k;
};

static void push(struct run *r, int ti)
{
    struct thr *t = &r->th[ti];
    struct act *a = &t->stack[t->depth++];
    kp_act_start(&t->t, &a->a);
    a->nwin = 0;
}

static void item(struct run *r, int ti, uint64_t label)
{
    struct thr *t = &r->th[ti];
    if (t->depth == 0)
        push(r, ti);
    struct act *a = &t->stack[t->depth - 1];
    kp_item(&r->c, &t->t, &a->a, a->ring, label);
    if (a->nwin == r->k) {
        memmove(a->win, a->win + 1, (r->k - 1) * sizeof *a->win);
        a->nwin--;
    }
    a->win[a->nwin++] = label;
    for (uint32_t n = 1; n <= a->nwin; n++) {
        bf_find(&r->bf, a->win + a->nwin - n, n, 1)->count++;
        r->bf.total[n - 1]++;
    }
}

/* LEN events of LABEL in a row, given to the core at once as its batch
 * loop does (kp_run, runs of one path in closed form); the brute force
 * still counts them one by one. */
static void run_items(struct run *r, int ti, uint64_t label, uint64_t len)
{
    struct thr *t = &r->th[ti];
    if (t->depth == 0)
        push(r, ti);
    struct act *a = &t->stack[t->depth - 1];
    kp_run(&r->c, &t->t, &a->a, a->ring, label, len);
    for (uint64_t e = 0; e < len; e++) {
        if (a->nwin == r->k) {
            memmove(a->win, a->win + 1, (r->k - 1) * sizeof *a->win);
            a->nwin--;
        }
        a->win[a->nwin++] = label;
        for (uint32_t n = 1; n <= a->nwin; n++) {
            bf_find(&r->bf, a->win + a->nwin - n, n, 1)->count++;
            r->bf.total[n - 1]++;
        }
    }
}

static int start(struct run *r, uint32_t k, uint64_t budget, int nthreads, int links)
{
    memset(r, 0, sizeof *r);
    r->k = k;
    r->nthreads = nthreads;
    if (kp_core_init(&r->c, k, budget, links) != 0)
        return -1;
    for (int i = 0; i < nthreads; i++)
        if (kp_thread_init(&r->c, &r->th[i].t) != 0)
            return -1;
    return 0;
}

/* Updates that ss_add_bounded left out, by build: the bounds checks
 * above hold with them (and the k-SF build never takes them). */
static uint64_t linked_skips, slabs_skips;

/* Ends the threads and checks everything; NAME says which run. */
static void finish(struct run *r, const char *name)
{
    for (int i = 0; i < r->nthreads; i++)
        kp_thread_end(&r->c, &r->th[i].t);
    struct kp_core *c = &r->c;
    int totals = 1, bounds = 1, listed = 1, floors = 1, exact = 1;
    uint64_t nseq = 0, hot = 0, evicting = 0;
    for (uint32_t n = 1; n <= r->k; n++) {
        const struct ss_summary *s = &c->sum[n - 1];
        if (s->total != r->bf.total[n - 1]) {
            if (totals)
                printf("# %s: length %u N %llu, brute force %llu\n", name, n,
                       (unsigned long long)s->total, (unsigned long long)r->bf.total[n - 1]);
            totals = 0;
        }
        if (c->m && s->floor * (uint64_t)c->m > s->total)
            floors = 0;
        evicting += s->floor != 0;
        if (c->budget == 0 && (s->floor != 0 || s->evictions != 0))
            exact = 0;
        for (uint32_t i = 0; i < s->len; i++) {
            const struct bf_entry *e = bf_find(&r->bf, ss_labels(s, i), n, 0);
            uint64_t t = e ? e->count : 0;
            if (t > s->e[i].count || t < s->e[i].count - s->e[i].err) {
                if (bounds)
                    printf("# %s: length %u item %u: true %llu outside [%llu, %llu]\n", name,
                           n, i, (unsigned long long)t,
                           (unsigned long long)(s->e[i].count - s->e[i].err),
                           (unsigned long long)s->e[i].count);
                bounds = 0;
            }
            if (c->budget == 0 && (s->e[i].err != 0 || s->e[i].count != t))
                exact = 0;
        }
        nseq += s->len;
    }
    for (size_t j = 0; j < r->bf.cap; j++) {
        const struct bf_entry *e = &r->bf.e[j];
        if (!e->used)
            continue;
        const struct ss_summary *s = &c->sum[e->n - 1];
        if (e->count <= s->floor)
            continue;
        hot++;
        const uint64_t *l = bf_labels(&r->bf, e);
        uint32_t i = ss_lookup(s, l);
        /* Found by the summary's own table: check it is the right item. */
        int found = i != UINT32_MAX && memcmp(ss_labels(s, i), l, e->n * sizeof *l) == 0;
        if (!found) {
            if (listed)
                printf("# %s: a sequence of %u with true count %llu > floor %llu missing\n",
                       name, e->n, (unsigned long long)e->count,
                       (unsigned long long)s->floor);
            listed = 0;
        }
        if (c->budget == 0 && !found)
            exact = 0;
    }
    ok(totals, "%s: N_n = brute force for every length", name);
    ok(bounds, "%s: %llu monitored sequences, every true count within its bounds", name,
       (unsigned long long)nseq);
    ok(listed, "%s: all %llu sequences above their length's floor monitored (%llu lengths "
       "evicting)", name, (unsigned long long)hot, (unsigned long long)evicting);
    ok(floors, "%s: floor_n <= N_n / m (m = %u)", name, c->m);
    ok((c->budget == 0 || c->peak <= c->budget) && c->overruns == 0 && !c->failed,
       "%s: peak %llu <= budget %llu, never overrun, %llu epochs", name,
       (unsigned long long)c->peak, (unsigned long long)c->budget,
       (unsigned long long)c->epochs);
    if (c->budget == 0)
        ok(exact && r->bf.len == nseq, "%s: no budget: exact (%llu of %zu sequences)", name,
           (unsigned long long)nseq, r->bf.len);
    if (c->links)
        linked_skips += c->skips;
    else
        slabs_skips += c->skips;
    kp_core_free(c);
    free(r->bf.e);
    free(r->bf.pool);
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Zipf(S) over V labels, by inverse CDF. */
struct zipf {
    double *cdf;
    int v;
};

static void zipf_init(struct zipf *z, double s, int v)
{
    z->v = v;
    z->cdf = malloc(v * sizeof *z->cdf);
    double sum = 0;
    for (int i = 0; i < v; i++)
        z->cdf[i] = sum += 1.0 / pow(i + 1, s);
    for (int i = 0; i < v; i++)
        z->cdf[i] /= sum;
}

static uint64_t zipf_draw(const struct zipf *z)
{
    double u = (double)(next() >> 11) / 9007199254740992.0;
    int lo = 0, hi = z->v - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (z->cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 1000 + (uint64_t)lo * 7919;
}

enum shape { SINGLE, ROBIN, ZIPF08, ZIPF15, CALLS, THREADS, RUNS };
static const char *shape_name[] = {"single", "round-robin", "zipf 0.8", "zipf 1.5",
                                   "dense calls", "3 threads", "runs of one ID"};

static void stream(struct run *r, enum shape sh, long events)
{
    struct zipf z = {0};
    if (sh == ZIPF08 || sh == ZIPF15 || sh == THREADS || sh == RUNS)
        zipf_init(&z, sh == ZIPF15 || sh == RUNS ? 1.5 : 0.8, 4096);
    for (long i = 0; i < events; i++) {
        switch (sh) {
        case SINGLE:
            item(r, 0, 77);
            break;
        case ROBIN: /* more distinct sequences than any budget here holds */
            item(r, 0, 5000 + (uint64_t)(i % 20011));
            break;
        case ZIPF08:
        case ZIPF15:
            item(r, 0, zipf_draw(&z));
            break;
        case CALLS: { /* an entry or an exit every few events, depth <= 40 */
            struct thr *t = &r->th[0];
            uint64_t x = next();
            if (x % 5 == 0 && t->depth < 40)
                push(r, 0);
            else if (x % 5 == 1 && t->depth > 1)
                t->depth--;
            item(r, 0, 300 + t->depth * 16 + (x >> 32) % 6);
            break;
        }
        case RUNS: { /* loops iterating one path: runs up to 3(k-1) and past */
            uint64_t x = next(), len = x % 3 == 0 ? 1 + (x >> 8) % 200 : 1 + (x >> 8) % 3;
            if (len > (uint64_t)(events - i))
                len = (uint64_t)(events - i);
            if ((x >> 40) % 9 == 0 && r->th[0].depth > 0 && r->th[0].depth < 40)
                push(r, 0);
            else if ((x >> 40) % 9 == 1 && r->th[0].depth > 1)
                r->th[0].depth--;
            run_items(r, 0, zipf_draw(&z), len);
            i += (long)len - 1;
            break;
        }
        case THREADS: { /* three producers of one analyzer, one mostly idle */
            int ti = next() % 7 == 0 ? 2 : (int)(next() % 2);
            item(r, ti, ti == 1 ? 9000 + next() % 50000 : zipf_draw(&z));
            break;
        }
        }
    }
    free(z.cdf);
}

/* Every shape at every k and budget, in the build LINKS asks for (the
 * name says the build the core used: a large k on a small budget falls
 * back to the k-SF, kp_core_links). */
static void all_shapes(int links)
{
    static const uint32_t ks[] = {2, 4, 8, 16, 64};
    static const uint64_t budgets[] = {64 << 10, 256 << 10};
    for (int sh = SINGLE; sh <= RUNS; sh++) {
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
            uint32_t k = ks[ki];
            long events = k >= 16 ? 15000 : 40000;
            for (size_t bi = 0; bi < sizeof budgets / sizeof *budgets; bi++) {
                struct run r;
                char name[96];
                int used = kp_core_links(k, budgets[bi], links);
                snprintf(name, sizeof name, "%s k=%u budget=%lluK %s", shape_name[sh], k,
                         (unsigned long long)(budgets[bi] >> 10), used ? "links" : "slabs");
                if (start(&r, k, budgets[bi], sh == THREADS ? 3 : 1, links) != 0) {
                    ok(0, "%s: core starts", name);
                    continue;
                }
                stream(&r, sh, events);
                finish(&r, name);
            }
            if (k >= 16)
                continue; /* the exact summaries of a large k are slow to check */
            struct run r;
            char name[96];
            snprintf(name, sizeof name, "%s k=%u no budget %s", shape_name[sh], k,
                     kp_core_links(k, 0, links) ? "links" : "slabs");
            start(&r, k, 0, sh == THREADS ? 3 : 1, links);
            stream(&r, sh, 20000);
            finish(&r, name);
        }
    }
}

int main(void)
{
    all_shapes(1);
    all_shapes(0);
    ok(linked_skips > 0 && slabs_skips == 0,
       "the linked flush left out %llu updates that their prefixes bounded (k-SF build: %llu)",
       (unsigned long long)linked_skips, (unsigned long long)slabs_skips);
    /* Which build a core uses: links unless k is too large for the
     * forests' share to hold a linked step's nodes. */
    ok(kp_core_links(8, 64 << 10, 1) && kp_core_links(16, 256 << 10, 1) &&
           kp_core_links(64, 0, 1) && kp_core_links(64, 16 << 20, 1),
       "the linked build at k = 8 on 64 KiB, k = 16 on 256 KiB, k = 64 on 16 MiB or unbounded");
    ok(!kp_core_links(64, 256 << 10, 1) && !kp_core_links(16, 64 << 10, 1) &&
           !kp_core_links(8, 16 << 20, 0) && !kp_core_links(1, 16 << 20, 1),
       "the k-SF at k = 64 on 256 KiB, k = 16 on 64 KiB, when asked, and never links at k = 1");
    /* The budget's split: the summaries get what the forests do not. */
    ok(kp_counters_for(8, 16 << 20) > 10000, "16 MiB for k = 8 gives m = %u",
       kp_counters_for(8, 16 << 20));
    ok(kp_counters_for(64, 64 << 10) >= 1, "64 KiB for k = 64 gives m = %u",
       kp_counters_for(64, 64 << 10));
    printf("1..%d\n", test_no);
    return failures != 0;
}
