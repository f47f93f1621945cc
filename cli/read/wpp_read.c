/* wpp_read.c - reading and checking the WPP section (see wpp.h). */
#include "wpp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "pathprof-abi.h"

#define WPP_VERSION 1u
#define GRAMMAR_HEAD 64u

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool read_term(struct pp_cursor *c, struct wpp_term *t, struct pp_error *err)
{
    uint64_t v;
    if (!pp_get_uleb(c, &v))
        return pp_fail(err, "truncated or malformed number in the symbol table");
    if (!(v & 1)) {
        if ((v >> 3) > PATHPROF_EV_INDEX_MASK)
            return pp_fail(err, "path index %" PRIu64 " beyond 2^61", v >> 3);
        t->marker = false;
        t->w1 = (v >> 3) | ((v >> 2) & 1 ? PATHPROF_EV_RET : 0) |
                ((v >> 1) & 1 ? PATHPROF_EV_START : 0);
        t->w2 = 0;
        return true;
    }
    if ((v >> 8) >= (1ull << 56))
        return pp_fail(err, "marker payload beyond 56 bits");
    t->marker = true;
    t->w1 = PATHPROF_EV_MARKER | ((v >> 1) & 0x7f) << 56 | (v >> 8);
    if (!pp_get_uleb(c, &t->w2))
        return pp_fail(err, "truncated marker in the symbol table");
    return true;
}

static bool read_grammar(struct pp_cursor *c, struct wpp_grammar *g, struct pp_error *err)
{
    const unsigned char *start = c->base + c->pos, *body;
    uint64_t body_len, sum;
    if (pp_cursor_left(c) < GRAMMAR_HEAD)
        return pp_fail(err, "truncated grammar header (%zu bytes left)", pp_cursor_left(c));
    g->tid = pp_take_u32(c);
    g->flags = pp_take_u32(c);
    g->epoch = pp_take_u64(c);
    g->words = pp_take_u64(c);
    g->length = pp_take_u64(c);
    g->tail = pp_take_u64(c);
    g->nterms = pp_take_u64(c);
    g->nrules = pp_take_u64(c);
    body_len = pp_take_u64(c);
    if (!pp_get_bytes(c, body_len, &body) || !pp_get_u64(c, &sum))
        return pp_fail(err, "thread %" PRIu32 " epoch %" PRIu64 ": truncated (body of %" PRIu64
                            " bytes and checksum, %zu bytes left)", g->tid, g->epoch, body_len,
                       pp_cursor_left(c));
    g->record_bytes = GRAMMAR_HEAD + body_len + 8;
    if (fnv1a64(start, GRAMMAR_HEAD + body_len) != sum)
        return pp_fail(err, "thread %" PRIu32 " epoch %" PRIu64 ": checksum mismatch "
                            "(the grammar is damaged)", g->tid, g->epoch);
    if (g->flags & ~(uint32_t)(WPP_GRAMMAR_ENDED | WPP_GRAMMAR_HALF))
        return pp_fail(err, "thread %" PRIu32 ": unknown flags 0x%" PRIx32, g->tid, g->flags);
    if (g->tid == 0)
        return pp_fail(err, "thread 0 (threads are numbered from 1)");
    /* Every terminal and rule takes at least one byte. */
    if (g->nterms > body_len || g->nrules == 0 || g->nrules > body_len)
        return pp_fail(err, "thread %" PRIu32 " epoch %" PRIu64 ": %" PRIu64 " symbols and %"
                            PRIu64 " rules cannot fit in %" PRIu64 " bytes",
                       g->tid, g->epoch, g->nterms, g->nrules, body_len);
    struct pp_cursor b = pp_cursor_at(body, (size_t)body_len, 0);
    g->terms = calloc(g->nterms ? g->nterms : 1, sizeof *g->terms);
    g->first = calloc(g->nrules + 1, sizeof *g->first);
    g->len = calloc(g->nrules, sizeof *g->len);
    uint64_t *wlen = calloc(g->nrules, sizeof *wlen);
    size_t cap = 64, n = 0;
    g->rhs = malloc(cap * sizeof *g->rhs);
    bool ok = g->terms && g->first && g->len && wlen && g->rhs;
    if (!ok)
        pp_fail(err, "out of memory");
    for (uint64_t i = 0; ok && i < g->nterms; i++)
        ok = read_term(&b, &g->terms[i], err);
    for (uint64_t r = 0; ok && r < g->nrules; r++) {
        uint64_t k, x, total = 0, wtotal = 0;
        g->first[r] = n;
        if (!pp_get_uleb(&b, &k) || k > pp_cursor_left(&b)) {
            ok = pp_fail(err, "rule %" PRIu64 ": bad length", r);
            break;
        }
        if (r + 1 < g->nrules && k < 2) {
            ok = pp_fail(err, "rule %" PRIu64 " has %" PRIu64 " symbols (a rule has two or "
                              "more)", r, k);
            break;
        }
        for (uint64_t j = 0; ok && j < k; j++) {
            if (!pp_get_uleb(&b, &x)) {
                ok = pp_fail(err, "rule %" PRIu64 ": truncated", r);
                break;
            }
            uint64_t l, wl;
            if (!(x & 1)) {
                if ((x >> 1) >= g->nterms) {
                    ok = pp_fail(err, "rule %" PRIu64 " names symbol %" PRIu64 " of %" PRIu64,
                                 r, x >> 1, g->nterms);
                    break;
                }
                l = 1;
                wl = g->terms[x >> 1].marker ? 2 : 1;
            } else {
                if ((x >> 1) >= r) {
                    ok = pp_fail(err, "rule %" PRIu64 " uses rule %" PRIu64 ", not an earlier "
                                      "one", r, x >> 1);
                    break;
                }
                l = g->len[x >> 1];
                wl = wlen[x >> 1];
            }
            if (__builtin_add_overflow(total, l, &total) ||
                __builtin_add_overflow(wtotal, wl, &wtotal)) {
                ok = pp_fail(err, "rule %" PRIu64 " expands beyond 2^64 symbols", r);
                break;
            }
            if (n == cap) {
                uint64_t *v = realloc(g->rhs, (cap *= 2) * sizeof *v);
                if (!v) {
                    ok = pp_fail(err, "out of memory");
                    break;
                }
                g->rhs = v;
            }
            g->rhs[n++] = x;
        }
        g->len[r] = total;
        wlen[r] = wtotal;
    }
    if (ok) {
        g->first[g->nrules] = n;
        uint64_t words = wlen[g->nrules - 1] + !!(g->flags & WPP_GRAMMAR_HALF);
        if (pp_cursor_left(&b) != 0)
            ok = pp_fail(err, "%zu unexplained bytes after the rules", pp_cursor_left(&b));
        else if (g->len[g->nrules - 1] != g->length || words != g->words)
            ok = pp_fail(err, "the grammar expands to %" PRIu64 " symbols and %" PRIu64
                              " words, its header says %" PRIu64 " and %" PRIu64,
                         g->len[g->nrules - 1], words, g->length, g->words);
        else if ((g->flags & WPP_GRAMMAR_HALF) && !(g->tail & PATHPROF_EV_MARKER))
            ok = pp_fail(err, "its last word is not a marker's first word");
    }
    free(wlen);
    if (!ok)
        pp_context(err, "thread %" PRIu32 " epoch %" PRIu64, g->tid, g->epoch);
    return ok;
}

static void grammar_free(struct wpp_grammar *g)
{
    free(g->terms);
    free(g->first);
    free(g->rhs);
    free(g->len);
}

bool wpp_read(const unsigned char *body, size_t len, size_t ntu_sections,
              struct wpp_data *w, struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(body, len, 0);
    uint32_t version, flags;
    uint64_t ntus, ngrammars;

    memset(w, 0, sizeof *w);
    w->section_bytes = len;
    if (!pp_get_u32(&c, &version) || !pp_get_u32(&c, &flags) || !pp_get_u64(&c, &w->max_bytes) ||
        !pp_get_u64(&c, &ntus))
        return pp_fail(err, "truncated header");
    if (version != WPP_VERSION)
        return pp_fail(err, "version %" PRIu32 ", this pathprof reads version %u", version,
                       WPP_VERSION);
    if (flags != 0)
        return pp_fail(err, "unknown flags 0x%" PRIx32, flags);
    if (ntus > pp_cursor_left(&c) / 24)
        return pp_fail(err, "%" PRIu64 " TUs cannot fit in %zu bytes", ntus, pp_cursor_left(&c));
    w->tus = calloc(ntus ? ntus : 1, sizeof *w->tus);
    if (!w->tus)
        return pp_fail(err, "out of memory");
    w->ntus = ntus;
    for (uint64_t i = 0; i < ntus; i++) {
        w->tus[i].tu_base = pp_take_u64(&c);
        w->tus[i].fn_base = pp_take_u64(&c);
        w->tus[i].section = pp_take_u32(&c);
        pp_take_u32(&c);
        uint32_t section = w->tus[i].section;
        if (section != UINT32_MAX && section >= ntu_sections) {
            wpp_free(w); /* frees w->tus: the message takes the copy */
            return pp_fail(err, "TU %" PRIu64 " names TU section %" PRIu32 " of %zu", i,
                           section, ntu_sections);
        }
    }
    if (!pp_get_u64(&c, &ngrammars) || ngrammars > pp_cursor_left(&c) / GRAMMAR_HEAD) {
        wpp_free(w);
        return pp_fail(err, "truncated before its grammars");
    }
    w->g = calloc(ngrammars ? ngrammars : 1, sizeof *w->g);
    if (!w->g) {
        wpp_free(w);
        return pp_fail(err, "out of memory");
    }
    for (uint64_t i = 0; i < ngrammars; i++) {
        struct wpp_grammar *g = &w->g[w->ngrammars++];
        if (!read_grammar(&c, g, err)) {
            wpp_free(w);
            return pp_context(err, "grammar %" PRIu64 " of %" PRIu64, i + 1, ngrammars);
        }
        const struct wpp_grammar *p = i ? &w->g[i - 1] : NULL;
        bool follows = p && p->tid == g->tid;
        if ((p && p->tid > g->tid) || g->epoch != (follows ? p->epoch + 1 : 0) ||
            (follows && (p->flags & (WPP_GRAMMAR_ENDED | WPP_GRAMMAR_HALF)))) {
            wpp_free(w);
            return pp_fail(err, "grammar %" PRIu64 " (thread %" PRIu32 " epoch %" PRIu64
                                ") out of order: grammars go by thread, then epoch from 0, "
                                "and only a thread's last one may end its stream",
                           i + 1, g->tid, g->epoch);
        }
    }
    if (pp_cursor_left(&c) != 0) {
        wpp_free(w);
        return pp_fail(err, "%zu unexplained bytes at its end", pp_cursor_left(&c));
    }
    return true;
}

void wpp_free(struct wpp_data *w)
{
    for (size_t i = 0; i < w->ngrammars; i++)
        grammar_free(&w->g[i]);
    free(w->g);
    free(w->tus);
    memset(w, 0, sizeof *w);
}

bool wpp_walk_init(struct wpp_walk *k, const struct wpp_grammar *g)
{
    k->g = g;
    k->cap = 64;
    k->depth = 0;
    k->rule = malloc(k->cap * sizeof *k->rule);
    k->pos = malloc(k->cap * sizeof *k->pos);
    if (!k->rule || !k->pos) {
        wpp_walk_free(k);
        return false;
    }
    k->rule[0] = g->nrules - 1;
    k->pos[0] = g->first[g->nrules - 1];
    k->depth = 1;
    return true;
}

bool wpp_walk_next(struct wpp_walk *k, uint64_t *term)
{
    const struct wpp_grammar *g = k->g;
    while (k->depth) {
        size_t d = k->depth - 1;
        if (k->pos[d] == g->first[k->rule[d] + 1]) {
            k->depth--;
            continue;
        }
        uint64_t x = g->rhs[k->pos[d]++];
        if (!(x & 1)) {
            *term = x >> 1;
            return true;
        }
        if (k->depth == k->cap) {
            size_t cap = k->cap * 2;
            uint64_t *r = realloc(k->rule, cap * sizeof *r);
            if (r)
                k->rule = r;
            uint64_t *p = realloc(k->pos, cap * sizeof *p);
            if (p)
                k->pos = p;
            if (!r || !p)
                return false; /* rules nest at most nrules deep: memory */
            k->cap = cap;
        }
        k->rule[k->depth] = x >> 1;
        k->pos[k->depth] = g->first[x >> 1];
        k->depth++;
    }
    return false;
}

void wpp_walk_free(struct wpp_walk *k)
{
    free(k->rule);
    free(k->pos);
    k->rule = k->pos = NULL;
    k->depth = 0;
}

bool wpp_trace_view(const struct wpp_data *w, const struct pp_tu_meta *tus, size_t ntus,
                    struct trace *t, struct pp_error *err)
{
    memset(t, 0, sizeof *t);
    t->tus = calloc(w->ntus ? w->ntus : 1, sizeof *t->tus);
    if (!t->tus)
        return pp_fail(err, "out of memory");
    for (size_t i = 0; i < w->ntus; i++) {
        if (w->tus[i].section == UINT32_MAX || w->tus[i].section >= ntus)
            continue;
        struct trace_tu *tu = &t->tus[t->ntus++];
        tu->tu_id = i;
        tu->tu_base = w->tus[i].tu_base;
        tu->fn_base = w->tus[i].fn_base;
        tu->meta = tus[w->tus[i].section]; /* borrowed */
    }
    if (!trace_index(t, err)) {
        wpp_trace_view_free(t);
        return false;
    }
    return true;
}

void wpp_trace_view_free(struct trace *t)
{
    free(t->tus);
    free(t->ranges);
    free(t->by_fn_base);
    memset(t, 0, sizeof *t);
}
