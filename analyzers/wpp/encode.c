/* encode.c - a finished grammar into its record (see encode.h). */
#include "encode.h"
#include "pathprof-abi.h"

#include <stdlib.h>

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The rules' numbers, LEB128 into a local block put into OUT when full:
 * one call into the buffer per 4 KB, not one per grammar symbol. */
struct batch {
    struct pprt_buf *out;
    size_t n;
    unsigned char b[4096];
};

static void batch_flush(struct batch *k)
{
    pprt_buf_put(k->out, k->b, k->n);
    k->n = 0;
}

static inline void batch_uleb(struct batch *k, uint64_t v)
{
    if (k->n > sizeof k->b - 10)
        batch_flush(k);
    while (v >= 0x80) {
        k->b[k->n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    k->b[k->n++] = (unsigned char)v;
}

/* Symbol table entry: a path event is (g << 3 | RET << 2 | START << 1),
 * a marker (payload << 8 | kind << 1 | 1) then its frame word; small
 * path indices take few bytes whatever the START and RET bits. */
static void put_symbol(struct pprt_buf *b, const struct wpp_sym *y)
{
    uint64_t w = y->w1;
    if (!(w & PATHPROF_EV_MARKER)) {
        pprt_buf_uleb(b, (w & PATHPROF_EV_INDEX_MASK) << 3 | !!(w & PATHPROF_EV_RET) << 2 |
                             !!(w & PATHPROF_EV_START) << 1);
        return;
    }
    pprt_buf_uleb(b, (uint64_t)PATHPROF_MARK_PAYLOAD(w) << 8 |
                         (uint64_t)PATHPROF_MARK_KIND(w) << 1 | 1u);
    pprt_buf_uleb(b, y->w2);
}

/* Rules in postorder from the start rule: NEWID[r] for each live rule,
 * ORDER[i] the rule numbered i.  An explicit stack: rules nest deeply. */
static uint32_t number_rules(const struct sequitur *s, uint32_t *newid, uint32_t *order,
                             uint32_t *stack_rule, uint32_t *stack_node)
{
    const uint32_t unseen = UINT32_MAX, open = UINT32_MAX - 1;
    uint32_t n = 0, depth = 0;
    for (uint32_t r = 0; r < s->nrules_made; r++)
        newid[r] = unseen;
    stack_rule[depth] = 0;
    stack_node[depth++] = sq_first(s, 0);
    newid[0] = open;
    while (depth) {
        uint32_t x = stack_node[depth - 1], v = s->n[x].val;
        if (SQ_IS_GUARD(v)) {
            uint32_t r = stack_rule[--depth];
            newid[r] = n;
            order[n++] = r;
            continue;
        }
        stack_node[depth - 1] = s->n[x].next;
        if (SQ_IS_USE(v) && newid[SQ_ID(v)] == unseen) {
            newid[SQ_ID(v)] = open;
            stack_rule[depth] = SQ_ID(v);
            stack_node[depth++] = sq_first(s, SQ_ID(v));
        }
    }
    return n;
}

int wpp_encode(const struct sequitur *s, const struct wpp_symbols *syms,
               const struct wpp_grammar_head *h, struct pprt_buf *out)
{
    size_t nr = s->nrules_made ? s->nrules_made : 1;
    uint32_t *newid = malloc(nr * sizeof *newid), *order = malloc(nr * sizeof *order);
    uint32_t *sr = malloc(nr * sizeof *sr), *sn = malloc(nr * sizeof *sn);
    if (!newid || !order || !sr || !sn) {
        free(newid), free(order), free(sr), free(sn);
        out->failed = 1;
        return -1;
    }
    uint32_t nrules = number_rules(s, newid, order, sr, sn);
    size_t at = out->len;
    pprt_buf_u32(out, h->tid);
    pprt_buf_u32(out, h->flags);
    pprt_buf_u64(out, h->epoch);
    pprt_buf_u64(out, h->words);
    pprt_buf_u64(out, s->length);
    pprt_buf_u64(out, h->tail);
    pprt_buf_u64(out, syms->n);
    pprt_buf_u64(out, nrules);
    size_t len_at = out->len;
    pprt_buf_u64(out, 0);
    size_t body = out->len;
    for (uint32_t i = 0; i < syms->n; i++)
        put_symbol(out, &syms->by_id[i]);
    struct batch k;
    k.out = out;
    k.n = 0;
    for (uint32_t i = 0; i < nrules; i++) {
        uint32_t g = s->r[order[i]].guard, len = 0;
        for (uint32_t x = s->n[g].next; x != g; x = s->n[x].next)
            len++;
        batch_uleb(&k, len);
        for (uint32_t x = s->n[g].next; x != g; x = s->n[x].next) {
            uint32_t v = s->n[x].val;
            batch_uleb(&k, SQ_IS_TERM(v) ? (uint64_t)SQ_ID(v) << 1
                                         : (uint64_t)newid[SQ_ID(v)] << 1 | 1u);
        }
    }
    batch_flush(&k);
    free(newid), free(order), free(sr), free(sn);
    if (out->failed)
        return -1;
    pprt_buf_patch_u64(out, len_at, out->len - body);
    pprt_buf_u64(out, fnv1a64(out->data + at, out->len - at));
    return out->failed ? -1 : 0;
}
