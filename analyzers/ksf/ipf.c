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

struct by_label {
    uint64_t label;
    uint32_t node;
};

static int cmp_label(const void *x, const void *y)
{
    const struct by_label *a = x, *b = y;
    if (a->label != b->label)
        return a->label < b->label ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

int ksf_make_k_ipf(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf)
{
    /* Lines 1-7: I and s(r), as one array sorted by label: the groups
     * s(r) are its runs. */
    size_t n = sf->len > 0 ? sf->len - 1 : 0;
    struct by_label *v = malloc((n ? n : 1) * sizeof *v);
    if (v == NULL) {
        ipf->failed = 1;
        return -1;
    }
    for (uint32_t i = 1; i < sf->len; i++)
        v[i - 1] = (struct by_label){sf->n[i].label, i};
    qsort(v, n, sizeof *v, cmp_label);
    /* Lines 8-14: join every rho of every s(r) under phi. */
    struct join j = {.src = sf, .dst = ipf};
    for (size_t i = 0; i < n; i++)
        join_subtree(&j, v[i].node, 0, k - 1);
    free(v);
    return ipf->failed ? -1 : 0;
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
