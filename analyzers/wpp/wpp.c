/* wpp.c - the `wpp` analyzer: whole program paths (the WPP paper).  Per
 * producer thread, the stream's symbols (path events and markers, exactly
 * as emitted) are numbered in order of first appearance and fed to
 * SEQUITUR(1), online, on the analyzer thread.  The grammar is the record
 * of the thread's whole stream: `pathprof wpp --expand` prints it back as
 * `pathprof dump` prints the trace of the same run.
 *
 * Memory: each producer thread's grammar and symbol table stay within
 * PATHPROF_WPP_MAX bytes; when the next symbol could take them past it,
 * the grammar is closed as one epoch (encoded, compact) and the next
 * epoch starts empty, so nothing is lost and memory is bounded by the
 * limit per live thread plus the encoded grammars. */
#include "analyzer-services.h"
#include "analyzer.h"
#include "config.h"
#include "encode.h"
#include "message.h"
#include "pathprof-abi.h"
#include "sequitur.h"
#include "symbols.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define WPP_VERSION 1u

struct wpp_record {
    uint32_t tid;
    uint64_t epoch;
    size_t at, len; /* in wpp_an.records */
};

struct wpp_pthread {
    uint32_t tid;
    bool closed;     /* its last grammar is encoded (write or merge came first) */
    uint64_t epoch;
    uint64_t words;  /* of this epoch */
    uint64_t half;   /* a marker's first word, waiting for its second */
    uint64_t last;   /* the path event appended last; UINT64_MAX: a marker */
    bool has_half;
    struct sequitur sq;
    struct wpp_symbols syms;
    struct wpp_pthread *next, *prev; /* the instance's live threads */
};

struct wpp_an {
    struct pprt_buf records;
    struct wpp_record *index;
    size_t n, cap;
    struct wpp_pthread *live;
    uint64_t limit;
    bool failed;
};

static void *wpp_open(void)
{
    struct wpp_an *a = calloc(1, sizeof *a);
    if (a)
        a->limit = pprt_config.wpp_max_bytes;
    return a;
}

static int grammar_start(struct wpp_pthread *t)
{
    if (sq_init(&t->sq) != 0)
        return -1;
    if (wpp_symbols_init(&t->syms) != 0) {
        sq_free(&t->sq);
        return -1;
    }
    t->words = 0;
    return 0;
}

static void *wpp_thread_begin(void *a, uint32_t tid)
{
    struct wpp_an *an = a;
    struct wpp_pthread *t = calloc(1, sizeof *t);
    if (t == NULL || grammar_start(t) != 0) {
        free(t);
        an->failed = true;
        return NULL;
    }
    t->tid = tid;
    t->next = an->live;
    if (an->live)
        an->live->prev = t;
    an->live = t;
    return t;
}

/* Encodes T's current grammar as a record of AN. */
static void grammar_encode(struct wpp_an *an, struct wpp_pthread *t, uint32_t flags)
{
    struct wpp_grammar_head h = {t->tid, flags, t->epoch, t->words, 0};
    if (t->has_half) {
        h.flags |= WPP_GRAMMAR_HALF;
        h.tail = t->half;
        h.words++;
    }
    sq_finish(&t->sq);
    if (an->n == an->cap) {
        size_t cap = an->cap ? an->cap * 2 : 16;
        struct wpp_record *v = realloc(an->index, cap * sizeof *v);
        if (v == NULL) {
            an->failed = true;
            return;
        }
        an->index = v;
        an->cap = cap;
    }
    size_t at = an->records.len;
    if (t->sq.failed || wpp_encode(&t->sq, &t->syms, &h, &an->records) != 0)
        an->failed = true;
    an->index[an->n++] = (struct wpp_record){t->tid, t->epoch, at, an->records.len - at};
}

/* Encodes T's current grammar as a record of AN and frees it. */
static void grammar_close(struct wpp_an *an, struct wpp_pthread *t, uint32_t flags)
{
    grammar_encode(an, t, flags);
    sq_free(&t->sq);
    wpp_symbols_free(&t->syms);
}

/* The limit is reached: this epoch's grammar is closed, the next starts. */
static void next_epoch(struct wpp_an *an, struct wpp_pthread *t)
{
    bool half = t->has_half;
    t->has_half = false; /* a half marker goes on in the next epoch */
    grammar_encode(an, t, 0);
    t->has_half = half;
    t->epoch++;
    /* The next grammar reuses the arrays, which the limit already bounds. */
    sq_reset(&t->sq);
    wpp_symbols_reset(&t->syms);
    t->words = 0;
}

static void wpp_consume(void *a, void *tp, const uint64_t *ev, size_t n)
{
    struct wpp_an *an = a;
    struct wpp_pthread *t = tp;
    if (t == NULL || t->closed)
        return;
    for (size_t i = 0; i < n; i++) {
        uint64_t w1 = ev[i], w2 = 0, nw = 1;
        if (t->has_half) {
            w2 = w1;
            w1 = t->half;
            t->has_half = false;
            nw = 2;
        } else if (w1 & PATHPROF_EV_MARKER) {
            t->half = w1;
            t->has_half = true;
            continue;
        } else if (w1 == t->last && sq_in_run(&t->sq)) {
            /* The path just appended, again (a loop): the grammar's run
             * grows by all the copies in a row, without numbering them or
             * checking memory. */
            size_t j = i + 1;
            while (j < n && ev[j] == w1)
                j++;
            sq_run_more(&t->sq, j - i);
            t->words += j - i;
            i = j - 1;
            continue;
        }
        size_t syms = wpp_symbols_bytes(&t->syms);
        /* Room for the symbol table to double once more, and the grammar
         * to take one more symbol; an empty epoch always takes one. */
        if (t->sq.length != 0 &&
            (2 * syms >= an->limit || !sq_room(&t->sq, an->limit - 2 * syms))) {
            next_epoch(an, t);
        }
        uint32_t id = wpp_symbols_id(&t->syms, w1, w2);
        if (id == UINT32_MAX || id > SQ_MAX_ID || sq_append(&t->sq, id) != 0) {
            an->failed = true;
            t->closed = true; /* the profile will say it could not be written whole */
            return;
        }
        t->last = w2 == 0 ? w1 : UINT64_MAX;
        t->words += nw;
    }
}

static void unlink_thread(struct wpp_an *an, struct wpp_pthread *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else if (an->live == t)
        an->live = t->next;
    if (t->next)
        t->next->prev = t->prev;
    t->next = t->prev = NULL;
}

static void wpp_thread_end(void *a, void *tp)
{
    struct wpp_an *an = a;
    struct wpp_pthread *t = tp;
    if (t == NULL)
        return;
    if (!t->closed)
        grammar_close(an, t, WPP_GRAMMAR_ENDED);
    unlink_thread(an, t);
    free(t);
}

/* Streams still running when the profile is written (cut short): their
 * grammars so far, without ENDED. */
static void close_live(struct wpp_an *an)
{
    for (struct wpp_pthread *t = an->live; t; t = t->next)
        if (!t->closed) {
            /* A thread that never emitted is not in the trace either. */
            if (t->sq.length != 0 || t->has_half || t->epoch != 0)
                grammar_close(an, t, 0);
            else {
                sq_free(&t->sq);
                wpp_symbols_free(&t->syms);
            }
            t->closed = true;
        }
}

/* A forked child accumulating (analyzer-host.h): its WPP is what each of
 * its threads runs after the fork.  The grammars already closed (threads
 * ended, epochs full) go; each live stream's grammar starts over at epoch
 * 0, keeping only a marker's first word whose second is yet to come. */
static int wpp_reset(void *a)
{
    struct wpp_an *an = a;
    if (an == NULL)
        return -1;
    an->records.len = 0;
    an->records.failed = 0;
    an->n = 0;
    an->failed = false;
    return 0;
}

static void wpp_reset_stream(void *a, void *tp)
{
    struct wpp_an *an = a;
    struct wpp_pthread *t = tp;
    if (t == NULL)
        return;
    if (!t->closed) {
        sq_free(&t->sq);
        wpp_symbols_free(&t->syms);
    }
    t->epoch = 0;
    t->closed = false;
    if (grammar_start(t) != 0) {
        an->failed = true;
        t->closed = true;
    }
}

static void wpp_merge(void *into, void *from)
{
    struct wpp_an *d = into, *s = from;
    close_live(s);
    for (size_t i = 0; i < s->n; i++) {
        if (d->n == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 16;
            struct wpp_record *v = realloc(d->index, cap * sizeof *v);
            if (v == NULL) {
                d->failed = true;
                return;
            }
            d->index = v;
            d->cap = cap;
        }
        struct wpp_record r = s->index[i];
        r.at += d->records.len; /* S's records go after D's */
        d->index[d->n++] = r;
    }
    pprt_buf_put(&d->records, s->records.data, s->records.len);
    d->failed |= s->failed || d->records.failed;
}

static int by_thread_epoch(const void *x, const void *y)
{
    const struct wpp_record *a = x, *b = y;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return (a->epoch > b->epoch) - (a->epoch < b->epoch);
}

/* TU section ranks as blpp writes them: the TUs that are their own
 * section, in id order; UINT32_MAX for a TU without a section. */
static uint32_t section_rank(uint64_t section)
{
    uint32_t rank = 0;
    struct pp_tu_info info;
    for (uint64_t id = 0; id < section; id++)
        if (pp_tu_get(id, &info) && info.meta != NULL && info.section == id)
            rank++;
    if (!pp_tu_get(section, &info) || info.meta == NULL || info.section != section)
        return UINT32_MAX;
    return rank;
}

static void wpp_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct wpp_an *an = a;
    close_live(an);
    qsort(an->index, an->n, sizeof *an->index, by_thread_epoch);
    pprt_buf_u32(out, PATHPROF_SECTION_WPP);
    pprt_buf_u32(out, 0);
    size_t len_at = out->len;
    pprt_buf_u64(out, 0);
    size_t body = out->len;
    pprt_buf_u32(out, WPP_VERSION);
    pprt_buf_u32(out, 0);
    pprt_buf_u64(out, an->limit);
    uint64_t ntus = pp_tu_count();
    pprt_buf_u64(out, ntus);
    for (uint64_t id = 0; id < ntus; id++) {
        struct pp_tu_info info;
        if (!pp_tu_get(id, &info))
            memset(&info, 0, sizeof info);
        pprt_buf_u64(out, info.tu_base);
        pprt_buf_u64(out, info.fn_base);
        pprt_buf_u32(out, info.meta ? section_rank(info.section) : UINT32_MAX);
        pprt_buf_u32(out, 0);
    }
    pprt_buf_u64(out, an->n);
    for (size_t i = 0; i < an->n; i++)
        pprt_buf_put(out, an->records.data + an->index[i].at, an->index[i].len);
    pprt_buf_patch_u64(out, len_at, out->len - body);
    ++*nsections;
    if (an->failed || an->records.failed) {
        pprt_warning("the wpp analyzer ran out of memory: its grammars are incomplete");
        out->failed = 1;
    }
}

static void wpp_close(void *a)
{
    struct wpp_an *an = a;
    if (an == NULL)
        return;
    while (an->live) {
        struct wpp_pthread *t = an->live;
        unlink_thread(an, t);
        if (!t->closed) {
            sq_free(&t->sq);
            wpp_symbols_free(&t->syms);
        }
        free(t);
    }
    pprt_buf_free(&an->records);
    free(an->index);
    free(an);
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_wpp = {
    .name = "wpp",
    .open = wpp_open,
    .thread_begin = wpp_thread_begin,
    .consume = wpp_consume,
    .thread_end = wpp_thread_end,
    .merge = wpp_merge,
    .write = wpp_write,
    .close = wpp_close,
    .reset = wpp_reset,
    .reset_stream = wpp_reset_stream,
};
