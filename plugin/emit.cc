/* emit.cc - stream mode: the probe that appends one event to the thread's
 * chunk (docs/streaming.md, section 3).
 *
 * Probes are first inserted as calls to a placeholder (a const, leaf
 * declaration that is never defined), because they are built where only a
 * statement sequence is at hand.  pp_expand_emits then replaces each
 * placeholder by
 *
 *     p = __pathprof_cur;
 *     if (((uintptr_t) p & __pathprof_mask) == 0)    very unlikely
 *       __pathprof_emit_slow (ev);                   cold
 *     else
 *       { *p = ev; __pathprof_cur = p + 1; }
 *
 * which touches only thread-local state on the fast path.  Chunks are
 * aligned to their size, so the mask test finds a chunk's end from the
 * cursor alone: a cursor the compiler kept in a register while a signal
 * handler swapped chunks stops at its own chunk's end (runtime/producer.c).
 */
#include "gcc-headers.h"
#include "probes.h"
#include "cfg-split.h"

#include <vector>

static tree placeholder_decl, slow_decl, cur_decl, mask_decl, event_type;

static tree
u64_ptr_type (void)
{
  return build_pointer_type (uint64_type_node);
}

/* The runtime's thread-local NAME.  Code of a shared library reaches it
   through the GOT (initial-exec).  Code of an executable defines it
   (weak, so the TUs' definitions and the runtime's in a static link make
   one; exported to the runtime's shared library, whose own definition it
   interposes, as sampling.cc does with the countdown) and reaches it at a
   constant offset from the thread pointer (local-exec): initial-exec
   loads both offsets from the GOT and keeps them in two callee-saved
   registers through every function that emits, a push and a pop each.  */
static tree
runtime_tls (const char *name, tree type)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                          type);
  TREE_PUBLIC (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  if (flag_shlib)
    {
      DECL_EXTERNAL (decl) = 1;
      set_decl_tls_model (decl, TLS_MODEL_INITIAL_EXEC);
      varpool_node::get_create (decl);
      return decl;
    }
  TREE_STATIC (decl) = 1;
  DECL_WEAK (decl) = 1;
  /* Exported whatever -fvisibility or a visibility pragma says.  */
  DECL_VISIBILITY (decl) = VISIBILITY_DEFAULT;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  DECL_INITIAL (decl) = build_zero_cst (type);
  set_decl_tls_model (decl, TLS_MODEL_LOCAL_EXEC);
  varpool_node::finalize_decl (decl);
  return decl;
}

static void
make_decls (void)
{
  if (placeholder_decl)
    return;
  tree type = build_function_type_list (void_type_node, uint64_type_node,
                                        NULL_TREE);
  placeholder_decl = build_fn_decl ("__pathprof_emit_placeholder", type);
  TREE_NOTHROW (placeholder_decl) = 1;
  /* const: no virtual operands, nothing to undo when it is removed.  */
  TREE_READONLY (placeholder_decl) = 1;
  DECL_ATTRIBUTES (placeholder_decl)
      = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);

  slow_decl = build_fn_decl ("__pathprof_emit_slow", type);
  TREE_NOTHROW (slow_decl) = 1;
  /* leaf: never an abnormal goto in a setjmp function; cold: kept out of
     the hot code.  */
  DECL_ATTRIBUTES (slow_decl)
      = tree_cons (get_identifier ("leaf"), NULL_TREE,
                   tree_cons (get_identifier ("cold"), NULL_TREE, NULL_TREE));
  /* Events are stored through a type of their own alias set, so the
     compiler knows a probe's store cannot change the TU's bases or any
     user data, and keeps them in registers across probes.  */
  event_type = build_distinct_type_copy (uint64_type_node);
  TYPE_ALIAS_SET (event_type) = new_alias_set ();
  cur_decl = runtime_tls ("__pathprof_cur", u64_ptr_type ());
  mask_decl = runtime_tls ("__pathprof_mask", pointer_sized_int_node);
}

void
pp_emit_word (gimple_seq *seq, tree ev)
{
  make_decls ();
  gimple_seq_add_stmt (seq, gimple_build_call (placeholder_decl, 1, ev));
}

/* vpp=yes: a path end calls the runtime, which reads the counter first.
   Only the instrumented copy has path ends, and it runs for one path per
   burst, so the call costs nothing between bursts.  */
bool pp_vpp_timed;

void
pp_emit_path (gimple_seq *seq, tree ev)
{
  if (!pp_vpp_timed)
    {
      pp_emit_word (seq, ev);
      return;
    }
  static tree vpp_decl;
  if (!vpp_decl)
    {
      tree type = build_function_type_list (void_type_node, uint64_type_node,
                                            NULL_TREE);
      vpp_decl = build_fn_decl ("__pathprof_vpp_path", type);
      TREE_NOTHROW (vpp_decl) = 1;
      DECL_ATTRIBUTES (vpp_decl)
          = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
    }
  gimple_seq_add_stmt (seq, gimple_build_call (vpp_decl, 1, ev));
}

/* Replaces the placeholder CALL by the probe.  */
static void
expand_one (gcall *call)
{
  tree ev = gimple_call_arg (call, 0);
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);

  tree p = make_temp_ssa_name (u64_ptr_type (), NULL, "pp_cur");
  tree mask = make_temp_ssa_name (pointer_sized_int_node, NULL, "pp_mask");
  tree addr = make_temp_ssa_name (pointer_sized_int_node, NULL, "pp_addr");
  tree low = make_temp_ssa_name (pointer_sized_int_node, NULL, "pp_low");
  gsi_insert_before (&gsi, gimple_build_assign (p, cur_decl), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (mask, mask_decl), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (addr, NOP_EXPR, p), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (low, BIT_AND_EXPR, addr, mask),
                     GSI_SAME_STMT);
  gcond *cond = gimple_build_cond (EQ_EXPR, low,
                                   build_zero_cst (pointer_sized_int_node),
                                   NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, cond, GSI_SAME_STMT);
  gsi_remove (&gsi, true);

  basic_block slow, fast;
  pp_split_diamond (bb, cond, profile_probability::very_unlikely (), &slow, &fast);

  gimple_stmt_iterator s = gsi_start_bb (slow);
  gsi_insert_after (&s, gimple_build_call (slow_decl, 1, ev), GSI_NEW_STMT);

  gimple_stmt_iterator f = gsi_start_bb (fast);
  tree slot = build2 (MEM_REF, event_type, p,
                      build_int_cst (build_pointer_type (event_type), 0));
  tree typed_ev = make_temp_ssa_name (event_type, NULL, "pp_ev");
  gsi_insert_after (&f, gimple_build_assign (typed_ev, NOP_EXPR, ev),
                    GSI_NEW_STMT);
  gsi_insert_after (&f, gimple_build_assign (slot, typed_ev), GSI_NEW_STMT);
  tree next = make_temp_ssa_name (u64_ptr_type (), NULL, "pp_cur");
  gsi_insert_after (&f, gimple_build_assign (next, POINTER_PLUS_EXPR, p,
                                             size_int (sizeof (uint64_t))),
                    GSI_NEW_STMT);
  gsi_insert_after (&f, gimple_build_assign (cur_decl, next), GSI_NEW_STMT);
}

void
pp_expand_emits (void)
{
  if (!placeholder_decl)
    return;
  std::vector<gcall *> calls = pp_calls_to (placeholder_decl);
  for (size_t i = 0; i < calls.size (); i++)
    expand_one (calls[i]);
}
