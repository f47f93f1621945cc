/* suffix-links.h - a k-IPF under construction whose nodes know their
 * suffix links, so that Fig. 7's sums over every suffix of every k-SF
 * path cost one child lookup per k-SF node instead of k.
 *
 * A k-SF node v whose root path is p_1 .. p_d adds its count to the k-IPF
 * node of each suffix p_j .. p_d of at most k labels (Fig. 7 joins every
 * node's subtree of depth k - 1 under phi).  Here v adds it to the node of
 * its longest such suffix only; every node T = s_1 .. s_m made here knows
 * link(T), the node of s_2 .. s_m (phi, 0, for m = 1), and
 * ksf_linked_sum() then gives each node the counts of the longer nodes
 * that link to it: count(S) = own(S) + the sum of count(T) over the T with
 * link(T) = S.  link(T) is always made before T, so it has the smaller
 * index, and one pass from the last index down sums every T before its
 * link.  Used by the k-SF -> k-IPF conversion (ipf.c) and by the
 * ksf-pruned analyzer's epoch flush (ksf-pruned/core.c), which builds it
 * in a fixed number of nodes and drains it whenever it is full. */
#ifndef PATHPROF_KSF_SUFFIX_LINKS_H
#define PATHPROF_KSF_SUFFIX_LINKS_H

#include "forest.h"

#pragma GCC visibility push(hidden)

struct ksf_linked {
    struct ksf_forest f; /* the k-IPF being built; its counts are "own" until summed */
    uint32_t *link;      /* link[T], for T < link_cap */
    uint32_t link_cap;   /* entries link holds: f.cap once ksf_linked_fit ran */
    /* Growable forests (the exact conversion) also find a child through
     * an open-addressing table of (parent, child) pairs hashed with the
     * child's label, NULL until ksf_linked_add_ksf sizes it: one probe
     * and the child's node, where the first-child/next-sibling scan read
     * the parent and 2.5 siblings a lookup, each a cache miss in a k-IPF
     * of millions of nodes (libjpeg-turbo's jpegtran, k = 8: 62% of the
     * lookup's time on one load of a sibling link).  The lists are still
     * kept, for the writer and the union, and the table is dropped when
     * the k-IPF outgrows the size it was given.  The budgeted scratch
     * (max_nodes) has no table: its bytes are the budget's. */
    uint64_t *kid;       /* parent | child << 32; 0 = empty */
    uint32_t kid_mask;   /* slots - 1 (a power of two), 0 without a table */
    uint32_t nkid;       /* pairs held */
    uint32_t kid_grows;  /* times it grew (suffix-links.c, KID_GROWS) */
    uint64_t kid_full;   /* pairs it grows to hold at its first fill: the k-SF's nodes */
    uint32_t max_nodes;  /* 0: grows as needed; else f.cap, never grown */
    int full;            /* a node was refused: max_nodes reached, or the
                            root table half full */
};

/* MAX_NODES 0: arrays grow as needed.  Else exactly MAX_NODES nodes
 * (index 0 included) and NSLOTS root slots (a power of two), allocated
 * now and never grown: ksf_linked_bytes() says what that holds.  Returns
 * 0, or -1 when out of memory. */
int ksf_linked_init(struct ksf_linked *l, uint32_t max_nodes, uint32_t nslots);
void ksf_linked_free(struct ksf_linked *l);
size_t ksf_linked_bytes(uint32_t max_nodes, uint32_t nslots);

/* The child of node B (0: phi, the child is then a root) labelled LABEL,
 * made with its suffix link (and the link's, and so on) when missing.  0
 * when the forest is full (l->full) or out of memory (l->f.failed). */
uint32_t ksf_linked_child(struct ksf_linked *l, uint32_t b, uint64_t label);

/* The node of the suffix of length M - 1 of node T's sequence (M is T's
 * depth); 0 for a root. */
static inline uint32_t ksf_linked_link(const struct ksf_linked *l, uint32_t t)
{
    return l->link[t];
}

/* The link array grown (or shrunk) to the node array's capacity, after
 * the forest's arrays were given a new size from outside: the pruned
 * analyzer reserves and resizes a linked forest within its budget
 * (ksf-pruned/core.c).  0, or -1 when out of memory (f.failed set). */
int ksf_linked_fit(struct ksf_linked *l);

/* The bytes L's arrays hold: nodes, root slots, links (not the child
 * table, which the budgeted forests never have). */
size_t ksf_linked_held(const struct ksf_linked *l);

/* Gives every node the counts of the nodes that link to it (once, after
 * the last count was added). */
void ksf_linked_sum(struct ksf_linked *l);

/* A growable L finds children through a table sized for PAIRS, grown
 * once to FULL at its first fill (KID_GROWS), then dropped.  0, or -1. */
int ksf_linked_use_table(struct ksf_linked *l, uint64_t pairs, uint64_t full);

/* Empties it, keeping its arrays. */
void ksf_linked_clear(struct ksf_linked *l);

/* Adds K-SF's counts (a k-SF built with this k) into L, as Fig. 7 would
 * add them into a k-IPF, except that the shorter suffixes get theirs only
 * from ksf_linked_sum().  L must grow as needed (max_nodes 0).  With
 * LEVELS (NLEVELS of them, at least 1) it also adds K-SF's shape there:
 * level d counts the nodes at depth d (roots 0), the deepest level taking
 * any deeper ones.  Returns 0, or -1 when out of memory (the shape is then
 * incomplete as well). */
int ksf_linked_add_ksf(struct ksf_linked *l, const struct ksf_forest *ksf, uint32_t k,
                       struct ksf_level *levels, uint32_t nlevels);

#pragma GCC visibility pop

#endif
