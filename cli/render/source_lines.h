/* source_lines.h - showing the source text of a path's lines.
 *
 * Profiles are self-contained, so sources are optional: a file that cannot
 * be opened (relative names are resolved against the current directory) or
 * is shorter than a range simply prints no text. Each file is read once. */
#ifndef PATHPROF_CLI_SOURCE_LINES_H
#define PATHPROF_CLI_SOURCE_LINES_H

#include <stdio.h>

#include "graph/path.h"

struct source_cache;

struct source_cache *source_cache_new(void);
void source_cache_free(struct source_cache *c);

/* Prints "INDENT<range>" and, when the source is readable, its lines as
 * "INDENT    NNN | text" (at most SOURCE_MAX_LINES per range). */
#define SOURCE_MAX_LINES 12
void source_print_range(FILE *out, struct source_cache *c, const struct line_range *r,
                        const char *indent);

#endif
