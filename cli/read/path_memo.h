/* path_memo.h - the length in blocks of (function, path ID) pairs, each
 * decoded once.
 *
 * A k-iteration forest names the same few BL paths of a function millions
 * of times (bzip2 at k = 16: 17 M nodes, a few thousand distinct paths),
 * and the KIPF reader (validating every ID) and `report --k` (summing
 * lengths) would decode each one per node.  A direct-mapped cache keyed by
 * the function's metadata and the ID answers the repeats; a miss decodes
 * with path_decode, so a bad ID fails exactly as it did without the memo. */
#ifndef PATHPROF_CLI_PATH_MEMO_H
#define PATHPROF_CLI_PATH_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "graph/meta.h"
#include "graph/path.h"
#include "profile.h"

struct path_memo;

/* A memo for the functions of P's TU sections (NULL on out of memory). */
struct path_memo *path_memo_new(const struct pp_profile *p);
void path_memo_free(struct path_memo *m);

/* Decodes ID of F once; *NBLOCKS gets its length in blocks. False, with
 * ERR set by path_decode, when ID is not a path of F. */
bool path_memo_nblocks(struct path_memo *m, const struct pp_func_meta *f, uint64_t id,
                       uint32_t *nblocks, struct pp_error *err);

#endif
