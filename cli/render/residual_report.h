/* residual_report.h - `pathprof residual` in text and JSON: the paths
 * that ran in the production profile and never in the test profile, the
 * reverse, and the functions whose paths could not be compared. */
#ifndef PATHPROF_CLI_RESIDUAL_REPORT_H
#define PATHPROF_CLI_RESIDUAL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "query/func_match.h"
#include "query/rank.h"
#include "read/profile.h"

/* One side of the comparison: a profile, its name, and its paths that the
 * other side never ran (residual_collect), MATCH its functions' places in
 * the other profile. */
struct residual_side {
    const char *file;
    const struct pp_profile *prof;
    const struct func_match *match;
    const struct ranked_path *only;   /* ran here, never on the other side */
    size_t nonly;
};

/* TOP: paths shown per list, 0 for all. */
bool residual_text(FILE *out, const struct residual_side *test, const struct residual_side *prod,
                   uint64_t top, struct pp_error *err);
bool residual_json(FILE *out, const struct residual_side *test, const struct residual_side *prod,
                   uint64_t top, struct pp_error *err);

#endif
