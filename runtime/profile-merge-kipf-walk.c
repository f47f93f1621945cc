/* profile-merge-kipf-walk.c - the merge walk of the accumulated (packed)
 * k-IPF and an input's decoded one, and the packed forest written out
 * (see profile-merge-kipf.h; why a walk: profile-merge-kipf.c). */
#include "profile-merge-kipf.h"

#include <stdlib.h>
#include <string.h>

/* A node's place among its siblings: its TU's canonical rank, then
 * function and path ID. */
struct key {
    uint32_t rank, func;
    uint64_t path_id;
};

static int key_cmp(const struct key *x, const struct key *y)
{
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    return x->path_id < y->path_id ? -1 : x->path_id > y->path_id;
}

/* An input sibling: its key, its index in the input, and which parent
 * it came from (at depth 0, its TU section). */
struct in_label {
    struct key key;
    size_t at, from;
};

/* Equal keys by parent: two from one parent sit side by side. */
static int by_in_label(const void *x, const void *y)
{
    const struct in_label *a = x, *b = y;
    int c = key_cmp(&a->key, &b->key);
    return c ? c : a->from < b->from ? -1 : a->from > b->from;
}

/* A sibling of the packed forest: its key and fields, where its bytes
 * are (its first, its first child's, the one after its subtree), and
 * what its subtree holds (depths from its own). */
struct packed_node {
    struct key key;
    uint32_t tu;
    uint64_t count;
    uint32_t nchildren;
    size_t at, children, end;
    uint64_t nodes, leaves, depth_sum;
};

struct walk {
    const uint32_t *rank;
    const unsigned char *a;              /* the accumulated packed forest */
    const struct mg_kroot *a_roots;      /* its roots */
    struct mg_kroot *roots;              /* the output's */
    size_t roots_cap, nroots;
    const struct mg_in_forest *b;
    struct pprt_buf out;
    uint64_t n, leaves, depth_sum;       /* of the output */
    /* By depth: the siblings being merged there, packed and input. */
    struct packed_node *ag[MG_MAX_K + 1];
    size_t ag_cap[MG_MAX_K + 1], na[MG_MAX_K + 1];
    struct in_label *bg[MG_MAX_K + 1];
    size_t bg_cap[MG_MAX_K + 1], nb[MG_MAX_K + 1];
    struct pprt_merge_error *err;
};

/* The packed node at AT, root number ROOT (its TU and function first;
 * its extent from the roots' table) or, ROOT < 0, a child of TU, FUNC
 * (its subtree skipped to find its end). */
static void packed_node_at(const struct walk *w, size_t at, int64_t root, uint32_t tu,
                           uint32_t func, struct packed_node *pn)
{
    const unsigned char *p = w->a + at;
    if (root >= 0) {
        tu = (uint32_t)mg_packed_uleb(&p);
        func = (uint32_t)mg_packed_uleb(&p);
    }
    pn->tu = tu;
    pn->key = (struct key){w->rank[tu], func, mg_packed_uleb(&p)};
    pn->count = mg_packed_uleb(&p);
    pn->nchildren = (uint32_t)mg_packed_uleb(&p);
    pn->at = at;
    pn->children = (size_t)(p - w->a);
    if (root >= 0) {
        const struct mg_kroot *r = &w->a_roots[root];
        pn->end = r->end;
        pn->nodes = r->nodes, pn->leaves = r->leaves, pn->depth_sum = r->depth_sum;
        return;
    }
    uint64_t nodes = 1, leaves = pn->nchildren == 0, depth_sum = 0;
    uint64_t owed[MG_MAX_K + 1];
    int d = 0;
    owed[0] = pn->nchildren;
    while (d >= 0) {
        if (owed[d] == 0) {
            d--;
            continue;
        }
        owed[d]--;
        (void)mg_packed_uleb(&p);
        (void)mg_packed_uleb(&p);
        uint64_t nc = mg_packed_uleb(&p);
        nodes++;
        if (nc)
            owed[++d] = nc;
        else
            leaves++, depth_sum += (uint64_t)d + 1;
    }
    pn->end = (size_t)(p - w->a);
    pn->nodes = nodes, pn->leaves = leaves, pn->depth_sum = depth_sum;
}

/* Gathers, at depth D, the NA packed siblings from byte A_AT (children of
 * TU, FUNC when D > 0) and the children of the NP input nodes PARENTS
 * (the input's roots at depth 0), each list sorted; returns how many
 * distinct keys the two have, or -1. */
static int64_t prepare(struct walk *w, unsigned d, size_t a_at, uint64_t na, uint32_t tu,
                       uint32_t func, const struct in_label *parents, size_t np)
{
    if (mg_grow(&w->ag[d], &w->ag_cap[d], (size_t)na, sizeof *w->ag[d]) != 0)
        return mg_fail(w->err, "out of memory");
    for (uint64_t i = 0; i < na; i++) {
        packed_node_at(w, a_at, d == 0 ? (int64_t)i : -1, tu, func, &w->ag[d][i]);
        a_at = w->ag[d][i].end;
    }
    w->na[d] = (size_t)na;
    size_t total = 0;
    for (size_t p = 0; p < np; p++)
        total += d == 0 ? (size_t)w->b->nroots : w->b->nodes[parents[p].at].nchildren;
    if (mg_grow(&w->bg[d], &w->bg_cap[d], total, sizeof *w->bg[d]) != 0)
        return mg_fail(w->err, "out of memory");
    struct in_label *g = w->bg[d];
    int sorted = np == 1;
    size_t i = 0;
    for (size_t p = 0; p < np; p++) {
        size_t at = d == 0 ? 0 : parents[p].at + 1;
        size_t nc = d == 0 ? (size_t)w->b->nroots : w->b->nodes[parents[p].at].nchildren;
        for (size_t c = 0; c < nc; c++, i++, at += w->b->size[at]) {
            const struct mg_knode *n = &w->b->nodes[at];
            g[i] = (struct in_label){{w->rank[n->tu], n->func, n->path_id}, at,
                                     d == 0 ? n->section : p};
            if (i && key_cmp(&g[i - 1].key, &g[i].key) >= 0)
                sorted = 0;
        }
    }
    if (!sorted)
        qsort(g, total, sizeof *g, by_in_label);
    w->nb[d] = total;
    /* Distinct keys of the union; equal input keys of one parent are damage. */
    int64_t distinct = 0;
    size_t ja = 0, jb = 0;
    while (ja < w->na[d] || jb < total) {
        int c = jb == total ? -1 : ja == w->na[d] ? 1 : key_cmp(&w->ag[d][ja].key, &g[jb].key);
        if (c <= 0)
            ja++;
        if (c >= 0) {
            size_t je = jb + 1;
            for (; je < total && key_cmp(&g[jb].key, &g[je].key) == 0; je++)
                if (g[je].from == g[je - 1].from) {
                    const struct mg_knode *n = &w->b->nodes[g[je].at];
                    return mg_fail(w->err, "nodes %zu and %zu: siblings with one label "
                                   "(function %u, path %llu)", g[je - 1].at, g[je].at, n->func,
                                   (unsigned long long)n->path_id);
                }
            jb = je;
        }
        distinct++;
    }
    return distinct;
}

static void put_header(struct walk *w, unsigned d, uint32_t tu, uint32_t func, uint64_t id,
                       uint64_t count, uint64_t nchildren)
{
    if (d == 0) {
        pprt_buf_uleb(&w->out, tu);
        pprt_buf_uleb(&w->out, func);
    }
    pprt_buf_uleb(&w->out, id);
    pprt_buf_uleb(&w->out, count);
    pprt_buf_uleb(&w->out, nchildren);
    w->n++;
    if (!nchildren)
        w->leaves++, w->depth_sum += d;
}

/* A root of the output written: its entry in the roots' table. */
static void note_root(struct walk *w, const struct mg_kroot *before)
{
    w->roots[w->nroots++] = (struct mg_kroot){w->out.len, w->n - before->nodes,
                                              w->leaves - before->leaves,
                                              w->depth_sum - before->depth_sum};
}

/* Writes the union of the siblings prepare() gathered at depth D. */
static int emit(struct walk *w, unsigned d)
{
    size_t na = w->na[d], nb = w->nb[d];
    for (size_t ja = 0, jb = 0; ja < na || jb < nb;) {
        const struct packed_node *an = ja < na ? &w->ag[d][ja] : NULL;
        const struct in_label *g = w->bg[d];
        int c = jb == nb ? -1 : ja == na ? 1 : key_cmp(&an->key, &g[jb].key);
        struct mg_kroot before = {w->out.len, w->n, w->leaves, w->depth_sum};
        if (d == 0 && mg_grow(&w->roots, &w->roots_cap, w->nroots + 1, sizeof *w->roots) != 0)
            return mg_fail(w->err, "out of memory");
        if (c < 0) {   /* only the accumulated forest has it: its bytes, as they are */
            pprt_buf_put(&w->out, w->a + an->at, an->end - an->at);
            w->n += an->nodes;
            w->leaves += an->leaves;
            w->depth_sum += an->depth_sum + an->leaves * d;
            ja++;
            if (d == 0)
                note_root(w, &before);
            continue;
        }
        const struct mg_knode *bn = &w->b->nodes[g[jb].at];
        uint64_t count = 0;
        size_t je = jb;
        for (; je < nb && key_cmp(&g[jb].key, &g[je].key) == 0; je++)
            if (mg_add(&count, w->b->nodes[g[je].at].count, w->err, "k-IPF node counts") != 0)
                return -1;
        size_t a_at = 0;
        uint64_t a_children = 0;
        if (c == 0) {
            if (mg_add(&count, an->count, w->err, "k-IPF node counts") != 0)
                return -1;
            a_at = an->children;
            a_children = an->nchildren;
            ja++;
        }
        int64_t children = prepare(w, d + 1, a_at, a_children, bn->tu, bn->func, g + jb, je - jb);
        if (children < 0)
            return -1;
        if ((uint64_t)children > UINT32_MAX)
            return mg_fail(w->err, "a k-IPF node would have more than 2^32 - 1 children");
        put_header(w, d, bn->tu, bn->func, bn->path_id, count, (uint64_t)children);
        if (children && emit(w, d + 1) != 0)
            return -1;
        if (d == 0)
            note_root(w, &before);
        jb = je;
    }
    return 0;
}

int mg_kipf_merge(struct pprt_merge *m, const struct mg_in_forest *f, const uint32_t *rank,
                  struct pprt_merge_error *err)
{
    struct mg_kipf *k = &m->kipf;
    struct walk w = {.rank = rank, .a = k->packed, .a_roots = k->roots, .b = f, .err = err};
    int64_t roots = prepare(&w, 0, 0, k->nroots, 0, 0, NULL, 1);
    int rc = roots < 0 ? -1 : emit(&w, 0);
    for (unsigned d = 0; d <= MG_MAX_K; d++)
        free(w.ag[d]), free(w.bg[d]);
    if (rc == 0 && w.out.failed)
        rc = mg_fail(err, "out of memory");
    if (rc != 0) {
        pprt_buf_free(&w.out);
        free(w.roots);
        return rc;
    }
    free(k->packed);
    free(k->roots);
    k->packed = w.out.data;
    k->roots = w.roots;
    k->len = w.out.len;
    k->n = w.n;
    k->nroots = (uint64_t)roots;
    k->leaves = w.leaves;
    k->depth_sum = w.depth_sum;
    return 0;
}

void mg_kipf_put_forest(const struct mg_kipf *k, const uint32_t *rank, struct pprt_buf *b)
{
    struct walk w = {.rank = rank, .a = k->packed, .a_roots = k->roots};
    size_t at = 0;
    for (uint64_t r = 0; r < k->nroots; r++) {
        struct packed_node pn;
        packed_node_at(&w, at, (int64_t)r, 0, 0, &pn);
        pprt_buf_uleb(b, pn.key.rank);
        pprt_buf_uleb(b, pn.key.func);
        pprt_buf_uleb(b, pn.key.path_id);
        pprt_buf_uleb(b, pn.count);
        pprt_buf_uleb(b, pn.nchildren);
        pprt_buf_put(b, k->packed + pn.children, pn.end - pn.children);
        at = pn.end;
    }
}
