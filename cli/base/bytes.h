/* bytes.h - a bounds-checked little-endian cursor over a byte buffer.
 *
 * Every field of a profile is read through a cursor, so a truncated or
 * lying length can only make a read fail, never run past the buffer.
 * Lengths found in the file are compared with pp_cursor_left() BEFORE
 * anything is allocated from them. */
#ifndef PATHPROF_CLI_BYTES_H
#define PATHPROF_CLI_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_cursor {
    const unsigned char *base;
    size_t len;
    size_t pos;
};

static inline struct pp_cursor pp_cursor_at(const unsigned char *base, size_t len,
                                            size_t pos)
{
    struct pp_cursor c = { base, len, pos <= len ? pos : len };
    return c;
}

static inline size_t pp_cursor_left(const struct pp_cursor *c)
{
    return c->len - c->pos;
}

static inline uint32_t pp_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t pp_le64(const unsigned char *p)
{
    return (uint64_t)pp_le32(p) | (uint64_t)pp_le32(p + 4) << 32;
}

static inline bool pp_get_u32(struct pp_cursor *c, uint32_t *v)
{
    if (pp_cursor_left(c) < 4)
        return false;
    *v = pp_le32(c->base + c->pos);
    c->pos += 4;
    return true;
}

static inline bool pp_get_u64(struct pp_cursor *c, uint64_t *v)
{
    if (pp_cursor_left(c) < 8)
        return false;
    *v = pp_le64(c->base + c->pos);
    c->pos += 8;
    return true;
}

/* For fixed records whose size was checked against pp_cursor_left() by the
 * caller: returns the value, or 0 (and reads nothing) if the check was
 * forgotten, so a mistake can misread but never overrun. */
static inline uint32_t pp_take_u32(struct pp_cursor *c)
{
    uint32_t v = 0;
    pp_get_u32(c, &v);
    return v;
}

static inline uint64_t pp_take_u64(struct pp_cursor *c)
{
    uint64_t v = 0;
    pp_get_u64(c, &v);
    return v;
}

/* Unsigned LEB128 (7 bits a byte, least significant first, the high bit
 * on every byte but the last): false when the bytes end first or the
 * value does not fit in 64 bits (an 11th byte, or bits beyond the 64th). */
static inline bool pp_get_uleb(struct pp_cursor *c, uint64_t *v)
{
    uint64_t r = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (pp_cursor_left(c) == 0)
            return false;
        unsigned char b = c->base[c->pos++];
        if (shift == 63 && (b & 0x7e))
            return false;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return true;
        }
    }
    return false;
}

/* Points *p at the next n bytes and skips them. */
static inline bool pp_get_bytes(struct pp_cursor *c, uint64_t n,
                                const unsigned char **p)
{
    if (pp_cursor_left(c) < n)
        return false;
    *p = c->base + c->pos;
    c->pos += (size_t)n;
    return true;
}

#endif
