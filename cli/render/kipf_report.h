/* kipf_report.h - `pathprof report --k`: the k-iteration paths of the
 * KIPF section, in text (kipf_report.c) or JSON (kipf_json.c). */
#ifndef PATHPROF_CLI_KIPF_REPORT_H
#define PATHPROF_CLI_KIPF_REPORT_H

#include <stdio.h>

#include "query/kipf_paths.h"

/* P must have a KIPF section. */
bool kipf_report_text(FILE *out, const struct pp_profile *p, const struct kipf_options *o,
                      struct pp_error *err);
bool kipf_report_json(FILE *out, const struct pp_profile *p, const struct kipf_options *o,
                      struct pp_error *err);

#endif
