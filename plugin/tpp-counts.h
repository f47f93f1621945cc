/* tpp-counts.h - the edge profile TPP reads (docs/tpp.md): GCC's own
 * -fprofile-use counts, or an earlier pathprof profile of the same source
 * (edge-profile=FILE, edge-profile.h).  tpp.cc and tpp-loops.cc ask here,
 * never GCC's bb->count directly. */
#ifndef PATHPROF_TPP_COUNTS_H
#define PATHPROF_TPP_COUNTS_H

#include "gcc-headers.h"

/* Before pass.cc builds cfun's TPP DAG: with edge-profile=FILE, finds
   cfun in FILE (loaded on first use) by its NAME (pp_meta_function_name),
   its file and CHECKSUM, that of its plain Ball-Larus DAG (numbered
   without TPP, as the profiled build numbered it).  False after error ()
   when FILE is unreadable or the function changed since FILE was
   profiled; the function is then not instrumented.  Without FILE, only
   forgets the previous function.  */
bool pp_tpp_counts_begin (const char *name, uint64_t checksum);

/* Whether cfun has an edge profile: GCC's (PROFILE_READ) or FILE's.
   Without it TPP numbers the function as plain Ball-Larus.  */
bool pp_tpp_counts_known (void);

/* How often E, and BB, ran in the training run; 0 when unknown.  */
gcov_type pp_tpp_edge_count (edge e);
gcov_type pp_tpp_block_count (basic_block bb);

/* "GCC's -fprofile-use" or "FILE": for messages.  */
const char *pp_tpp_counts_source (void);

#endif
