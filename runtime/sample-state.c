/* sample-state.c - the state of sampling and its totals (sample-state.h). */
#include "sample-state.h"
#include "config.h"
#include "pathprof-abi.h"

#define BASE PATHPROF_SAMPLE_BURST_BASE

/* 0: a thread's first check calls __pathprof_sample_turn (sampling.c).
 * An executable's sampled code defines it too (plugin/sampling.cc), and
 * that definition is the one every library's code uses. */
__thread uint64_t __pathprof_sample_cd __attribute__((tls_model("initial-exec")));
__thread uint64_t pprt_sample_rng;
__thread uint64_t pprt_sample_gap;
uint64_t pprt_sample_used, pprt_sample_bursts, pprt_sample_gap_checks, pprt_sample_burst_checks;

int pprt_sampling_totals(struct pprt_sampling *s)
{
    if (!__atomic_load_n(&pprt_sample_used, __ATOMIC_RELAXED))
        return 0;
    s->sample_n = pprt_config.sample_n;
    s->burst = pprt_config.burst;
    s->bursts = __atomic_load_n(&pprt_sample_bursts, __ATOMIC_RELAXED);
    s->gap_checks = __atomic_load_n(&pprt_sample_gap_checks, __ATOMIC_RELAXED);
    s->burst_checks = __atomic_load_n(&pprt_sample_burst_checks, __ATOMIC_RELAXED);
    uint64_t c = __pathprof_sample_cd;
    if (pprt_sample_rng != 0 && pprt_config.sample_n > 1) {
        if (c > BASE && c - BASE <= pprt_config.burst)
            s->burst_checks += pprt_config.burst - (c - BASE);
        else if (c < BASE && c < pprt_sample_gap)
            s->gap_checks += pprt_sample_gap - 1 - c;
    }
    return 1;
}

void pprt_sampling_zero_totals_in_child(void)
{
    pprt_sample_bursts = pprt_sample_gap_checks = pprt_sample_burst_checks = 0;
    /* The gap in progress counts from here: the checks before the fork
     * are the parent's.  A burst in progress cannot be cut so (its start
     * is not kept): up to PATHPROF_BURST of its checks before the fork
     * count in the child too. */
    uint64_t c = __pathprof_sample_cd;
    if (c < PATHPROF_SAMPLE_BURST_BASE && c < pprt_sample_gap)
        pprt_sample_gap = c + 1;
}
