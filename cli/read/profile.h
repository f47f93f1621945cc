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

#include "base/error.h"
#include "graph/meta.h"
#include "sections.h"

struct kipf_keep;

struct pp_path_count {
    uint64_t id;
    uint64_t count;
};

struct pp_func {
    const struct pp_func_meta *meta;   /* owned by one of the profile's TUs */
    uint64_t nrecords;
    struct pp_path_count *records;     /* ascending id, non-zero counts */
    uint64_t *verify_counts;           /* meta->nverify counts when VERIFY, else NULL */
    uint64_t total;                    /* sum of counts, cold included */
    uint64_t cold;                     /* TPP: paths through cold edges (not in records);
                                          PPP with ppp_total: the other paths' total */
    uint32_t ncopies;                  /* TUs whose counts were merged here */
    size_t section;                    /* its TU section, in profile->sections */
};

/* The SAMPLING section (docs/format.md, section 3; docs/sampling.md): the
 * profile of a process that ran code built with sampling=yes.  The counts
 * of its sampled functions (PATHPROF_FN_SAMPLED) are those of the bursts. */
struct pp_sampling_info {
    uint64_t sample_n;             /* PATHPROF_SAMPLE=1/N: N; 0 = never */
    uint64_t burst;                /* PATHPROF_BURST: checks per burst */
    uint64_t bursts;
    uint64_t gap_checks, burst_checks;
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

    bool has_sampling;
    struct pp_sampling_info sampling;

    size_t ntus;
    struct pp_tu_meta *tus;
    size_t nfuncs;
    struct pp_func *funcs;

    uint64_t total;                    /* sum of all path counts (checked to fit) */

    struct pp_kipf *kipf;              /* the KIPF section (kipf.h), NULL when none or broken */
    const struct kipf_keep *kipf_keep; /* profile_read_keep's request, during the read only */
    struct pp_kprune *kprune;          /* the KPRUNE section (kprune.h), NULL when none or broken */
    bool has_kipf, has_kprune;         /* the file has such a section, sound or not */

    size_t nsections;                  /* every section of the file, in file order */
    struct pp_section *sections;
    size_t broken[PP_NPARTS];          /* per part, the first section that breaks it, or
                                          PP_NO_SECTION (sections.h) */
};

/* Reads and validates PATH. Fails (err holds one line without the file
 * name, *p is empty) only when the envelope is wrong: header, sizes,
 * checksum, the framing of the sections. Damage within a section is
 * recorded in p->sections instead (sections.h); commands ask
 * sections_usable() whether what they need is sound. */
bool profile_read(const char *path, struct pp_profile *p, struct pp_error *err);
/* The same, reading the KIPF section for one ranking only (kipf.h,
 * struct kipf_keep): `report --k --top N` on forests of tens of millions
 * of nodes.  KEEP NULL reads everything. */
bool profile_read_keep(const char *path, struct pp_profile *p, const struct kipf_keep *keep,
                       struct pp_error *err);
/* profile_read_keep (KEEP may be NULL) that also hands back the bytes it
 * parsed, an accumulated file's parts already summed (p->sections'
 * offsets are into them), in *BYTES (the caller frees them) and *NBYTES:
 * a command that decodes one section itself needs those bytes, and
 * summing the parts a second time would run the merge twice. */
bool profile_read_bytes(const char *path, struct pp_profile *p, const struct kipf_keep *keep,
                        unsigned char **bytes, size_t *nbytes, struct pp_error *err);
void profile_free(struct pp_profile *p);

/* The factor from a sampled function's count to an estimate of its full
 * count: all checks over the checks run in bursts (docs/sampling.md); 1
 * without sampling or at 1/1; 0 when nothing was sampled (1/N never
 * reached a burst, or PATHPROF_SAMPLE=0): no estimate. */
double profile_sample_scale(const struct pp_profile *p);
/* Whether F's counts are sampled, not exact: built with sampling=yes and
 * run at a rate other than 1/1. */
bool profile_func_sampled(const struct pp_profile *p, const struct pp_func *f);
/* Whether a k-iteration path of LEN BL paths of F is sampled, not exact:
 * F's are, and so are every function's sequences of two paths or more
 * once the profile is sampled (1/N, N > 1): ksf and ksf-pruned see
 * sequences only inside bursts (docs/sampling.md, "Stream mode"), also
 * those of a function with no checking copy (lua's luaV_execute), whose
 * path counts stay exact. */
bool profile_kpath_sampled(const struct pp_profile *p, const struct pp_func *f, uint32_t len);

/* Sum of all path counts of the profile (0 when the counts are broken). */
uint64_t profile_total(const struct pp_profile *p);

/* Merges copies of one function found in several TUs (func_merge.c).
 * Counts whose sum would not fit in 64 bits mark the absorbed copy's TU
 * section damaged; false only when out of memory. */
bool func_merge_copies(struct pp_profile *p, struct pp_error *err);

/* Gives each copy of a function whose name and file other copies share
 * with another checksum its variant label (struct pp_func_meta), from
 * the build lines of their TUs (func_variants.c); false only when out of
 * memory. */
bool func_label_variants(struct pp_profile *p, struct pp_error *err);

#endif
