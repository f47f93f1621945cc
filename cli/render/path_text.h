/* path_text.h - a decoded path in words, shared by report and show. */
#ifndef PATHPROF_CLI_PATH_TEXT_H
#define PATHPROF_CLI_PATH_TEXT_H

#include <stdio.h>

#include "graph/path.h"
#include "source_lines.h"

/* Where a node is for a reader: "t.c:12" when it has lines, else "bb N". */
void out_node_place(FILE *out, const struct pp_func_meta *f, uint32_t node);
/* "starts at function entry; ends at return" and the like (no newline). */
void out_path_ends(FILE *out, const struct pp_func_meta *f, const struct path *p);
/* The path's merged line ranges, each with its source text when readable. */
void out_path_lines(FILE *out, struct source_cache *c, const struct pp_func_meta *f,
                    const struct path *p, const char *indent);

#endif
