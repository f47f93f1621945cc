/* vpp_rank.h - ranking a VPP profile's paths by net variation (the
 * paper's section 5.1) and the stability measure of its section 5.3: how
 * much of one profile's net variation another profile's top paths
 * capture. */
#ifndef PATHPROF_CLI_VPP_RANK_H
#define PATHPROF_CLI_VPP_RANK_H

#include <stddef.h>

#include "read/profile.h"
#include "read/vpp.h"

struct vpp_ranking {
    size_t nranked;           /* paths with >= 2 samples, by net variation */
    size_t *ranked;           /* indices into vpp_data.paths */
    size_t nsingle;           /* paths with one sample, by time */
    size_t *single;
    double net_total;         /* sum of all net variations (ticks, sampled) */
    double time_total;        /* sum of all timed ticks (sampled) */
};

bool vpp_rank(const struct vpp_data *v, struct vpp_ranking *r);
void vpp_ranking_free(struct vpp_ranking *r);

/* The function of path record I. */
const struct pp_func_meta *vpp_func(const struct pp_profile *p, const struct vpp_path *r);

/* Stability: the share of A's net variation on the paths that are B's
 * top TOP (matched by function name, source file, CFG checksum and path
 * ID), and the share A's own top TOP capture.  Returns how many of B's
 * top paths were found in A at all. */
size_t vpp_capture(const struct pp_profile *pa, const struct vpp_data *va,
                   const struct vpp_ranking *ra, const struct pp_profile *pb,
                   const struct vpp_data *vb, const struct vpp_ranking *rb, size_t top,
                   double *cross, double *self);

#endif
