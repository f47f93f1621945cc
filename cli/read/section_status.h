/* section_status.h - what a profile's sections say about themselves, and
 * whether a command can go on (section_status.c).  Above profile.h, whose
 * struct pp_profile it works on; the section types it uses are in
 * sections.h, below profile.h (scripts/check-layers.pl). */
#ifndef PATHPROF_CLI_SECTION_STATUS_H
#define PATHPROF_CLI_SECTION_STATUS_H

#include <stdbool.h>
#include <stdio.h>

#include "profile.h"
#include "sections.h"

struct pp_profile;

/* "PROGRAM", "TU", ... or "unknown". */
const char *section_kind(uint32_t tag);

/* Marks section S (an index into p->sections) DAMAGED or UNCHECKED for PART
 * with the reason WHY (copied); the first mark of a section and of a part
 * is the one kept.  False only when out of memory. */
bool section_mark(struct pp_profile *p, size_t s, enum pp_part part,
                  enum pp_section_state state, const char *why);

/* What a command may use. When a part in NEEDS (PP_NEED bits) is broken,
 * prints "pathprof: FILE: <part> unreadable (<what still works>): section N
 * (KIND, at byte B): <why>" and returns false (the caller exits 2);
 * otherwise prints one warning line per broken section and returns true. */
bool sections_usable(const char *file, const struct pp_profile *p, unsigned needs);

/* ",\n \"sections\":[...]": every section with its status (docs/json.md). */
void sections_json(FILE *out, const struct pp_profile *p);

#endif
