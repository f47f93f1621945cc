/* analyzer-services.h - what the runtime offers analyzers beyond
 * analyzer.h's pp_lookup_path: the list of stream TUs for writing profile
 * sections, the stream's error counters, and how files are written.
 *
 * Threads: pp_tu_count/pp_tu_get only from an analyzer's write() (the
 * runtime holds the TU list still while it writes); pp_note_* from
 * anywhere. */
#ifndef PATHPROF_ANALYZER_SERVICES_H
#define PATHPROF_ANALYZER_SERVICES_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pp_tu_info {
    /* The blob (the runtime's copy once unloaded); NULL when that copy
     * could not be made: skip the TU. */
    const unsigned char *meta;
    uint64_t meta_len;
    uint64_t tu_base;          /* global indices [tu_base, tu_base + npaths) */
    uint64_t npaths;           /* the blob header's ncounters */
    uint64_t fn_base;          /* global function indices [fn_base, +nfuncs):
                                  the payload of ENTER/RESUME markers */
    /* The TU whose profile section holds this one's counts: itself, or,
     * for a library loaded and unloaded again, the first unloaded instance
     * with the same blob (counting mode writes one section for all
     * cycles).  Sections are written in the order of their TU ids. */
    uint64_t section;
    /* TPP's obvious paths (docs/tpp.md, "Streams"): NDERIVED counters
     * that the probes bump in memory instead of emitting an event, one
     * per derived path of the blob's TPP_DERIVED functions in directory
     * order (pathprof-abi.h, PATHPROF_STREAM_DERIVED_BASE).  The program
     * may still be bumping them: read each with a relaxed atomic load.
     * The blpp analyzer adds them to its counts. */
    const uint64_t *derived;
    uint64_t nderived;
};

/* Stream TUs registered so far; their ids are 0 .. count-1, in
 * registration order (pp_path_ref.tu_id). */
uint64_t pp_tu_count(void);
/* Returns 0 when TU_ID is not below pp_tu_count(). */
int pp_tu_get(uint64_t tu_id, struct pp_tu_info *out);

/* An activation stack had to be repaired (docs/streaming.md, section 2). */
void pp_note_resync(uint64_t n);
/* Events whose path index belongs to no registered TU (their TU was not
 * registered yet or was refused): counted, not attributed. */
void pp_note_unknown(uint64_t n);

/* PATHPROF_SYNC=1 (docs/runtime.md): whether a file an analyzer writes
 * (the trace) is fsynced before its rename, and its directory after, as
 * the profile is; by default neither is. */
int pp_sync_files(void);

#pragma GCC visibility pop

#endif
