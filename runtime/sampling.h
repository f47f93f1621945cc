/* sampling.h - the run-time half of sampling=yes (docs/sampling.md): the
 * per-thread countdown that code built with sampling=yes checks at function
 * entries and loop back edges, bursts, and the totals the profile records. */
#ifndef PATHPROF_RT_SAMPLING_H
#define PATHPROF_RT_SAMPLING_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_sampling {
    uint64_t sample_n;     /* PATHPROF_SAMPLE=1/N: N, 0 = never */
    uint64_t burst;        /* PATHPROF_BURST */
    uint64_t bursts;       /* bursts started, all threads */
    uint64_t gap_checks;   /* checks run between bursts (checking copy) */
    uint64_t burst_checks; /* checks run in bursts */
};

/* Whether any sampled code ran in this process; if so, fills *S, counting
 * the calling thread's unfinished gap or burst too (other live threads'
 * are not seen: their last gap or burst is missing from the totals). */
int pprt_sampling_totals(struct pprt_sampling *s);

#pragma GCC visibility pop

#endif
