/* profile.h - a profile file (docs/format.md, section 3) in memory.
 *
 * profile_read() accepts a file only when every byte of it is accounted
 * for and consistent (see profile_read.c); afterwards functions appear in
 * funcs[] in file order, copies of one function from several TUs (same
 * name, file, checksum and graph) merged into one entry. */
#ifndef PATHPROF_CLI_PROFILE_H
#define PATHPROF_CLI_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "meta.h"

struct pp_path_count {
    uint64_t id;
    uint64_t count;
};

struct pp_func {
    const struct pp_func_meta *meta;   /* owned by one of the profile's TUs */
    uint64_t nrecords;
    struct pp_path_count *records;     /* ascending id, non-zero counts */
    uint64_t *verify_counts;           /* meta->nverify counts when VERIFY, else NULL */
    uint64_t total;                    /* sum of counts */
    uint32_t ncopies;                  /* TUs whose counts were merged here */
};

/* The STREAM section of a stream-mode profile (docs/format.md, section 3):
 * how the stream went, and whether the profile is exact. */
struct pp_stream_info {
    uint32_t policy;               /* PATHPROF_POLICY_* */
    uint32_t chunk_events, chunks_per_thread, analyzer_threads;
    uint64_t producers, events;
    uint64_t dropped, late, resync, unknown; /* any non-zero: not exact */
    uint64_t blocked_ns;
    char *analyzers;               /* "blpp,trace" */
};

struct pp_profile {
    uint32_t mode;                     /* PATHPROF_MODE_* */
    uint64_t pid;
    uint64_t time;                     /* unix seconds */

    bool has_program;
    char *program;                     /* "" when absent */
    char *cmdline;
    uint64_t array_updates;
    uint64_t hash_updates;
    uint64_t lost_after_write;

    bool has_stream;
    struct pp_stream_info stream;

    size_t ntus;
    struct pp_tu_meta *tus;
    size_t nfuncs;
    struct pp_func *funcs;

    struct pp_kipf *kipf;              /* the KIPF section (kipf.h), NULL when none */
    struct pp_kprune *kprune;          /* the KPRUNE section (kprune.h), NULL when none */
};

/* Reads and validates PATH. On failure err holds one line (without the
 * file name) and *p is empty. */
bool profile_read(const char *path, struct pp_profile *p, struct pp_error *err);
void profile_free(struct pp_profile *p);

/* Sum of all path counts of the profile. */
uint64_t profile_total(const struct pp_profile *p);

/* Merges copies of one function found in several TUs (func_merge.c). */
bool func_merge_copies(struct pp_profile *p, struct pp_error *err);

#endif
