/* extern-template.h - functions of a C++ class that a library provides:
 * members (at any depth: a nested class's, a local class's, a member
 * template's instantiation) of a class with an explicit instantiation
 * declaration (`extern template class std::basic_string<char>;`), which
 * this TU compiles as its own COMDAT copies (an implicitly declared
 * destructor, a member template, an inline member).  pass.cc leaves them
 * uninstrumented, as it leaves the extern template's own members. */
#ifndef PATHPROF_EXTERN_TEMPLATE_H
#define PATHPROF_EXTERN_TEMPLATE_H

#include "gcc-headers.h"

/* Watches the C++ front end's function bodies (PLUGIN_PRE_GENERICIZE):
 * the class data it needs is the front end's, gone by the time our pass
 * runs in a -flto compilation (free_lang_data). */
void pp_extern_template_watch (const char *plugin_name);

/* Whether DECL (or the function it is a clone of) was seen to belong to
 * such a class. */
bool pp_in_extern_template_class (tree decl);

#endif
