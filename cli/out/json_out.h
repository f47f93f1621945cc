/* json_out.h - the few JSON primitives the report needs.
 *
 * Numbers are printed from uint64_t with PRIu64, never through a double,
 * so counts and path IDs above 2^53 stay exact. Strings from the profile
 * are arbitrary bytes: valid UTF-8 passes through, anything else becomes
 * U+FFFD, control characters are escaped, so the output is always valid. */
#ifndef PATHPROF_CLI_JSON_OUT_H
#define PATHPROF_CLI_JSON_OUT_H

#include <stdio.h>

/* A JSON string literal for S, or null when S is NULL. */
void json_string(FILE *out, const char *s);
/* The escaped characters of S without the quotes (to build one string
 * from several pieces). */
void json_string_body(FILE *out, const char *s);

#endif
