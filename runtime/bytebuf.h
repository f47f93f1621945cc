/* bytebuf.h - a growable byte buffer for building the profile in memory.
 *
 * The whole profile is built before any file is opened: the header needs
 * the payload size, the checksum covers everything, and the same bytes can
 * be written again to the fallback location when the first write fails.
 * An allocation failure is sticky (FAILED) so callers check once at the end. */
#ifndef PATHPROF_RT_BYTEBUF_H
#define PATHPROF_RT_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_buf {
    unsigned char *data;
    size_t len, cap;
    int failed; /* an allocation failed: the contents are incomplete */
};

void pprt_buf_put(struct pprt_buf *b, const void *data, size_t len);
void pprt_buf_zeros(struct pprt_buf *b, size_t len);
void pprt_buf_u32(struct pprt_buf *b, uint32_t v);
void pprt_buf_u64(struct pprt_buf *b, uint64_t v);
/* V in 1 to 10 bytes, 7 bits a byte, least significant first, the high
 * bit set on every byte but the last (unsigned LEB128). */
void pprt_buf_uleb(struct pprt_buf *b, uint64_t v);
/* Overwrite 8 bytes at OFFSET, which must have been put before. */
void pprt_buf_patch_u64(struct pprt_buf *b, size_t offset, uint64_t v);
void pprt_buf_patch_u32(struct pprt_buf *b, size_t offset, uint32_t v);
void pprt_buf_free(struct pprt_buf *b);

#pragma GCC visibility pop

#endif
