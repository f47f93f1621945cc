/* ppp-probe.h - the probe at a path end of a PPP function: counting in
   count mode, the event's index in stream mode. */
#ifndef PATHPROF_PPP_PROBE_H
#define PATHPROF_PPP_PROBE_H

#include "metadata.h"

/* What a count-mode path end knows of the interesting paths that end
   there (LAY's ppp_end_count of DAG edge END_EDGE, -1 when the site is
   not one DAG edge): the number p < N of the only one, N when none ends
   there, N + 1 when several may (the table decides).  */
uint64_t pp_ppp_site (const pp_layout *lay, int end_edge);

/* Appends to SEQ the counting of the path whose packed register value
   (ppp-plan.h) is V at a path end SITE (pp_ppp_site), as a placeholder
   that pp_ppp_expand turns into the probe.  */
void pp_ppp_count_word (gimple_seq *seq, tree v, uint64_t site);

/* Expands every placeholder of cfun, laid out as LAY in COUNTERS; the
   others go to HASH_COUNT, the runtime's __pathprof_hash_count.  */
void pp_ppp_expand (const pp_layout *lay, tree counters, tree hash_count);

/* Stream mode: the register carries START in the top bit of its
   Ball-Larus half, bit ppp_shift - 1 (the event's bit 61 would land in
   the PPP half), so a PPP stream function has at most 2^31 paths
   (ppp-plan.cc).  */
static inline uint64_t
pp_ppp_stream_start (const pp_layout *lay)
{
  return 1ull << (lay->ppp_shift - 1);
}

/* Stream mode: appends to SEQ the computation, from the packed register
   value V at a path end, of the event's index within cfun's range plus
   the START bit: the PPP number q of an interesting path, N + the
   Ball-Larus ID of any other (docs/format.md, "PPP functions").  */
tree pp_ppp_stream_index (gimple_seq *seq, tree v, const pp_layout *lay);

#endif
