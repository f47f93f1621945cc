/* tpp.cc - targeted path profiling: which DAG edges are cold (docs/tpp.md).
 *
 * The edge profile is GCC's own (our pass runs right after GCC's "profile"
 * pass, so with -fprofile-use every block and edge count is the count read
 * from the .gcda file for exactly this CFG) or an earlier pathprof profile
 * (edge-profile=FILE); tpp-counts.cc gives either.  An edge is cold by the
 * paper's local criterion when it carries less than I% of its source
 * block's flow; an edge (or block) is then cold transitively when no
 * ENTRY->EXIT path of non-cold edges goes through it.  Cold edges are not
 * numbered (dag.cc skips them), so the IDs of the hot paths are dense
 * and one more ID, the last, is the cold counter. */
#include "gcc-headers.h"
#include "tpp.h"
#include "tpp-counts.h"
#include "dag.h"
#include "options.h"
#include "pathprof-abi.h"

#include <map>
#include <stdlib.h>

/* The local criterion: E carries less than I% of its source's flow.  A
   block that never ran has no flow to divide: none of its edges is cold
   by itself (they become cold transitively when every way in is).  */
static bool
cold_by_criterion (edge e)
{
  gcov_type src = pp_tpp_block_count (e->src);
  gcov_type n = pp_tpp_edge_count (e);
  return src > 0
         && (unsigned __int128) n * 100 < (unsigned __int128) pp_opts.tpp_i * src;
}

/* An entry dummy into V is cold when every way a path can start at V is:
   V's predecessors that end a path (back edges, edges into a start node,
   EH edges) are all cold exit dummies, and none of them is an abnormal
   edge, which no exit dummy stands for.  */
static bool
entry_dummy_cold (const pp_dag *dag, int v,
                  const std::map<edge, int> &exit_dummy_of)
{
  basic_block bb = dag->nodes[v].bb;
  bool any = false;
  edge p;
  edge_iterator ei;
  FOR_EACH_EDGE (p, ei, bb->preds)
    {
      std::map<edge, int>::const_iterator it = exit_dummy_of.find (p);
      if (it == exit_dummy_of.end ())
        {
          if (p->flags & (EDGE_ABNORMAL | EDGE_EH))
            return false;
          continue;
        }
      if (!dag->edges[it->second].cold)
        return false;
      any = true;
    }
  return any;
}

/* Marks every edge that lies on no ENTRY->EXIT path of criterion-hot edges
   (the transitive closure of coldness).  */
static void
close_cold (pp_dag *dag)
{
  size_t n = dag->nodes.size ();
  std::vector<std::vector<int> > out (n), in (n);
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (!dag->edges[i].cold)
      {
        out[dag->edges[i].src].push_back ((int) i);
        in[dag->edges[i].dst].push_back ((int) i);
      }
  std::vector<bool> fwd (n, false), bwd (n, false);
  std::vector<int> work;
  fwd[PP_ENTRY] = true;
  work.push_back (PP_ENTRY);
  while (!work.empty ())
    {
      int u = work.back ();
      work.pop_back ();
      for (size_t k = 0; k < out[u].size (); k++)
        {
          int v = dag->edges[out[u][k]].dst;
          if (!fwd[v])
            {
              fwd[v] = true;
              work.push_back (v);
            }
        }
    }
  bwd[PP_EXIT] = true;
  work.push_back (PP_EXIT);
  while (!work.empty ())
    {
      int v = work.back ();
      work.pop_back ();
      for (size_t k = 0; k < in[v].size (); k++)
        {
          int u = dag->edges[in[v][k]].src;
          if (!bwd[u])
            {
              bwd[u] = true;
              work.push_back (u);
            }
        }
    }
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      pp_edge &e = dag->edges[i];
      e.cold = e.cold || !fwd[e.src] || !bwd[e.dst];
    }
}

void
pp_tpp_mark_cold (pp_dag *dag, std::vector<int> *entry_dummy)
{
  dag->tpp = PP_TPP_OFF;
  if (!pp_opts.tpp)
    return;
  if (!pp_tpp_counts_known ())
    {
      dag->tpp = PP_TPP_NOPROFILE;
      if (pp_opts.verbose && pp_opts.edge_profile)
        inform (DECL_SOURCE_LOCATION (current_function_decl),
                "pathprof: %qs has no edge profile (not in %s): plain "
                "Ball-Larus paths", function_name (cfun), pp_opts.edge_profile);
      else if (pp_opts.verbose)
        inform (DECL_SOURCE_LOCATION (current_function_decl),
                "pathprof: %qs has no edge profile (compile with "
                "%<-fprofile-use%> after a %<-fprofile-generate%> run): "
                "plain Ball-Larus paths", function_name (cfun));
      return;
    }
  dag->tpp = PP_TPP_ON;
  /* The spanning tree keeps increments off the frequent edges by their
     weight, GCC's count (dag.cc): with edge-profile=FILE, GCC's counts
     are guesses, FILE's are measured.  */
  if (pp_opts.edge_profile)
    for (size_t i = 0; i < dag->edges.size (); i++)
      {
        pp_edge &e = dag->edges[i];
        if (e.kind == PATHPROF_EDGE_REAL && e.cfg && e.src != PP_ENTRY
            && e.dst != PP_EXIT)
          e.weight = pp_tpp_edge_count (e.cfg);
      }
  pp_tpp_disconnect_loops (dag, entry_dummy);
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      pp_edge &e = dag->edges[i];
      e.cold = false;
      if (e.cfg && e.src != PP_ENTRY
          && (e.kind == PATHPROF_EDGE_REAL || e.kind == PATHPROF_EDGE_EXIT_DUMMY))
        e.cold = cold_by_criterion (e.cfg);
    }
  std::map<edge, int> exit_dummy_of;
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (dag->edges[i].kind == PATHPROF_EDGE_EXIT_DUMMY)
      exit_dummy_of[dag->edges[i].cfg] = (int) i;
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      pp_edge &e = dag->edges[i];
      if (e.kind == PATHPROF_EDGE_ENTRY_DUMMY)
        e.cold = entry_dummy_cold (dag, e.dst, exit_dummy_of);
    }
  close_cold (dag);
}

void
pp_tpp_after_cut (pp_dag *dag, int w, int d)
{
  if (dag->tpp != PP_TPP_ON)
    return;
  /* A cut node was no start node, so D is new: no abnormal edge enters W,
     and the edges ending at W are the REAL ones the cut just turned.  */
  bool hot = false;
  for (size_t i = 0; i < dag->edges.size () && !hot; i++)
    {
      const pp_edge &e = dag->edges[i];
      hot = e.kind == PATHPROF_EDGE_EXIT_DUMMY && e.real_dst == w && !e.cold;
    }
  dag->edges[d].cold = !hot;
}

/* After numbering: the H hot IDs are followed by the cold region, H + 1
   IDs (tpp.h), or, when no edge is cold, by one cold ID that stays 0;
   then the obvious paths.  */
static void
after_numbering (pp_dag *dag)
{
  if (dag->tpp == PP_TPP_ON)
    dag->npaths = pp_tpp_has_cold (dag) ? 2 * dag->npaths + 1 : dag->npaths + 1;
  pp_tpp_find_obvious (dag);
}

uint64_t
pp_tpp_cold_id (const pp_dag *dag)
{
  return (uint64_t) (pp_tpp_has_cold (dag) ? (dag->npaths - 1) / 2
                                           : dag->npaths - 1);
}

const pp_dag_hooks pp_tpp_hooks = {
  pp_tpp_mark_cold, pp_tpp_after_cut, after_numbering
};

bool
pp_tpp_has_cold (const pp_dag *dag)
{
  if (dag->tpp != PP_TPP_ON)
    return false;
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (dag->edges[i].cold)
      return true;
  return false;
}

uint32_t
pp_tpp_flags (const pp_dag *dag)
{
  if (dag->tpp == PP_TPP_ON)
    return PATHPROF_FN_TPP | (dag->derived.empty () ? 0 : PATHPROF_FN_TPP_DERIVED);
  if (dag->tpp == PP_TPP_NOPROFILE)
    return PATHPROF_FN_TPP_NOPROFILE;
  return 0;
}

uint32_t
pp_tpp_config (const pp_dag *dag)
{
  if (dag->tpp == PP_TPP_OFF)
    return 0;
  return PATHPROF_TPP_CONFIG (pp_opts.tpp_i, pp_opts.tpp_j)
         | (pp_opts.edge_profile ? PATHPROF_TPP_FROM_PATHPROF : 0)
         | (pp_tpp_has_cold (dag) ? PATHPROF_TPP_COLD_REGION : 0);
}
