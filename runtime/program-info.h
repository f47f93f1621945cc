/* program-info.h - what the PROGRAM section says about the process. */
#ifndef PATHPROF_RT_PROGRAM_INFO_H
#define PATHPROF_RT_PROGRAM_INFO_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Both return a malloc'd string (possibly empty, never NULL unless out of
 * memory) and its length in *LEN.  Read at write time from /proc/self, so
 * the exact executable and arguments of this process (a forked child
 * reports its parent's, an exec'd program its own). */
char *pprt_exe_path(size_t *len);
/* The arguments joined by single spaces. */
char *pprt_command_line(size_t *len);

#pragma GCC visibility pop

#endif
