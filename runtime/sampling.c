/* sampling.c - the per-thread countdown of sampled code (docs/sampling.md).
 *
 * The plugin's checks do the common case inline (pathprof-abi.h): the
 * countdown __pathprof_sample_cd goes down by one per check; in
 * [1, BASE) the thread runs the checking copy, above BASE the instrumented
 * one.  Only at 0 (a gap is over), at BASE (a burst is over) and at a
 * thread's first check (the countdown starts at 1) does a check call
 * __pathprof_sample_turn, so the runtime sees each burst twice and never
 * a check in between.
 *
 * Gaps are drawn uniformly from [1, 2N - 1] (mean N) with a per-thread
 * generator, so a loop whose period divides N cannot be sampled always at
 * the same iteration.  The totals are process-wide relaxed atomics: they
 * change twice per burst, not per check. */
#include "sampling.h"
#include "config.h"
#include "lifecycle.h"
#include "pathprof-abi.h"

#include <time.h>

#define BASE PATHPROF_SAMPLE_BURST_BASE

__thread uint64_t __pathprof_sample_cd __attribute__((tls_model("initial-exec"))) = 1;

/* The thread's generator state (0: the thread has not checked yet) and the
 * length of its current gap. */
static __thread uint64_t rng;
static __thread uint64_t gap;

static uint64_t used, bursts, gap_checks, burst_checks;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void add(uint64_t *total, uint64_t n)
{
    __atomic_fetch_add(total, n, __ATOMIC_RELAXED);
}

/* A new gap: the countdown until the next burst. */
static int start_gap(void)
{
    uint64_t n = pprt_config.sample_n;
    if (n == 0) {
        /* Never: 2^62 checks to the next call, which says never again. */
        gap = 0;
        __pathprof_sample_cd = BASE - 1;
        return 0;
    }
    gap = 1 + splitmix64(&rng) % (2 * n - 1);
    __pathprof_sample_cd = gap;
    return 0;
}

static int start_burst(void)
{
    add(&bursts, 1);
    /* 1/1: one burst that does not end (2^63 checks). */
    __pathprof_sample_cd = pprt_config.sample_n == 1 ? UINT64_MAX : BASE + pprt_config.burst;
    return 1;
}

int __pathprof_sample_turn(void)
{
    uint64_t c = __pathprof_sample_cd;
    if (rng == 0) {
        pprt_set_up_once();
        __atomic_store_n(&used, 1, __ATOMIC_RELAXED);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        rng = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
              (uint64_t)(uintptr_t)&rng;
        if (rng == 0)
            rng = 1;
        if (pprt_config.sample_n == 1)
            return start_burst();
        return start_gap();
    }
    if (c == 0) {
        if (pprt_config.sample_n == 0)
            return start_gap();
        add(&gap_checks, gap);
        return start_burst();
    }
    if (c == BASE) {
        add(&burst_checks, pprt_config.burst);
        return start_gap();
    }
    /* A check whose inline tests the plugin ordered otherwise: no turn. */
    return c > BASE;
}

int pprt_sampling_totals(struct pprt_sampling *s)
{
    if (!__atomic_load_n(&used, __ATOMIC_RELAXED))
        return 0;
    s->sample_n = pprt_config.sample_n;
    s->burst = pprt_config.burst;
    s->bursts = __atomic_load_n(&bursts, __ATOMIC_RELAXED);
    s->gap_checks = __atomic_load_n(&gap_checks, __ATOMIC_RELAXED);
    s->burst_checks = __atomic_load_n(&burst_checks, __ATOMIC_RELAXED);
    uint64_t c = __pathprof_sample_cd;
    if (rng != 0 && pprt_config.sample_n > 1) {
        if (c > BASE && c - BASE <= pprt_config.burst)
            s->burst_checks += pprt_config.burst - (c - BASE);
        else if (c < BASE && c <= gap)
            s->gap_checks += gap - c;
    }
    return 1;
}
