/* profile-merge-tu.h - adding an input's TU, PROGRAM and STREAM sections
 * to the accumulator (profile-merge.c reads the envelope and calls these
 * with a cursor over one section's bytes). */
#ifndef PATHPROF_RT_PROFILE_MERGE_TU_H
#define PATHPROF_RT_PROFILE_MERGE_TU_H

#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

/* A TU section of profile INPUT; *TU_OUT is the accumulator's TU it went
 * to (a new one when its metadata blob is new, checked against the
 * functions of the other inputs: another build is refused). */
int mg_read_tu(struct pprt_merge *m, struct mg_cur *c, size_t input, size_t *tu_out,
               struct pprt_merge_error *err);
/* The canonical order of the accumulator's TUs, the order they are
 * written in: by metadata blob hash, then length, then bytes.  ORDER[r]
 * is the TU of rank r, RANK[t] the rank of TU t (either may be NULL).
 * Adding TUs never reorders the ones before: the order is the blobs'. */
int mg_rank_tus(const struct pprt_merge *m, size_t *order, uint32_t *rank);
int mg_read_program(struct pprt_merge *m, struct mg_cur *c, struct pprt_merge_error *err);
int mg_read_stream(struct pprt_merge *m, struct mg_cur *c, struct pprt_merge_error *err);

#pragma GCC visibility pop

#endif
