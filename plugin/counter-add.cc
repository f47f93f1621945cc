/* counter-add.cc - the counter update of counting mode's array counters,
 * shared by the path-end probes (probes.cc) and the loop exits that add a
 * loop's pending iterations (loop-counts.cc). */
#include "gcc-headers.h"
#include "counter-add.h"

void
pp_add_to_counter (gimple_seq *seq, tree counters, tree index, tree amount,
                   bool atomic)
{
  tree ref = build4 (ARRAY_REF, uint64_type_node, counters, index,
                     NULL_TREE, NULL_TREE);
  if (atomic)
    {
      tree addr = build_fold_addr_expr (ref);
      if (!is_gimple_val (addr))
        {
          tree p = make_temp_ssa_name (TREE_TYPE (addr), NULL, "pp_ctr");
          gimple_seq_add_stmt (seq, gimple_build_assign (p, addr));
          addr = p;
        }
      /* The last argument is __ATOMIC_RELAXED: counts need no ordering.  */
      tree f = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      gimple_seq_add_stmt (seq, gimple_build_call (f, 3, addr, amount,
                                                   integer_zero_node));
      return;
    }
  tree old = make_temp_ssa_name (uint64_type_node, NULL, "pp_ctr");
  tree sum = make_temp_ssa_name (uint64_type_node, NULL, "pp_ctr");
  gimple_seq_add_stmt (seq, gimple_build_assign (old, ref));
  gimple_seq_add_stmt (seq, gimple_build_assign (sum, PLUS_EXPR, old, amount));
  gimple_seq_add_stmt (seq, gimple_build_assign (unshare_expr (ref), sum));
}
