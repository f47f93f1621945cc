/* profile-checksum.h - the trailer checksum of a profile file of a given
 * version (docs/format.md, section 3): FNV-1a-64 in version 1, pprt_hash64
 * from version 2 on. Shared by the runtime's writers and merge and by the
 * CLI's reader, so that the two cannot disagree. */
#ifndef PATHPROF_RT_PROFILE_CHECKSUM_H
#define PATHPROF_RT_PROFILE_CHECKSUM_H

#include "fnv.h"
#include "hash64.h"

#include <stddef.h>
#include <stdint.h>

static inline uint64_t pprt_profile_checksum(uint32_t file_version, const unsigned char *d,
                                             size_t len)
{
    return file_version == 1 ? pprt_fnv1a64(PPRT_FNV64_BASIS, d, len) : pprt_hash64(d, len);
}

#endif
