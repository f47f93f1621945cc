/* loop-counts.cc - a one-path loop's iterations counted in an induction
 * variable and counted (or, in stream mode, emitted) at its exits (the
 * rationale is in loop-counts.h; docs/algorithms.md proves the counts
 * equal). */
#include "gcc-headers.h"
#include "loop-counts.h"
#include "dag.h"
#include "pathprof-abi.h"

#include <map>

std::vector<bool>
pp_natural_loop_body (basic_block h, const std::vector<basic_block> &latches)
{
  std::vector<bool> in (last_basic_block_for_fn (cfun), false);
  std::vector<basic_block> work (latches);
  in[h->index] = true;
  while (!work.empty ())
    {
      basic_block b = work.back ();
      work.pop_back ();
      if (in[b->index])
        continue;
      in[b->index] = true;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, b->preds)
        if (e->src != ENTRY_BLOCK_PTR_FOR_FN (cfun) && !in[e->src->index])
          work.push_back (e->src);
    }
  return in;
}

namespace {

/* A call that cannot leave the loop other than by returning to it: an
   internal function, or a const or pure built-in that cannot throw.  */
bool
harmless_call_p (gimple *s)
{
  if (gimple_call_internal_p (s))
    return true;
  tree fn = gimple_call_fndecl (s);
  if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    return false;
  int flags = gimple_call_flags (s);
  return (flags & (ECF_CONST | ECF_PURE)) && (flags & ECF_NOTHROW)
         && !(flags & (ECF_RETURNS_TWICE | ECF_NORETURN));
}

/* Whether the statements of BB let its loop keep iterations pending.  */
bool
block_keeps_counts_p (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (is_gimple_debug (s))
        continue;
      if (gimple_code (s) == GIMPLE_ASM || gimple_has_volatile_ops (s))
        return false;
      if (is_gimple_call (s) && !harmless_call_p (s))
        return false;
    }
  return true;
}

/* Fills *OUT with the loop of back edge BACK if it qualifies; false if
   not.  REAL maps a CFG edge to its REAL DAG edge.  */
bool
examine_loop (const pp_dag *dag, const std::map<edge, int> &real, edge back,
              pp_path_loop *out)
{
  basic_block h = back->dest, latch = back->src;
  std::vector<basic_block> latches (1, latch);
  std::vector<bool> in = pp_natural_loop_body (h, latches);
  unsigned nbody = 0;
  basic_block b;
  FOR_EACH_BB_FN (b, cfun)
    {
      if (!in[b->index])
        continue;
      nbody++;
      int v = b->index < (int) dag->node_of_bb.size ()
                  ? dag->node_of_bb[b->index] : -1;
      if (v < 2 || dag->nodes[v].start || dag->nodes[v].eh_pad
          || dag->nodes[v].resume || !block_keeps_counts_p (b))
        return false;
      edge e;
      edge_iterator ei;
      /* One entry: the header.  */
      if (b != h)
        FOR_EACH_EDGE (e, ei, b->preds)
          if (e->src == ENTRY_BLOCK_PTR_FOR_FN (cfun) || !in[e->src->index])
            return false;
      FOR_EACH_EDGE (e, ei, b->succs)
        if ((e->flags & (EDGE_EH | EDGE_ABNORMAL))
            || e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
          return false;
    }
  /* Walk the one path from the header to the latch.  */
  out->header = h;
  out->back = back;
  out->exits.clear ();
  uint64_t d = 0;
  unsigned seen = 0;
  std::vector<bool> visited (in.size (), false);
  for (b = h;;)
    {
      if (visited[b->index])
        return false;
      visited[b->index] = true;
      seen++;
      edge next = NULL, e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, b->succs)
        {
          if (e == back)
            continue;
          if (in[e->dest->index])
            {
              if (next)
                return false;   /* two ways on: more than one path */
              next = e;
            }
          else
            out->exits.push_back (std::make_pair (e, d));
        }
      if (b == latch)
        {
          if (next)
            return false;
          break;
        }
      std::map<edge, int>::const_iterator it = real.find (next);
      if (!next || it == real.end ())
        return false;
      d += dag->edges[it->second].inc;
      b = next->dest;
    }
  out->to_latch = d;
  return seen == nbody && !out->exits.empty ();
}

} // namespace

std::vector<pp_path_loop>
pp_single_path_loops (const pp_dag *dag)
{
  std::map<edge, int> real;
  std::vector<edge> backs;
  std::map<basic_block, unsigned> backs_into;
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      const pp_edge &e = dag->edges[i];
      if (e.kind == PATHPROF_EDGE_REAL && e.src != PP_ENTRY && e.dst != PP_EXIT)
        real[e.cfg] = (int) i;
      /* An exit dummy into a node that is not a start node replaces a
         back edge (into a start node: a cut, or an abnormal edge).  */
      else if (e.kind == PATHPROF_EDGE_EXIT_DUMMY && e.cfg
               && !(e.cfg->flags & (EDGE_EH | EDGE_ABNORMAL))
               && e.real_dst >= 2 && !dag->nodes[e.real_dst].start)
        {
          backs.push_back (e.cfg);
          backs_into[e.cfg->dest]++;
        }
    }
  std::vector<pp_path_loop> loops;
  for (size_t i = 0; i < backs.size (); i++)
    {
      pp_path_loop l;
      if (backs_into[backs[i]->dest] == 1
          && examine_loop (dag, real, backs[i], &l))
        loops.push_back (l);
    }
  return loops;
}

pp_loop_rewrite
pp_count_at_exits (const pp_path_loop &loop, uint64_t first_inc,
                   uint64_t reset, pp_exit_count_fn count_fn, void *ctx)
{
  pp_loop_rewrite rw;
  rw.header = loop.header;
  rw.k = make_temp_ssa_name (uint64_type_node, NULL, "pp_k");
  rw.k_next = make_temp_ssa_name (uint64_type_node, NULL, "pp_k");
  rw.r_pre = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
  tree one = build_int_cstu (uint64_type_node, 1);

  /* The back edge: k + 1.  */
  rw.back_block = split_edge (loop.back);
  gimple_stmt_iterator gsi = gsi_last_bb (rw.back_block);
  gsi_insert_after (&gsi, gimple_build_assign (rw.k_next, PLUS_EXPR, rw.k, one),
                    GSI_NEW_STMT);

  for (size_t i = 0; i < loop.exits.size (); i++)
    {
      /* exit -> TEST (k != 0) -> COUNT -> AFTER -> the old destination;
         TEST -> AFTER when k == 0.  */
      edge ex = loop.exits[i].first;
      basic_block test = split_edge (ex);
      basic_block after = split_edge (single_succ_edge (test));
      basic_block count = split_edge (single_succ_edge (test));
      edge to_count = single_succ_edge (test);
      to_count->flags &= ~EDGE_FALLTHRU;
      to_count->flags |= EDGE_TRUE_VALUE;
      to_count->probability = profile_probability::likely ();
      edge skip = make_edge (test, after, EDGE_FALSE_VALUE);
      skip->probability = to_count->probability.invert ();
      count->count = test->count.apply_probability (to_count->probability);
      gsi = gsi_last_bb (test);
      gsi_insert_after (&gsi, gimple_build_cond (NE_EXPR, rw.k,
                                                 build_zero_cst (uint64_type_node),
                                                 NULL_TREE, NULL_TREE),
                        GSI_NEW_STMT);

      /* The first iteration's path once, the later ones k - 1 times.  */
      gimple_seq seq = NULL;
      tree first = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
      gimple_seq_add_stmt (&seq, gimple_build_assign (
          first, PLUS_EXPR, rw.r_pre, build_int_cstu (uint64_type_node, first_inc)));
      tree later = make_temp_ssa_name (uint64_type_node, NULL, "pp_k");
      gimple_seq_add_stmt (&seq, gimple_build_assign (later, MINUS_EXPR, rw.k, one));
      count_fn (&seq, first, later, ctx);
      gsi = gsi_last_bb (count);
      gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);

      /* r at the exit's source, as the body would have had it.  */
      tree at_header = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
      gphi *phi = create_phi_node (at_header, after);
      add_phi_arg (phi, build_int_cstu (uint64_type_node, reset),
                   single_succ_edge (count), UNKNOWN_LOCATION);
      add_phi_arg (phi, rw.r_pre, skip, UNKNOWN_LOCATION);
      pp_loop_rewrite::exit_site site;
      site.old_exit = ex;
      site.new_exit = single_succ_edge (after);
      site.block = after;
      site.r_at = at_header;
      if (loop.exits[i].second)
        {
          site.r_at = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
          gsi = gsi_last_bb (after);
          gsi_insert_after (&gsi, gimple_build_assign (
              site.r_at, PLUS_EXPR, at_header,
              build_int_cstu (uint64_type_node, loop.exits[i].second)),
                            GSI_NEW_STMT);
        }
      rw.exits.push_back (site);
    }
  return rw;
}
