/* profile-parts.h - a profile file as a sequence of whole profiles.
 *
 * With PATHPROF_ACCUMULATE=1 a process usually appends its own profile to
 * the file instead of merging it into what is there (profile-accumulate.c):
 * a profile file is then one profile or several back to back, each whole
 * (header, payload, trailer: docs/format.md, section 3, "Parts"), and what
 * it holds is their sum.  Readers split the bytes here and add the parts
 * with the merge code (profile-merge.h).  A part cut short at the end of
 * the file is an append that did not finish (its process was killed, or
 * it is being written now): it is not a part, and not counted. */
#ifndef PATHPROF_RT_PROFILE_PARTS_H
#define PATHPROF_RT_PROFILE_PARTS_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Where the parts of a file's bytes are: N whole parts covering
 * [0, WHOLE); the bytes after WHOLE are either an incomplete part (TORN:
 * they start as a part does, header or a prefix of its magic, but end
 * before the part's announced end) or something else (TORN 0: not a
 * profile's bytes at all, for the reader to refuse).  A part is "whole"
 * by its header only (magic, header size, payload size): its checksum is
 * the merge's to check. */
struct pprt_parts {
    size_t n, whole;
    int torn;
};

/* Splits DATA (LEN bytes); *OFFSETS (malloc'd, N + 1 entries: part i is
 * [offsets[i], offsets[i + 1])) may be NULL when only the counts are
 * wanted.  Returns 0, or -1 when out of memory. */
int pprt_profile_parts(const unsigned char *data, size_t len, struct pprt_parts *parts,
                       size_t **offsets);

#pragma GCC visibility pop

#endif
