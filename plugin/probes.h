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
/* The same for a path event; with vpp=yes a call to the runtime, which
   ends the timing of a sampled path (docs/vpp.md).  */
void pp_emit_path (gimple_seq *seq, tree ev);
/* Whether the function being instrumented is timed (vpp=yes and it has a
   checking copy; one without runs instrumented always and emits inline).  */
extern bool pp_vpp_timed;

/* The runtime's __pathprof_hash_count, declared once per TU.  */
tree pp_hash_count_decl (void);

/* Expands every placeholder of cfun.  */
void pp_expand_emits (void);

/* Count mode, hash-mode functions: the placeholder of a path end's count
   (slot, ID), and its expansion into the inline probe (hash-probe.cc).  */
tree pp_hash_placeholder_decl (void);
void pp_expand_hash_counts (void);
/* What a hash-mode count calls: the placeholder, or under ThreadSanitizer
   the runtime itself.  */
tree pp_hash_count_fn (void);

#endif
