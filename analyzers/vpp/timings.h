/* timings.h - per path, the timed executions of a VPP run (docs/vpp.md):
 * how many, the basetime (the least), the total and the largest, and a
 * histogram of the deltas above the basetime in log2 buckets.  Bounded
 * memory per path: one fixed record, whatever the number of samples.
 *
 * The histogram is of the times themselves in fixed log-linear buckets
 * (runtime/vpp-hist.h), so it is exact whenever the basetime moves, and
 * two records of one path (two analyzer threads, two profiles) add
 * bucket by bucket.  Its 305 buckets come in groups of 8 (an octave),
 * each allocated when a time first falls in it: a path's times span a few
 * octaves, so a path costs its 400-byte slot (the table is at most half
 * full) and 64 bytes per octave its times reach, not 2.4 KB of buckets. */
#ifndef PATHPROF_VPP_TIMINGS_H
#define PATHPROF_VPP_TIMINGS_H

#include <stddef.h>
#include <stdint.h>

#include "vpp-hist.h"

#pragma GCC visibility push(hidden)

#define VPP_BUCKETS PPRT_VPP_NBUCKETS
#define VPP_GROUP 8u
#define VPP_GROUPS ((VPP_BUCKETS + VPP_GROUP - 1) / VPP_GROUP)

struct vpp_stat {
    uint64_t g;             /* global path index; 0: an empty slot */
    uint64_t tu_id, path_id;
    uint32_t func;
    uint64_t samples, base, total, max;
    uint64_t outliers;      /* timings above PATHPROF_VPP_OUTLIER, set aside */
    uint64_t ev_samples;    /* timings with a second counter's reading */
    uint64_t events;        /* their sum (PATHPROF_VPP_COUNTER) */
    uint64_t *grp[VPP_GROUPS]; /* the histogram of the times (vpp-hist.h) by
                                  groups of VPP_GROUP buckets, NULL: all 0 */
};

struct vpp_table {
    struct vpp_stat *slots;
    size_t cap, n;          /* cap a power of two, n <= cap / 2 */
};

/* The record of G, made (with TU_ID, FUNC, PATH_ID) when new; NULL when
 * out of memory. */
struct vpp_stat *vpp_table_get(struct vpp_table *t, uint64_t g, uint64_t tu_id,
                               uint32_t func, uint64_t path_id);
/* The record of G if there is one. */
struct vpp_stat *vpp_table_find(const struct vpp_table *t, uint64_t g);
/* One timed execution of TICKS: 0, or -1 (nothing recorded) when out of
 * memory. */
int vpp_stat_add(struct vpp_stat *s, uint64_t ticks);
/* Folds FROM into INTO (the same path): 0, or -1 (INTO unchanged) when
 * out of memory. */
int vpp_stat_merge(struct vpp_stat *into, const struct vpp_stat *from);
/* Bucket B's count. */
uint64_t vpp_stat_bucket(const struct vpp_stat *s, unsigned b);
void vpp_table_free(struct vpp_table *t);

#pragma GCC visibility pop

#endif
