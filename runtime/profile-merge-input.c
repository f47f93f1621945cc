/* profile-merge-input.c - the helpers the merge's readers share (see
 * profile-merge-input.h). */
#include "profile-merge-input.h"
#include "le-bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int mg_fail(struct pprt_merge_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

size_t mg_left(const struct mg_cur *c) { return c->len - c->pos; }

int mg_get_u32(struct mg_cur *c, uint32_t *v)
{
    if (mg_left(c) < 4)
        return -1;
    *v = pprt_get_u32(c->p + c->pos);
    c->pos += 4;
    return 0;
}

int mg_get_u64(struct mg_cur *c, uint64_t *v)
{
    if (mg_left(c) < 8)
        return -1;
    *v = pprt_get_u64(c->p + c->pos);
    c->pos += 8;
    return 0;
}

int mg_get_uleb(struct mg_cur *c, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (mg_left(c) < 1)
            return -1;
        unsigned char b = c->p[c->pos++];
        if (shift == 63 && (b & 0x7e))
            return -1; /* more than 64 bits */
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

int mg_add(uint64_t *into, uint64_t v, struct pprt_merge_error *err, const char *what)
{
    if (__builtin_add_overflow(*into, v, into))
        return mg_fail(err, "%s add up to more than 2^64 - 1", what);
    return 0;
}

/* Grows *ARRAY of ELEM-byte items to hold NEED. */
int mg_grow(void *array, size_t *cap, size_t need, size_t elem)
{
    void **a = array;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 4 / elem)
            return -1;
        n *= 2;
    }
    void *bigger = realloc(*a, n * elem);
    if (!bigger)
        return -1;
    *a = bigger;
    *cap = n;
    return 0;
}

uint64_t mg_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* Open addressing tables hold index + 1 (0: empty) and double at half
 * load; HASH_OF recomputes an entry's hash when they grow. */
int mg_rehash(size_t **slots, size_t *nslots, size_t count,
                  uint64_t (*hash_of)(const void *ctx, size_t v), const void *ctx)
{
    if ((count + 1) * 2 <= *nslots)
        return 0;
    size_t n = *nslots ? *nslots * 2 : 64;
    size_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < *nslots; i++) {
        size_t v = (*slots)[i];
        if (!v)
            continue;
        size_t j = hash_of(ctx, v - 1) & (n - 1);
        while (s[j])
            j = (j + 1) & (n - 1);
        s[j] = v;
    }
    free(*slots);
    *slots = s;
    *nslots = n;
    return 0;
}
