/* bytebuf.c - the growable byte buffer (see bytebuf.h). */
#include "bytebuf.h"
#include "le-bytes.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *reserve(struct pprt_buf *b, size_t len)
{
    if (b->failed)
        return NULL;
    if (len > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < len) {
            if (cap > SIZE_MAX / 2) {
                b->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        unsigned char *d = realloc(b->data, cap);
        if (d == NULL) {
            b->failed = 1;
            return NULL;
        }
        b->data = d;
        b->cap = cap;
    }
    unsigned char *p = b->data + b->len;
    b->len += len;
    return p;
}

void pprt_buf_put(struct pprt_buf *b, const void *data, size_t len)
{
    unsigned char *p = reserve(b, len);
    if (p && len)
        memcpy(p, data, len);
}

void pprt_buf_zeros(struct pprt_buf *b, size_t len)
{
    unsigned char *p = reserve(b, len);
    if (p && len)
        memset(p, 0, len);
}

void pprt_buf_u32(struct pprt_buf *b, uint32_t v)
{
    unsigned char *p = reserve(b, 4);
    if (p)
        pprt_set_u32(p, v);
}

void pprt_buf_u64(struct pprt_buf *b, uint64_t v)
{
    unsigned char *p = reserve(b, 8);
    if (p)
        pprt_set_u64(p, v);
}

void pprt_buf_uleb(struct pprt_buf *b, uint64_t v)
{
    unsigned char tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            tmp[n] |= 0x80;
        n++;
    } while (v);
    pprt_buf_put(b, tmp, n);
}

void pprt_buf_patch_u64(struct pprt_buf *b, size_t offset, uint64_t v)
{
    if (!b->failed && offset + 8 <= b->len)
        pprt_set_u64(b->data + offset, v);
}

void pprt_buf_patch_u32(struct pprt_buf *b, size_t offset, uint32_t v)
{
    if (!b->failed && offset + 4 <= b->len)
        pprt_set_u32(b->data + offset, v);
}

void pprt_buf_free(struct pprt_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
