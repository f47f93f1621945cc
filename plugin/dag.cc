/* dag.cc - from GCC's CFG to a numbered Ball-Larus DAG.
 *
 * Steps (docs/algorithms.md has the why of each):
 *  1. choose the start nodes: blocks entered by an abnormal or EH edge
 *     (setjmp receivers, nonlocal labels, computed-goto targets, landing
 *     pads) and, in functions that call setjmp, blocks whose last call may
 *     longjmp; on a start node the path register is a constant, so no PHI
 *     ever needs an argument on an abnormal edge;
 *  2. DAG edges: back edges, edges into start nodes and EH edges into
 *     landing pads become an EXIT dummy (path ends) plus one ENTRY dummy
 *     per target (path restarts); blocks with no normal successor get a
 *     TERMINAL edge to EXIT;
 *  3. Ball-Larus numbering, hottest successor first, cutting the DAG at
 *     chosen nodes while a function has more paths than max-paths;
 *  4. a maximum spanning tree by edge frequency; increments only on chords
 *     (Ball's event counting), via node potentials.  */
#include "gcc-headers.h"
#include "dag.h"
#include "options.h"
#include "string-table.h"
#include "pathprof-abi.h"

#include <algorithm>

typedef unsigned __int128 u128;
static const u128 U128_MAX = ~(u128) 0;

static u128
sat_add (u128 a, u128 b)
{
  return a > U128_MAX - b ? U128_MAX : a + b;
}

const char *
pp_u128_str (u128 v, char *buf)
{
  char tmp[48];
  int n = 0;
  do
    {
      tmp[n++] = (char) ('0' + (int) (v % 10));
      v /= 10;
    }
  while (v);
  for (int i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  buf[n] = 0;
  return buf;
}

bool
pp_is_dispatcher (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
  return !gsi_end_p (gsi)
         && gimple_call_internal_p (gsi_stmt (gsi), IFN_ABNORMAL_DISPATCHER);
}

static bool
abnormal_or_eh (edge e)
{
  return (e->flags & (EDGE_ABNORMAL | EDGE_EH)) != 0;
}

/* A block whose last statement is a call that may longjmp back into this
   function: a path in progress there would be abandoned, so the block
   starts a new path (then only the block itself is lost, no CFG edge).  */
static bool
ends_in_abnormal_call (basic_block bb)
{
  gimple *last = last_stmt (bb);
  if (!last || !is_gimple_call (last))
    return false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (e->flags & EDGE_ABNORMAL)
      return true;
  return false;
}

static bool
wants_start (basic_block bb, bool setjmp_fn)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (abnormal_or_eh (e))
      return true;
  return setjmp_fn && ends_in_abnormal_call (bb);
}

/* A landing pad whose every predecessor is an EH edge from a block of the
   DAG.  The path register flows into it through a PHI (EH edges, unlike
   abnormal ones, may carry PHI arguments), so a path cut short by a throw
   is counted as ending on its EH edge instead of being lost.  */
static bool
eh_pad_p (basic_block bb)
{
  edge e;
  edge_iterator ei;
  if (EDGE_COUNT (bb->preds) == 0)
    return false;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (!(e->flags & EDGE_EH) || (e->flags & EDGE_ABNORMAL)
        || e->src == ENTRY_BLOCK_PTR_FOR_FN (cfun) || pp_is_dispatcher (e->src))
      return false;
  return true;
}

/* Where control arrives after frames were unwound: a landing pad, or, in a
   function that calls setjmp or has nonlocal labels, the target of an
   abnormal edge.  (A computed goto's target is abnormal too, but reached
   from the same frame; outside such functions it is not a resume point.) */
static bool
resume_point_p (basic_block bb, bool setjmp_fn)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if ((e->flags & EDGE_EH) || (setjmp_fn && (e->flags & EDGE_ABNORMAL)))
      return true;
  return false;
}

static int64_t
edge_weight (edge e)
{
  profile_count c = e->count ();
  if (!c.initialized_p ())
    return 0;
  gcov_type g = c.to_gcov_type ();
  return g < 0 ? 0 : g;
}

static bool
span_order (const pp_line_span &a, const pp_line_span &b)
{
  if (a.file != b.file)
    return a.file < b.file;
  return a.first < b.first;
}

/* Source range of BB's statements: the file of its first located statement
   and the smallest and largest line in that file; and into SPANS every line
   (of any file) a statement of BB comes from, as sorted runs.  */
static void
block_lines (basic_block bb, pp_node *n, std::vector<pp_line_span> *spans)
{
  const char *file = NULL;
  unsigned lo = 0, hi = 0;
  std::vector<pp_line_span> lines;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      /* A -g marker of a source statement that begins here names a line
         the block runs even when its code was folded away (int s = 0 into
         a PHI); other debug statements and labels run nothing.  */
      bool marker = gimple_debug_begin_stmt_p (s);
      if ((is_gimple_debug (s) && !marker) || gimple_code (s) == GIMPLE_LABEL)
        continue;
      location_t loc = gimple_location (s);
      if (loc == UNKNOWN_LOCATION)
        continue;
      expanded_location xl = expand_location (loc);
      if (!xl.file || xl.line <= 0)
        continue;
      pp_line_span one = { pp_string_index (xl.file), (uint32_t) xl.line,
                           (uint32_t) xl.line };
      lines.push_back (one);
      if (marker)
        continue;
      if (!file)
        {
          file = xl.file;
          lo = hi = (unsigned) xl.line;
        }
      else if (!strcmp (file, xl.file))
        {
          lo = MIN (lo, (unsigned) xl.line);
          hi = MAX (hi, (unsigned) xl.line);
        }
    }
  n->file = file ? pp_string_index (file) : PATHPROF_NONE;
  n->line_first = lo;
  n->line_last = hi;
  /* Runs of consecutive lines become one span.  */
  std::sort (lines.begin (), lines.end (), span_order);
  spans->clear ();
  for (size_t i = 0; i < lines.size (); i++)
    {
      if (!spans->empty () && spans->back ().file == lines[i].file
          && lines[i].first <= spans->back ().last + 1)
        spans->back ().last = MAX (spans->back ().last, lines[i].last);
      else
        spans->push_back (lines[i]);
    }
}

static int
add_node (pp_dag *dag, basic_block bb)
{
  pp_node n;
  memset (&n, 0, sizeof n);
  n.bb = bb;
  n.bb_index = bb->index;
  n.file = PATHPROF_NONE;
  dag->nodes.push_back (n);
  return (int) dag->nodes.size () - 1;
}

static void
add_edge (pp_dag *dag, int src, int dst, unsigned kind, int real_dst,
          edge cfg, int64_t weight)
{
  pp_edge e;
  memset (&e, 0, sizeof e);
  e.src = src;
  e.dst = dst;
  e.kind = kind;
  e.real_dst = real_dst;
  e.cfg = cfg;
  e.weight = weight;
  dag->edges.push_back (e);
}

/* Edges into EXIT, ENTRY dummies and the function's entry edge carry code
   whatever the tree (a count, a reset, a constant), so they go into the
   spanning tree first, leaving frequent CFG edges free of increments.  */
static const int64_t FREE_WEIGHT = INT64_MAX;

/* The ENTRY dummy of node V, created on first use.  */
static void
ensure_entry_dummy (pp_dag *dag, std::vector<int> *entry_dummy, int v)
{
  if ((*entry_dummy)[v] >= 0)
    return;
  (*entry_dummy)[v] = (int) dag->edges.size ();
  add_edge (dag, PP_ENTRY, v, PATHPROF_EDGE_ENTRY_DUMMY, -1, NULL, FREE_WEIGHT);
}

static void
build_edges (pp_dag *dag, std::vector<int> *entry_dummy)
{
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  add_edge (dag, PP_ENTRY, dag->node_of_bb[entry->dest->index],
            PATHPROF_EDGE_REAL, -1, entry, FREE_WEIGHT);
  for (size_t u = 2; u < dag->nodes.size (); u++)
    {
      basic_block bb = dag->nodes[u].bb;
      bool any = false;
      edge e;
      edge_iterator ei;
      if (dag->nodes[u].start)
        ensure_entry_dummy (dag, entry_dummy, (int) u);
      FOR_EACH_EDGE (e, ei, bb->succs)
        {
          if (abnormal_or_eh (e))
            {
              int pad = dag->node_of_bb[e->dest->index];
              if (!(e->flags & EDGE_EH) || pad < 2 || !dag->nodes[pad].eh_pad)
                continue;
              add_edge (dag, (int) u, PP_EXIT, PATHPROF_EDGE_EXIT_DUMMY, pad,
                        e, FREE_WEIGHT);
              ensure_entry_dummy (dag, entry_dummy, pad);
              any = true;
              continue;
            }
          any = true;
          if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
            {
              add_edge (dag, (int) u, PP_EXIT, PATHPROF_EDGE_REAL, -1, e,
                        FREE_WEIGHT);
              continue;
            }
          int v = dag->node_of_bb[e->dest->index];
          gcc_assert (v >= 2);
          if ((e->flags & EDGE_DFS_BACK) || dag->nodes[v].start)
            {
              add_edge (dag, (int) u, PP_EXIT, PATHPROF_EDGE_EXIT_DUMMY, v, e,
                        FREE_WEIGHT);
              ensure_entry_dummy (dag, entry_dummy, v);
            }
          else
            add_edge (dag, (int) u, v, PATHPROF_EDGE_REAL, -1, e,
                      edge_weight (e));
        }
      if (!any)
        add_edge (dag, (int) u, PP_EXIT, PATHPROF_EDGE_TERMINAL, -1, NULL,
                  FREE_WEIGHT);
    }
}

/* Kahn's algorithm; the DAG has no cycle by construction (every cycle of
   the CFG contains a DFS back edge, and those were replaced).  */
static std::vector<int>
topo_order (const pp_dag *dag)
{
  size_t n = dag->nodes.size ();
  std::vector<int> indeg (n, 0), order;
  std::vector<std::vector<int> > out (n);
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      out[dag->edges[i].src].push_back (dag->edges[i].dst);
      indeg[dag->edges[i].dst]++;
    }
  std::vector<int> work;
  for (size_t i = 0; i < n; i++)
    if (!indeg[i])
      work.push_back ((int) i);
  while (!work.empty ())
    {
      int v = work.back ();
      work.pop_back ();
      order.push_back (v);
      for (size_t k = 0; k < out[v].size (); k++)
        if (--indeg[out[v][k]] == 0)
          work.push_back (out[v][k]);
    }
  gcc_assert (order.size () == n);
  return order;
}

/* Outgoing edges of every node, hottest first: the hottest successor gets
   value 0 (Bond and McKinley's smart numbering).  */
static void
sorted_out_edges (const pp_dag *dag, std::vector<std::vector<int> > *out)
{
  out->assign (dag->nodes.size (), std::vector<int> ());
  for (size_t i = 0; i < dag->edges.size (); i++)
    (*out)[dag->edges[i].src].push_back ((int) i);
  for (size_t v = 0; v < out->size (); v++)
    {
      std::vector<int> &l = (*out)[v];
      const std::vector<pp_edge> &E = dag->edges;
      std::stable_sort (l.begin (), l.end (), [&E] (int a, int b) {
        return E[a].weight > E[b].weight;
      });
    }
}

static u128
sum_out (pp_dag *dag, const std::vector<int> &out)
{
  u128 s = 0;
  for (size_t k = 0; k < out.size (); k++)
    if (!dag->edges[out[k]].cold)
      s = sat_add (s, dag->nodes[dag->edges[out[k]].dst].npaths);
  return s;
}

/* What cutting needs at hand: outgoing edges per node (unsorted; counting
   does not care about order) and the REAL edges into each node.  */
struct cut_state {
  std::vector<std::vector<int> > out;
  std::vector<std::vector<int> > in;
  std::vector<int> *entry_dummy;
  const pp_dag_hooks *hooks;
};

static void
init_cut_state (const pp_dag *dag, std::vector<int> *entry_dummy,
                const pp_dag_hooks *hooks, cut_state *cs)
{
  cs->hooks = hooks;
  cs->out.assign (dag->nodes.size (), std::vector<int> ());
  cs->in.assign (dag->nodes.size (), std::vector<int> ());
  cs->entry_dummy = entry_dummy;
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      cs->out[dag->edges[i].src].push_back ((int) i);
      if (dag->edges[i].kind == PATHPROF_EDGE_REAL)
        cs->in[dag->edges[i].dst].push_back ((int) i);
    }
}

/* Makes W a cut node: every REAL edge into it ends the path there and a
   new path starts at W.  */
static void
cut_node (pp_dag *dag, cut_state *cs, int w)
{
  dag->nodes[w].start = true;
  for (size_t k = 0; k < cs->in[w].size (); k++)
    {
      pp_edge &e = dag->edges[cs->in[w][k]];
      gcc_assert (e.dst == w && e.kind == PATHPROF_EDGE_REAL
                  && e.src != PP_ENTRY);
      e.dst = PP_EXIT;
      e.kind = PATHPROF_EDGE_EXIT_DUMMY;
      e.real_dst = w;
      e.weight = FREE_WEIGHT;
    }
  cs->in[w].clear ();
  size_t before = dag->edges.size ();
  ensure_entry_dummy (dag, cs->entry_dummy, w);
  if (dag->edges.size () != before)
    cs->out[PP_ENTRY].push_back ((int) before);
  if (cs->hooks && cs->hooks->after_cut)
    cs->hooks->after_cut (dag, w, (*cs->entry_dummy)[w]);
  dag->ncuts++;
}

/* The cut that best relieves node V: its immediate post-dominator in the
   DAG when that can be cut (every path from V goes through it, so after
   the cut V has only as many paths as V has routes to it: a sequence of
   if-diamonds is cut at a join, once), else the successor with the most
   paths.  Returns -1 when nothing below V can be cut.  */
static int
choose_cut (const pp_dag *dag, const std::vector<int> &out_v, int ipdom_v)
{
  const pp_node &p = dag->nodes[ipdom_v];
  if (ipdom_v >= 2 && p.cuttable && !p.start && p.npaths >= 2)
    return ipdom_v;
  int best = -1;
  for (size_t i = 0; i < out_v.size (); i++)
    {
      const pp_edge &e = dag->edges[out_v[i]];
      const pp_node &w = dag->nodes[e.dst];
      if (e.kind != PATHPROF_EDGE_REAL || !w.cuttable || w.start
          || w.npaths < 2)
        continue;
      if (best < 0 || w.npaths > dag->nodes[best].npaths)
        best = e.dst;
    }
  return best;
}

/* Counts paths bottom-up, and post-dominators on the way (the DAG's
   post-dominator tree, rooted at EXIT).  With LIMIT, stops at the first
   node with more than LIMIT paths that can be relieved, makes one cut, and
   returns true: counts above it are stale, so the caller sweeps again.  */
static bool
count_paths (pp_dag *dag, const std::vector<int> &order, cut_state *cs,
             u128 limit)
{
  size_t n = dag->nodes.size ();
  const std::vector<std::vector<int> > &out = cs->out;
  std::vector<int> ipdom (n, PP_EXIT), depth (n, 0);
  for (size_t k = order.size (); k-- > 0;)
    {
      int v = order[k];
      if (v == PP_EXIT)
        {
          dag->nodes[v].npaths = 1;
          continue;
        }
      dag->nodes[v].npaths = sum_out (dag, out[v]);
      int d = -1;
      for (size_t i = 0; i < out[v].size (); i++)
        {
          int s = dag->edges[out[v][i]].dst;
          if (d < 0)
            d = s;
          while (d != s)
            if (depth[d] >= depth[s])
              d = ipdom[d];
            else
              s = ipdom[s];
        }
      ipdom[v] = d < 0 ? PP_EXIT : d;
      depth[v] = depth[ipdom[v]] + 1;
      if (v == PP_ENTRY || !limit || dag->nodes[v].npaths <= limit)
        continue;
      int w = choose_cut (dag, out[v], ipdom[v]);
      if (w >= 0)
        {
          cut_node (dag, cs, w);
          return true;
        }
    }
  return false;
}

static void
assign_values (pp_dag *dag)
{
  std::vector<std::vector<int> > out;
  sorted_out_edges (dag, &out);
  for (size_t v = 0; v < out.size (); v++)
    {
      u128 s = 0;
      for (size_t k = 0; k < out[v].size (); k++)
        {
          pp_edge &e = dag->edges[out[v][k]];
          e.val = (uint64_t) s;
          if (!e.cold)
            s = sat_add (s, dag->nodes[e.dst].npaths);
        }
    }
}

static bool
number_paths (pp_dag *dag, std::vector<int> *entry_dummy,
              const pp_dag_hooks *hooks)
{
  std::vector<int> order = topo_order (dag);
  cut_state cs;
  init_cut_state (dag, entry_dummy, hooks, &cs);
  count_paths (dag, order, &cs, 0);
  dag->npaths_uncut = dag->nodes[PP_ENTRY].npaths;
  /* Cut until no node exceeds LIMIT.  While the whole function still has
     more than max-paths IDs, start again from the uncut DAG with a limit
     lowered by the factor it missed by (so the final cuts are those of one
     limit, not an accumulation, and few rounds are needed).  */
  const std::vector<pp_edge> uncut_edges = dag->edges;
  const std::vector<pp_node> uncut_nodes = dag->nodes;
  const std::vector<int> uncut_dummies = *entry_dummy;
  const u128 max = pp_opts.max_paths;
  u128 limit = max;
  while (dag->nodes[PP_ENTRY].npaths > max)
    {
      if (limit < 2)
        {
          char need[48], bound[48];
          error_at (DECL_SOURCE_LOCATION (current_function_decl),
                    "pathprof: function %qs needs at least %s path IDs even "
                    "when cut at every block; raise "
                    "%<-fplugin-arg-pathprof-max-paths%> (now %s)",
                    function_name (cfun),
                    pp_u128_str (dag->nodes[PP_ENTRY].npaths, need),
                    pp_u128_str (max, bound));
          return false;
        }
      if (dag->ncuts)
        {
          dag->edges = uncut_edges;
          dag->nodes = uncut_nodes;
          *entry_dummy = uncut_dummies;
          dag->ncuts = 0;
          init_cut_state (dag, entry_dummy, hooks, &cs);
        }
      while (count_paths (dag, order, &cs, limit))
        ;
      u128 total = dag->nodes[PP_ENTRY].npaths;
      if (total > max)
        limit /= total / max + 1;   /* at least halves it */
    }
  dag->npaths = dag->nodes[PP_ENTRY].npaths;
  assign_values (dag);
  return true;
}

std::vector<int>
pp_edges_sorted (const pp_dag *dag,
                 bool (*less) (const pp_edge &, const pp_edge &))
{
  std::vector<int> order (dag->edges.size ());
  for (size_t i = 0; i < order.size (); i++)
    order[i] = (int) i;
  const std::vector<pp_edge> &E = dag->edges;
  std::stable_sort (order.begin (), order.end (), [&E, less] (int a, int b) {
    return less (E[a], E[b]);
  });
  return order;
}

static bool
heavier (const pp_edge &a, const pp_edge &b)
{
  return a.weight > b.weight;
}

/* Union-find for Kruskal.  */
static int
uf_find (std::vector<int> *p, int x)
{
  while ((*p)[x] != x)
    {
      (*p)[x] = (*p)[(*p)[x]];
      x = (*p)[x];
    }
  return x;
}

/* Maximum spanning tree (with the virtual edge EXIT->ENTRY in it), node
   potentials along the tree, and inc = val + pot(src) - pot(dst), which is
   0 on tree edges and keeps every ENTRY->EXIT path's sum equal to its ID.  */
static void
place_increments (pp_dag *dag)
{
  size_t n = dag->nodes.size ();
  std::vector<int> order = pp_edges_sorted (dag, heavier);
  std::vector<int> parent (n);
  for (size_t i = 0; i < n; i++)
    parent[i] = (int) i;
  parent[PP_EXIT] = PP_ENTRY;
  std::vector<std::vector<int> > adj (n);
  for (size_t k = 0; k < order.size (); k++)
    {
      pp_edge &e = dag->edges[order[k]];
      if (e.cold)
        continue;   /* not numbered: its code is tpp's, not an increment */
      int a = uf_find (&parent, e.src), b = uf_find (&parent, e.dst);
      if (a == b)
        continue;
      parent[a] = b;
      e.in_tree = true;
      adj[e.src].push_back (order[k]);
      adj[e.dst].push_back (order[k]);
    }
  std::vector<bool> seen (n, false);
  std::vector<int> work;
  dag->nodes[PP_ENTRY].pot = 0;
  dag->nodes[PP_EXIT].pot = 0;
  seen[PP_ENTRY] = seen[PP_EXIT] = true;
  work.push_back (PP_ENTRY);
  work.push_back (PP_EXIT);
  while (!work.empty ())
    {
      int u = work.back ();
      work.pop_back ();
      for (size_t k = 0; k < adj[u].size (); k++)
        {
          const pp_edge &e = dag->edges[adj[u][k]];
          int other = e.src == u ? e.dst : e.src;
          if (seen[other])
            continue;
          seen[other] = true;
          if (e.src == u)
            dag->nodes[other].pot = dag->nodes[u].pot + e.val;
          else
            dag->nodes[other].pot = dag->nodes[u].pot - e.val;
          work.push_back (other);
        }
    }
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      pp_edge &e = dag->edges[i];
      e.inc = e.val + dag->nodes[e.src].pot - dag->nodes[e.dst].pot;
      gcc_assert (!e.in_tree || e.inc == 0);
    }
}

bool
pp_build_dag (pp_dag *dag, const pp_dag_hooks *hooks)
{
  bool setjmp_fn = cfun->calls_setjmp || cfun->has_nonlocal_label;
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  dag->uses_entry_split = false;
  /* The first block must not be a start node: the entry edge has to carry
     the start of the function's first path.  */
  if (wants_start (first, setjmp_fn))
    {
      split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)));
      dag->uses_entry_split = true;
    }
  mark_dfs_back_edges ();

  dag->nodes.clear ();
  dag->edges.clear ();
  dag->ncuts = 0;
  dag->has_resume = false;
  dag->tpp = 0;
  dag->derived.clear ();
  dag->spans.clear ();
  dag->node_of_bb.assign (last_basic_block_for_fn (cfun), -1);
  add_node (dag, ENTRY_BLOCK_PTR_FOR_FN (cfun));
  add_node (dag, EXIT_BLOCK_PTR_FOR_FN (cfun));
  dag->node_of_bb[ENTRY_BLOCK] = PP_ENTRY;
  dag->node_of_bb[EXIT_BLOCK] = PP_EXIT;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      if (pp_is_dispatcher (bb))
        continue;
      int v = add_node (dag, bb);
      dag->node_of_bb[bb->index] = v;
      dag->nodes[v].start = wants_start (bb, setjmp_fn);
      dag->nodes[v].eh_pad = eh_pad_p (bb);
      dag->nodes[v].resume = resume_point_p (bb, setjmp_fn);
      dag->has_resume |= dag->nodes[v].resume;
      dag->nodes[v].cuttable = true;
      dag->spans.resize (dag->nodes.size ());
      block_lines (bb, &dag->nodes[v], &dag->spans[v]);
    }
  dag->spans.resize (dag->nodes.size ());
  first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  dag->nodes[dag->node_of_bb[first->index]].cuttable = false;

  std::vector<int> entry_dummy (dag->nodes.size (), -1);
  build_edges (dag, &entry_dummy);
  if (hooks && hooks->before_numbering)
    hooks->before_numbering (dag, &entry_dummy);
  if (!number_paths (dag, &entry_dummy, hooks))
    return false;
  place_increments (dag);
  if (hooks && hooks->after_numbering)
    hooks->after_numbering (dag);
  return true;
}
