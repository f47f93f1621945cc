/* path.h - decoding a path ID back into the graph (docs/format.md,
 * "Decoding a path ID") and describing the result: blocks, the real CFG
 * edges it takes, where it starts and ends, the source lines it runs. */
#ifndef PATHPROF_CLI_PATH_H
#define PATHPROF_CLI_PATH_H

#include <stdint.h>

#include "base/error.h"
#include "loops.h"
#include "meta.h"

/* A decoded path: the DAG edges it takes, ENTRY first, EXIT last. */
struct path {
    uint64_t id;
    uint32_t nedges;
    uint32_t *edges;      /* indices into meta->edges; capacity meta->nnodes */
};

/* Allocates room for the longest path of F (one edge per node at most). */
bool path_alloc(const struct pp_func_meta *f, struct path *p, struct pp_error *err);
void path_release(struct path *p);

/* Decodes ID. Fails (err set) when ID >= npaths or the values along the
 * graph do not add up to it: both mean the profile is damaged. */
bool path_decode(const struct pp_func_meta *f, uint64_t id, struct path *p,
                 struct pp_error *err);

/* Blocks on the path: the nodes visited other than ENTRY and EXIT. */
static inline uint32_t path_nblocks(const struct path *p)
{
    return p->nedges - 1;
}

/* The I-th block's node number (I < path_nblocks). */
static inline uint32_t path_block(const struct pp_func_meta *f, const struct path *p,
                                  uint32_t i)
{
    return f->edges[p->edges[i]].dst;
}

enum path_start path_start_kind(const struct pp_func_meta *f, const struct path *p);
enum path_end path_end_kind(const struct pp_func_meta *f, const struct path *p);
const char *path_start_name(enum path_start kind);
const char *path_end_name(enum path_end kind);
/* The node the path's last (EXIT_DUMMY) edge really leads to, or PATHPROF_NONE. */
uint32_t path_end_target(const struct pp_func_meta *f, const struct path *p);

/* A real CFG edge as GCC bb indices (ENTRY 0, EXIT 1). */
struct bb_edge {
    uint32_t src_bb, dst_bb;
};

/* The real CFG edges the path traverses, in order (format.md: REAL edges
 * whose ends are both blocks or whose dst is EXIT, plus src -> real_dst for
 * a closing EXIT_DUMMY edge). OUT needs room for p->nedges entries. */
uint32_t path_real_edges(const struct pp_func_meta *f, const struct path *p,
                         struct bb_edge *out);

/* A source range; consecutive blocks of one file whose lines continue or
 * overlap the previous range are merged into one. */
struct line_range {
    const char *file;
    uint32_t first, last;
};

/* OUT needs room for p->nedges entries. Blocks without a location are skipped. */
uint32_t path_line_ranges(const struct pp_func_meta *f, const struct path *p,
                          struct line_range *out);

/* Whether a statement of node N comes from LINE of FILE (its spans). */
bool node_has_line(const struct pp_node *n, const char *file, uint32_t line);

/* Whether the path runs LINE of FILE. With the line table (meta_has_lines)
 * exactly: a statement of one of its blocks comes from that line.
 * Without, as far as block ranges tell. A
 * block's range runs from its first to its last located statement and may
 * hold lines of other blocks (a switch's cases, an inlined helper):
 * a line that starts or ends one of the path's blocks runs; any other
 * line runs unless a block the path does not take holds it, or it lies
 * outside the function's own text (before its declaration, or from the
 * next function's on: code inlined from there). ON_PATH: per
 * node, 1 when the path visits it (path_mark_nodes). */
bool path_runs_line(const struct pp_func_meta *f, const uint8_t *on_path, const char *file,
                    uint32_t line);
/* Sets ON_PATH[n] (f->nnodes entries) to whether the path visits node n. */
void path_mark_nodes(const struct pp_func_meta *f, const struct path *p, uint8_t *on_path);

/* The source range of one node, false when it has none. */
bool node_lines(const struct pp_node *n, struct line_range *out);

#endif
