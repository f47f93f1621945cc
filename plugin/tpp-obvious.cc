/* tpp-obvious.cc - obvious-path elimination (TPP paper, section 4.2.2).
 *
 * A defining edge lies on exactly one hot path; that path is obvious: its
 * count is the defining edge's.  A recording point (a hot edge that ends
 * paths) that no path free of defining edges reaches needs no counter at
 * all, and an edge from which no other recording point can be reached
 * needs no increment: only obvious paths run through it.
 *
 * Which edge counts does the run have?  None of its own: the edge profile
 * is the training run's (the .gcda), and a count derived from it would be
 * the training input's, not this run's.  The paper assumes an edge
 * profiler running alongside; pathprof instead gives each obvious path
 * that is not counted at its end one counter on its defining edge: a
 * constant-address increment, no path register.  The counter is the
 * path's own slot (counter_offset + ID), so the runtime writes it as a
 * path count; the metadata lists which IDs are derived and from which
 * edge.  As in the paper (section 4.3), a cold path that crosses the
 * defining edge is counted there too (the defining edge is defined among
 * hot paths only), and a cold path that ends at an obvious recording
 * point reaches no cold counter.
 *
 * Defining edges that can carry a counter: real edges (returns included)
 * and back edges (exit dummies of a real CFG edge other than EH), not
 * the function's entry edge, entry dummies or terminal edges.  A path
 * thrown into a landing pad is always counted where it ends.  */
#include "gcc-headers.h"
#include "tpp.h"
#include "dag.h"
#include "options.h"
#include "pathprof-abi.h"

#include <algorithm>

typedef unsigned __int128 u128;

static bool
can_define (const pp_edge &e)
{
  if (!e.cfg || e.src == PP_ENTRY)
    return false;
  if (e.kind == PATHPROF_EDGE_REAL)
    return true;
  return e.kind == PATHPROF_EDGE_EXIT_DUMMY && !(e.cfg->flags & EDGE_EH);
}

static bool
eh_end (const pp_edge &e)
{
  return e.kind == PATHPROF_EDGE_EXIT_DUMMY && (e.cfg->flags & EDGE_EH);
}

/* Topological order of the hot graph (every hot edge, no cold one).  */
static std::vector<int>
hot_order (const pp_dag *dag, const std::vector<std::vector<int> > &out)
{
  size_t n = dag->nodes.size ();
  std::vector<int> indeg (n, 0), order, work;
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (!dag->edges[i].cold)
      indeg[dag->edges[i].dst]++;
  for (size_t v = 0; v < n; v++)
    if (!indeg[v])
      work.push_back ((int) v);
  while (!work.empty ())
    {
      int v = work.back ();
      work.pop_back ();
      order.push_back (v);
      for (size_t k = 0; k < out[v].size (); k++)
        if (--indeg[dag->edges[out[v][k]].dst] == 0)
          work.push_back (dag->edges[out[v][k]].dst);
    }
  return order;
}

/* Every hot path from ENTRY to node V, walked backwards: for each, its
   value up to V and the first defining edge found on it (-1 if none).  */
static void
paths_into (const pp_dag *dag, const std::vector<std::vector<int> > &in,
            const std::vector<bool> &defining, int v, uint64_t suffix,
            int def, std::vector<std::pair<uint64_t, int> > *out)
{
  if (v == PP_ENTRY)
    {
      out->push_back (std::make_pair (suffix, def));
      return;
    }
  for (size_t k = 0; k < in[v].size (); k++)
    {
      int ei = in[v][k];
      const pp_edge &e = dag->edges[ei];
      paths_into (dag, in, defining, e.src, suffix + e.val,
                  def < 0 && defining[ei] ? ei : def, out);
    }
}

void
pp_tpp_find_obvious (pp_dag *dag)
{
  dag->derived.clear ();
  for (size_t i = 0; i < dag->edges.size (); i++)
    dag->edges[i].obvious = false;
  if (dag->tpp != PP_TPP_ON || !pp_opts.tpp_obvious || dag->ncuts)
    return;
  size_t n = dag->nodes.size (), m = dag->edges.size ();
  std::vector<std::vector<int> > out (n), in (n);
  for (size_t i = 0; i < m; i++)
    if (!dag->edges[i].cold)
      {
        out[dag->edges[i].src].push_back ((int) i);
        in[dag->edges[i].dst].push_back ((int) i);
      }
  std::vector<int> order = hot_order (dag, out);

  /* Hot paths from ENTRY to each node; from each node to EXIT it is
     npaths, less the cold counter's ID at ENTRY (only ENTRY's count
     includes it, and no edge enters ENTRY).  */
  std::vector<u128> to (n, 0);
  to[PP_ENTRY] = 1;
  for (size_t k = 0; k < order.size (); k++)
    for (size_t j = 0; j < out[order[k]].size (); j++)
      {
        const pp_edge &e = dag->edges[out[order[k]][j]];
        u128 s = to[e.dst] + to[e.src];
        to[e.dst] = s < to[e.dst] ? ~(u128) 0 : s;
      }
  std::vector<bool> defining (m, false);
  for (size_t i = 0; i < m; i++)
    {
      const pp_edge &e = dag->edges[i];
      defining[i] = !e.cold && can_define (e) && to[e.src] == 1
                    && dag->nodes[e.dst].npaths == 1;
    }

  /* Recording points reached from ENTRY without a defining edge count as
     before; the others are obvious (the paper's Figure 8).  */
  std::vector<bool> reached (n, false);
  reached[PP_ENTRY] = true;
  for (size_t k = 0; k < order.size (); k++)
    if (reached[order[k]])
      for (size_t j = 0; j < out[order[k]].size (); j++)
        if (!defining[out[order[k]][j]])
          reached[dag->edges[out[order[k]][j]].dst] = true;
  std::vector<bool> needed (m, false), node_needed (n, false);
  for (size_t k = order.size (); k-- > 0;)
    {
      int v = order[k];
      for (size_t j = 0; j < out[v].size (); j++)
        {
          int ei = out[v][j];
          const pp_edge &e = dag->edges[ei];
          if (e.dst == PP_EXIT)
            needed[ei] = eh_end (e) || (reached[v] && !defining[ei]);
          else
            needed[ei] = node_needed[e.dst];
          node_needed[v] = node_needed[v] || needed[ei];
        }
    }
  for (size_t i = 0; i < m; i++)
    dag->edges[i].obvious = !dag->edges[i].cold && !needed[i];

  /* Each path ending at an obvious recording point has a defining edge.  */
  for (size_t i = 0; i < m; i++)
    {
      const pp_edge &r = dag->edges[i];
      if (r.cold || r.dst != PP_EXIT || !r.obvious)
        continue;
      std::vector<std::pair<uint64_t, int> > paths;
      paths_into (dag, in, defining, r.src, r.val,
                  defining[i] ? (int) i : -1, &paths);
      for (size_t k = 0; k < paths.size (); k++)
        {
          gcc_assert (paths[k].second >= 0);
          dag->derived.push_back (paths[k]);
        }
    }
  std::sort (dag->derived.begin (), dag->derived.end ());
  if (pp_opts.verbose)
    {
      unsigned bare = 0;
      for (size_t i = 0; i < m; i++)
        bare += dag->edges[i].obvious;
      inform (DECL_SOURCE_LOCATION (current_function_decl),
              "pathprof: %qs: %u obvious paths derived from counters on "
              "their defining edges, %u edges without probe",
              function_name (cfun), (unsigned) dag->derived.size (), bare);
    }
}
