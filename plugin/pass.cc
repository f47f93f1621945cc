/* pass.cc - plugin entry point and the pathprof pass.
 *
 * Why a SIMPLE_IPA_PASS right after GCC's "profile" pass: the CFG there is
 * exactly the one GCC's own edge profiler instruments (so with
 * -fprofile-use every count is precise, which the spanning tree uses), the
 * pass runs at every -O level, and it runs at compile time even with -flto
 * (small IPA passes are not run again by lto1).  Everything after it -
 * inlining, cloning, unrolling - duplicates our probes along with the code,
 * which stays correct because the path register is a function-local SSA
 * value.
 *
 * Two sweeps over the functions: the first numbers every DAG (and so learns
 * how many counters the TU needs), the second inserts the probes into the
 * now sized counter array. */
#include "gcc-headers.h"
#include "plugin-version.h"
#include "options.h"
#include "dag.h"
#include "metadata.h"
#include "probes.h"
#include "callee-flags.h"
#include "extern-template.h"
#include "constant-p.h"
#include "sampling.h"
#include "ppp-plan.h"
#include "ppp-probe.h"
#include "tpp.h"
#include "tpp-counts.h"
#include "pathprof-abi.h"

int plugin_is_GPL_compatible;

namespace {

struct fn_plan {
  cgraph_node *node;
  pp_dag dag;
  pp_layout lay;
};

const char *
skip_reason (cgraph_node *node)
{
  tree decl = node->decl;
  if (DECL_SOURCE_LOCATION (decl) == BUILTINS_LOCATION)
    return "a compiler built-in";
  if (lookup_attribute ("no_profile_instrument_function",
                        DECL_ATTRIBUTES (decl)))
    return "attribute no_profile_instrument_function";
  if (lookup_attribute ("naked", DECL_ATTRIBUTES (decl)))
    return "attribute naked (no code may be added)";
  function *fn = DECL_STRUCT_FUNCTION (decl);
  if (!fn || !fn->cfg || !gimple_in_ssa_p (fn))
    return "no CFG in SSA form";
  /* A body GCC keeps only for inlining, whose out-of-line copy is another
     object's (DECL_EXTERNAL): a member of a C++ extern template (libstdc++
     declares std::string and the iostreams so) or a gnu_inline function
     (glibc's __extern_inline).  That copy is a library's, built without
     pathprof, so the calls the inliner leaves run uncounted: the
     function's count would be the inlined sites' only, and would follow
     the inliner's decisions, which our own probes' sizes move (counting
     and streaming mode would disagree).  Not counted at all, it is a
     library function like the others.  always_inline bodies are inlined
     at every call, so their counts are whole; a C99 inline function's
     external definition is the program's own (another of its TUs), so
     it is kept too.  tests/cxx-extern-template.t.  */
  if (DECL_EXTERNAL (decl)
      && !lookup_attribute ("always_inline", DECL_ATTRIBUTES (decl))
      && (lang_GNU_CXX ()
          || lookup_attribute ("gnu_inline", DECL_ATTRIBUTES (decl))))
    return "its out-of-line copy is another object's (extern template "
           "or gnu_inline): calls not inlined would run uncounted";
  /* The same class's functions that this TU compiles as COMDAT copies
     (an implicit destructor, a member template): the library has its
     own, which its members call (extern-template.h).  */
  if (lang_GNU_CXX () && pp_in_extern_template_class (decl))
    return "a function of an extern template class, which the library "
           "provides: its members call the library's copy, uncounted";
  return NULL;
}

/* The real CFG edges counted directly in verify mode: every normal edge
   between blocks of the DAG, every return, and every EH edge into a
   landing pad of the DAG.  */
void
collect_verify_edges (const pp_dag *dag, pp_layout *lay)
{
  for (size_t u = 2; u < dag->nodes.size (); u++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, dag->nodes[u].bb->succs)
        {
          int v = dag->node_of_bb[e->dest->index];
          if (v < 0 || (e->flags & EDGE_ABNORMAL)
              || ((e->flags & EDGE_EH) && (v < 2 || !dag->nodes[v].eh_pad)))
            continue;
          lay->verify_edges.push_back (e);
          lay->verify_nodes.push_back (std::make_pair ((int) u, v));
        }
    }
}

void
describe (const fn_plan &p)
{
  char total[48], uncut[48];
  inform (DECL_SOURCE_LOCATION (p.node->decl),
          "pathprof: %qs: %u blocks, %u DAG edges, %s paths, %s counters%s",
          function_name (DECL_STRUCT_FUNCTION (p.node->decl)),
          (unsigned) p.dag.nodes.size () - 2, (unsigned) p.dag.edges.size (),
          pp_u128_str (p.dag.npaths, total),
          (p.lay.flags & PATHPROF_FN_HASH) ? "hash" : "array",
          (p.lay.flags & PATHPROF_FN_ATOMIC) ? " (atomic)" : "");
  if (!p.dag.ncuts)
    return;
  bool saturated = p.dag.npaths_uncut == ~(unsigned __int128) 0;
  inform (DECL_SOURCE_LOCATION (p.node->decl),
          "pathprof: %qs: cut at %u nodes because its %s paths exceed "
          "max-paths; every path ID stays unique",
          function_name (DECL_STRUCT_FUNCTION (p.node->decl)), p.dag.ncuts,
          saturated ? "2^128 or more" : pp_u128_str (p.dag.npaths_uncut, uncut));
}

/* Calls to a function that was pure or const carry no virtual definition;
   now that it writes memory (instrumented here, or callee-flags.cc), every call statement must be rescanned and
   the virtual SSA web rebuilt, in every function (as GCC's own profiler
   does), or later passes work on wrong memory dependences.  */
void
refresh_call_vops (void)
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!gimple_has_body_p (node->decl) || !fn || !fn->cfg
          || !gimple_in_ssa_p (fn))
        continue;
      push_cfun (fn);
      basic_block bb;
      FOR_EACH_BB_FN (bb, cfun)
        for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
             gsi_next (&gsi))
          if (is_gimple_call (gsi_stmt (gsi)))
            update_stmt (gsi_stmt (gsi));
      update_ssa (TODO_update_ssa);
      pop_cfun ();
    }
}

/* TPP's edge counts for cfun (tpp-counts.h): with edge-profile=FILE, its
   entry there is found by the checksum of its plain Ball-Larus DAG.  */
static bool
tpp_counts_begin (void)
{
  if (!pp_opts.edge_profile)
    return pp_tpp_counts_begin (NULL, 0);
  pp_dag plain;
  if (!pp_build_dag (&plain, NULL))
    return false;
  const char *name = pp_meta_function_name ();
  return pp_tpp_counts_begin (name, pp_meta_checksum (name, &plain));
}

unsigned int
execute_pathprof (void)
{
  std::vector<fn_plan *> plans;
  uint64_t ncounters = 0, nderived_stream = 0;
  bool atomic = pp_atomic_updates ();
  cgraph_node *node;

  /* Before any probe exists, so that no later pass may keep the event
     cursor in a register across a call that can emit events; in counting
     mode too, so that both modes run the same calls and their profiles
     agree path for path.  The calls' virtual operands are rebuilt with
     the others at the end.  */
  bool dropped_pure_const = pp_expose_callee_writes ();

  FOR_EACH_DEFINED_FUNCTION (node)
    {
      if (!gimple_has_body_p (node->decl))
        continue;
      const char *why = skip_reason (node);
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (why)
        {
          if (pp_opts.verbose)
            inform (DECL_SOURCE_LOCATION (node->decl),
                    "pathprof: %qD not instrumented: %s", node->decl, why);
          continue;
        }
      if (!pp_function_selected (function_name (fn),
                                 DECL_SOURCE_FILE (node->decl)))
        {
          if (pp_opts.verbose)
            inform (DECL_SOURCE_LOCATION (node->decl),
                    "pathprof: %qD not instrumented: excluded by the "
                    "include/exclude arguments", node->decl);
          continue;
        }
      push_cfun (fn);
      /* Before numbering, in every mode: which side of a
         __builtin_constant_p runs must not depend on the inlining of
         this build (constant-p.cc).  */
      unsigned settled = pp_settle_constant_p ();
      if (settled && pp_opts.verbose)
        inform (DECL_SOURCE_LOCATION (node->decl),
                "pathprof: %qD: %u %<__builtin_constant_p%> answered 0 before "
                "numbering", node->decl, settled);
      fn_plan *p = new fn_plan;
      pp_ppp_choice ppp;
      p->node = node;
      if ((pp_opts.tpp && !tpp_counts_begin ())
          || !pp_build_dag (&p->dag, pp_opts.tpp ? &pp_tpp_hooks : NULL))
        {
          pop_cfun ();
          delete p;
          continue;
        }
      /* -fdump-ipa-pathprof-lineno: the body as numbered, each block's
         statements with their lines (tests/cli-exact-lines.t checks the
         metadata's line table against it).  */
      if (dump_file)
        dump_function_to_file (current_function_decl, dump_file,
                               dump_flags | TDF_BLOCKS);
      p->lay.fn_index = (uint32_t) plans.size ();
      p->lay.counter_offset = ncounters;
      if (pp_stream_mode ())
        {
          /* Every function owns npaths global indices (no hash mode); a
             PPP function owns N more in front, its interesting paths by
             PPP number (docs/format.md, "PPP functions").  */
          ppp = pp_ppp_enabled () ? pp_ppp_plan (&p->dag, &p->lay) : PP_PPP_PLAIN;
          if (ppp == PP_PPP_SKIP || ppp == PP_PPP_FAILED)
            {
              pop_cfun ();
              delete p;
              continue;
            }
          p->lay.flags = PATHPROF_FN_STREAM;
          if (p->dag.has_resume)
            p->lay.flags |= PATHPROF_FN_RESUME;
          /* TPP: obvious paths emit nothing; their counters stay in
             memory, after the bases (docs/tpp.md, "Streams"), updated as
             counting mode updates its arrays.  */
          p->lay.derived_slot = nderived_stream;
          if (!p->dag.derived.empty ())
            {
              nderived_stream += p->dag.derived.size ();
              if (atomic)
                p->lay.flags |= PATHPROF_FN_ATOMIC;
            }
          if (ppp == PP_PPP_NUMBERED)
            {
              p->lay.flags |= PATHPROF_FN_PPP;
              ncounters += p->lay.ppp_size;
            }
          ncounters += (uint64_t) p->dag.npaths;
        }
      else if (pp_ppp_enabled ()
               && (ppp = pp_ppp_plan (&p->dag, &p->lay)) != PP_PPP_PLAIN)
        {
          if (ppp != PP_PPP_NUMBERED)
            {
              pop_cfun ();
              delete p;
              continue;
            }
          /* N counters by PPP number, then the hash slot of the others.  */
          p->lay.flags = PATHPROF_FN_PPP | (atomic ? PATHPROF_FN_ATOMIC : 0);
          ncounters += p->lay.ppp_size + 1;
        }
      else if (p->dag.npaths > pp_opts.hash_threshold)
        {
          p->lay.flags = PATHPROF_FN_HASH;
          ncounters += 1;
        }
      else
        {
          p->lay.flags = atomic ? PATHPROF_FN_ATOMIC : 0;
          ncounters += (uint64_t) p->dag.npaths;
        }
      if (p->dag.ncuts)
        p->lay.flags |= PATHPROF_FN_CUT;
      p->lay.verify_offset = ncounters;
      if (pp_opts.verify)
        {
          p->lay.flags |= PATHPROF_FN_VERIFY;
          collect_verify_edges (&p->dag, &p->lay);
          ncounters += p->lay.verify_edges.size ();
          if (atomic)
            p->lay.flags |= PATHPROF_FN_ATOMIC;
        }
      plans.push_back (p);
      pop_cfun ();
    }
  if (seen_error () || plans.empty ())
    {
      for (size_t i = 0; i < plans.size (); i++)
        delete plans[i];
      return 0;
    }

  tree counters = pp_meta_counters (ncounters, nderived_stream);
  for (size_t i = 0; i < plans.size (); i++)
    {
      fn_plan *p = plans[i];
      push_cfun (DECL_STRUCT_FUNCTION (p->node->decl));
      if (pp_opts.verbose)
        describe (*p);
      pp_dual *dual = NULL;
      if (pp_opts.sampling)
        {
          const char *why = pp_sampling_obstacle ();
          if (!why)
            {
              dual = pp_sampling_copy (&p->dag);
              p->lay.flags |= PATHPROF_FN_SAMPLED;
              if (pp_opts.vpp)
                p->lay.flags |= PATHPROF_FN_VPP;
            }
          else if (pp_opts.verbose)
            inform (DECL_SOURCE_LOCATION (p->node->decl),
                    "pathprof: %qs has no checking copy, every path of it "
                    "is counted (exactly): %s",
                    function_name (cfun), why);
        }
      pp_meta_add_function (&p->dag, &p->lay);
      pp_vpp_timed = pp_opts.vpp && dual != NULL;
      if (p->lay.flags & PATHPROF_FN_PPP)
        {
          pp_dag packed;
          pp_ppp_pack (&p->dag, &p->lay, &packed);
          pp_instrument (&packed, &p->lay, counters);
          pp_ppp_expand (&p->lay, counters, pp_hash_count_fn ());
        }
      else
        pp_instrument (&p->dag, &p->lay, counters);
      if (dual)
        pp_sampling_instrumented (dual);
      pp_expand_emits ();
      pp_expand_hash_counts ();
      if (dual)
        pp_sampling_connect (dual);
      mark_virtual_operands_for_renaming (cfun);
      update_ssa (TODO_update_ssa);
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      if (current_loops)
        loops_state_set (LOOPS_NEED_FIXUP);
      cleanup_tree_cfg ();
      /* The probes write memory: a pure or const function is neither.  */
      if (TREE_READONLY (p->node->decl) || DECL_PURE_P (p->node->decl))
        dropped_pure_const = true;
      p->node->set_const_flag (false, false);
      p->node->set_pure_flag (false, false);
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
      delete p;
    }
  if (dropped_pure_const)
    refresh_call_vops ();
  pp_meta_finish ();
  return 0;
}

const pass_data pathprof_pass_data = {
  SIMPLE_IPA_PASS,
  "pathprof",
  OPTGROUP_NONE,
  TV_NONE,
  0, 0, 0, 0, 0
};

class pathprof_pass : public simple_ipa_opt_pass
{
public:
  pathprof_pass (gcc::context *ctxt)
      : simple_ipa_opt_pass (pathprof_pass_data, ctxt)
  {
  }
  bool gate (function *) final override { return !in_lto_p && !seen_error (); }
  unsigned int execute (function *) final override
  {
    return execute_pathprof ();
  }
};

} // namespace

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("pathprof: this plugin was built for GCC %s and cannot run in "
             "GCC %s; rebuild it with the compiler you use",
             gcc_version.basever, version->basever);
      return 1;
    }
  if (!pp_parse_options (info->argc, info->argv) || !pp_ppp_read_file ())
    return 1;
  static struct plugin_info plugin_info = {
    "1", "pathprof: Ball-Larus path profiling (see pathprof --help)"
  };
  register_callback (info->base_name, PLUGIN_INFO, NULL, &plugin_info);
  pp_extern_template_watch (info->base_name);
  struct register_pass_info pass;
  pass.pass = new pathprof_pass (g);
  pass.reference_pass_name = "profile";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  return 0;
}
