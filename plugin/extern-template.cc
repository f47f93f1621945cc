/* extern-template.cc - which function bodies belong to a C++ class whose
 * instantiation is declared extern (extern-template.h).
 *
 * Why: a library such as libstdc++ declares std::basic_string<char> and
 * the string streams `extern template`, so their members' bodies here are
 * for inlining only (DECL_EXTERNAL, skipped by pass.cc).  But some
 * functions of such a class still get a COMDAT copy in the program: the
 * implicitly declared destructor of std::basic_stringbuf, member
 * templates like basic_string::_M_construct<const char*> (with the local
 * class _Guard inside it), inline statics like _S_copy.  Their callers
 * are the extern members: when GCC inlines one, its call goes to the
 * program's instrumented copy; when it does not, the library's member
 * calls the library's own copy, uncounted.  Their counts then follow the
 * inliner's decisions, which our probes' sizes move, so counting and
 * streaming mode disagreed (yaml-cpp at -O3 -flto: ~basic_stringbuf
 * 13,418 against 24,611).  Left uninstrumented like the rest of the class,
 * they count in neither mode, like any library function.  */
/* The C++ front end's header first: it must come before GCC's
   diagnostic headers, which gcc-headers.h includes.  */
#include "gcc-plugin.h"
#include "cp/cp-tree.h"
#include "extern-template.h"

#include <set>

namespace {

std::set<unsigned> seen_uids;

/* Whether TYPE is an instantiation of a class template that this TU
   declares `extern template`.  */
bool
extern_instantiation_p (tree type)
{
  return CLASS_TYPE_P (type) && TYPE_LANG_SPECIFIC (type)
         && CLASSTYPE_EXPLICIT_INSTANTIATION (type)
         && CLASSTYPE_INTERFACE_ONLY (type);
}

/* Whether FNDECL lies, at any depth of classes and functions, inside such
   a class.  */
bool
inside_extern_instantiation_p (tree fndecl)
{
  for (tree ctx = DECL_CONTEXT (fndecl); ctx;)
    {
      if (TYPE_P (ctx))
        {
          if (extern_instantiation_p (ctx))
            return true;
          ctx = TYPE_CONTEXT (ctx);
        }
      else if (TREE_CODE (ctx) == FUNCTION_DECL)
        ctx = DECL_CONTEXT (ctx);
      else
        return false; /* a namespace or the translation unit */
    }
  return false;
}

void
on_body (void *gcc_data, void *)
{
  tree fndecl = (tree) gcc_data;
  if (lang_GNU_CXX () && fndecl && TREE_CODE (fndecl) == FUNCTION_DECL
      && inside_extern_instantiation_p (fndecl))
    seen_uids.insert (DECL_UID (fndecl));
}

} // namespace

void
pp_extern_template_watch (const char *plugin_name)
{
  register_callback (plugin_name, PLUGIN_PRE_GENERICIZE, on_body, NULL);
}

bool
pp_in_extern_template_class (tree decl)
{
  /* A constructor's or destructor's complete- and base-object copies are
     clones of the one the front end saw (their DECL_ABSTRACT_ORIGIN).  */
  for (int depth = 0; decl && depth < 4; depth++)
    {
      if (seen_uids.count (DECL_UID (decl)))
        return true;
      tree origin = DECL_ABSTRACT_ORIGIN (decl);
      decl = origin && origin != decl ? origin : NULL_TREE;
    }
  return false;
}
