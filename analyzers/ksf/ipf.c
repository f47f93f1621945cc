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

#include "suffix-links.h"

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

/* Fig. 7 joins every k-SF node's subtree of depth k - 1 under phi: k child
 * lookups per k-SF node, most of them cache misses in a k-IPF of millions
 * of nodes (bzip2's stream: 47 ns per path event at k = 8, 279 ns at
 * k = 16, more than building the k-SF; perfctl/micro/ksf-replay.c).  The
 * same sums through suffix links (suffix-links.h) take one lookup per
 * k-SF node and one per k-IPF node made; the k-IPF is the same set of
 * nodes with the same counts (tests/ksf-unit.t checks it against
 * Definition 2 by brute force).  It is built apart, because the summing
 * pass must see only this k-SF's counts, and becomes IPF when IPF is
 * still empty (one thread), else is united into it. */
int ksf_make_k_ipf_shape(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf,
                         struct ksf_level *levels, uint32_t nlevels)
{
    struct ksf_linked l;
    if (ksf_linked_init(&l, 0, 0) != 0) {
        ipf->failed = 1;
        return -1;
    }
    int rc = ksf_linked_add_ksf(&l, sf, k, levels, nlevels);
    if (rc == 0) {
        ksf_linked_sum(&l);
        if (ipf->len == 1 && ipf->nroots == 0 && !ipf->failed) {
            ksf_forest_free(ipf);
            *ipf = l.f; /* taken: not freed below */
            l.f = (struct ksf_forest){0};
        } else {
            rc = ksf_ipf_merge(ipf, &l.f);
        }
    } else {
        ipf->failed = 1;
    }
    ksf_linked_free(&l);
    return rc;
}

int ksf_make_k_ipf(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf)
{
    return ksf_make_k_ipf_shape(sf, k, ipf, NULL, 0);
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

int ksf_builder_to_ipf(struct ksf_builder *b, struct ksf_forest *ipf, struct ksf_level *levels,
                       uint32_t nlevels)
{
    if (!b->links)
        return ksf_make_k_ipf_shape(&b->f, b->k, ipf, levels, nlevels);
    if (b->f.failed) {
        ipf->failed = 1;
        return -1;
    }
    ksf_linked_sum(&b->lk); /* (no run memo here: run_linked needs none) */
    if (ipf->len == 1 && ipf->nroots == 0 && !ipf->failed) {
        ksf_forest_free(ipf);
        *ipf = b->f; /* taken: the builder keeps an empty forest */
        b->f = (struct ksf_forest){0};
        return 0;
    }
    int rc = ksf_ipf_merge(ipf, &b->f);
    ksf_forest_free(&b->f);
    return rc;
}
