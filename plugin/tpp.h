/* tpp.h - targeted path profiling (TPP, docs/tpp.md): an edge profile
 * (GCC's -fprofile-use counts, read by GCC's "profile" pass just before
 * ours) marks the cold edges of each DAG before numbering, so only hot
 * paths get IDs; a path through a cold edge poisons the path register and
 * is counted in the function's one cold counter, the last path ID. */
#ifndef PATHPROF_TPP_H
#define PATHPROF_TPP_H

#include <stdint.h>
#include <vector>

struct pp_dag;
struct pp_dag_hooks;

/* pp_dag::tpp */
enum {
  PP_TPP_OFF = 0,        /* plain Ball-Larus */
  PP_TPP_ON = 1,         /* cold edges removed; ID npaths - 1 is the cold counter */
  PP_TPP_NOPROFILE = 2   /* tpp asked for, but the function has no edge
                            profile: plain Ball-Larus, and the profile says so */
};

/* The poisoned path register: a cold edge into node V sets r to
   H - pot(V), H the number of hot IDs, so the path's end computes H plus
   the rest of its value (exactly, in 64-bit arithmetic), which is below
   the number of hot paths from V, at most H: every poisoned path lands in
   the cold region H..2H (PATHPROF_TPP_COLD_REGION), counted by the same
   probe as a hot path, no clamp.  Hot IDs stay below PP_TPP_MAX_PATHS
   (options.h, which parses tpp=I,J).  */

/* The first cold ID, H: where a poisoned register's path ends at the
   least, and the one counter a path ending on a cold edge bumps.  */
uint64_t pp_tpp_cold_id (const pp_dag *dag);

/* The hooks pass.cc gives pp_build_dag with tpp (the three below, plus
   the cold counter's ID after numbering).  */
extern const pp_dag_hooks pp_tpp_hooks;

/* Sets dag->tpp and, with an edge profile, disconnects the loops that
   tpp=I,J says (pp_tpp_disconnect_loops) and sets the cold flag of every
   DAG edge on no hot ENTRY->EXIT path.  Call after the DAG's edges exist
   and before numbering; ENTRY_DUMMY maps a node to its entry dummy.  */
void pp_tpp_mark_cold (pp_dag *dag, std::vector<int> *entry_dummy);

/* Loop disconnection (tpp-loops.cc): with dag->tpp on and J > 0, the
   entry and exit edges of every loop that iterates more than 100/J times
   per entry end paths, as back edges do (called by pp_tpp_mark_cold).  */
void pp_tpp_disconnect_loops (pp_dag *dag, std::vector<int> *entry_dummy);

/* After cut_node made W a start node whose entry dummy is edge D: D is
   hot when some edge now ending a path at W is.  */
void pp_tpp_after_cut (pp_dag *dag, int w, int d);

/* Obvious-path elimination (tpp-obvious.cc): after numbering, marks the
   edges only obvious paths run through and fills dag->derived.  */
void pp_tpp_find_obvious (pp_dag *dag);

/* True when some edge of DAG is cold, so the probes need the poison (and
   the function has the cold region).  */
bool pp_tpp_has_cold (const pp_dag *dag);

/* Directory flags (PATHPROF_FN_TPP*) and the configuration word of the
   directory entry (docs/format.md).  */
uint32_t pp_tpp_flags (const pp_dag *dag);
uint32_t pp_tpp_config (const pp_dag *dag);

#endif
