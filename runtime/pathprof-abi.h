/* pathprof-abi.h - the contract between code emitted by the pathprof GCC
 * plugin and the runtime library (libpathprof).  The layout of the metadata
 * blob and of the profile file is in docs/format.md; the numbers below are
 * the versions every producer and reader checks. */
#ifndef PATHPROF_ABI_H
#define PATHPROF_ABI_H

#include <stdint.h>

/* 5: the count-mode probe of a hash-mode function reads the runtime's
   table itself (PATHPROF_HASH_* below), keys are ID + 1. */
#define PATHPROF_ABI_VERSION 5u
/* Metadata version 3: the detail records are compact (LEB128 numbers,
   deltas; docs/format.md, section 2), with the parts the runtime reads
   (PPP table, derived paths) first and fixed-size.  Version 2 added the
   TU's build line to the header.  Versions 1 and 2 are still read. */
#define PATHPROF_META_VERSION 3u
#define PATHPROF_META_VERSION_OLDEST 1u
/* File version 2: the trailer is pprt_hash64 (runtime/hash64.h), eight
   bytes a step, not version 1's FNV-1a-64; version 1 is still read. */
#define PATHPROF_FILE_VERSION 2u
#define PATHPROF_FILE_VERSION_OLDEST 1u

#define PATHPROF_META_MAGIC "PPTM"
#define PATHPROF_FILE_MAGIC "PATHPROF"

/* Hash-mode counts (runtime/hash-table.h): the layout the plugin's inline
 * probe reads (plugin/hash-probe.cc).  A function's counter slot holds 0
 * or a root; the root's word at PATHPROF_HASH_ROOT_CURRENT points to the
 * current table; a table's 32-bit shift is at PATHPROF_HASH_TABLE_SHIFT
 * and its entries, {key, count} of PATHPROF_HASH_ENTRY_SIZE bytes, start
 * at PATHPROF_HASH_TABLE_ENTRIES.  Path ID I has key I + 1 (0: empty),
 * and its home entry is (key * PATHPROF_HASH_MULT) >> shift. */
#define PATHPROF_HASH_ROOT_CURRENT 0u
#define PATHPROF_HASH_TABLE_SHIFT 8u
#define PATHPROF_HASH_TABLE_ENTRIES 32u
#define PATHPROF_HASH_ENTRY_SIZE 16u
#define PATHPROF_HASH_MULT 0x9e3779b97f4a7c15ull

/* Function directory flags (docs/format.md, section 2). */
#define PATHPROF_FN_HASH 1u
#define PATHPROF_FN_CUT 2u
#define PATHPROF_FN_ATOMIC 4u
#define PATHPROF_FN_VERIFY 8u
#define PATHPROF_FN_STREAM 16u  /* stream mode: npaths IDs at counter_offset */
#define PATHPROF_FN_RESUME 32u  /* has resume points: emits ENTER/RESUME */
#define PATHPROF_FN_SAMPLED 64u /* sampling=yes: paths counted only in bursts */
/* vpp=yes (docs/vpp.md): sampled, bursts of one path, the sampled paths
   timed (always with SAMPLED and STREAM). */
#define PATHPROF_FN_VPP 2048u
/* The detail record ends with the line table: per node, the exact lines
   its statements come from (docs/format.md, "Line table").  Profiles
   without it still read (the CLI then falls back to each block's range). */
#define PATHPROF_FN_LINES 4096u
#define PATHPROF_META_SPAN_SIZE 12u
/* Preferential path profiling (ppp=FILE): the N interesting paths count at
   [counter_offset, +N) by PPP number, the others by Ball-Larus ID in the
   hash slot at counter_offset + N; N is the directory's ppp_size and the
   detail record ends with the table of their Ball-Larus IDs. */
#define PATHPROF_FN_PPP 1024u
#define PATHPROF_PPP_HOLE 0xffffffffffffffffull /* a PPP number no path has */
/* In a PPP function's directory word, above N: ppp-uninteresting=total,
   the slot at counter_offset + N is a plain counter, the total of the
   other paths (no hash table); written as a record with path ID npaths. */
#define PATHPROF_PPP_TOTAL 0x80000000u
/* TPP (docs/tpp.md): numbered without its cold edges; path ID npaths - 1
   is the cold counter, every path through a cold edge. */
#define PATHPROF_FN_TPP 512u
/* TPP asked for, but the function had no edge profile: plain Ball-Larus. */
#define PATHPROF_FN_TPP_NOPROFILE 128u
/* TPP with obvious paths: their counts come from counters on their
   defining edges, listed after the verify edges of the detail record. */
#define PATHPROF_FN_TPP_DERIVED 256u
#define PATHPROF_META_DERIVED_SIZE 16u
/* The directory entry's configuration word of a TPP function: TPP(i, j). */
#define PATHPROF_TPP_CONFIG(i, j) ((uint32_t)(i) | ((uint32_t)(j) << 8))
#define PATHPROF_TPP_I(word) ((unsigned)((word) & 0xff))
#define PATHPROF_TPP_J(word) ((unsigned)(((word) >> 8) & 0xff))
/* The edge profile was an earlier pathprof profile (edge-profile=FILE),
 * not GCC's -fprofile-use counts. */
#define PATHPROF_TPP_FROM_PATHPROF (1u << 16)
/* The function's cold paths are counted in a cold region, not in one cold
 * counter: with npaths (the directory's) = 2H + 1, IDs 0..H-1 are the hot
 * paths and IDs H..2H are all cold, their sum the cold count (docs/tpp.md,
 * "The poisoned register"). Without it, ID npaths - 1 is the cold counter. */
#define PATHPROF_TPP_COLD_REGION (1u << 17)

/* Edge kinds of the numbered DAG. */
#define PATHPROF_EDGE_REAL 0u
#define PATHPROF_EDGE_ENTRY_DUMMY 1u
#define PATHPROF_EDGE_EXIT_DUMMY 2u
#define PATHPROF_EDGE_TERMINAL 3u

#define PATHPROF_NONE 0xffffffffu

/* Sizes of the fixed records. */
#define PATHPROF_META_HEADER_SIZE 40u     /* versions 2 and 3 */
#define PATHPROF_META_HEADER_SIZE_V1 32u  /* version 1: no build line */

/* The metadata header's size for a (readable) version. */
static inline uint32_t pathprof_meta_header_size(uint32_t version)
{
    return version >= 2u ? PATHPROF_META_HEADER_SIZE : PATHPROF_META_HEADER_SIZE_V1;
}

#define PATHPROF_META_DIRENT_SIZE 64u
#define PATHPROF_META_NODE_SIZE 16u
#define PATHPROF_META_EDGE_SIZE 32u
#define PATHPROF_META_VERIFY_SIZE 8u
/* Version 3's detail records: the fewest bytes a verify edge can take
   (two LEB128 numbers), which bounds a count read from damaged bytes. */
#define PATHPROF_META_V3_VERIFY_MIN 2u
#define PATHPROF_FILE_HEADER_SIZE 64u

/* Profile sections. */
#define PATHPROF_SECTION_PROGRAM 1u
#define PATHPROF_SECTION_TU 2u
#define PATHPROF_SECTION_STREAM 3u
/* 4 and 5 are KIPF and KPRUNE (analyzers/ksf, analyzers/ksf-pruned). */
#define PATHPROF_SECTION_SAMPLING 6u
#define PATHPROF_SECTION_WPP 7u /* analyzers/wpp */
#define PATHPROF_SECTION_VPP 8u /* analyzers/vpp (docs/vpp.md) */

/* Stream policies, as recorded in the STREAM section. */
#define PATHPROF_POLICY_BLOCK 1u
#define PATHPROF_POLICY_DROP 2u

/* Profile modes. */
#define PATHPROF_MODE_COUNT 1u
#define PATHPROF_MODE_STREAM 2u

/* Stream events (docs/streaming.md, section 1). */
#define PATHPROF_EV_MARKER (1ull << 63)
#define PATHPROF_EV_RET (1ull << 62)
#define PATHPROF_EV_START (1ull << 61)
#define PATHPROF_EV_INDEX_MASK ((1ull << 61) - 1)
#define PATHPROF_MARK_ENTER 1u
#define PATHPROF_MARK_RESUME 2u
/* sampling=yes in stream mode: a burst begins (payload 0) or ends (1);
   the second word is PATHPROF_MARK_FILLER (docs/sampling.md). */
#define PATHPROF_MARK_BURST 3u
#define PATHPROF_BURST_BEGIN 0u
#define PATHPROF_BURST_END 1u
/* vpp=yes: the path event just before it in the thread's stream was
   timed; payload: the counter ticks from its start to its end (the
   timing instrumentation's bias not yet subtracted), the second word the
   counter at its start (docs/vpp.md). */
#define PATHPROF_MARK_VPP 4u
/* vpp=yes with PATHPROF_VPP_COUNTER: follows a VPP marker; payload: the
   second hardware counter's events over the same interval (cache misses),
   the second word PATHPROF_MARK_FILLER (docs/vpp.md, "A second
   counter"). */
#define PATHPROF_MARK_VPP_EVENTS 5u
/* The second word of a marker that has nothing to say there: not 0,
   because a zero word in a chunk is a slot nothing was stored in (the
   stale-cursor repair and the signal trampoline read chunks so,
   docs/streaming.md section 2).  Readers ignore it; streams and traces
   written before hold 0 there. */
#define PATHPROF_MARK_FILLER 1u
/* A loop whose body is one path, counted at its exits (loop-counts=1,
   docs/algorithms.md): payload n, the second word a path event W (no
   START, no RET): W happened n more times here, exactly as if n events W
   had been written.  The runtime expands it for analyzers that do not
   read runs (pp_analyzer.reads_runs), so they and traces see every event. */
#define PATHPROF_MARK_RUN 6u
#define PATHPROF_MARK(kind, payload)                                          \
    (PATHPROF_EV_MARKER | ((uint64_t)(kind) << 56) |                          \
     ((uint64_t)(payload) & ((1ull << 56) - 1)))
#define PATHPROF_MARK_KIND(ev) ((unsigned)(((ev) >> 56) & 0x7f))
#define PATHPROF_MARK_PAYLOAD(ev) ((ev) & ((1ull << 56) - 1))
/* The value the plugin gives a TU's path base (__pathprof_tu_base[0]) and
   function base ([1]) statically, before the runtime assigns the real ones:
   events of a TU not (yet) registered then carry indices no registered TU
   owns (the runtime assigns bases below it), never 0.  Analyzers count
   them as "unknown". */
#define PATHPROF_STREAM_UNREGISTERED_BASE (1ull << 60)
/* Stream mode, TPP (docs/tpp.md, "Streams"): obvious paths emit no event;
   the counter of each one sits on its defining edge, in the TU's bases
   array from this index on (a cache line after the two bases), one per
   derived path of every STREAM and TPP_DERIVED function, in directory
   order, each function's in the order of its derived list.  The runtime
   adds them to the blpp analyzer's counts when it writes the profile. */
#define PATHPROF_STREAM_DERIVED_BASE 8u

#ifdef __cplusplus
extern "C" {
#endif

/* Called by each instrumented TU's constructor. */
void __pathprof_register_tu(uint32_t abi_version, const unsigned char *meta,
                            uint64_t meta_len, uint64_t *counters,
                            uint64_t ncounters);
/* Called by each instrumented TU's destructor (dlclose, exit). */
void __pathprof_unregister_tu(uint64_t *counters);
/* Hash-mode path end: SLOT is &counters[counter_offset]. Thread-safe. */
void __pathprof_hash_count(uint64_t *slot, uint64_t path_id);

/* Stream mode.  BASES[0] is the TU's path base (tu_base), BASES[1] its
   function base; both are written by the runtime at registration. */
void __pathprof_register_stream_tu(uint32_t abi_version,
                                   const unsigned char *meta,
                                   uint64_t meta_len, uint64_t *bases);
void __pathprof_unregister_stream_tu(uint64_t *bases);
/* The probe's slow path: the thread's chunk is full or not yet there.
   Stores EV itself. */
void __pathprof_emit_slow(uint64_t ev);
/* The probe's cursor into the thread's current chunk, and the chunk's
   size in bytes minus 1 (initial-exec TLS): the probe stores at the
   cursor while cursor & mask is not 0, else calls the slow path.  Both 0
   until the thread's first event; the mask is 0 again after its teardown.
   Chunks are aligned to their size (docs/streaming.md, section 3). */
extern __thread uint64_t *__pathprof_cur
    __attribute__((tls_model("initial-exec")));
extern __thread uintptr_t __pathprof_mask
    __attribute__((tls_model("initial-exec")));

/* Sampling (docs/sampling.md).  Every check of a function compiled with
   sampling=yes decrements the thread's countdown and goes on in the
   checking copy while the result is in [0, PATHPROF_SAMPLE_BURST_BASE),
   in the instrumented copy while it is in (PATHPROF_SAMPLE_BURST_BASE,
   2^64 - 1), and otherwise (BASE: a burst is over; 2^64 - 1: a gap is
   over) calls __pathprof_sample_turn, which starts or ends a burst (or
   initialises the thread) and returns 1 when the thread is now in a
   burst.  The countdown starts at 0 in every thread, so a thread's first
   check calls the runtime.  BASE is 2^63, so "in [0, BASE)" is "not
   negative as a signed number": one decrement and one branch on its sign
   flag in the checking copy's common case.  An executable's sampled code
   defines the countdown itself (weak, initial value 0), which interposes
   this library's definition. */
#define PATHPROF_SAMPLE_BURST_BASE (1ull << 63)
extern __thread uint64_t __pathprof_sample_cd
    __attribute__((tls_model("initial-exec")));
int __pathprof_sample_turn(void);
/* The same for stream-mode code: also emits a BURST marker into the
   thread's stream when a burst begins or ends. */
int __pathprof_sample_turn_stream(void);
/* vpp=yes: the same with bursts of one check, whose start it times; and
   the path end of the instrumented copy, which stores event EV (as the
   inline probe would) followed by a VPP marker when EV ends the path the
   burst timed (docs/vpp.md). */
int __pathprof_sample_turn_vpp(void);
void __pathprof_vpp_path(uint64_t ev);

#ifdef __cplusplus
}
#endif

#endif
