/* func_index.h - a profile's functions found by name and file in
 * O(log n).
 *
 * Comparing two profiles (diff, residual) looks each function of one up
 * in the other. A profile of a large program holds tens of thousands of
 * functions, and a scan per lookup made that quadratic (20000 functions:
 * 1.5 s for residual; 100000 would take half a minute). The index is the
 * profile's function numbers sorted by (name, file, number): the copies
 * of one name and file (several builds of one source, docs/runtime.md)
 * are one range, in the profile's own order, so that a caller taking the
 * first copy that fits takes the one a scan would. */
#ifndef PATHPROF_CLI_FUNC_INDEX_H
#define PATHPROF_CLI_FUNC_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "read/profile.h"

struct func_index {
    const struct pp_profile *p;
    size_t *order; /* function numbers, sorted as above */
};

/* False when out of memory. */
bool func_index_build(struct func_index *ix, const struct pp_profile *p);
void func_index_free(struct func_index *ix);

/* The functions of the index's profile with M's name and file are
 * ix->order[*begin .. *end), empty when there are none. */
void func_index_range(const struct func_index *ix, const struct pp_func_meta *m, size_t *begin,
                      size_t *end);

#endif
