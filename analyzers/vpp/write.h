/* write.h - the vpp analyzer's state and its VPP section (docs/format.md,
 * tag 8). */
#ifndef PATHPROF_VPP_WRITE_H
#define PATHPROF_VPP_WRITE_H

#include <stdint.h>

#include "bytebuf.h"
#include "vpp/timings.h"

#pragma GCC visibility push(hidden)

#define VPP_SECTION_VERSION 2u

struct vpp_an {
    void *blpp;              /* the blpp analyzer inside: the path counts */
    struct vpp_table paths;  /* timed paths by global index */
    uint64_t bias;           /* subtracted from every timing */
    int have_clock;
    uint64_t timed;          /* timings recorded */
    uint64_t orphans;        /* VPP markers with no path event before them */
    uint64_t outliers;       /* timings above PATHPROF_VPP_OUTLIER, set aside
                                (the records' outliers and those of unknown paths) */
    uint64_t unknown;        /* timings of paths of no registered TU */
    uint64_t lost;           /* timings not kept for lack of memory */
};

void vpp_write_section(struct vpp_an *v, struct pprt_buf *out, uint32_t *nsections);

#pragma GCC visibility pop

#endif
