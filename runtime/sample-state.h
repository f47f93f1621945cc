/* sample-state.h - the state of sampling (docs/sampling.md): each thread's
 * countdown, generator and current gap, and the process's totals that the
 * profile records.  sampling.c moves the state at a check's turn; the
 * profile encoder reads the totals.  Below both, so that neither the
 * encoder nor the life cycle depends on the ABI entry point. */
#ifndef PATHPROF_RT_SAMPLE_STATE_H
#define PATHPROF_RT_SAMPLE_STATE_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_sampling {
    uint64_t sample_n;     /* PATHPROF_SAMPLE=1/N: N, 0 = never */
    uint64_t burst;        /* PATHPROF_BURST */
    uint64_t bursts;       /* bursts started, all threads */
    uint64_t gap_checks;   /* checks run between bursts (checking copy) */
    uint64_t burst_checks; /* checks run in bursts */
};

/* The thread's generator state (0: the thread has not checked yet) and the
 * length of its current gap. */
extern __thread uint64_t pprt_sample_rng;
extern __thread uint64_t pprt_sample_gap;

/* Process totals, relaxed atomics: they change twice per burst. */
extern uint64_t pprt_sample_used, pprt_sample_bursts, pprt_sample_gap_checks,
    pprt_sample_burst_checks;

/* Whether any sampled code ran in this process; if so, fills *S, counting
 * the calling thread's unfinished gap or burst too (other live threads'
 * are not seen: their last gap or burst is missing from the totals). */
int pprt_sampling_totals(struct pprt_sampling *s);

/* In a child just forked (one thread): the totals start again from 0, as
 * the counts do (registry.h). */
void pprt_sampling_zero_totals_in_child(void);
/* Stream-mode turn (sampling.c): emits the BURST markers; VPP: bursts of
 * one check, at 1/1 one at every check.  *BEGAN: a burst began here. */
int pprt_sample_turn_marked(int vpp, int *began);
/* Stores one word into the thread's stream, as a probe does. */
void pprt_emit_word(uint64_t ev);

#pragma GCC visibility pop

#endif
