/* vpp.h - the VPP section (docs/format.md, section 3, tag 8; docs/vpp.md)
 * in memory: the counter, the bias subtracted, the run's length and per
 * timed path its record.
 *
 * vpp_read() accepts the section only when its checksum holds, every
 * label names a function and path of the profile, the records are in
 * ascending label order without repeats, and every record is consistent
 * (basetime <= largest, samples x basetime <= total, the histogram sums to
 * the samples, its first and last buckets hold the basetime and the
 * largest time).  The file's histogram is of the times in fixed buckets
 * (runtime/vpp-hist.h); the reader derives the deltas above the basetime
 * from it, each bucket at its lower bound. */
#ifndef PATHPROF_CLI_VPP_H
#define PATHPROF_CLI_VPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "graph/meta.h"
#include "vpp-hist.h"

#define VPP_FLAG_UNSTABLE 1u      /* the counter is not invariant */
#define VPP_FLAG_NANOSECONDS 2u   /* the counter is a clock in ns */
#define VPP_FLAG_EVENTS_UNAVAILABLE 4u /* the second counter asked for was not there */
#define VPP_NBUCKETS 32u          /* of the derived deltas */

struct vpp_path {
    uint32_t tu, func;
    uint64_t path_id;
    uint64_t samples, base, total, max;   /* samples 0: only outliers, the rest 0 */
    uint64_t outliers;             /* timings set aside (PATHPROF_VPP_OUTLIER) */
    uint64_t ev_samples, events;   /* timings with a second counter reading, their sum */
    uint64_t hist[VPP_NBUCKETS];   /* deltas: bucket 0: 0; b: [2^(b-1), 2^b); last: more;
                                      each time bucket's count at its lower bound's delta */
    uint64_t times[PPRT_VPP_NBUCKETS]; /* the file's histogram of times (vpp-hist.h) */
    double net;                    /* total - samples x base, in ticks */
};

struct vpp_data {
    uint32_t flags, counter;       /* counter: 1 rdtsc, 2 cntvct_el0, 3 clock_gettime */
    uint64_t sample_n, bias, bias_median, bias_p90, program_ticks;
    uint64_t timed, orphans, unattributed;
    uint64_t migrated;             /* timings dropped: the path changed CPU */
    uint64_t outlier_ticks;        /* PATHPROF_VPP_OUTLIER (0: none set aside) */
    uint64_t outliers;             /* timings above it, set aside */
    uint32_t events;               /* the second counter: 0 none, 1 cache-misses */
    size_t npaths;
    struct vpp_path *paths;        /* as in the file: by (tu, func, path_id) */
};

/* TUS: the profile's TU metadata by section rank (labels are checked
 * against them). */
bool vpp_read(const unsigned char *body, size_t len, const struct pp_tu_meta *tus, size_t ntus,
              struct vpp_data *v, struct pp_error *err);
void vpp_free(struct vpp_data *v);

/* The counter's name ("rdtsc", ...). */
const char *vpp_counter_name(uint32_t counter);
/* The second counter's name ("none", "cache-misses"), as PATHPROF_VPP_COUNTER says it. */
const char *vpp_events_name(uint32_t events);

#endif
