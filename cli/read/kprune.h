/* kprune.h - the pruned k-iteration paths of a profile's KPRUNE section
 * (docs/format.md, section 3, tag 5; docs/pruning.md) after reading and
 * validation.  Each listed sequence carries an upper bound (count) and an
 * error: its true count lies in [count - err, count].  Sequences are named
 * by profile function (copies of one function merged, as in kipf.h). */
#ifndef PATHPROF_CLI_KPRUNE_H
#define PATHPROF_CLI_KPRUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#ifndef PATHPROF_SECTION_KPRUNE
#define PATHPROF_SECTION_KPRUNE 5u
#endif
#define KPRUNE_MAX_K 64u

struct kprune_seq {
    size_t func;           /* index into profile->funcs */
    uint32_t n;            /* BL paths */
    uint64_t count, err;   /* true count in [count - err, count] */
    const uint64_t *ids;   /* n path IDs, in pp_kprune.ids */
};

struct kprune_length {
    uint64_t total;        /* N_n: occurrences of sequences of n BL paths */
    uint64_t floor;        /* no unlisted sequence ran more often than this */
    size_t nseqs;
    struct kprune_seq *seqs; /* by descending count */
};

struct pp_kprune {
    uint32_t k;
    uint64_t budget;       /* bytes per analyzer thread; 0: not pruned */
    uint64_t m;            /* counters per length per analyzer thread */
    uint64_t threads, events, epochs, analyzers, peak;
    struct kprune_length len[KPRUNE_MAX_K]; /* len[n - 1] */
    uint64_t *ids;
};

struct pp_profile;

/* Reads the body of a KPRUNE section into p->kprune; after the TU
 * sections were read and copies merged (like kipf_read). */
bool kprune_read(const unsigned char *body, size_t len, struct pp_profile *p,
                 struct pp_error *err);
void kprune_free(struct pp_kprune *k);

#endif
