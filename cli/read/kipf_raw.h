/* kipf_raw.h - the forest exactly as a KIPF section stores it, between
 * kipf_read.c (which parses and checks it) and kipf_merge.c (which turns
 * its (TU, function) labels into profile functions and merges copies). */
#ifndef PATHPROF_CLI_KIPF_RAW_H
#define PATHPROF_CLI_KIPF_RAW_H

#include "kipf.h"
#include "profile.h"

struct kipf_raw {
    uint32_t tu, func;      /* as in the file, both checked against the TUs */
    uint64_t id, count;
    uint32_t depth;
    size_t first, next;     /* first child, next sibling: KIPF_NONE at the end */
};

/* Builds k->nodes from the NRAW file nodes whose roots are listed from
 * FIRST_ROOT on; fails on siblings with one label (the file is damaged). */
bool kipf_merge(const struct pp_profile *p, struct pp_kipf *k, const struct kipf_raw *raw,
                size_t nraw, size_t first_root, struct pp_error *err);

/* MAP[g] = index in p->funcs of the g-th function of the file, counting
 * TU by TU (function f of TU t is g = f + the functions of TUs before t):
 * absorbed copies map to the function they were merged into.  MAP has
 * room for every function of every TU. */
bool kipf_map_functions(const struct pp_profile *p, size_t *map, struct pp_error *err);

#endif
