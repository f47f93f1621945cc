/* vpp-hist.h - the VPP histogram's buckets (docs/vpp.md, docs/format.md
 * tag 8): of a timing's ticks (bias subtracted) themselves, not of its
 * delta above the basetime, so that the bounds are the same in every
 * profile and two histograms of one path always add bucket by bucket.
 * (Deltas above a basetime that differs from run to run cannot be added
 * exactly: moving one histogram to the other's basetime is approximate,
 * and approximations made in a different order differ, so merging would
 * not be associative.)  The delta view, the paper's Fig. 2, is derived
 * when the profile is read (vpp_hist_delta_low).
 *
 * Log-linear, as fine at 1 tick as at 2^39: times 0..7 have a bucket each,
 * every octave [2^e, 2^(e+1)) from e = 3 to 39 is cut into 8 equal
 * buckets (12.5% of their lower bound wide), and the last bucket holds
 * everything from 2^40 ticks on.  Shared by the analyzer, the merge and
 * the reader: header only, nothing to link. */
#ifndef PATHPROF_RT_VPP_HIST_H
#define PATHPROF_RT_VPP_HIST_H

#include <stdint.h>

#define PPRT_VPP_HIST_SUB 8u       /* buckets per octave, and the exact ones */
#define PPRT_VPP_HIST_TOP 40u      /* 2^40 and more: the last bucket */
#define PPRT_VPP_NBUCKETS (PPRT_VPP_HIST_SUB + (PPRT_VPP_HIST_TOP - 3u) * PPRT_VPP_HIST_SUB + 1u)

/* The bucket of T ticks. */
static inline unsigned pprt_vpp_hist_bucket(uint64_t t)
{
    if (t < PPRT_VPP_HIST_SUB)
        return (unsigned)t;
    if (t >> PPRT_VPP_HIST_TOP)
        return PPRT_VPP_NBUCKETS - 1u;
    unsigned e = 63u - (unsigned)__builtin_clzll(t);
    return PPRT_VPP_HIST_SUB + (e - 3u) * PPRT_VPP_HIST_SUB + (unsigned)((t >> (e - 3u)) & 7u);
}

/* The least time of bucket B (B < PPRT_VPP_NBUCKETS). */
static inline uint64_t pprt_vpp_hist_low(unsigned b)
{
    if (b < PPRT_VPP_HIST_SUB)
        return b;
    if (b >= PPRT_VPP_NBUCKETS - 1u)
        return 1ull << PPRT_VPP_HIST_TOP;
    unsigned e = 3u + (b - PPRT_VPP_HIST_SUB) / PPRT_VPP_HIST_SUB;
    return (uint64_t)(PPRT_VPP_HIST_SUB + (b - PPRT_VPP_HIST_SUB) % PPRT_VPP_HIST_SUB) << (e - 3u);
}

#endif
