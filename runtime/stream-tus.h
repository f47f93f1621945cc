/* stream-tus.h - the stream-mode TUs: global path and function index
 * bases, the RCU-protected map from a path index to its TU and function
 * (pp_lookup_path), and snapshots of TUs that are unloaded.
 *
 *   table --> { count, cap, tu[0..cap) }     tu[i] has tu_id i
 *
 * - Index space: bases are handed out from 1 upwards in registration
 *   order, never reused, and stay below PATHPROF_STREAM_UNREGISTERED_BASE;
 *   so tu[] is sorted by tu_base and a binary search finds a TU.
 * - Appending a TU writes tu[count] and then publishes count + 1 (release):
 *   readers load the table, then count (acquire), and see only complete
 *   entries.  A full table is copied into one twice as large, published,
 *   and the old one freed after a grace period.  Entries themselves are
 *   never freed: an event can name a TU long after it was unloaded.
 * - An unloaded TU's META is swapped (release) for a runtime-owned copy,
 *   or for the copy of an earlier unloaded instance with the same bytes,
 *   and the blob the library owned is forgotten after a grace period.
 * - Every change happens under the stream mutex (stream.h). */
#ifndef PATHPROF_RT_STREAM_TUS_H
#define PATHPROF_RT_STREAM_TUS_H

#include "meta.h"

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_stream_tu {
    const unsigned char *meta; /* atomic: see above */
    uint64_t meta_len;
    uint64_t tu_base, npaths;  /* global path indices [tu_base, +npaths) */
    uint64_t fn_base;          /* global function indices [fn_base, +nfuncs) */
    uint32_t nfuncs;
    uint64_t tu_id;
    uint64_t section;          /* analyzer-services.h, pp_tu_info.section */
    uint64_t *bases;           /* the TU's pair; NULL once unloaded */
    struct pprt_meta_range *ranges; /* nfuncs, sorted by offset */
    /* TPP's obvious paths (docs/tpp.md, "Streams"): their counters, which
     * the probes bump in place of an event: bases + DERIVED_BASE while the
     * TU is loaded, a runtime-owned copy once unloaded (NULL when that copy
     * could not be made: the blob is dropped too). */
    uint64_t nderived;
    const uint64_t *derived; /* atomic */
};

/* Under the stream mutex.  Takes ownership of RANGES.  Returns 0, or -1
 * (message printed) when the TU cannot be added. */
int pprt_stream_tus_add(const unsigned char *meta, uint64_t meta_len,
                        uint64_t *bases, struct pprt_meta_range *ranges);

/* Under the stream mutex: the live TU registered with BASES, or NULL. */
struct pprt_stream_tu *pprt_stream_tus_find(const uint64_t *bases);

/* Under the stream mutex: TU goes away.  SNAPSHOT=1 while the profile is
 * still to be written: its blob is copied (or shared with an identical
 * unloaded one, which then owns its section) before the library's memory
 * can go away; 0 afterwards: it is only marked unloaded. */
void pprt_stream_tus_unload(struct pprt_stream_tu *tu, int snapshot);

/* Under the stream mutex, in a forked child with PATHPROF_ACCUMULATE=1:
 * every TU's derived counters (loaded or not) start from 0 again. */
void pprt_stream_tus_zero_derived(void);

/* Whether some TU's obvious-path counters are bumped with plain
 * increments (a TPP_DERIVED function without ATOMIC): then several
 * producer threads may have lost some.  The first such TU's name goes
 * into NAME. */
int pprt_stream_tus_plain_derived(char *name, size_t size);

/* How many stream TUs ever registered (any thread).  Inline, so that
 * signal-wrap.c, built without TSan, can ask before TSan's runtime is
 * ready (TSan's start-up installs its handlers through our sigaction). */
extern uint64_t pprt_stream_tus_registered;
static inline uint64_t pprt_stream_tus_total(void)
{
    return __atomic_load_n(&pprt_stream_tus_registered, __ATOMIC_ACQUIRE);
}

#pragma GCC visibility pop

#endif
