/* rank.h - the recorded paths of a profile, ranked two ways: by count and
 * by count x length (blocks), which estimates the time spent in a path
 * better than the count alone. */
#ifndef PATHPROF_CLI_RANK_H
#define PATHPROF_CLI_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/profile.h"

struct ranked_path {
    size_t func;       /* index into profile->funcs */
    uint64_t id;
    uint64_t count;
    uint32_t length;   /* blocks */
    uint64_t weight;   /* count x length, saturated at UINT64_MAX */
};

/* Every recorded path of the functions with SELECTED[i] (all when NULL),
 * decoded once to learn its length; a path that does not decode fails with
 * err naming the function. */
bool rank_collect(const struct pp_profile *p, const bool *selected,
                  struct ranked_path **out, size_t *n, struct pp_error *err);

/* Highest first; ties in profile order, then by ascending ID. */
void rank_by_count(struct ranked_path *paths, size_t n);
void rank_by_weight(struct ranked_path *paths, size_t n);

#endif
