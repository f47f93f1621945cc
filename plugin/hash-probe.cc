/* hash-probe.cc - count mode, hash-mode functions: the probe's fast path
 * inline (docs/runtime.md, "Hash-mode counts").
 *
 * A function with too many paths for an array counts each path end in a
 * hash table of the runtime (runtime/hash-table.h).  Calling
 * __pathprof_hash_count at every path end cost more than the lookup
 * itself: a call in a hot loop makes the compiler keep the loop's values
 * in callee-saved registers or on the stack, and brotli's match finder ran
 * 2.5x slower in counting mode than under -fprofile-generate.  So a path
 * end is first a placeholder call (built where only a statement sequence
 * is at hand), and pp_expand_hash_counts replaces it by
 *
 *     root = *slot;                               acquire
 *     if (root == 0) goto call;                   very unlikely: first count
 *     t = root->current;                          acquire
 *     key = id + 1;                               the table's key of ID
 *     e = &t->entries[(key * MULT) >> t->shift];  the key's home entry
 *     if (e->key != key) goto call;               unlikely: another probe
 *     if (__libc_single_threaded)
 *       asm ("addq $1, %0" : "+m" (e->count));    one instruction: signal-safe
 *     else
 *       __atomic_fetch_add (&e->count, 1, relaxed);
 *     goto done;
 *   call:
 *     __pathprof_hash_count (slot, id);           probes, inserts, growth
 *   done:
 *
 * Why it stays exact: a key, once set, never changes and tables are never
 * freed (hash-table.h), so an entry whose key is KEY counts ID whatever
 * generation it is in; anything else is the runtime's, as before.  The
 * layout it reads is part of the run-time ABI (pathprof-abi.h,
 * PATHPROF_HASH_*; runtime/hash-table.h checks it).  */
#include "gcc-headers.h"
#include "memmodel.h"
#include "probes.h"
#include "cfg-split.h"
#include "pathprof-abi.h"

#include <vector>

static tree placeholder_decl, single_decl;

/* The placeholder: const and leaf, so that nothing has to be undone when
   it is replaced.  */
tree
pp_hash_placeholder_decl (void)
{
  if (placeholder_decl)
    return placeholder_decl;
  /* The runtime entry's type: the expansion passes the arguments on.  */
  placeholder_decl = build_fn_decl ("__pathprof_hash_placeholder",
                                    TREE_TYPE (pp_hash_count_decl ()));
  TREE_NOTHROW (placeholder_decl) = 1;
  TREE_READONLY (placeholder_decl) = 1;
  DECL_ATTRIBUTES (placeholder_decl)
      = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
  return placeholder_decl;
}

/* The inline lookup, expanded by pp_expand_hash_counts; under
   ThreadSanitizer the runtime's call, as the probe's loads would race in
   its eyes with stores of a runtime it does not see (libpathprof is not
   built with it).  */
tree
pp_hash_count_fn (void)
{
  return (flag_sanitize & SANITIZE_THREAD) ? pp_hash_count_decl ()
                                           : pp_hash_placeholder_decl ();
}

/* glibc's __libc_single_threaded (2.32 and later): non-zero until the
   process creates its first thread.  */
static tree
single_threaded_decl (void)
{
  if (single_decl)
    return single_decl;
  single_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                            get_identifier ("__libc_single_threaded"),
                            char_type_node);
  TREE_PUBLIC (single_decl) = 1;
  DECL_EXTERNAL (single_decl) = 1;
  DECL_ARTIFICIAL (single_decl) = 1;
  varpool_node::get_create (single_decl);
  return single_decl;
}

static tree
u64 (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

static tree
ssa (tree type, const char *name)
{
  return make_temp_ssa_name (type, NULL, name);
}

/* The uint64 at ADDR (a pointer-typed value), as a memory reference.  */
static tree
u64_at (tree addr)
{
  return build2 (MEM_REF, uint64_type_node, addr,
                 build_int_cst (build_pointer_type (uint64_type_node), 0));
}

/* LHS = __atomic_load_n ((uint64_t *) ADDR, MODEL), inserted after GSI.  */
static tree
atomic_load (gimple_stmt_iterator *gsi, tree addr, int model, const char *name)
{
  tree lhs = ssa (uint64_type_node, name);
  gcall *c = gimple_build_call (builtin_decl_explicit (BUILT_IN_ATOMIC_LOAD_8), 2,
                                addr, build_int_cst (integer_type_node, model));
  gimple_call_set_lhs (c, lhs);
  gsi_insert_after (gsi, c, GSI_NEW_STMT);
  return lhs;
}

/* ADDR (a uint64 value) + OFF as a pointer, after GSI.  */
static tree
pointer_at (gimple_stmt_iterator *gsi, tree addr, uint64_t off)
{
  tree sum = addr;
  if (off != 0)
    {
      sum = ssa (uint64_type_node, "pp_hadr");
      gsi_insert_after (gsi, gimple_build_assign (sum, PLUS_EXPR, addr, u64 (off)),
                        GSI_NEW_STMT);
    }
  tree p = ssa (ptr_type_node, "pp_hptr");
  gsi_insert_after (gsi, gimple_build_assign (p, NOP_EXPR, sum), GSI_NEW_STMT);
  return p;
}

static void
call_runtime (basic_block bb, tree slot, tree id)
{
  gimple_stmt_iterator s = gsi_start_bb (bb);
  gsi_insert_after (&s, gimple_build_call (pp_hash_count_decl (), 2, slot, id),
                    GSI_NEW_STMT);
}

/* Ends BB, whose last statement is at GSI, with "if (A CODE B)" and splits
   it into a diamond: *YES when it holds (probability P), else *NO.  */
static void
branch (basic_block bb, gimple_stmt_iterator *gsi, tree_code code, tree a, tree b,
        profile_probability p, basic_block *yes, basic_block *no)
{
  gcond *cond = gimple_build_cond (code, a, b, NULL_TREE, NULL_TREE);
  gsi_insert_after (gsi, cond, GSI_NEW_STMT);
  pp_split_diamond (bb, cond, p, yes, no);
}

/* *COUNT_PTR += 1 at the end of BB (GSI its last statement): the unlocked
   add while the process has one thread, else the atomic one.  */
static void
bump_count (basic_block bb, gimple_stmt_iterator *gsi, tree count_ptr)
{
  tree atomic_add = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
  gcall *locked_add = gimple_build_call (atomic_add, 3, count_ptr, u64 (1),
                                         build_int_cst (integer_type_node,
                                                        MEMMODEL_RELAXED));
#if defined(__x86_64__)
  tree single = ssa (char_type_node, "pp_single");
  gsi_insert_after (gsi, gimple_build_assign (single, single_threaded_decl ()),
                    GSI_NEW_STMT);
  basic_block plain, locked;
  branch (bb, gsi, NE_EXPR, single, build_zero_cst (char_type_node),
          profile_probability::likely (), &plain, &locked);
  /* One add with a memory operand: a signal handler on this thread that
     counts the same path cannot fall between a load and a store.  */
  vec<tree, va_gc> *outs = NULL, *ins = NULL, *clobbers = NULL;
  tree cnt = u64_at (count_ptr);
  vec_safe_push (outs, build_tree_list (build_tree_list (NULL_TREE,
                                                         build_string (3, "=m")),
                                        cnt));
  vec_safe_push (ins, build_tree_list (build_tree_list (NULL_TREE,
                                                        build_string (2, "m")),
                                       unshare_expr (cnt)));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  gasm *add = gimple_build_asm_vec ("addq $1, %0", ins, outs, clobbers, NULL);
  gimple_asm_set_volatile (add, true);
  gimple_stmt_iterator p = gsi_start_bb (plain);
  gsi_insert_after (&p, add, GSI_NEW_STMT);
  gimple_stmt_iterator l = gsi_start_bb (locked);
  gsi_insert_after (&l, locked_add, GSI_NEW_STMT);
#else
  (void) bb;
  gsi_insert_after (gsi, locked_add, GSI_NEW_STMT);
#endif
}

static tree
assign (gimple_stmt_iterator *gsi, tree type, const char *name, tree_code code,
        tree a, tree b)
{
  tree lhs = ssa (type, name);
  gsi_insert_after (gsi, gimple_build_assign (lhs, code, a, b), GSI_NEW_STMT);
  return lhs;
}

/* Replaces the placeholder CALL (slot, id) by the probe of the file's
   comment.  */
static void
expand_one (gcall *call)
{
  tree slot = gimple_call_arg (call, 0);
  tree id = gimple_call_arg (call, 1);
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);

  tree root = ssa (uint64_type_node, "pp_hroot");
  gcall *load = gimple_build_call (builtin_decl_explicit (BUILT_IN_ATOMIC_LOAD_8), 2,
                                   slot, build_int_cst (integer_type_node,
                                                        MEMMODEL_ACQUIRE));
  gimple_call_set_lhs (load, root);
  gsi_insert_before (&gsi, load, GSI_SAME_STMT);
  gcond *installed = gimple_build_cond (EQ_EXPR, root, u64 (0), NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, installed, GSI_SAME_STMT);
  gsi_remove (&gsi, true);
  basic_block no_root, has_root;
  pp_split_diamond (bb, installed, profile_probability::very_unlikely (), &no_root,
                    &has_root);
  call_runtime (no_root, slot, id);

  gimple_stmt_iterator at = gsi_start_bb (has_root);
  tree table = atomic_load (&at, pointer_at (&at, root, PATHPROF_HASH_ROOT_CURRENT),
                            MEMMODEL_ACQUIRE, "pp_htab");
  tree shift_ptr = pointer_at (&at, table, PATHPROF_HASH_TABLE_SHIFT);
  tree shift = ssa (unsigned_type_node, "pp_hshift");
  gsi_insert_after (&at, gimple_build_assign (
                             shift, build2 (MEM_REF, unsigned_type_node, shift_ptr,
                                            build_int_cst (build_pointer_type (
                                                               unsigned_type_node),
                                                           0))),
                    GSI_NEW_STMT);
  tree key = assign (&at, uint64_type_node, "pp_hkey", PLUS_EXPR, id, u64 (1));
  tree h = assign (&at, uint64_type_node, "pp_hh", MULT_EXPR, key,
                   u64 (PATHPROF_HASH_MULT));
  tree i = assign (&at, uint64_type_node, "pp_hi", RSHIFT_EXPR, h, shift);
  tree off = assign (&at, uint64_type_node, "pp_hoff", MULT_EXPR, i,
                     u64 (PATHPROF_HASH_ENTRY_SIZE));
  tree entry = assign (&at, uint64_type_node, "pp_hent", PLUS_EXPR, table, off);
  tree seen = atomic_load (&at, pointer_at (&at, entry, PATHPROF_HASH_TABLE_ENTRIES),
                           MEMMODEL_RELAXED, "pp_hseen");
  basic_block miss, hit;
  /* Unlikely, not very: a table's first counts of each path go there.  */
  branch (has_root, &at, NE_EXPR, seen, key, profile_probability::unlikely (), &miss,
          &hit);
  call_runtime (miss, slot, id);

  gimple_stmt_iterator h_at = gsi_start_bb (hit);
  tree count_ptr = pointer_at (&h_at, entry, PATHPROF_HASH_TABLE_ENTRIES + 8);
  bump_count (hit, &h_at, count_ptr);
}

void
pp_expand_hash_counts (void)
{
  if (!placeholder_decl)
    return;
  std::vector<gcall *> calls = pp_calls_to (placeholder_decl);
  for (size_t i = 0; i < calls.size (); i++)
    expand_one (calls[i]);
}
