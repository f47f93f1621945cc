/* cfg-split.h - what the probe modules that expand placeholders share
 * (emit.cc, ppp-probe.cc, hash-probe.cc): finding a placeholder's calls,
 * and the one CFG edit, a block split at a condition into two arms and a
 * join.  Kept in a file of its own so that they use it without depending
 * on each other. */
#ifndef PATHPROF_CFG_SPLIT_H
#define PATHPROF_CFG_SPLIT_H

#include <vector>

/* Splits BB after COND, a gcond just inserted as BB's last statement, into
   a diamond: COND true goes to *TRUE_BB (with probability P_TRUE), false to
   *FALSE_BB, both empty and in BB's loop, and both fall through to the
   rest of BB.  Their counts follow BB's.  Used by the stream probe (slow
   and fast path) and PPP's table check (hit and miss).  */
void pp_split_diamond (basic_block bb, gcond *cond, profile_probability p_true,
                       basic_block *true_bb, basic_block *false_bb);

/* The calls of cfun to FNDECL, in block order: collected first, because
   expanding one splits its block.  */
std::vector<gcall *> pp_calls_to (tree fndecl);

#endif
