/* ngram-replay.c - an experiment on a real program's stream (a trace file,
 * PATHPROF_ANALYZER=trace): is counting each path event's *maximal
 * window* in a hash table, then deriving the k-IPF from the windows,
 * cheaper than the ksf analyzer's k-SF walk (Fig. 6) + conversion (Fig. 7)?
 *
 * The window of a path event is the last min(depth, k) labels of its
 * activation (depth: the activation's path events so far, this one
 * included).  An n-gram g (n <= k) ends at an event exactly when g is a
 * suffix of that event's window, so count(g) = the sum of Count[w] over
 * the distinct windows w that end with g.  The conversion makes each
 * distinct window's node in a k-IPF whose nodes know their suffix links
 * (analyzers/ksf/suffix-links.h), one child step per window (from the node
 * of the window met before its first occurrence, see win_to_ipf), adds its
 * count there, and the links' one summing pass gives every suffix its
 * count.  (Inserting each window from the root instead, k child steps in
 * hash order, was 3x slower than ksf's conversion on bzip2 at k = 8.)
 *
 * Per activation (an array parallel to the activation stack of
 * analyzers/common/activations.h, maintained exactly as
 * analyzers/ksf/feed.c maintains Fig. 6's state): a ring of its last k
 * labels, written twice (at p and p + k) so that the window is always the
 * k contiguous labels buf[p + 1 .. p + k]; a young activation's ring is
 * filled with PAD (a value no label takes), so its window of fewer than k
 * labels is the padded k-label key [PAD .. PAD, l_1 .. l_m] and every
 * event is handled alike.  Its 64-bit hash is sum key[i] * B^(k-1-i)
 * mod 2^64, either rolled in O(1) per event ("roll") or recomputed from
 * the k labels ("rehash"; same value, so the same table layout).
 *
 * The table: open addressing, linear probing, slots {key[k], id, 32-bit
 * count} with the key inline (id 0: empty), so a hit touches the slot's
 * one or two cache lines; per window id, three arrays written once when
 * it is inserted (see struct win).  Since an event's key does not depend on the previous
 * lookup, the "pf" variants run a software pipeline: hash event i,
 * prefetch its slot, look up event i - D (D pending keys in a ring).
 *
 * Variants (-v LIST, default all): ksf (the analyzer's code: ksf_feed +
 * ksf_make_k_ipf), win (roll, no prefetch), winpf (roll + prefetch),
 * winh (rehash, no prefetch), winpfh (rehash + prefetch).  Every window
 * variant's k-IPF is compared node by node, count by count, with ksf's
 * (when ksf runs).  Memory: the structures' bytes (exact), and with a
 * single variant the process's peak RSS above the loaded trace.
 *
 * Labels are stored as 32-bit values (the path indices of bzip2's and
 * lua's streams fit; the replay refuses a trace that does not); build with
 * -DNGRAM_LABEL64 for 64-bit labels.  k from 1 to 16.
 *
 * Build and run:
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -Ianalyzers -Ianalyzers/ksf -Iruntime \
 *       perfctl/micro/ngram-replay.c analyzers/ksf/forest.c analyzers/ksf/build.c \
 *       analyzers/ksf/feed.c analyzers/ksf/ipf.c analyzers/ksf/suffix-links.c \
 *       analyzers/common/activations.c -o ngram-replay
 *   ./ngram-replay [-n] [-v VARIANTS] [-d D] [-l LOAD%] TRACE [k ...]   (default k = 8)
 * -n: no comparison (timing runs); -d: the prefetch distance (default
 * 16); -l: the table's maximum load in percent (default 50).  Times are
 * the thread's CPU time. */
#include "common/activations.h"
#include "ksf/build.h"
#include "ksf/feed.h"
#include "ksf/ipf.h"
#include "ksf/suffix-links.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define BATCH 8192
#define KMAX 16
#define DMAX 64

#ifdef NGRAM_LABEL64
typedef uint64_t label_t;
#else
typedef uint32_t label_t;
#endif
#define PAD ((label_t)-1)

static double now(void)
{
    struct timespec t;
    /* This thread's CPU time: the machine is shared, and being descheduled
     * is not the builder's cost (cache pollution by the other jobs stays). */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, const char *file)
{
    fprintf(stderr, "ngram-replay: %s: %s\n", file, what);
    exit(2);
}

/* ---- the trace ---- */

#include "trace-words.h"

/* Every path label must fit label_t below PAD.  Markers are two words
 * (the second is a frame address, not a label). */
static void check_labels(const char *file)
{
    for (uint32_t t = 0; t < nthreads; t++) {
        const uint64_t *w = threads[t].w;
        for (size_t i = 0; i < threads[t].n; i++) {
            if (w[i] & PATHPROF_EV_MARKER) {
                i++;
                continue;
            }
            if ((w[i] & PATHPROF_EV_INDEX_MASK) >= (uint64_t)PAD)
                die("a path index does not fit a 32-bit label: build with -DNGRAM_LABEL64", file);
        }
    }
}

/* ---- the window table ---- */

#define HB 0x9E3779B97F4A7C15ull /* B: the hash's odd multiplier */

/* A slot: label_t key[k], then uint32_t id (0: empty slot), then
 * uint32_t count (its wrap-arounds are listed in win.over).  Windows are
 * numbered 1, 2, ... in the order they are first met; per window, apart
 * from the table (written once, in order, when it is inserted): pred, the
 * window met just before its first occurrence in the same activation
 * (0 when it is the activation's first), its length (k minus its PADs)
 * and its last label.  The conversion needs nothing else: in id order,
 * node(w) is one child step from node(pred) (or from its suffix link). */
struct win {
    uint32_t k;
    size_t stride, id_off; /* slot bytes; offset of its id (count at + 4) */
    unsigned char *slots;
    uint64_t nslots, limit; /* limit: more windows grow the table */
    uint32_t used;          /* windows so far (the last id) */
    unsigned shift;         /* slot index = mixed hash >> shift */
    double load;
    uint64_t P[KMAX]; /* P[i] = B^(k-1-i) */
    uint64_t hpad;    /* the hash of the all-PAD key */
    /* per window, index = id */
    uint32_t *pred;
    label_t *last;
    uint8_t *len;
    uint32_t wcap;
    uint32_t *over; /* ids whose 32-bit count wrapped, once per wrap */
    size_t nover, overcap;
    /* the prefetch pipeline: pending keys, their hashes and activations */
    unsigned D, npend, head;
    uint64_t ph[DMAX];
    uint32_t pa[DMAX];
    label_t pkey[DMAX * KMAX];
    /* statistics */
    uint64_t events, probes, grows; /* lookups = events */
};

/* Per-activation state, parallel to the activation stack. */
struct win_seq {
    struct pp_act_stack acts;
    label_t *buf;     /* 2k labels per activation: the ring, written twice */
    uint32_t *pos;    /* next ring position */
    uint64_t *h;      /* the rolling hash of the current window */
    uint32_t *lastid; /* the id of its last window (set when counted) */
    size_t cap;
};

static inline uint32_t *slot_id(const struct win *W, unsigned char *s)
{
    return (uint32_t *)(s + W->id_off);
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 29;
    return h;
}

static void win_alloc_slots(struct win *W, uint64_t n)
{
    W->slots = calloc(n, W->stride);
    if (W->slots == NULL)
        die("out of memory", "window table");
    W->nslots = n;
    W->limit = (uint64_t)(n * W->load);
    unsigned lg = 0;
    while ((1ull << lg) < n)
        lg++;
    W->shift = 64 - lg;
}

static void win_init(struct win *W, uint32_t k, unsigned D, double load)
{
    memset(W, 0, sizeof *W);
    W->k = k;
    W->load = load;
    W->D = D;
    W->id_off = k * sizeof(label_t);
    W->stride = W->id_off + 8;
    uint64_t p = 1;
    for (int i = (int)k - 1; i >= 0; i--) {
        W->P[i] = p;
        p *= HB;
    }
    uint64_t h = 0;
    for (uint32_t i = 0; i < k; i++)
        h += (uint64_t)PAD * W->P[i];
    W->hpad = h;
    win_alloc_slots(W, 1u << 16);
}

static void win_free(struct win *W)
{
    free(W->slots);
    free(W->pred);
    free(W->last);
    free(W->len);
    free(W->over);
    W->slots = NULL;
}

static size_t win_bytes(const struct win *W)
{
    return W->nslots * W->stride + (size_t)W->wcap * (4 + sizeof(label_t) + 1);
}

static uint64_t key_hash(const struct win *W, const label_t *key)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < W->k; i++)
        h += (uint64_t)key[i] * W->P[i];
    return h;
}

static void win_grow(struct win *W)
{
    unsigned char *old = W->slots;
    uint64_t on = W->nslots;
    win_alloc_slots(W, on * 2);
    uint64_t mask = W->nslots - 1;
    for (uint64_t i = 0; i < on; i++) {
        unsigned char *s = old + i * W->stride;
        if (*slot_id(W, s) == 0)
            continue;
        uint64_t j = mix(key_hash(W, (const label_t *)s)) >> W->shift;
        while (*slot_id(W, W->slots + j * W->stride) != 0)
            j = (j + 1) & mask;
        memcpy(W->slots + j * W->stride, s, W->stride);
    }
    free(old);
    W->grows++;
}

static void win_room(struct win *W)
{
    uint32_t cap = W->wcap ? W->wcap * 2 : 1u << 16;
    W->pred = realloc(W->pred, (size_t)cap * sizeof *W->pred);
    W->last = realloc(W->last, (size_t)cap * sizeof *W->last);
    W->len = realloc(W->len, (size_t)cap * sizeof *W->len);
    if (W->pred == NULL || W->last == NULL || W->len == NULL)
        die("out of memory", "window table");
    W->wcap = cap;
}

static void win_wrapped(struct win *W, uint32_t id)
{
    if (W->nover == W->overcap) {
        W->overcap = W->overcap ? 2 * W->overcap : 16;
        W->over = realloc(W->over, W->overcap * sizeof *W->over);
        if (W->over == NULL)
            die("out of memory", "window table");
    }
    W->over[W->nover++] = id;
}

/* Count[key] += 1 for a window of the activation whose last window's id
 * is *LASTID; *LASTID becomes this one's.
 *
 * The hot path reads the table through a struct view held in the feed
 * loop's locals: stores into the slots (uint32_t) could alias struct
 * win's fields, which would make the compiler reload them every event.
 * The view is reloaded after an insert (the table may have grown). */
struct view {
    unsigned char *slots;
    uint64_t mask;
    unsigned shift;
};

static inline void view_load(struct view *v, const struct win *W)
{
    v->slots = W->slots;
    v->mask = W->nslots - 1;
    v->shift = W->shift;
}

/* A window that is not in the table (rarer: 2 % of bzip2's events at
 * k = 8, 15 % at k = 16), not inlined. */
static __attribute__((noinline)) void win_insert(struct win *W, const label_t *key, uint64_t h,
                                                 uint32_t *lastid)
{
    const uint32_t K = W->k;
    const size_t stride = W->stride, ioff = K * sizeof(label_t);
    if (W->used + 1 > W->limit)
        win_grow(W);
    uint64_t mask = W->nslots - 1, j;
    for (j = mix(h) >> W->shift; *slot_id(W, W->slots + j * stride) != 0; j = (j + 1) & mask)
        W->probes++;
    if (W->used + 1 >= W->wcap) {
        if (W->used + 1 == UINT32_MAX)
            die("more than 2^32 - 2 windows", "window table");
        win_room(W);
    }
    uint32_t id = ++W->used;
    unsigned char *s = W->slots + j * stride;
    memcpy(s, key, K * sizeof(label_t));
    *(uint32_t *)(s + ioff) = id;
    *(uint32_t *)(s + ioff + 4) = 1;
    uint32_t m = 0;
    while (m < K && key[m] == PAD)
        m++;
    W->len[id] = (uint8_t)(K - m);
    W->last[id] = key[K - 1];
    W->pred[id] = K - m > 1 ? *lastid : 0;
    *lastid = id;
}

/* K is a compile-time constant in every caller. */
static inline __attribute__((always_inline)) void win_count(struct win *W, struct view *v,
                                                          const label_t *key, uint64_t h,
                                                          uint32_t *lastid, const uint32_t K)
{
    const size_t stride = K * sizeof(label_t) + 8, ioff = K * sizeof(label_t);
    uint64_t j = mix(h) >> v->shift;
    for (;;) {
        unsigned char *s = v->slots + j * stride;
        uint32_t id;
        memcpy(&id, s + ioff, 4);
        if (id == 0)
            break;
        uint64_t diff = 0;
        if (K * sizeof(label_t) % 8 == 0) {
            for (uint32_t i = 0; i < K * sizeof(label_t) / 8; i++) {
                uint64_t x, y;
                memcpy(&x, s + 8 * i, 8);
                memcpy(&y, (const unsigned char *)key + 8 * i, 8);
                diff |= x ^ y;
            }
        } else {
            for (uint32_t i = 0; i < K; i++) {
                label_t x;
                memcpy(&x, s + i * sizeof(label_t), sizeof x);
                diff |= x ^ key[i];
            }
        }
        if (diff == 0) {
            uint32_t c;
            memcpy(&c, s + ioff + 4, 4);
            c++;
            memcpy(s + ioff + 4, &c, 4);
            if (__builtin_expect(c == 0, 0))
                win_wrapped(W, id);
            *lastid = id;
            return;
        }
        W->probes++;
        j = (j + 1) & v->mask;
    }
    win_insert(W, key, h, lastid);
    view_load(v, W);
}

static inline __attribute__((always_inline)) void win_prefetch(const struct view *v, uint64_t h,
                                                             const uint32_t K)
{
    const size_t stride = K * sizeof(label_t) + 8;
    const unsigned char *s = v->slots + (mix(h) >> v->shift) * stride;
    __builtin_prefetch(s, 1, 3);
    if (stride > 64 || ((uintptr_t)s & 63) + stride > 64)
        __builtin_prefetch(s + stride - 1, 1, 3);
}

/* The pending keys, oldest first. */
static inline __attribute__((always_inline)) void win_flush(struct win *W, struct win_seq *q,
                                                          const uint32_t K)
{
    struct view v;
    view_load(&v, W);
    unsigned j = (W->head + W->D - W->npend) % W->D;
    for (unsigned i = 0; i < W->npend; i++) {
        win_count(W, &v, &W->pkey[j * KMAX], W->ph[j], &q->lastid[W->pa[j]], K);
        j = j + 1 == W->D ? 0 : j + 1;
    }
    W->npend = 0;
    W->head = 0;
}

static void seq_init(struct win_seq *q)
{
    pp_act_init(&q->acts, NULL, NULL);
    q->buf = NULL;
    q->pos = NULL;
    q->h = NULL;
    q->lastid = NULL;
    q->cap = 0;
}

static void seq_free(struct win_seq *q)
{
    pp_act_free(&q->acts);
    free(q->buf);
    free(q->pos);
    free(q->h);
    free(q->lastid);
    seq_init(q);
}

static void seq_room(struct win_seq *q, size_t depth, uint32_t k)
{
    if (depth <= q->cap)
        return;
    size_t cap = q->cap ? q->cap : 64;
    while (cap < depth)
        cap *= 2;
    q->buf = realloc(q->buf, cap * 2 * k * sizeof *q->buf);
    q->pos = realloc(q->pos, cap * sizeof *q->pos);
    q->h = realloc(q->h, cap * sizeof *q->h);
    q->lastid = realloc(q->lastid, cap * sizeof *q->lastid);
    if (q->buf == NULL || q->pos == NULL || q->h == NULL || q->lastid == NULL)
        die("out of memory", "activation states");
    q->cap = cap;
}

/* A new activation: an all-PAD window. */
static inline __attribute__((always_inline)) void act_reset(const struct win *W, struct win_seq *q,
                                                          size_t a, const uint32_t K)
{
    memset(q->buf + a * 2 * K, 0xFF, 2 * K * sizeof(label_t)); /* PAD: all ones */
    q->pos[a] = 0;
    q->h[a] = W->hpad;
}

/* The feed loop's locals: the table view and the pipeline's cursor. */
struct hot {
    struct view v;
    unsigned head, npend;
    uint64_t events;
};

/* One path event LABEL of the activation at index A (depth - 1). */
static inline __attribute__((always_inline)) void act_item(struct win *W, struct hot *L,
                                                         struct win_seq *q, size_t a,
                                                         label_t label, const uint32_t K,
                                                         const int PF, const int ROLL)
{
    label_t *b = q->buf + a * 2 * K;
    uint32_t p = q->pos[a];
    uint64_t h;
    if (ROLL) {
        h = (q->h[a] - (uint64_t)b[p] * W->P[0]) * HB + label;
        q->h[a] = h;
    }
    b[p] = label;
    b[p + K] = label;
    const label_t *key = b + p + 1;
    q->pos[a] = p + 1 == K ? 0 : p + 1;
    if (!ROLL) {
        h = 0;
        for (uint32_t i = 0; i < K; i++)
            h += (uint64_t)key[i] * W->P[i];
    }
    L->events++;
    if (!PF) {
        win_count(W, &L->v, key, h, &q->lastid[a], K);
        return;
    }
    /* Processing is in event order, so an activation's previous window
     * is counted (and its lastid set) before this one; an activation
     * popped meanwhile had its pending windows counted first too. */
    unsigned j = L->head;
    if (__builtin_expect(L->npend == W->D, 1))
        win_count(W, &L->v, &W->pkey[j * KMAX], W->ph[j], &q->lastid[W->pa[j]], K);
    else
        L->npend++;
    win_prefetch(&L->v, h, K);
    W->ph[j] = h;
    W->pa[j] = (uint32_t)a;
    memcpy(&W->pkey[j * KMAX], key, K * sizeof(label_t));
    L->head = j + 1 == W->D ? 0 : j + 1;
}

/* analyzers/ksf/feed.c's ksf_feed, with the window state instead of
 * Fig. 6's. */
static inline __attribute__((always_inline)) void win_feed_impl(struct win *W, struct win_seq *q,
                                                              const uint64_t *ev, size_t n,
                                                              const uint32_t K, const int PF,
                                                              const int ROLL)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    struct hot L = {.head = W->head, .npend = W->npend};
    view_load(&L.v, W);
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        if (__builtin_expect((w & special) == 0 && !q->acts.has_half && depth != 0 &&
                                 depth <= q->cap, 1)) {
            act_item(W, &L, q, depth - 1, (label_t)(w & PATHPROF_EV_INDEX_MASK), K, PF, ROLL);
            continue;
        }
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            if (pushed)
                act_reset(W, q, d - 1, K);
            act_item(W, &L, q, d - 1, (label_t)(w & PATHPROF_EV_INDEX_MASK), K, PF, ROLL);
            continue;
        }
        struct pp_act_step step;
        pp_act_feed(&q->acts, w, &step);
        if (!pp_act_step_feeds_sequence(&step))
            continue;
        seq_room(q, step.depth, K);
        if (step.pushed)
            act_reset(W, q, step.depth - 1, K);
        if (step.what == PP_ACT_PATH)
            act_item(W, &L, q, step.depth - 1, (label_t)(w & PATHPROF_EV_INDEX_MASK), K, PF,
                     ROLL);
    }
    W->head = L.head;
    W->npend = L.npend;
    W->events += L.events;
}

typedef void (*feed_fn)(struct win *, struct win_seq *, const uint64_t *, size_t);
typedef void (*flush_fn)(struct win *, struct win_seq *);

#define FEEDS(KK)                                                                            \
    static void feed_##KK##_00(struct win *W, struct win_seq *q, const uint64_t *e, size_t n) \
    {                                                                                        \
        win_feed_impl(W, q, e, n, KK, 0, 0);                                                 \
    }                                                                                        \
    static void feed_##KK##_01(struct win *W, struct win_seq *q, const uint64_t *e, size_t n) \
    {                                                                                        \
        win_feed_impl(W, q, e, n, KK, 0, 1);                                                 \
    }                                                                                        \
    static void feed_##KK##_10(struct win *W, struct win_seq *q, const uint64_t *e, size_t n) \
    {                                                                                        \
        win_feed_impl(W, q, e, n, KK, 1, 0);                                                 \
    }                                                                                        \
    static void feed_##KK##_11(struct win *W, struct win_seq *q, const uint64_t *e, size_t n) \
    {                                                                                        \
        win_feed_impl(W, q, e, n, KK, 1, 1);                                                 \
    }                                                                                        \
    static void flush_##KK(struct win *W, struct win_seq *q)                                 \
    {                                                                                        \
        win_flush(W, q, KK);                                                                 \
    }
FEEDS(1) FEEDS(2) FEEDS(3) FEEDS(4) FEEDS(5) FEEDS(6) FEEDS(7) FEEDS(8)
FEEDS(9) FEEDS(10) FEEDS(11) FEEDS(12) FEEDS(13) FEEDS(14) FEEDS(15) FEEDS(16)
#define ROW(KK) {feed_##KK##_00, feed_##KK##_01, feed_##KK##_10, feed_##KK##_11}
static const feed_fn feeds[KMAX + 1][4] = {
    {0},     ROW(1),  ROW(2),  ROW(3),  ROW(4),  ROW(5),  ROW(6),  ROW(7),  ROW(8),
    ROW(9),  ROW(10), ROW(11), ROW(12), ROW(13), ROW(14), ROW(15), ROW(16),
};
static const flush_fn flushes[KMAX + 1] = {
    0,        flush_1,  flush_2,  flush_3,  flush_4,  flush_5,  flush_6,  flush_7,  flush_8,
    flush_9,  flush_10, flush_11, flush_12, flush_13, flush_14, flush_15, flush_16,
};

/* The windows -> a k-IPF (united into IPF, as ksf_make_k_ipf does).  In
 * id order, a window w of length m has pred p (its first occurrence's
 * predecessor in the activation; made before it): for m < k, w is p plus
 * one label; for m = k, w is the last k - 1 labels of p (p itself if p
 * has k - 1 labels, else p's suffix link) plus one label.  One child
 * step per window, each new node made with its suffix links; every
 * n-gram is a suffix of some window, so the k-IPF's node set is complete,
 * and ksf_linked_sum() gives each the sum over the windows ending with
 * it.  *LINKED_BYTES: the linked k-IPF; *AUX_BYTES: the arrays used here. */
static void win_to_ipf(const struct win *W, struct ksf_forest *ipf, size_t *linked_bytes,
                       size_t *aux_bytes)
{
    struct ksf_linked l;
    if (ksf_linked_init(&l, 0, 0) != 0)
        die("out of memory", "k-IPF");
    uint32_t n = W->used;
    uint64_t *cnt = malloc(((size_t)n + 1) * sizeof *cnt);
    uint32_t *node = malloc(((size_t)n + 1) * sizeof *node);
    if (cnt == NULL || node == NULL)
        die("out of memory", "k-IPF");
    for (uint64_t i = 0; i < W->nslots; i++) {
        unsigned char *s = W->slots + i * W->stride;
        uint32_t id = *slot_id(W, s);
        if (id != 0)
            cnt[id] = *(uint32_t *)(s + W->id_off + 4);
    }
    for (size_t i = 0; i < W->nover; i++)
        cnt[W->over[i]] += 1ull << 32;
    node[0] = 0;
    for (uint32_t id = 1; id <= n; id++) {
        uint32_t m = W->len[id], base = 0;
        if (m > 1) {
            uint32_t p = W->pred[id];
            base = node[p];
            if (W->len[p] == W->k)
                base = l.link[base];
        }
        uint32_t t = ksf_linked_child(&l, base, W->last[id]);
        if (t == 0)
            die("out of memory", "k-IPF");
        l.f.n[t].count += cnt[id];
        node[id] = t;
    }
    ksf_linked_sum(&l);
    *linked_bytes += ksf_forest_bytes(&l.f) + (size_t)l.f.cap * sizeof *l.link;
    *aux_bytes += ((size_t)n + 1) * (sizeof *cnt + sizeof *node);
    free(cnt);
    free(node);
    if (ipf->len == 1 && ipf->nroots == 0 && !ipf->failed) {
        ksf_forest_free(ipf);
        *ipf = l.f;
        l.f = (struct ksf_forest){0};
    } else if (ksf_ipf_merge(ipf, &l.f) != 0) {
        die("out of memory", "k-IPF");
    }
    ksf_linked_free(&l);
}

/* ---- comparing two k-IPFs ---- */

struct kid {
    uint64_t label;
    uint32_t node;
};

static int by_label(const void *a, const void *b)
{
    const struct kid *x = a, *y = b;
    return x->label < y->label ? -1 : x->label > y->label;
}

static struct kid *kids(const struct ksf_forest *f, uint32_t v, size_t *n)
{
    size_t c = 0;
    for (uint32_t s = f->n[v].child; s; s = f->n[s].sibling)
        c++;
    struct kid *k = malloc((c ? c : 1) * sizeof *k);
    if (k == NULL)
        die("out of memory", "compare");
    c = 0;
    for (uint32_t s = f->n[v].child; s; s = f->n[s].sibling)
        k[c++] = (struct kid){f->n[s].label, s};
    qsort(k, c, sizeof *k, by_label);
    *n = c;
    return k;
}

static uint64_t zero_counts;

/* 0 when the subtrees of A's node U and B's node V are equal. */
static int same_subtree(const struct ksf_forest *a, uint32_t u, const struct ksf_forest *b,
                        uint32_t v)
{
    if (a->n[u].label != b->n[v].label || a->n[u].count != b->n[v].count)
        return -1;
    zero_counts += a->n[u].count == 0;
    size_t na, nb;
    struct kid *ka = kids(a, u, &na), *kb = kids(b, v, &nb);
    int rc = na == nb ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < na; i++)
        rc = same_subtree(a, ka[i].node, b, kb[i].node);
    free(ka);
    free(kb);
    return rc;
}

struct cmp {
    const struct ksf_forest *a, *b;
    int rc;
};

static void cmp_root(uint32_t r, void *ctx)
{
    struct cmp *c = ctx;
    if (c->rc != 0)
        return;
    uint32_t rb = ksf_root_find(c->b, c->a->n[r].label);
    c->rc = rb == 0 ? -1 : same_subtree(c->a, r, c->b, rb);
}

/* 0 when A and B hold the same sequences with the same counts. */
static int same_ipf(const struct ksf_forest *a, const struct ksf_forest *b)
{
    if (a->len != b->len || a->nroots != b->nroots || a->failed || b->failed)
        return -1;
    struct cmp c = {a, b, 0};
    zero_counts = 0;
    ksf_each_root(a, cmp_root, &c);
    return c.rc;
}

/* ---- the runs ---- */

static long rss_base_kb;

static long maxrss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static size_t ksf_bytes(const struct ksf_forest *f)
{
    return ksf_forest_bytes(f);
}

static void report(const char *name, uint32_t k, uint64_t events, double build, double convert,
                   const char *extra)
{
    printf("%-7s k=%-2u %10llu events  build %7.3f s %7.2f ns/event  convert %7.3f s %7.2f ns/event"
           "  total %7.2f ns/event  %s\n",
           name, k, (unsigned long long)events, build, build * 1e9 / events, convert,
           convert * 1e9 / events, (build + convert) * 1e9 / events, extra);
}

static void run_ksf(uint32_t k, struct ksf_forest *ipf)
{
    double build = 0, convert = 0;
    uint64_t events = 0, sf_nodes = 0;
    size_t sf_bytes = 0, peak = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        if (threads[t].n == 0)
            continue;
        struct ksf_builder b;
        struct ksf_seq q;
        if (ksf_builder_init(&b, k) != 0)
            die("out of memory", "k-SF");
        ksf_seq_init(&q);
        double t0 = now();
        for (size_t i = 0; i < threads[t].n; i += BATCH) {
            size_t n = threads[t].n - i < BATCH ? threads[t].n - i : BATCH;
            ksf_feed(&b, &q, threads[t].w + i, n);
        }
        double t1 = now();
        ksf_make_k_ipf(&b.f, k, ipf);
        double t2 = now();
        if (b.lost)
            die("lost events", "k-SF");
        build += t1 - t0;
        convert += t2 - t1;
        events += b.events;
        sf_nodes += b.f.len - 1;
        sf_bytes = ksf_bytes(&b.f);
        if (sf_bytes > peak)
            peak = sf_bytes;
        ksf_seq_free(&q);
        ksf_builder_free(&b);
    }
    /* The conversion holds the k-SF and the linked k-IPF (nodes + links). */
    size_t ipf_bytes = ksf_bytes(ipf) + (size_t)ipf->cap * 4;
    char extra[256];
    snprintf(extra, sizeof extra,
             "k-SF %llu nodes %.1f MB  k-IPF %u nodes %.1f MB (with links)  data peak %.1f MB",
             (unsigned long long)sf_nodes, sf_bytes / 1e6, ipf->len - 1, ipf_bytes / 1e6,
             (peak + ipf_bytes) / 1e6);
    report("ksf", k, events, build, convert, extra);
}

static void run_win(const char *name, uint32_t k, int pf, int roll, unsigned D, double load,
                    struct ksf_forest *ipf)
{
    double build = 0, convert = 0;
    uint64_t events = 0, windows = 0, lookups = 0, probes = 0, nslots = 0;
    size_t table = 0, side = 0, linked = 0, peak = 0;
    feed_fn feed = feeds[k][pf * 2 + roll];
    for (uint32_t t = 0; t < nthreads; t++) {
        if (threads[t].n == 0)
            continue;
        struct win *W = malloc(sizeof *W);
        if (W == NULL)
            die("out of memory", "window table");
        struct win_seq q;
        win_init(W, k, D, load);
        seq_init(&q);
        seq_room(&q, 64, k);
        double t0 = now();
        for (size_t i = 0; i < threads[t].n; i += BATCH) {
            size_t n = threads[t].n - i < BATCH ? threads[t].n - i : BATCH;
            feed(W, &q, threads[t].w + i, n);
        }
        if (pf)
            flushes[k](W, &q);
        double t1 = now();
        size_t lb = 0, aux = 0;
        win_to_ipf(W, ipf, &lb, &aux);
        double t2 = now();
        build += t1 - t0;
        convert += t2 - t1;
        events += W->events;
        windows += W->used;
        lookups += W->events;
        probes += W->probes;
        nslots += W->nslots;
        size_t tb = W->nslots * W->stride, sb = win_bytes(W) - tb;
        table += tb;
        side += sb;
        linked += lb;
        /* Build: the last doubling holds the old and the new slots (1.5x);
         * conversion: the table, the per-window arrays, the linked k-IPF
         * and the conversion's two arrays. */
        size_t p = tb + sb + lb + aux;
        if (tb * 3 / 2 + sb > p)
            p = tb * 3 / 2 + sb;
        if (p > peak)
            peak = p;
        seq_free(&q);
        win_free(W);
        free(W);
    }
    char extra[400];
    snprintf(extra, sizeof extra,
             "windows %llu (%.1f per 1k events)  table %.1f MB (%zu B slots, load %.2f) + "
             "per-window arrays %.1f MB  extra probes/lookup %.3f  k-IPF %u nodes %.1f MB "
             "(with links)  data peak %.1f MB",
             (unsigned long long)windows, 1000.0 * windows / events, table / 1e6,
             k * sizeof(label_t) + 8, (double)windows / nslots, side / 1e6,
             (double)probes / lookups, ipf->len - 1, linked / 1e6, peak / 1e6);
    report(name, k, events, build, convert, extra);
}

/* The "link" variants: no k-SF and no windows.  Each activation keeps the
 * k-IPF node of its longest suffix of at most k labels (and that suffix's
 * length); a path event steps from it to the child labelled with the event
 * (from its suffix link when it already has k labels), made with its own
 * links when missing (suffix-links.h), and counts there.  After the last
 * event the links' summing pass gives every shorter suffix its count, as
 * in the conversion.  One child step per event into the k-IPF itself,
 * and no conversion.  "linkt" finds children through the child table. */
struct link_seq {
    struct pp_act_stack acts;
    uint32_t *node, *len;
    size_t cap;
};

static void lseq_room(struct link_seq *q, size_t depth)
{
    if (depth <= q->cap)
        return;
    size_t cap = q->cap ? q->cap : 64;
    while (cap < depth)
        cap *= 2;
    q->node = realloc(q->node, cap * sizeof *q->node);
    q->len = realloc(q->len, cap * sizeof *q->len);
    if (q->node == NULL || q->len == NULL)
        die("out of memory", "activation states");
    q->cap = cap;
}

static inline __attribute__((always_inline)) void link_item(struct ksf_linked *l,
                                                          struct link_seq *q, size_t a,
                                                          uint64_t label, uint32_t K)
{
    uint32_t t = q->node[a], m = q->len[a];
    uint32_t base = m < K ? t : ksf_linked_link(l, t);
    uint32_t c = ksf_linked_child(l, base, label);
    if (c == 0)
        die("out of memory", "linked k-IPF");
    l->f.n[c].count++;
    q->node[a] = c;
    q->len[a] = m < K ? m + 1 : K;
}

static void link_feed(struct ksf_linked *l, struct link_seq *q, const uint64_t *ev, size_t n,
                      uint32_t K, uint64_t *events)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    uint64_t e = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        size_t depth = pp_act_depth(&q->acts);
        if (__builtin_expect((w & special) == 0 && !q->acts.has_half && depth != 0 &&
                                 depth <= q->cap, 1)) {
            link_item(l, q, depth - 1, w & PATHPROF_EV_INDEX_MASK, K);
            e++;
            continue;
        }
        bool pushed;
        size_t d = pp_act_fast_path(&q->acts, w, q->cap, &pushed);
        if (d != 0) {
            if (pushed)
                q->node[d - 1] = q->len[d - 1] = 0;
            link_item(l, q, d - 1, w & PATHPROF_EV_INDEX_MASK, K);
            e++;
            continue;
        }
        struct pp_act_step step;
        pp_act_feed(&q->acts, w, &step);
        if (!pp_act_step_feeds_sequence(&step))
            continue;
        lseq_room(q, step.depth);
        if (step.pushed)
            q->node[step.depth - 1] = q->len[step.depth - 1] = 0;
        if (step.what == PP_ACT_PATH) {
            link_item(l, q, step.depth - 1, w & PATHPROF_EV_INDEX_MASK, K);
            e++;
        }
    }
    *events += e;
}

static void run_link(const char *name, uint32_t k, int table, struct ksf_forest *ipf)
{
    double build = 0, convert = 0;
    uint64_t events = 0;
    size_t peak = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        if (threads[t].n == 0)
            continue;
        struct ksf_linked l;
        struct link_seq q = {0};
        if (ksf_linked_init(&l, 0, 0) != 0)
            die("out of memory", "linked k-IPF");
        if (table && ksf_linked_use_table(&l, 1 << 16, threads[t].n / 8) != 0)
            die("out of memory", "child table");
        pp_act_init(&q.acts, NULL, NULL);
        lseq_room(&q, 64);
        double t0 = now();
        for (size_t i = 0; i < threads[t].n; i += BATCH) {
            size_t n = threads[t].n - i < BATCH ? threads[t].n - i : BATCH;
            link_feed(&l, &q, threads[t].w + i, n, k, &events);
        }
        double t1 = now();
        ksf_linked_sum(&l);
        size_t bytes = ksf_forest_bytes(&l.f) + (size_t)l.f.cap * 4 +
                       (l.kid ? ((size_t)l.kid_mask + 1) * 8 : 0);
        if (bytes > peak)
            peak = bytes;
        if (ipf->len == 1 && ipf->nroots == 0) {
            ksf_forest_free(ipf);
            *ipf = l.f;
            l.f = (struct ksf_forest){0};
        } else if (ksf_ipf_merge(ipf, &l.f) != 0) {
            die("out of memory", "k-IPF union");
        }
        double t2 = now();
        build += t1 - t0;
        convert += t2 - t1;
        ksf_linked_free(&l);
        pp_act_free(&q.acts);
        free(q.node);
        free(q.len);
    }
    char extra[256];
    snprintf(extra, sizeof extra, "k-IPF %u nodes  data peak %.1f MB", ipf->len - 1, peak / 1e6);
    report(name, k, events, build, convert, extra);
}

static const char *const variant_names[] = {"ksf", "win", "winpf", "winh", "winpfh", "link", "linkt"};
enum { V_KSF, V_WIN, V_WINPF, V_WINH, V_WINPFH, V_LINK, V_LINKT, NV };

int main(int argc, char **argv)
{
    unsigned D = 16;
    double load = 0.5;
    bool want[NV] = {true, true, true, true, true, true, true}, compare = true;
    int opt;
    while ((opt = getopt(argc, argv, "v:d:l:n")) != -1) {
        switch (opt) {
        case 'v': {
            memset(want, 0, sizeof want);
            char *list = strdup(optarg), *save = NULL;
            for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
                int i;
                for (i = 0; i < NV && strcmp(v, variant_names[i]) != 0; i++)
                    ;
                if (i == NV)
                    die("unknown variant (ksf, win, winpf, winh, winpfh, link, linkt)", v);
                want[i] = true;
            }
            free(list);
            break;
        }
        case 'n':
            compare = false;
            break;
        case 'd':
            D = (unsigned)strtoul(optarg, NULL, 10);
            if (D < 1 || D > DMAX)
                die("D must be 1 to 64", optarg);
            break;
        case 'l':
            load = strtod(optarg, NULL) / 100;
            if (load <= 0.05 || load >= 0.96)
                die("load must be 5 to 95 (%)", optarg);
            break;
        default:
            fprintf(stderr, "usage: ngram-replay [-n] [-v VARIANTS] [-d D] [-l LOAD%%] TRACE [k ...]\n");
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "usage: ngram-replay [-n] [-v VARIANTS] [-d D] [-l LOAD%%] TRACE [k ...]\n");
        return 2;
    }
    const char *file = argv[optind++];
    read_trace(file);
    check_labels(file);
    rss_base_kb = maxrss_kb();
    int nwant = 0;
    for (int i = 0; i < NV; i++)
        nwant += want[i];
    printf("trace %s  prefetch distance %u  max load %.2f  %zu-bit labels\n", file, D, load,
           8 * sizeof(label_t));
    int bad = 0;
    uint32_t ks[64];
    int nk = 0;
    if (optind == argc)
        ks[nk++] = 8;
    for (int i = optind; i < argc && nk < 64; i++) {
        long k = strtol(argv[i], NULL, 10);
        if (k < 1 || k > KMAX)
            die("k must be 1 to 16", argv[i]);
        ks[nk++] = (uint32_t)k;
    }
    for (int ki = 0; ki < nk; ki++) {
        uint32_t k = ks[ki];
        struct ksf_forest ref;
        bool have_ref = false;
        if (want[V_KSF]) {
            if (ksf_forest_init(&ref) != 0)
                die("out of memory", "k-IPF");
            run_ksf(k, &ref);
            have_ref = true;
        }
        for (int v = V_WIN; v < NV; v++) {
            if (!want[v])
                continue;
            struct ksf_forest ipf;
            if (ksf_forest_init(&ipf) != 0)
                die("out of memory", "k-IPF");
            int pf = v == V_WINPF || v == V_WINPFH, roll = v == V_WIN || v == V_WINPF;
            if (v == V_LINK || v == V_LINKT)
                run_link(variant_names[v], k, v == V_LINKT, &ipf);
            else
                run_win(variant_names[v], k, pf, roll, D, load, &ipf);
            if (have_ref && compare) {
                double t0 = now();
                int rc = same_ipf(&ref, &ipf);
                printf("        %s k=%u: k-IPF %s the ksf analyzer's (%u nodes, %llu zero counts; "
                       "compared in %.1f s)\n",
                       variant_names[v], k, rc == 0 ? "IDENTICAL to" : "DIFFERS from",
                       ref.len - 1, (unsigned long long)zero_counts, now() - t0);
                bad |= rc != 0;
            }
            ksf_forest_free(&ipf);
        }
        if (have_ref)
            ksf_forest_free(&ref);
        fflush(stdout);
    }
    if (nwant == 1)
        printf("peak RSS %.1f MB, of which the trace and start-up %.1f MB: %.1f MB for the run\n",
               maxrss_kb() / 1e3, rss_base_kb / 1e3, (maxrss_kb() - rss_base_kb) / 1e3);
    return bad;
}
