/* cfg-split.cc - a block split at a condition into two arms and a join
 * (cfg-split.h). */
#include "gcc-headers.h"
#include "cfg-split.h"

std::vector<gcall *>
pp_calls_to (tree fndecl)
{
  std::vector<gcall *> calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi))
          && gimple_call_fndecl (gsi_stmt (gsi)) == fndecl)
        calls.push_back (as_a<gcall *> (gsi_stmt (gsi)));
  return calls;
}

void
pp_split_diamond (basic_block bb, gcond *cond, profile_probability p_true,
                  basic_block *true_bb, basic_block *false_bb)
{
  edge fallthru = split_block (bb, cond);
  basic_block join = fallthru->dest;
  basic_block t = create_empty_bb (bb);
  basic_block f = create_empty_bb (t);
  if (current_loops)
    {
      add_bb_to_loop (t, bb->loop_father);
      add_bb_to_loop (f, bb->loop_father);
    }
  redirect_edge_succ (fallthru, f);
  fallthru->flags = EDGE_FALSE_VALUE;
  fallthru->probability = p_true.invert ();
  edge to_true = make_edge (bb, t, EDGE_TRUE_VALUE);
  to_true->probability = p_true;
  make_single_succ_edge (t, join, EDGE_FALLTHRU);
  make_single_succ_edge (f, join, EDGE_FALLTHRU);
  t->count = bb->count.apply_probability (p_true);
  f->count = bb->count.apply_probability (fallthru->probability);
  *true_bb = t;
  *false_bb = f;
}
