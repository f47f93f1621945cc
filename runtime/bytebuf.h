/* bytebuf.h - a growable byte buffer for building the profile in memory.
 *
 * The whole profile is built before any file is opened: the header needs
 * the payload size, the checksum covers everything, and the same bytes can
 * be written again to the fallback location when the first write fails.
 * An allocation failure is sticky (FAILED) so callers check once at the end.
 *
 * Long runs of bytes that already lie in memory (a TU's metadata blob,
 * most of a count-mode profile) can be put by reference instead of copied
 * (pprt_buf_put_ref): the buffer then holds its own bytes in DATA and,
 * between them, the referenced pieces.  Copying a 2 MB blob into a fresh
 * buffer was a quarter of the CPU time of a short process's exit
 * (docs/performance.md, "Exit of a short process").  Whoever reads the
 * buffer as one array calls pprt_buf_flatten first; writers take the
 * pieces as they are (pprt_write_buf, atomic-file.h). */
#ifndef PATHPROF_RT_BYTEBUF_H
#define PATHPROF_RT_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* LEN bytes at DATA, standing in the buffer before its own byte AT. */
struct pprt_buf_ref {
    size_t at;
    const unsigned char *data;
    size_t len;
};

struct pprt_buf {
    unsigned char *data; /* the buffer's own bytes */
    size_t len, cap;     /* of DATA: offsets and patches are in DATA */
    int failed;          /* an allocation failed: the contents are incomplete */
    struct pprt_buf_ref *refs; /* by AT ascending; none once flattened */
    size_t nrefs, refcap;
    size_t ref_bytes; /* sum of the refs' LEN: the contents are len + ref_bytes */
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

/* Puts LEN bytes at DATA by reference: not copied, so they must stay as
 * they are until the buffer is written, flattened or freed. */
void pprt_buf_put_ref(struct pprt_buf *b, const void *data, size_t len);
/* The length of the contents: its own bytes and the referenced ones. */
static inline size_t pprt_buf_size(const struct pprt_buf *b) { return b->len + b->ref_bytes; }
/* Copies the referenced pieces in, so that DATA[0, LEN) is the whole
 * contents (FAILED when memory runs out). */
void pprt_buf_flatten(struct pprt_buf *b);
/* Calls EACH on every piece of the contents in order; stops at the
 * first that returns non-zero and returns it, else 0. */
int pprt_buf_pieces(const struct pprt_buf *b,
                    int (*each)(const unsigned char *p, size_t n, void *arg), void *arg);

#pragma GCC visibility pop

#endif
