/* meta.c - validation of and access to a TU's metadata blob. */
#include "meta.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Offsets in the blob header and in a directory entry (docs/format.md). */
enum {
    HDR_MAGIC = 0, HDR_VERSION = 4, HDR_NFUNCS = 8, HDR_NSTRINGS = 12,
    HDR_STRTAB = 16, HDR_NCOUNTERS = 24,
    FN_FILE = 4, FN_FLAGS = 16, FN_NPATHS = 24, FN_COUNTER_OFF = 32,
    FN_VERIFY_OFF = 40, FN_NVERIFY = 48, FN_PPP_SIZE = 52, FN_DETAIL_OFF = 56,
};

/* The directory follows the header, whose size the (checked) version gives. */
static const unsigned char *dirent(const unsigned char *blob, uint32_t i)
{
    return blob + pathprof_meta_header_size(pprt_get_u32(blob + HDR_VERSION)) +
           (size_t)i * PATHPROF_META_DIRENT_SIZE;
}

uint32_t pprt_meta_nfuncs(const unsigned char *blob)
{
    return pprt_get_u32(blob + HDR_NFUNCS);
}

uint64_t pprt_meta_ncounters(const unsigned char *blob)
{
    return pprt_get_u64(blob + HDR_NCOUNTERS);
}

void pprt_meta_fn(const unsigned char *blob, uint32_t i, struct pprt_meta_fn *fn)
{
    const unsigned char *d = dirent(blob, i);
    fn->flags = pprt_get_u32(d + FN_FLAGS);
    fn->npaths = pprt_get_u64(d + FN_NPATHS);
    fn->counter_offset = pprt_get_u64(d + FN_COUNTER_OFF);
    fn->verify_offset = pprt_get_u64(d + FN_VERIFY_OFF);
    fn->nverify = pprt_get_u32(d + FN_NVERIFY);
    /* The word is TPP's configuration in a TPP function (docs/format.md). */
    uint32_t word = (fn->flags & PATHPROF_FN_PPP) ? pprt_get_u32(d + FN_PPP_SIZE) : 0;
    fn->ppp_size = word & ~PATHPROF_PPP_TOTAL;
    fn->ppp_total = (word & PATHPROF_PPP_TOTAL) != 0;
    fn->tpp_config = (fn->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE))
                         ? pprt_get_u32(d + FN_PPP_SIZE)
                         : 0;
}

/* Skips COUNT records of SIZE bytes after a u32 count at *POS; -1 when
 * they do not fit in LEN. */
static int skip_records(const unsigned char *blob, uint64_t len, uint64_t *pos, uint64_t size)
{
    if (*pos > len || len - *pos < 4)
        return -1;
    uint64_t n = pprt_get_u32(blob + *pos);
    *pos += 4;
    if (n > (len - *pos) / size)
        return -1;
    *pos += n * size;
    return 0;
}

/* Where a function's PPP table starts: version 3 puts it first in the
 * detail record; earlier versions after the nodes, edges and verify edges.
 * UINT64_MAX when those do not fit in LEN. */
static uint64_t ppp_table_pos(const unsigned char *blob, uint64_t len, uint32_t i)
{
    uint64_t pos = pprt_get_u64(dirent(blob, i) + FN_DETAIL_OFF);
    if (pprt_get_u32(blob + HDR_VERSION) >= 3)
        return pos <= len ? pos : UINT64_MAX;
    if (skip_records(blob, len, &pos, PATHPROF_META_NODE_SIZE) != 0 ||
        skip_records(blob, len, &pos, PATHPROF_META_EDGE_SIZE) != 0 ||
        skip_records(blob, len, &pos, PATHPROF_META_VERIFY_SIZE) != 0)
        return UINT64_MAX;
    return pos;
}

const unsigned char *pprt_meta_ppp_table(const unsigned char *blob, uint64_t len, uint32_t i)
{
    struct pprt_meta_fn fn;
    uint64_t pos = ppp_table_pos(blob, len, i);
    pprt_meta_fn(blob, i, &fn);
    if (pos == UINT64_MAX || fn.ppp_size > (len - pos) / 8)
        return NULL;
    return blob + pos;
}

const unsigned char *pprt_meta_derived(const unsigned char *blob, uint64_t len, uint32_t i,
                                       uint32_t *n)
{
    struct pprt_meta_fn fn;
    uint64_t pos = ppp_table_pos(blob, len, i);
    pprt_meta_fn(blob, i, &fn);
    *n = 0;
    if (!(fn.flags & PATHPROF_FN_TPP_DERIVED) || pos == UINT64_MAX ||
        fn.ppp_size > (len - pos) / 8)
        return NULL;
    pos += (uint64_t)fn.ppp_size * 8;
    if (len - pos < 4)
        return NULL;
    uint64_t count = pprt_get_u32(blob + pos);
    pos += 4;
    if (count > (len - pos) / PATHPROF_META_DERIVED_SIZE)
        return NULL;
    *n = (uint32_t)count;
    return blob + pos;
}

uint64_t pprt_meta_stream_nderived(const unsigned char *blob, uint64_t len)
{
    uint64_t total = 0;
    uint32_t nfuncs = pprt_meta_nfuncs(blob), n;
    for (uint32_t i = 0; i < nfuncs; i++)
        if (pprt_meta_derived(blob, len, i, &n) != NULL)
            total += n;
    return total;
}

uint64_t pprt_meta_stream_path_id(const struct pprt_meta_fn *fn,
                                  const unsigned char *table, uint64_t local)
{
    if (!(fn->flags & PATHPROF_FN_PPP))
        return local;
    if (local >= fn->ppp_size)
        return local - fn->ppp_size;
    return table ? pprt_get_u64(table + 8 * local) : UINT64_MAX;
}

/* Marks [off, off+n) used in BITS; -1 if a counter was already used. */
static int claim_bit(unsigned char *bits, uint64_t c)
{
    if (bits[c / 8] & (1u << (c % 8)))
        return -1;
    bits[c / 8] |= (unsigned char)(1u << (c % 8));
    return 0;
}

/* Whole bytes in the middle: a function of a million array counters is
 * claimed at every process start, and bit by bit that was 3% of a short
 * bzip2 run's instructions. */
static int claim(unsigned char *bits, uint64_t off, uint64_t n)
{
    uint64_t c = off, end = off + n;
    for (; c < end && c % 8 != 0; c++)
        if (claim_bit(bits, c) != 0)
            return -1;
    uint64_t first = c / 8, nbytes = (end - c) / 8;
    for (uint64_t b = first; b < first + nbytes; b++)
        if (bits[b] != 0)
            return -1;
    memset(bits + first, 0xff, nbytes);
    for (c += nbytes * 8; c < end; c++)
        if (claim_bit(bits, c) != 0)
            return -1;
    return 0;
}

#define FAIL(...) do { snprintf(why, why_size, __VA_ARGS__); goto fail; } while (0)

/* The checks both modes share: header, directory and string table in
 * bounds, version.  Stores the header's ncounters in *META_NCOUNTERS. */
static int check_header(const unsigned char *blob, uint64_t len,
                        uint64_t *meta_ncounters, char *why, size_t why_size)
{
    if (blob == NULL)
        FAIL("no metadata");
    if (len < PATHPROF_META_HEADER_SIZE_V1)
        FAIL("metadata is %llu bytes, shorter than its %u-byte header",
             (unsigned long long)len, PATHPROF_META_HEADER_SIZE_V1);
    if (memcmp(blob + HDR_MAGIC, PATHPROF_META_MAGIC, 4) != 0)
        FAIL("metadata does not start with \"%s\"", PATHPROF_META_MAGIC);
    uint32_t version = pprt_get_u32(blob + HDR_VERSION);
    if (version < PATHPROF_META_VERSION_OLDEST || version > PATHPROF_META_VERSION)
        FAIL("metadata version %u, this libpathprof reads versions %u to %u",
             version, PATHPROF_META_VERSION_OLDEST, PATHPROF_META_VERSION);
    if (len < pathprof_meta_header_size(version))
        FAIL("metadata is %llu bytes, shorter than its %u-byte header",
             (unsigned long long)len, pathprof_meta_header_size(version));
    uint32_t nfuncs = pprt_get_u32(blob + HDR_NFUNCS);
    uint64_t strtab = pprt_get_u64(blob + HDR_STRTAB);
    /* nfuncs < 2^32, so this product cannot overflow a uint64_t. */
    uint64_t dir_end = pathprof_meta_header_size(version) +
                       (uint64_t)nfuncs * PATHPROF_META_DIRENT_SIZE;
    if (dir_end > len)
        FAIL("function directory of %u entries does not fit in %llu bytes",
             nfuncs, (unsigned long long)len);
    if (strtab > len)
        FAIL("string table offset %llu is past the end (%llu bytes)",
             (unsigned long long)strtab, (unsigned long long)len);
    for (uint32_t i = 0; i < nfuncs; i++) {
        uint64_t detail = pprt_get_u64(dirent(blob, i) + FN_DETAIL_OFF);
        if (detail >= len)
            FAIL("function %u: detail offset %llu is past the end", i,
                 (unsigned long long)detail);
    }
    *meta_ncounters = pprt_get_u64(blob + HDR_NCOUNTERS);
    return 0;
fail:
    return -1;
}

int pprt_meta_check(const unsigned char *blob, uint64_t len, uint64_t ncounters,
                    char *why, size_t why_size)
{
    unsigned char *bits = NULL;
    uint64_t meta_ncounters;
    if (check_header(blob, len, &meta_ncounters, why, why_size) != 0)
        return -1;
    uint32_t nfuncs = pprt_get_u32(blob + HDR_NFUNCS);
    if (meta_ncounters != ncounters)
        FAIL("metadata says %llu counters, the TU registered %llu",
             (unsigned long long)meta_ncounters, (unsigned long long)ncounters);
    if (ncounters > 0 && (bits = calloc(ncounters / 8 + 1, 1)) == NULL)
        FAIL("out of memory checking %llu counters", (unsigned long long)ncounters);

    for (uint32_t i = 0; i < nfuncs; i++) {
        struct pprt_meta_fn fn;
        pprt_meta_fn(blob, i, &fn);
        if (fn.flags & PATHPROF_FN_STREAM)
            FAIL("function %u has the STREAM flag: a stream-mode TU registered "
                 "as a counting one", i);
        if (fn.flags & PATHPROF_FN_PPP) {
            /* N counters by PPP number and the others' hash slot. */
            if (fn.flags & PATHPROF_FN_HASH)
                FAIL("function %u has both the PPP and the HASH flag", i);
            if (fn.counter_offset > ncounters || fn.ppp_size >= ncounters - fn.counter_offset)
                FAIL("function %u: PPP counters [%llu, +%u + 1) exceed ncounters %llu", i,
                     (unsigned long long)fn.counter_offset, fn.ppp_size,
                     (unsigned long long)ncounters);
            if (claim(bits, fn.counter_offset, (uint64_t)fn.ppp_size + 1) != 0)
                FAIL("function %u: PPP counters [%llu, +%u + 1) overlap other counters", i,
                     (unsigned long long)fn.counter_offset, fn.ppp_size);
            if (pprt_meta_ppp_table(blob, len, i) == NULL)
                FAIL("function %u: its PPP table of %u IDs does not fit in the metadata", i,
                     fn.ppp_size);
        } else if (fn.flags & PATHPROF_FN_HASH) {
            if (fn.counter_offset >= ncounters)
                FAIL("function %u: hash slot %llu is not below ncounters %llu", i,
                     (unsigned long long)fn.counter_offset,
                     (unsigned long long)ncounters);
            if (claim(bits, fn.counter_offset, 1) != 0)
                FAIL("function %u: hash slot %llu overlaps other counters", i,
                     (unsigned long long)fn.counter_offset);
        } else {
            if (fn.counter_offset > ncounters || fn.npaths > ncounters - fn.counter_offset)
                FAIL("function %u: counters [%llu, +%llu) exceed ncounters %llu", i,
                     (unsigned long long)fn.counter_offset,
                     (unsigned long long)fn.npaths, (unsigned long long)ncounters);
            if (claim(bits, fn.counter_offset, fn.npaths) != 0)
                FAIL("function %u: counters [%llu, +%llu) overlap other counters", i,
                     (unsigned long long)fn.counter_offset,
                     (unsigned long long)fn.npaths);
        }
        if (fn.flags & PATHPROF_FN_VERIFY) {
            if (fn.verify_offset > ncounters || fn.nverify > ncounters - fn.verify_offset)
                FAIL("function %u: verify counters [%llu, +%u) exceed ncounters %llu",
                     i, (unsigned long long)fn.verify_offset, fn.nverify,
                     (unsigned long long)ncounters);
            if (claim(bits, fn.verify_offset, fn.nverify) != 0)
                FAIL("function %u: verify counters [%llu, +%u) overlap other counters",
                     i, (unsigned long long)fn.verify_offset, fn.nverify);
        }
    }
    free(bits);
    return 0;
fail:
    free(bits);
    return -1;
}

static int by_offset(const void *a, const void *b)
{
    const struct pprt_meta_range *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int pprt_meta_check_stream(const unsigned char *blob, uint64_t len,
                           struct pprt_meta_range **ranges, char *why,
                           size_t why_size)
{
    struct pprt_meta_range *r = NULL;
    uint64_t npaths;
    *ranges = NULL;
    if (check_header(blob, len, &npaths, why, why_size) != 0)
        return -1;
    uint32_t nfuncs = pprt_get_u32(blob + HDR_NFUNCS);
    /* Indices are tu_base + offset + id in 61 bits, below the bases of
     * unregistered TUs; a TU this large is surely corrupt. */
    if (npaths >= PATHPROF_STREAM_UNREGISTERED_BASE / 2)
        FAIL("metadata says %llu path indices, more than a stream TU can have",
             (unsigned long long)npaths);
    if ((r = malloc((nfuncs ? nfuncs : 1) * sizeof *r)) == NULL)
        FAIL("out of memory checking %u functions", nfuncs);
    for (uint32_t i = 0; i < nfuncs; i++) {
        struct pprt_meta_fn fn;
        pprt_meta_fn(blob, i, &fn);
        if (!(fn.flags & PATHPROF_FN_STREAM))
            FAIL("function %u lacks the STREAM flag (a counting-mode function "
                 "in a stream TU)", i);
        if (fn.flags & (PATHPROF_FN_HASH | PATHPROF_FN_VERIFY))
            FAIL("function %u has the %s flag, which stream mode does not "
                 "support", i, fn.flags & PATHPROF_FN_HASH ? "HASH" : "VERIFY");
        /* A PPP function's range: N interesting paths by PPP number, then
         * every other path by its Ball-Larus ID (docs/format.md). */
        uint64_t n = pprt_meta_stream_range(&fn);
        if (fn.counter_offset > npaths || n < fn.npaths || n > npaths - fn.counter_offset)
            FAIL("function %u: paths [%llu, +%llu) exceed the TU's %llu", i,
                 (unsigned long long)fn.counter_offset,
                 (unsigned long long)n, (unsigned long long)npaths);
        if (fn.ppp_total)
            FAIL("function %u: a PPP total of the other paths in a stream TU "
                 "(ppp-uninteresting=total is counting mode's)", i);
        if ((fn.flags & PATHPROF_FN_PPP) && pprt_meta_ppp_table(blob, len, i) == NULL)
            FAIL("function %u: its PPP table of %u IDs does not fit in the metadata", i,
                 fn.ppp_size);
        /* TPP's obvious paths: the runtime adds their in-memory counters
         * to these IDs (pathprof-abi.h, PATHPROF_STREAM_DERIVED_BASE). */
        if (fn.flags & PATHPROF_FN_TPP_DERIVED) {
            uint32_t nd;
            const unsigned char *d = pprt_meta_derived(blob, len, i, &nd);
            if (d == NULL || nd == 0)
                FAIL("function %u: its list of derived paths does not fit in the "
                     "metadata", i);
            for (uint32_t k = 0; k < nd; k++)
                if (pprt_get_u64(d + (size_t)k * PATHPROF_META_DERIVED_SIZE) >= fn.npaths)
                    FAIL("function %u: derived path %llu is not below its %llu paths", i,
                         (unsigned long long)pprt_get_u64(
                             d + (size_t)k * PATHPROF_META_DERIVED_SIZE),
                         (unsigned long long)fn.npaths);
        }
        r[i].offset = fn.counter_offset;
        r[i].npaths = n;
        r[i].func = i;
    }
    /* Sorted, the ranges give both the overlap check (no bitmap: a stream
     * TU may have 2^40 paths) and pp_lookup_path's binary search. */
    qsort(r, nfuncs, sizeof *r, by_offset);
    for (uint32_t i = 1; i < nfuncs; i++)
        if (r[i - 1].npaths > r[i].offset - r[i - 1].offset)
            FAIL("function %u: paths [%llu, +%llu) overlap function %u's",
                 r[i].func, (unsigned long long)r[i].offset,
                 (unsigned long long)r[i].npaths, r[i - 1].func);
    *ranges = r;
    return 0;
fail:
    free(r);
    return -1;
}

void pprt_meta_tu_name(const unsigned char *blob, uint64_t len, char *buf,
                       size_t size)
{
    snprintf(buf, size, "(unnamed)");
    if (blob == NULL || len < PATHPROF_META_HEADER_SIZE + PATHPROF_META_DIRENT_SIZE ||
        memcmp(blob, PATHPROF_META_MAGIC, 4) != 0 || pprt_get_u32(blob + HDR_NFUNCS) == 0)
        return; /* (the larger header: the first entry is in bounds for either version) */
    uint32_t file = pprt_get_u32(dirent(blob, 0) + FN_FILE);
    uint32_t nstrings = pprt_get_u32(blob + HDR_NSTRINGS);
    uint64_t off = pprt_get_u64(blob + HDR_STRTAB);
    if (file == PATHPROF_NONE || file >= nstrings)
        return;
    for (uint32_t i = 0;; i++) {
        if (off > len || len - off < 4)
            return;
        uint32_t slen = pprt_get_u32(blob + off);
        if (slen > len - off - 4)
            return;
        if (i == file) {
            snprintf(buf, size, "%.*s", (int)(slen > 512 ? 512 : slen),
                     (const char *)blob + off + 4);
            return;
        }
        off += 4 + (uint64_t)slen;
    }
}
