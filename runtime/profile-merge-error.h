/* profile-merge-error.h - how the merge code says what is wrong with an
 * input: one line, filled where the check fails, printed by the caller
 * (`pathprof merge` with the file's name, the runtime as a warning). */
#ifndef PATHPROF_RT_PROFILE_MERGE_ERROR_H
#define PATHPROF_RT_PROFILE_MERGE_ERROR_H

/* A one-line reason, without a trailing newline. */
struct pprt_merge_error {
    char msg[768];
};

#endif
