/* kipf_paths.c - collecting and ordering k-iteration paths (kipf_paths.h). */
#include "kipf_paths.h"

#include <stdlib.h>

#include "base/largest.h"
#include "read/path_memo.h"

/* blocks[i]: blocks of node i's BL path plus its ancestors'. Nodes come
 * in preorder, so a parent's sum is known before its children's. */
static bool sum_blocks(const struct pp_profile *p, const struct pp_kipf *k, uint64_t *blocks,
                       struct pp_error *err)
{
    struct path_memo *memo = path_memo_new(p);
    bool ok = true;

    if (!memo)
        return pp_fail(err, "out of memory");
    for (size_t i = 0; i < k->nnodes && ok; i++) {
        const struct kipf_node *n = &k->nodes[i];
        const struct pp_func_meta *m = p->funcs[n->func].meta;
        uint32_t nblocks;
        ok = path_memo_nblocks(memo, m, n->id, &nblocks, err) ||
             pp_context(err, "function %s", m->name);
        if (ok)
            blocks[i] = nblocks + (n->parent == KIPF_NONE ? 0 : blocks[n->parent]);
    }
    path_memo_free(memo);
    return ok;
}

/* Whether node I is one O selects. */
static bool selected(const struct kipf_options *o, const struct kipf_node *nd)
{
    return !(o->selected && !o->selected[nd->func]) && nd->count >= o->min_count &&
           nd->depth + 1 >= o->min_length;
}

/* With a --top N of millions of sequences, only those that can rank in
 * the first N by count or by count x length are kept: every one whose
 * count (weight) is at least the N-th largest, ties included, so the
 * ranking of what is kept is the full ranking's first N (a k = 16 forest
 * of 50 M nodes held 2 GB of struct kpath for twenty lines of report).
 * *TC and *TW: 0 when everything is kept. */
static bool thresholds(const struct pp_kipf *k, const struct kipf_options *o,
                       const uint64_t *blocks, size_t *total, uint64_t *tc, uint64_t *tw)
{
    size_t i, n = 0;
    *tc = *tw = 0;
    for (i = 0; i < k->nnodes; i++)
        n += selected(o, &k->nodes[i]);
    /* A forest read for this ranking (kipf.h) knows the whole one's. */
    *total = k->kept_only ? (size_t)k->kept_total : n;
    if (o->top == 0 || o->top >= n / 2)
        return true;
    struct largest c = {malloc(o->top * sizeof *c.h), 0, o->top};
    struct largest w = {malloc(o->top * sizeof *w.h), 0, o->top};
    bool ok = c.h && w.h;
    for (i = 0; ok && i < k->nnodes; i++) {
        const struct kipf_node *nd = &k->nodes[i];
        if (!selected(o, nd))
            continue;
        largest_add(&c, nd->count);
        largest_add(&w, kipf_weight(nd->count, blocks[i]));
    }
    if (ok) {
        *tc = c.h[0];
        *tw = w.h[0];
    }
    free(c.h);
    free(w.h);
    return ok;
}

bool kpaths_collect(const struct pp_profile *p, const struct kipf_options *o,
                    struct kpath **out, size_t *n, size_t *total, struct pp_error *err)
{
    const struct pp_kipf *k = p->kipf;
    uint64_t *blocks = malloc((k->nnodes ? k->nnodes : 1) * sizeof *blocks), tc, tw;
    struct kpath *paths = NULL;
    size_t i, m = 0;

    if (!blocks)
        return pp_fail(err, "out of memory");
    if (!sum_blocks(p, k, blocks, err)) {
        free(blocks);
        return false;
    }
    if (!thresholds(k, o, blocks, total, &tc, &tw) ||
        !(paths = malloc((*total ? *total : 1) * sizeof *paths))) {
        free(blocks);
        return pp_fail(err, "out of memory");
    }
    for (i = 0; i < k->nnodes; i++) {
        const struct kipf_node *nd = &k->nodes[i];
        struct kpath *kp = &paths[m];
        if (!selected(o, nd))
            continue;
        kp->weight = kipf_weight(nd->count, blocks[i]);
        if (nd->count < tc && kp->weight < tw)
            continue;
        kp->node = i;
        kp->length = nd->depth + 1;
        kp->blocks = blocks[i];
        kp->count = nd->count;
        m++;
    }
    free(blocks);
    *out = paths;
    *n = m;
    return true;
}

static int by_count(const void *pa, const void *pb)
{
    const struct kpath *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

static int by_weight(const void *pa, const void *pb)
{
    const struct kpath *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

typedef int (*kpath_cmp)(const void *, const void *);

static void swap(struct kpath *a, struct kpath *b)
{
    struct kpath t = *a;
    *a = *b;
    *b = t;
}

/* h[0..n) is a heap whose root is the path that ranks LAST under CMP. */
static void sift_down(struct kpath *h, size_t n, size_t i, kpath_cmp cmp)
{
    for (;;) {
        size_t l = 2 * i + 1, worst = i;
        if (l < n && cmp(&h[l], &h[worst]) > 0)
            worst = l;
        if (l + 1 < n && cmp(&h[l + 1], &h[worst]) > 0)
            worst = l + 1;
        if (worst == i)
            return;
        swap(&h[i], &h[worst]);
        i = worst;
    }
}

/* The TOP first paths under CMP, sorted, at the front; the rest after them
 * in no order.  A report lists tens of paths out of millions (a k = 16
 * forest has 17 M nodes): a heap of TOP keeps that O(n log TOP) instead of
 * sorting them all.  Every comparison ends on the node index, so the
 * result is the one a full sort gives. */
static void rank_top(struct kpath *paths, size_t n, uint64_t top, kpath_cmp cmp)
{
    if (top == 0 || top >= n / 2) {
        qsort(paths, n, sizeof *paths, cmp);
        return;
    }
    size_t m = (size_t)top;
    for (size_t i = m / 2; i-- > 0;)
        sift_down(paths, m, i, cmp);
    for (size_t i = m; i < n; i++)
        if (cmp(&paths[i], &paths[0]) < 0) {
            swap(&paths[i], &paths[0]);
            sift_down(paths, m, 0, cmp);
        }
    qsort(paths, m, sizeof *paths, cmp);
}

void kpaths_by_count(struct kpath *paths, size_t n, uint64_t top)
{
    rank_top(paths, n, top, by_count);
}

void kpaths_by_weight(struct kpath *paths, size_t n, uint64_t top)
{
    rank_top(paths, n, top, by_weight);
}

uint32_t kpath_nodes(const struct pp_kipf *k, size_t node, size_t *out)
{
    uint32_t len = k->nodes[node].depth + 1, i = len;
    while (i > 0) {
        out[--i] = node;
        node = k->nodes[node].parent;
    }
    return len;
}
