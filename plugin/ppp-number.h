/* ppp-number.h - preferential path numbering (Vaswani, Nori, Chilimbi,
 * POPL 2007, its Fig. 10): edge weights under which the interesting paths
 * of a Ball-Larus DAG get distinct numbers in a small interval [0, N),
 * while every path keeps its Ball-Larus number in a second register.
 *
 * Plain data in, plain data out: no GCC type, so tests/ppp-number.t can
 * run it on hand-made and random graphs against brute-force enumeration
 * (docs/algorithms.md, "Preferential path numbering"). */
#ifndef PATHPROF_PPP_NUMBER_H
#define PATHPROF_PPP_NUMBER_H

#include <stdint.h>
#include <string>
#include <vector>

/* The table entry of a number no interesting path has (a hole): no
   Ball-Larus ID is that large. */
#define PP_PPP_HOLE UINT64_MAX

struct pp_ppp_edge {
  int src, dst;        /* node numbers; node 0 is ENTRY, node 1 is EXIT */
  uint64_t val;        /* Ball-Larus value */
  bool in_tree;        /* on the spanning tree: the probes add nothing here */
};

struct pp_ppp_result {
  /* Per edge, in the input's order: the PPP weight (the sum over an
     interesting path's edges is its PPP number; arithmetic mod 2^64) and
     the increment actually added on that edge after chord placement over
     the same spanning tree as the Ball-Larus increments (0 on tree edges). */
  std::vector<uint64_t> weight, inc;
  /* N: interesting paths get numbers in [0, N). */
  uint64_t size;
  /* table[p] = the Ball-Larus ID of the interesting path numbered p, or
     PP_PPP_HOLE; N entries. */
  std::vector<uint64_t> table;
  /* last_edge[p] = the index in EDGES of the last edge (into EXIT) of the
     interesting path numbered p, or -1 for a hole; N entries.  */
  std::vector<int> last_edge;
};

/* Numbers the interesting paths IDS (Ball-Larus IDs, any order,
   duplicates allowed) of the DAG of NNODES nodes and EDGES, whose values
   number its paths 0 .. npaths-1 with the decoder's rule (docs/format.md,
   "Decoding a path ID").  False with *WHY set when an ID does not decode
   (at or above npaths). */
bool pp_ppp_number (int nnodes, const std::vector<pp_ppp_edge> &edges,
                    const std::vector<uint64_t> &ids, pp_ppp_result *out,
                    std::string *why);

#endif
