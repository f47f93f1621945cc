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
/* The lines the path runs, with their source text when readable: with the
 * line table (meta_has_lines) exactly its blocks' lines, grouped per file
 * between two decisions; in older profiles the blocks' ranges, filtered
 * (path_runs_line). Nothing is merged across a decision: at each block
 * with several ways out a line says which way the path went and which it
 * did not, so two different paths never read the same. */
void out_path_lines(FILE *out, struct source_cache *c, const struct pp_func_meta *f,
                    const struct path *p, const char *indent);

/* The decision P takes with its I-th edge (whose source has several ways
 * out): "INDENT  branch at line 4 -> line 8; not taken: line 5". */
void out_branch(FILE *out, const struct pp_func_meta *f, const struct path *p, uint32_t i,
                const char *indent);

/* A k-iteration path's BL path IDs, a loop repeating one path as one
 * run: how many times IDS[I] repeats from I on; " 4 x3 7" (a leading
 * space per run); the marker before run I of RUN iterations. */
uint32_t ids_repeat(const uint64_t *ids, uint32_t len, uint32_t i);
void out_id_runs(FILE *out, const uint64_t *ids, uint32_t len);
void out_iteration_marker(FILE *out, uint64_t id, uint32_t i, uint32_t run);

#endif
