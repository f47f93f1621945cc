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

void ksf_run(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{
    uint64_t seg = b->k > 1 ? b->k - 1 : 1, done = 0;
    /* Step until a segment starts whose predecessor lies wholly in the
     * run (k = 1: at once, every event counts at the root). */
    while (done < len && !(s->n == 0 && done >= seg - (b->k == 1))) {
        ksf_item(b, s, r);
        done++;
    }
    if (len - done >= 2 * seg) {
        /* One segment walked for real, its counted nodes remembered. */
        uint32_t counted[KSF_MAX_K];
        uint64_t j = 0;
        for (; j < seg; j++) {
            counted[j] = ksf_item_weighted(b, s, r, 1);
            if (counted[j] == 0)
                break; /* out of memory: the state was reset, go on one by one */
        }
        done += j;
        if (j == seg) {
            uint64_t q = (len - done) / seg;
            for (j = 0; j < seg; j++)
                b->f.n[counted[j]].count += q;
            b->events += q * seg;
            /* Fig. 9's statistic as if each segment had been walked: one
             * find(R, r) per segment. */
            b->hash_ops += q;
            done += q * seg;
        }
    }
    for (; done < len; done++)
        ksf_item(b, s, r);
}
