/* output-path.h - where the profile goes: PATHPROF_OUT expanded, and the
 * fallback when that fails. */
#ifndef PATHPROF_RT_OUTPUT_PATH_H
#define PATHPROF_RT_OUTPUT_PATH_H

#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* PATTERN with %p replaced by PID and %% by %; malloc'd, NULL if out of
 * memory.  Expanded at write time, so a forked child gets its own pid. */
char *pprt_expand_output(const char *pattern, pid_t pid);

/* DIR/pathprof.PID.out; malloc'd, NULL if out of memory. */
char *pprt_fallback_output(const char *dir, pid_t pid);

#pragma GCC visibility pop

#endif
