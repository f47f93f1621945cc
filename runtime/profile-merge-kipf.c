/* profile-merge-kipf.c - an input's KIPF section added to the accumulated
 * k-IPF by one merge walk of two sorted forests (see profile-merge-kiter.h;
 * the accumulator's packed canonical form is in profile-merge-state.h).
 *
 * Why a walk and not a table: a k = 8 forest of a real program has
 * millions of nodes, and every process that accumulates into a profile
 * (PATHPROF_ACCUMULATE=1) adds all of the profile's nodes again at its
 * exit.  Finding each node in a hash table cost two dependent cache misses
 * a node and 79% of the merge's time (docs/performance.md, "Accumulated
 * k-IPFs"); the walk reads both forests and writes their sum front to
 * back, with no lookup at all.  Why packed: the accumulated forest is the
 * big one and the run's the small one, so the accumulated forest stays in
 * the compact encoding it was read in; a subtree the other input does not
 * touch is copied as bytes, and only the nodes both have are decoded.
 *
 * Exactness: two forests are unions of labelled root-to-node sequences.
 * With the siblings of every node sorted and distinct in both, merging
 * the two sibling lists of each pair of equal nodes (summing equal labels,
 * copying the rest with their subtrees) visits every sequence of either
 * forest once, so each node of the result is a sequence of one or both
 * and its count the sum of its counts there. */
#include "profile-merge-kiter.h"
#include "profile-merge-kipf.h"
#include "profile-merge-tu.h"
#include "le-bytes.h"

#include <stdlib.h>
#include <string.h>

/* The first input into an empty accumulator, when it is compact and
 * canonical (what `pathprof merge` and every accumulation write): taken
 * as it is, the roots' TU sections renumbered to the accumulator's, every
 * node checked as read_forest checks it.  1 taken, 0 not (any damage or
 * another order: read_forest then reads the same bytes and says what is
 * wrong, or sorts them), -1 out of memory. */
static int adopt(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                 uint32_t kk, uint64_t kipf_nodes, uint64_t nroots, uint64_t want_leaves,
                 uint64_t want_depth_sum, const uint32_t *rank)
{
    struct mg_kipf *k = &m->kipf;
    struct pprt_buf out = {0};
    struct mg_kroot *roots = NULL, *root = NULL;
    size_t roots_cap = 0, nr = 0;
    /* COUNT: the open node's, SUM: its children's so far. */
    struct open {
        uint64_t owed;
        uint32_t tu, func;
        uint64_t id, count, sum;
        int any;
    } stack[MG_MAX_K + 1];
    uint64_t seen = 0, leaves = 0, depth_sum = 0;
    int depth = 0, ok = 1;
    size_t start = c->pos, span = c->pos;   /* bytes not yet copied start at SPAN */
    stack[0] = (struct open){nroots, 0, 0, 0, UINT64_MAX, 0, 0};
    for (;;) {
        while (ok && depth >= 0 && stack[depth].owed == 0) {
            if (stack[depth].sum > stack[depth].count)
                ok = 0;
            depth--;
        }
        if (!ok)
            break;
        if (depth < 0)
            break;
        struct open *o = &stack[depth];
        o->owed--;
        uint64_t tu = o->tu, func = o->func, id, count, nchildren;
        size_t at = c->pos;
        if (seen++ >= kipf_nodes ||
            (depth == 0 && (mg_get_uleb_fast(c, &tu) || mg_get_uleb_fast(c, &func))) ||
            mg_get_uleb_fast(c, &id) || mg_get_uleb_fast(c, &count) ||
            mg_get_uleb_fast(c, &nchildren) || tu >= ntus || func >= m->tus[tumap[tu]].nfuncs ||
            id >= m->tus[tumap[tu]].funcs[func].npaths || count == 0 ||
            (nchildren && depth + 1 >= (int)kk) || nchildren > kipf_nodes) {
            ok = 0;
            break;
        }
        /* Siblings strictly ascending (roots by their TU's rank). */
        if (o->any) {
            uint32_t r = rank[tumap[tu]], pr = rank[tumap[o->tu]];
            if (depth > 0 ? id <= o->id
                          : r < pr || (r == pr && (func < o->func || (func == o->func && id <= o->id)))) {
                ok = 0;
                break;
            }
        }
        o->id = id, o->any = 1;
        if (depth > 0 && __builtin_add_overflow(o->sum, count, &o->sum)) {
            ok = 0;
            break;
        }
        if (depth == 0) {   /* a root: its TU renumbered, the bytes before it copied */
            o->tu = (uint32_t)tu, o->func = (uint32_t)func;
            pprt_buf_put(&out, c->p + span, at - span);
            span = c->pos;
            if (root)
                root->end = out.len, root->nodes = seen - 1 - root->nodes,
                root->leaves = leaves - root->leaves, root->depth_sum = depth_sum - root->depth_sum;
            if (mg_grow(&roots, &roots_cap, nr + 1, sizeof *roots) != 0) {
                out.failed = 1;
                break;
            }
            root = &roots[nr++];
            *root = (struct mg_kroot){0, seen - 1, leaves, depth_sum};
            pprt_buf_uleb(&out, tumap[tu]);
            pprt_buf_uleb(&out, func);
            pprt_buf_uleb(&out, id);
            pprt_buf_uleb(&out, count);
            pprt_buf_uleb(&out, nchildren);
        }
        if (nchildren)
            stack[++depth] = (struct open){nchildren, (uint32_t)tu, (uint32_t)func, 0, count, 0, 0};
        else
            leaves++, depth_sum += (uint64_t)depth;
    }
    if (ok && (seen != kipf_nodes || mg_left(c) || leaves != want_leaves ||
               depth_sum != want_depth_sum))
        ok = 0;
    if (ok) {
        pprt_buf_put(&out, c->p + span, c->pos - span);
        if (root)
            root->end = out.len, root->nodes = seen - root->nodes,
            root->leaves = leaves - root->leaves, root->depth_sum = depth_sum - root->depth_sum;
    }
    if (!ok || out.failed) {
        int oom = ok && out.failed;
        pprt_buf_free(&out);
        free(roots);
        c->pos = start;
        return oom ? -1 : 0;
    }
    k->packed = out.data;
    k->len = out.len;
    k->roots = roots;
    k->n = seen;
    k->nroots = nroots;
    k->leaves = leaves;
    k->depth_sum = depth_sum;
    return 1;
}

static int add_node(struct mg_in_forest *f, const struct mg_knode *n, struct pprt_merge_error *err)
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
                       uint64_t nroots, uint64_t want_leaves, uint64_t want_depth_sum,
                       struct mg_in_forest *f, struct pprt_merge_error *err)
{
    /* SUM: the open node's children's counts so far. */
    struct open { size_t node; uint64_t owed; uint32_t tu, func; uint64_t sum; } stack[MG_MAX_K + 1];
    int depth = 0;
    uint64_t seen = 0, leaves = 0, depth_sum = 0;
    /* Room for every node announced, as far as the bytes can hold them
     * (a compact node takes 3 bytes or more, a fixed one 32). */
    size_t fit = mg_left(c) / (flags & MG_KIPF_COMPACT ? 3 : 32);
    size_t want = kipf_nodes < fit ? (size_t)kipf_nodes : fit;
    if (mg_grow(&f->nodes, &f->cap, want, sizeof *f->nodes) != 0 ||
        mg_grow(&f->size, &f->size_cap, want, sizeof *f->size) != 0)
        return mg_fail(err, "out of memory");
    stack[0] = (struct open){MG_NONE, nroots, 0, 0, 0};
    for (;;) {
        while (depth >= 0 && stack[depth].owed == 0) {
            if (depth >= 1 && stack[depth].sum > f->nodes[stack[depth].node].count)
                return mg_fail(err, "node %zu: count %llu below the sum of its children's "
                               "(%llu)", stack[depth].node,
                               (unsigned long long)f->nodes[stack[depth].node].count,
                               (unsigned long long)stack[depth].sum);
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
            if ((depth == 0 && (mg_get_uleb_fast(c, &tu) || mg_get_uleb_fast(c, &func))) ||
                mg_get_uleb_fast(c, &id) || mg_get_uleb_fast(c, &count) ||
                mg_get_uleb_fast(c, &nchildren))
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
        if (depth >= 1) {
            if (__builtin_add_overflow(stack[depth].sum, count, &stack[depth].sum))
                return mg_fail(err, "node %zu: its children's counts add up to more than "
                               "2^64 - 1", stack[depth].node);
            if (!nchildren)
                f->size[stack[depth].node]++;
        }
        if (nchildren)
            stack[++depth] = (struct open){f->n - 1, nchildren, (uint32_t)tu, (uint32_t)func, 0};
        else
            leaves++, depth_sum += (uint64_t)depth;
    }
    if (seen != kipf_nodes || mg_left(c))
        return mg_fail(err, "the forest has %llu nodes and %zu bytes after them, the section "
                       "announces %llu", (unsigned long long)seen, mg_left(c),
                       (unsigned long long)kipf_nodes);
    if (leaves != want_leaves || depth_sum != want_depth_sum)
        return mg_fail(err, "the section says %llu leaves of depths summing to %llu, the forest "
                       "has %llu and %llu", (unsigned long long)want_leaves,
                       (unsigned long long)want_depth_sum, (unsigned long long)leaves,
                       (unsigned long long)depth_sum);
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
    for (uint32_t i = 0; i < nlevels; i++) {
        uint64_t nodes = pprt_get_u64(c->p + c->pos), internal = pprt_get_u64(c->p + c->pos + 8),
                 children = pprt_get_u64(c->p + c->pos + 16);
        if (internal > nodes || children < internal)
            return mg_fail(err, "k-SF level %u: %llu nodes, %llu internal, %llu children do "
                           "not add up", i, (unsigned long long)nodes,
                           (unsigned long long)internal, (unsigned long long)children);
        for (int j = 0; j < 3; j++, c->pos += 8)
            if (mg_add(&k->levels[3 * i + j], pprt_get_u64(c->p + c->pos), err,
                       "k-SF level figures"))
                return -1;
    }
    if (mg_get_u64(c, &leaves) || mg_get_u64(c, &depth_sum) || mg_get_u64(c, &nroots))
        return mg_fail(err, "truncated before the forest");
    if (mg_add(&k->threads, threads, err, "thread counts") ||
        mg_add(&k->events, events, err, "event counts") ||
        mg_add(&k->ksf_nodes, ksf_nodes, err, "k-SF node counts") ||
        mg_add(&k->hash_ops, hash_ops, err, "hash operation counts"))
        return -1;
    int first = !k->present;
    k->present = 1;
    if (m->shallow)
        return 0; /* the forest is checked when the parts are added for good */
    uint32_t *rank = malloc((m->ntus + 1) * sizeof *rank);
    if (!rank || mg_rank_tus(m, NULL, rank) != 0) {
        free(rank);
        return mg_fail(err, "out of memory");
    }
    int rc = 0;
    if (first && (flags & MG_KIPF_COMPACT)) {
        rc = adopt(m, c, tumap, ntus, kk, kipf_nodes, nroots, leaves, depth_sum, rank);
        if (rc != 0) {
            free(rank);
            return rc > 0 ? 0 : mg_fail(err, "out of memory");
        }
    }
    struct mg_in_forest f = {0};
    f.nroots = nroots;
    rc = read_forest(m, c, tumap, ntus, kk, flags, kipf_nodes, nroots, leaves, depth_sum, &f, err);
    if (rc == 0)
        rc = mg_kipf_merge(m, &f, rank, err);
    free(f.nodes);
    free(f.size);
    free(rank);
    return rc;
}
