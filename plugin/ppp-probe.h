/* ppp-probe.h - the probe at a path end of a PPP function (count mode). */
#ifndef PATHPROF_PPP_PROBE_H
#define PATHPROF_PPP_PROBE_H

struct pp_layout;

/* Appends to SEQ the counting of the path whose packed register value
   (ppp-plan.h) is V, as a placeholder that pp_ppp_expand turns into the
   probe.  */
void pp_ppp_count_word (gimple_seq *seq, tree v);

/* Expands every placeholder of cfun, laid out as LAY in COUNTERS; the
   others go to HASH_COUNT, the runtime's __pathprof_hash_count.  */
void pp_ppp_expand (const pp_layout *lay, tree counters, tree hash_count);

#endif
