/* sampling.c - the per-thread countdown of sampled code (docs/sampling.md).
 *
 * The plugin's checks do the common case inline (pathprof-abi.h): the
 * countdown __pathprof_sample_cd goes down by one per check; in
 * [0, BASE) the thread runs the checking copy, above BASE the instrumented
 * one.  Only at 2^64 - 1 (a gap is over: the check after 0), at BASE (a
 * burst is over) and at a thread's first check (the countdown starts at 0,
 * so it reads 2^64 - 1 there) does a check call
 * __pathprof_sample_turn, so the runtime sees each burst twice and never
 * a check in between.
 *
 * Gaps are drawn uniformly from [1, 2N - 1] (mean N) with a per-thread
 * generator, so a loop whose period divides N cannot be sampled always at
 * the same iteration.  The totals are process-wide relaxed atomics: they
 * change twice per burst, not per check. */
#include "sample-state.h"
#include "config.h"
#include "lifecycle.h"
#include "pathprof-abi.h"

#include <time.h>

#define BASE PATHPROF_SAMPLE_BURST_BASE



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
        /* Never: 2^63 checks to the next call, which says never again. */
        pprt_sample_gap = 0;
        __pathprof_sample_cd = BASE - 1;
        return 0;
    }
    pprt_sample_gap = 1 + splitmix64(&pprt_sample_rng) % (2 * n - 1);
    /* The gap's last check is the one that finds 2^64 - 1. */
    __pathprof_sample_cd = pprt_sample_gap - 1;
    return 0;
}

/* VPP: bursts of one check (one path each), and at 1/1 a burst at every
 * check instead of one burst that never ends, so every path is timed. */
static int start_burst(int vpp)
{
    add(&pprt_sample_bursts, 1);
    /* 1/1: one burst that does not end (2^63 checks). */
    __pathprof_sample_cd = pprt_config.sample_n == 1 && !vpp ? UINT64_MAX : BASE + pprt_config.burst;
    return 1;
}

static int turn(int vpp)
{
    uint64_t c = __pathprof_sample_cd;
    if (pprt_sample_rng == 0) {
        if (!pprt_set_up_once()) {
            /* Sampled code (an instrumented malloc) that set-up itself
             * called, before the rate is known (lifecycle.h): counted, as
             * one check of a burst, and the next check turns again, so the
             * thread's real first turn still comes after set-up. */
            add(&pprt_sample_burst_checks, 1);
            __pathprof_sample_cd = 0;
            return 1;
        }
        __atomic_store_n(&pprt_sample_used, 1, __ATOMIC_RELAXED);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        pprt_sample_rng = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
              (uint64_t)(uintptr_t)&pprt_sample_rng;
        if (pprt_sample_rng == 0)
            pprt_sample_rng = 1;
        if (pprt_config.sample_n == 1)
            return start_burst(vpp);
        return start_gap();
    }
    if (c == UINT64_MAX) {
        if (pprt_config.sample_n == 0)
            return start_gap();
        add(&pprt_sample_gap_checks, pprt_sample_gap);
        return start_burst(vpp);
    }
    if (c == BASE) {
        add(&pprt_sample_burst_checks, pprt_config.burst);
        if (vpp && pprt_config.sample_n == 1)
            return start_burst(vpp);
        return start_gap();
    }
    /* A check whose inline tests the plugin ordered otherwise: no turn. */
    return c > BASE;
}

int __pathprof_sample_turn(void)
{
    return turn(0);
}

/* One event, as a probe stores it (plugin/emit.cc). */
void pprt_emit_word(uint64_t ev)
{
    uint64_t *p = __pathprof_cur;
    if (((uintptr_t)p & __pathprof_mask) == 0) {
        __pathprof_emit_slow(ev);
        return;
    }
    *p = ev;
    __pathprof_cur = p + 1;
}

int pprt_sample_turn_marked(int vpp, int *began_out)
{
    uint64_t before = __pathprof_sample_cd;
    int in = turn(vpp);
    /* A burst begins where a gap ran out (the countdown read 2^64 - 1; at
     * 1/1, a thread's first check), and ends where it reached BASE; a VPP
     * burst at 1/1 ends and the next begins at the same check. */
    int began = in && (before == UINT64_MAX || before == BASE);
    int ended = before == BASE;
    if (ended) {
        pprt_emit_word(PATHPROF_MARK(PATHPROF_MARK_BURST, PATHPROF_BURST_END));
        pprt_emit_word(PATHPROF_MARK_FILLER);
    }
    if (began) {
        pprt_emit_word(PATHPROF_MARK(PATHPROF_MARK_BURST, PATHPROF_BURST_BEGIN));
        pprt_emit_word(PATHPROF_MARK_FILLER);
    }
    *began_out = began;
    return in;
}

int __pathprof_sample_turn_stream(void)
{
    int began;
    return pprt_sample_turn_marked(0, &began);
}
