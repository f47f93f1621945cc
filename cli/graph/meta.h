/* meta.h - the TU metadata blob (docs/format.md, section 2): parsing and
 * validation (meta_parse), and what the rest of the CLI asks of a parsed
 * blob. The parsed form and its invariants are in meta-types.h. */
#ifndef PATHPROF_CLI_META_H
#define PATHPROF_CLI_META_H

#include <stdint.h>

#include "base/error.h"
#include "meta-types.h"

/* Names of the function flags, in bit order (report, JSON). */
struct pp_flag_name {
    uint32_t bit;
    const char *name;
};
#define PP_NFLAG_NAMES 12
extern const struct pp_flag_name pp_flag_names[PP_NFLAG_NAMES];
/* Whether FLAGS has a flag with a name above: the bits that only say how
 * the metadata is laid out (PATHPROF_FN_LINES) have none, and a function
 * with only those has nothing to show in a report's flag column. */
bool meta_has_named_flags(uint32_t flags);

/* Adds "function I (NAME)" to ERR's context: F, the I-th function of its
 * TU, is what failed (meta_parse, loops_classify_tu). */
void meta_func_context(struct pp_error *err, uint32_t i, const struct pp_func_meta *f);

/* The defining edge of path ID when its count is derived, else NULL. */
const struct pp_derived *meta_derived(const struct pp_func_meta *f, uint64_t id);

/* Parses and validates a blob. On failure returns false with err set and
 * *tu left empty (nothing to free). */
bool meta_parse(const unsigned char *blob, uint64_t len, struct pp_tu_meta *tu,
                struct pp_error *err);
void meta_free(struct pp_tu_meta *tu);

/* Whether F has the line table: exact lines per block (PATHPROF_FN_LINES). */
bool meta_has_lines(const struct pp_func_meta *f);

#endif
