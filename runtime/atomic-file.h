/* atomic-file.h - replacing a file all at once or not at all.
 *
 * A reader (or a later run) must never see a half-written profile: the
 * bytes go to a temporary file in the target's directory (same file
 * system, so rename is atomic), which is renamed over the target; on
 * failure the temporary is removed.  The rename alone is enough for
 * every reader and for a process killed at any point; fsync (of the file
 * before the rename, of the directory after) only adds durability across
 * a crash of the machine, and costs a short process's exit more than all
 * the rest of it (docs/performance.md, "Exit of a short process"), so the
 * caller says when it is wanted (PATHPROF_SYNC, and always for a file
 * that holds other runs' counts: runtime.md). */
#ifndef PATHPROF_RT_ATOMIC_FILE_H
#define PATHPROF_RT_ATOMIC_FILE_H

#include "bytebuf.h"

#include <signal.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Returns 0, or an errno value with *STEP saying what failed ("could not
 * create a temporary file beside it", "could not write", ...). */
int pprt_write_file_atomically(const char *path, const struct pprt_buf *b, int sync,
                               const char **step);

/* The pieces, for writers that stream a file out (the trace analyzer). */

/* Opens PATH.tmp.PID.N exclusively (ACCESS: O_WRONLY or O_RDWR) into *FD,
 * its malloc'd name in *TMP; returns 0 or an errno value. */
int pprt_open_temporary(const char *path, int access, char **tmp, int *fd);
/* Writes all of P, retrying on EINTR; 0 or an errno value. */
int pprt_write_all(int fd, const void *p, size_t len);
/* The same for the whole contents of B, its pieces gathered by writev
 * (bytebuf.h: none is copied). */
int pprt_write_buf(int fd, const struct pprt_buf *b);
/* Makes a rename in PATH's directory durable (failures are not reported:
 * nothing the user could act on). */
void pprt_sync_directory(const char *path);

/* Opens PATH, a character device or FIFO (pprt_resolve_target), to write
 * through it: 0 with *FD, or an errno value with *STEP set.  A FIFO
 * nobody reads is waited for PPRT_FIFO_WAIT_MS, then refused (ENXIO)
 * rather than hanging the program's exit. */
#define PPRT_FIFO_WAIT_MS 2000
int pprt_open_through(const char *path, int *fd, const char **step);
/* Writes all of B to PATH that way, no temporary: 0 or an errno value
 * with *STEP naming what failed. */
int pprt_write_file_through(const char *path, const struct pprt_buf *b, const char **step);

/* Writing the profile must not kill the program: over a file size limit
 * write(2) raises SIGXFSZ (default action: core dump, exit status 153),
 * to a FIFO whose reader left SIGPIPE.  Between hold and release both are
 * blocked in the calling thread, so write fails with EFBIG or EPIPE
 * instead, and release discards what our writes raised before restoring
 * the thread's mask; one the program had pending already stays pending. */
struct pprt_signal_hold {
    sigset_t old_mask, pending_before;
};
void pprt_signals_hold(struct pprt_signal_hold *h);
void pprt_signals_release(const struct pprt_signal_hold *h);

#pragma GCC visibility pop

#endif
