/* ipf.c - k-SF to k-IPF conversion (Fig. 7 of the k-BLPP paper) and
 * k-IPF union (ipf.h).
 *
 * One deliberate reading of Fig. 7: the figure calls join_subtree(rho,
 * phi, k), which would copy k + 1 levels, while the text says "all
 * subtrees of depth up to k - 1" and Definition 2 wants n-grams with
 * n <= k.  We follow the text (depth k - 1): the (k+1)-th level would hold
 * partial counts.  tests/ksf-unit.t checks the result against Definition 2
 * by brute force. */
#include "ipf.h"

#include <stdlib.h>

struct join {
    const struct ksf_forest *src;
    struct ksf_forest *dst;
    uint64_t (*map)(void *ctx, uint64_t label);
    void *ctx;
    uint64_t dropped;
};

static uint64_t subtree_count(const struct ksf_forest *f, uint32_t rho)
{
    return f->n[rho].count;
}

/* join_subtree(rho, gamma, d); gamma 0 is the dummy root phi. */
static void join_subtree(struct join *j, uint32_t rho, uint32_t gamma, uint32_t d)
{
    uint64_t label = j->src->n[rho].label;
    if (j->map) {
        label = j->map(j->ctx, label);
        if (label == UINT64_MAX) {
            j->dropped += subtree_count(j->src, rho);
            return;
        }
    }
    uint32_t delta;
    if (gamma == 0) {
        int inserted;
        delta = ksf_root(j->dst, label, &inserted);
    } else {
        delta = ksf_child(j->dst, gamma, label);
    }
    if (delta == 0)
        return; /* out of memory: j->dst->failed says so */
    /* Lines 2-7: a new node starts at 0, so both branches are "add". */
    j->dst->n[delta].count += j->src->n[rho].count;
    if (d == 0)
        return;
    for (uint32_t s = j->src->n[rho].child; s != 0; s = j->src->n[s].sibling)
        join_subtree(j, s, delta, d - 1);
}

/* Fig. 7 joins, for every k-SF node rho, rho's subtree of depth k - 1
 * under phi: a node v at depth d, whose root path is p_1 .. p_d, adds its
 * count to the k-IPF node of every suffix p_j .. p_d of length at most k,
 * which is k child lookups per k-SF node, most of them cache misses in a
 * k-IPF of millions of nodes (bzip2: 47 ns per path event at k = 8, 279 ns
 * at k = 16, more than building the k-SF; perfctl/micro/ksf-replay.c).
 *
 * Here each v adds its count to one node only, that of its longest such
 * suffix, and the shorter suffixes get theirs afterwards through suffix
 * links: every k-IPF node T = s_1 .. s_m made here knows link(T), the node
 * of s_2 .. s_m (phi for m = 1), so count(S) = own(S) + the sum of
 * count(T) over the T with link(T) = S, summed from the longest T down.
 * link(T) is always made before T, so it has the smaller index, and one
 * pass over the nodes from the last index down sums every T before its
 * link.  The node of v's longest suffix is one child lookup from that of
 * its parent u: under u's node itself while u's depth is below k, else
 * under u's node's link (u's longest suffix has length k; v's needs its
 * last k - 1 labels).  So the work is one lookup per k-SF node and one
 * per k-IPF node made, instead of k per k-SF node; the k-IPF is the same
 * set of nodes with the same counts (tests/ksf-unit.t checks it against
 * Definition 2 by brute force).
 *
 * The k-IPF is built empty (counts summed in place need no other
 * contributions in it); into a k-IPF that already holds paths, it is
 * built apart and united (ksf_ipf_merge). */
struct linked {
    struct ksf_forest *dst;
    uint32_t *link;       /* link[T], T < cap */
    uint32_t cap;
};

static int link_room(struct linked *l)
{
    if (l->dst->len <= l->cap)
        return 0;
    uint32_t cap = l->cap ? l->cap : 1024;
    while (cap < l->dst->cap)
        cap *= 2;
    uint32_t *v = realloc(l->link, (size_t)cap * sizeof *v);
    if (v == NULL)
        return -1;
    l->link = v;
    l->cap = cap;
    return 0;
}

/* The child of B (0: phi) labelled LABEL, made with its suffix link when
 * missing; 0 when out of memory. */
static uint32_t linked_child(struct linked *l, uint32_t b, uint64_t label)
{
    struct ksf_forest *f = l->dst;
    if (b == 0) {
        int inserted;
        uint32_t r = ksf_root(f, label, &inserted);
        if (r != 0 && inserted) {
            if (link_room(l) != 0) {
                f->failed = 1;
                return 0;
            }
            l->link[r] = 0;
        }
        return r;
    }
    for (uint32_t c = f->n[b].child; c != 0; c = f->n[c].sibling)
        if (f->n[c].label == label)
            return c;
    /* The link first, so that it gets the smaller index. */
    uint32_t ln = linked_child(l, l->link[b], label);
    if (ln == 0)
        return 0;
    uint32_t c = ksf_new_node(f, label);
    if (c == 0 || link_room(l) != 0) {
        f->failed = 1;
        return 0;
    }
    f->n[c].sibling = f->n[b].child;
    f->n[b].child = c;
    l->link[c] = ln;
    return c;
}

/* One frame of the depth-first walk of the k-SF. */
struct walk {
    uint32_t sf;    /* the k-SF node */
    uint32_t ipf;   /* the k-IPF node of its longest suffix (length <= k) */
    uint32_t depth; /* its depth in the k-SF, from 1 */
};

struct roots_ctx {
    struct walk *stack;
    size_t n;
};

static void push_root(uint32_t root, void *ctx)
{
    struct roots_ctx *r = ctx;
    r->stack[r->n++] = (struct walk){root, 0, 1};
}

static int build_linked(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf)
{
    struct linked l = {.dst = ipf};
    /* Roots, then at most max fan-out per level above them: the stack
     * never holds more than the roots plus every k-SF node. */
    size_t cap = (size_t)sf->len + 1;
    struct walk *stack = malloc(cap * sizeof *stack);
    if (stack == NULL) {
        ipf->failed = 1;
        return -1;
    }
    struct roots_ctx r = {stack, 0};
    ksf_each_root(sf, push_root, &r);
    size_t n = r.n;
    while (n > 0 && !ipf->failed) {
        struct walk w = stack[--n];
        /* w.ipf holds its parent's node until here. */
        uint32_t parent_ipf = w.ipf;
        /* Roots come with parent_ipf 0: phi. */
        uint32_t base = (w.depth - 1 < k) ? parent_ipf : l.link[parent_ipf];
        uint32_t t = linked_child(&l, base, sf->n[w.sf].label);
        if (t == 0)
            break;
        ipf->n[t].count += sf->n[w.sf].count;
        for (uint32_t c = sf->n[w.sf].child; c != 0; c = sf->n[c].sibling)
            stack[n++] = (struct walk){c, t, w.depth + 1};
    }
    free(stack);
    if (!ipf->failed)
        for (uint32_t t = ipf->len - 1; t >= 1; t--)
            if (l.link[t] != 0)
                ipf->n[l.link[t]].count += ipf->n[t].count;
    free(l.link);
    return ipf->failed ? -1 : 0;
}

int ksf_make_k_ipf(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf)
{
    if (ipf->len == 1 && ipf->nroots == 0)
        return build_linked(sf, k, ipf);
    struct ksf_forest part;
    if (ksf_forest_init(&part) != 0) {
        ipf->failed = 1;
        return -1;
    }
    int rc = build_linked(sf, k, &part);
    if (rc == 0)
        rc = ksf_ipf_merge(ipf, &part);
    else
        ipf->failed = 1;
    ksf_forest_free(&part);
    return rc;
}

static void merge_root(uint32_t root, void *ctx)
{
    struct join *j = ctx;
    join_subtree(j, root, 0, UINT32_MAX);
}

int ksf_ipf_merge_mapped(struct ksf_forest *ipf, const struct ksf_forest *from,
                         uint64_t (*map)(void *ctx, uint64_t label), void *ctx,
                         uint64_t *dropped)
{
    struct join j = {.src = from, .dst = ipf, .map = map, .ctx = ctx};
    ksf_each_root(from, merge_root, &j);
    if (dropped)
        *dropped += j.dropped;
    return ipf->failed ? -1 : 0;
}

int ksf_ipf_merge(struct ksf_forest *ipf, const struct ksf_forest *from)
{
    return ksf_ipf_merge_mapped(ipf, from, NULL, NULL, NULL);
}
