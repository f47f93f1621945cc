/* profile-merge-vpp.h - adding an input's VPP section (docs/format.md,
 * tag 8; docs/cli.md, "Merge rules"): per path the timed executions, the
 * total time, the outliers and the second counter's readings add, the
 * basetime is the least and the largest time the largest, the histograms
 * (of times, in buckets every profile shares) add bucket by bucket.  Runs
 * at different sampling rates, with different counters, second counters
 * or outlier thresholds are refused, naming both values. TUMAP maps the
 * input's TU sections, by rank, to the accumulator's TUs. */
#ifndef PATHPROF_RT_PROFILE_MERGE_VPP_H
#define PATHPROF_RT_PROFILE_MERGE_VPP_H

#include "bytebuf.h"
#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

int mg_read_vpp(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                size_t input, struct pprt_merge_error *err);
/* After each input: an input without a VPP section among inputs with one
 * (or the reverse) is refused, whatever order they come in. */
int mg_vpp_check_all(struct pprt_merge *m, size_t input, int had_vpp,
                     struct pprt_merge_error *err);
/* RANK: accumulator TU -> the merged profile's TU section rank. */
int mg_encode_vpp(const struct pprt_merge *m, const uint32_t *rank, struct pprt_buf *b,
                  uint32_t *nsections);
void mg_free_vpp(struct mg_vpp *v);

#pragma GCC visibility pop

#endif
