/* blpp.c - the `blpp` analyzer: Ball-Larus path counts from the stream,
 * written as the same TU sections as counting mode (docs/format.md,
 * section 3, tag 2) so that `pathprof report` reads them unchanged and a
 * stream run's report equals a counting run's.
 *
 * Per instance (analyzer thread): one pp_counts per TU that had events,
 * found by tu_id; a one-entry cache of the last TU's range makes the
 * common event (same TU as the previous one) a subtraction, a compare and
 * an increment.  An event of another TU is looked up in the instance's
 * sorted list of the TU ranges it has met (a binary search); only a TU
 * met for the first time asks the runtime (pp_lookup_path: an RCU section
 * and two searches).  A program whose hot code spans many files (an
 * interpreter: lua's VM calls into a dozen TUs) changes TU every few
 * events, and asking the runtime each time made the analyzer 7x slower
 * than on bzip2.  So small TUs count in one flat array indexed by the
 * global index itself (the runtime gives TUs consecutive ranges from 1),
 * in which a TU's counters hold count + 1 from the TU's first event on:
 * 0 marks an index of no TU met yet, which takes the slow path once, so
 * an event of any small TU met before is one load, compare and store,
 * whichever TU the previous event was of (flat_fold moves the counts into
 * the TUs before anything reads them).  Markers are two words (docs/streaming.md, section 1) and
 * carry no path: skipped, the second word too, even when the pair is
 * split between two chunks (the per-stream SKIP flag). */
#include "analyzer-services.h"
#include "analyzer.h"
#include "common/count-map.h"
#include "le-bytes.h"
#include "message.h"
#include "meta.h"
#include "pathprof-abi.h"

#include <stdlib.h>
#include <string.h>

struct blpp_tu {
    uint64_t tu_id, tu_base;
    struct pp_counts counts;
};

/* A TU's global index range [base, base + n), for the binary search. */
struct blpp_range {
    uint64_t base, n;
    struct blpp_tu *tu;
};

/* A TU counts in the flat array when its range ends below BLPP_FLAT_MAX
 * and has at most BLPP_FLAT_TU indices: its counters there are written
 * (to 1) at its first event, so a big TU, whose dense array only maps the
 * pages its paths touch, stays out. */
#define BLPP_FLAT_MAX (1ull << 22)
#define BLPP_FLAT_TU (1ull << 16)

struct blpp {
    /* flat[g] for g < nflat: 0, or 1 + the count of global index g since
     * the last flat_fold (a flat TU's whole range is >= 1) */
    uint64_t *flat;
    uint64_t nflat;
    struct blpp_tu **flat_tus; /* the TUs counting there */
    size_t nflat_tus, cap_flat_tus;
    struct blpp_tu **by_id; /* indexed by tu_id; NULL: no event yet */
    uint64_t nby_id;
    /* The ranges of the TUs met by consume, sorted by base (disjoint). */
    struct blpp_range *ranges;
    size_t nranges, cap_ranges;
    /* Cache: the TU of the last event, as [base, base + n). */
    uint64_t cache_base, cache_n;
    struct blpp_tu *cache_tu;
    uint64_t unknown; /* events of no registered TU */
    uint64_t lost;    /* events not counted for lack of memory */
};

struct blpp_stream {
    int skip;      /* the next word is a marker's payload */
    uint64_t run;  /* ... of a RUN marker: that path happened RUN more times */
    int half_run;  /* the last chunk ended with a RUN marker's first word */
    /* The last chunk's events with every RUN pair counted as the events it
     * stands for, split pairs and dropped chunks as pprt_run_count counts
     * them (runtime/run-expand.c): the runtime takes it instead of a
     * second pass over the chunk (blpp_chunk_events). */
    uint64_t events;
};

static void *blpp_open(void)
{
    return calloc(1, sizeof(struct blpp));
}

static void *blpp_thread_begin(void *a, uint32_t tid)
{
    (void)a;
    (void)tid;
    /* NULL (out of memory) is handled in consume: markers are then taken
     * for paths at worst, never a crash. */
    return calloc(1, sizeof(struct blpp_stream));
}

static struct blpp_tu *tu_entry(struct blpp *b, uint64_t tu_id, uint64_t tu_base,
                                uint64_t npaths)
{
    if (tu_id >= b->nby_id) {
        uint64_t n = b->nby_id ? 2 * b->nby_id : 16;
        while (n <= tu_id)
            n *= 2;
        struct blpp_tu **v = realloc(b->by_id, n * sizeof *v);
        if (v == NULL)
            return NULL;
        memset(v + b->nby_id, 0, (n - b->nby_id) * sizeof *v);
        b->by_id = v;
        b->nby_id = n;
    }
    if (b->by_id[tu_id] == NULL) {
        struct blpp_tu *t = malloc(sizeof *t);
        if (t == NULL || pp_counts_init(&t->counts, npaths) != 0) {
            free(t);
            return NULL;
        }
        t->tu_id = tu_id;
        t->tu_base = tu_base;
        b->by_id[tu_id] = t;
    }
    return b->by_id[tu_id];
}

/* The range containing G, or NULL. */
static struct blpp_range *find_range(const struct blpp *b, uint64_t g)
{
    size_t lo = 0, hi = b->nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->ranges[mid].base <= g)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    struct blpp_range *r = &b->ranges[lo - 1];
    return g - r->base < r->n ? r : NULL;
}

/* Remembers T's range (not there yet); out of memory only costs speed. */
static void add_range(struct blpp *b, struct blpp_tu *t)
{
    if (b->nranges == b->cap_ranges) {
        size_t cap = b->cap_ranges ? 2 * b->cap_ranges : 16;
        struct blpp_range *v = realloc(b->ranges, cap * sizeof *v);
        if (v == NULL)
            return;
        b->ranges = v;
        b->cap_ranges = cap;
    }
    size_t i = b->nranges;
    while (i > 0 && b->ranges[i - 1].base > t->tu_base) {
        b->ranges[i] = b->ranges[i - 1];
        i--;
    }
    b->ranges[i] = (struct blpp_range){t->tu_base, t->counts.n, t};
    b->nranges++;
}

/* Makes T, met for the first time, count in the flat array if it is
 * small and low enough; out of memory only costs speed. */
static void flat_add(struct blpp *b, struct blpp_tu *t)
{
    uint64_t end = t->tu_base + t->counts.n;
    if (t->counts.n == 0 || t->counts.n > BLPP_FLAT_TU || end > BLPP_FLAT_MAX || !t->counts.dense)
        return;
    if (b->nflat_tus == b->cap_flat_tus) {
        size_t cap = b->cap_flat_tus ? 2 * b->cap_flat_tus : 16;
        struct blpp_tu **v = realloc(b->flat_tus, cap * sizeof *v);
        if (v == NULL)
            return;
        b->flat_tus = v;
        b->cap_flat_tus = cap;
    }
    if (end > b->nflat) {
        uint64_t n = b->nflat ? b->nflat : 4096;
        while (n < end)
            n *= 2;
        /* calloc, not realloc and memset: the part no TU has reached
         * yet stays unmapped zero pages */
        uint64_t *v = calloc(n, sizeof *v);
        if (v == NULL)
            return;
        if (b->nflat)
            memcpy(v, b->flat, b->nflat * sizeof *v);
        free(b->flat);
        b->flat = v;
        b->nflat = n;
    }
    for (uint64_t g = t->tu_base; g < end; g++)
        b->flat[g] = 1;
    b->flat_tus[b->nflat_tus++] = t;
}

/* Moves the flat array's counts into their TUs' counts (the rest of the
 * analyzer reads only those) and starts them again from 0. */
static void flat_fold(struct blpp *b)
{
    for (size_t i = 0; i < b->nflat_tus; i++) {
        struct blpp_tu *t = b->flat_tus[i];
        uint64_t *c = b->flat + t->tu_base;
        for (uint64_t j = 0; j < t->counts.n; j++) {
            if (c[j] > 1) {
                t->counts.dense[j] += c[j] - 1;
                c[j] = 1;
            }
        }
    }
}

/* The event's TU is not the cached one: find it among the TUs met, else
 * ask the runtime; then cache it. */
static void count_slow(struct blpp *b, uint64_t g, uint64_t times)
{
    struct blpp_tu *t;
    struct blpp_range *r = find_range(b, g);
    if (r != NULL) {
        t = r->tu;
    } else {
        struct pp_path_ref ref;
        if (!pp_lookup_path(g, &ref)) {
            b->unknown++;
            return;
        }
        int known = ref.tu_id < b->nby_id && b->by_id[ref.tu_id] != NULL;
        t = tu_entry(b, ref.tu_id, ref.tu_base, pprt_meta_ncounters(ref.meta));
        if (t == NULL) {
            b->lost++;
            return;
        }
        if (!known) {
            add_range(b, t);
            flat_add(b, t);
        }
    }
    b->cache_base = t->tu_base;
    b->cache_n = t->counts.n;
    b->cache_tu = t;
    if (pp_counts_add(&t->counts, g - t->tu_base, times) != 0)
        b->lost += times;
}

/* The path event W of a RUN marker: counted TIMES (0 or more) at once. */
static void count_run(struct blpp *b, uint64_t w, uint64_t times)
{
    uint64_t g = w & PATHPROF_EV_INDEX_MASK;
    if (times == 0)
        return;
    if (g < b->nflat && b->flat[g] != 0) {
        b->flat[g] += times;
        return;
    }
    if (b->cache_tu && g - b->cache_base < b->cache_n) {
        if (pp_counts_add(&b->cache_tu->counts, g - b->cache_base, times) != 0)
            b->lost += times;
        return;
    }
    count_slow(b, g, times);
}

static void blpp_consume(void *a, void *t, const uint64_t *ev, size_t n)
{
    struct blpp *b = a;
    struct blpp_stream dummy = {0}, *s = t ? t : &dummy;
    uint64_t base = b->cache_base, size = b->cache_n;
    uint64_t *flat = b->flat, nflat = b->nflat;
    int skip = s->skip;
    uint64_t events = n;
    if (n && s->half_run) {
        /* A RUN pair split between two chunks: its marker's word was
         * taken off the last chunk's events; its path word, if it came,
         * stands for RUN events. */
        s->half_run = 0;
        if (!(ev[0] & PATHPROF_EV_MARKER))
            events += s->run - 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        if (skip && s->run && (w & PATHPROF_EV_MARKER)) {
            skip = 0;       /* a dropped chunk (PATHPROF_POLICY=drop) cut a RUN pair */
            s->run = 0;
        }
        if (skip) {
            skip = 0;
            if (s->run) {   /* rare: one per loop exit, not per iteration */
                count_run(b, w, s->run);
                s->run = 0;
                base = b->cache_base;
                size = b->cache_n;
                flat = b->flat;
                nflat = b->nflat;
            }
            continue;
        }
        if (w & PATHPROF_EV_MARKER) {
            skip = 1;
            if (PATHPROF_MARK_KIND(w) == PATHPROF_MARK_RUN) {
                s->run = PATHPROF_MARK_PAYLOAD(w);
                if (i + 1 < n) {
                    events += s->run - 2;
                } else {
                    events--;
                    s->half_run = 1;
                }
            }
            continue;
        }
        uint64_t g = w & PATHPROF_EV_INDEX_MASK;
        if (g < nflat && flat[g] != 0) {
            flat[g]++;
            continue;
        }
        uint64_t local = g - base;
        if (local < size) {
            if (pp_counts_add(&b->cache_tu->counts, local, 1) != 0)
                b->lost++;
            continue;
        }
        count_slow(b, g, 1);
        base = b->cache_base;
        size = b->cache_n;
        flat = b->flat; /* count_slow may have grown it */
        nflat = b->nflat;
    }
    s->skip = skip;
    s->events = events;
}

static uint64_t blpp_chunk_events(void *a, void *t)
{
    (void)a;
    return t ? ((struct blpp_stream *)t)->events : UINT64_MAX;
}

static void blpp_thread_end(void *a, void *t)
{
    (void)a;
    free(t);
}

/* A forked child accumulating (analyzer-host.h): its counts start from 0.
 * A stream's only state is the SKIP flag (and RUN count) of a marker
 * split between two chunks: context, kept. */
static int blpp_reset(void *a)
{
    struct blpp *b = a;
    flat_fold(b);
    for (uint64_t id = 0; id < b->nby_id; id++)
        if (b->by_id[id] != NULL)
            pp_counts_clear(&b->by_id[id]->counts);
    b->unknown = 0;
    b->lost = 0;
    return 0;
}

static void blpp_merge(void *into, void *from)
{
    struct blpp *dst = into, *src = from;
    flat_fold(src);
    dst->unknown += src->unknown;
    dst->lost += src->lost;
    for (uint64_t id = 0; id < src->nby_id; id++) {
        const struct blpp_tu *s = src->by_id[id];
        if (s == NULL)
            continue;
        struct blpp_tu *d = tu_entry(dst, id, s->tu_base, s->counts.n);
        if (d == NULL || pp_counts_merge(&d->counts, &s->counts) != 0)
            dst->lost++; /* at least one count; the error says it is not exact */
    }
}

static int by_local(const void *x, const void *y)
{
    uint64_t a = ((const struct pp_count_pair *)x)->local;
    uint64_t b = ((const struct pp_count_pair *)y)->local;
    return a < b ? -1 : a > b;
}

/* Sorts V by local index and sums the counts of equal indices (the same
 * TU section gathers every load of a library). */
static size_t sort_and_sum(struct pp_count_pair *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, by_local);
    size_t w = 0;
    for (size_t i = 1; i < n; i++) {
        if (v[i].local == v[w].local)
            v[w].count += v[i].count;
        else
            v[++w] = v[i];
    }
    return w + 1;
}

/* First pair with local >= X. */
static size_t lower_bound(const struct pp_count_pair *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].local < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The records of PPP function F (docs/format.md, "PPP functions"): its
 * N interesting paths' indices come by PPP number, the others' as N + ID;
 * written by Ball-Larus ID, ascending, as counting mode writes them.  V
 * holds the function's N counts, by TU-local index.  Returns the events
 * written (a hole's count, which no probe sends, is not). */
static uint64_t write_ppp_records(const struct pp_tu_info *info, uint32_t f,
                                  const struct pprt_meta_fn *fn,
                                  const struct pp_count_pair *v, size_t n,
                                  struct pprt_buf *out)
{
    const unsigned char *table = pprt_meta_ppp_table(info->meta, info->meta_len, f);
    struct pp_count_pair *ids = malloc((n ? n : 1) * sizeof *ids);
    if (ids == NULL) {
        out->failed = 1; /* a profile silently missing counts would mislead */
        pprt_buf_u64(out, 0);
        return 0;
    }
    size_t m = 0;
    uint64_t written = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t id = pprt_meta_stream_path_id(fn, table, v[i].local - fn->counter_offset);
        if (id == PATHPROF_PPP_HOLE)
            continue;
        ids[m++] = (struct pp_count_pair){id, v[i].count};
        written += v[i].count;
    }
    qsort(ids, m, sizeof *ids, by_local); /* .local holds the ID here */
    pprt_buf_u64(out, m);
    for (size_t i = 0; i < m; i++) {
        pprt_buf_u64(out, ids[i].local);
        pprt_buf_u64(out, ids[i].count);
    }
    free(ids);
    return written;
}

/* One TU section: the blob, then per function its (path_id, count)
 * records, exactly as profile-encode.c writes counting-mode TUs.  Returns
 * the number of counts that fell outside every function. */
static uint64_t write_section(const struct pp_tu_info *info, const struct pp_count_pair *v,
                              size_t n, struct pprt_buf *out)
{
    pprt_buf_u32(out, PATHPROF_SECTION_TU);
    pprt_buf_u32(out, 0);
    size_t at = out->len;
    pprt_buf_u64(out, 0);
    pprt_buf_u64(out, info->meta_len);
    pprt_buf_put(out, info->meta, info->meta_len);
    pprt_buf_zeros(out, (8 - info->meta_len % 8) % 8);
    uint64_t written = 0, total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].count;
    uint32_t nfuncs = pprt_meta_nfuncs(info->meta);
    for (uint32_t f = 0; f < nfuncs; f++) {
        struct pprt_meta_fn fn;
        pprt_meta_fn(info->meta, f, &fn);
        uint64_t range = pprt_meta_stream_range(&fn);
        size_t i = lower_bound(v, n, fn.counter_offset), end = i;
        while (end < n && v[end].local - fn.counter_offset < range)
            end++;
        if (fn.flags & PATHPROF_FN_PPP) {
            written += write_ppp_records(info, f, &fn, v + i, end - i, out);
            continue;
        }
        pprt_buf_u64(out, end - i);
        for (; i < end; i++) {
            pprt_buf_u64(out, v[i].local - fn.counter_offset);
            pprt_buf_u64(out, v[i].count);
            written += v[i].count;
        }
    }
    pprt_buf_patch_u64(out, at, out->len - (at + 8));
    return total - written;
}

/* TPP (docs/tpp.md, "Streams"): the counts of TU's obvious paths, which
 * emitted no event: appends (counter_offset + path ID, count) to *V for
 * each counter of TU that is not 0.  -1 out of memory. */
static int collect_derived(const struct pp_tu_info *tu, struct pp_count_pair **v,
                           size_t *n, size_t *cap)
{
    uint32_t nfuncs = pprt_meta_nfuncs(tu->meta), nd;
    uint64_t slot = 0;
    for (uint32_t f = 0; f < nfuncs && slot < tu->nderived; f++) {
        const unsigned char *d = pprt_meta_derived(tu->meta, tu->meta_len, f, &nd);
        if (d == NULL)
            continue;
        struct pprt_meta_fn fn;
        pprt_meta_fn(tu->meta, f, &fn);
        for (uint32_t k = 0; k < nd && slot < tu->nderived; k++, slot++) {
            uint64_t count = __atomic_load_n(&tu->derived[slot], __ATOMIC_RELAXED);
            if (count == 0)
                continue;
            if (*n == *cap) {
                size_t c = *cap ? 2 * *cap : 64;
                struct pp_count_pair *bigger = realloc(*v, c * sizeof *bigger);
                if (bigger == NULL)
                    return -1;
                *v = bigger;
                *cap = c;
            }
            (*v)[(*n)++] = (struct pp_count_pair){
                fn.counter_offset + pprt_get_u64(d + (size_t)k * PATHPROF_META_DERIVED_SIZE),
                count};
        }
    }
    return 0;
}

static void blpp_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct blpp *b = a;
    flat_fold(b);
    uint64_t ntus = pp_tu_count(), unattributed = 0;
    struct pp_count_pair *v = NULL;
    size_t cap = 0;
    int failed = 0;
    for (uint64_t id = 0; id < ntus; id++) {
        struct pp_tu_info info;
        if (!pp_tu_get(id, &info) || info.meta == NULL || info.section != id)
            continue;
        size_t n = 0;
        /* Every TU of the section, even one that sent no event: its
         * obvious paths may still have run. */
        for (uint64_t u = id; u < ntus; u++) {
            struct pp_tu_info other;
            if (!pp_tu_get(u, &other) || other.section != id)
                continue;
            if (u < b->nby_id && b->by_id[u] && pp_counts_collect(&b->by_id[u]->counts, &v, &n, &cap) != 0)
                failed = 1;
            if (other.nderived && other.meta && collect_derived(&other, &v, &n, &cap) != 0)
                failed = 1;
        }
        n = sort_and_sum(v, n);
        unattributed += write_section(&info, v, n, out);
        ++*nsections;
    }
    free(v);
    if (failed)
        out->failed = 1; /* a profile silently missing counts would mislead */
    pp_note_unknown(b->unknown + unattributed);
    if (b->lost)
        pprt_error("blpp: out of memory counting paths; %llu events were not "
                   "counted and the profile undercounts them",
                   (unsigned long long)b->lost);
}

static void blpp_close(void *a)
{
    struct blpp *b = a;
    if (b == NULL)
        return;
    for (uint64_t id = 0; id < b->nby_id; id++)
        if (b->by_id[id]) {
            pp_counts_free(&b->by_id[id]->counts);
            free(b->by_id[id]);
        }
    free(b->by_id);
    free(b->ranges);
    free(b->flat);
    free(b->flat_tus);
    free(b);
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_blpp = {
    .name = "blpp",
    .reads_ppp = 1,
    .reads_tpp = 1, /* it adds the obvious paths' in-memory counts */
    .reads_runs = 1,
    .open = blpp_open,
    .thread_begin = blpp_thread_begin,
    .consume = blpp_consume,
    .chunk_events = blpp_chunk_events,
    .thread_end = blpp_thread_end,
    .merge = blpp_merge,
    .write = blpp_write,
    .close = blpp_close,
    .reset = blpp_reset,
    .writes_tu_sections = 1,
};
