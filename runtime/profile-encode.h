/* profile-encode.h - the profile file's bytes (docs/format.md, section 3). */
#ifndef PATHPROF_RT_PROFILE_ENCODE_H
#define PATHPROF_RT_PROFILE_ENCODE_H

#include "bytebuf.h"
#include "registry.h"

#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* Encodes header, PROGRAM section, one TU section per entry of LIST and the
 * FNV-1a-64 trailer into OUT (check OUT->failed).  Adds to *HASH_LOST the
 * hash-mode counts dropped for lack of memory while counting. */
void pprt_profile_encode(const struct pprt_tu *list, pid_t pid,
                         struct pprt_buf *out, uint64_t *hash_lost);

#pragma GCC visibility pop

#endif
