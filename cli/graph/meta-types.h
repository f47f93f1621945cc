/* meta-types.h - the TU metadata blob (docs/format.md, section 2) after
 * parsing and validation (meta.h): per function its directory entry and
 * its numbered DAG.
 *
 * Invariants established by meta_parse (everything else may rely on them):
 * - node 0 is ENTRY (bb 0), node 1 is EXIT (bb 1), nnodes >= 2;
 * - every edge has src, dst < nnodes, no edge enters ENTRY or leaves EXIT,
 *   kinds are known and consistent (ENTRY_DUMMY leaves ENTRY, EXIT_DUMMY and
 *   TERMINAL enter EXIT, real_dst < nnodes exactly for EXIT_DUMMY);
 * - the edges of one node are contiguous and sorted by ascending val, found
 *   through out_first/out_count;
 * - the graph is acyclic;
 * - verify edges have src, dst < nnodes and their number matches the
 *   directory entry;
 * - a PPP function's table holds distinct IDs below npaths, or holes;
 * - with the LINES flag, every node's spans are as struct pp_node says. */
#ifndef PATHPROF_CLI_META_TYPES_H
#define PATHPROF_CLI_META_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* Lines FIRST..LAST of FILE hold statements of a block (the line table,
 * docs/format.md). */
struct pp_line_span {
    const char *file;
    uint32_t first, last; /* 1 <= first <= last */
};

struct pp_node {
    uint32_t bb;          /* GCC bb->index; 0 ENTRY, 1 EXIT */
    const char *file;     /* NULL when the block has no statements with a location */
    uint32_t line_first;
    uint32_t line_last;
    /* With the LINES flag: the exact lines of the block's statements, sorted
     * by file (string index) and line, disjoint and not adjacent; ENTRY and
     * EXIT have none. Without it: 0, NULL (only the range above is known). */
    uint32_t nspans;
    const struct pp_line_span *spans;
};

struct pp_edge {
    uint32_t src, dst;    /* node numbers */
    uint32_t kind;        /* PATHPROF_EDGE_* */
    uint32_t real_dst;    /* node number, EXIT_DUMMY only; PATHPROF_NONE otherwise */
    uint64_t val;         /* Ball-Larus value: a path's ID is the sum over its edges */
    int64_t inc;          /* increment after chord placement (informative) */
};

struct pp_verify_edge {
    uint32_t src, dst;    /* node numbers */
};

/* TPP: an obvious path whose count comes from a counter on its defining
 * edge (docs/tpp.md), not from a count at its end. */
struct pp_derived {
    uint64_t id;          /* the path */
    uint32_t edge;        /* index in edges[]: REAL or EXIT_DUMMY */
};

struct pp_func_meta {
    const char *name;
    const char *file;     /* NULL when "none" */
    const char *build;    /* its TU's build line (struct pp_tu_meta), or NULL */
    char *variant;        /* what tells this build of it from the profile's others
                             ("with -fPIC"; func_variants.c), NULL when it has none */
    uint64_t checksum;
    uint32_t flags;       /* PATHPROF_FN_* */
    uint32_t line;
    uint32_t line_end;    /* the declaration line of the next function of its
                             file in the TU (nested functions and lambdas
                             aside): its own text ends before; 0 unknown */
    uint64_t npaths;      /* hot path IDs; with TPP, IDs npaths .. npaths + cold_ids - 1
                             are cold (one cold counter, or the cold region); with
                             ppp_total, ID npaths is the total of the others */
    uint64_t cold_ids;    /* TPP: 1, or npaths + 1 with PATHPROF_TPP_COLD_REGION;
                             ppp_total: 1; else 0 */
    uint32_t tpp;         /* TPP and TPP_NOPROFILE: PATHPROF_TPP_CONFIG (i, j); else 0 */
    uint64_t counter_offset;
    uint64_t verify_offset;
    uint32_t nverify;
    uint32_t ppp_size;    /* PPP: N, the PPP numbers of interesting paths */
    bool ppp_total;       /* PPP: the other paths counted only as a total, the
                             record with ID npaths (ppp-uninteresting=total) */
    uint64_t *ppp_table;  /* PPP: per number, the Ball-Larus ID or
                             PATHPROF_PPP_HOLE; NULL otherwise */

    uint32_t nnodes;
    struct pp_node *nodes;
    uint32_t nedges;
    struct pp_edge *edges;
    uint32_t *out_first;  /* per node: index of its first outgoing edge */
    uint32_t *out_count;  /* per node: number of outgoing edges */
    struct pp_verify_edge *verify;
    uint32_t nderived;    /* TPP_DERIVED only */
    struct pp_derived *derived; /* ascending id, each below npaths */
    struct pp_line_span *spans; /* LINES only: every node's spans, node by node */

    /* Computed by loops_classify() (loops.c) from the graph above. */
    uint8_t *edge_closes_loop; /* per edge: an EXIT_DUMMY edge standing for a back edge */
    uint8_t *node_start;       /* per node: enum path_start of a path starting there */
};

struct pp_tu_meta {
    uint32_t nfuncs;
    struct pp_func_meta *funcs;
    uint32_t nstrings;
    char **strings;       /* NUL-terminated copies (strings never contain NUL) */
    uint64_t ncounters;
    const char *build;    /* how the TU was compiled (docs/format.md, section 2),
                             one of strings; NULL in a version 1 blob */
};

/* The outgoing edges of NODE are f->edges[out_first[node] ...]. */
static inline const struct pp_edge *meta_out_edges(const struct pp_func_meta *f,
                                                    uint32_t node, uint32_t *count)
{
    *count = f->out_count[node];
    return f->edges + f->out_first[node];
}

#endif
