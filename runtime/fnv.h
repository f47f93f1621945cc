/* fnv.h - FNV-1a-64, the profile's trailer checksum (docs/format.md, 3). */
#ifndef PATHPROF_RT_FNV_H
#define PATHPROF_RT_FNV_H

#include <stddef.h>
#include <stdint.h>

#define PPRT_FNV64_BASIS 0xcbf29ce484222325ull
#define PPRT_FNV64_PRIME 0x100000001b3ull

static inline uint64_t pprt_fnv1a64(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= PPRT_FNV64_PRIME;
    }
    return h;
}

#endif
