/* le-bytes.h - little-endian integers read from and written to byte arrays.
 *
 * The metadata blob and the profile are little-endian byte streams with no
 * alignment (docs/format.md); going through bytes keeps the code correct on
 * any host and free of unaligned accesses. */
#ifndef PATHPROF_RT_LE_BYTES_H
#define PATHPROF_RT_LE_BYTES_H

#include <stdint.h>

static inline uint32_t pprt_get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t pprt_get_u64(const unsigned char *p)
{
    return (uint64_t)pprt_get_u32(p) | (uint64_t)pprt_get_u32(p + 4) << 32;
}

static inline void pprt_set_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void pprt_set_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

#endif
