/* profile-merge.h - adding profiles together (docs/format.md, "Merging").
 *
 * One accumulator takes whole profile files, one after the other, and
 * gives back one profile whose counts are their sums: Ball-Larus path
 * counts and direct edge counts per function, the k-IPF forests node by
 * node, the pruned k-iteration paths with their bounds added
 * conservatively, the PROGRAM and STREAM totals.  Translation units are
 * matched by their metadata blob (byte for byte); a function that appears
 * under the same name and file with another CFG checksum comes from a
 * different build and is refused, naming it.
 *
 * The result does not depend on the order the profiles were added in, nor
 * on how they were grouped: TU sections, forest children and pruned
 * sequences are written in a canonical order, and every header field is a
 * sum, a maximum or "the same in every input".  So merge(a, merge(b, c))
 * and merge(merge(a, b), c) are the same bytes.
 *
 * Two users: `pathprof merge` (cli/cmd/merge.c), and the runtime's
 * accumulation mode (PATHPROF_ACCUMULATE, profile-write.c), which adds the
 * profile already on disk and its own under a lock.  Nothing here prints
 * or touches a file. */
#ifndef PATHPROF_RT_PROFILE_MERGE_H
#define PATHPROF_RT_PROFILE_MERGE_H

#include "bytebuf.h"
#include "profile-merge-error.h"

#include <stddef.h>

#pragma GCC visibility push(hidden)

struct pprt_merge;

/* NULL when out of memory. */
struct pprt_merge *pprt_merge_new(void);

/* Adds the profile DATA (LEN bytes); NAME says where it came from in
 * error messages (a build mismatch names both profiles).  Returns 0, or
 * -1 with *ERR set: the input is not a sound profile, comes from another
 * build, has a section this code cannot add, or a sum would exceed
 * 2^64 - 1.  After a failure the accumulator must only be freed. */
int pprt_merge_add(struct pprt_merge *m, const unsigned char *data, size_t len,
                   const char *name, struct pprt_merge_error *err);

/* Before the first add: from now on M only checks that its inputs could
 * be added (envelope and checksum, modes, TU metadata and every
 * function's CFG checksum, PROGRAM, STREAM, SAMPLING and VPP as always,
 * and the fixed part of KIPF, KPRUNE and WPP sections: k, budgets,
 * versions) and keeps no counts: it costs a pass over the bytes, not the
 * building of forests.  What it skips, a section's inner structure, is
 * checked when the inputs are added for good.  Such an M cannot be
 * encoded.  PATHPROF_ACCUMULATE's appends use it (profile-accumulate.c). */
void pprt_merge_check_only(struct pprt_merge *m);

/* Profiles added so far. */
size_t pprt_merge_count(const struct pprt_merge *m);

/* Appends the merged profile (header to trailer) to OUT; 0, or -1 with
 * *ERR set (out of memory, or nothing added). */
int pprt_merge_encode(const struct pprt_merge *m, struct pprt_buf *out,
                      struct pprt_merge_error *err);

void pprt_merge_free(struct pprt_merge *m);

#pragma GCC visibility pop

#endif
