/* stats.c - the KIPF statistics (stats.h): producer threads' counters.
 * The level figures come from the conversion (ksf_make_k_ipf_shape) and
 * the k-IPF's leaves from the writer (write.c), both of which visit every
 * node anyway. */
#include "stats.h"

void ksf_stats_add_thread(struct ksf_stats *st, const struct ksf_builder *b)
{
    st->threads++;
    st->events += b->events;
    st->hash_ops += b->hash_ops;
    st->lost += b->lost;
    st->ksf_nodes += b->links ? 0 : b->f.len - 1; /* no k-SF: 0 (docs/format.md, KIPF) */
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
