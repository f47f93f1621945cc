/* residual.h - residual paths: the paths that ran in one profile and
 * never in another (the PPP paper's residual path profiling: what ran in
 * production that testing never ran). */
#ifndef PATHPROF_CLI_RESIDUAL_H
#define PATHPROF_CLI_RESIDUAL_H

#include <stdbool.h>
#include <stddef.h>

#include "func_match.h"
#include "rank.h"
#include "read/profile.h"

/* The recorded paths of A that B never ran, by descending count (ties in
 * A's function order, then by ID). MATCH is func_match(A, B). A function
 * absent from B counts as never run there; one whose checksum changed is
 * left out (its IDs mean other paths in B; the caller lists it). */
bool residual_collect(const struct pp_profile *a, const struct pp_profile *b,
                      const struct func_match *match, struct ranked_path **out, size_t *n,
                      struct pp_error *err);

#endif
