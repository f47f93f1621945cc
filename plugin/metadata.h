/* metadata.h - the per-TU metadata blob (docs/format.md, section 2), and
 * the globals and constructor that hand it to the runtime. */
#ifndef PATHPROF_METADATA_H
#define PATHPROF_METADATA_H

#include <stdint.h>
#include <vector>

struct pp_dag;

/* Layout of one instrumented function's counters in the TU array.  */
struct pp_layout {
  uint64_t counter_offset;
  uint64_t verify_offset;
  uint32_t flags;                     /* PATHPROF_FN_* */
  uint32_t fn_index;                  /* index in the TU directory */
  std::vector<edge> verify_edges;     /* real CFG edges counted directly */
  std::vector<std::pair<int, int> > verify_nodes;  /* their DAG nodes */
  /* PATHPROF_FN_PPP (ppp-plan.cc): N, the Ball-Larus ID of each PPP
     number, and per DAG edge the PPP increment.  */
  uint64_t ppp_size;
  std::vector<uint64_t> ppp_table;
  std::vector<uint64_t> ppp_inc;
  /* The register is PPP number * 2^ppp_shift + Ball-Larus half
     (pp_ppp_pack); stream mode keeps START in the half's top bit.  */
  unsigned ppp_shift;
  /* Per DAG edge into EXIT: how many interesting paths end with it (0, 1
     or 2 meaning "more"), and the number of the one when there is one:
     that path end's probe compares the register with one constant
     (ppp-probe.cc).  Empty when the function is not PPP.  */
  std::vector<unsigned char> ppp_end_count;
  std::vector<uint64_t> ppp_end_number;
  /* Stream mode, TPP with obvious paths: the counter of the function's
     derived path i is bases[PATHPROF_STREAM_DERIVED_BASE + derived_slot
     + i] (docs/format.md, section 1).  */
  uint64_t derived_slot;
};

/* The name the directory records for cfun, and its CFG checksum.  */
const char *pp_meta_function_name (void);
uint64_t pp_meta_checksum (const char *name, const pp_dag *dag);

/* Appends the directory entry and detail record of cfun.  */
void pp_meta_add_function (const pp_dag *dag, const pp_layout *lay);

/* Creates the TU's run-time storage and returns it: in count mode the
   zero-initialised array of NCOUNTERS counters the probes index into; in
   stream mode the two bases the runtime assigns (docs/streaming.md), with
   NCOUNTERS the TU's number of global path indices, followed (from
   PATHPROF_STREAM_DERIVED_BASE) by NDERIVED counters of TPP's obvious
   paths when NDERIVED is not 0.  */
tree pp_meta_counters (uint64_t ncounters, uint64_t nderived);

/* Emits the blob, and a constructor and destructor registering it with the
   runtime.  Call once, after every function has been added.  */
void pp_meta_finish (void);

#endif
