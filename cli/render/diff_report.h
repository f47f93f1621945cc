/* diff_report.h - `pathprof diff A B` in text (diff_text.c) and JSON
 * (diff_json.c). */
#ifndef PATHPROF_CLI_DIFF_REPORT_H
#define PATHPROF_CLI_DIFF_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "query/path_diff.h"

/* TOP: rows per table (0: all). FILE_A, FILE_B: the names given. */
bool diff_report_text(FILE *out, const struct path_diff *d, const char *file_a,
                      const char *file_b, uint64_t top, struct pp_error *err);
bool diff_report_json(FILE *out, const struct path_diff *d, const char *file_a,
                      const char *file_b, uint64_t top, struct pp_error *err);

#endif
