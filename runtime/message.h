/* message.h - the runtime's only voice: one line on stderr per message.
 *
 * Every line starts with "pathprof: " so a user can tell our words from the
 * profiled program's.  Each line goes out in a single write(2) on fd 2, never
 * through stdio: the program's stdout and its stdio buffers stay untouched,
 * and lines from several threads or processes do not interleave. */
#ifndef PATHPROF_RT_MESSAGE_H
#define PATHPROF_RT_MESSAGE_H

#pragma GCC visibility push(hidden)

/* Errors: always printed (PATHPROF_QUIET does not hide them). */
void pprt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warnings: a bad configuration; always printed, the run goes on. */
void pprt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Information (where the profile went): hidden by PATHPROF_QUIET=1. */
void pprt_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void pprt_set_quiet(int quiet);

#pragma GCC visibility pop

#endif
