/* kipf_paths.c - collecting and ordering k-iteration paths (kipf_paths.h). */
#include "kipf_paths.h"

#include <stdlib.h>

#include "path.h"

/* blocks[i]: blocks of node i's BL path plus its ancestors'. Nodes come
 * in preorder, so a parent's sum is known before its children's. */
static bool sum_blocks(const struct pp_profile *p, const struct pp_kipf *k, uint64_t *blocks,
                       struct pp_error *err)
{
    struct path path = { 0 };
    size_t i, allocated_for = KIPF_NONE;
    bool ok = true;

    for (i = 0; i < k->nnodes && ok; i++) {
        const struct kipf_node *n = &k->nodes[i];
        const struct pp_func_meta *m = p->funcs[n->func].meta;
        if (allocated_for != n->func) { /* a tree holds one function */
            path_release(&path);
            if (!path_alloc(m, &path, err))
                return false;
            allocated_for = n->func;
        }
        ok = path_decode(m, n->id, &path, err) || pp_context(err, "function %s", m->name);
        if (ok)
            blocks[i] = path_nblocks(&path) + (n->parent == KIPF_NONE ? 0 : blocks[n->parent]);
    }
    path_release(&path);
    return ok;
}

bool kpaths_collect(const struct pp_profile *p, const struct kipf_options *o,
                    struct kpath **out, size_t *n, struct pp_error *err)
{
    const struct pp_kipf *k = p->kipf;
    uint64_t *blocks = malloc((k->nnodes ? k->nnodes : 1) * sizeof *blocks);
    struct kpath *paths = malloc((k->nnodes ? k->nnodes : 1) * sizeof *paths);
    size_t i, m = 0;

    if (!blocks || !paths) {
        free(blocks);
        free(paths);
        return pp_fail(err, "out of memory");
    }
    if (!sum_blocks(p, k, blocks, err)) {
        free(blocks);
        free(paths);
        return false;
    }
    for (i = 0; i < k->nnodes; i++) {
        const struct kipf_node *nd = &k->nodes[i];
        struct kpath *kp = &paths[m];
        if ((o->selected && !o->selected[nd->func]) || nd->count < o->min_count ||
            nd->depth + 1 < o->min_length)
            continue;
        kp->node = i;
        kp->length = nd->depth + 1;
        kp->blocks = blocks[i];
        kp->count = nd->count;
        if (__builtin_mul_overflow(kp->count, kp->blocks, &kp->weight))
            kp->weight = UINT64_MAX;
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

void kpaths_by_count(struct kpath *paths, size_t n)
{
    qsort(paths, n, sizeof *paths, by_count);
}

void kpaths_by_weight(struct kpath *paths, size_t n)
{
    qsort(paths, n, sizeof *paths, by_weight);
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
