/* atomic-file.h - replacing a file all at once or not at all.
 *
 * A reader (or a later run) must never see a half-written profile: the
 * bytes go to a temporary file in the target's directory (same file
 * system, so rename is atomic), which is fsync'd and renamed over the
 * target.  On failure the temporary is removed. */
#ifndef PATHPROF_RT_ATOMIC_FILE_H
#define PATHPROF_RT_ATOMIC_FILE_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Returns 0, or an errno value with *STEP naming what failed ("create the
 * temporary file", "write", ...). */
int pprt_write_file_atomically(const char *path, const void *data, size_t len,
                               const char **step);

#pragma GCC visibility pop

#endif
