/* hash64.h - pprt_hash64, the trailer checksum of version-2 profiles and
 * traces (docs/format.md, sections 3 and 4) and the merge's key for a
 * metadata blob.
 *
 * Why not FNV-1a-64 (fnv.h, version 1's trailer): it takes one byte per
 * step and each step waits for the multiply before it, about 4 cycles a
 * byte. A profile carries every TU's metadata verbatim (a codec's is
 * about 1 MB), and a process that adds its run to an accumulated profile
 * hashed it six times at exit: 15% of the CPU time of libjpeg-turbo's
 * perfctl workload, whose processes each run 30 ms (docs/performance.md,
 * "Profile checksums"). This takes eight bytes a step in four independent
 * lanes, about 5 bytes a cycle.
 *
 * The definition (it is part of the file format):
 *   words     the input as little-endian u64 words, the last one padded
 *             with zero bytes; n = ceil(len / 8)
 *   lanes     v[0..3] = L0, L1, L2, L3 (below)
 *   step      word i goes into lane i % 4: v = ((v ^ w) * M) ^ (that >> 31)
 *   combine   h = len * M;  for each lane j in 0..3: h = ((h ^ v[j]) * C) ^ (that >> 29)
 *   final     h ^= h >> 32; h *= M; h ^= h >> 29
 * Every step is a bijection of the lane given the word (xor, multiply by
 * an odd constant, xorshift), so a change confined to one word always
 * changes the result; the length goes in, so trailing zero bytes do too. */
#ifndef PATHPROF_RT_HASH64_H
#define PATHPROF_RT_HASH64_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PPRT_HASH64_M 0x9e3779b97f4a7c15ull
#define PPRT_HASH64_C 0xc2b2ae3d27d4eb4full

/* One unaligned load (GCC does not merge a loop over the bytes into it). */
static inline uint64_t pprt_hash64_le(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint64_t pprt_hash64_step(uint64_t v, uint64_t w)
{
    v = (v ^ w) * PPRT_HASH64_M;
    return v ^ (v >> 31);
}

#define PPRT_HASH64_LANES_INIT                                                             \
    {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,                     \
     0x082efa98ec4e6c89ull}

/* The whole 32-byte blocks of P[0..LEN) into V; returns the bytes taken. */
static inline size_t pprt_hash64_blocks(uint64_t v[4], const unsigned char *p, size_t len)
{
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        v[0] = pprt_hash64_step(v[0], pprt_hash64_le(p + i));
        v[1] = pprt_hash64_step(v[1], pprt_hash64_le(p + i + 8));
        v[2] = pprt_hash64_step(v[2], pprt_hash64_le(p + i + 16));
        v[3] = pprt_hash64_step(v[3], pprt_hash64_le(p + i + 24));
    }
    return i;
}

/* The tail after the last whole block (fewer than 32 bytes: its words go
 * into lanes 0, 1, 2 and the last, zero-padded, into the next), then the
 * combination of the lanes with the total length. */
static inline uint64_t pprt_hash64_finish(uint64_t v[4], const unsigned char *tail,
                                          size_t ntail, uint64_t len)
{
    size_t i = 0, lane = 0;
    for (; i + 8 <= ntail; i += 8, lane++)
        v[lane] = pprt_hash64_step(v[lane], pprt_hash64_le(tail + i));
    if (i < ntail) {
        unsigned char last[8] = {0};
        memcpy(last, tail + i, ntail - i);
        v[lane] = pprt_hash64_step(v[lane], pprt_hash64_le(last));
    }
    uint64_t h = len * PPRT_HASH64_M;
    for (int j = 0; j < 4; j++) {
        h = (h ^ v[j]) * PPRT_HASH64_C;
        h ^= h >> 29;
    }
    h ^= h >> 32;
    h *= PPRT_HASH64_M;
    return h ^ (h >> 29);
}

static inline uint64_t pprt_hash64(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t v[4] = PPRT_HASH64_LANES_INIT;
    size_t done = pprt_hash64_blocks(v, p, len);
    return pprt_hash64_finish(v, p + done, len - done, len);
}

/* The same hash of bytes that arrive in pieces (the trace file's trailer:
 * analyzers/trace/sink.c): pprt_hash64_add any number of times, then
 * pprt_hash64_end, equal to pprt_hash64 of their concatenation. */
struct pprt_hash64_state {
    uint64_t v[4];
    uint64_t len;
    unsigned char pend[32]; /* the bytes after the last whole block */
    size_t npend;
};

static inline void pprt_hash64_begin(struct pprt_hash64_state *s)
{
    *s = (struct pprt_hash64_state){.v = PPRT_HASH64_LANES_INIT};
}

static inline void pprt_hash64_add(struct pprt_hash64_state *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->len += len;
    if (s->npend) {
        size_t take = 32 - s->npend < len ? 32 - s->npend : len;
        memcpy(s->pend + s->npend, p, take);
        s->npend += take;
        p += take;
        len -= take;
        if (s->npend < 32)
            return;
        pprt_hash64_blocks(s->v, s->pend, 32);
        s->npend = 0;
    }
    size_t done = pprt_hash64_blocks(s->v, p, len);
    memcpy(s->pend, p + done, len - done);
    s->npend = len - done;
}

/* The hash of everything added so far (S itself is left as it was). */
static inline uint64_t pprt_hash64_end(const struct pprt_hash64_state *s)
{
    uint64_t v[4] = {s->v[0], s->v[1], s->v[2], s->v[3]};
    return pprt_hash64_finish(v, s->pend, s->npend, s->len);
}

#endif
