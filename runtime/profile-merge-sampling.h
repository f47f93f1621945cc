/* profile-merge-sampling.h - adding an input's SAMPLING section to the
 * accumulator: profiles of one sampling rate pool, other rates are refused
 * (profile-merge-sampling.c says why). */
#ifndef PATHPROF_RT_PROFILE_MERGE_SAMPLING_H
#define PATHPROF_RT_PROFILE_MERGE_SAMPLING_H

#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

int mg_read_sampling(struct pprt_merge *m, struct mg_cur *c, size_t input,
                     struct pprt_merge_error *err);

#pragma GCC visibility pop

#endif
