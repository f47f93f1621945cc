/* kprune_report.h - `pathprof report --k` on a KPRUNE section: the pruned
 * k-iteration paths with their bounds, in text (kprune_report.c) or JSON
 * (kprune_json.c). */
#ifndef PATHPROF_CLI_KPRUNE_REPORT_H
#define PATHPROF_CLI_KPRUNE_REPORT_H

#include <stdio.h>

#include "query/estimate.h"
#include "read/kprune.h"
#include "read/profile.h"

struct kprune_options {
    const bool *selected;   /* per profile function, NULL: all */
    uint64_t top;           /* sequences listed; 0: all */
    uint64_t min_count;     /* upper bound at least this */
    uint32_t min_length;    /* in BL paths */
    double phi;             /* upper bound at least phi x N_n; 0: all kept */
};

/* The sequences O selects, by descending upper bound (then length, label). */
bool kprune_collect(const struct pp_profile *p, const struct kprune_options *o,
                    const struct kprune_seq ***out, size_t *n, struct pp_error *err);

/* The estimate of a sampled function's sequence S: from its upper bound,
 * the interval from the lower bound's low end to the upper's high end. */
struct pp_estimate kprune_estimate(const struct pp_profile *p, const struct kprune_seq *s);

/* P must have a KPRUNE section. */
bool kprune_report_text(FILE *out, const struct pp_profile *p, const struct kprune_options *o,
                        struct pp_error *err);
bool kprune_report_json(FILE *out, const struct pp_profile *p, const struct kprune_options *o,
                        struct pp_error *err);

#endif
