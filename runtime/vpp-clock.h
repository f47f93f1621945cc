/* vpp-clock.h - the counter VPP times paths with (docs/vpp.md): what it
 * is, whether it can be trusted, and the cost of timing itself (the bias),
 * measured once at start-up.  runtime/vpp.c fills it; the vpp analyzer
 * writes it into the VPP section. */
#ifndef PATHPROF_RT_VPP_CLOCK_H
#define PATHPROF_RT_VPP_CLOCK_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Flags of the VPP section (docs/format.md, tag 8). */
#define PPRT_VPP_UNSTABLE 1u  /* the counter is not invariant: no constant_tsc
                                 and nonstop_tsc in /proc/cpuinfo */
#define PPRT_VPP_NANOSECONDS 2u /* no cycle counter: CLOCK_MONOTONIC in ns */
#define PPRT_VPP_EVENTS_UNAVAILABLE 4u /* PATHPROF_VPP_COUNTER asked for a second
                                          counter this machine does not give */

/* The second counter (PATHPROF_VPP_COUNTER; the VPP section's events word). */
#define PPRT_VPP_EVENTS_NONE 0u
#define PPRT_VPP_EVENTS_CACHE_MISSES 1u

#define PPRT_VPP_CALIBRATION_RUNS 2000u

struct pprt_vpp_clock {
    uint32_t flags;         /* PPRT_VPP_* */
    const char *counter;    /* "rdtsc", "cntvct_el0", "clock_gettime" */
    uint64_t bias;          /* minimum ticks of an empty timed interval */
    uint64_t bias_median;   /* its median over the calibration runs */
    uint64_t bias_p90;      /* its 90th percentile */
    uint64_t start;         /* the counter when VPP started (first check) */
    uint64_t migrated;      /* timings dropped: the path changed CPU */
    uint32_t events;        /* PPRT_VPP_EVENTS_*: the second counter asked for */
};

/* Whether a VPP build ran (the first check set the clock up); if so fills
 * *C. */
int pprt_vpp_clock(struct pprt_vpp_clock *c);
/* The counter now. */
uint64_t pprt_vpp_now(void);

#pragma GCC visibility pop

#endif
