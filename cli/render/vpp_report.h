/* vpp_report.h - `pathprof vpp`: the paths of a VPP profile ranked by net
 * variation, in text (with source lines and histograms) and JSON
 * (docs/cli.md, docs/json.md). */
#ifndef PATHPROF_CLI_VPP_REPORT_H
#define PATHPROF_CLI_VPP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "query/vpp_rank.h"

struct vpp_view {
    const struct pp_profile *p;
    const struct vpp_data *v;
    const struct vpp_ranking *r;
    size_t top;                    /* paths shown (0: all) */
    /* --against: the capture of OTHER's top paths, else other == NULL */
    const char *other;
    size_t top_other, found;
    double cross, self;
};

bool vpp_text(FILE *out, const struct vpp_view *w, struct pp_error *err);
void vpp_json(FILE *out, const struct vpp_view *w);

#endif
