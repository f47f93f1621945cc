/* profile-merge-kipf.h - what the KIPF reader (profile-merge-kipf.c) and
 * the merge walk over the packed forest (profile-merge-kipf-walk.c) share.
 * The packed form is described in profile-merge-state.h. */
#ifndef PATHPROF_RT_PROFILE_MERGE_KIPF_H
#define PATHPROF_RT_PROFILE_MERGE_KIPF_H

#include "bytebuf.h"
#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

/* A node of an input's forest, decoded: TU is the accumulator's TU,
 * SECTION the input's TU section (roots only). */
struct mg_knode {
    uint32_t tu, func;
    uint64_t path_id, count;
    uint32_t nchildren;
    uint32_t section;
};

/* An input's forest, decoded and checked, in the input's own preorder;
 * size[i] counts node i's subtree, itself included. */
struct mg_in_forest {
    struct mg_knode *nodes;
    size_t *size;
    size_t n, cap, size_cap;
    uint64_t nroots;
};

/* The packed forest of M and F merged into a new packed forest, which
 * replaces M's.  RANK: accumulator TU -> canonical rank (mg_rank_tus). */
int mg_kipf_merge(struct pprt_merge *m, const struct mg_in_forest *f, const uint32_t *rank,
                  struct pprt_merge_error *err);

/* K's packed forest appended to B as a KIPF section's forest (roots' TU
 * as RANK gives it). */
void mg_kipf_put_forest(const struct mg_kipf *k, const uint32_t *rank, struct pprt_buf *b);

/* An unsigned LEB128 number of packed (trusted) bytes at *P, which moves on. */
static inline uint64_t mg_packed_uleb(const unsigned char **p)
{
    uint64_t v = 0;
    unsigned shift = 0;
    for (;;) {
        unsigned char byte = *(*p)++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
        shift += 7;
    }
}

#pragma GCC visibility pop

#endif
