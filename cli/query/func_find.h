/* func_find.h - finding functions by the name a user types.
 *
 * SPEC is "NAME" (every function of that assembler name: static functions
 * of several files all match) or "FILE:NAME", FILE being the file name as
 * recorded or any trailing part of it that starts after a '/'. */
#ifndef PATHPROF_CLI_FUNC_FIND_H
#define PATHPROF_CLI_FUNC_FIND_H

#include <stddef.h>

#include "read/profile.h"

/* Stores the indices of the matching functions in OUT (room for
 * p->nfuncs) and returns how many matched. */
size_t func_find(const struct pp_profile *p, const char *spec, size_t *out);

#endif
