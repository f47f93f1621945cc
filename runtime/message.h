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

/* A file name as a message shows it.  Names come from PATHPROF_OUT and
 * PATHPROF_TRACE and may be as long as the user likes; a message must still
 * say why it failed and where the profile went, so a long name is shortened
 * in the middle (its start and its file name stay) and never the reason.
 * Three shortened names and the text around them fit in one line. */
#define PPRT_NAME_SHOWN 1000
struct pprt_name_buf {
    char s[PPRT_NAME_SHOWN + 1];
};
/* NAME itself when short enough, else "first part...last part" in B. */
const char *pprt_name(const char *name, struct pprt_name_buf *b);

#pragma GCC visibility pop

#endif
