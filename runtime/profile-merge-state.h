/* profile-merge-state.h - what the merge accumulator holds between two
 * profiles (profile-merge.c adds to it, profile-merge-encode.c writes it).
 * Every count is already the sum over the profiles added; what is not a
 * sum (the canonical order of TUs, children and sequences) is decided
 * when encoding, so that the order of the inputs cannot show. */
#ifndef PATHPROF_RT_PROFILE_MERGE_STATE_H
#define PATHPROF_RT_PROFILE_MERGE_STATE_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define MG_NONE SIZE_MAX

/* A function of a TU: what its directory entry says, and its counts. */
struct mg_func {
    const unsigned char *name, *file; /* into the TU's blob; file may be "" */
    uint32_t name_len, file_len;
    uint64_t checksum;
    uint32_t flags;
    uint32_t nverify;
    uint64_t npaths;
    uint64_t nids;         /* record IDs below this: npaths, + 1 with ppp-uninteresting=total */
    uint64_t nrec, cap;    /* path records: ascending id, counts >= 1 */
    uint64_t *rec;         /* id, count, id, count, ... */
    uint64_t *verify;      /* nverify direct edge counts (VERIFY only) */
};

/* A translation unit: a metadata blob, byte for byte. */
struct mg_tu {
    unsigned char *blob;
    uint64_t len, hash;
    uint32_t nfuncs;
    struct mg_func *funcs;
    size_t first_input;    /* which profile brought it (for messages) */
    const unsigned char *build; /* its build line, into blob; NULL in a version 1 blob */
    uint32_t build_len;
};

/* The forest is always canonical between inputs, and packed: preorder,
 * siblings in ascending (TU by metadata blob, function, path ID) order,
 * distinct, each node in the compact encoding of docs/format.md's KIPF
 * (uleb path_id, count, nchildren; a root first uleb tu, func), with a
 * root's tu the accumulator's TU index (encoding puts the rank there).
 * Adding an input is one merge walk (profile-merge-kipf.c) that copies
 * what the input does not touch as bytes; encoding is one pass. */
/* A root of the packed forest: the byte after its subtree, and what the
 * subtree holds (leaf depths from the root's), so that a root neither
 * input changes is copied without reading its bytes. */
struct mg_kroot {
    size_t end;
    uint64_t nodes, leaves, depth_sum;
};

struct mg_kipf {
    int present;
    uint32_t k, nlevels;
    uint64_t threads, events, ksf_nodes, hash_ops;
    uint64_t *levels;      /* nlevels x {nodes, internal, children} */
    unsigned char *packed;
    size_t len;
    struct mg_kroot *roots; /* nroots of them */
    uint64_t n, nroots, leaves, depth_sum;
};

/* One pruned sequence of n BL paths, with bounds [count - err, count]. */
struct mg_seq {
    uint32_t tu, func;
    uint64_t count, err;
    size_t ids;            /* offset of its n path IDs in the length's pool */
    size_t seen;           /* the last input that listed it, + 1 */
};

struct mg_plen {
    uint64_t total, floor;
    struct mg_seq *seqs;
    size_t n, cap;
    uint64_t *ids;
    size_t nids, idcap;
    size_t *slots;
    size_t nslots;
};

struct mg_kprune {
    int present;
    uint32_t k;
    uint64_t budget, m, threads, events, epochs, analyzers, peak;
    struct mg_plen *len;   /* k lengths, n = 1..k */
};

struct mg_stream {
    int present;
    uint32_t policy, chunk_events, chunks, nthreads;
    uint64_t producers, events, dropped, late, resync, unknown, blocked_ns;
    char **names;          /* the analyzers that ran, each once */
    size_t nnames;
    uint64_t *threads;     /* nthreads x {events, busy_ns}, summed by rank */
};

/* A WPP grammar's terminal, independent of the bases a run gave its TUs:
 * a path event or an ENTER/RESUME marker names its TU (accumulator index)
 * and its offset there, and gets the merged profile's bases when encoded;
 * anything else (other markers, events of no known TU) is kept verbatim. */
struct mg_wterm {
    uint32_t tu;           /* accumulator TU, or MG_WPP_VERBATIM */
    uint32_t kind;         /* 0 a path event, else the marker kind */
    uint64_t v;            /* offset in the TU (path index or function), or the verbatim symbol */
    uint64_t bits;         /* a path event's START/RET bits (v & 6 of its symbol) */
    uint64_t w2;           /* a marker's second word */
};
#define MG_WPP_VERBATIM UINT32_MAX

/* One grammar (docs/format.md, WPP): its header but the thread, its
 * terminals, the tail word as a terminal, its rules as they came. */
struct mg_wgram {
    uint32_t flags;
    uint64_t epoch, words, length, nterms, nrules;
    struct mg_wterm *terms;
    struct mg_wterm tail;  /* a marker's word when tail_marker, else v verbatim */
    int tail_marker;
    unsigned char *rules;
    size_t rules_len;
};

/* A producer thread of one input: its grammars, epoch 0, 1, ... */
struct mg_wthread {
    struct mg_wgram *g;
    size_t n;
};

/* WPP: the threads of every input, kept apart (numbered anew when encoded). */
struct mg_wpp {
    int present;
    uint64_t max_bytes;
    struct mg_wthread *threads;
    size_t n, cap;
};

/* The SAMPLING section: one rate and burst length, the rest summed. */
struct mg_sampling {
    int present;
    uint64_t sample_n, burst, bursts, gap_checks, burst_checks;
    size_t first_input;    /* which profile set the rate (for messages) */
};

/* A VPP path record (docs/format.md, tag 8): its sums, its least and
 * largest time, its histogram of times (fixed buckets, runtime/vpp-hist.h). */
struct mg_vpath {
    uint32_t tu, func;     /* accumulator TU */
    uint64_t path_id;
    uint64_t samples, base, total, max, outliers, ev_samples, events;
    uint64_t *hist;        /* PPRT_VPP_NBUCKETS counts */
};

/* The VPP section: one rate, counter, second counter and outlier
 * threshold; the bias the least; the rest summed, path by path. */
struct mg_vpp {
    size_t inputs;         /* how many inputs had one (all or none may) */
    size_t first_input;    /* the first of them (for messages) */
    size_t first_missing;  /* the first input without one, + 1 (0: none yet) */
    uint32_t flags, counter, events;
    int have_bias;         /* a run whose clock ran gave the bias */
    uint64_t sample_n, bias, bias_median, bias_p90, run_ticks, timed, orphans,
             unattributed, migrated, outlier_ticks, outliers;
    struct mg_vpath *paths;
    size_t n, cap;
    size_t *slots;         /* by (tu, func, path_id): index + 1 */
    size_t nslots;
};

struct mg_program {
    int present;
    char *program, *cmdline; /* NUL-terminated copies, or the "several" text */
    uint64_t array_updates, hash_updates, lost_after_write;
};

struct pprt_merge {
    size_t ninputs;
    int shallow;           /* pprt_merge_check_only: checks, keeps no counts */
    uint32_t mode;
    uint64_t pid, time;
    int pid_mixed;
    struct mg_program program;
    struct mg_tu *tus;
    size_t ntus, tucap;
    size_t *tu_slots;      /* by blob hash: index + 1 */
    size_t tu_nslots;
    size_t *fn_slots;      /* by (name, file): (tu << 32 | func) + 1 */
    size_t fn_nslots, fn_n;
    struct mg_sampling sampling;
    struct mg_stream stream;
    struct mg_kipf kipf;
    struct mg_kprune kprune;
    struct mg_wpp wpp;
    struct mg_vpp vpp;
    char **names;          /* each input's name, for messages */
};

#pragma GCC visibility pop

#endif
