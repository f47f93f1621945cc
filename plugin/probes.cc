/* probes.cc - the path register and the probes at path ends.
 *
 * The path register r is a chain of SSA names built here directly (no
 * memory, no renaming): r is a constant at the function entry and at start
 * nodes, a PHI where several edges meet, r + inc on chords, and a constant
 * reset after a back edge or a cut.  At a path end the probe bumps
 * counters[offset + r + inc] (count mode, array), calls the runtime's hash
 * counter (count mode, hash), or emits the event tu_base + offset + r + inc
 * (stream mode, through emit.cc).  Code for an edge goes into a block of
 * its own (split_edge); the CFG cleanup afterwards merges what it can. */
#include "gcc-headers.h"
#include "probes.h"
#include "dag.h"
#include "metadata.h"
#include "options.h"
#include "pathprof-abi.h"
#include "ppp-probe.h"
#include "tpp.h"
#include "loop-counts.h"
#include "counter-add.h"

#include <algorithm>
#include <map>
#include <set>

namespace {

struct action {
  bool count;          /* count the path r + count_inc */
  bool cold;           /* TPP: ... or rather the cold counter, whatever r */
  bool ret;            /* ... which ends the activation (stream: RET bit) */
  uint64_t count_inc;
  int end_edge;        /* ... ending with this DAG edge (PPP), or -1 */
  bool reset;          /* r becomes reset_val afterwards (a new path) */
  unsigned marker;     /* stream mode: a marker to emit first (RESUME), or 0 */
  uint64_t reset_val;
  uint64_t add;        /* otherwise r becomes r + add */
  std::vector<int> verify;  /* direct edge counters to bump */
  std::vector<size_t> derived;  /* TPP: obvious paths to count (indices
                                   in dag->derived) */
};

struct emitter {
  const pp_layout *lay;
  tree counters;       /* count mode: the counter array; stream: the bases */
  bool atomic;
  bool hash;
  bool stream;
  bool ppp;            /* preferential numbering: ppp-probe.cc counts */
  uint32_t fn_index;   /* the function's index in the TU directory */
  uint64_t cold_id;    /* TPP: the first ID of the cold region (tpp.h) */
  const std::vector<std::pair<uint64_t, int> > *derived;  /* dag->derived */
};

tree
cst (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

tree
add_const (gimple_seq *seq, tree r, uint64_t k)
{
  if (k == 0)
    return r;
  if (TREE_CODE (r) == INTEGER_CST)
    return cst (tree_to_uhwi (r) + k);
  tree t = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
  gimple_seq_add_stmt (seq, gimple_build_assign (t, PLUS_EXPR, r, cst (k)));
  return t;
}

void
bump (const emitter *em, gimple_seq *seq, tree index)
{
  pp_add_to_counter (seq, em->counters, index,
                     build_int_cstu (uint64_type_node, 1), em->atomic);
}

/* First counter index (array mode) or 0 (hash mode, where the runtime
   gets the path ID itself).  */
uint64_t
path_base (const emitter *em)
{
  return em->hash || em->ppp ? 0 : em->lay->counter_offset;
}

/* Loads bases[WHICH] of the TU (stream mode): 0 the path base, 1 the
   function base, written by the runtime at registration.  */
tree
load_base (const emitter *em, gimple_seq *seq, unsigned which)
{
  tree t = make_temp_ssa_name (uint64_type_node, NULL, "pp_base");
  gimple_seq_add_stmt (seq, gimple_build_assign (
      t, build4 (ARRAY_REF, uint64_type_node, em->counters, cst (which),
                 NULL_TREE, NULL_TREE)));
  return t;
}

tree
add_ssa (gimple_seq *seq, tree a, tree b)
{
  tree t = make_temp_ssa_name (uint64_type_node, NULL, "pp_ev");
  gimple_seq_add_stmt (seq, gimple_build_assign (t, PLUS_EXPR, a, b));
  return t;
}

/* Counts one path, given its counter index (array mode), its ID (hash
   mode) or its index in the TU (stream mode, where RET sets the RET bit).  */
void
count_value (const emitter *em, gimple_seq *seq, tree v, bool ret = false,
             int end_edge = -1)
{
  if (em->stream && em->ppp)
    v = add_const (seq, pp_ppp_stream_index (seq, v, em->lay),
                   em->lay->counter_offset);
  if (em->stream)
    {
      v = add_const (seq, v, ret ? PATHPROF_EV_RET : 0);
      pp_emit_path (seq, add_ssa (seq, load_base (em, seq, 0), v));
      return;
    }
  if (em->ppp)
    {
      pp_ppp_count_word (seq, v, pp_ppp_site (em->lay, end_edge));
      return;
    }
  if (!em->hash)
    {
      bump (em, seq, v);
      return;
    }
  tree slot = build_fold_addr_expr (
      build4 (ARRAY_REF, uint64_type_node, em->counters,
              cst (em->lay->counter_offset), NULL_TREE, NULL_TREE));
  gimple_seq_add_stmt (seq, gimple_build_call (pp_hash_count_fn (), 2, slot, v));
}

void
count_path (const emitter *em, gimple_seq *seq, tree r, uint64_t inc,
            bool ret, int end_edge)
{
  count_value (em, seq, add_const (seq, r, path_base (em) + inc), ret, end_edge);
}

/* A loop counted at its exits (loop-counts.h): what each exit does with
   the k > 0 back edges it saw.  STEADY is the index of the path every
   iteration after the first took.  */
struct exit_counts {
  const emitter *em;
  uint64_t steady;
};

/* Counting mode: 1 to the first iteration's path, k - 1 to the steady one.  */
static void
add_run (gimple_seq *seq, tree first, tree later, void *ctx)
{
  const exit_counts *ec = (const exit_counts *) ctx;
  bump (ec->em, seq, first);
  pp_add_to_counter (seq, ec->em->counters, cst (ec->steady), later, ec->em->atomic);
}

/* Stream mode: the first iteration's path event, then RUN(k - 1) and the
   steady path's event word (docs/streaming.md, section 1): three stores
   at the exit for k iterations, where the loop stored one per iteration.
   The body holds no call that emits (loop-counts.h), so no other event
   of the thread falls between the iterations: the stream is the same
   sequence.  */
static void
emit_run (gimple_seq *seq, tree first, tree later, void *ctx)
{
  const exit_counts *ec = (const exit_counts *) ctx;
  count_value (ec->em, seq, first);
  tree marker = make_temp_ssa_name (uint64_type_node, NULL, "pp_ev");
  gimple_seq_add_stmt (seq, gimple_build_assign (
      marker, BIT_IOR_EXPR, later, cst (PATHPROF_MARK (PATHPROF_MARK_RUN, 0))));
  pp_emit_word (seq, marker);
  pp_emit_word (seq, add_ssa (seq, load_base (ec->em, seq, 0), cst (ec->steady)));
}

/* Stream mode: the two words of an ENTER or RESUME marker, the function's
   global index and its frame address (docs/streaming.md, section 2).  */
void
emit_marker (const emitter *em, gimple_seq *seq, unsigned kind)
{
  tree fn = add_const (seq, load_base (em, seq, 1),
                       PATHPROF_MARK (kind, 0) + em->fn_index);
  pp_emit_word (seq, fn);
  tree fa = make_temp_ssa_name (ptr_type_node, NULL, "pp_frame");
  gimple *call = gimple_build_call (builtin_decl_explicit (BUILT_IN_FRAME_ADDRESS),
                                    1, integer_zero_node);
  gimple_call_set_lhs (call, fa);
  gimple_seq_add_stmt (seq, call);
  tree w = make_temp_ssa_name (uint64_type_node, NULL, "pp_frame");
  gimple_seq_add_stmt (seq, gimple_build_assign (w, NOP_EXPR, fa));
  pp_emit_word (seq, w);
}

/* Emits A's code given the register value R on entry; returns r after.  */
tree
emit_action (const emitter *em, gimple_seq *seq, const action &a, tree r)
{
  if (a.marker)
    emit_marker (em, seq, a.marker);
  if (a.count && a.cold)
    count_value (em, seq, cst (path_base (em) + em->cold_id));
  else if (a.count)
    count_path (em, seq, r, a.count_inc, a.ret, a.end_edge);
  for (size_t i = 0; i < a.verify.size (); i++)
    bump (em, seq, cst (em->lay->verify_offset + (uint64_t) a.verify[i]));
  /* An obvious path: in a stream it emits nothing (docs/tpp.md,
     "Streams"), its counter is in the bases array; otherwise its own
     slot.  */
  for (size_t i = 0; i < a.derived.size (); i++)
    if (em->stream)
      bump (em, seq, cst (PATHPROF_STREAM_DERIVED_BASE + em->lay->derived_slot
                          + a.derived[i]));
    else
      count_value (em, seq,
                   cst (path_base (em) + (*em->derived)[a.derived[i]].first));
  if (a.reset)
    return cst (a.reset_val);
  return add_const (seq, r, a.add);
}

/* verbose: the static probes of cfun (the TPP paper's Table 4 counts
   them; perfctl/tpp-bench adds these lines up): the places that get code,
   edges and path ends, and what they do: counter updates (a path's count,
   the cold counter, a derived path's counter, each one), register
   updates (an increment, a reset, a poison; none when no count reads the
   register).  */
static void
describe_probes (const std::map<edge, action> &on_edge,
                 const std::map<int, action> &at_end,
                 const std::map<edge, uint64_t> &eh_end)
{
  unsigned counts = (unsigned) eh_end.size (), regs = 0;
  for (std::map<edge, action>::const_iterator it = on_edge.begin ();
       it != on_edge.end (); ++it)
    {
      const action &a = it->second;
      counts += (a.count ? 1 : 0) + (unsigned) a.derived.size ();
      regs += (a.reset || a.add) ? 1 : 0;
    }
  for (std::map<int, action>::const_iterator it = at_end.begin ();
       it != at_end.end (); ++it)
    counts += (it->second.count ? 1 : 0) + (unsigned) it->second.derived.size ();
  /* Register updates that no count reads are dead code GCC removes.  */
  bool reads_r = !eh_end.empty ();
  for (std::map<edge, action>::const_iterator it = on_edge.begin ();
       it != on_edge.end (); ++it)
    reads_r |= it->second.count && !it->second.cold;
  for (std::map<int, action>::const_iterator it = at_end.begin ();
       it != at_end.end (); ++it)
    reads_r |= it->second.count && !it->second.cold;
  if (!reads_r)
    regs = 0;
  inform (DECL_SOURCE_LOCATION (current_function_decl),
          "pathprof: %qs: probes at %u places (%u edges, %u path ends, %u "
          "EH edges): %u counter updates, %u register updates",
          function_name (cfun),
          (unsigned) (on_edge.size () + at_end.size () + eh_end.size ()),
          (unsigned) on_edge.size (), (unsigned) at_end.size (),
          (unsigned) eh_end.size (), counts, regs);
}

bool
returns_twice_p (gimple *s)
{
  return is_gimple_call (s) && (gimple_call_flags (s) & ECF_RETURNS_TWICE);
}

/* When BB is nothing but a returns_twice call (setjmp), which ends the
   block since it may be returned to abnormally, code that must run each
   time it returns goes on its normal outgoing edge; that edge, else NULL.  */
edge
after_returns_twice_edge (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
  if (gsi_end_p (gsi) || !returns_twice_p (gsi_stmt (gsi))
      || gsi_stmt (gsi) != gsi_stmt (gsi_last_nondebug_bb (bb)))
    return NULL;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
      return e;
  return NULL;
}

/* Where code that runs when BB is entered goes: after its labels, and
   after a leading returns_twice call (which must stay first).  */
void
insert_at_block_start (basic_block bb, gimple_seq seq)
{
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  gimple_stmt_iterator first = gsi_start_nondebug_after_labels_bb (bb);
  if (!gsi_end_p (first) && returns_twice_p (gsi_stmt (first)))
    {
      gsi = first;
      gsi_next (&gsi);
    }
  if (!gsi_end_p (gsi))
    {
      gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
      return;
    }
  gsi = gsi_last_bb (bb);
  if (!gsi_end_p (gsi) && stmt_ends_bb_p (gsi_stmt (gsi)))
    gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
  else
    gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
}

/* A call whose value (if any) is what RET returns: GCC may make it a tail
   call, which a probe after it would prevent.  */
bool
tail_call_candidate_p (gimple *s, gimple *ret)
{
  if (!is_gimple_call (s) || gimple_call_internal_p (s) || returns_twice_p (s))
    return false;
  tree lhs = gimple_call_lhs (s);
  return !lhs || lhs == gimple_return_retval (as_a<greturn *> (ret));
}

/* Where a path that ends in BB is counted: just before the return (so a
   path is counted when it completes), or before a call in tail position
   (so the call stays a tail call, and deep tail recursion still runs in
   constant stack; the path is then counted as the call starts), or before
   the last statement of a terminal block (the noreturn call, the computed
   goto).  */
void
insert_at_path_end (basic_block bb, gimple_seq seq)
{
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb (bb);
  if (gsi_end_p (gsi) || gimple_code (gsi_stmt (gsi)) == GIMPLE_LABEL)
    {
      insert_at_block_start (bb, seq);
      return;
    }
  gimple *last = gsi_stmt (gsi);
  if (gimple_code (last) == GIMPLE_RETURN)
    {
      gimple_stmt_iterator prev = gsi;
      gsi_prev_nondebug (&prev);
      if (!gsi_end_p (prev) && tail_call_candidate_p (gsi_stmt (prev), last))
        gsi = prev;
    }
  else if (!stmt_ends_bb_p (last)
           && !(is_gimple_call (last) && (gimple_call_flags (last) & ECF_NORETURN)))
    {
      gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
      return;
    }
  if (returns_twice_p (gsi_stmt (gsi)))
    gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
  else
    gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
}

action
empty_action (void)
{
  action a;
  a.count = a.reset = a.ret = a.cold = false;
  a.marker = 0;
  a.count_inc = a.reset_val = a.add = 0;
  a.end_edge = -1;
  return a;
}

} // namespace

/* In a block BB that may throw into a landing pad, computes before the
   throwing statement the counter index of the path that ends on the EH
   edge (R is the register in BB).  */
static void
end_path_on_eh_edge (const emitter *em, basic_block bb, tree r,
                     const std::map<edge, uint64_t> &eh_end,
                     const std::set<edge> &eh_cold,
                     std::map<edge, tree> *eh_index)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    {
      std::map<edge, uint64_t>::const_iterator it = eh_end.find (e);
      if (it == eh_end.end ())
        continue;
      gimple_seq seq = NULL;
      if (eh_cold.count (e))
        r = cst (em->cold_id);   /* counted as cold at the pad */
      (*eh_index)[e] = add_const (&seq, r, path_base (em) + it->second);
      if (seq)
        {
          gimple_stmt_iterator gsi = gsi_last_bb (bb);
          gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        }
    }
}

/* At landing pad BB: counts the path that threw, whose index arrives
   through a PHI (arguments filled once every block is done), and in verify
   mode the EH edge taken, likewise.  */
static void
count_at_landing_pad (const emitter *em, basic_block bb, bool verify,
                      std::vector<gphi *> *pad_phis,
                      std::vector<gphi *> *pad_verify_phis, gimple_seq *seqp)
{
  gimple_seq &seq = *seqp;
  tree idx = make_temp_ssa_name (uint64_type_node, NULL, "pp_eh");
  pad_phis->push_back (create_phi_node (idx, bb));
  count_value (em, &seq, idx);
  if (verify)
    {
      tree vidx = make_temp_ssa_name (uint64_type_node, NULL, "pp_eh");
      pad_verify_phis->push_back (create_phi_node (vidx, bb));
      bump (em, &seq, vidx);
    }
}

/* The blocks reachable from ENTRY, in reverse post-order.  With
   sampling=yes the checking copy (sampling.cc) exists but is unreachable
   until it gets its checks, and GCC's pre_and_rev_post_order_compute
   wants every block reachable; this walk visits successors in the same
   order as GCC's.  */
static std::vector<int>
reverse_post_order (void)
{
  std::vector<int> order;
  if (!pp_opts.sampling)
    {
      int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (cfun));
      int n = pre_and_rev_post_order_compute (NULL, rpo, false);
      order.assign (rpo, rpo + n);
      XDELETEVEC (rpo);
      return order;
    }
  std::vector<bool> seen (last_basic_block_for_fn (cfun), false);
  std::vector<std::pair<basic_block, unsigned> > stack;
  stack.push_back (std::make_pair (ENTRY_BLOCK_PTR_FOR_FN (cfun), 0u));
  while (!stack.empty ())
    {
      basic_block bb = stack.back ().first;
      unsigned i = stack.back ().second;
      if (i < EDGE_COUNT (bb->succs))
        {
          stack.back ().second = i + 1;
          basic_block d = EDGE_SUCC (bb, i)->dest;
          if (d != EXIT_BLOCK_PTR_FOR_FN (cfun) && !seen[d->index])
            {
              seen[d->index] = true;
              stack.push_back (std::make_pair (d, 0u));
            }
          continue;
        }
      if (bb != ENTRY_BLOCK_PTR_FOR_FN (cfun))
        order.push_back (bb->index);
      stack.pop_back ();
    }
  std::reverse (order.begin (), order.end ());
  return order;
}

static tree hash_fn_decl;

tree
pp_hash_count_decl (void)
{
  if (hash_fn_decl)
    return hash_fn_decl;
  tree type = build_function_type_list (
      void_type_node, build_pointer_type (uint64_type_node), uint64_type_node,
      NULL_TREE);
  tree fn = build_fn_decl ("__pathprof_hash_count", type);
  TREE_NOTHROW (fn) = 1;
  /* leaf: the call never comes back into this TU, so in a function that
     calls setjmp it is not a possible abnormal goto.  */
  DECL_ATTRIBUTES (fn) = tree_cons (get_identifier ("leaf"), NULL_TREE,
                                    DECL_ATTRIBUTES (fn));
  hash_fn_decl = fn;
  return fn;
}

void
pp_instrument (const pp_dag *dag, const pp_layout *lay, tree counters)
{
  emitter em;
  em.lay = lay;
  em.counters = counters;
  em.atomic = (lay->flags & PATHPROF_FN_ATOMIC) != 0;
  em.hash = (lay->flags & PATHPROF_FN_HASH) != 0;
  em.stream = (lay->flags & PATHPROF_FN_STREAM) != 0;
  em.ppp = (lay->flags & PATHPROF_FN_PPP) != 0;
  em.fn_index = lay->fn_index;
  em.cold_id = dag->tpp == PP_TPP_ON ? pp_tpp_cold_id (dag) : 0;
  em.derived = &dag->derived;
  bool resume_fn = (lay->flags & PATHPROF_FN_RESUME) != 0;

  /* TPP: the poisoned register on entry to each node (tpp.h); in a node
     no hot edge touches, r is the bare poison all along.  */
  std::vector<bool> hot_node (dag->nodes.size (), false);
  std::vector<uint64_t> poison (dag->nodes.size (), em.cold_id);
  for (size_t i = 0; i < dag->edges.size (); i++)
    if (!dag->edges[i].cold)
      hot_node[dag->edges[i].src] = hot_node[dag->edges[i].dst] = true;
  for (size_t v = 0; v < dag->nodes.size (); v++)
    if (hot_node[v])
      poison[v] = em.cold_id - dag->nodes[v].pot;

  /* Register value on entry to each node that starts paths.  */
  std::vector<uint64_t> reset (poison);
  uint64_t entry_value = 0;
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      const pp_edge &e = dag->edges[i];
      if (e.kind == PATHPROF_EDGE_ENTRY_DUMMY && !e.cold)
        reset[e.dst] = e.inc;
      else if (e.kind == PATHPROF_EDGE_REAL && e.src == PP_ENTRY)
        entry_value = e.cold ? poison[e.dst] : e.inc;
    }
  /* Stream mode: the first path of an activation carries START, unless
     the function announces its activations with ENTER markers.  */
  if (em.stream && !resume_fn)
    entry_value += em.ppp ? pp_ppp_stream_start (lay) : PATHPROF_EV_START;

  /* EH edges cannot carry code: the throwing block computes the counter
     index before its last statement, and the landing pad takes it through
     a PHI and counts there.  */
  std::map<edge, uint64_t> eh_end;      /* EH edge -> inc of its EXIT dummy */
  std::set<edge> eh_cold;               /* TPP: ... that is cold */
  std::map<edge, int> eh_verify;        /* EH edge -> direct counter */
  std::map<edge, action> on_edge;
  std::map<int, action> at_end;     /* paths ending in a block, by bb->index */
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      const pp_edge &e = dag->edges[i];
      if (e.kind == PATHPROF_EDGE_ENTRY_DUMMY || e.src == PP_ENTRY)
        continue;
      int src_bb = dag->nodes[e.src].bb_index;
      /* TPP: a path ending on a cold edge is a cold path; a cold edge
         into a block poisons r (from a block no hot edge touches, r is
         poisoned already).  */
      if (e.cold && (e.kind == PATHPROF_EDGE_TERMINAL
                     || (e.kind == PATHPROF_EDGE_REAL && e.dst == PP_EXIT)))
        {
          action &a = at_end.emplace (src_bb, empty_action ()).first->second;
          a.count = a.cold = true;
          continue;
        }
      if (e.cold && e.kind == PATHPROF_EDGE_EXIT_DUMMY
          && (e.cfg->flags & EDGE_EH))
        {
          eh_end[e.cfg] = 0;
          eh_cold.insert (e.cfg);
          continue;
        }
      /* A cold edge that ends a path only because its loop was
         disconnected: the path goes on, poisoned, and is counted once,
         where it would end without the disconnection.  */
      if (e.cold && e.disconnected)
        {
          action &a = on_edge.emplace (e.cfg, empty_action ()).first->second;
          a.reset = true;
          a.reset_val = poison[e.real_dst];
          continue;
        }
      if (e.cold && e.kind == PATHPROF_EDGE_EXIT_DUMMY)
        {
          action &a = on_edge.emplace (e.cfg, empty_action ()).first->second;
          a.count = a.cold = true;
          a.reset = true;
          a.reset_val = reset[e.real_dst];
          continue;
        }
      if (e.cold)
        {
          if (hot_node[e.src] || hot_node[e.dst])
            {
              action &a = on_edge.emplace (e.cfg, empty_action ()).first->second;
              a.reset = true;
              a.reset_val = poison[e.dst];
            }
          continue;
        }
      /* TPP: only obvious paths run here (their counts are derived): no
         increment, no count; a back edge still restarts the register.  */
      if (e.obvious)
        {
          if (e.kind == PATHPROF_EDGE_EXIT_DUMMY)
            {
              action &a = on_edge.emplace (e.cfg, empty_action ()).first->second;
              a.reset = true;
              a.reset_val = reset[e.real_dst];
            }
          continue;
        }
      if (e.kind == PATHPROF_EDGE_TERMINAL
          || (e.kind == PATHPROF_EDGE_REAL && e.dst == PP_EXIT))
        {
          action &a = at_end.emplace (src_bb, empty_action ()).first->second;
          /* PPP: a block where two DAG edges end paths has no one site.  */
          a.end_edge = a.count ? -1 : (int) i;
          a.count = true;
          /* The activation ends unless control stays in this frame: a
             computed goto, or an abnormal or EH edge to a resume point.  */
          a.ret = EDGE_COUNT (dag->nodes[e.src].bb->succs) == 0
                  || e.kind == PATHPROF_EDGE_REAL;
          a.count_inc = e.inc;
        }
      else if (e.kind == PATHPROF_EDGE_EXIT_DUMMY && (e.cfg->flags & EDGE_EH))
        eh_end[e.cfg] = e.inc;
      else if (e.kind == PATHPROF_EDGE_EXIT_DUMMY)
        {
          action &a = on_edge.emplace (e.cfg, empty_action ()).first->second;
          a.count = true;
          a.count_inc = e.inc;
          a.end_edge = (int) i;
          a.reset = true;
          a.reset_val = reset[e.real_dst];
        }
      else if (e.inc)
        on_edge.emplace (e.cfg, empty_action ()).first->second.add = e.inc;
    }
  /* TPP: an obvious path's counter sits on its defining edge.  */
  for (size_t i = 0; i < dag->derived.size (); i++)
    {
      const pp_edge &d = dag->edges[dag->derived[i].second];
      if (d.dst == PP_EXIT && d.kind == PATHPROF_EDGE_REAL)
        at_end.emplace (dag->nodes[d.src].bb_index, empty_action ())
            .first->second.derived.push_back (i);
      else
        on_edge.emplace (d.cfg, empty_action ())
            .first->second.derived.push_back (i);
    }
  for (size_t i = 0; i < lay->verify_edges.size (); i++)
    {
      edge e = lay->verify_edges[i];
      if (e->flags & EDGE_EH)
        eh_verify[e] = (int) i;
      else if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
        at_end.emplace (e->src->index, empty_action ())
            .first->second.verify.push_back ((int) i);
      else
        on_edge.emplace (e, empty_action ()).first->second.verify.push_back ((int) i);
    }

  /* A resume point that is a lone setjmp call gets its RESUME on the way
     out of the call, since a longjmp returns from the call itself.  */
  std::vector<bool> resume_on_edge (dag->nodes.size (), false);
  if (em.stream && resume_fn)
    for (size_t v = 2; v < dag->nodes.size (); v++)
      if (dag->nodes[v].resume)
        if (edge out = after_returns_twice_edge (dag->nodes[v].bb))
          {
            on_edge.emplace (out, empty_action ()).first->second.marker
                = PATHPROF_MARK_RESUME;
            resume_on_edge[v] = true;
          }

  if (pp_opts.verbose)
    describe_probes (on_edge, at_end, eh_end);

  /* A loop whose body is one path counts its iterations at its exits
     (loop-counts.h): counting mode with array counters adds them to two
     counters, stream mode emits them as one RUN marker.  Verify, TPP, PPP
     and sampling (hence VPP) keep their probes in the loop.  */
  std::vector<pp_loop_rewrite> rewrites;
  std::map<int, tree> r_given;      /* block index -> r on entry */
  if (pp_opts.loop_counts && !em.hash && !em.ppp
      && dag->tpp != PP_TPP_ON && !pp_opts.sampling
      && !(lay->flags & (PATHPROF_FN_VERIFY | PATHPROF_FN_SAMPLED)))
    {
      std::vector<pp_path_loop> loops = pp_single_path_loops (dag);
      for (size_t i = 0; i < loops.size (); i++)
        {
          std::map<edge, action>::iterator b = on_edge.find (loops[i].back);
          if (b == on_edge.end ())
            continue;
          const action &a = b->second;
          if (!a.count || a.cold || !a.reset || a.marker || !a.verify.empty ()
              || !a.derived.empty ())
            continue;
          uint64_t first_inc = path_base (&em) + loops[i].to_latch + a.count_inc;
          exit_counts ec = {&em, first_inc + a.reset_val};
          on_edge.erase (b);
          pp_loop_rewrite rw = pp_count_at_exits (loops[i], first_inc, a.reset_val,
                                                  em.stream ? emit_run : add_run, &ec);
          for (size_t x = 0; x < rw.exits.size (); x++)
            {
              const pp_loop_rewrite::exit_site &site = rw.exits[x];
              std::map<edge, action>::iterator it = on_edge.find (site.old_exit);
              if (it != on_edge.end ())
                {
                  action moved = it->second;
                  on_edge.erase (it);
                  on_edge[site.new_exit] = moved;
                }
              r_given[site.block->index] = site.r_at;
            }
          rewrites.push_back (rw);
        }
      if (pp_opts.verbose && !rewrites.empty ())
        inform (DECL_SOURCE_LOCATION (current_function_decl),
                "pathprof: %qs: %u loops counted at their exits",
                function_name (cfun), (unsigned) rewrites.size ());
    }

  /* Give every edge with code a block of its own.  */
  std::map<int, action> in_block;   /* new block index -> its action */
  for (std::map<edge, action>::iterator it = on_edge.begin ();
       it != on_edge.end (); ++it)
    in_block[split_edge (it->first)->index] = it->second;
  /* ENTER goes on the entry edge: once per activation, even when the
     first block is a loop header.  */
  basic_block enter_bb = NULL;
  if (em.stream && resume_fn)
    enter_bb = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)));

  /* Build the SSA chain of r in reverse post-order, so a block's single
     predecessor is done before it; PHIs take their arguments at the end.  */
  int nblocks = last_basic_block_for_fn (cfun);
  std::vector<tree> r_out (nblocks, NULL_TREE);
  std::vector<gphi *> phis;
  std::map<edge, tree> eh_index;   /* EH edge -> counter index (or hash id) */
  std::vector<gphi *> pad_phis, pad_verify_phis;
  r_out[ENTRY_BLOCK] = cst (entry_value);
  std::vector<int> rpo = reverse_post_order ();
  for (size_t k = 0; k < rpo.size (); k++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, rpo[k]);
      int node = bb->index < (int) dag->node_of_bb.size ()
                     ? dag->node_of_bb[bb->index] : -1;
      tree r;
      if (node < 0 && pp_is_dispatcher (bb))
        {
          r_out[bb->index] = cst (0);
          continue;
        }
      std::map<int, tree>::iterator given = r_given.find (bb->index);
      if (given != r_given.end ())
        r = given->second;
      else if (node >= 0 && dag->nodes[node].start)
        r = cst (reset[node]);
      else if (single_pred_p (bb) && r_out[single_pred (bb)->index])
        r = r_out[single_pred (bb)->index];
      else
        {
          tree res = make_temp_ssa_name (uint64_type_node, NULL, "pp_r");
          phis.push_back (create_phi_node (res, bb));
          r = res;
        }
      /* What runs when BB is entered, in stream order: the resync
         marker, the path that threw into this landing pad.  */
      gimple_seq start_seq = NULL;
      if (bb == enter_bb)
        emit_marker (&em, &start_seq, PATHPROF_MARK_ENTER);
      if (node >= 0)
        {
          end_path_on_eh_edge (&em, bb, r, eh_end, eh_cold, &eh_index);
          if (em.stream && resume_fn && dag->nodes[node].resume
              && !resume_on_edge[node])
            emit_marker (&em, &start_seq, PATHPROF_MARK_RESUME);
          if (dag->nodes[node].eh_pad)
            count_at_landing_pad (&em, bb, (lay->flags & PATHPROF_FN_VERIFY) != 0,
                                  &pad_phis, &pad_verify_phis, &start_seq);
        }
      if (start_seq)
        insert_at_block_start (bb, start_seq);
      std::map<int, action>::iterator at = at_end.find (bb->index);
      if (at != at_end.end ())
        {
          gimple_seq end_seq = NULL;
          emit_action (&em, &end_seq, at->second, r);
          insert_at_path_end (bb, end_seq);
        }
      std::map<int, action>::iterator ib = in_block.find (bb->index);
      if (ib != in_block.end ())
        {
          gimple_seq seq = NULL;
          r = emit_action (&em, &seq, ib->second, r);
          gimple_stmt_iterator gsi = gsi_last_bb (bb);
          gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
        }
      r_out[bb->index] = r;
    }

  /* The rewritten loops' k and r on entry, at their headers.  */
  for (size_t i = 0; i < rewrites.size (); i++)
    {
      const pp_loop_rewrite &rw = rewrites[i];
      gphi *kphi = create_phi_node (rw.k, rw.header);
      gphi *rphi = create_phi_node (rw.r_pre, rw.header);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, rw.header->preds)
        {
          bool back = e->src == rw.back_block;
          tree r = r_out[e->src->index];
          add_phi_arg (kphi, back ? rw.k_next : cst (0), e, UNKNOWN_LOCATION);
          add_phi_arg (rphi, back ? rw.r_pre : r ? r : cst (0), e,
                       UNKNOWN_LOCATION);
        }
    }
  for (size_t i = 0; i < pad_phis.size (); i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (pad_phis[i])->preds)
        {
          std::map<edge, tree>::iterator it = eh_index.find (e);
          /* A throwing block that is unreachable has no index; any valid
             one will do, it never runs.  */
          tree v = it != eh_index.end () ? it->second
                   : cst (path_base (&em));
          add_phi_arg (pad_phis[i], v, e, UNKNOWN_LOCATION);
        }
    }
  for (size_t i = 0; i < pad_verify_phis.size (); i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (pad_verify_phis[i])->preds)
        add_phi_arg (pad_verify_phis[i],
                     cst (lay->verify_offset + (uint64_t) eh_verify[e]), e,
                     UNKNOWN_LOCATION);
    }
  for (size_t i = 0; i < phis.size (); i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (phis[i])->preds)
        {
          tree v = r_out[e->src->index];
          add_phi_arg (phis[i], v ? v : cst (0), e, UNKNOWN_LOCATION);
        }
    }
}
