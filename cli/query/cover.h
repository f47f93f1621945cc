/* cover.h - the hottest paths of a profile that cover a fraction of its
 * flow: what `pathprof select --cover F` writes as interesting paths. */
#ifndef PATHPROF_CLI_COVER_H
#define PATHPROF_CLI_COVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rank.h"
#include "read/profile.h"

/* The fewest paths, hottest first (ties in function order, then by ID),
 * whose counts add up to at least COVER (0 < COVER <= 1) of the profile's
 * path executions; COVER 1 gives every executed path. The result is
 * sorted by function, then by ID; *covered is the sum of its counts. */
bool cover_select(const struct pp_profile *p, double cover, struct ranked_path **out,
                  size_t *n, uint64_t *covered, struct pp_error *err);

#endif
