/* profile-accumulate.h - PATHPROF_ACCUMULATE: adding this run's profile
 * to the one already at the output name, the way gcov adds to a .gcda.
 *
 * Many processes of one build (a test suite, often in parallel) end at
 * once; each takes an exclusive lock on NAME.lock (an fcntl lock, which
 * the kernel drops when its holder dies) and reads NAME.  Merging its
 * profile into NAME costs the size of NAME, every process again: so a
 * process checks that its profile could be added (the merge code,
 * profile-merge.h, in its checking mode) and appends it to NAME as one
 * more part (profile-parts.h), which costs the size of its own; only
 * when the parts after the first outgrow twice the first does it merge
 * them all with its own and replace NAME atomically (temporary, fsync,
 * rename), so that the merging costs each byte a constant number of
 * times however many processes add.  A process killed at any point
 * leaves NAME as it was before it or after it (a torn append at the end
 * is no part: readers skip it, the next process cuts it off), and never
 * loses the others' counts. */
#ifndef PATHPROF_RT_PROFILE_ACCUMULATE_H
#define PATHPROF_RT_PROFILE_ACCUMULATE_H

#include "bytebuf.h"

#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* How long a process waits for the lock before giving up (then its
 * profile goes to the fallback location, with a warning). */
#define PPRT_ACCUMULATE_WAIT_S 120

/* Parts a file may hold before the next process merges them into one
 * (profile-parts.h): every reader adds them all. */
#define PPRT_ACCUMULATE_MAX_PARTS 32

/* Adds OURS (a whole profile of process PID) to the profile at NAME (a
 * regular file or no file yet, links already resolved).  Returns 0 when
 * NAME now holds the sum; *APART set when NAME could not take our
 * profile (damaged, another build: said in a warning) and ours was written
 * to NAME.PID beside it instead.  Otherwise an errno value with *STEP
 * saying what failed. */
int pprt_accumulate(const char *name, const struct pprt_buf *ours, pid_t pid, int *apart,
                    const char **step);

#pragma GCC visibility pop

#endif
