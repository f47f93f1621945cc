/* probes.h - inserting the path register and the counting probes into one
 * function, from its numbered DAG. */
#ifndef PATHPROF_PROBES_H
#define PATHPROF_PROBES_H

struct pp_dag;
struct pp_layout;

/* Instruments cfun.  COUNTERS is the TU's counter array.  Leaves the
   function in SSA form with virtual operands to be renamed.  */
void pp_instrument (const pp_dag *dag, const pp_layout *lay, tree counters);

/* Stream mode: appends to SEQ the emission of one event word EV, as a
   placeholder call that pp_expand_emits later turns into the probe's fast
   path and cold slow path (docs/streaming.md, section 3).  */
void pp_emit_word (gimple_seq *seq, tree ev);

/* The runtime's __pathprof_hash_count, declared once per TU.  */
tree pp_hash_count_decl (void);

/* Splits BB after COND, a gcond just inserted as BB's last statement, into
   a diamond: COND true goes to *TRUE_BB (with probability P_TRUE), false to
   *FALSE_BB, both empty and in BB's loop, and both fall through to the
   rest of BB.  Their counts follow BB's.  Used by the stream probe (slow
   and fast path) and PPP's table check (hit and miss).  */
void pp_split_diamond (basic_block bb, gcond *cond, profile_probability p_true,
                       basic_block *true_bb, basic_block *false_bb);

/* Expands every placeholder of cfun.  */
void pp_expand_emits (void);

#endif
