/* estimate_out.h - how reports print a sampled count's estimate and its
 * confidence interval (query/estimate.h, docs/sampling.md). */
#ifndef PP_RENDER_ESTIMATE_OUT_H
#define PP_RENDER_ESTIMATE_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "query/estimate.h"

/* "estimate ~E, 95% interval LO to HI (seen C times in bursts)". */
void estimate_text(FILE *out, const struct pp_estimate *e, uint64_t seen);

/* ",\"KEY\":E,\"KEY_interval\":[LO,HI]"; both null when E is not known. */
void estimate_json(FILE *out, const char *key, const struct pp_estimate *e);

/* ",\n \"sampling\":" and null, or the SAMPLING section with the scale
 * and the confidence level of the intervals (docs/json.md). */
void sampling_json(FILE *out, const struct pp_profile *p);

#endif
