/* report.h - the two renderings of `pathprof report`. */
#ifndef PATHPROF_CLI_REPORT_H
#define PATHPROF_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "read/profile.h"

/* TOP: paths per table (text) or per function (JSON); 0 means all.
 * SELECTED[i]: function i is reported (NULL: all). A path that does not
 * decode fails with err set (the profile is damaged). */
bool report_text(FILE *out, const struct pp_profile *p, const bool *selected, uint64_t top,
                 struct pp_error *err);
bool report_json(FILE *out, const struct pp_profile *p, const bool *selected, uint64_t top,
                 struct pp_error *err);

#endif
