/* output-path.h - where the profile goes: PATHPROF_OUT expanded, what the
 * name refers to, and the fallback when writing there fails. */
#ifndef PATHPROF_RT_OUTPUT_PATH_H
#define PATHPROF_RT_OUTPUT_PATH_H

#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* PATTERN with %p replaced by PID, %h by the host name (a slash in it
 * made '_'), %t by the unix time in seconds, and %% by %; malloc'd, NULL
 * if out of memory.  Expanded at write time, so a forked child gets its
 * own pid. */
char *pprt_expand_output(const char *pattern, pid_t pid);

/* DIR/pathprof.PID.out; malloc'd, NULL if out of memory. */
char *pprt_fallback_output(const char *dir, pid_t pid);

/* How a name the user gave (PATHPROF_OUT, PATHPROF_TRACE) may be written.
 * A rename replaces whatever has the name, so it is kept for what a
 * profile may replace: a regular file, or nothing yet.  Run as root with
 * PATHPROF_OUT=/dev/null, a rename would destroy the system's /dev/null. */
enum pprt_target_kind {
    PPRT_TARGET_REPLACE, /* a regular file or no file: temporary + rename */
    PPRT_TARGET_THROUGH  /* a character device or FIFO: opened, written */
};

struct pprt_target {
    enum pprt_target_kind kind;
    char *name; /* malloc'd: with symbolic links resolved, the file to
                 * replace in its own directory (a dangling link names the
                 * file to create), or the name to open */
};

/* Returns 0 with *T filled, or an errno value with *WHY saying, for the
 * user, why NAME may not be written (a directory, a block device...). */
int pprt_resolve_target(const char *name, struct pprt_target *t, const char **why);

#pragma GCC visibility pop

#endif
