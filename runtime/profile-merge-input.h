/* profile-merge-input.h - what the merge's section readers share: a
 * bounds-checked cursor over an input's bytes, the one-line error, sums
 * that refuse to wrap, growing arrays, and the open addressing tables
 * (index + 1 per slot, 0 empty) the accumulator finds things by. */
#ifndef PATHPROF_RT_PROFILE_MERGE_INPUT_H
#define PATHPROF_RT_PROFILE_MERGE_INPUT_H

#include "profile-merge-error.h"

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* The analyzers' section tags (analyzers/ksf/write.h and
 * analyzers/ksf-pruned/write.h; repeated, the runtime sits below them). */
#define MG_TAG_KIPF 4u
#define MG_TAG_KPRUNE 5u
#define MG_KIPF_COMPACT 2u
#define MG_MAX_K 64u

struct mg_cur {
    const unsigned char *p;
    size_t len, pos;
};

/* Sets *ERR and returns -1, so checks read "return mg_fail(...)". */
int mg_fail(struct pprt_merge_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
size_t mg_left(const struct mg_cur *c);
/* 0, or -1 when the bytes run out (nothing consumed). */
int mg_get_u32(struct mg_cur *c, uint32_t *v);
int mg_get_u64(struct mg_cur *c, uint64_t *v);
int mg_get_uleb(struct mg_cur *c, uint64_t *v);
/* The same, a one-byte number (most of a k-IPF's) without the call. */
static inline int mg_get_uleb_fast(struct mg_cur *c, uint64_t *v)
{
    if (c->pos < c->len && !(c->p[c->pos] & 0x80)) {
        *v = c->p[c->pos++];
        return 0;
    }
    return mg_get_uleb(c, v);
}
/* *INTO += V, or an error "WHAT add up to more than 2^64 - 1". */
int mg_add(uint64_t *into, uint64_t v, struct pprt_merge_error *err, const char *what);
/* Grows *ARRAY (a pointer to a malloc'd array of ELEM-byte items) to NEED. */
int mg_grow(void *array, size_t *cap, size_t need, size_t elem);
uint64_t mg_mix(uint64_t h);
/* Doubles *SLOTS when COUNT + 1 entries would fill half of it; HASH_OF
 * gives an entry's hash from its index. */
int mg_rehash(size_t **slots, size_t *nslots, size_t count,
              uint64_t (*hash_of)(const void *ctx, size_t v), const void *ctx);

#pragma GCC visibility pop

#endif
