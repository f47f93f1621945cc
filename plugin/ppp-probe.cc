/* ppp-probe.cc - the probe at a path end of a PPP function.
 *
 * The register holds PPP number * 2^32 + Ball-Larus ID (ppp-plan.h).  The
 * probe is first a placeholder call (built where only a statement sequence
 * is at hand, like emit.cc's), then becomes
 *
 *     p = v >> 32;  b = v & 0xffffffff;
 *     q = MIN (p, N);                    the bounds check: table[N] is a
 *     if (table[q] == b)      likely     hole, no ID equals it
 *       counters[off + q]++;             an interesting path
 *     else                    unlikely
 *       __pathprof_hash_count (&counters[off + N], b);   any other path
 *
 * where table[p] is the Ball-Larus ID of the interesting path numbered p.
 * An uninteresting path whose PPP sum falls in [0, N) finds another ID in
 * the table and goes to the hash table by its own ID: no path is ever
 * counted as another. */
#include "gcc-headers.h"
#include "ppp-probe.h"
#include "cfg-split.h"
#include "metadata.h"
#include "pathprof-abi.h"

#include <vector>

static tree placeholder_decl;

void
pp_ppp_count_word (gimple_seq *seq, tree v)
{
  if (!placeholder_decl)
    {
      tree type = build_function_type_list (void_type_node, uint64_type_node,
                                            NULL_TREE);
      placeholder_decl = build_fn_decl ("__pathprof_ppp_placeholder", type);
      TREE_NOTHROW (placeholder_decl) = 1;
      TREE_READONLY (placeholder_decl) = 1;
      DECL_ATTRIBUTES (placeholder_decl)
          = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
    }
  gimple_seq_add_stmt (seq, gimple_build_call (placeholder_decl, 1, v));
}

static tree
cst (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

/* The read-only table of cfun: N Ball-Larus IDs and the hole at N.  */
static tree
table_var (const pp_layout *lay)
{
  static unsigned serial;
  char name[48];
  snprintf (name, sizeof name, "__pathprof_ppp_table.%u", serial++);
  tree type = build_array_type_nelts (uint64_type_node, lay->ppp_size + 1);
  vec<constructor_elt, va_gc> *elts = NULL;
  for (size_t i = 0; i <= lay->ppp_table.size (); i++)
    CONSTRUCTOR_APPEND_ELT (elts, size_int (i),
                            cst (i < lay->ppp_table.size () ? lay->ppp_table[i]
                                                            : PATHPROF_PPP_HOLE));
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name), type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  DECL_INITIAL (var) = build_constructor (type, elts);
  varpool_node::finalize_decl (var);
  return var;
}

static tree
ssa (const char *what)
{
  return make_temp_ssa_name (uint64_type_node, NULL, what);
}

static void
expand_one (gcall *call, const pp_layout *lay, tree counters, tree table,
            tree hash_count)
{
  tree v = gimple_call_arg (call, 0);
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  bool atomic = (lay->flags & PATHPROF_FN_ATOMIC) != 0;

  tree p = ssa ("pp_ppp"), b = ssa ("pp_bl"), q = ssa ("pp_ppp"), t = ssa ("pp_tab");
  gsi_insert_before (&gsi, gimple_build_assign (p, RSHIFT_EXPR, v,
                                                build_int_cst (integer_type_node, 32)),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (b, BIT_AND_EXPR, v, cst (0xffffffffu)),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (q, MIN_EXPR, p, cst (lay->ppp_size)),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (
                               t, build4 (ARRAY_REF, uint64_type_node, table, q,
                                          NULL_TREE, NULL_TREE)),
                     GSI_SAME_STMT);
  gcond *cond = gimple_build_cond (EQ_EXPR, t, b, NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, cond, GSI_SAME_STMT);
  gsi_remove (&gsi, true);

  basic_block hit, miss;
  pp_split_diamond (bb, cond, profile_probability::likely (), &hit, &miss);

  gimple_stmt_iterator h = gsi_start_bb (hit);
  tree idx = ssa ("pp_idx");
  gsi_insert_after (&h, gimple_build_assign (idx, PLUS_EXPR, q,
                                             cst (lay->counter_offset)),
                    GSI_NEW_STMT);
  tree ref = build4 (ARRAY_REF, uint64_type_node, counters, idx, NULL_TREE, NULL_TREE);
  if (atomic)
    {
      tree addr = make_temp_ssa_name (build_pointer_type (uint64_type_node), NULL,
                                      "pp_ctr");
      gsi_insert_after (&h, gimple_build_assign (addr, build_fold_addr_expr (ref)),
                        GSI_NEW_STMT);
      /* __ATOMIC_RELAXED: counts need no ordering.  */
      gsi_insert_after (&h, gimple_build_call (builtin_decl_explicit (
                                                   BUILT_IN_ATOMIC_FETCH_ADD_8),
                                               3, addr, cst (1), integer_zero_node),
                        GSI_NEW_STMT);
    }
  else
    {
      tree old = ssa ("pp_ctr"), inc = ssa ("pp_ctr");
      gsi_insert_after (&h, gimple_build_assign (old, ref), GSI_NEW_STMT);
      gsi_insert_after (&h, gimple_build_assign (inc, PLUS_EXPR, old, cst (1)),
                        GSI_NEW_STMT);
      gsi_insert_after (&h, gimple_build_assign (unshare_expr (ref), inc), GSI_NEW_STMT);
    }

  gimple_stmt_iterator m = gsi_start_bb (miss);
  tree slot = build_fold_addr_expr (
      build4 (ARRAY_REF, uint64_type_node, counters,
              cst (lay->counter_offset + lay->ppp_size), NULL_TREE, NULL_TREE));
  gsi_insert_after (&m, gimple_build_call (hash_count, 2, slot, b),
                    GSI_NEW_STMT);
}

void
pp_ppp_expand (const pp_layout *lay, tree counters, tree hash_count)
{
  if (!placeholder_decl || !(lay->flags & PATHPROF_FN_PPP))
    return;
  std::vector<gcall *> calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi))
          && gimple_call_fndecl (gsi_stmt (gsi)) == placeholder_decl)
        calls.push_back (as_a<gcall *> (gsi_stmt (gsi)));
  if (calls.empty ())
    return;
  tree table = table_var (lay);
  for (size_t i = 0; i < calls.size (); i++)
    expand_one (calls[i], lay, counters, table, hash_count);
}
