/* path_diff.h - two profiles of one program compared path by path
 * (`pathprof diff A B`): how each path's share of the flow changed, which
 * paths are new in B and which are gone from it, per function and overall.
 *
 * Functions are matched by name and file; a function whose checksum or
 * number of paths differs was rebuilt from other code, so its path IDs
 * name other paths: it is flagged, its paths are not compared. A path's
 * share is its count over its profile's total (overall) or over its
 * function's total (within the function). */
#ifndef PATHPROF_CLI_PATH_DIFF_H
#define PATHPROF_CLI_PATH_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/profile.h"

#define DIFF_NONE SIZE_MAX

enum diff_status {
    DIFF_BOTH,      /* ran in A and in B */
    DIFF_NEW,       /* ran in B only */
    DIFF_GONE,      /* ran in A only */
    DIFF_CHANGED,   /* function only: other code in B, paths not compared */
};

struct diff_path {
    size_t func;            /* index into diff->funcs */
    uint64_t id;
    uint64_t ca, cb;        /* counts in A and B */
    double sa, sb;          /* share of the profile's total, 0 to 1 */
    double fsa, fsb;        /* share of the function's total */
    enum diff_status status;
};

struct diff_func {
    size_t fa, fb;          /* index into A's / B's funcs, DIFF_NONE when absent */
    uint64_t ta, tb;        /* path counts summed */
    double sa, sb;          /* share of the profile's total */
    enum diff_status status;
    size_t npaths;          /* its entries in diff->paths */
};

struct path_diff {
    const struct pp_profile *a, *b;
    uint64_t total_a, total_b;
    size_t nfuncs;
    struct diff_func *funcs;    /* functions that ran in A or B, A's order then B's */
    size_t npaths;
    struct diff_path *paths;    /* by function, then ID */
};

/* Compares A and B. SELECTED_A, SELECTED_B (NULL: all): the functions of
 * each to compare. False (err set) only when out of memory. */
bool path_diff_build(const struct pp_profile *a, const struct pp_profile *b,
                     const bool *selected_a, const bool *selected_b, struct path_diff *d,
                     struct pp_error *err);
void path_diff_free(struct path_diff *d);

/* The function a row belongs to, as A has it (or B when only B has it, or
 * when only B's copy carries a variant label: B holds other builds of it). */
const struct pp_func_meta *diff_func_meta(const struct path_diff *d, size_t func);

/* Orders of rows (indices into d->paths / d->funcs), largest change of
 * share first (absolute), ties by function then ID; WITHIN: the share
 * within the function instead of the profile's. */
void diff_rank_paths(const struct path_diff *d, size_t *rows, size_t n, bool within);
void diff_rank_funcs(const struct path_diff *d, size_t *rows, size_t n);

const char *diff_status_name(enum diff_status s);

#endif
