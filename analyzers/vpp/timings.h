/* timings.h - per path, the timed executions of a VPP run (docs/vpp.md):
 * how many, the basetime (the least), the total and the largest, and a
 * histogram of the deltas above the basetime in log2 buckets.  Bounded
 * memory per path: one fixed record, whatever the number of samples.
 *
 * The basetime is only known at the end, so the histogram is kept against
 * the least time seen so far; when a smaller one comes, the buckets are
 * moved by the difference (each bucket's count goes to the bucket of its
 * lower bound plus the difference): exact for every sample taken after
 * the final basetime was seen, approximate for the few before. */
#ifndef PATHPROF_VPP_TIMINGS_H
#define PATHPROF_VPP_TIMINGS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Bucket 0: delta 0; bucket b (1..30): [2^(b-1), 2^b); bucket 31: >= 2^30. */
#define VPP_BUCKETS 32u

struct vpp_stat {
    uint64_t g;             /* global path index; 0: an empty slot */
    uint64_t tu_id, path_id;
    uint32_t func;
    uint64_t samples, base, total, max;
    uint64_t hist[VPP_BUCKETS];
};

struct vpp_table {
    struct vpp_stat *slots;
    size_t cap, n;          /* cap a power of two, n <= cap / 2 */
};

unsigned vpp_bucket(uint64_t delta);
/* The lower bound of bucket B's deltas. */
uint64_t vpp_bucket_low(unsigned b);

/* The record of G, made (with TU_ID, FUNC, PATH_ID) when new; NULL when
 * out of memory. */
struct vpp_stat *vpp_table_get(struct vpp_table *t, uint64_t g, uint64_t tu_id,
                               uint32_t func, uint64_t path_id);
/* The record of G if there is one. */
struct vpp_stat *vpp_table_find(const struct vpp_table *t, uint64_t g);
/* One timed execution of TICKS. */
void vpp_stat_add(struct vpp_stat *s, uint64_t ticks);
/* Folds FROM into INTO (the same path). */
void vpp_stat_merge(struct vpp_stat *into, const struct vpp_stat *from);
void vpp_table_free(struct vpp_table *t);

#pragma GCC visibility pop

#endif
