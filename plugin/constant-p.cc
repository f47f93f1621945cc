/* constant-p.cc - every __builtin_constant_p of an instrumented function
 * gets its answer before the function is numbered.
 *
 * The pass runs before the IPA passes.  GCC leaves a __builtin_constant_p
 * whose argument is not a constant yet unanswered until after inlining
 * and IPA-CP, and the answer then depends on where the function's body
 * ended up: a copy inlined into a caller that passes a constant answers
 * 1, an out-of-line copy 0.  Both branches are already in the numbered
 * CFG, so which path a call takes depended on those decisions, and they
 * differ between builds of one source: sampling=yes doubles every call
 * site and makes the instrumented copy's cold, so GCC inlines and clones
 * otherwise than in a counting build.  glibc's fwrite_unlocked is such a
 * branch (bits/stdio.h: a putc loop for a constant size of at most 8
 * bytes, else the call); GNU sed's ck_fwrite.part.0 took the loop in the
 * counting build and the call in the sampled one's instrumented copy
 * (docs/perfctl.md, finding 5), while its checking copy could take the
 * loop: the sampled profile described code that the checking copy does
 * not run.  (tests/sampling-constant-p.t.)
 *
 * So the answer is 0, now, for every mode: what GCC answers at -O0 and
 * what it may always answer (the builtin promises nothing when it says
 * 0).  A program's result cannot change; a build loses the branches that
 * only inlining would have made constant, as an -O0 build does.  The CFG
 * is left as it is (GCC removes the dead branch later), so the numbering
 * and the checksum are those of the body as it was.  */
#include "gcc-headers.h"
#include "constant-p.h"

unsigned
pp_settle_constant_p (void)
{
  unsigned n = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (!gimple_call_builtin_p (stmt, BUILT_IN_CONSTANT_P)
            || gimple_call_num_args (stmt) != 1
            || is_gimple_min_invariant (gimple_call_arg (stmt, 0)))
          continue;
        tree lhs = gimple_call_lhs (stmt);
        if (!lhs)
          continue;
        gsi_replace (&gsi, gimple_build_assign (lhs, build_zero_cst (TREE_TYPE (lhs))),
                     false);
        n++;
      }
  /* The call graph had an edge for each call.  */
  if (n)
    cgraph_edge::rebuild_edges ();
  return n;
}
