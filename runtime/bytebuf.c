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
    free(b->refs);
    b->data = NULL;
    b->len = b->cap = 0;
    b->refs = NULL;
    b->nrefs = b->refcap = b->ref_bytes = 0;
}

void pprt_buf_put_ref(struct pprt_buf *b, const void *data, size_t len)
{
    if (b->failed || len == 0)
        return;
    if (b->nrefs == b->refcap) {
        size_t cap = b->refcap ? 2 * b->refcap : 16;
        struct pprt_buf_ref *r = realloc(b->refs, cap * sizeof *r);
        if (r == NULL) {
            b->failed = 1;
            return;
        }
        b->refs = r;
        b->refcap = cap;
    }
    b->refs[b->nrefs++] = (struct pprt_buf_ref){b->len, data, len};
    b->ref_bytes += len;
}

void pprt_buf_flatten(struct pprt_buf *b)
{
    if (b->failed || b->nrefs == 0)
        return;
    size_t own = b->len;
    if (reserve(b, b->ref_bytes) == NULL)
        return;
    /* From the last piece back, each of the own bytes moves once. */
    size_t end = own, to = b->len;
    for (size_t i = b->nrefs; i-- > 0;) {
        const struct pprt_buf_ref *r = &b->refs[i];
        to -= end - r->at;
        memmove(b->data + to, b->data + r->at, end - r->at);
        to -= r->len;
        memcpy(b->data + to, r->data, r->len);
        end = r->at;
    }
    free(b->refs);
    b->refs = NULL;
    b->nrefs = b->refcap = b->ref_bytes = 0;
}

int pprt_buf_pieces(const struct pprt_buf *b,
                    int (*each)(const unsigned char *p, size_t n, void *arg), void *arg)
{
    size_t from = 0;
    int rc;
    for (size_t i = 0; i < b->nrefs; i++) {
        const struct pprt_buf_ref *r = &b->refs[i];
        if (r->at > from && (rc = each(b->data + from, r->at - from, arg)) != 0)
            return rc;
        if ((rc = each(r->data, r->len, arg)) != 0)
            return rc;
        from = r->at;
    }
    return b->len > from ? each(b->data + from, b->len - from, arg) : 0;
}
