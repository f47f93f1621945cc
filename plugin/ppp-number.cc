/* ppp-number.cc - preferential path numbering (see ppp-number.h).
 *
 * The algorithm is the paper's computePPPIncrements (Fig. 10).  Nodes are
 * visited in reverse topological order; at node v every outgoing edge e
 * carrying interesting paths gets the weight
 *
 *     W(e) = max over prefixes q of the paths through e of (cis(q) - min_q)
 *
 * where min_q is the smallest partial number (the sum of the weights from
 * dst(e) on) of the paths through e with prefix q, and cis(q) the size of
 * the intervals that q's paths already occupy on v's earlier edges.  The
 * maximum is the paper's join: one weight per edge must separate every
 * prefix's intervals, at the cost of holes for all but the neediest.
 * Paths of one prefix never overlap on two edges (its Lemma 5), so the
 * interesting paths end with distinct numbers, in [0, cis(ENTRY's prefix)).
 *
 * A prefix (the path from ENTRY to v) is named by the sum of Ball-Larus
 * values along it, which is unique among the prefixes ending at v (as the
 * paper's implementation does).  Edges no interesting path takes keep
 * weight 0: the paths through them are told apart by their Ball-Larus
 * number, which the probe compares with the table. */
#include "ppp-number.h"

#include <algorithm>
#include <map>
#include <stdio.h>

namespace {

struct graph {
  int n;
  const std::vector<pp_ppp_edge> *edges;
  std::vector<std::vector<int> > out;   /* per node, edges by ascending val */
};

bool
by_val (const std::pair<uint64_t, int> &a, const std::pair<uint64_t, int> &b)
{
  return a.first < b.first || (a.first == b.first && a.second < b.second);
}

void
build_out (graph *g)
{
  std::vector<std::vector<std::pair<uint64_t, int> > > tmp (g->n);
  for (size_t i = 0; i < g->edges->size (); i++)
    tmp[(*g->edges)[i].src].push_back (std::make_pair ((*g->edges)[i].val, (int) i));
  g->out.assign (g->n, std::vector<int> ());
  for (int v = 0; v < g->n; v++)
    {
      std::sort (tmp[v].begin (), tmp[v].end (), by_val);
      for (size_t k = 0; k < tmp[v].size (); k++)
        g->out[v].push_back (tmp[v][k].second);
    }
}

/* The edges of path ID, ENTRY to EXIT; false when ID does not decode. */
bool
decode (const graph &g, uint64_t id, std::vector<int> *path)
{
  uint64_t r = id;
  int v = 0;
  path->clear ();
  while (v != 1)
    {
      const std::vector<int> &o = g.out[v];
      int pick = -1;
      for (size_t k = 0; k < o.size (); k++)
        if ((*g.edges)[o[k]].val <= r)
          pick = o[k];
      if (pick < 0 || (int) path->size () >= g.n)
        return false;
      r -= (*g.edges)[pick].val;
      path->push_back (pick);
      v = (*g.edges)[pick].dst;
    }
  return r == 0;
}

/* Kahn's algorithm; the DAG is acyclic by construction. */
std::vector<int>
reverse_topological (const graph &g)
{
  std::vector<int> indeg (g.n, 0), order;
  for (size_t i = 0; i < g.edges->size (); i++)
    indeg[(*g.edges)[i].dst]++;
  for (int v = 0; v < g.n; v++)
    if (indeg[v] == 0)
      order.push_back (v);
  for (size_t k = 0; k < order.size (); k++)
    for (size_t j = 0; j < g.out[order[k]].size (); j++)
      if (--indeg[(*g.edges)[g.out[order[k]][j]].dst] == 0)
        order.push_back ((*g.edges)[g.out[order[k]][j]].dst);
  std::reverse (order.begin (), order.end ());
  return order;
}

/* Chord increments from weights over the spanning tree (with the virtual
   edge EXIT -> ENTRY in it): node potentials along the tree, and
   inc = w + pot(src) - pot(dst), so every ENTRY -> EXIT path adds up to
   its weight sum; the same placement dag.cc does for Ball-Larus values. */
void
place (const graph &g, const std::vector<uint64_t> &w, std::vector<uint64_t> *inc)
{
  const std::vector<pp_ppp_edge> &e = *g.edges;
  std::vector<std::vector<int> > adj (g.n);
  for (size_t i = 0; i < e.size (); i++)
    if (e[i].in_tree)
      {
        adj[e[i].src].push_back ((int) i);
        adj[e[i].dst].push_back ((int) i);
      }
  std::vector<uint64_t> pot (g.n, 0);
  std::vector<bool> seen (g.n, false);
  std::vector<int> work;
  seen[0] = seen[1] = true;
  work.push_back (0);
  work.push_back (1);
  while (!work.empty ())
    {
      int u = work.back ();
      work.pop_back ();
      for (size_t k = 0; k < adj[u].size (); k++)
        {
          const pp_ppp_edge &t = e[adj[u][k]];
          int other = t.src == u ? t.dst : t.src;
          if (seen[other])
            continue;
          seen[other] = true;
          pot[other] = t.src == u ? pot[u] + w[adj[u][k]] : pot[u] - w[adj[u][k]];
          work.push_back (other);
        }
    }
  inc->resize (e.size ());
  for (size_t i = 0; i < e.size (); i++)
    (*inc)[i] = w[i] + pot[e[i].src] - pot[e[i].dst];
}

} // namespace

bool
pp_ppp_number (int nnodes, const std::vector<pp_ppp_edge> &edges,
               const std::vector<uint64_t> &ids_in, pp_ppp_result *out,
               std::string *why)
{
  graph g;
  g.n = nnodes;
  g.edges = &edges;
  build_out (&g);

  std::vector<uint64_t> ids (ids_in);
  std::sort (ids.begin (), ids.end ());
  ids.erase (std::unique (ids.begin (), ids.end ()), ids.end ());

  /* Each interesting path's edges, and for each edge the paths through
     it with the Ball-Larus sum of their prefix before it.  */
  size_t np = ids.size ();
  std::vector<std::vector<std::pair<size_t, uint64_t> > > through (edges.size ());
  std::vector<int> path, last (np, -1);
  for (size_t p = 0; p < np; p++)
    {
      if (!decode (g, ids[p], &path))
        {
          char buf[96];
          snprintf (buf, sizeof buf, "path ID %llu does not exist in this build",
                    (unsigned long long) ids[p]);
          *why = buf;
          return false;
        }
      uint64_t prefix = 0;
      last[p] = path.empty () ? -1 : path.back ();
      for (size_t k = 0; k < path.size (); k++)
        {
          through[path[k]].push_back (std::make_pair (p, prefix));
          prefix += edges[path[k]].val;
        }
    }

  std::vector<int64_t> pid (np, 0);
  std::vector<uint64_t> w (edges.size (), 0);
  std::vector<int> order = reverse_topological (g);
  for (size_t k = 0; k < order.size (); k++)
    {
      int v = order[k];
      std::map<uint64_t, int64_t> cis;   /* prefix -> cumulative interval size */
      for (size_t j = 0; j < g.out[v].size (); j++)
        {
          int e = g.out[v][j];
          const std::vector<std::pair<size_t, uint64_t> > &t = through[e];
          if (t.empty ())
            continue;
          std::map<uint64_t, int64_t> lo, hi;
          for (size_t i = 0; i < t.size (); i++)
            {
              std::map<uint64_t, int64_t>::iterator it = lo.find (t[i].second);
              if (it == lo.end () || pid[t[i].first] < it->second)
                lo[t[i].second] = pid[t[i].first];
            }
          bool first = true;
          int64_t weight = 0;
          for (std::map<uint64_t, int64_t>::iterator it = lo.begin (); it != lo.end (); ++it)
            {
              int64_t wq = cis[it->first] - it->second;   /* cis defaults to 0 */
              if (first || wq > weight)
                weight = wq;
              first = false;
            }
          w[e] = (uint64_t) weight;
          for (size_t i = 0; i < t.size (); i++)
            {
              pid[t[i].first] += weight;
              std::map<uint64_t, int64_t>::iterator it = hi.find (t[i].second);
              if (it == hi.end () || pid[t[i].first] > it->second)
                hi[t[i].second] = pid[t[i].first];
            }
          for (std::map<uint64_t, int64_t>::iterator it = hi.begin (); it != hi.end (); ++it)
            cis[it->first] = it->second + 1;
        }
    }

  int64_t size = 0;
  for (size_t p = 0; p < np; p++)
    size = std::max (size, pid[p] + 1);
  out->size = (uint64_t) size;
  out->table.assign ((size_t) size, PP_PPP_HOLE);
  out->last_edge.assign ((size_t) size, -1);
  for (size_t p = 0; p < np; p++)
    {
      out->table[(size_t) pid[p]] = ids[p];
      out->last_edge[(size_t) pid[p]] = last[p];
    }
  out->weight = w;
  place (g, w, &out->inc);
  return true;
}
