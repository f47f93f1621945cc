/* callee-flags.cc - no call may look as if it left the event cursor alone.
 *
 * A probe reads and writes the thread-local cursor __pathprof_cur.  GCC
 * keeps a memory value in a register across a call whenever it believes
 * the callee cannot write it: a callee declared const or pure (attribute,
 * or a const-qualified function type), novops, or one GCC itself found
 * to be const or pure.  If that callee is instrumented in another
 * translation unit it writes events through the same cursor, and the
 * caller's cached copy then overwrites them: the events are lost without
 * a trace (issue 11, fault 0).  A callee instrumented in this TU is
 * already fixed where it is instrumented (pass.cc drops its flags); this
 * file handles every other callee, whose body we cannot see.
 *
 * The fix is at the level of the declarations, before any optimisation
 * sees the calls: each such callee stops being const, pure or novops in
 * this TU, which is simply the truth once it may be instrumented.  That
 * also keeps GCC from hoisting or merging the calls, which costs what any
 * call to an ordinary function costs.  Counting mode does the same (its
 * counters are the callee's own, so it would not lose counts), so that a
 * counting build and a stream build of one source make the same calls and
 * their profiles can be compared path for path.  What stays untouched, because it
 * can never emit events: GCC's built-ins (their bodies are GCC's or the C
 * library's) and, by default, functions declared in system headers (the
 * C library's __errno_location, __ctype_b_loc, ...: no code of theirs is
 * compiled with this plugin).  -fplugin-arg-pathprof-const-calls=all
 * takes the system headers in too, for a library instrumented with the
 * plugin whose headers are installed as system headers.
 *
 * leaf and malloc need nothing: leaf only promises that the callee does
 * not touch this TU's own static data (the cursor is the runtime's, not
 * ours), and malloc only speaks of the returned pointer.  tests/
 * stream-attrs.t checks every attribute against counting mode. */
#include "gcc-headers.h"
#include "callee-flags.h"
#include "options.h"

#include <set>

namespace {

const int memory_blind = ECF_CONST | ECF_PURE | ECF_NOVOPS;

/* True for a callee that can never run instrumented code.  */
bool
never_instrumented_p (tree decl)
{
  if (fndecl_built_in_p (decl)
      || DECL_SOURCE_LOCATION (decl) == BUILTINS_LOCATION)
    return true;
  return pp_opts.const_calls == PP_CONST_CALLS_USER
         && DECL_IN_SYSTEM_HEADER (decl);
}

/* Makes DECL an ordinary function for every caller in this TU: the flags
   live on the declaration, so every call statement sees the change.  */
void
make_memory_visible (tree decl)
{
  if (cgraph_node *node = cgraph_node::get (decl))
    {
      node->set_const_flag (false, false);
      node->set_pure_flag (false, false);
    }
  TREE_READONLY (decl) = 0;
  DECL_PURE_P (decl) = 0;
  DECL_LOOPING_CONST_OR_PURE_P (decl) = 0;
  DECL_IS_NOVOPS (decl) = 0;
}

/* A call through a pointer to a const-qualified function type: the
   call's own type says const, so it gets the unqualified type.  */
bool
fix_call_type (gcall *call)
{
  tree fntype = gimple_call_fntype (call);
  if (!fntype || !TYPE_READONLY (fntype))
    return false;
  gimple_call_set_fntype (call, build_qualified_type (fntype,
                                                      TYPE_UNQUALIFIED));
  return true;
}

} // namespace

bool
pp_expose_callee_writes (void)
{
  std::set<tree> done;
  bool changed = false;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!gimple_has_body_p (node->decl) || !fn || !fn->cfg)
        continue;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
        for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
             gsi_next (&gsi))
          {
            gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
            if (!call || gimple_call_internal_p (call))
              continue;
            tree callee = gimple_call_fndecl (call);
            if (callee && never_instrumented_p (callee))
              continue;
            if (fix_call_type (call))
              changed = true;
            if (!callee || !(flags_from_decl_or_type (callee) & memory_blind)
                || !done.insert (callee).second)
              continue;
            if (pp_opts.verbose)
              inform (gimple_location (call),
                      "pathprof: %qD is no longer treated as const or pure: "
                      "instrumented, it writes events", callee);
            make_memory_visible (callee);
            changed = true;
          }
    }
  return changed;
}
