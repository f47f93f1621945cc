/* ppp-probe.cc - the probe at a path end of a PPP function.
 *
 * The register holds PPP number * 2^S + Ball-Larus ID (ppp-plan.h, S the
 * function's ppp_shift).  The probe is first a placeholder call (built
 * where only a statement sequence is at hand, like emit.cc's), then becomes
 *
 *     q = MIN (v >> S, N);               the bounds check: table[N] is a
 *     if (table[q] == v)      likely     hole, no value reaching it equals it
 *                 (where one interesting path ends: v == its value, a
 *                  constant; where none ends: no check, expand_one)
 *       counters[off + q]++;             an interesting path
 *     else                    unlikely
 *       __pathprof_hash_count (&counters[off + N], v & (2^S - 1));
 *                                        any other path, by its ID b
 *                                        (hash-probe.cc's inline lookup)
 *                 (ppp-uninteresting=total: counters[off + N]++ instead)
 *
 * where table[p] is p * 2^S + the Ball-Larus ID of the interesting path
 * numbered p (table_var), the register value that path ends with.
 * An uninteresting path whose PPP sum falls in [0, N) finds another ID in
 * the table and goes to the hash table by its own ID: no path is ever
 * counted as another. */
#include "gcc-headers.h"
#include "ppp-probe.h"
#include "cfg-split.h"
#include "metadata.h"
#include "options.h"
#include "pathprof-abi.h"

#include <vector>

static tree placeholder_decl;
static tree cst (uint64_t v);

uint64_t
pp_ppp_site (const pp_layout *lay, int end_edge)
{
  if (end_edge < 0 || (size_t) end_edge >= lay->ppp_end_count.size ())
    return lay->ppp_size + 1;
  switch (lay->ppp_end_count[end_edge])
    {
    case 0:
      return lay->ppp_size;
    case 1:
      return lay->ppp_end_number[end_edge];
    default:
      return lay->ppp_size + 1;
    }
}

void
pp_ppp_count_word (gimple_seq *seq, tree v, uint64_t site)
{
  if (!placeholder_decl)
    {
      tree type = build_function_type_list (void_type_node, uint64_type_node,
                                            uint64_type_node, NULL_TREE);
      placeholder_decl = build_fn_decl ("__pathprof_ppp_placeholder", type);
      TREE_NOTHROW (placeholder_decl) = 1;
      TREE_READONLY (placeholder_decl) = 1;
      DECL_ATTRIBUTES (placeholder_decl)
          = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
    }
  gimple_seq_add_stmt (seq, gimple_build_call (placeholder_decl, 2, v, cst (site)));
}

static tree
cst (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

/* The read-only table of cfun: N Ball-Larus IDs and the hole at N
   (stream mode), or, PACKED (count mode), entry p the whole register
   value p * 2^S + ID of the interesting path numbered p, so that the
   probe compares the register itself and needs the ID only on a miss.  A
   packed hole must equal no register value that reaches it: at p < N any
   value with another PPP part, (p + 1) * 2^S; at N (reached by every PPP
   part >= N >= 1) 0, whose PPP part is 0.  */
static tree
table_var (const pp_layout *lay, bool packed)
{
  gcc_assert (lay->ppp_size >= 1);
  static unsigned serial;
  char name[48];
  snprintf (name, sizeof name, "__pathprof_ppp_table.%u", serial++);
  tree type = build_array_type_nelts (uint64_type_node, lay->ppp_size + 1);
  vec<constructor_elt, va_gc> *elts = NULL;
  unsigned s = lay->ppp_shift;
  for (size_t i = 0; i <= lay->ppp_table.size (); i++)
    {
      uint64_t id = i < lay->ppp_table.size () ? lay->ppp_table[i] : PATHPROF_PPP_HOLE;
      uint64_t w = id;
      if (packed)
        w = i == lay->ppp_table.size () ? 0
            : id == PATHPROF_PPP_HOLE  ? (uint64_t) (i + 1) << s
                                        : ((uint64_t) i << s) + id;
      CONSTRUCTOR_APPEND_ELT (elts, size_int (i), cst (w));
    }
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

/* Appends to SEQ the increment of the counter REF.  */
static void
bump (gimple_seq *seq, tree ref, bool atomic)
{
  if (atomic)
    {
      tree addr = make_temp_ssa_name (build_pointer_type (uint64_type_node), NULL,
                                      "pp_ctr");
      gimple_seq_add_stmt (seq, gimple_build_assign (addr, build_fold_addr_expr (ref)));
      /* __ATOMIC_RELAXED: counts need no ordering.  */
      gimple_seq_add_stmt (seq, gimple_build_call (builtin_decl_explicit (
                                                       BUILT_IN_ATOMIC_FETCH_ADD_8),
                                                   3, addr, cst (1), integer_zero_node));
      return;
    }
  tree old = ssa ("pp_ctr"), inc = ssa ("pp_ctr");
  gimple_seq_add_stmt (seq, gimple_build_assign (old, ref));
  gimple_seq_add_stmt (seq, gimple_build_assign (inc, PLUS_EXPR, old, cst (1)));
  gimple_seq_add_stmt (seq, gimple_build_assign (unshare_expr (ref), inc));
}

/* The count of a path that is not interesting, register value V: by its
   ID in the hash table, or in the total (ppp-uninteresting=total).  */
static gimple_seq
other_seq (const pp_layout *lay, tree v, tree counters, tree hash_count, bool atomic)
{
  gimple_seq seq = NULL;
  tree slot_ref = build4 (ARRAY_REF, uint64_type_node, counters,
                          cst (lay->counter_offset + lay->ppp_size), NULL_TREE, NULL_TREE);
  if (pp_opts.ppp_total)
    {
      bump (&seq, slot_ref, atomic);
      return seq;
    }
  tree b = ssa ("pp_bl");
  gimple_seq_add_stmt (&seq, gimple_build_assign (b, BIT_AND_EXPR, v,
                                                  cst ((1ull << lay->ppp_shift) - 1)));
  gimple_seq_add_stmt (&seq, gimple_build_call (hash_count, 2,
                                                build_fold_addr_expr (slot_ref), b));
  return seq;
}

/* One path end.  Its site (pp_ppp_site) picks the check: where no
   interesting path ends, none (every path is another); where one ends,
   numbered p, the register against that path's whole final value
   p * 2^S + ID, a constant (no other path ends with that ID in its low
   bits), and the counter is a constant address; elsewhere the table.  */
static void
expand_one (gcall *call, const pp_layout *lay, tree counters, tree table,
            tree hash_count)
{
  tree v = gimple_call_arg (call, 0);
  uint64_t site = tree_to_uhwi (gimple_call_arg (call, 1)), n = lay->ppp_size;
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  bool atomic = (lay->flags & PATHPROF_FN_ATOMIC) != 0;

  if (site == n)
    {
      gsi_insert_seq_before (&gsi, other_seq (lay, v, counters, hash_count, atomic),
                             GSI_SAME_STMT);
      gsi_remove (&gsi, true);
      return;
    }
  tree want, idx;
  unsigned shift = lay->ppp_shift;
  if (site < n)
    {
      want = cst ((site << shift) + lay->ppp_table[site]);
      idx = cst (lay->counter_offset + site);
    }
  else
    {
      tree p = ssa ("pp_ppp"), q = ssa ("pp_ppp");
      want = ssa ("pp_tab");
      gsi_insert_before (&gsi, gimple_build_assign (p, RSHIFT_EXPR, v,
                                                    build_int_cst (integer_type_node, shift)),
                         GSI_SAME_STMT);
      gsi_insert_before (&gsi, gimple_build_assign (q, MIN_EXPR, p, cst (n)), GSI_SAME_STMT);
      gsi_insert_before (&gsi, gimple_build_assign (
                                   want, build4 (ARRAY_REF, uint64_type_node, table, q,
                                                 NULL_TREE, NULL_TREE)),
                         GSI_SAME_STMT);
      idx = q;   /* offset added in the hit block */
    }
  gcond *cond = gimple_build_cond (EQ_EXPR, want, v, NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, cond, GSI_SAME_STMT);
  gsi_remove (&gsi, true);

  basic_block hit, miss;
  pp_split_diamond (bb, cond, profile_probability::likely (), &hit, &miss);

  gimple_seq h = NULL;
  if (site > n)
    {
      tree off = ssa ("pp_idx");
      gimple_seq_add_stmt (&h, gimple_build_assign (off, PLUS_EXPR, idx,
                                                    cst (lay->counter_offset)));
      idx = off;
    }
  bump (&h, build4 (ARRAY_REF, uint64_type_node, counters, idx, NULL_TREE, NULL_TREE),
        atomic);
  gimple_stmt_iterator hi = gsi_start_bb (hit);
  gsi_insert_seq_after (&hi, h, GSI_NEW_STMT);
  gimple_stmt_iterator m = gsi_start_bb (miss);
  gsi_insert_seq_after (&m, other_seq (lay, v, counters, hash_count, atomic), GSI_NEW_STMT);
}

tree
pp_ppp_stream_index (gimple_seq *seq, tree v, const pp_layout *lay)
{
  uint64_t n = lay->ppp_size, start = pp_ppp_stream_start (lay);
  if (TREE_CODE (v) == INTEGER_CST)
    {
      /* A path whose register is known here: decode it now.  */
      uint64_t w = tree_to_uhwi (v), p = w >> lay->ppp_shift, b = w & (start - 1);
      uint64_t idx = p < n && lay->ppp_table[p] == b ? p : n + b;
      return cst (idx + ((w & start) ? PATHPROF_EV_START : 0));
    }
  /* One read-only table per function, shared by its path ends.  */
  static tree table;
  static function *table_fn;
  static uint32_t table_index;
  if (table_fn != cfun || table_index != lay->fn_index)
    {
      table = table_var (lay, false);
      table_fn = cfun;
      table_index = lay->fn_index;
    }
  /* p = v >> S; b = v & (START - 1); q = MIN (p, N);
     idx = table[q] == b ? q : N + b;  return idx + START moved to bit 61.
     Branch-free: the event is emitted either way.  table[N] is a hole, so
     an uninteresting path whose PPP sum lands in [0, N) or beyond finds
     another ID there and is sent by its own ID.  */
  tree p = ssa ("pp_ppp"), b = ssa ("pp_bl"), q = ssa ("pp_ppp"), t = ssa ("pp_tab");
  tree nb = ssa ("pp_bl"), idx = ssa ("pp_idx"), s = ssa ("pp_start");
  tree s2 = ssa ("pp_start"), ev = ssa ("pp_idx");
  tree hit = make_temp_ssa_name (boolean_type_node, NULL, "pp_hit");
  gimple_seq_add_stmt (seq, gimple_build_assign (
                                p, RSHIFT_EXPR, v,
                                build_int_cst (integer_type_node, lay->ppp_shift)));
  gimple_seq_add_stmt (seq, gimple_build_assign (b, BIT_AND_EXPR, v, cst (start - 1)));
  gimple_seq_add_stmt (seq, gimple_build_assign (q, MIN_EXPR, p, cst (n)));
  gimple_seq_add_stmt (seq, gimple_build_assign (
                                t, build4 (ARRAY_REF, uint64_type_node, table, q,
                                           NULL_TREE, NULL_TREE)));
  gimple_seq_add_stmt (seq, gimple_build_assign (hit, EQ_EXPR, t, b));
  gimple_seq_add_stmt (seq, gimple_build_assign (nb, PLUS_EXPR, b, cst (n)));
  gimple_seq_add_stmt (seq, gimple_build_assign (idx, COND_EXPR, hit, q, nb));
  gimple_seq_add_stmt (seq, gimple_build_assign (s, BIT_AND_EXPR, v, cst (start)));
  gimple_seq_add_stmt (seq, gimple_build_assign (
                                s2, LSHIFT_EXPR, s,
                                build_int_cst (integer_type_node,
                                               61 - (lay->ppp_shift - 1))));
  gimple_seq_add_stmt (seq, gimple_build_assign (ev, PLUS_EXPR, idx, s2));
  return ev;
}

void
pp_ppp_expand (const pp_layout *lay, tree counters, tree hash_count)
{
  if (!placeholder_decl || !(lay->flags & PATHPROF_FN_PPP))
    return;
  std::vector<gcall *> calls = pp_calls_to (placeholder_decl);
  if (calls.empty ())
    return;
  tree table = table_var (lay, true);
  for (size_t i = 0; i < calls.size (); i++)
    expand_one (calls[i], lay, counters, table, hash_count);
}
