/* ipf.h - from k-SF to k-IPF: the paper's Fig. 7 (make_k_ipf and
 * join_subtree), and the union of k-IPFs (threads, analyzer threads).
 *
 * A k-IPF is a struct ksf_forest too: its roots (the children of Fig. 7's
 * dummy root phi) are in the forest's root table, so joining a subtree at
 * the top is a hash lookup instead of a scan of phi's children. */
#ifndef PATHPROF_KSF_IPF_H
#define PATHPROF_KSF_IPF_H

#include "build.h"
#include "forest.h"

#pragma GCC visibility push(hidden)

/* make_k_ipf: joins every k-SF node's subtree of depth up to k - 1 into
 * IPF (which may already hold other threads' paths: the counts add up).
 * Returns 0, or -1 when out of memory (IPF->failed is set). */
int ksf_make_k_ipf(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf);

/* The same, adding SF's shape into LEVELS[0 .. NLEVELS - 1] on the way
 * (ksf_linked_add_ksf): the conversion visits every k-SF node once. */
int ksf_make_k_ipf_shape(const struct ksf_forest *sf, uint32_t k, struct ksf_forest *ipf,
                         struct ksf_level *levels, uint32_t nlevels);

/* IPF += FROM: the union of two prefix forests, counts added. */
int ksf_ipf_merge(struct ksf_forest *ipf, const struct ksf_forest *from);

/* IPF += FROM with every label mapped by MAP; a label MAP sends to
 * UINT64_MAX is dropped with its subtree and its count added to
 * *DROPPED. */
int ksf_ipf_merge_mapped(struct ksf_forest *ipf, const struct ksf_forest *from,
                         uint64_t (*map)(void *ctx, uint64_t label), void *ctx,
                         uint64_t *dropped);

/* B's forest into IPF (counts added; IPF may hold other threads'): the
 * conversion of Fig. 7, the k-SF's shape added to LEVELS; or, built
 * through links (build.h), the summing pass, and the forest taken as it
 * is when IPF is empty.  B's forest is spent either way.  0, or -1 when
 * out of memory (IPF->failed). */
int ksf_builder_to_ipf(struct ksf_builder *b, struct ksf_forest *ipf, struct ksf_level *levels,
                       uint32_t nlevels);

#pragma GCC visibility pop

#endif
