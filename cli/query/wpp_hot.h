/* wpp_hot.h - hot subpaths of one grammar (the WPP paper, section 4.2).
 *
 * A subpath is a run of consecutive symbols of the stream; its cost is the
 * sum of its symbols' costs, and it is hot when that cost times its
 * frequency reaches C.  wpp_hot_fig7() is the paper's Fig. 7: a postorder
 * walk of the grammar's DAG that, at each rule, looks only at the strings
 * formed across its right side's symbols (L-limited prefixes and suffixes
 * of the rules it uses), with the rule's frequency; it reports minimal hot
 * subpaths.  wpp_hot_all() counts every subpath of length MIN..MAX exactly
 * on the grammar (each occurrence at the one rule where it crosses from
 * one right-side symbol to another), which equals counting the expanded
 * stream; it also gives the exact count of Fig. 7's subpaths. */
#ifndef PATHPROF_CLI_WPP_HOT_H
#define PATHPROF_CLI_WPP_HOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "read/wpp.h"

struct wpp_sub {
    uint64_t *terms; /* the grammar's terminal numbers */
    uint32_t len;
    uint64_t found;  /* Fig. 7: occurrences it was found at (rule frequencies) */
    uint64_t count;  /* exact occurrences in the stream */
    uint64_t cost;   /* per occurrence */
};

struct wpp_subs {
    struct wpp_sub *v;
    size_t n, cap;
};

/* COST[t] for each terminal.  ALL false: Fig. 7's subpaths (with their
 * exact counts); ALL true: every subpath with cost x count >= MIN_COST. */
bool wpp_hot(const struct wpp_grammar *g, const uint64_t *cost, uint32_t min_len,
             uint32_t max_len, uint64_t min_cost, bool all, struct wpp_subs *out,
             struct pp_error *err);
void wpp_subs_free(struct wpp_subs *s);

#endif
