/* probes.h - inserting the path register and the counting probes into one
 * function, from its numbered DAG. */
#ifndef PATHPROF_PROBES_H
#define PATHPROF_PROBES_H

struct pp_dag;
struct pp_layout;

/* Instruments cfun.  COUNTERS is the TU's counter array.  Leaves the
   function in SSA form with virtual operands to be renamed.  */
void pp_instrument (const pp_dag *dag, const pp_layout *lay, tree counters);

#endif
