/* build.c - the parts of Fig. 6 that are not on the per-event fast
 * path (build.h): set-up and the root lookup find(R, r). */
#include "build.h"

#include <string.h>

int ksf_builder_init(struct ksf_builder *b, uint32_t k)
{
    memset(b, 0, sizeof *b);
    b->k = k;
    return ksf_forest_init(&b->f);
}

void ksf_builder_free(struct ksf_builder *b)
{
    ksf_forest_free(&b->f);
}

/* Fig. 6 lines 8-11: find(R, r), adding the root when missing.  Counted
 * as the paper counts hash operations (one lookup, plus one insert), even
 * when the one-entry cache answers, so that the statistic does not depend
 * on the cache. */
uint32_t ksf_find_root(struct ksf_builder *b, uint64_t r)
{
    b->hash_ops++;
    if (b->last_root != 0 && b->last_label == r)
        return b->last_root;
    int inserted;
    uint32_t root = ksf_root(&b->f, r, &inserted);
    b->hash_ops += (uint64_t)inserted;
    if (root != 0) {
        b->last_label = r;
        b->last_root = root;
    }
    return root;
}
