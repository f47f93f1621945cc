/* profile-merge-kipf.c - an input's KIPF section added to the accumulated
 * k-IPF by one merge walk of two sorted forests (see profile-merge-kiter.h;
 * the forest's canonical form is in profile-merge-state.h).
 *
 * Why a walk and not a table: a k = 8 forest of a real program has
 * millions of nodes, and every process that accumulates into a profile
 * (PATHPROF_ACCUMULATE=1) adds all of the profile's nodes again at its
 * exit.  Finding each node in a hash table cost two dependent cache misses
 * a node and 79% of the merge's time (docs/performance.md, "Accumulated
 * k-IPFs"); the walk reads both forests and writes their sum front to
 * back, with no lookup at all.
 *
 * Exactness: two forests are unions of labelled root-to-node sequences.
 * With the siblings of every node sorted and distinct in both, merging
 * the two sibling lists of each pair of equal nodes (summing equal labels,
 * copying the rest with their subtrees) visits every sequence of either
 * forest once, so each node of the result is a sequence of one or both
 * and its count the sum of its counts there. */
#include "profile-merge-kiter.h"
#include "profile-merge-tu.h"
#include "le-bytes.h"

#include <stdlib.h>
#include <string.h>

/* The input's forest, decoded and checked, in the input's own preorder;
 * size[i] counts node i's subtree, itself included. */
struct in_forest {
    struct mg_knode *nodes;
    size_t *size;
    size_t n, cap, size_cap;
};

/* A node's place among its siblings: its TU's canonical rank, then
 * function and path ID.  AT is where it is in its forest. */
struct label {
    uint32_t rank, func;
    uint64_t path_id;
    size_t at;
    size_t from;   /* input labels: which parent (at depth 0, TU section) */
};

static int label_cmp(const struct label *x, const struct label *y)
{
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    return x->path_id < y->path_id ? -1 : x->path_id > y->path_id;
}

/* Equal labels by parent: two from one parent sit side by side. */
static int by_label(const void *x, const void *y)
{
    const struct label *a = x, *b = y;
    int c = label_cmp(a, b);
    return c ? c : a->from < b->from ? -1 : a->from > b->from;
}

struct walk {
    const uint32_t *rank;               /* accumulator TU -> canonical rank */
    const struct mg_knode *a;           /* the accumulated forest */
    size_t ai;                          /* its cursor: the next node unread */
    const struct in_forest *b;
    size_t nroots_b;                    /* its roots */
    struct mg_knode *out;
    size_t nout;
    struct label *group[MG_MAX_K + 1];  /* the input siblings in order, by depth */
    size_t group_cap[MG_MAX_K + 1];
    struct pprt_merge_error *err;
};

static struct label label_of(const struct walk *w, const struct mg_knode *n, size_t at)
{
    return (struct label){w->rank[n->tu], n->func, n->path_id, at, 0};
}

/* The accumulated subtree at the cursor, copied as it is. */
static void copy_a(struct walk *w)
{
    size_t owed = 1;
    while (owed) {
        const struct mg_knode *n = &w->a[w->ai++];
        owed = owed - 1 + n->nchildren;
        w->out[w->nout++] = *n;
    }
}

/* The children of NP input nodes with one label (a run of w->group[D-1],
 * or at depth 0 the roots), in label order in w->group[D]: as they come
 * when there is one parent and the input has them sorted (what `pathprof
 * merge` writes), else sorted here (a runtime's roots come by TU section,
 * not by blob).  Equal labels come from two parents or, among the roots,
 * from two TU sections with the same metadata (one TU here): their
 * subtrees are summed.  *N: how many. */
static struct label *input_group(struct walk *w, unsigned d, const struct label *parents,
                                 size_t np, size_t *n)
{
    size_t total = 0;
    for (size_t p = 0; p < np; p++)
        total += d == 0 ? w->nroots_b : w->b->nodes[parents[p].at].nchildren;
    if (mg_grow(&w->group[d], &w->group_cap[d], total, sizeof *w->group[d]) != 0) {
        mg_fail(w->err, "out of memory");
        return NULL;
    }
    struct label *g = w->group[d];
    int sorted = np == 1;
    size_t i = 0;
    for (size_t p = 0; p < np; p++) {
        size_t at = d == 0 ? 0 : parents[p].at + 1;
        size_t nc = d == 0 ? w->nroots_b : w->b->nodes[parents[p].at].nchildren;
        for (size_t c = 0; c < nc; c++, i++, at += w->b->size[at]) {
            g[i] = label_of(w, &w->b->nodes[at], at);
            g[i].from = d == 0 ? w->b->nodes[at].section : p;
            if (i && label_cmp(&g[i - 1], &g[i]) >= 0)
                sorted = 0;
        }
    }
    if (!sorted)
        qsort(g, total, sizeof *g, by_label);
    *n = total;
    return g;
}

/* The union of NA accumulated siblings at the cursor and the children of
 * the NP input nodes PARENTS (the roots at depth 0), at depth D, written
 * at w->out; *NOUT: how many. */
static int merge(struct walk *w, unsigned d, size_t na, const struct label *parents, size_t np,
                 uint64_t *nout)
{
    size_t nb = 0;
    const struct label *g = NULL;
    if (np && !(g = input_group(w, d, parents, np, &nb)))
        return -1;
    uint64_t written = 0;
    for (size_t ja = 0, jb = 0; ja < na || jb < nb; written++) {
        int c = jb == nb ? -1 : ja == na ? 1 : 0;
        if (c == 0) {
            struct label la = label_of(w, &w->a[w->ai], w->ai);
            c = label_cmp(&la, &g[jb]);
        }
        if (c < 0) {
            copy_a(w);
            ja++;
            continue;
        }
        /* The input nodes with this label: g[jb .. je). */
        size_t je = jb + 1, at = w->nout++;
        w->out[at] = w->b->nodes[g[jb].at];
        uint64_t b_children = w->out[at].nchildren;
        for (; je < nb && label_cmp(&g[jb], &g[je]) == 0; je++) {
            const struct mg_knode *dup = &w->b->nodes[g[je].at];
            if (g[je].from == g[je - 1].from)
                return mg_fail(w->err, "nodes %zu and %zu: siblings with one label (function "
                               "%u, path %llu)", g[je - 1].at, g[je].at, dup->func,
                               (unsigned long long)dup->path_id);
            if (mg_add(&w->out[at].count, dup->count, w->err, "k-IPF node counts") != 0)
                return -1;
            b_children += dup->nchildren;
        }
        size_t a_children = 0;
        if (c == 0) {
            const struct mg_knode *an = &w->a[w->ai++];
            if (mg_add(&w->out[at].count, an->count, w->err, "k-IPF node counts") != 0)
                return -1;
            a_children = an->nchildren;
            ja++;
        }
        uint64_t children = 0;
        if ((a_children || b_children) &&
            merge(w, d + 1, a_children, g + jb, b_children ? je - jb : 0, &children) != 0)
            return -1;
        if (children > UINT32_MAX)
            return mg_fail(w->err, "a k-IPF node would have more than 2^32 - 1 children");
        w->out[at].nchildren = (uint32_t)children;
        jb = je;
    }
    *nout = written;
    return 0;
}

static int add_node(struct in_forest *f, const struct mg_knode *n, struct pprt_merge_error *err)
{
    if (mg_grow(&f->nodes, &f->cap, f->n + 1, sizeof *f->nodes) != 0 ||
        mg_grow(&f->size, &f->size_cap, f->n + 1, sizeof *f->size) != 0)
        return mg_fail(err, "out of memory");
    f->nodes[f->n] = *n;
    f->size[f->n++] = 1;
    return 0;
}

/* The input's nodes (preorder: a stack of open nodes and the children
 * each still owes), each checked against the profile's TUs, into F. */
static int read_forest(const struct pprt_merge *m, struct mg_cur *c, const size_t *tumap,
                       size_t ntus, uint32_t kk, uint32_t flags, uint64_t kipf_nodes,
                       uint64_t nroots, struct in_forest *f, struct pprt_merge_error *err)
{
    struct open { size_t node; uint64_t owed; uint32_t tu, func; } stack[MG_MAX_K + 1];
    int depth = 0;
    uint64_t seen = 0;
    /* Room for every node announced, as far as the bytes can hold them
     * (a compact node takes 3 bytes or more, a fixed one 32). */
    size_t fit = mg_left(c) / (flags & MG_KIPF_COMPACT ? 3 : 32);
    size_t want = kipf_nodes < fit ? (size_t)kipf_nodes : fit;
    if (mg_grow(&f->nodes, &f->cap, want, sizeof *f->nodes) != 0 ||
        mg_grow(&f->size, &f->size_cap, want, sizeof *f->size) != 0)
        return mg_fail(err, "out of memory");
    stack[0] = (struct open){MG_NONE, nroots, 0, 0};
    for (;;) {
        while (depth >= 0 && stack[depth].owed == 0) {
            if (depth >= 2)   /* a finished subtree counts in its parent's */
                f->size[stack[depth - 1].node] += f->size[stack[depth].node];
            depth--;
        }
        if (depth < 0)
            break;
        stack[depth].owed--;
        uint64_t tu = stack[depth].tu, func = stack[depth].func, id, count, nchildren;
        if (seen++ >= kipf_nodes)
            return mg_fail(err, "more nodes than the %llu announced",
                           (unsigned long long)kipf_nodes);
        if (flags & MG_KIPF_COMPACT) {
            if ((depth == 0 && (mg_get_uleb(c, &tu) || mg_get_uleb(c, &func))) ||
                mg_get_uleb(c, &id) || mg_get_uleb(c, &count) || mg_get_uleb(c, &nchildren))
                return mg_fail(err, "node %llu truncated", (unsigned long long)seen - 1);
        } else {
            uint32_t t32, f32, n32, r32;
            if (mg_get_u32(c, &t32) || mg_get_u32(c, &f32) || mg_get_u64(c, &id) ||
                mg_get_u64(c, &count) || mg_get_u32(c, &n32) || mg_get_u32(c, &r32))
                return mg_fail(err, "node %llu truncated", (unsigned long long)seen - 1);
            if (depth > 0 && (t32 != tu || f32 != func))
                return mg_fail(err, "node %llu lies in another function than its parent",
                               (unsigned long long)seen - 1);
            tu = t32, func = f32, nchildren = n32;
        }
        if (tu >= ntus || func >= m->tus[tumap[tu]].nfuncs ||
            id >= m->tus[tumap[tu]].funcs[func].npaths || count == 0 ||
            (nchildren && depth + 1 >= (int)kk) || nchildren > kipf_nodes ||
            nchildren > UINT32_MAX)
            return mg_fail(err, "node %llu (TU %llu, function %llu, path %llu, count %llu, "
                           "%llu children) does not fit the profile",
                           (unsigned long long)seen - 1, (unsigned long long)tu,
                           (unsigned long long)func, (unsigned long long)id,
                           (unsigned long long)count, (unsigned long long)nchildren);
        struct mg_knode n = {(uint32_t)tumap[tu], (uint32_t)func, id, count, (uint32_t)nchildren,
                             (uint32_t)tu};
        if (add_node(f, &n, err) != 0)
            return -1;
        if (depth >= 1 && !nchildren)
            f->size[stack[depth].node]++;
        if (nchildren)
            stack[++depth] = (struct open){f->n - 1, nchildren, (uint32_t)tu, (uint32_t)func};
    }
    if (seen != kipf_nodes || mg_left(c))
        return mg_fail(err, "the forest has %llu nodes and %zu bytes after them, the section "
                       "announces %llu", (unsigned long long)seen, mg_left(c),
                       (unsigned long long)kipf_nodes);
    return 0;
}

/* The accumulated forest and F, merged into a new canonical forest. */
static int merge_forests(struct pprt_merge *m, const struct in_forest *f, uint64_t nroots,
                         struct pprt_merge_error *err)
{
    struct mg_kipf *k = &m->kipf;
    struct walk w = {.a = k->nodes, .b = f, .nroots_b = (size_t)nroots, .err = err};
    if (f->n > SIZE_MAX / sizeof *w.out - k->n - 1)
        return mg_fail(err, "out of memory");
    uint32_t *rank = malloc((m->ntus + 1) * sizeof *rank);
    w.out = malloc((k->n + f->n + 1) * sizeof *w.out);
    int rc = 0;
    if (!rank || !w.out || mg_rank_tus(m, NULL, rank) != 0)
        rc = mg_fail(err, "out of memory");
    w.rank = rank;
    uint64_t roots = 0;
    if (rc == 0)
        rc = merge(&w, 0, k->nroots, NULL, 1, &roots);
    for (unsigned d = 0; d <= MG_MAX_K; d++)
        free(w.group[d]);
    free(rank);
    if (rc != 0) {
        free(w.out);
        return rc;
    }
    free(k->nodes);
    k->nodes = w.out;
    k->n = w.nout;
    k->nroots = roots;
    return 0;
}

int mg_read_kipf(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                 struct pprt_merge_error *err)
{
    struct mg_kipf *k = &m->kipf;
    uint32_t kk, flags, nlevels, reserved;
    uint64_t threads, events, ksf_nodes, kipf_nodes, hash_ops, leaves, depth_sum, nroots;
    if (mg_get_u32(c, &kk) || mg_get_u32(c, &flags) || mg_get_u64(c, &threads) ||
        mg_get_u64(c, &events) || mg_get_u64(c, &ksf_nodes) || mg_get_u64(c, &kipf_nodes) ||
        mg_get_u64(c, &hash_ops) || mg_get_u32(c, &nlevels) || mg_get_u32(c, &reserved))
        return mg_fail(err, "truncated in its fixed part");
    if (kk < 1 || kk > MG_MAX_K || (flags & ~MG_KIPF_COMPACT) || reserved)
        return mg_fail(err, "k = %u, flags 0x%x: not a KIPF section this pathprof reads", kk,
                       flags);
    if (nlevels != (kk == 1 ? 1 : 2 * kk - 2) || nlevels > mg_left(c) / 24)
        return mg_fail(err, "%u k-SF levels for k = %u", nlevels, kk);
    if (k->present && k->k != kk)
        return mg_fail(err, "its k-iteration paths have k = %u, the profiles before k = %u: "
                       "merge runs with the same PATHPROF_K", kk, k->k);
    if (!k->present) {
        k->k = kk;
        k->nlevels = nlevels;
        if (!(k->levels = calloc((size_t)nlevels * 3, sizeof *k->levels)))
            return mg_fail(err, "out of memory");
    }
    for (uint32_t i = 0; i < nlevels * 3; i++, c->pos += 8)
        if (mg_add(&k->levels[i], pprt_get_u64(c->p + c->pos), err, "k-SF level figures"))
            return -1;
    if (mg_get_u64(c, &leaves) || mg_get_u64(c, &depth_sum) || mg_get_u64(c, &nroots))
        return mg_fail(err, "truncated before the forest");
    if (mg_add(&k->threads, threads, err, "thread counts") ||
        mg_add(&k->events, events, err, "event counts") ||
        mg_add(&k->ksf_nodes, ksf_nodes, err, "k-SF node counts") ||
        mg_add(&k->hash_ops, hash_ops, err, "hash operation counts"))
        return -1;
    k->present = 1;
    struct in_forest f = {0};
    int rc = read_forest(m, c, tumap, ntus, kk, flags, kipf_nodes, nroots, &f, err);
    if (rc == 0)
        rc = merge_forests(m, &f, nroots, err);
    free(f.nodes);
    free(f.size);
    (void)leaves, (void)depth_sum;
    return rc;
}
