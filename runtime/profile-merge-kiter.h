/* profile-merge-kiter.h - adding an input's k-iteration sections: the
 * KIPF forest node by node, the KPRUNE bounds conservatively (an input
 * that does not list a sequence adds its floor). TUMAP maps the input's
 * TU sections, by rank, to the accumulator's TUs. */
#ifndef PATHPROF_RT_PROFILE_MERGE_KITER_H
#define PATHPROF_RT_PROFILE_MERGE_KITER_H

#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

int mg_read_kipf(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                 struct pprt_merge_error *err);
int mg_read_kprune(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                   size_t input, struct pprt_merge_error *err);

#pragma GCC visibility pop

#endif
