/* profile-merge-wpp.h - WPP sections: every input thread's grammars kept
 * as a thread of their own, their terminals moved to the merged profile's
 * TU bases (profile-merge-wpp.c says why and how). */
#ifndef PATHPROF_RT_PROFILE_MERGE_WPP_H
#define PATHPROF_RT_PROFILE_MERGE_WPP_H

#include "bytebuf.h"
#include "profile-merge-input.h"
#include "profile-merge-state.h"

#pragma GCC visibility push(hidden)

/* TUMAP maps the input's TU sections, by rank, to the accumulator's TUs. */
int mg_read_wpp(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                struct pprt_merge_error *err);
/* The WPP section; SORTED lists the accumulator's TUs in the order their
 * sections are written.  0, or -1 when out of memory. */
int mg_encode_wpp(const struct pprt_merge *m, const size_t *sorted, struct pprt_buf *b,
                  uint32_t *nsections);
void mg_free_wpp(struct mg_wpp *w);

#pragma GCC visibility pop

#endif
