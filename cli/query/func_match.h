/* func_match.h - the same function in two profiles.
 *
 * Path IDs of two profiles can be compared only within one numbering, and
 * a numbering belongs to a function's graph: functions match when their
 * name, file and CFG checksum agree (docs/format.md). A function whose
 * name and file agree but whose checksum does not was changed between the
 * two builds; its paths cannot be compared and callers say so. */
#ifndef PATHPROF_CLI_FUNC_MATCH_H
#define PATHPROF_CLI_FUNC_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "read/profile.h"

#define FUNC_MATCH_NONE ((size_t)-1)

enum func_match_kind {
    FUNC_MATCH_SAME,     /* same name, file and checksum: IDs comparable */
    FUNC_MATCH_CHANGED,  /* same name and file, another checksum */
    FUNC_MATCH_ABSENT,   /* no function of that name and file */
};

struct func_match {
    enum func_match_kind kind;
    size_t other;        /* index in the other profile, FUNC_MATCH_NONE when ABSENT */
};

/* OUT[i] (room for a->nfuncs) says where a->funcs[i] is in B; false
 * when out of memory. */
bool func_match(const struct pp_profile *a, const struct pp_profile *b, struct func_match *out);

/* The count of path ID in F, 0 when it never ran. */
uint64_t func_path_count(const struct pp_func *f, uint64_t id);

#endif
