/* estimate.h - estimates of full counts from the counts of a sampled
 * profile, with a confidence interval (docs/sampling.md, "Estimates and
 * their intervals"). */
#ifndef PP_QUERY_ESTIMATE_H
#define PP_QUERY_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "read/profile.h"

/* The confidence level of every interval the CLI prints. */
#define PP_ESTIMATE_CONFIDENCE 0.95

struct pp_estimate {
    bool known;      /* false: nothing was sampled to scale by (no burst ran) */
    bool exact;      /* 1/1 or no sampling: the count is the full count */
    double value;    /* the estimate of the full count */
    double lo, hi;   /* its PP_ESTIMATE_CONFIDENCE interval */
};

/* The estimate of the full count of something counted COUNT times in the
 * bursts of P that spans SPAN consecutive checks (1 for a Ball-Larus path
 * or a function's total; M for a k-iteration path of M BL paths: it is
 * seen only when its M paths fall in one burst). */
struct pp_estimate estimate_count(const struct pp_profile *p, uint64_t count, uint32_t span);

#endif
