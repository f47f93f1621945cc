/* tpp-loops.cc - loop disconnection (TPP paper, section 4.2.1).
 *
 * A loop that iterates many times per entry contributes most path
 * counts, but Ball-Larus paths through its entry and its exits tie its
 * body to the code around it, so no path through it is obvious.  TPP(i, j)
 * cuts such a loop loose: when the edges entering its header carry less
 * than j% of the header's flow (an average trip count above 100/j), every
 * entry edge and every exit edge of the loop ends the path that takes it
 * and starts a new one at its target, as a back edge does.  The body's
 * paths then start at the header and end at a back edge or an exit, and
 * the code before and after the loop becomes regions of their own, where
 * obvious-path elimination (tpp-obvious.cc) may find obvious paths.
 *
 * Loops are the natural loops of the back edges dag.cc marked (GCC's loop
 * tree need not be up to date at this point); counts are the edge
 * profile's. */
#include "gcc-headers.h"
#include "tpp.h"
#include "tpp-counts.h"
#include "dag.h"
#include "loop-counts.h"
#include "options.h"
#include "pathprof-abi.h"

/* The DAG edge that is the REAL edge for CFG edge E into a block, or -1.  */
static int
real_edge_of (const pp_dag *dag, edge e)
{
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (dag->edges[i].cfg == e && dag->edges[i].kind == PATHPROF_EDGE_REAL
        && dag->edges[i].dst != PP_EXIT && dag->edges[i].src != PP_ENTRY)
      return (int) i;
  return -1;
}

/* Turns REAL edge EI into the end of a path, and starts paths at its
   target (an entry dummy, created once per node as in dag.cc).  */
static void
truncate_edge (pp_dag *dag, std::vector<int> *entry_dummy, int ei)
{
  pp_edge &e = dag->edges[ei];
  int v = e.dst;
  e.kind = PATHPROF_EDGE_EXIT_DUMMY;
  e.real_dst = v;
  e.dst = PP_EXIT;
  e.weight = INT64_MAX;
  e.disconnected = true;
  if ((*entry_dummy)[v] >= 0)
    return;
  (*entry_dummy)[v] = (int) dag->edges.size ();
  pp_edge d;
  memset (&d, 0, sizeof d);
  d.src = PP_ENTRY;
  d.dst = v;
  d.kind = PATHPROF_EDGE_ENTRY_DUMMY;
  d.real_dst = -1;
  d.weight = INT64_MAX;
  dag->edges.push_back (d);
}

void
pp_tpp_disconnect_loops (pp_dag *dag, std::vector<int> *entry_dummy)
{
  if (dag->tpp != PP_TPP_ON || pp_opts.tpp_j == 0)
    return;
  /* Loops from the back edges (dag.cc marked them), natural ones only: a
     header that does not dominate its latch heads no loop to cut loose.
     The dominators are freed again at the end if they were not there:
     stream mode's probes split blocks without keeping them up to date
     (cfg-split.cc), and update_ssa crashed on the stale tree.  */
  bool had_dominators = dom_info_available_p (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  std::vector<std::vector<basic_block> > latches (last_basic_block_for_fn (cfun));
  std::vector<bool> irreducible (last_basic_block_for_fn (cfun), false);
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if ((e->flags & EDGE_DFS_BACK) && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun))
          {
            if (dominated_by_p (CDI_DOMINATORS, e->src, e->dest))
              latches[e->dest->index].push_back (e->src);
            else
              irreducible[e->dest->index] = true;
          }
    }
  unsigned cut = 0;
  FOR_EACH_BB_FN (bb, cfun)
    {
      if (latches[bb->index].empty () || irreducible[bb->index])
        continue;
      basic_block h = bb;
      std::vector<bool> in_loop = pp_natural_loop_body (h, latches[h->index]);
      gcov_type hc = pp_tpp_block_count (h), in = 0;
      std::vector<edge> ends;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, h->preds)
        if (!in_loop[e->src->index])
          {
            in += pp_tpp_edge_count (e);
            ends.push_back (e);
          }
      if (hc <= 0
          || (unsigned __int128) in * 100
                 >= (unsigned __int128) pp_opts.tpp_j * hc)
        continue;
      basic_block b;
      FOR_EACH_BB_FN (b, cfun)
        if (in_loop[b->index])
          FOR_EACH_EDGE (e, ei, b->succs)
            if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun) || !in_loop[e->dest->index])
              ends.push_back (e);
      for (size_t k = 0; k < ends.size (); k++)
        {
          int di = real_edge_of (dag, ends[k]);
          if (di >= 0)
            truncate_edge (dag, entry_dummy, di);
        }
      cut++;
    }
  if (!had_dominators)
    free_dominance_info (CDI_DOMINATORS);
  if (cut && pp_opts.verbose)
    inform (DECL_SOURCE_LOCATION (current_function_decl),
            "pathprof: %qs: %u loops disconnected (entered less than %u%% "
            "as often as their header runs)", function_name (cfun), cut,
            pp_opts.tpp_j);
}
