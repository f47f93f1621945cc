/* kipf_paths.h - the k-iteration paths of a profile's k-IPF, ranked like
 * the BL paths of `pathprof report`: by count, and by count x length, the
 * length being the blocks summed over the sequence's BL paths (a sequence
 * of four short paths may cost less than one long one). */
#ifndef PATHPROF_CLI_KIPF_PATHS_H
#define PATHPROF_CLI_KIPF_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/kipf.h"
#include "read/profile.h"

/* What `report --k` lists. */
struct kipf_options {
    const bool *selected;   /* per profile function, NULL: all */
    uint64_t top;           /* per table (text) or in all (JSON); 0: all */
    uint64_t min_count;     /* sequences that occurred fewer times are left out */
    uint32_t min_length;    /* in BL paths: 2 by default, 1 adds single BL paths */
};

struct kpath {
    size_t node;            /* the k-IPF node that ends the sequence */
    uint32_t length;        /* BL paths (node depth + 1) */
    uint64_t blocks;        /* summed over its BL paths */
    uint64_t count;
    uint64_t weight;        /* count x blocks, saturated at UINT64_MAX */
};

/* The sequences O selects (*TOTAL of them), each decoded once for its
 * length in blocks; an ID that does not decode fails with err set (the
 * reader prevents it).  With O->top, only the *N that can rank in the
 * first O->top by count or by count x length are returned (ties
 * included), else all *TOTAL. */
bool kpaths_collect(const struct pp_profile *p, const struct kipf_options *o,
                    struct kpath **out, size_t *n, size_t *total, struct pp_error *err);

/* Highest first; ties in forest order (function, then IDs).  Only the
 * first TOP are ranked (0: all); the others follow in no order. */
void kpaths_by_count(struct kpath *paths, size_t n, uint64_t top);
void kpaths_by_weight(struct kpath *paths, size_t n, uint64_t top);

/* The nodes from the root down to NODE into OUT (room for k); their number. */
uint32_t kpath_nodes(const struct pp_kipf *k, size_t node, size_t *out);

#endif
