/* meta.h - reading a TU's metadata blob (docs/format.md, section 2).
 *
 * The runtime needs only the header and the function directory: enough to
 * find each function's counters.  The rest of the blob is copied verbatim
 * into the profile for the CLI to decode. */
#ifndef PATHPROF_RT_META_H
#define PATHPROF_RT_META_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* One function directory entry, the fields the runtime uses. */
struct pprt_meta_fn {
    uint32_t flags;          /* PATHPROF_FN_* */
    uint64_t npaths;         /* array mode: counters [counter_offset, +npaths) */
    uint64_t counter_offset; /* hash mode: the one slot */
    uint64_t verify_offset;  /* VERIFY: [verify_offset, +nverify) */
    uint32_t nverify;
    uint32_t ppp_size;       /* PPP: N counters at counter_offset, hash slot at +N */
    int ppp_total;           /* PPP: the slot at +N is the others' total, not a hash */
    uint32_t tpp_config;     /* TPP or TPP_NOPROFILE: the configuration word, else 0 */
};

/* Checks that the blob can be walked safely and that every counter range
 * lies inside the NCOUNTERS-long array without overlapping another (a hash
 * slot sharing a counter with an array range would turn a count into a
 * pointer we later follow).  Returns 0, or -1 with the reason in WHY. */
int pprt_meta_check(const unsigned char *blob, uint64_t len, uint64_t ncounters,
                    char *why, size_t why_size);

/* The number of path indices a stream-mode function owns: npaths, plus
 * ppp_size in front for a PPP function (docs/format.md, "PPP functions"). */
static inline uint64_t pprt_meta_stream_range(const struct pprt_meta_fn *fn)
{
    return fn->npaths + fn->ppp_size;
}

/* The Ball-Larus ID of index LOCAL (below pprt_meta_stream_range) of a
 * stream-mode function whose PPP table is TABLE (NULL unless PPP);
 * UINT64_MAX for a hole of the table, which no probe sends. */
uint64_t pprt_meta_stream_path_id(const struct pprt_meta_fn *fn,
                                  const unsigned char *table, uint64_t local);

/* A stream-mode function's path indices [offset, offset + npaths) in its
 * TU (npaths: pprt_meta_stream_range), and its directory index. */
struct pprt_meta_range {
    uint64_t offset, npaths;
    uint32_t func;
};

/* The stream-mode check: the same structure, every function flagged
 * STREAM (and neither HASH nor VERIFY), its range inside the header's
 * ncounters (the TU's number of path indices) and disjoint from the
 * others.  Returns 0 with *RANGES a malloc'd array of the NFUNCS ranges
 * sorted by offset, or -1 with the reason in WHY. */
int pprt_meta_check_stream(const unsigned char *blob, uint64_t len,
                           struct pprt_meta_range **ranges, char *why,
                           size_t why_size);

/* A PPP function's table (docs/format.md): the Ball-Larus ID of each of
 * its ppp_size numbers, little-endian u64s at the end of its detail
 * record, or NULL when the record does not hold them within LEN bytes.
 * pprt_meta_check checks every PPP function's table is there. */
const unsigned char *pprt_meta_ppp_table(const unsigned char *blob, uint64_t len, uint32_t i);

/* A TPP_DERIVED function's derived paths (docs/format.md): *N records of
 * PATHPROF_META_DERIVED_SIZE bytes, the path ID a u64 at the start of
 * each; NULL (and *N 0) for a function without them or when they do not
 * fit in LEN bytes.  pprt_meta_check_stream checks they fit. */
const unsigned char *pprt_meta_derived(const unsigned char *blob, uint64_t len, uint32_t i,
                                       uint32_t *n);
/* The number of in-memory counters of a checked stream blob's obvious
 * paths (pathprof-abi.h, PATHPROF_STREAM_DERIVED_BASE). */
uint64_t pprt_meta_stream_nderived(const unsigned char *blob, uint64_t len);

/* Only for blobs that passed pprt_meta_check or pprt_meta_check_stream. */
uint32_t pprt_meta_nfuncs(const unsigned char *blob);
uint64_t pprt_meta_ncounters(const unsigned char *blob);
void pprt_meta_fn(const unsigned char *blob, uint32_t i, struct pprt_meta_fn *fn);

/* A name for the TU in messages: the source file of its first function,
 * or "(unnamed)".  Safe on any blob of LEN bytes, checked or not. */
void pprt_meta_tu_name(const unsigned char *blob, uint64_t len, char *buf,
                       size_t size);

#pragma GCC visibility pop

#endif
