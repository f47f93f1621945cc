/* sampling.cc - the checking copy of a function and the countdown checks
 * (docs/sampling.md).
 *
 * Order of work for one sampled function (pass.cc):
 *   1. the DAG is built and numbered on the original body, exactly as
 *      without sampling, so path IDs and the CFG checksum are the same and
 *      sampled and exact profiles of one build compare and merge;
 *   2. pp_sampling_copy copies every block.  The copy is the checking
 *      copy; it is unreachable for now.  Its SSA definitions are new names
 *      registered with the SSA updater (GCC's block duplication does that),
 *      so update_ssa renames the uses, and inserts PHIs where the copies
 *      meet, once they are connected;
 *   3. pp_instrument puts the probes in the original only (it walks the
 *      blocks reachable from ENTRY), which becomes the instrumented copy;
 *   4. pp_sampling_connect turns the entry edge and the back edges of both
 *      copies into checks.
 *
 * Control changes copy only at a check, that is where a Ball-Larus path
 * starts (function entry, loop header after a back edge), and enters the
 * instrumented copy with the path register's constant for that start:
 * every path the instrumented copy counts is a whole path of the one
 * numbering.  A back edge of the instrumented copy counts its path before
 * its check (the probe is on the edge, the check after it).  */
#include "gcc-headers.h"
#include "sampling.h"
#include "dag.h"
#include "options.h"
#include "pathprof-abi.h"

#include <string.h>
#include <vector>

namespace {

/* The arguments of a block's PHIs on one edge, in PHI order.  Not the
   PHIs themselves: a PHI is reallocated when its block gets an edge.  */
typedef std::vector<tree> phi_args;

struct back_edge {
  edge orig;          /* the instrumented copy's back edge (split by its probe) */
  edge copy;          /* the same edge in the checking copy */
  edge instr_in;      /* after pp_instrument: the edge from the probe to the header */
};

} // namespace

struct pp_dual {
  basic_block first_copy;      /* the checking copy's first block */
  basic_block first_instr;     /* the instrumented copy's first block */
  auto_bitmap checking;        /* the checking copy's blocks, by index */
  phi_args entry_args;         /* its PHIs' arguments on the entry edge */
  std::vector<back_edge> backs;
};

namespace {

tree cd_decl, turn_decl;

/* The function's own copy of the countdown (see pp_sampling_connect): a
   local variable, not yet in SSA form, that update_ssa puts into it (the
   updater renames a variable it finds as a bare operand).  */
tree cd_local;

void
make_decls (void)
{
  if (cd_decl)
    return;
  cd_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                        get_identifier ("__pathprof_sample_cd"),
                        uint64_type_node);
  TREE_PUBLIC (cd_decl) = 1;
  DECL_ARTIFICIAL (cd_decl) = 1;
  if (flag_shlib)
    {
      /* Code of a shared library reaches the runtime's countdown through
         the GOT (initial-exec).  */
      DECL_EXTERNAL (cd_decl) = 1;
      set_decl_tls_model (cd_decl, TLS_MODEL_INITIAL_EXEC);
      varpool_node::get_create (cd_decl);
    }
  else
    {
      /* Code of an executable defines the countdown (weak, so the TUs'
         definitions and the runtime's in a static link make one; it is
         exported to the runtime's shared library, whose own definition
         it interposes) and reaches it at a constant offset from the
         thread pointer (local-exec): initial-exec would load the offset
         from the GOT and keep it in a callee-saved register for the whole
         function (a push, a pop and a register less in every sampled
         function, two instructions at its entry check).  */
      TREE_STATIC (cd_decl) = 1;
      DECL_WEAK (cd_decl) = 1;
      DECL_INITIAL (cd_decl) = build_int_cstu (uint64_type_node, 0);
      set_decl_tls_model (cd_decl, TLS_MODEL_LOCAL_EXEC);
      varpool_node::finalize_decl (cd_decl);
    }

  tree type = build_function_type_list (integer_type_node, NULL_TREE);
  /* Stream mode's marks where bursts begin and end in the stream.  */
  /* vpp=yes: bursts of one path, whose start the runtime times.  */
  turn_decl = build_fn_decl (pp_opts.vpp ? "__pathprof_sample_turn_vpp"
                             : pp_stream_mode () ? "__pathprof_sample_turn_stream"
                                                 : "__pathprof_sample_turn", type);
  TREE_NOTHROW (turn_decl) = 1;
  /* leaf: never an abnormal goto target's source; cold: off the hot path.  */
  DECL_ATTRIBUTES (turn_decl)
      = tree_cons (get_identifier ("leaf"), NULL_TREE,
                   tree_cons (get_identifier ("cold"), NULL_TREE, NULL_TREE));
}

tree
cst (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

phi_args
capture (edge e)
{
  phi_args a;
  for (gphi_iterator gsi = gsi_start_phis (e->dest); !gsi_end_p (gsi);
       gsi_next (&gsi))
    a.push_back (PHI_ARG_DEF_FROM_EDGE (gsi.phi (), e));
  return a;
}

void
apply (const phi_args &a, edge e)
{
  size_t i = 0;
  for (gphi_iterator gsi = gsi_start_phis (e->dest); !gsi_end_p (gsi);
       gsi_next (&gsi), i++)
    {
      gcc_assert (i < a.size ());
      add_phi_arg (gsi.phi (), a[i], e, UNKNOWN_LOCATION);
    }
  gcc_assert (i == a.size ());
}

/* A new block after AFTER, in AFTER's loop.  */
basic_block
new_block (basic_block after)
{
  basic_block bb = create_empty_bb (after);
  if (current_loops)
    add_bb_to_loop (bb, after->loop_father);
  bb->count = profile_count::zero ();
  return bb;
}

/* Appends "if (LHS CODE RHS)" to BB.  */
void
end_with_cond (basic_block bb, gimple_seq seq, tree_code code, tree lhs,
               tree rhs)
{
  gimple_seq_add_stmt (&seq, gimple_build_cond (code, lhs, rhs, NULL_TREE,
                                                NULL_TREE));
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
}

edge
add_edge (basic_block from, basic_block to, int flags,
          profile_probability p, const phi_args &args)
{
  edge e = make_edge (from, to, flags);
  e->probability = p;
  apply (args, e);
  return e;
}

/* Ends BB with the test "the countdown C1 says copy INSTR" (see
   pathprof-abi.h): to TARGET, whose PHIs take ARGS, with probability P,
   else to FAIL.  The checking copy while C1 is in [0, BASE), which with
   BASE = 2^63 is C1 >= 0 as a signed number: the sign flag of the
   decrement decides (x86-64: sub, jns), with no constant and no separate
   test (C1 > 0 would need one: the flags of a subtraction compare the
   unwrapped difference).  The instrumented copy while C1 is in
   (BASE, 2^64 - 1): two comparisons, not one of C1 - (BASE + 1), which
   GCC folds into the decrement's operand, so that the value before the
   decrement stays live beside C1 and costs register moves in every
   loop.  Returns the edge to TARGET.  */
edge
branch_on_state (basic_block bb, tree c1, bool instr, basic_block target,
                 const phi_args &args, profile_probability p,
                 basic_block fail)
{
  static_assert (PATHPROF_SAMPLE_BURST_BASE == 1ull << 63,
                 "the checking copy's test is a sign test");
  if (!instr)
    {
      gimple_seq seq = NULL;
      tree t = make_temp_ssa_name (signed_type_for (uint64_type_node), NULL,
                                   "pp_cd");
      gimple_seq_add_stmt (&seq, gimple_build_assign (t, NOP_EXPR, c1));
      end_with_cond (bb, seq, GE_EXPR, t, build_int_cst (TREE_TYPE (t), 0));
      edge to = add_edge (bb, target, EDGE_TRUE_VALUE, p, args);
      add_edge (bb, fail, EDGE_FALSE_VALUE, p.invert (), phi_args ());
      return to;
    }
  end_with_cond (bb, NULL, GT_EXPR, c1, cst (PATHPROF_SAMPLE_BURST_BASE));
  basic_block not_max = new_block (bb);
  not_max->count = bb->count.apply_probability (p);
  add_edge (bb, not_max, EDGE_TRUE_VALUE, p, phi_args ());
  add_edge (bb, fail, EDGE_FALSE_VALUE, p.invert (), phi_args ());
  end_with_cond (not_max, NULL, NE_EXPR, c1, cst (~(uint64_t) 0));
  edge to = add_edge (not_max, target, EDGE_TRUE_VALUE,
                      profile_probability::very_likely (), args);
  add_edge (not_max, fail, EDGE_FALSE_VALUE,
            profile_probability::very_unlikely (), phi_args ());
  return to;
}


/* Inserts STMT, which assigns the local countdown, after GSI (moving GSI
   to it); returns the new value, an SSA name.  */
tree
new_local (gassign *stmt, gimple_stmt_iterator *gsi)
{
  gsi_insert_after (gsi, stmt, GSI_NEW_STMT);
  tree c = make_temp_ssa_name (uint64_type_node, NULL, "pp_cd");
  gsi_insert_after (gsi, gimple_build_assign (c, cd_local), GSI_NEW_STMT);
  return c;
}

/* An asm operand: CONSTRAINT and VAL.  */
tree
asm_operand (const char *constraint, tree val)
{
  tree c = build_string (strlen (constraint) + 1, constraint);
  return build_tree_list (build_tree_list (NULL_TREE, c), val);
}

/* Inserts "asm ("" : "+r" (l))" after GSI: the local countdown passes
   through an empty asm, and what follows sees a value the optimizers
   know nothing of (hide_countdown_at_exits).  */
void
opaque_local (gimple_stmt_iterator *gsi)
{
  vec<tree, va_gc> *outs = NULL, *ins = NULL;
  vec_safe_push (outs, asm_operand ("=r", cd_local));
  vec_safe_push (ins, asm_operand ("0", cd_local));
  gasm *a = gimple_build_asm_vec ("", ins, outs, NULL, NULL);
  gimple_asm_set_volatile (a, false);
  gsi_insert_after (gsi, a, GSI_NEW_STMT);
}

/* Keeps RTL PRE from hoisting a loop's next decrement into its header.
   The check on a loop's back edge computes l - 1; so does the next check
   after the loop's exit (the back edge of the enclosing loop, often), on
   the same l: PRE sees l - 1 anticipated on every path from the header
   and computes it there, and the loop then carries the old and the new
   value in two registers (bzip2's six-instruction move-to-front loop
   became ten: mov, test, js, lea, instead of eight).  An empty asm on l
   where control leaves a loop of the checking copy makes the later
   checks decrement another value: on the exit edges, split, and for a
   back edge that also leaves an inner loop, in its check (the result,
   by back edge).  Not in the loop's own check: an asm there costs
   register copies in the loop.  */
std::vector<bool>
hide_countdown_at_exits (pp_dual *dual)
{
  std::vector<bool> leaves (dual->backs.size (), false);
  if (!current_loops)
    return leaves;
  std::vector<edge> exits;
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (dual->checking, 0, i, bi)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
      if (!bb || !bb->loop_father || bb->loop_father == current_loops->tree_root)
        continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        {
          if ((e->flags & (EDGE_EH | EDGE_ABNORMAL))
              || e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun)
              || flow_bb_inside_loop_p (bb->loop_father, e->dest))
            continue;
          size_t k = 0;
          while (k < dual->backs.size () && dual->backs[k].copy != e)
            k++;
          if (k < dual->backs.size ())
            leaves[k] = true;
          else
            exits.push_back (e);
        }
    }
  for (size_t k = 0; k < exits.size (); k++)
    {
      basic_block bb = split_edge (exits[k]);
      gimple_stmt_iterator gsi = gsi_start_bb (bb);
      opaque_local (&gsi);
    }
  return leaves;
}

/* Whether CALL may run checks or look at the thread's countdown: every
   call but GCC's internal functions, leaf builtins (they never call back
   into this unit) and the runtime's own entry points (probes).  */
bool
call_sees_countdown (gimple *call)
{
  if (gimple_call_internal_p (call))
    return false;
  tree fn = gimple_call_fndecl (call);
  if (fn == turn_decl)
    return false;
  if (fn && (gimple_call_flags (call) & ECF_LEAF)
      && gimple_call_builtin_p (call, BUILT_IN_NORMAL))
    return false;
  if (fn && DECL_NAME (fn)
      && startswith (IDENTIFIER_POINTER (DECL_NAME (fn)), "__pathprof_"))
    return false;
  return true;
}

/* Keeps the thread's countdown true wherever something else may read or
   change it: written back from the local copy before every call that may
   run checks and before every return, loaded again after such a call and
   at every landing pad (a callee that threw had it written back).  */
void
sync_local_around_calls (void)
{
  std::vector<gimple *> calls;
  std::vector<basic_block> pads;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      if (bb_has_eh_pred (bb))
        pads.push_back (bb);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (gimple_code (stmt) == GIMPLE_RETURN
              || (is_gimple_call (stmt) && call_sees_countdown (stmt)))
            calls.push_back (stmt);
        }
    }
  for (size_t i = 0; i < calls.size (); i++)
    {
      gimple *stmt = calls[i];
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_insert_before (&gsi, gimple_build_assign (cd_decl, cd_local),
                         GSI_SAME_STMT);
      if (!is_gimple_call (stmt) || gimple_call_noreturn_p (stmt))
        continue;
      if (!stmt_ends_bb_p (stmt))
        {
          new_local (gimple_build_assign (cd_local, cd_decl), &gsi);
          continue;
        }
      /* A call that can throw ends its block: the load goes on the
         normal edge (the landing pad has its own).  */
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (stmt)->succs)
        if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
          {
            basic_block to = split_edge (e);
            gimple_stmt_iterator at = gsi_start_bb (to);
            gsi_insert_before (&at, gimple_build_assign (cd_local, cd_decl),
                               GSI_NEW_STMT);
            break;
          }
    }
  for (size_t i = 0; i < pads.size (); i++)
    {
      gimple_stmt_iterator gsi = gsi_after_labels (pads[i]);
      gsi_insert_before (&gsi, gimple_build_assign (cd_local, cd_decl),
                         GSI_NEW_STMT);
    }
}

/* Turns edge E into a check.  E's destination belongs to the instrumented
   copy when DEST_INSTR; OTHER is the corresponding block of the other
   copy, whose PHIs take OTHER_ARGS on edges from the check.  HOT_INSTR:
   which copy the thread is expected in at this check (the first test).

       K:  [entry: l = cd;] c = l = l - 1; if (state (c) == hot) goto hot-copy;
       K2: if (state (c) == other) goto other-copy;
       K3: cd = l; t = __pathprof_sample_turn (); l = cd;
           if (t) goto instrumented; else checking;
   (cd: the thread's countdown; l: the function's local copy.)  */
void
insert_check (edge e, bool dest_instr, basic_block other,
              const phi_args &other_args, bool hot_instr, bool entry = false,
              bool direct = false, bool opaque = false)
{
  basic_block dest = e->dest;
  basic_block k = split_edge (e);
  edge to_dest = single_succ_edge (k);
  phi_args dest_args = capture (to_dest);
  remove_edge (to_dest);

  basic_block instr_bb = dest_instr ? dest : other;
  basic_block check_bb = dest_instr ? other : dest;
  const phi_args &instr_args = dest_instr ? dest_args : other_args;
  const phi_args &check_args = dest_instr ? other_args : dest_args;

  /* ENTRY: the function's first check loads the thread's countdown into
     the local copy (its original definition); the others use the copy.  */
  gimple_stmt_iterator gsi = gsi_last_bb (k);
  tree c1;
  if (direct)
    {
      /* DIRECT: the thread's countdown itself, no local copy.  */
      tree old = make_temp_ssa_name (uint64_type_node, NULL, "pp_cd");
      gsi_insert_after (&gsi, gimple_build_assign (old, cd_decl),
                        GSI_NEW_STMT);
      c1 = make_temp_ssa_name (uint64_type_node, NULL, "pp_cd");
      gsi_insert_after (&gsi, gimple_build_assign (c1, MINUS_EXPR, old,
                                                   cst (1)), GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (cd_decl, c1), GSI_NEW_STMT);
    }
  else
    {
      if (entry)
        gsi_insert_after (&gsi, gimple_build_assign (cd_local, cd_decl),
                          GSI_NEW_STMT);
      if (opaque)
        opaque_local (&gsi);
      c1 = new_local (gimple_build_assign (cd_local, MINUS_EXPR, cd_local,
                                           cst (1)), &gsi);
    }
  basic_block k2 = new_block (k);
  basic_block k3 = new_block (k2);
  k2->count = k->count.apply_probability (profile_probability::very_unlikely ());
  k3->count = k2->count.apply_probability (profile_probability::even ());
  branch_on_state (k, c1, hot_instr, hot_instr ? instr_bb : check_bb,
                   hot_instr ? instr_args : check_args,
                   profile_probability::very_likely (), k2);
  branch_on_state (k2, c1, !hot_instr, hot_instr ? check_bb : instr_bb,
                   hot_instr ? check_args : instr_args,
                   profile_probability::even (), k3);

  /* The runtime reads and sets the thread's countdown: the local copy is
     written back before the call and loaded again after it.  */
  tree t = make_temp_ssa_name (integer_type_node, NULL, "pp_turn");
  gcall *call = gimple_build_call (turn_decl, 0);
  gimple_call_set_lhs (call, t);
  gsi = gsi_last_bb (k3);
  if (!direct)
    gsi_insert_after (&gsi, gimple_build_assign (cd_decl, cd_local),
                      GSI_NEW_STMT);
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);
  if (!direct)
    new_local (gimple_build_assign (cd_local, cd_decl), &gsi);
  gimple_seq seq = NULL;
  end_with_cond (k3, seq, NE_EXPR, t, integer_zero_node);
  add_edge (k3, instr_bb, EDGE_TRUE_VALUE, profile_probability::even (),
            instr_args);
  add_edge (k3, check_bb, EDGE_FALSE_VALUE, profile_probability::even (),
            check_args);
}

/* The instrumented copy runs only in bursts, so its profile counts are
   scaled down to what the entry check gives it (PROB): both copies kept
   the original's counts, which told the IPA inliner that the calls of the
   instrumented copy are as hot as those of the checking copy (so it spent
   the unit's growth budget inlining into both), and the block layout that
   the two copies are equally hot (so the instrumented blocks sat among
   the checking copy's).  The instrumented copy is the part reachable from
   its first block without entering the checking copy.  Not for vpp=yes,
   whose timed paths must run code optimized like the checking copy.  */
void
cool_instrumented (pp_dual *dual, profile_probability prob)
{
  auto_sbitmap seen (last_basic_block_for_fn (cfun));
  bitmap_clear (seen);
  std::vector<basic_block> work (1, dual->first_instr);
  bitmap_set_bit (seen, dual->first_instr->index);
  while (!work.empty ())
    {
      basic_block bb = work.back ();
      work.pop_back ();
      bb->count = bb->count.apply_probability (prob);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun)
            && !bitmap_bit_p (dual->checking, e->dest->index)
            && !bitmap_bit_p (seen, e->dest->index))
          {
            bitmap_set_bit (seen, e->dest->index);
            work.push_back (e->dest);
          }
    }
}

void
drop_flow_facts (tree name)
{
  if (TREE_CODE (name) != SSA_NAME)
    return;
  if (!virtual_operand_p (name))
    reset_flow_sensitive_info (name);
}

} // namespace

const char *
pp_sampling_obstacle (void)
{
  basic_block bb;
  std::vector<basic_block> bbs;
  FOR_EACH_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->flags & EDGE_ABNORMAL)
          return "it has abnormal edges (setjmp, nonlocal labels or a "
                 "computed goto), whose targets cannot be copied";
      /* A C++ try with typed catch clauses dispatches on the exception's
         type in a GIMPLE_EH_DISPATCH, whose EH region names its handlers
         by label: a copy of the block would dispatch to the original
         handlers' labels while its edges lead to the copies, and GCC
         breaks on it (an ICE in ehdisp or in redirect_eh_dispatch_edge;
         yaml-cpp's emitfromevents.cpp, tests/sampling-eh-dispatch.t).  */
      gimple *last = last_stmt (bb);
      if (last && gimple_code (last) == GIMPLE_EH_DISPATCH)
        return "it dispatches exceptions to typed catch clauses "
               "(GIMPLE_EH_DISPATCH), whose handlers cannot be copied";
      bbs.push_back (bb);
    }
  if (!can_copy_bbs_p (bbs.data (), bbs.size ()))
    return "GCC cannot copy some of its blocks";
  return NULL;
}

pp_dual *
pp_sampling_copy (const pp_dag *dag)
{
  make_decls ();
  pp_dual *dual = new pp_dual;
  std::vector<basic_block> bbs;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    bbs.push_back (bb);
  std::vector<basic_block> copies (bbs.size ());
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  basic_block first = entry->dest;

  /* A call whose callee lost const or pure (callee-flags.cc, or another
     function instrumented before this one) has no virtual definition yet
     (refresh_call_vops in pass.cc adds them at the end); a copy of it
     would get a bare .MEM one, which block duplication cannot rename.
     So the calls get theirs now.  */
  for (size_t k = 0; k < bbs.size (); k++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[k]); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi)))
        update_stmt (gsi_stmt (gsi));
  mark_virtual_operands_for_renaming (cfun);
  update_ssa (TODO_update_ssa_only_virtuals);
  /* The copy and the checks change the CFG without keeping dominators.  */
  free_dominance_info (CDI_DOMINATORS);
  /* Value ranges and pointer facts learnt so far hold in both copies,
     but where the copies meet, update_ssa's new PHIs merge names whose
     facts were never checked together: they are dropped (later VRP
     passes learn them again).  */
  for (size_t k = 0; k < bbs.size (); k++)
    {
      for (gphi_iterator gsi = gsi_start_phis (bbs[k]); !gsi_end_p (gsi);
           gsi_next (&gsi))
        drop_flow_facts (gimple_phi_result (gsi.phi ()));
      for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[k]); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          ssa_op_iter it;
          def_operand_p def;
          FOR_EACH_SSA_DEF_OPERAND (def, gsi_stmt (gsi), it, SSA_OP_DEF)
            drop_flow_facts (DEF_FROM_PTR (def));
        }
    }

  initialize_original_copy_tables ();
  /* Copies of the loops first, so the copied headers and latches get
     loops of their own (with the originals' properties) instead of the
     original loops being dropped.  */
  if (current_loops)
    {
      /* Not duplicate_subloops (root, root): it would walk its own copies.  */
      class loop *root = current_loops->tree_root;
      std::vector<class loop *> top;
      for (class loop *l = root->inner; l; l = l->next)
        top.push_back (l);
      for (size_t i = 0; i < top.size (); i++)
        duplicate_subloops (top[i], duplicate_loop (top[i], root));
    }
  copy_bbs (bbs.data (), bbs.size (), copies.data (), NULL, 0, NULL,
            current_loops ? current_loops->tree_root : NULL,
            EXIT_BLOCK_PTR_FOR_FN (cfun)->prev_bb, false);
  add_phi_args_after_copy (copies.data (), copies.size (), NULL);

  dual->first_copy = get_bb_copy (first);
  dual->first_instr = first;
  for (size_t k = 0; k < copies.size (); k++)
    bitmap_set_bit (dual->checking, copies[k]->index);
  gphi_iterator a = gsi_start_phis (first);
  gphi_iterator b = gsi_start_phis (dual->first_copy);
  for (; !gsi_end_p (a) && !gsi_end_p (b); gsi_next (&a), gsi_next (&b))
    dual->entry_args.push_back (PHI_ARG_DEF_FROM_EDGE (a.phi (), entry));
  gcc_assert (gsi_end_p (a) && gsi_end_p (b));

  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      const pp_edge &e = dag->edges[i];
      if (e.kind != PATHPROF_EDGE_EXIT_DUMMY || !e.cfg
          || !(e.cfg->flags & EDGE_DFS_BACK)
          || (e.cfg->flags & (EDGE_EH | EDGE_ABNORMAL)))
        continue;
      back_edge be;
      be.orig = e.cfg;
      be.copy = find_edge (get_bb_copy (e.cfg->src), get_bb_copy (e.cfg->dest));
      be.instr_in = NULL;
      gcc_assert (be.copy);
      dual->backs.push_back (be);
    }
  free_original_copy_tables ();
  return dual;
}

void
pp_sampling_instrumented (pp_dual *dual)
{
  /* pp_instrument split every back edge for its probe: the edge now ends
     in the probe's block, whose single successor is the header.  */
  for (size_t i = 0; i < dual->backs.size (); i++)
    dual->backs[i].instr_in = single_succ_edge (dual->backs[i].orig->dest);
}

void
pp_sampling_connect (pp_dual *dual)
{
  /* The countdown is the thread's (__pathprof_sample_cd, initial-exec
     TLS), but a load and a store of it on every back edge cost more than
     the rest of a small loop body: the function keeps a local copy, a
     register, and writes it back only where something else may look
     (calls, returns; sync_local_around_calls).  */
  cd_local = create_tmp_reg (uint64_type_node, "pp_cdl");
  /* Every template first: inserting a check replaces the edge it is on.  */
  std::vector<phi_args> instr_args, check_args;
  for (size_t i = 0; i < dual->backs.size (); i++)
    {
      instr_args.push_back (capture (dual->backs[i].instr_in));
      check_args.push_back (capture (dual->backs[i].copy));
    }
  std::vector<bool> leaves = hide_countdown_at_exits (dual);
  for (size_t i = 0; i < dual->backs.size (); i++)
    {
      const back_edge &be = dual->backs[i];
      basic_block instr_head = be.instr_in->dest;
      basic_block check_head = be.copy->dest;
      insert_check (be.instr_in, true, check_head, check_args[i], true);
      insert_check (be.copy, false, instr_head, instr_args[i], false, false,
                    false, leaves[i]);
    }
  /* A function without loops has one check, at its entry: it decrements
     the thread's countdown in place (x86-64: subq $1, %fs:cd; js), and
     needs no local copy to write back at its returns and around its
     calls (two instructions per call of it and two per call it makes).  */
  bool direct = dual->backs.empty ();
  if (!direct)
    sync_local_around_calls ();
  /* The entry: most calls happen between bursts.  Last, so that its
     load is the local copy's original definition.  */
  insert_check (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)), true,
                dual->first_copy, dual->entry_args, false, true, direct);
  if (!pp_opts.vpp)
    cool_instrumented (dual, profile_probability::very_unlikely ());
  delete dual;
}
