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

/* The pieces, for writers that stream a file out (the trace analyzer). */

/* Opens PATH.tmp.PID.N exclusively (ACCESS: O_WRONLY or O_RDWR) into *FD,
 * its malloc'd name in *TMP; returns 0 or an errno value. */
int pprt_open_temporary(const char *path, int access, char **tmp, int *fd);
/* Writes all of P, retrying on EINTR; 0 or an errno value. */
int pprt_write_all(int fd, const void *p, size_t len);
/* Makes a rename in PATH's directory durable (failures are not reported:
 * nothing the user could act on). */
void pprt_sync_directory(const char *path);

#pragma GCC visibility pop

#endif
