/* profile-merge-wpp.c - WPP sections (docs/format.md, "Merging"): whole
 * program paths of different runs are not added but kept side by side.
 *
 * A grammar is the exact stream of one thread in one epoch; two runs'
 * streams have no sum, so the merged section holds every input thread as
 * a thread of its own, with its epochs, as if the runs had been threads
 * of one process.  What must change is how its words name paths and
 * functions: an event carries tu_base + path offset, an ENTER or RESUME
 * marker fn_base + function index, with the bases each run gave its TUs
 * (in registration order, so they differ between runs).  The merged
 * profile gives every TU section new bases, in the TU sections' canonical
 * order, and every terminal is rewritten to them; the rules (which name
 * terminals by number) are kept as they are.  Events no TU of their run
 * owns stay unknown, moved to the unregistered range (bit 60) so that no
 * merged base can capture them.
 *
 * Threads are written in the order of their encoded grammars and numbered
 * 1, 2, ... in that order, so the bytes depend neither on the order nor on
 * the grouping of the inputs: merge(a, merge(b, c)) = merge(merge(a, b), c). */
#include "profile-merge-wpp.h"
#include "fnv.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdlib.h>
#include <string.h>

#define WPP_VERSION 1u
#define GRAMMAR_HEAD 64u
#define GRAMMAR_ENDED 1u
#define GRAMMAR_HALF 2u
#define UNKNOWN_PATH (1ull << 60)  /* PATHPROF_STREAM_UNREGISTERED_BASE */
#define UNKNOWN_FN (1ull << 55)    /* the same for function indices (56-bit payloads) */

/* A TU of the input's WPP table that has metadata: where its path and
 * function indices start, and the accumulator TU they belong to. */
struct in_tu {
    uint64_t base, span;
    size_t tu;
};

static int by_base(const void *x, const void *y)
{
    const struct in_tu *a = x, *b = y;
    return a->base < b->base ? -1 : a->base > b->base;
}

/* The entry of TABLE (sorted by base) whose range holds INDEX, or NULL. */
static const struct in_tu *owner(const struct in_tu *table, size_t n, uint64_t index)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (table[mid].base <= index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || index - table[lo - 1].base >= table[lo - 1].span)
        return NULL;
    return &table[lo - 1];
}

struct in_tables {
    struct in_tu *paths, *fns;
    size_t n;
};

/* Word W1 (and W2, a marker's second word) as a base-free terminal. */
static void neutral(const struct in_tables *t, uint64_t w1, uint64_t w2, struct mg_wterm *out)
{
    memset(out, 0, sizeof *out);
    out->tu = MG_WPP_VERBATIM;
    out->w2 = w2;
    if (!(w1 & PATHPROF_EV_MARKER)) {
        uint64_t index = w1 & PATHPROF_EV_INDEX_MASK;
        const struct in_tu *o = owner(t->paths, t->n, index);
        out->bits = w1 & (PATHPROF_EV_RET | PATHPROF_EV_START);
        if (o) {
            out->tu = (uint32_t)o->tu;
            out->v = index - o->base;
        } else {
            out->v = index | UNKNOWN_PATH;
        }
        return;
    }
    out->kind = PATHPROF_MARK_KIND(w1);
    uint64_t payload = PATHPROF_MARK_PAYLOAD(w1);
    out->v = payload;
    if (out->kind == PATHPROF_MARK_ENTER || out->kind == PATHPROF_MARK_RESUME) {
        const struct in_tu *o = owner(t->fns, t->n, payload);
        if (o) {
            out->tu = (uint32_t)o->tu;
            out->v = payload - o->base;
        } else {
            out->v = payload | UNKNOWN_FN;
        }
    }
}

/* A symbol of the table: its event word (and a marker's second word). */
static int read_symbol(struct mg_cur *c, uint64_t *w1, uint64_t *w2)
{
    uint64_t v;
    *w2 = 0;
    if (mg_get_uleb(c, &v) != 0)
        return -1;
    if (!(v & 1)) {
        if ((v >> 3) > PATHPROF_EV_INDEX_MASK)
            return -1;
        *w1 = (v >> 3) | ((v >> 2) & 1 ? PATHPROF_EV_RET : 0) | ((v >> 1) & 1 ? PATHPROF_EV_START : 0);
        return 0;
    }
    if ((v >> 8) >= (1ull << 56) || ((v >> 1) & 0x7f) == 0)
        return -1; /* markers have kinds from 1 (pathprof-abi.h) */
    *w1 = PATHPROF_MARK((v >> 1) & 0x7f, v >> 8);
    return mg_get_uleb(c, w2);
}

static void free_grammar(struct mg_wgram *g)
{
    free(g->terms);
    free(g->rules);
}

/* The rules at B (left where they start): each uses only symbols of the
 * table and earlier rules, every rule but the start rule has two symbols
 * or more, and the start rule expands to the header's symbols and words.
 * What `pathprof wpp` checks, so that a merge never makes a profile it
 * refuses.  0, or -1. */
static int check_rules(struct mg_cur b, const struct mg_wgram *g)
{
    uint64_t *len = malloc(g->nrules * sizeof *len), *wlen = malloc(g->nrules * sizeof *wlen);
    int rc = len && wlen ? 0 : -1;
    for (uint64_t r = 0; rc == 0 && r < g->nrules; r++) {
        uint64_t k, x, total = 0, wtotal = 0;
        if (mg_get_uleb(&b, &k) != 0 || k > mg_left(&b) || (r + 1 < g->nrules && k < 2)) {
            rc = -1;
            break;
        }
        for (uint64_t j = 0; rc == 0 && j < k; j++) {
            uint64_t l, wl;
            if (mg_get_uleb(&b, &x) != 0) {
                rc = -1;
            } else if (!(x & 1)) {
                if ((x >> 1) >= g->nterms)
                    rc = -1;
                l = 1;
                wl = rc == 0 && g->terms[x >> 1].kind ? 2 : 1;
            } else {
                if ((x >> 1) >= r)
                    rc = -1;
                l = rc == 0 ? len[x >> 1] : 0;
                wl = rc == 0 ? wlen[x >> 1] : 0;
            }
            if (rc == 0 && (__builtin_add_overflow(total, l, &total) ||
                            __builtin_add_overflow(wtotal, wl, &wtotal)))
                rc = -1;
        }
        len[r] = total;
        wlen[r] = wtotal;
    }
    if (rc == 0) {
        uint64_t words = wlen[g->nrules - 1] + !!(g->flags & GRAMMAR_HALF);
        if (mg_left(&b) || len[g->nrules - 1] != g->length || words != g->words ||
            ((g->flags & GRAMMAR_HALF) && !g->tail_marker))
            rc = -1;
    }
    free(len);
    free(wlen);
    return rc;
}

static int read_grammar(struct mg_cur *c, const struct in_tables *t, struct mg_wgram *g,
                        uint32_t *tid, struct pprt_merge_error *err)
{
    memset(g, 0, sizeof *g);
    if (mg_left(c) < GRAMMAR_HEAD + 8)
        return mg_fail(err, "a grammar is truncated");
    const unsigned char *head = c->p + c->pos;
    uint64_t tail, body_len;
    mg_get_u32(c, tid);
    mg_get_u32(c, &g->flags);
    mg_get_u64(c, &g->epoch);
    mg_get_u64(c, &g->words);
    mg_get_u64(c, &g->length);
    mg_get_u64(c, &tail);
    mg_get_u64(c, &g->nterms);
    mg_get_u64(c, &g->nrules);
    mg_get_u64(c, &body_len);
    if (body_len > mg_left(c) - 8)
        return mg_fail(err, "thread %u epoch %llu: its body runs past the section", *tid,
                       (unsigned long long)g->epoch);
    if (pprt_fnv1a64(PPRT_FNV64_BASIS, head, GRAMMAR_HEAD + body_len) !=
        pprt_get_u64(c->p + c->pos + body_len))
        return mg_fail(err, "thread %u epoch %llu: checksum mismatch (the grammar is damaged)",
                       *tid, (unsigned long long)g->epoch);
    if (*tid == 0 || (g->flags & ~(uint32_t)(GRAMMAR_ENDED | GRAMMAR_HALF)) ||
        g->nterms > body_len || g->nrules == 0 || g->nrules > body_len)
        return mg_fail(err, "thread %u epoch %llu: bad thread, flags or sizes", *tid,
                       (unsigned long long)g->epoch);
    struct mg_cur b = {c->p, c->pos + body_len, c->pos};
    c->pos += body_len + 8;
    g->terms = malloc((g->nterms ? g->nterms : 1) * sizeof *g->terms);
    if (!g->terms)
        return mg_fail(err, "out of memory");
    for (uint64_t i = 0; i < g->nterms; i++) {
        uint64_t w1, w2;
        if (read_symbol(&b, &w1, &w2) != 0)
            return mg_fail(err, "thread %u epoch %llu: symbol %llu is malformed", *tid,
                           (unsigned long long)g->epoch, (unsigned long long)i);
        neutral(t, w1, w2, &g->terms[i]);
    }
    /* A HALF grammar's tail is a marker's first word, a word of the
     * stream like the others; any other tail is kept as it came. */
    g->tail_marker = (g->flags & GRAMMAR_HALF) && (tail & PATHPROF_EV_MARKER);
    if (g->tail_marker && PATHPROF_MARK_KIND(tail) == 0)
        return mg_fail(err, "thread %u epoch %llu: its tail is a marker of kind 0", *tid,
                       (unsigned long long)g->epoch);
    if (g->tail_marker)
        neutral(t, tail, 0, &g->tail);
    else
        g->tail = (struct mg_wterm){.tu = MG_WPP_VERBATIM, .v = tail};
    if (check_rules(b, g) != 0)
        return mg_fail(err, "thread %u epoch %llu: its rules are damaged (they use a later "
                       "rule or a symbol beyond the table, or do not expand to the %llu "
                       "symbols and %llu words of its header)", *tid,
                       (unsigned long long)g->epoch, (unsigned long long)g->length,
                       (unsigned long long)g->words);
    g->rules_len = mg_left(&b);
    if (!(g->rules = malloc(g->rules_len ? g->rules_len : 1)))
        return mg_fail(err, "out of memory");
    memcpy(g->rules, b.p + b.pos, g->rules_len);
    return 0;
}

static int new_thread(struct mg_wpp *w)
{
    if (mg_grow(&w->threads, &w->cap, w->n + 1, sizeof *w->threads) != 0)
        return -1;
    w->threads[w->n++] = (struct mg_wthread){0};
    return 0;
}

static int add_grammar(struct mg_wthread *th, const struct mg_wgram *g)
{
    struct mg_wgram *v = realloc(th->g, (th->n + 1) * sizeof *v);
    if (!v)
        return -1;
    th->g = v;
    v[th->n++] = *g;
    return 0;
}

/* The input's WPP table, by path base and by function base. */
static int read_table(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                      struct in_tables *t, struct pprt_merge_error *err)
{
    uint64_t n;
    if (mg_get_u64(c, &n) != 0 || n > mg_left(c) / 24)
        return mg_fail(err, "its TU table is truncated");
    t->paths = malloc((n ? n : 1) * sizeof *t->paths);
    t->fns = malloc((n ? n : 1) * sizeof *t->fns);
    if (!t->paths || !t->fns)
        return mg_fail(err, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t tu_base, fn_base;
        uint32_t section, reserved;
        mg_get_u64(c, &tu_base);
        mg_get_u64(c, &fn_base);
        mg_get_u32(c, &section);
        mg_get_u32(c, &reserved);
        if (section == UINT32_MAX)
            continue; /* no metadata: its events are unknown */
        if (section >= ntus)
            return mg_fail(err, "TU %llu names TU section %u of %zu", (unsigned long long)i,
                           section, ntus);
        const struct mg_tu *tu = &m->tus[tumap[section]];
        t->paths[t->n] = (struct in_tu){tu_base, pprt_get_u64(tu->blob + 24), tumap[section]};
        t->fns[t->n++] = (struct in_tu){fn_base, tu->nfuncs, tumap[section]};
    }
    qsort(t->paths, t->n, sizeof *t->paths, by_base);
    qsort(t->fns, t->n, sizeof *t->fns, by_base);
    for (size_t i = 1; i < t->n; i++)
        if (t->paths[i].base - t->paths[i - 1].base < t->paths[i - 1].span ||
            t->fns[i].base - t->fns[i - 1].base < t->fns[i - 1].span)
            return mg_fail(err, "the index ranges of two TUs overlap");
    return 0;
}

int mg_read_wpp(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                struct pprt_merge_error *err)
{
    struct mg_wpp *w = &m->wpp;
    uint32_t version, flags;
    uint64_t max_bytes, ngrammars;
    if (mg_get_u32(c, &version) || mg_get_u32(c, &flags) || mg_get_u64(c, &max_bytes))
        return mg_fail(err, "truncated header");
    if (version != WPP_VERSION || flags != 0)
        return mg_fail(err, "version %u, flags 0x%x: this pathprof merges version %u, flags 0",
                       version, flags, WPP_VERSION);
    if (m->shallow) {
        c->pos = c->len; /* the grammars are checked when the parts are added for good */
        w->present = 1;
        return 0;
    }
    struct in_tables t = {0};
    int rc = read_table(m, c, tumap, ntus, &t, err);
    if (rc == 0 && (mg_get_u64(c, &ngrammars) != 0 || ngrammars > mg_left(c) / GRAMMAR_HEAD))
        rc = mg_fail(err, "truncated before its grammars");
    uint32_t prev_tid = 0, prev_flags = 0;
    uint64_t prev_epoch = 0;
    for (uint64_t i = 0; rc == 0 && i < ngrammars; i++) {
        struct mg_wgram g;
        uint32_t tid;
        if (read_grammar(c, &t, &g, &tid, err) != 0) {
            free_grammar(&g);
            rc = -1;
            break;
        }
        int follows = i && tid == prev_tid;
        if ((i && tid < prev_tid) || g.epoch != (follows ? prev_epoch + 1 : 0) ||
            (follows && (prev_flags & (GRAMMAR_ENDED | GRAMMAR_HALF)))) {
            free_grammar(&g);
            rc = mg_fail(err, "grammar %llu (thread %u epoch %llu) out of order",
                         (unsigned long long)i + 1, tid, (unsigned long long)g.epoch);
            break;
        }
        if ((!follows && new_thread(w) != 0) || add_grammar(&w->threads[w->n - 1], &g) != 0) {
            free_grammar(&g);
            rc = mg_fail(err, "out of memory");
            break;
        }
        prev_tid = tid, prev_flags = g.flags, prev_epoch = g.epoch;
    }
    if (rc == 0 && mg_left(c))
        rc = mg_fail(err, "%zu unexplained bytes at its end", mg_left(c));
    free(t.paths);
    free(t.fns);
    if (rc == 0) {
        w->present = 1;
        if (max_bytes > w->max_bytes)
            w->max_bytes = max_bytes;
    }
    return rc;
}

/* ---- encoding ---- */

/* The merged bases, by accumulator TU. */
struct bases {
    uint64_t *path, *fn;
};

static uint64_t symbol_of(const struct mg_wterm *y, const struct bases *bs, uint64_t *w2,
                          int *marker)
{
    *marker = y->kind != 0;
    *w2 = y->w2;
    if (y->kind == 0) {
        uint64_t index = y->tu == MG_WPP_VERBATIM ? y->v : bs->path[y->tu] + y->v;
        return index << 3 | (y->bits & PATHPROF_EV_RET ? 4 : 0) | (y->bits & PATHPROF_EV_START ? 2 : 0);
    }
    uint64_t payload = y->tu == MG_WPP_VERBATIM ? y->v : bs->fn[y->tu] + y->v;
    return payload << 8 | (uint64_t)y->kind << 1 | 1u;
}

/* A marker terminal's first word. */
static uint64_t marker_word(const struct mg_wterm *y, const struct bases *bs)
{
    uint64_t w2;
    int marker;
    return PATHPROF_MARK(y->kind, symbol_of(y, bs, &w2, &marker) >> 8);
}

/* One grammar record, with thread TID. */
static void encode_grammar(struct pprt_buf *b, const struct mg_wgram *g, uint32_t tid,
                           const struct bases *bs)
{
    size_t at = b->len;
    pprt_buf_u32(b, tid);
    pprt_buf_u32(b, g->flags);
    pprt_buf_u64(b, g->epoch);
    pprt_buf_u64(b, g->words);
    pprt_buf_u64(b, g->length);
    pprt_buf_u64(b, g->tail_marker ? marker_word(&g->tail, bs) : g->tail.v);
    pprt_buf_u64(b, g->nterms);
    pprt_buf_u64(b, g->nrules);
    size_t len_at = b->len;
    pprt_buf_u64(b, 0);
    size_t body = b->len;
    for (uint64_t i = 0; i < g->nterms; i++) {
        uint64_t w2;
        int marker;
        pprt_buf_uleb(b, symbol_of(&g->terms[i], bs, &w2, &marker));
        if (marker)
            pprt_buf_uleb(b, w2);
    }
    pprt_buf_put(b, g->rules, g->rules_len);
    if (b->failed)
        return;
    pprt_buf_patch_u64(b, len_at, b->len - body);
    pprt_buf_u64(b, pprt_fnv1a64(PPRT_FNV64_BASIS, b->data + at, b->len - at));
}

/* A thread's grammars encoded with thread 0: its sort key. */
struct keyed {
    struct pprt_buf bytes;
    size_t thread;
};

static int by_bytes(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    size_t n = a->bytes.len < b->bytes.len ? a->bytes.len : b->bytes.len;
    int c = memcmp(a->bytes.data, b->bytes.data, n);
    if (c)
        return c;
    return a->bytes.len < b->bytes.len ? -1 : a->bytes.len > b->bytes.len;
}

int mg_encode_wpp(const struct pprt_merge *m, const size_t *sorted, struct pprt_buf *b,
                  uint32_t *nsections)
{
    const struct mg_wpp *w = &m->wpp;
    struct bases bs = {malloc((m->ntus + 1) * 8), malloc((m->ntus + 1) * 8)};
    struct keyed *k = calloc(w->n + 1, sizeof *k);
    int rc = bs.path && bs.fn && k ? 0 : -1;
    /* As the runtime gives them: from 1, in section order, back to back. */
    uint64_t next_path = 1, next_fn = 1;
    for (size_t r = 0; rc == 0 && r < m->ntus; r++) {
        const struct mg_tu *tu = &m->tus[sorted[r]];
        bs.path[sorted[r]] = next_path;
        bs.fn[sorted[r]] = next_fn;
        next_path += pprt_get_u64(tu->blob + 24);
        next_fn += tu->nfuncs;
    }
    for (size_t i = 0; rc == 0 && i < w->n; i++) {
        k[i].thread = i;
        for (size_t e = 0; e < w->threads[i].n; e++)
            encode_grammar(&k[i].bytes, &w->threads[i].g[e], 0, &bs);
        if (k[i].bytes.failed)
            rc = -1;
    }
    if (rc == 0) {
        qsort(k, w->n, sizeof *k, by_bytes);
        pprt_buf_u32(b, PATHPROF_SECTION_WPP);
        pprt_buf_u32(b, 0);
        size_t len_at = b->len;
        pprt_buf_u64(b, 0);
        size_t body = b->len;
        pprt_buf_u32(b, WPP_VERSION);
        pprt_buf_u32(b, 0);
        pprt_buf_u64(b, w->max_bytes);
        pprt_buf_u64(b, m->ntus);
        for (size_t r = 0; r < m->ntus; r++) {
            pprt_buf_u64(b, bs.path[sorted[r]]);
            pprt_buf_u64(b, bs.fn[sorted[r]]);
            pprt_buf_u32(b, (uint32_t)r);
            pprt_buf_u32(b, 0);
        }
        uint64_t ngrammars = 0;
        for (size_t i = 0; i < w->n; i++)
            ngrammars += w->threads[i].n;
        pprt_buf_u64(b, ngrammars);
        for (size_t i = 0; i < w->n; i++) {
            const struct mg_wthread *th = &w->threads[k[i].thread];
            for (size_t e = 0; e < th->n; e++)
                encode_grammar(b, &th->g[e], (uint32_t)(i + 1), &bs);
        }
        if (!b->failed)
            pprt_buf_patch_u64(b, len_at, b->len - body);
        ++*nsections;
        if (w->n > UINT32_MAX - 1)
            rc = -1;
    }
    for (size_t i = 0; k && i < w->n; i++)
        pprt_buf_free(&k[i].bytes);
    free(k);
    free(bs.path);
    free(bs.fn);
    return rc;
}

void mg_free_wpp(struct mg_wpp *w)
{
    for (size_t i = 0; i < w->n; i++) {
        for (size_t e = 0; e < w->threads[i].n; e++)
            free_grammar(&w->threads[i].g[e]);
        free(w->threads[i].g);
    }
    free(w->threads);
}
