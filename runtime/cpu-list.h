/* cpu-list.h - where analyzer threads run (PATHPROF_CPUS). */
#ifndef PATHPROF_RT_CPU_LIST_H
#define PATHPROF_RT_CPU_LIST_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Parses a list like "1", "0-1" or "0,2-3" into a malloc'd array of CPU
 * numbers (ascending, no duplicates).  Every CPU must be in the process's
 * affinity mask: pinning to a CPU the process may not use would fail at
 * thread start, far from the variable that asked for it.  Returns 0, or
 * -1 for a malformed list, an empty one, or a CPU outside the mask. */
int pprt_parse_cpu_list(const char *s, int **cpus, uint32_t *ncpus);

/* The default: the last CPU of the affinity mask when it has at least two
 * (the program's threads usually start on the low ones), else -1: no
 * pinning, since sharing the program's only CPU gains nothing. */
int pprt_default_cpu(void);

#pragma GCC visibility pop

#endif
