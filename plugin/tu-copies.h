/* tu-copies.h - whether a function may be compiled into several
 * translation units, each copy with a control flow graph of its own.
 *
 * A header's static function, a C++ inline function or template (COMDAT)
 * is compiled once per TU that uses it, and its graph at our pass is the
 * one after GCC's early inliner and the TU's own macros, which need not be
 * the same in every TU: each copy is its own function with its own
 * checksum in a profile.  A file made from a profile (ppp=FILE's
 * interesting paths, edge-profile=FILE) lists only the copies that ran, or
 * that were linked, so such a function's copy with a checksum the file
 * does not list is most likely a copy that was not there, not a function
 * that changed: it gets a note and the fallback (plain Ball-Larus
 * numbering, no edge profile) instead of an error (docs/plugin-args.md).
 * A function of the TU's own file with another checksum did change, and
 * stays an error. */
#ifndef PATHPROF_TU_COPIES_H
#define PATHPROF_TU_COPIES_H

#include "gcc-headers.h"

bool pp_fn_has_tu_copies (tree fndecl);

#endif
