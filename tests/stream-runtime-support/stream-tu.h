/* stream-tu.h - a synthetic stream-mode translation unit, and the probe's
 * fast path exactly as the plugin emits it (docs/streaming.md, section 3),
 * so libpathprof's stream mode can be tested without the plugin.
 *
 * A test TU is a list of functions with their path counts; the program
 * emits path events (and ENTER/RESUME marker pairs, which blpp must
 * ignore) and counts in a struct st_expect what it emitted, which the
 * test script compares with the profile (st_expect_write). */
#ifndef STREAM_TU_H
#define STREAM_TU_H

#include "pathprof-abi.h"

#include <stddef.h>
#include <stdint.h>

#define ST_MAX_FUNCS 8

struct st_tu {
    const char *file;
    uint32_t nfuncs;
    const char *name[ST_MAX_FUNCS];
    uint64_t npaths[ST_MAX_FUNCS];
    uint64_t offset[ST_MAX_FUNCS]; /* filled by st_register */
    uint64_t total;                /* path indices of the TU */
    uint64_t *bases;               /* the TU's __pathprof_tu_base pair */
    unsigned char blob[4096];
    size_t blob_len;
};

/* What a program emitted into one TU: counts[offset + id]. */
struct st_expect {
    const struct st_tu *tu;
    uint64_t *counts;
    uint64_t events; /* path events, markers not included */
    uint64_t words;  /* every word emitted: path events and markers */
};

/* Builds the blob (flags STREAM, offsets in directory order) and registers
 * it with __pathprof_register_stream_tu; FLAGS_XOR flips flag bits of
 * every function (0 for a valid TU). */
void st_register(struct st_tu *tu, uint32_t flags_xor);
void st_unregister(struct st_tu *tu);

void st_expect_init(struct st_expect *e, const struct st_tu *tu);
void st_expect_add(struct st_expect *into, const struct st_expect *from);
void st_expect_free(struct st_expect *e);
/* Appends "tu FILE", "FUNC ID COUNT" lines, "events N" and "words N" to
 * PATH. */
void st_expect_write(const struct st_expect *e, const char *path);

/* The probe. */
static inline void st_emit(uint64_t ev)
{
    uint64_t *p = __pathprof_cur;
    if (__builtin_expect(((uintptr_t)p & __pathprof_mask) == 0, 0)) {
        __pathprof_emit_slow(ev);
    } else {
        *p = ev;
        __pathprof_cur = p + 1;
    }
}

/* A deterministic generator of plausible streams: xorshift64. */
static inline uint64_t st_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Emits N path events of TU drawn from SEED, with a marker pair now and
 * then (never when $ST_MARKERS is 0), and counts them in E. */
void st_emit_paths(const struct st_tu *tu, struct st_expect *e, uint64_t seed,
                   uint64_t n);

#endif
