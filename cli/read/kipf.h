/* kipf.h - the k-iteration path forest of a profile's KIPF section
 * (docs/format.md, section 3, tag 4) after reading and validation.
 *
 * The file's forest names functions by (TU section, directory index); in
 * memory each label names an entry of profile->funcs instead, so that the
 * copies of one function that func_merge.c joined (an inline function of a
 * header instrumented in several TUs) have one tree, their counts summed
 * as the path counts are.  The merged forest is kept in preorder with
 * siblings sorted by (function, path ID): walking it in array order lists
 * the k-iteration paths in a stable, lexicographic order. */
#ifndef PATHPROF_CLI_KIPF_H
#define PATHPROF_CLI_KIPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#ifndef PATHPROF_SECTION_KIPF
#define PATHPROF_SECTION_KIPF 4u   /* until runtime/pathprof-abi.h names it */
#endif
#define KIPF_MAX_K 64u
#define KIPF_FLAG_PRUNED 1u        /* reserved by the format for pruned profiles */
#define KIPF_FLAG_COMPACT 2u       /* nodes in the compact (LEB128) encoding */
#define KIPF_NONE SIZE_MAX

/* One level of the k-SF: nodes, how many have children, children in all. */
struct kipf_level {
    uint64_t nodes, internal, children;
};

struct kipf_node {
    size_t func;        /* index into profile->funcs */
    uint64_t id;        /* Ball-Larus path ID within that function */
    uint64_t count;     /* times the root-to-here sequence occurred */
    uint32_t depth;     /* roots 0: the sequence has depth + 1 BL paths */
    size_t parent;      /* KIPF_NONE for a root */
    size_t end;         /* the subtree is nodes[self .. end) */
};

/* What `report --k --top N` will list (kipf_paths.h): with it, an
 * in-order forest is read keeping only the nodes that can rank in the
 * first TOP by count or by count x blocks, and their ancestors. */
struct kipf_keep {
    uint64_t top, min_count;
    uint32_t min_length;
};

struct pp_kipf {
    uint32_t k, flags;
    /* kept_only: nodes[] holds only what a kipf_keep asked for (kipf_read.c,
     * "Reading for a ranking"); kept_total is how many nodes of the whole
     * forest its min_count and min_length select. */
    bool kept_only;
    uint64_t kept_total;
    uint64_t threads, events, ksf_nodes, kipf_nodes, hash_ops;
    uint32_t nlevels;
    struct kipf_level *levels;
    uint64_t leaves, leaf_depth_sum, nroots;  /* as the file says (checked) */
    size_t nnodes;                            /* after merging copies */
    struct kipf_node *nodes;
};

struct pp_profile;

/* Reads the body of a KIPF section into p->kipf. Runs after every section
 * was read and copies were merged, since labels refer to TU sections that
 * may come later in the file and to the merged functions. */
bool kipf_read(const unsigned char *body, size_t len, struct pp_profile *p,
               struct pp_error *err);
void kipf_free(struct pp_kipf *k);

/* A sequence's weight: its count times its blocks, saturated. */
static inline uint64_t kipf_weight(uint64_t count, uint64_t blocks)
{
    uint64_t w;
    return __builtin_mul_overflow(count, blocks, &w) ? UINT64_MAX : w;
}

/* The first child of node I, its next sibling (KIPF_NONE when none). */
static inline size_t kipf_first_child(const struct pp_kipf *k, size_t i)
{
    return i + 1 < k->nodes[i].end ? i + 1 : KIPF_NONE;
}

static inline size_t kipf_next_sibling(const struct pp_kipf *k, size_t i)
{
    size_t p = k->nodes[i].parent, e = k->nodes[i].end;
    if (p == KIPF_NONE)
        return e < k->nnodes ? e : KIPF_NONE;
    return e < k->nodes[p].end ? e : KIPF_NONE;
}

/* The root holding (FUNC, ID), or KIPF_NONE. */
size_t kipf_find_root(const struct pp_kipf *k, size_t func, uint64_t id);

#endif
