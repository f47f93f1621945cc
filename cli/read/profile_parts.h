/* profile_parts.h - a profile file's bytes as one profile: an accumulated
 * file may hold several whole profiles back to back (docs/format.md,
 * section 3, "Parts"; runtime/profile-parts.h), whose sum it stands for. */
#ifndef PATHPROF_CLI_PROFILE_PARTS_H
#define PATHPROF_CLI_PROFILE_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "profile-parts.h"

/* *DATA (*LEN bytes, malloc'd, read from PATH) becomes one profile: left
 * as it is when it holds one part or is not a sequence of parts at all
 * (the reader then says what is wrong with it); the sum of its parts,
 * added by the merge code of `pathprof merge`, when it holds several.  A
 * torn last part (an append that did not finish) is left out, with a
 * warning on stderr naming PATH (none when PATH is NULL: said before).  False with *ERR set when a part cannot
 * be added (it names the part); *DATA is then freed. */
bool profile_parts_sum(const char *path, unsigned char **data, size_t *len,
                       struct pp_error *err);

/* How DATA (LEN bytes, read from PATH) is to be read, the one decision
 * both profile_parts_sum and `pathprof merge` take: 0, as it is (no parts,
 * or one whole part: the reader says what else is wrong with it); 1, as
 * the PARTS->n parts at (*AT)[i] to (*AT)[i + 1] (one of them when only a
 * torn tail follows a whole part), after warning of a torn tail (when
 * PATH is not NULL); -1 with *ERR set (bytes after the parts that are no
 * profile, or out of memory).  *AT, set only on 1, is the caller's to free. */
int profile_parts_plan(const char *path, const unsigned char *data, size_t len,
                       struct pprt_parts *parts, size_t **at, struct pp_error *err);

/* The warning about BYTES torn bytes at the end of PATH. */
void profile_parts_warn_torn(const char *path, size_t bytes);

#endif
