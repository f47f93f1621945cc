/* stats.c - walking forests for the KIPF statistics (stats.h). */
#include "stats.h"

struct walk {
    const struct ksf_forest *f;
    struct ksf_stats *st;
    uint64_t leaves, depth_sum;
};

static void shape(struct walk *w, uint32_t node, uint32_t depth)
{
    uint64_t children = 0;
    for (uint32_t c = w->f->n[node].child; c != 0; c = w->f->n[c].sibling) {
        shape(w, c, depth + 1);
        children++;
    }
    if (w->st) {
        /* Deeper than 2k - 3 cannot happen (Definition 3); clamp anyway. */
        struct ksf_level *l = &w->st->level[depth < KSF_MAX_LEVELS ? depth : KSF_MAX_LEVELS - 1];
        l->nodes++;
        l->internal += children != 0;
        l->children += children;
    }
    if (children == 0) {
        w->leaves++;
        w->depth_sum += depth;
    }
}

static void shape_root(uint32_t root, void *ctx)
{
    shape(ctx, root, 0);
}

void ksf_stats_add_thread(struct ksf_stats *st, const struct ksf_builder *b)
{
    st->threads++;
    st->events += b->events;
    st->hash_ops += b->hash_ops;
    st->lost += b->lost;
    st->ksf_nodes += b->f.len - 1;
    struct walk w = {.f = &b->f, .st = st};
    ksf_each_root(&b->f, shape_root, &w);
}

void ksf_stats_merge(struct ksf_stats *into, const struct ksf_stats *from)
{
    into->threads += from->threads;
    into->events += from->events;
    into->ksf_nodes += from->ksf_nodes;
    into->hash_ops += from->hash_ops;
    into->lost += from->lost;
    for (int i = 0; i < KSF_MAX_LEVELS; i++) {
        into->level[i].nodes += from->level[i].nodes;
        into->level[i].internal += from->level[i].internal;
        into->level[i].children += from->level[i].children;
    }
}

void ksf_leaf_depths(const struct ksf_forest *f, uint64_t *leaves, uint64_t *depth_sum)
{
    struct walk w = {.f = f};
    ksf_each_root(f, shape_root, &w);
    *leaves = w.leaves;
    *depth_sum = w.depth_sum;
}
