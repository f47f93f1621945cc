/* utf8.h - the length of a valid UTF-8 sequence, for the writers that must
 * not pass invalid bytes on (JSON, HTML). */
#ifndef PATHPROF_CLI_UTF8_H
#define PATHPROF_CLI_UTF8_H

#include <stddef.h>

/* Length (1-4) of the valid UTF-8 sequence at S, reading at most LEFT
 * bytes; 0 when it is invalid (overlong, a surrogate, beyond U+10FFFF,
 * cut short).  A NUL-terminated string may pass SIZE_MAX: a NUL is never
 * a continuation byte, so the reading stops there. */
size_t utf8_len(const unsigned char *s, size_t left);

#endif
