/* path-count-sort.h - sorting (path ID, count) records by path ID, as the
 * profile writes them: hash-mode functions' counts come out of their
 * tables in slot order (hash-collect.c), PPP functions' from two places
 * (profile-encode.c). */
#ifndef PATHPROF_PATH_COUNT_SORT_H
#define PATHPROF_PATH_COUNT_SORT_H

#include <stddef.h>

#include "hash-table.h"

#pragma GCC visibility push(hidden)

/* V[0..N) by ascending path_id (equal IDs in any order). */
void pprt_sort_path_counts(struct pprt_path_count *v, size_t n);

#pragma GCC visibility pop

#endif
