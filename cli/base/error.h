/* error.h - how the profile reader reports what is wrong.
 *
 * A damaged profile must end in exactly one line on stderr, so the reader
 * never prints: each check that fails fills a pp_error and returns false,
 * and each caller on the way up may prepend where it was ("TU section 2:
 * function 3: ...").  main prints "pathprof: FILE: <msg>" once. */
#ifndef PATHPROF_CLI_ERROR_H
#define PATHPROF_CLI_ERROR_H

#include <stdbool.h>

struct pp_error {
    char msg[512];
};

/* Sets the message and returns false, so checks read "return pp_fail(...)". */
bool pp_fail(struct pp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prepends "<context>: " to the message and returns false. */
bool pp_context(struct pp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
