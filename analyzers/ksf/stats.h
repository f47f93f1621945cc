/* stats.h - the statistics the KIPF section carries (docs/format.md,
 * section 3, tag 4): the quantities of the k-BLPP paper's Figs. 9 and 11
 * to 14, summed over producer threads. */
#ifndef PATHPROF_KSF_STATS_H
#define PATHPROF_KSF_STATS_H

#include "build.h"

#pragma GCC visibility push(hidden)

#define KSF_MAX_LEVELS (2 * KSF_MAX_K - 2)

struct ksf_stats {
    uint64_t threads, events, ksf_nodes, hash_ops, lost;
    struct ksf_level level[KSF_MAX_LEVELS];
};

/* k-SF levels: 2k - 2 (Definition 3), 1 when k = 1 (roots only). */
static inline uint32_t ksf_nlevels(uint32_t k)
{
    return k == 1 ? 1 : 2 * k - 2;
}

/* Adds one finished thread's builder's counters.  Its k-SF's shape (the
 * level figures) is added by the conversion, which visits every node
 * anyway (ksf_make_k_ipf_shape): a walk of its own over millions of cold
 * nodes was a tenth of a forest-heavy process's time. */
void ksf_stats_add_thread(struct ksf_stats *st, const struct ksf_builder *b);
void ksf_stats_merge(struct ksf_stats *into, const struct ksf_stats *from);

#pragma GCC visibility pop

#endif
