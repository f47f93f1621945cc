/* sampling.h - sampling=yes: Arnold and Ryder's dual code.  Each sampled
 * function gets a checking copy (no probes, a countdown check at the entry
 * and on every loop back edge) beside the instrumented original; the
 * checks move control between the two where a Ball-Larus path starts.
 * docs/sampling.md has the design. */
#ifndef PATHPROF_SAMPLING_H
#define PATHPROF_SAMPLING_H

struct pp_dag;
struct pp_dual;

/* NULL when cfun can have a checking copy, else why not (a function with
   abnormal edges: setjmp, nonlocal labels, computed goto).  */
const char *pp_sampling_obstacle (void);

/* After pp_build_dag, before pp_instrument: copies every block of cfun.
   The copy stays unreachable (pp_instrument does not see it) until
   pp_sampling_connect.  */
pp_dual *pp_sampling_copy (const pp_dag *dag);

/* Right after pp_instrument: notes where each instrumented back edge now
   arrives at its loop header.  */
void pp_sampling_instrumented (pp_dual *dual);

/* Puts the checks on the entry edge and on the back edges of both copies
   and frees DUAL.  Leaves SSA names to be updated (update_ssa).  */
void pp_sampling_connect (pp_dual *dual);

#endif
