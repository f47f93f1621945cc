/* number-test.cc - plugin/ppp-number.cc against the PPP paper's worked
 * example and against brute-force enumeration of random DAGs; TAP on
 * stdout (tests/ppp-number.t builds and runs it).
 *
 * For every path of every graph: the weights and the chord increments
 * add up to the same number; an interesting path's number is below N and
 * the table maps it back to its Ball-Larus ID, uniquely; an uninteresting
 * path is never taken for an interesting one (number below N with the
 * table holding its own Ball-Larus ID). */
#include "ppp-number.h"

#include <algorithm>
#include <map>
#include <stdio.h>
#include <stdlib.h>

static int ntests, nfailed;

static void
ok (bool cond, const char *what)
{
  ntests++;
  if (!cond)
    nfailed++;
  printf ("%sok %d - %s\n", cond ? "" : "not ", ntests, what);
}

struct path {
  std::vector<int> edges;
  uint64_t bl;
};

static void
enumerate (const std::vector<pp_ppp_edge> &e, int v, std::vector<int> *cur,
           std::vector<path> *out)
{
  if (v == 1)
    {
      path p;
      p.edges = *cur;
      p.bl = 0;
      for (size_t k = 0; k < cur->size (); k++)
        p.bl += e[(*cur)[k]].val;
      out->push_back (p);
      return;
    }
  for (size_t i = 0; i < e.size (); i++)
    if (e[i].src == v)
      {
        cur->push_back ((int) i);
        enumerate (e, e[i].dst, cur, out);
        cur->pop_back ();
      }
}

/* Ball-Larus values: reverse topological order is descending node number
   for the generated graphs (edges go to higher numbers, EXIT is 1 and
   handled first). */
static uint64_t
number_bl (int n, std::vector<pp_ppp_edge> *e)
{
  std::vector<uint64_t> np (n, 0);
  np[1] = 1;
  for (int v = n - 1; v >= 0; v--)
    {
      if (v == 1)
        continue;
      for (size_t i = 0; i < e->size (); i++)
        if ((*e)[i].src == v)
          {
            (*e)[i].val = np[v];
            np[v] += np[(*e)[i].dst];
          }
    }
  return np[0];
}

static int
uf_find (std::vector<int> *p, int x)
{
  while ((*p)[x] != x)
    x = (*p)[x] = (*p)[(*p)[x]];
  return x;
}

/* A spanning tree in random order, with EXIT -> ENTRY in it. */
static void
random_tree (int n, std::vector<pp_ppp_edge> *e)
{
  std::vector<int> parent (n), order (e->size ());
  for (int i = 0; i < n; i++)
    parent[i] = i;
  parent[1] = 0;
  for (size_t i = 0; i < e->size (); i++)
    order[i] = (int) i;
  for (size_t i = e->size (); i > 1; i--)
    std::swap (order[i - 1], order[rand () % i]);
  for (size_t k = 0; k < order.size (); k++)
    {
      pp_ppp_edge &x = (*e)[order[k]];
      int a = uf_find (&parent, x.src), b = uf_find (&parent, x.dst);
      x.in_tree = a != b;
      if (a != b)
        parent[a] = b;
    }
}

/* Checks one graph and interesting set; returns the first problem, or "". */
static std::string
check (int n, const std::vector<pp_ppp_edge> &e, const std::vector<uint64_t> &ids,
       pp_ppp_result *r)
{
  std::string why;
  if (!pp_ppp_number (n, e, ids, r, &why))
    return "pp_ppp_number failed: " + why;
  std::vector<path> paths;
  std::vector<int> cur;
  enumerate (e, 0, &cur, &paths);
  std::map<uint64_t, bool> interesting;
  for (size_t i = 0; i < ids.size (); i++)
    interesting[ids[i]] = true;
  if (r->table.size () != r->size)
    return "table size differs from N";
  std::map<uint64_t, uint64_t> seen;
  for (size_t p = 0; p < paths.size (); p++)
    {
      uint64_t sw = 0, si = 0;
      for (size_t k = 0; k < paths[p].edges.size (); k++)
        {
          sw += r->weight[paths[p].edges[k]];
          si += r->inc[paths[p].edges[k]];
        }
      if (sw != si)
        return "increments and weights disagree on a path";
      bool hit = sw < r->size && r->table[sw] == paths[p].bl;
      if (interesting.count (paths[p].bl))
        {
          if (!hit)
            return "an interesting path is not found through the table";
          if (seen.count (sw))
            return "two interesting paths share a number";
          seen[sw] = paths[p].bl;
        }
      else if (hit)
        return "an uninteresting path is counted as an interesting one";
    }
  for (size_t t = 0; t < r->table.size (); t++)
    if (r->table[t] != PP_PPP_HOLE && !seen.count (t))
      return "the table names a path that does not have its number";
  for (size_t i = 0; i < e.size (); i++)
    if (e[i].in_tree && r->inc[i] != 0)
      return "an increment on a tree edge";
  return "";
}

static void
edge (std::vector<pp_ppp_edge> *e, int src, int dst, uint64_t val)
{
  pp_ppp_edge x = { src, dst, val, false };
  e->push_back (x);
}

int
main (void)
{
  /* The paper's Fig. 3 (and 13): s=0, t=1, a=2, b=3, c=4, d=5, its
     Ball-Larus values (sacdt 0, sact 1, sbcdt 4, sbct 5); interesting
     sacdt, sact, sbct.  Table 3's model numbers them 0, 1, 2.  */
  {
    std::vector<pp_ppp_edge> e;
    edge (&e, 0, 2, 0); edge (&e, 0, 3, 4); edge (&e, 2, 4, 0); edge (&e, 2, 3, 2);
    edge (&e, 3, 4, 0); edge (&e, 4, 5, 0); edge (&e, 4, 1, 1); edge (&e, 5, 1, 0);
    e[0].in_tree = e[2].in_tree = e[4].in_tree = e[5].in_tree = e[7].in_tree = true;
    std::vector<uint64_t> ids;
    ids.push_back (0); ids.push_back (1); ids.push_back (5);
    pp_ppp_result r;
    std::string err = check (6, e, ids, &r);
    ok (err.empty (), err.empty () ? "Fig. 3: unique, in range, no misattribution" : err.c_str ());
    ok (r.size == 3, "Fig. 3: N = 3, a perfect numbering (Lambda 1)");
    ok (r.table.size () == 3 && r.table[0] == 0 && r.table[1] == 1 && r.table[2] == 5,
        "Fig. 3: sacdt 0, sact 1, sbct 2, the paper's numbering (Table 3)");
  }
  /* Fig. 6 (Lemma 3): six paths through one node d that no assignment
     numbers perfectly; PPP stays unique with N > 6.  s=0 t=1 a=2 b=3 c=4
     d=5 e=6 f=7 g=8.  */
  {
    std::vector<pp_ppp_edge> e;
    edge (&e, 0, 2, 0); edge (&e, 0, 3, 0); edge (&e, 0, 4, 0);
    edge (&e, 2, 5, 0); edge (&e, 3, 5, 0); edge (&e, 4, 5, 0);
    edge (&e, 5, 6, 0); edge (&e, 5, 7, 0); edge (&e, 5, 8, 0);
    edge (&e, 6, 1, 0); edge (&e, 7, 1, 0); edge (&e, 8, 1, 0);
    uint64_t npaths = number_bl (9, &e);
    random_tree (9, &e);
    /* BL IDs: prefix (a 0, b 3, c 6) + suffix (e 0, f 1, g 2).  */
    std::vector<uint64_t> ids;
    ids.push_back (0 + 1); ids.push_back (0 + 2); ids.push_back (3 + 0);
    ids.push_back (3 + 2); ids.push_back (6 + 0); ids.push_back (6 + 1);
    pp_ppp_result r;
    std::string err = check (9, e, ids, &r);
    ok (npaths == 9 && err.empty (), err.empty () ? "Fig. 6: unique, in range" : err.c_str ());
    ok (r.size > 6 && r.size <= 9, "Fig. 6: no perfect numbering exists (Lemma 3), N in (6, 9]");
  }
  /* Random DAGs, random interesting sets.  */
  srand (18);
  int bad = 0, graphs = 0;
  double lambda_sum = 0;
  std::string first;
  for (int g = 0; g < 3000; g++)
    {
      int n = 3 + rand () % 12;
      std::vector<pp_ppp_edge> e;
      for (int v = 2; v < n; v++)
        {
          /* one edge in from ENTRY or an earlier block, so v is reachable */
          int from = v == 2 ? 0 : (rand () % 3 == 0 ? 0 : 2 + rand () % (v - 2));
          edge (&e, from, v, 0);
          int nout = 1 + rand () % 3;
          for (int k = 0; k < nout; k++)
            {
              int to = v + 1 + rand () % (n - v);
              edge (&e, v, to == n ? 1 : to, 0);
            }
        }
      if (n == 2 || rand () % 4 == 0)
        edge (&e, 0, 1, 0);
      uint64_t npaths = number_bl (n, &e);
      if (npaths > 5000)
        continue;
      random_tree (n, &e);
      std::vector<uint64_t> ids;
      int mode = rand () % 3;   /* a few, about half, or all */
      for (uint64_t id = 0; id < npaths; id++)
        if (mode == 2 || rand () % (mode == 0 ? 8 : 2) == 0)
          ids.push_back (id);
      if (ids.empty ())
        ids.push_back ((uint64_t) rand () % npaths);
      if (rand () % 5 == 0)
        ids.push_back (ids[0]);   /* a duplicate line in the file */
      pp_ppp_result r;
      std::string err = check (n, e, ids, &r);
      graphs++;
      if (!err.empty ())
        {
          if (!bad++)
            first = err;
          continue;
        }
      std::sort (ids.begin (), ids.end ());
      ids.erase (std::unique (ids.begin (), ids.end ()), ids.end ());
      lambda_sum += (double) r.size / (double) ids.size ();
      if (mode == 2 && r.size != npaths)
        {
          if (!bad++)
            first = "all paths interesting, but N differs from the number of paths";
        }
    }
  printf ("# %d random graphs, mean Lambda %.3f\n", graphs, lambda_sum / graphs);
  ok (bad == 0, bad ? first.c_str () : "random DAGs: unique, in range, never misattributed");
  {
    std::vector<pp_ppp_edge> e;
    edge (&e, 0, 2, 0); edge (&e, 2, 1, 0); edge (&e, 2, 1, 1);
    std::vector<uint64_t> ids (1, 2);
    pp_ppp_result r;
    std::string why;
    ok (!pp_ppp_number (3, e, ids, &r, &why) && why.find ("path ID 2") != std::string::npos,
        "an ID at or above npaths is refused, and named");
  }
  printf ("1..%d\n", ntests);
  return nfailed != 0;
}
