/* build-signature.h - how this TU was compiled, as one line of text: the
 * language, the file compiled and the options that can change its code.
 * The metadata blob carries it (docs/format.md, section 2, "build") so
 * that a profile can tell one source compiled two ways (zlib's gzlib.c
 * with and without -fPIC, a C file compiled again as C++) from another
 * build of the same compilation (the source edited and rebuilt): the
 * first keeps its copies side by side, the second is refused.  One item
 * a line: the language (GCC's name for it, "GNU C17"), the file given to
 * the compiler, then each option as it was written ("-O2", "-DX=1"). */
#ifndef PATHPROF_BUILD_SIGNATURE_H
#define PATHPROF_BUILD_SIGNATURE_H

#include <string>

std::string pp_build_signature (void);

#endif
